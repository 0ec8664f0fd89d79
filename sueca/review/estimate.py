"""What each legal card was worth to the seat that had to choose, from what it knew.

The same estimate as the pimc bot's (:mod:`sueca.bots.pimc`): worlds drawn uniformly among
those consistent with the seat's information state (:func:`sueca.worlds.sample_state`), each
solved double-dummy for every legal card. The values are the seat's side's *final* card points
of the deal (what it had taken before the card, plus what it takes from there on). Worlds are
drawn in batches until the card's label is certain (its interval, two standard errors of the
points lost either side, falls inside one label's band) or the most worlds allowed are solved.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sueca.cards import Card
from sueca.infostate import InformationState
from sueca.review.facts import side_points_taken
from sueca.solver import SearchCore, position_of, remaining_points
from sueca.worlds import sample_state

# Two standard errors either side: about a 95% interval.
Z = 2.0


@dataclass(frozen=True)
class Estimate:
    """The mean final points of the seat's side after each legal card, over ``worlds``
    sampled worlds, and the points ``played`` lost against the best mean with its standard
    error (0 when every world agreed)."""

    values: dict[Card, float]
    worlds: int
    best: Card
    lost: float
    error: float
    # Each world's values, kept for the game-point view (per card, one entry a world).
    samples: dict[Card, list[int]] = field(repr=False, compare=False, default_factory=dict)


def estimate(info: InformationState, played: Card, core: SearchCore, rng: random.Random,
             certain: Callable[[float, float], bool], min_worlds: int = 6,
             max_worlds: int = 48, batch: int = 6) -> Estimate:
    """Sample and solve worlds for ``info`` (the seat to move) until ``certain(lost, error)``
    says the answer is settled (after ``min_worlds`` at least) or ``max_worlds`` are solved."""
    side = info.teams[info.seat]
    assert side is not None  # a partnership table: every side is known
    taken = side_points_taken(info)
    samples: dict[Card, list[int]] = {}
    while True:
        for _ in range(batch):
            state = sample_state(info, rng)
            values = core.move_values(*position_of(state))
            assert values is not None  # no node limit: always an answer
            total = remaining_points(state)
            for card, team0 in values:
                mine = team0 if side == 0 else total - team0
                samples.setdefault(card, []).append(taken + mine)
        worlds = len(samples[played])
        result = _summary(samples, played, worlds)
        if worlds >= max_worlds or (worlds >= min_worlds and certain(result.lost,
                                                                     result.error)):
            return result
        batch = min(batch, max_worlds - worlds)


def _summary(samples: dict[Card, list[int]], played: Card, worlds: int) -> Estimate:
    values = {card: sum(v) / worlds for card, v in samples.items()}
    # Ties go to the card played (no loss), then to the lower card: stable.
    best = max(values, key=lambda c: (values[c], c == played, -c))
    lost = values[best] - values[played]
    return Estimate(values, worlds, best, lost, _paired_error(samples[best], samples[played]),
                    samples)


def _paired_error(best: Sequence[int], played: Sequence[int]) -> float:
    """The standard error of the mean difference, world by world (the same worlds for both
    cards, so the difference varies far less than either value)."""
    n = len(best)
    if n < 2:
        return 0.0
    diffs = [b - p for b, p in zip(best, played, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(variance / n)
