"""A whole record reviewed: each finished deal, for the seats asked (docs/review.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sueca.record import GameRecord, replay
from sueca.review.deal import Budget, DealReview, ReviewError, Thresholds, review_deal
from sueca.solver import SolverError, new_core
from sueca.state import State


def finished_deals(record: GameRecord) -> list[State]:
    """The record's deals played through the rules, each as its final state (annulled deals
    left out); :class:`ReviewError` for an invalid record, naming where it goes wrong."""
    result = replay(record)
    if result.error is not None:
        problem = result.error
        where = f"deal {problem['deal'] + 1}" + (
            f", play {problem['play']}" if problem["play"] is not None else "")
        raise ReviewError(f"invalid record at {where}: {problem['reason']}")
    return result.states


def reviewable(state: State) -> bool:
    """A deal whose cards can be reviewed: over (played out, or ended by a proven revoke).
    A deal in play never is: its hidden cards are still hidden."""
    return state.is_finished() or bool(state.denunciations)


def review_states(states: Sequence[State], seats: Sequence[int] | None = None,
                  deals: Sequence[int] | None = None, seed: int = 0,
                  thresholds: Thresholds | None = None, budget: Budget | None = None,
                  progress: Callable[[int, int], None] | None = None) -> list[DealReview]:
    """Review the finished deals ``deals`` (indexes from 0; default every finished deal) for
    ``seats`` (default every seat that played its own cards). ``progress(done, total)`` counts
    cards over the whole job."""
    if not states:
        raise ReviewError("the record holds no deal")
    rules = states[0].rules
    if deals is None:
        deals = [i for i, s in enumerate(states) if reviewable(s)]
        if not deals:
            raise ReviewError("the record holds no finished deal (a deal in play is never "
                              "reviewed: its hidden cards are still hidden)")
    for index in deals:
        if not 0 <= index < len(states):
            raise ReviewError(f"deal {index + 1} is not in the record (it holds "
                              f"{len(states)})")
        if not reviewable(states[index]):
            raise ReviewError(f"deal {index + 1} is not finished: only a finished deal can be "
                              "reviewed")
    if seats is None:
        seats = [s for s in range(rules.players) if s != rules.dummy]
    try:
        core = new_core(rules)
    except SolverError as error:
        raise ReviewError(f"the review needs the solver's table: {error}") from None
    jobs = [(d, s) for d in deals for s in seats]
    total = sum(_cards_of(states[d], s) for d, s in jobs)
    done = 0
    out: list[DealReview] = []
    for deal, seat in jobs:
        base = done

        def told(count: int, _of: int, base: int = base) -> None:
            if progress is not None:
                progress(base + count, total)

        out.append(review_deal(states[deal], seat, deal, seed, thresholds, budget, told, core))
        done = base + len(out[-1].cards)
    return out


def _cards_of(state: State, seat: int) -> int:
    return sum(1 for s in state.played_by() if s == seat)


def review_record(record: GameRecord, seats: Sequence[int] | None = None,
                  deals: Sequence[int] | None = None, seed: int = 0,
                  thresholds: Thresholds | None = None, budget: Budget | None = None,
                  progress: Callable[[int, int], None] | None = None) -> list[DealReview]:
    """:func:`review_states` of a record's deals (:func:`finished_deals`)."""
    return review_states(finished_deals(record), seats, deals, seed, thresholds, budget,
                         progress)
