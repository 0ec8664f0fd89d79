"""The ``sueca`` command line."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from sueca.cards import SUIT_LETTERS, SUIT_SYMBOLS, card_symbol, format_mask, parse_card
from sueca.rules import Rules, RulesError

app = typer.Typer(
    help="Sueca, Portugal's national card game: play, check records, run bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

RulesOption = Annotated[
    str, typer.Option("--rules", help="Rules preset: standard, brazil, italiana, pontos, "
                                      "double8, double6, italiana5 (--set dummy=SEAT: three "
                                      "players).")
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a rules option: OPTION=VALUE (repeatable)."),
]


def fail(message: str, code: int = 2) -> typer.Exit:
    # One line, never wrapped at the terminal width: scripts read this message.
    err_console.print(f"sueca: {message}", markup=False, soft_wrap=True)
    return typer.Exit(code)


def parse_value(text: str) -> Any:
    """A ``--set`` value: JSON where it parses (true, 10, "x"), else the plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def build_rules(preset_name: str, overrides: list[str] | None) -> Rules:
    options: dict[str, Any] = {"variant": preset_name}
    for item in overrides or []:
        if "=" not in item:
            raise fail(f"--set takes OPTION=VALUE, not {item!r}")
        key, _, value = item.partition("=")
        options[key.strip()] = parse_value(value.strip())
    try:
        return Rules.from_dict(options)
    except (RulesError, TypeError) as error:
        raise fail(str(error)) from None


@app.command()
def check(
    path: Annotated[Path, typer.Argument(help="A game record (RECORD.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print RECORD.md's JSON output.")] = False,
) -> None:
    """Check a game record: every card legal, every score right.

    Exit status 0 when the record is valid, 1 when it is not, 2 when it is not a record.
    """
    from sueca.record import RecordFormatError, read
    from sueca.record import check as check_record

    try:
        record = read(str(path))
    except RecordFormatError as error:
        raise fail(f"{path}: {error}") from None
    report = check_record(record)
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        print_report(report, record.parsed_rules())  # read() refuses rules that do not parse
    raise typer.Exit(0 if report["valid"] else 1)


def print_report(report: dict[str, Any], rules: Rules) -> None:
    """The check report as a table: per team at a partnership table (any number of seats),
    per player with the bids and the contract at a bidding table."""
    if rules.bidding:
        _print_bidding_report(report)
    else:
        _print_team_report(report, rules)
    if report["valid"]:
        console.print("[green]valid[/green]")
    else:
        error = report["error"]
        where = f"deal {error['deal']}" + (
            f", play {error['play']}" if error["play"] is not None else ""
        )
        console.print(f"[red]invalid[/red] at {where}: {error['reason']}", markup=True)


def _print_bidding_report(report: dict[str, Any]) -> None:
    table = Table(title="Sueca record", title_justify="left")
    for column in ("Deal", "Trump", "Bids", "Contract", "Points", "Result", "Game points",
                   "Match", ""):
        table.add_column(column, justify="right" if column in ("Deal", "Points") else "left")
    score: list[int] = []
    for index, deal in enumerate(report["deals"]):
        contract = deal.get("contract")
        bids = " ".join(str(b) if b else "-" for b in deal.get("bids", []))
        trump = SUIT_SYMBOLS[SUIT_LETTERS.index(deal["trump"])] if deal.get("trump") else ""
        called = result = ""
        if contract is not None:
            partner = contract.get("partner")
            called = (f"{contract['declarer']}: {contract['bid'] or 61} "
                      f"{card_symbol(parse_card(contract['called_card']))} "
                      + (f"+ {partner}" if partner is not None else "alone"))
            made = contract.get("made")
            result = "" if made is None else "made" if made else "failed"
        if deal["finished"]:
            gained = deal["game_points"]
            score = [s + g for s, g in zip(score or [0] * len(gained), gained, strict=True)]
        table.add_row(
            str(index + 1), trump, bids, called,
            f"{deal['points'][0]}–{deal['points'][1]}", result,
            " ".join(map(str, deal["game_points"])) if deal["finished"] else "",
            " ".join(map(str, score)), "" if deal["finished"] else "unfinished",
        )
    console.print(table)
    console.print("Bids in bidding order from the dealer (- a pass); contract: declarer: bid, "
                  "called card + partner; points: the declarer's side – the defenders'; game "
                  "points and match per seat, seat 0 first.")
    match = report["match"]
    console.print("Match score: " + " ".join(map(str, match["score"]))
                  + (f", won by seat {match['winner']}" if match["winner"] is not None else ""))


def _print_team_report(report: dict[str, Any], rules: Rules) -> None:
    table = Table(title="Sueca record", title_justify="left")
    for column in ("Deal", "Trump", "Tricks", "Points", "Game points", "Match", ""):
        table.add_column(column, justify="right" if column not in ("Trump", "") else "left")
    score = [0, 0]
    for index, deal in enumerate(report["deals"]):
        tricks = [0, 0]
        for trick in deal["tricks"]:
            tricks[rules.teams[trick["winner"]]] += 1
        if deal["finished"]:
            score = [s + g for s, g in zip(score, deal["game_points"], strict=False)]
        trump = SUIT_SYMBOLS[SUIT_LETTERS.index(deal["trump"])]
        table.add_row(
            str(index + 1),
            trump,
            f"{tricks[0]}–{tricks[1]}",
            f"{deal['points'][0]}–{deal['points'][1]}",
            f"{deal['game_points'][0]}–{deal['game_points'][1]}" if deal["finished"] else "",
            f"{score[0]}–{score[1]}",
            "; ".join(([] if deal["finished"] else ["unfinished"]) + [
                f"new deal asked by seat {r['asked_by']} ({r['points']} points)"
                for r in deal.get("redeals") or ()]),
        )
    console.print(table)
    match = report["match"]
    console.print(f"Match score (team 0 – team 1): {match['score'][0]}–{match['score'][1]}"
                  + (f", won by team {match['winner']}" if match["winner"] is not None else ""))


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Random seed: the same seed, the same deal.")] = 0,
    dealer: Annotated[int, typer.Option(help="The dealer's seat.")] = 0,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as a record.")] = False,
) -> None:
    """Shuffle and print a deal."""
    from sueca.deal import deal_cards
    from sueca.record import DealRecord, GameRecord, dumps
    from sueca.state import State

    table_rules = build_rules(rules, set_)
    if not 0 <= dealer < table_rules.players:
        raise fail(f"--dealer must be a seat from 0 to {table_rules.players - 1}")
    dealt = deal_cards(table_rules, dealer, random.Random(seed))
    if as_json:
        record = GameRecord(table_rules.to_dict(), dealer,
                            [DealRecord.from_state(State(table_rules, dealt))])
        sys.stdout.write(dumps(record))
        return
    if dealt.trump_card is None:
        console.print(f"Seed {seed}, dealer seat {dealer}; no trump card: the declarer's "
                      "called card will name trumps")
    else:
        console.print(f"Seed {seed}, dealer seat {dealer}, trump card "
                      f"{card_symbol(dealt.trump_card)}")
    for seat, hand in enumerate(dealt.hands):
        # A bidding table has no teams before the auction (rules.teams is empty there).
        team = f" (team {table_rules.teams[seat]})" if table_rules.teams else ""
        dummy = " (dummy)" if seat == table_rules.dummy else ""
        console.print(f"  seat {seat}{team}{dummy}: {format_mask(hand, symbols=True)}")
    dealt_mask = 0
    for hand in dealt.hands:
        dealt_mask |= hand
    aside = ((1 << table_rules.deck_size) - 1) & ~dealt_mask
    if aside:
        console.print(f"  set aside, unseen: {format_mask(aside, symbols=True)}")


@app.command()
def simulate(
    bots: Annotated[str, typer.Option(help="Two bots, team A then team B: e.g. heuristic,random. "
                                           "At a bidding table (italiana5) A takes each seat "
                                           "in turn against B.")]
    = "heuristic,random",
    deals: Annotated[int, typer.Option(help="Number of deals (each played twice when "
                                            "duplicate; at a bidding table once with B in "
                                            "every seat and once per seat for A).")] = 100,
    seed: Annotated[int, typer.Option(help="Random seed for the deals and the bots.")] = 0,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    duplicate: Annotated[bool, typer.Option(help="Play each deal twice, teams swapped.")] = True,
    records: Annotated[Path | None, typer.Option(help="Save every deal's record here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Bot team A against bot team B over many deals (duplicate by default; at a bidding
    table, each deal's seat rotation: docs/arena.md)."""
    from sueca.arena import run_duplicate
    from sueca.bots import make_bot

    table_rules = build_rules(rules, set_)
    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2:
        raise fail("--bots takes two bots, team A and team B: e.g. heuristic,random")
    for name in names:
        try:
            make_bot(name, seed=0).close()  # refuse a bad spec before playing a single deal
        except ValueError as error:
            raise fail(str(error)) from None
    if deals < 1:
        raise fail("--deals must be at least 1")
    try:
        summary = run_duplicate(table_rules, names[0], names[1], deals, seed, records, duplicate)
    except OSError as error:  # --records names a file, or a folder we may not write to
        raise fail(f"cannot write the records: {error}") from None
    if as_json:
        sys.stdout.write(json.dumps(summary.to_json()) + "\n")
    else:
        console.print(str(summary), markup=False)


@app.command()
def watch(
    bots: Annotated[str, typer.Option(help="One bot per seat (four at the standard table), or "
                                           "one for all.")]
    = "heuristic",
    seed: Annotated[int | None, typer.Option(help="Random seed (default: a new match each "
                                                  "time).")] = None,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    save: Annotated[Path | None, typer.Option(help="Save the match record here.")] = None,
) -> None:
    """Watch a whole bot match, printed trick by trick."""
    from sueca.arena import play_match
    from sueca.auction import bidding_order
    from sueca.bots import make_bot
    from sueca.match import Match
    from sueca.record import GameRecord, dumps
    from sueca.state import State

    table_rules = build_rules(rules, set_)
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= table_rules.players
    if len(names) != table_rules.players:
        raise fail(f"--bots takes one bot or {table_rules.players}")
    rng = random.Random(seed)
    try:
        players = [make_bot(name, seed=rng.getrandbits(32)) for name in names]
    except ValueError as error:
        raise fail(str(error)) from None

    n = table_rules.players

    def on_play(state: State, seat: int, card: int) -> None:
        if len(state.plays) == 1:
            header = f"\n[bold]Deal {len(match_states) + 1}[/bold]: seat {state.deal.dealer} deals"
            contract = state.contract
            if contract is None:
                assert state.deal.trump_card is not None
                console.print(f"{header}, trump card {card_symbol(state.deal.trump_card)}")
            else:
                # The bids and the called card are public; its holder is not (he shows himself
                # by playing it).
                order = bidding_order(table_rules, state.deal.dealer)
                bids = ", ".join(f"{s}:{b or 'pass'}" for s, b in zip(order, state.bids,
                                                                      strict=True))
                console.print(f"{header}; bids {bids}; seat {contract.declarer} plays for "
                              f"{contract.target}, calling "
                              f"{card_symbol(contract.called_card)}")
        if state.trick_start == len(state.plays):
            trick = state.tricks()[-1]
            cards = "  ".join(f"{trick.seat_of(i, n)}:{card_symbol(c)}"
                              for i, c in enumerate(trick.cards))
            console.print(f"  trick {state.trick_number:2d}  {cards}   → seat {trick.winner} "
                          f"takes {trick.points}")

    match_states: list[State] = []

    def on_deal(match: Match, state: State) -> None:
        match_states.append(state)
        result = match.results[-1]
        if result.contract is not None:
            side = [s for s in range(n) if state.teams[s] == 0]
            console.print(
                f"  seats {' and '.join(map(str, side))} take {result.points[0]} of "
                f"{sum(result.points)}: the contract is {'made' if result.made else 'lost'}; "
                f"game points {' '.join(map(str, result.game_points))}; match "
                f"{' '.join(map(str, match.score))}")
            return
        console.print(f"  points {result.points[0]}–{result.points[1]}, game points "
                      f"{result.game_points[0]}–{result.game_points[1]}; match "
                      f"Nós {match.score[0]} – Eles {match.score[1]}")

    def on_redeal(match: Match, state: State) -> None:
        console.print(f"\nSeat {state.redeal_by} asks for a new deal (a weak hand): seat "
                      f"{state.deal.dealer} deals again")

    match, states = play_match(table_rules, players, rng, on_play=on_play, on_deal=on_deal,
                               on_redeal=on_redeal)
    winner = match.winner or 0
    if table_rules.scores_per_seat:
        console.print(f"\nSeat {winner} wins the match: "
                      f"{' '.join(map(str, match.score))} (seat 0 first).")
    else:
        seats = " and ".join(str(s) for s in range(table_rules.players)
                             if table_rules.teams[s] == winner)
        console.print(f"\nTeam {winner} (seats {seats}) wins the match "
                      f"{match.score[0]}–{match.score[1]}.")
    if save is not None:
        record = GameRecord.from_states(table_rules, match.first_dealer, states)
        try:
            save.write_text(dumps(record), encoding="utf-8")
        except OSError as error:
            raise fail(f"cannot save the record: {error}") from None
        console.print(f"Record saved to {save}")


TableOption = Annotated[
    str, typer.Option("--rules", "--variant", help="The table (a rules preset): standard, "
                      "brazil, italiana, pontos; double8 (8 players, two decks), double6 (6 "
                      "players, two decks), italiana5 (5 players: an auction, a secret partner). "
                      "Three players: --players 3.")
]


@app.command()
def play(
    ctx: typer.Context,
    rules: TableOption = "standard",
    set_: SetOption = None,
    humans: Annotated[str, typer.Option(help="Human seats, e.g. 0,2 for hot-seat on one "
                                             "screen; 'all', or 'none' to watch.")] = "0",
    bots: Annotated[str | None, typer.Option(help="The bot for every other seat, or one per "
                                                  "seat (e.g. -,random,heuristic,random); "
                                                  "default: the strongest.")] = None,
    players: Annotated[int | None, typer.Option(help="3 at a table of four: your partner's "
                                                     "hand is a dummy, face up after the "
                                                     "opening lead, played by you (default: "
                                                     "the table's own count).")] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed: the whole match "
                                                  "reproducible.")] = None,
    lang: Annotated[str, typer.Option(help="Language: pt, pt-BR or en.")] = "pt",
    save: Annotated[Path | None, typer.Option(help="The match record (default: a new file "
                                                   "under your data directory).")] = None,
    resume: Annotated[bool, typer.Option(help="Continue the last unfinished match (or the "
                                              "one in --save).")] = False,
    open_hands: Annotated[bool, typer.Option("--open", help="Open hands (à Descoberta): all "
                                                            "hands face up, for learning.")]
    = False,
    hints: Annotated[bool, typer.Option(help="Show the best bot's card and reason before "
                                             "you choose.")] = False,
    fast: Annotated[bool, typer.Option(help="Bots play at once, without the human pace.")]
    = False,
    plain: Annotated[bool, typer.Option(help="Plain text even at a terminal.")] = False,
) -> None:
    """Play Sueca at the terminal: against bots, hot-seat with friends, open hands, three
    players (--players 3), every table of the rules (--variant double8, double6, italiana5).
    Input may be piped: each prompt reads one line (a card or its number, a bid)."""
    from sueca.terminal.commands import PlayOptions, exit_code, make_screen
    from sueca.terminal.commands import play as play_table
    from sueca.terminal.table import SetupError

    if resume:
        # A resumed match goes on with its record's table, seats and seed: an option that
        # would change them is refused rather than silently ignored.
        fixed = {"rules": "--variant/--rules", "set_": "--set", "humans": "--humans",
                 "bots": "--bots", "players": "--players", "seed": "--seed",
                 "open_hands": "--open"}
        for name, flag in fixed.items():
            source = ctx.get_parameter_source(name)
            if source is not None and source.name != "DEFAULT":
                raise fail(f"{flag} cannot change a resumed match: it goes on with the table, "
                           "seats and seed of its record (--lang, --hints, --fast, --plain "
                           "and --save may be given)")
    options = PlayOptions(
        rules=build_rules(rules, set_), humans=humans, bots=bots,
        players=players, seed=seed, lang=lang, save=save, resume=resume,
        open_hands=open_hands, hints=hints, fast=fast, plain=plain,
    )
    try:
        result = play_table(options, make_screen(lang if _known_lang(lang) else "en", plain))
    except SetupError as error:
        raise fail(str(error)) from None
    raise typer.Exit(exit_code(result))


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A game record (RECORD.md).")],
    lang: Annotated[str, typer.Option(help="Language: pt, pt-BR or en.")] = "pt",
    plain: Annotated[bool, typer.Option(help="Plain text even at a terminal.")] = False,
) -> None:
    """Step through a saved record trick by trick, every hand shown (Enter, b back, q quit)."""
    from sueca.terminal.commands import make_screen, replay_file
    from sueca.terminal.table import SetupError

    if not _known_lang(lang):
        raise fail(f"unknown language {lang!r} (known: pt, pt-BR, en)")
    try:
        replay_file(path, lang, make_screen(lang, plain))
    except SetupError as error:
        raise fail(str(error)) from None


def _known_lang(code: str) -> bool:
    from sueca.terminal.i18n import LANGUAGES

    return code.strip().lower().replace("_", "-") in {k.lower() for k in LANGUAGES}


@app.command()
def bot(
    name: Annotated[str, typer.Argument(help="The bot to run: heuristic, ismcts, "
                                             "ismcts:iterations=500+signals, …")],
    seed: Annotated[int | None, typer.Option(help="Random seed of the bot.")] = None,
) -> None:
    """Run a bot over the sueca-bot/1 protocol on standard input and output (docs/protocol.md)."""
    from sueca.bots import make_bot
    from sueca.protocol import serve

    if name.strip().startswith("cmd:"):
        raise fail("sueca bot runs one of this project's bots; cmd: bots are programs already")
    try:
        player = make_bot(name, seed=seed)
    except ValueError as error:
        raise fail(str(error)) from None
    raise typer.Exit(serve(player))


@app.command()
def arena(
    bots: Annotated[str, typer.Option(help="Two or more bots, comma-separated: e.g. "
                                           "ismcts,heuristic or heuristic,cmd:'python b.py'.")],
    deals: Annotated[int, typer.Option(help="Deals per pair of bots, each played twice "
                                            "with the teams swapped.")] = 100,
    seed: Annotated[int, typer.Option(help="Random seed for the deals and the bots.")] = 0,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: every "
                                                     "core).")] = None,
    sprt: Annotated[str | None, typer.Option(help="ELO0,ELO1: stop each pair when a "
                                                  "sequential test decides.")] = None,
    records: Annotated[Path | None, typer.Option(help="Keep every deal's record in this "
                                                      "folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    progress: Annotated[bool | None, typer.Option(help="Show a progress bar (default: when "
                                                       "the terminal shows it).")] = None,
) -> None:
    """Duplicate round robin between bots, on every core: margins with 95% intervals, deals
    and pairs won, Elo for three or more bots (docs/arena.md)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from sueca.arena.tournament import run_arena

    table_rules = build_rules(rules, set_)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) < 2:
        raise fail("--bots takes at least two bots, comma-separated: e.g. ismcts,heuristic")
    test: tuple[float, float] | None = None
    if sprt is not None:
        try:
            elo0, elo1 = (float(x) for x in sprt.split(","))
        except ValueError:
            raise fail(f"--sprt takes ELO0,ELO1 (two numbers), not {sprt!r}") from None
        if elo1 <= elo0:
            raise fail("--sprt needs ELO0 < ELO1, e.g. --sprt 0,20")
        test = (elo0, elo1)
    if workers is not None and workers < 1:
        raise fail("--workers must be at least 1")
    show = err_console.is_terminal if progress is None else progress
    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeRemainingColumn(), console=err_console,
                   disable=not show)
    task = bar.add_task("boards", total=None)

    def on_progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    try:
        with bar:
            result = run_arena(table_rules, names, deals, seed, workers, test, records,
                               on_progress)
    except ValueError as error:
        raise fail(str(error)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        console.print(str(result), markup=False, soft_wrap=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path | None, typer.Option(help="SQLite database (default: the user's data "
                                                 "directory).")] = None,
    grace: Annotated[float, typer.Option(help="Seconds before a bot plays for a player who "
                                              "dropped.")] = 60.0,
) -> None:
    """Run the web table: open http://HOST:PORT/ in a browser and play."""
    from sueca.server import serve as run_server

    if grace < 0:
        raise fail("--grace must be 0 or more")
    console.print(f"Sueca web table on http://{host}:{port}/  (Ctrl-C to stop)")
    run_server(host, port, db, grace=grace)


@app.command()
def solve(
    path: Annotated[Path, typer.Argument(help="A record (RECORD.md) whose last deal is "
                                              "unfinished: the position to solve.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print {side_to_move, points, "
                                                         "moves} as JSON.")] = False,
    threads: Annotated[int | None, typer.Option(
        help="Threads for the search, 1-16 (default: 2 where the machine has two cores or "
             "more). The values do not depend on it.")] = None,
) -> None:
    """Solve a position double-dummy: every hand known, perfect play by both sides.

    Prints the card points each team takes from the remaining tricks (the trick in progress
    included) and the same for every legal card of the seat to move.
    """
    from sueca.solver import (
        SolverError,
        backend_note,
        check_threads,
        default_threads,
        position_from_record,
    )
    from sueca.solver import solve as solve_position

    threads = default_threads() if threads is None else threads
    try:
        check_threads(threads)
    except SolverError as error:
        raise fail(f"--{error}") from None

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise fail(f"cannot read {path}: {error}") from None
    try:
        state = position_from_record(text)
        solution = solve_position(state, threads=threads)
    except SolverError as error:
        raise fail(f"{path}: {error}") from None
    note = backend_note()
    if note:
        err_console.print(note, markup=False)
    if as_json:
        sys.stdout.write(json.dumps(solution.to_json()) + "\n")
        return
    side = solution.side_to_move
    points = solution.points
    console.print(
        f"Trick {state.trick_number + 1}, seat {state.to_play} (team {side}) to play, trump "
        f"{SUIT_SYMBOLS[state.trump]}; trick so far: "
        f"{' '.join(card_symbol(c) for c in state.trick) or '(none)'}"
    )
    console.print(f"Perfect play: team 0 takes {points[0]}, team 1 takes {points[1]} "
                  f"of the {sum(points)} points left")
    table = Table(title_justify="left")
    for column in ("Card", "Team 0", "Team 1", ""):
        table.add_column(column, justify="left" if column in ("Card", "") else "right")
    ordered = sorted(solution.moves.items(), key=lambda item: (-item[1][side], item[0]))
    for card, (a, b) in ordered:
        loss = points[side] - (a, b)[side]
        table.add_row(card_symbol(card), str(a), str(b), "best" if loss == 0 else f"−{loss}")
    console.print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
