"""What the command line's commands do, behind its option parsing: ``sueca play``,
``sueca replay``, ``sueca watch``, ``sueca deal`` and ``sueca simulate``.

Each takes the options as parsed and raises :class:`~sueca.terminal.setup.SetupError` (``play``,
``replay``) or :class:`CommandError` (the others) for options that make nothing; ``sueca.cli``
prints the message on one line and exits 2.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rich.console import Console

from sueca.record import RecordFormatError, read
from sueca.rules import Rules, RulesError
from sueca.terminal.i18n import language
from sueca.terminal.render import PlainScreen, RichScreen
from sueca.terminal.replay import step_through
from sueca.terminal.setup import (
    Setup,
    SetupError,
    data_dir,
    default_save_path,
    find_unfinished,
    load_setup,
    make_seats,
    parse_seat_list,
    person_seat,
)
from sueca.terminal.table import Outcome, Table, TableResult
from sueca.terminal.view import Screen


class CommandError(ValueError):
    """Options that make no watch, deal or simulation; the message says which."""

DUMMY_SEAT_DEFAULT = 2  # three players: the first human's partner is laid down as the dummy


@dataclass(frozen=True)
class PlayOptions:
    rules: Rules
    humans: str = "1"  # seats as people count them, from 1 (setup.parse_seat_list)
    bots: str | None = None  # None: the table's default bot (table.default_bot)
    players: int | None = None  # None: the table's own count; 3 lays a dummy at a table of four
    seed: int | None = None
    lang: str = "pt"
    save: Path | None = None
    resume: bool = False
    open_hands: bool | str = False  # True: every hand; "dealer_dummy": the dealer's side
    hints: bool = False
    fast: bool = False
    plain: bool = False


def table_rules(options: PlayOptions) -> Rules:
    """The rules as given, with ``--open`` (or ``--open-dealer``) and ``--players`` applied:
    the table's own count of seats, or 3 at a table of four (one seat a dummy, played by its
    partner)."""
    rules = options.rules
    if options.open_hands:
        try:
            rules = rules.replace(open_hands=options.open_hands)
        except RulesError as error:
            raise SetupError(str(error)) from None
    players = options.players if options.players is not None else (
        3 if rules.dummy is not None else rules.players)
    dummy_table = rules.players == 4 and not rules.bidding
    if players == 3 and dummy_table:
        if rules.dummy is None:
            rules = rules.replace(dummy=DUMMY_SEAT_DEFAULT)
    elif players != rules.players:
        others = " or 3 (one seat a dummy)" if dummy_table else ""
        raise SetupError(f"the {rules.variant} table seats {rules.players}: --players takes "
                         f"{rules.players}{others}, not {players}")
    elif rules.dummy is not None:
        raise SetupError("a dummy seat makes a three-player table: use --players 3")
    return rules


def make_screen(lang_code: str, plain: bool, stdin: IO[str] | None = None,
                stdout: IO[str] | None = None) -> Screen:
    """Rich when a person is at a terminal, plain text when input or output is piped."""
    lang = language(lang_code)
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if plain or not (stdin.isatty() and stdout.isatty()):
        return PlainScreen(lang, stdin, stdout)
    return RichScreen(lang)


def build_table(options: PlayOptions, screen: Screen, home: Path | None = None) -> Table:
    """A new match from the options, or the saved one with ``resume``."""
    lang = language(options.lang)
    home = home if home is not None else data_dir()
    if options.resume:
        path = options.save if options.save is not None else find_unfinished(home)
        if path is None:
            raise SetupError(f"no unfinished match to resume under {home / 'matches'}")
        setup, record = load_setup(path, lang, options.hints, options.fast)
        return Table(setup, screen, record)
    rules = table_rules(options)
    humans = parse_seat_list(options.humans, rules.players, "--humans")
    seats = make_seats(rules, humans, options.bots)
    seed = options.seed if options.seed is not None else secrets.randbelow(10**9)
    path = options.save if options.save is not None else default_save_path(home, seed)
    setup = Setup(rules, seats, seed, path, lang, options.hints, options.fast)
    return Table(setup, screen)


def play(options: PlayOptions, screen: Screen, home: Path | None = None) -> TableResult:
    """Play (or resume) a match at the table; ``SetupError`` for options that make none."""
    try:
        language(options.lang)
    except ValueError as error:
        raise SetupError(str(error)) from None
    return build_table(options, screen, home).run()


def exit_code(result: TableResult) -> int:
    """0 for a match played out or a confirmed quit; 1 when the input ran out first."""
    return 1 if result.outcome is Outcome.INPUT_ENDED else 0


def replay_file(path: Path, lang_code: str, screen: Screen) -> None:
    try:
        record = read(str(path))
        record.parsed_rules()
    except (RecordFormatError, RulesError) as error:
        raise SetupError(f"{path}: {error}") from None
    step_through(record, screen, language(lang_code))


# ---- sueca watch ---------------------------------------------------------------------------


def watch(rules: Rules, bots: str, seed: int | None, save: Path | None, console: Console,
          lang: str = "en") -> None:
    """A whole match of bots (``bots``: one spec per seat, or one for all), told trick by trick
    on ``console`` by a :class:`~sueca.terminal.narrator.WatchNarrator` in ``lang``; its record
    saved to ``save``."""
    from sueca.bots import make_bot
    from sueca.match import Match
    from sueca.record import GameRecord, dumps
    from sueca.referee import Event, EventKind, Referee
    from sueca.state import State
    from sueca.terminal.narrator import WatchNarrator

    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise CommandError(f"--bots takes one bot or {rules.players}")
    rng = random.Random(seed)
    try:
        players = [make_bot(name, seed=rng.getrandbits(32)) for name in names]
    except ValueError as error:
        raise CommandError(str(error)) from None
    # The seed draws the bots' seeds, the first dealer, then every deal, in that order.
    referee = Referee(Match(rules, first_dealer=rng.randrange(rules.players)), players,
                      rng=rng, strict=True, where="watch")
    states: list[State] = []

    def keep(event: Event) -> None:
        if event.kind == EventKind.DEALT:
            states.append(event.state)

    referee.listen(keep)
    from sueca.terminal.i18n import language

    referee.listen(WatchNarrator(console, rules, language(lang)))
    try:
        referee.run()
    finally:
        referee.close()
    if save is not None:
        record = GameRecord.from_states(rules, referee.match.first_dealer, states)
        try:
            save.write_text(dumps(record), encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot save the record: {error}") from None
        console.print(f"Record saved to {save}")


# ---- sueca deal ------------------------------------------------------------------------------


def show_deal(rules: Rules, seed: int, dealer: int, as_json: bool, console: Console) -> None:
    """Shuffle a deal from ``seed`` and print it: every hand (and the cards set aside), or
    with ``as_json`` a record of it. ``dealer`` is the seat as people count it, from 1
    (``--dealer``); the record keeps the engine's, from 0."""
    from sueca.cards import card_symbol, format_mask
    from sueca.deal import deal_cards
    from sueca.record import DealRecord, GameRecord, dumps
    from sueca.state import State

    try:
        shown_dealer, dealer = dealer, person_seat(dealer, rules.players, "--dealer")
    except SetupError as error:
        raise CommandError(str(error)) from None
    dealt = deal_cards(rules, dealer, random.Random(seed))
    if as_json:
        record = GameRecord(rules.to_dict(), dealer, [DealRecord.from_state(State(rules, dealt))])
        sys.stdout.write(dumps(record))
        return
    if dealt.trump_card is None:
        console.print(f"Seed {seed}, dealer seat {shown_dealer}; no trump card: the declarer's "
                      "called card will name trumps")
    else:
        console.print(f"Seed {seed}, dealer seat {shown_dealer}, trump card "
                      f"{card_symbol(dealt.trump_card)}")
    for seat, hand in enumerate(dealt.hands):
        # A bidding table has no teams before the auction (rules.teams is empty there).
        team = f" (team {rules.teams[seat] + 1})" if rules.teams else ""
        dummy = " (dummy)" if seat == rules.dummy else ""
        console.print(f"  seat {seat + 1}{team}{dummy}: {format_mask(hand, symbols=True)}")
    dealt_mask = 0
    for hand in dealt.hands:
        dealt_mask |= hand
    aside = ((1 << rules.deck_size) - 1) & ~dealt_mask
    if aside:
        console.print(f"  set aside, unseen: {format_mask(aside, symbols=True)}")


# ---- sueca simulate --------------------------------------------------------------------------


def simulate(rules: Rules, bots: Sequence[str], deals: int, seed: int, records: Path | None,
             duplicate: bool, as_json: bool, console: Console) -> None:
    """Bot team A against bot team B over ``deals`` deals (docs/arena.md), the summary printed
    (or as JSON)."""
    from sueca.arena import run_duplicate
    from sueca.bots import make_bot

    if len(bots) != 2:
        raise CommandError("--bots takes two bots, team A and team B: e.g. heuristic,random")
    for name in bots:
        try:
            make_bot(name, seed=0).close()  # refuse a bad spec before playing a single deal
        except ValueError as error:
            raise CommandError(str(error)) from None
    if deals < 1:
        raise CommandError("--deals must be at least 1")
    try:
        summary = run_duplicate(rules, bots[0], bots[1], deals, seed, records, duplicate)
    except OSError as error:  # --records names a file, or a folder we may not write to
        raise CommandError(f"cannot write the records: {error}") from None
    if as_json:
        sys.stdout.write(json.dumps(summary.to_json()) + "\n")
    else:
        console.print(str(summary), markup=False)
