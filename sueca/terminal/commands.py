"""What ``sueca play`` and ``sueca replay`` do, behind the command line's option parsing."""

from __future__ import annotations

import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sueca.record import RecordFormatError, read
from sueca.rules import Rules, RulesError
from sueca.terminal.i18n import language
from sueca.terminal.render import PlainScreen, RichScreen
from sueca.terminal.replay import step_through
from sueca.terminal.table import (
    Outcome,
    Screen,
    Setup,
    SetupError,
    Table,
    TableResult,
    data_dir,
    default_save_path,
    find_unfinished,
    load_setup,
    make_seats,
    parse_seat_list,
)

DUMMY_SEAT_DEFAULT = 2  # three players: the first human's partner is laid down as the dummy


@dataclass(frozen=True)
class PlayOptions:
    rules: Rules
    humans: str = "0"
    bots: str | None = None  # None: the table's default bot (table.default_bot)
    players: int | None = None  # None: the table's own count; 3 lays a dummy at a table of four
    seed: int | None = None
    lang: str = "pt"
    save: Path | None = None
    resume: bool = False
    open_hands: bool = False
    hints: bool = False
    fast: bool = False
    plain: bool = False


def table_rules(options: PlayOptions) -> Rules:
    """The rules as given, with ``--open`` and ``--players`` applied: the table's own count
    of seats, or 3 at a table of four (one seat a dummy, played by its partner)."""
    rules = options.rules
    if options.open_hands:
        rules = rules.replace(open_hands=True)
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
