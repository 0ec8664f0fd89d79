"""The ``sueca`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

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
        from sueca.terminal.reports import print_check

        print_check(report, record.parsed_rules(), console)  # read() refuses bad rules
    raise typer.Exit(0 if report["valid"] else 1)


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Random seed: the same seed, the same deal.")] = 0,
    dealer: Annotated[int, typer.Option(help="The dealer's seat, from 1 (the record "
                                             "counts from 0).")] = 1,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as a record.")] = False,
) -> None:
    """Shuffle and print a deal (seats and teams numbered from 1)."""
    from sueca.terminal.commands import CommandError, show_deal

    try:
        show_deal(build_rules(rules, set_), seed, dealer, as_json, console)
    except CommandError as error:
        raise fail(str(error)) from None


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
    from sueca.terminal.commands import CommandError
    from sueca.terminal.commands import simulate as simulate_deals

    table_rules = build_rules(rules, set_)
    try:
        simulate_deals(table_rules, [b.strip() for b in bots.split(",")], deals, seed, records,
                       duplicate, as_json, console)
    except CommandError as error:
        raise fail(str(error)) from None


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
    lang: Annotated[str, typer.Option(help="Language: en (the default), pt or pt-BR.")] = "en",
) -> None:
    """Watch a whole bot match, printed trick by trick (seats numbered 1 to N)."""
    from sueca.terminal.commands import CommandError
    from sueca.terminal.commands import watch as watch_match

    if not _known_lang(lang):
        raise fail(f"unknown language {lang!r} (known: pt, pt-BR, en)")
    try:
        watch_match(build_rules(rules, set_), bots, seed, save, console, lang)
    except CommandError as error:
        raise fail(str(error)) from None


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
    humans: Annotated[str, typer.Option(help="Human seats, from 1: e.g. 1,3 for hot-seat on "
                                             "one screen; 'all', or 'none' to watch.")] = "1",
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
    open_dealer: Annotated[bool, typer.Option("--open-dealer", help="À Descoberta as the "
                                                                    "seeds tell it: the "
                                                                    "dealer and his partner "
                                                                    "play face up (--set "
                                                                    "open_hands=dealer_dummy)."
                                              )] = False,
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
    from sueca.terminal.setup import SetupError

    if resume:
        # A resumed match goes on with its record's table, seats and seed: an option that
        # would change them is refused rather than silently ignored.
        fixed = {"rules": "--variant/--rules", "set_": "--set", "humans": "--humans",
                 "bots": "--bots", "players": "--players", "seed": "--seed",
                 "open_hands": "--open", "open_dealer": "--open-dealer"}
        for name, flag in fixed.items():
            source = ctx.get_parameter_source(name)
            if source is not None and source.name != "DEFAULT":
                raise fail(f"{flag} cannot change a resumed match: it goes on with the table, "
                           "seats and seed of its record (--lang, --hints, --fast, --plain "
                           "and --save may be given)")
    if open_hands and open_dealer:
        raise fail("--open lays every hand face up, --open-dealer the dealer's side: not both")
    options = PlayOptions(
        rules=build_rules(rules, set_), humans=humans, bots=bots,
        players=players, seed=seed, lang=lang, save=save, resume=resume,
        open_hands="dealer_dummy" if open_dealer else open_hands, hints=hints, fast=fast,
        plain=plain,
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
    from sueca.terminal.setup import SetupError

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
    backend: Annotated[str, typer.Option(help="Where the boards are played: local (this "
                                              "machine's cores) or ray (a Ray cluster).")
                       ] = "local",
    address: Annotated[str | None, typer.Option(help="The Ray cluster's address (HOST:PORT, "
                                                     "auto, ray://HOST:10001; default: a Ray "
                                                     "instance started here).")] = None,
    matches: Annotated[int | None, typer.Option(help="Play N duplicate pairs of whole "
                                                     "matches instead of deals: the match "
                                                     "win rate beside the margins.")] = None,
) -> None:
    """Duplicate round robin between bots, on every core or a Ray cluster: margins with 95%
    intervals, deals and pairs won, Elo for three or more bots (docs/arena.md)."""
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
    if matches is not None and matches < 1:
        raise fail("--matches must be at least 1")
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
                               on_progress, backend=backend, address=address,
                               matches=matches if matches is not None else 0)
    except ValueError as error:
        raise fail(str(error)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        console.print(str(result), markup=False, soft_wrap=True)


@app.command()
def dataset(
    games: Annotated[int, typer.Option(help="Matches to play, each a record.")],
    bot: Annotated[str, typer.Option(help="The bot in every seat: e.g. heuristic, pimc, "
                                          "ismcts.")],
    out: Annotated[Path, typer.Option(help="Folder for records.jsonl and index.json.")],
    seed: Annotated[int, typer.Option(help="The data set's seed: the same seed, the same "
                                           "bytes.")] = 0,
    rules: RulesOption = "standard",
    set_: SetOption = None,
    workers: Annotated[int, typer.Option(help="Worker processes (the bytes do not depend on "
                                              "them).")] = 1,
) -> None:
    """Self-play records for others to train on: one RECORD.md record per line, and an index
    with the count, bot, rules, seed and SHA-256 of the lines (docs/env.md)."""
    from sueca.dataset import make_dataset

    table_rules = build_rules(rules, set_)
    try:
        index = make_dataset(table_rules, bot, games, seed, out, workers)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(f"{index['count']} records in {out / index['records']} "
                  f"(sha256 {index['sha256']})", markup=False, soft_wrap=True)


@app.command()
def train(
    out: Annotated[Path, typer.Option(help="The weights file to write (.npz); play it with "
                                           "--bots neural:weights=PATH.")],
    games: Annotated[int, typer.Option(help="Matches of expert self-play to imitate.")] = 200,
    data: Annotated[Path | None, typer.Option(help="Imitate this sueca dataset folder instead "
                                                   "of playing --games.")] = None,
    expert: Annotated[str, typer.Option(help="The bot imitated and asked for DAgger's "
                                             "labels.")] = "pimc:worlds=8:nodes=1000000",
    epochs: Annotated[int, typer.Option(help="Passes over the imitation positions.")] = 8,
    dagger_rounds: Annotated[int, typer.Option(help="Rounds of DAgger: the network plays, "
                                                    "the expert labels.")] = 1,
    dagger_games: Annotated[int, typer.Option(help="Matches the network plays per "
                                                   "round.")] = 40,
    dagger_epochs: Annotated[int, typer.Option(help="Passes over all positions after each "
                                                    "round.")] = 4,
    hidden: Annotated[int, typer.Option(help="Units of each of the two hidden "
                                             "layers.")] = 256,
    batch: Annotated[int, typer.Option(help="Positions per minibatch.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam's step size.")] = 1e-3,
    seed: Annotated[int, typer.Option(help="Seed of the self-play, the initial weights and "
                                           "the minibatches.")] = 0,
    device: Annotated[str, typer.Option(help="cpu (NumPy), or cuda (CuPy: pip install "
                                             "'sueca\\[gpu]').")] = "cpu",
    rules: RulesOption = "standard",
    set_: SetOption = None,
    workers: Annotated[int, typer.Option(help="Worker processes for the self-play.")] = 1,
) -> None:
    """Train the neural bot's network: imitate the expert's self-play, then DAgger rounds
    (docs/neural.md)."""
    from sueca.training.fit import Settings
    from sueca.training.pipeline import Plan
    from sueca.training.pipeline import train as run_training

    table_rules = build_rules(rules, set_)
    if hidden < 1 or workers < 1 or games < 1:
        raise fail("--hidden, --games and --workers must be at least 1")
    plan = Plan(table_rules, out, expert, games, data, dagger_rounds, dagger_games,
                Settings(epochs, batch, learning_rate), dagger_epochs, (hidden, hidden), seed,
                device, workers, command=" ".join(["sueca", *sys.argv[1:]]))
    try:
        summary = run_training(
            plan, lambda line: err_console.print(line, markup=False, soft_wrap=True))
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(f"{out}: {summary['positions']:,} positions, held-out agreement with the "
                  f"expert {summary['held_out_agreement_final']:.1%}, "
                  f"{summary['seconds']:.0f} s", markup=False, soft_wrap=True)


def _serve_cluster(host: str, port: int, db: str, redis_url: str, workers: int,
                   **options: Any) -> int:
    """``sueca serve --redis``: this machine's workers of a cluster, once its database and
    Redis answer."""
    from sueca.server.botpool import default_bot_workers
    from sueca.server.node import ClusterOptions, check_cluster
    from sueca.server.workers import run_workers

    cluster = ClusterOptions(redis_url=redis_url, db_url=db)
    check_cluster(cluster)
    if options["bot_workers"] is None:  # the machine's bot processes, shared out
        options["bot_workers"] = max(1, default_bot_workers() // workers)
    serve_options = {"host": host, "port": port, "cluster": cluster, **options}
    from sueca.server import serve as run_server

    if workers == 1:
        run_server(**serve_options)
        return 0
    return run_workers(workers, run_server, serve_options)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Where the tables are kept: a SQLite file (default: the user's data directory) "
             "or a PostgreSQL server, postgresql://user:password@host:port/database.")] = None,
    grace: Annotated[float, typer.Option(help="Seconds before a bot plays for a player who "
                                              "dropped.")] = 60.0,
    redis_url: Annotated[str | None, typer.Option(
        "--redis", help="Serve as a worker of a cluster: the Redis server its workers share "
                        "(redis://host:port/0), with a PostgreSQL --db (docs/deploy.md).")] = None,
    workers: Annotated[int, typer.Option(
        help="Worker processes behind this one port (with --redis).")] = 1,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="Another origin whose pages may use this server (scheme://host[:port]; "
             "repeatable), e.g. a site served from another host.")] = None,
    forwarded_host: Annotated[bool, typer.Option(
        help="Behind a reverse proxy that rewrites Host: take the request's host from "
             "X-Forwarded-Host for the cross-site check.")] = False,
    max_per_address: Annotated[int, typer.Option(
        help="Open connections from one address (0: no cap; behind a reverse proxy, which "
             "every connection comes from).")] = 128,
    max_connections: Annotated[int, typer.Option(
        help="Open connections in all (lowered to fit the open-file limit).")] = 4096,
    request_timeout: Annotated[float, typer.Option(
        help="Seconds a request's headers and body may take to arrive.")] = 10.0,
    bot_workers: Annotated[int | None, typer.Option(
        help="Processes the server's bots think in (default: the cores, at most 4; 0: "
             "threads of the server's own process).")] = None,
) -> None:
    """Run the web table: open http://HOST:PORT/ in a browser and play."""
    from sueca.server import serve as run_server
    from sueca.server.storage import StorageError

    if grace < 0:
        raise fail("--grace must be 0 or more")
    if bot_workers is not None and not 0 <= bot_workers <= 64:
        raise fail("--bot-workers must be from 0 to 64")
    if not 1 <= workers <= 64:
        raise fail("--workers must be from 1 to 64")
    from sueca.server.backends import is_postgres_url

    if redis_url is None and workers > 1:
        raise fail("--workers needs --redis and a PostgreSQL --db: the workers share their "
                   "tables through them (docs/deploy.md)")
    if redis_url is not None and (db is None or not is_postgres_url(db)):
        raise fail("--redis needs a PostgreSQL --db (postgresql://…): the workers of a "
                   "cluster share one database (docs/deploy.md)")
    from sueca.server.guard import Guard
    from sueca.server.transport import EdgeLimits

    if max_per_address < 0 or max_connections < 1 or not 0 < request_timeout <= 300:
        raise fail("--max-per-address must be 0 or more, --max-connections 1 or more, "
                   "--request-timeout from 0 to 300 seconds")
    try:
        guard = Guard(tuple(allow_origin or ()), forwarded_host=forwarded_host)
    except ValueError as error:
        raise fail(f"--allow-origin: {error}") from None
    edge = EdgeLimits(request_timeout=request_timeout, per_address=max_per_address,
                      connections=max_connections)
    console.print(f"Sueca web table on http://{host}:{port}/  (Ctrl-C to stop)")
    try:
        if redis_url is not None and db is not None:
            raise typer.Exit(_serve_cluster(host, port, db, redis_url, workers, grace=grace,
                                            guard=guard, edge=edge, bot_workers=bot_workers))
        run_server(host, port, db, grace=grace, guard=guard, edge=edge, bot_workers=bot_workers)
    except StorageError as error:  # a database in use by another server, or too new
        raise fail(str(error), code=1) from None


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
    from sueca.record import PositionError, last_position
    from sueca.solver import SolverError, backend_note, check_threads, default_threads
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
        state = last_position(text)
        solution = solve_position(state, threads=threads)
    except (PositionError, SolverError) as error:
        raise fail(f"{path}: {error}") from None
    note = backend_note()
    if note:
        err_console.print(note, markup=False)
    if as_json:
        sys.stdout.write(json.dumps(solution.to_json()) + "\n")
        return
    from sueca.terminal.reports import print_solution

    print_solution(state, solution, console)


@app.command()
def review(
    path: Annotated[Path, typer.Argument(help="A game record (RECORD.md).")],
    seat: Annotated[int | None, typer.Option(help="The seat to review, from 1 (1-4 at a "
                                                  "table of four, as sueca check numbers "
                                                  "them; default every seat).")] = None,
    deal: Annotated[int | None, typer.Option("--deal", help="The deal to review, from 1 "
                                                            "(default every finished deal).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print docs/review.md's JSON.")]
    = False,
    lang: Annotated[str, typer.Option(help="Language of the reasons: pt, pt-BR or en.")] = "pt",
    thresholds: Annotated[str, typer.Option(help="Card points lost for an inaccuracy, a "
                                                 "mistake and a blunder.")] = "3,8,15",
    max_worlds: Annotated[int, typer.Option(help="The most worlds sampled for one card "
                                                 "(1-1000).")] = 48,
    seed: Annotated[int, typer.Option(help="Seed of the worlds sampled.")] = 0,
    svg: Annotated[Path | None, typer.Option(help="Write the evaluation graph here (SVG; "
                                                  "with several deals or seats, one file "
                                                  "each: NAME-deal1-seat1.svg).")] = None,
) -> None:
    """Review a record card by card: for each card a seat played, what every legal card was
    worth from what that seat knew (worlds sampled and solved), the points lost, a label
    (imprecisão, erro, erro grave), why, and apart the double-dummy view (docs/review.md)."""
    from sueca.record import RecordFormatError, read
    from sueca.review import Budget, ReviewError, Thresholds, review_record
    from sueca.terminal.i18n import language
    from sueca.terminal.review import print_review, record_names, review_document

    if not _known_lang(lang):
        raise fail(f"unknown language {lang!r} (known: pt, pt-BR, en)")
    try:
        limits = Thresholds.parse(thresholds)
        budget = Budget(min(6, max_worlds), max_worlds)
    except ReviewError as error:
        raise fail(f"--{'thresholds' if 'thresholds' in str(error) else 'max-worlds'}: "
                   f"{error}") from None
    try:
        record = read(str(path))
    except RecordFormatError as error:
        raise fail(f"{path}: {error}") from None
    if seat is not None:  # typed as people count, from 1; the review's seats count from 0
        from sueca.terminal.setup import SetupError, person_seat

        try:
            seat = person_seat(seat, record.parsed_rules().players, "--seat")
        except SetupError as error:
            raise fail(str(error)) from None
    if deal is not None and deal < 1:  # deals count from 1, as seats do: 0 names no deal
        raise fail(f"--deal counts deals from 1 (the first deal is 1), not {deal}")
    try:
        reviews = review_record(record, None if seat is None else [seat],
                                None if deal is None else [deal - 1], seed, limits, budget)
    except ReviewError as error:
        raise fail(f"{path}: {error}", code=1) from None
    words = language(lang)
    if svg is not None:
        from sueca.terminal.review import write_graphs

        try:
            write_graphs(reviews, words, svg)
        except OSError as error:
            raise fail(f"cannot write {svg}: {error}") from None
    if as_json:
        sys.stdout.write(json.dumps(review_document(reviews, words), ensure_ascii=False)
                         + "\n")
        return
    print_review(reviews, words, console, record_names(record))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
