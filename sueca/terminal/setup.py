"""Who sits at the terminal table, under which rules, and where its record is kept.

A :class:`Setup` is everything that makes one match: the rules, each seat's kind (a person, a
bot's spec, or the dummy), the seed, the record's path, the language. :func:`make_seats` builds
the seats from the command line's ``--humans`` and ``--bots``; :func:`load_setup` reads them
back from a saved record and :func:`restore` plays that record again to the position where the
match stopped (``sueca play --resume``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from sueca.bots import STRONGEST
from sueca.match import Match
from sueca.record import GameRecord, RecordFormatError, read, replay
from sueca.rules import Rules, RulesError
from sueca.state import State
from sueca.terminal.i18n import Language

HUMAN: Final = "human"
DUMMY: Final = "dummy"


class SetupError(ValueError):
    """Seats, bots or a record that do not make a table; the message names the problem."""


# ---- the table's seats ---------------------------------------------------------------------


OLD_NUMBERING = "0 is no seat (seats counted from 0 before session 10)"


def person_seat(number: int, players: int, option: str) -> int:
    """A seat as people count it, from 1 (``--dealer 1``, ``--seat 4``), as the engine's and
    the records' seat, from 0. ``0`` is refused with a message saying seats count from 1:
    they counted from 0 before, and an old command line must not silently name another
    seat."""
    if number == 0:
        raise SetupError(f"{option} counts seats from 1 (1 to {players}), as the tables show "
                         f"them: {OLD_NUMBERING}")
    if not 1 <= number <= players:
        raise SetupError(f"{option} takes seats from 1 to {players}, not {number}")
    return number - 1


def parse_seat_list(text: str, players: int, option: str) -> list[int]:
    """Seats as people count them, from 1 (:func:`person_seat`): ``"1,3"`` → ``[0, 2]``;
    ``"none"`` or ``""`` → no seats; ``"all"`` → every seat."""
    text = text.strip().lower()
    if text in ("", "none"):
        return []
    if text == "all":
        return list(range(players))
    seats: list[int] = []
    for item in (part.strip() for part in text.split(",")):
        # A seat is one or two ASCII digits: anything longer is no seat (and int() refuses
        # numbers of thousands of digits with an error of its own).
        if not (item.isascii() and item.isdigit() and len(item) <= 2):
            shown = item if len(item) <= 20 else item[:20] + "…"
            raise SetupError(f"{option} takes seats from 1 to {players}, not {shown!r}")
        seat = person_seat(int(item), players, option)
        if seat in seats:
            raise SetupError(f"{option} names seat {seat + 1} twice")
        seats.append(seat)
    return seats


def make_seats(rules: Rules, humans: Sequence[int], bots: str | None = None
               ) -> tuple[str, ...]:
    """Who sits where: ``human``, a bot's name, or ``dummy`` for the dummy seat.

    ``bots`` is one bot for every seat that is not human, or one per seat (the entries at human
    seats and at the dummy are ignored; write ``-`` there); ``None`` for the strongest bot,
    which plays every table. The dummy cannot be a human: its partner plays it.
    """
    n = rules.players
    bots = bots if bots is not None else STRONGEST
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise SetupError(f"--bots takes one bot or one per seat ({n}), not {len(names)}")
    seats: list[str] = []
    for seat in range(n):
        if seat == rules.dummy:
            if seat in humans:
                raise SetupError(
                    f"seat {seat + 1} is the dummy: its partner, seat "
                    f"{rules.controller_of(seat) + 1}, plays it"
                )
            seats.append(DUMMY)
        elif seat in humans:
            seats.append(HUMAN)
        else:
            seats.append(names[seat])
    check_seats(rules, seats)
    return tuple(seats)


def check_seats(rules: Rules, seats: Sequence[str]) -> None:
    from sueca.bots import BOTS

    if len(seats) != rules.players:
        raise SetupError(f"{len(seats)} seats for a {rules.players}-seat table")
    for seat, kind in enumerate(seats):
        if (kind == DUMMY) != (seat == rules.dummy):
            dummy = "none" if rules.dummy is None else f"seat {rules.dummy + 1}"
            raise SetupError(f"seat {seat + 1} is {kind!r}, but the rules' dummy is {dummy}")
        # A bot spec is NAME[:OPTION=VALUE…][+signals] or cmd:COMMAND (sueca.bots.make_bot);
        # the name is checked here, the options when the bot is made.
        name = kind.partition("+")[0].partition(":")[0].strip()
        if kind not in (HUMAN, DUMMY) and name not in BOTS and not kind.startswith("cmd:"):
            raise SetupError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")


@dataclass(frozen=True)
class Setup:
    """Everything that makes one match at the terminal table."""

    rules: Rules
    seats: tuple[str, ...]  # per seat: "human", a bot's name, or "dummy"
    seed: int
    path: Path  # where the record is saved
    lang: Language
    hints: bool = False
    fast: bool = False

    def __post_init__(self) -> None:
        check_seats(self.rules, self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, kind in enumerate(self.seats) if kind == HUMAN)

    def controller_kind(self, seat: int) -> str:
        return self.seats[self.rules.controller_of(seat)]

    @property
    def solo(self) -> int | None:
        """The one person at the table, who is called "you"; ``None`` in hot-seat or when
        only bots play."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    @property
    def hotseat(self) -> bool:
        """Several people share the screen: it is passed, hidden, between their turns."""
        return len(self.humans) > 1

    def names(self) -> tuple[str, ...]:
        """Each seat as the table calls it: "you" for the one person, else "Player N" (N from
        1)."""
        lang = self.lang
        return tuple(lang.text("you") if seat == self.solo else lang.seat(seat)
                     for seat in range(self.rules.players))


# ---- records --------------------------------------------------------------------------------


def default_save_path(data_dir: Path, seed: int) -> Path:
    """A new file under the user's data directory, named by time and seed."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = data_dir / "matches" / f"{stamp}-seed{seed}.json"
    suffix = 1
    while path.exists():
        suffix += 1
        path = data_dir / "matches" / f"{stamp}-seed{seed}-{suffix}.json"
    return path


def data_dir() -> Path:
    """Where matches are saved by default: the user's data directory (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("sueca", appauthor=False)


def load_setup(path: Path, lang: Language, hints: bool = False, fast: bool = False
               ) -> tuple[Setup, GameRecord]:
    """The table saved in a record (its rules, seats and seed), to resume it."""
    try:
        record = read(str(path))
        rules = record.parsed_rules()
    except (RecordFormatError, RulesError) as error:
        raise SetupError(f"{path}: {error}") from None
    seats = record.extra.get("seats")
    seed = record.extra.get("seed")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise SetupError(f"{path}: not a record of a terminal table (no 'seats' list)")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"{path}: not a record of a terminal table (no 'seed')")
    external = [s for s in seats if s.startswith("cmd:")]
    if external:
        # Records are shared freely (check, replay); resuming one must not run a program that
        # its author chose. An external bot is seated only from this user's own command line.
        raise SetupError(
            f"{path}: will not resume a match with an external program seated "
            f"({external[0]!r}): start a new match with --bots to seat it"
        )
    try:
        setup = Setup(rules, tuple(seats), seed, path, lang, hints, fast)
    except SetupError as error:
        raise SetupError(f"{path}: {error}") from None
    return setup, record


def restore(setup: Setup, record: GameRecord) -> tuple[Match, list[State]]:
    """The match a record stopped in, played again through the rules: its score, and every
    deal's state (the annulled ones too: the record keeps them), the last one where it
    stopped. Refused when the record is not valid or the match is over."""
    replayed = replay(record)
    if replayed.error is not None:
        raise SetupError(f"{setup.path}: the record is not valid: {replayed.error['reason']}")
    if replayed.match.is_over:
        score = "–".join(map(str, replayed.match.score))
        raise SetupError(f"{setup.path}: that match is over ({score})")
    return replayed.match, replayed.dealt


def find_unfinished(directory: Path) -> Path | None:
    """The most recently saved match under ``directory/matches`` that is not over."""
    folder = directory / "matches"
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            record = read(str(path))
            result = replay(record)
        except (RecordFormatError, RulesError):
            continue
        if result.error is None and not result.match.is_over and "seats" in record.extra:
            return path
    return None
