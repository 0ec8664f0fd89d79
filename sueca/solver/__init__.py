"""Double-dummy solver: the exact card-point value of a position with every hand known.

From any point of a deal (mid-trick too), :func:`solve` gives the card points each team takes
from the remaining tricks under perfect play by both sides (the trick in progress included)
and the value of every legal move. The search runs in a small C extension
(``sueca/solver/_dds.c``, built by ``pip install -e .``); where it is not built, the same
algorithm in pure Python (:mod:`sueca.solver.reference`) answers, more slowly. The
environment variable ``SUECA_SOLVER=python`` forces the Python search. ``threads=2`` (or more)
runs each dear test of the search on that many threads at once, sharing one table: on two
cores the hardest full deals take about two thirds of the time, all deals together about three
quarters (docs/solver.md); the values are the same.

>>> import random
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(5)))
>>> while len(state.plays) < 29:  # play on to trick 8, one card into it
...     state.push(state.legal_moves()[0])
>>> solution = solve(state)
>>> sum(solution.points) + sum(state.team_points()) == 120
True
>>> max(v[solution.side_to_move] for v in solution.moves.values()) == (
...     solution.points[solution.side_to_move])
True
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol

from sueca.cards import Card, CardMask, card_name
from sueca.rules import Rules
from sueca.solver.reference import PositionError, ReferenceSolver
from sueca.state import State

_dds: ModuleType | None
try:
    from sueca.solver import _dds
except ImportError:  # not built (no compiler at install time): the Python search stands in
    _dds = None


class SolverError(ValueError):
    """A table or position the solver does not handle (it needs four seats, one deck)."""


class SearchCore(Protocol):
    """What the C core and the Python reference both provide (see :mod:`.reference`)."""

    nodes: int
    threads: int

    def value(self, hands: Sequence[CardMask], trump: int, leader: int,
              trick: Sequence[int], guess: int = -1, node_limit: int = 0) -> int | None: ...

    def test(self, hands: Sequence[CardMask], trump: int, leader: int,
             trick: Sequence[int], target: int) -> bool: ...

    def move_values(self, hands: Sequence[CardMask], trump: int, leader: int,
                    trick: Sequence[int], guess: int = -1,
                    node_limit: int = 0) -> list[tuple[int, int]] | None: ...

    def clear(self) -> None: ...


C_AVAILABLE = _dds is not None
_FALLBACK_NOTE = (
    "sueca.solver: the C search core is not built, using the pure-Python search (much slower);"
    " reinstall with `pip install -e .` where a C compiler and the Python headers are present"
)
_warned = False


def default_backend() -> str:
    """``"c"`` when the C core is built (and not disabled by ``SUECA_SOLVER=python``)."""
    wanted = os.environ.get("SUECA_SOLVER", "").strip().lower()
    if wanted == "python" or not C_AVAILABLE:
        return "python"
    return "c"


def backend_note() -> str | None:
    """Why the solver is running slowly, when it is (for front-ends to show), else ``None``."""
    return _FALLBACK_NOTE if not C_AVAILABLE and os.environ.get("SUECA_SOLVER") != "python" \
        else None


MAX_THREADS = 16
"""The most threads a search core is asked for (the C core's limit where it has threads)."""


def default_threads() -> int:
    """Two where this process may run on two cores or more and the C core has threads (the
    setting measured, docs/solver.md); else one."""
    if _dds is None or _dds.MAX_THREADS < 2:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))  # what a container or taskset allows
    except AttributeError:  # not on every system
        cores = os.cpu_count() or 1
    return min(2, cores)


def check_threads(threads: object) -> None:
    """Refuse a thread count the solver does not take, saying why."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise SolverError(f"threads must be a whole number, not {threads!r}")
    if not 1 <= threads <= MAX_THREADS:
        raise SolverError(f"threads must be 1-{MAX_THREADS}, not {threads}")


def new_core(rules: Rules, backend: str | None = None, table_bits: int = 18,
             threads: int = 1) -> SearchCore:
    """A fresh search core for one table's rules, with its own transposition table of
    ``4 << table_bits`` entries (32 bytes each in C).

    ``backend`` is ``"c"``, ``"python"`` or ``None`` for :func:`default_backend`. ``threads``
    (C only; the Python search runs on one) is how many threads run each test that outgrows
    10,000 nodes alone, when no node limit is given.
    """
    global _warned
    name = backend or default_backend()
    if name not in ("c", "python"):
        raise SolverError(f"unknown solver backend {name!r} (c or python)")
    check_threads(threads)
    if name == "c" and _dds is None:
        raise SolverError(_FALLBACK_NOTE)
    if rules.players != 4 or rules.decks != 1 or sorted(set(rules.teams)) != [0, 1]:
        raise SolverError("the solver plays four seats in two teams with one 40-card deck")
    if name == "python" and not _warned and backend_note():
        warnings.warn(_FALLBACK_NOTE, RuntimeWarning, stacklevel=2)
        _warned = True
    args = (rules.card_points, rules.teams, rules.must_trump, rules.last_trick_bonus)
    if name == "c":
        assert _dds is not None
        try:
            core: SearchCore = _dds.Solver(*args, table_bits, threads)
        except ValueError as error:  # a build without threads asked for several
            raise SolverError(str(error)) from None
        return core
    return ReferenceSolver(*args, table_size=4 << table_bits)


SHARED_TABLE_BITS = 18
"""The shared cores' tables: 1M entries, 32 MB at most, touched as they fill. Half or twice
as many entries solve full deals in about the same time: fewer entries, more nodes; more
entries, a probe that waits on memory more often (docs/solver.md)."""


def core_for(rules: Rules, backend: str | None = None, threads: int = 1) -> SearchCore:
    """The shared search core of one table's rules (and thread count), built once and kept,
    so that its table stays warm from one question to the next. Each thread count has a core
    and a table of its own (32 MB at most in C)."""
    name = backend or default_backend()
    check_threads(threads)
    if name == "python":
        threads = 1  # one thread whatever was asked: one shared core
    core: SearchCore = rules.derived(
        ("double-dummy", name, threads),
        lambda: new_core(rules, name, SHARED_TABLE_BITS, threads))
    return core


Position = tuple[tuple[CardMask, CardMask, CardMask, CardMask], int, int, tuple[Card, ...]]


def position_of(state: State) -> Position:
    """The solver's view of a state: ``(hands, trump, leader, trick in progress)``."""
    hands = state.hands
    return (hands[0], hands[1], hands[2], hands[3]), state.trump, state.leader, tuple(state.trick)


@dataclass(frozen=True)
class Solution:
    """A position's double-dummy value. ``points[t]`` is what team ``t`` takes from the
    remaining tricks (the trick in progress included); ``moves[card]`` the same after
    ``card``, for every legal card of the seat to move."""

    side_to_move: int
    points: tuple[int, int]
    moves: dict[Card, tuple[int, int]]

    def best_moves(self) -> list[Card]:
        """The legal cards that keep the value for the side to move."""
        side = self.side_to_move
        return [c for c, v in self.moves.items() if v[side] == self.points[side]]

    def to_json(self) -> dict[str, object]:
        """``{"side_to_move": s, "points": [a, b], "moves": {"AS": [a, b], …}}``."""
        return {
            "side_to_move": self.side_to_move,
            "points": list(self.points),
            "moves": {card_name(c): list(v) for c, v in self.moves.items()},
        }


def remaining_points(state: State) -> int:
    """Every point still to be taken: cards in hand, cards on the table, the last-trick bonus."""
    if state.is_finished():
        return 0
    points = state.rules.card_points
    in_hands = sum(points[c] for c in range(state.rules.deck_size)
                   if any(h >> c & 1 for h in state.hands))
    return in_hands + state.trick_points * bool(state.trick) + state.rules.last_trick_bonus


def _split(team0: int, total: int) -> tuple[int, int]:
    return team0, total - team0


def value(state: State, backend: str | None = None, threads: int = 1) -> tuple[int, int]:
    """What each team takes from the remaining tricks under perfect play (``threads``: see
    :func:`new_core`; the value does not depend on it)."""
    if state.is_finished():
        return 0, 0
    core = core_for(state.rules, backend, threads)
    try:
        team0 = core.value(*position_of(state))
    except (ValueError, PositionError) as error:
        raise SolverError(f"not a position the solver can take: {error}") from None
    assert team0 is not None  # no node limit: always an answer
    return _split(team0, remaining_points(state))


def solve(state: State, backend: str | None = None, threads: int = 1) -> Solution:
    """The value of ``state`` and of each legal move (``state`` itself is not changed;
    ``threads``: see :func:`new_core`, the values do not depend on it)."""
    if state.is_finished():
        raise SolverError("the deal is over: there is nothing left to solve")
    core = core_for(state.rules, backend, threads)
    total = remaining_points(state)
    try:
        values = core.move_values(*position_of(state))
    except (ValueError, PositionError) as error:
        raise SolverError(f"not a position the solver can take: {error}") from None
    assert values is not None  # no node limit: always an answer
    moves = {card: _split(v, total) for card, v in values}
    side = state.rules.teams[state.to_play]
    best = max(v[side] for v in moves.values())
    points = _split(best if side == 0 else total - best, total)
    return Solution(side, points, moves)


__all__ = [
    "C_AVAILABLE",
    "MAX_THREADS",
    "Position",
    "PositionError",
    "ReferenceSolver",
    "SearchCore",
    "Solution",
    "SolverError",
    "backend_note",
    "check_threads",
    "core_for",
    "default_backend",
    "default_threads",
    "new_core",
    "position_of",
    "remaining_points",
    "solve",
    "value",
]
