"""The arena's statistics: intervals, Bradley–Terry ratings and the SPRT."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from sueca.arena.stats import (
    Sprt,
    bradley_terry,
    elo_from_score,
    mean_ci95,
    score_from_elo,
)


def test_mean_ci95_is_the_normal_interval() -> None:
    values = [random.Random(1).gauss(5, 2) for _ in range(200)]
    lo, hi = mean_ci95(values)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    assert lo == pytest.approx(mean - half) and hi == pytest.approx(mean + half)
    assert mean_ci95([3.0]) == (3.0, 3.0)
    assert mean_ci95([]) == (0.0, 0.0)


def test_elo_and_score_are_inverse() -> None:
    for elo in (-300.0, -50.0, 0.0, 120.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(0.5) == 0
    assert math.isfinite(elo_from_score(1.0))


def test_bradley_terry_two_bots_is_the_elo_of_the_score() -> None:
    ratings = bradley_terry(["a", "b"], {("a", "b"): (60, 20, 20)}, prior_draws=0)
    assert ratings["a"].elo - ratings["b"].elo == pytest.approx(elo_from_score(0.7), abs=0.01)
    assert ratings["a"].elo == pytest.approx(-ratings["b"].elo)
    assert ratings["a"].error95 > 0


def test_bradley_terry_orders_a_field_and_errors_shrink_with_games() -> None:
    def table(scale: int) -> dict[tuple[str, str], tuple[int, int, int]]:
        return {("a", "b"): (6 * scale, 4 * scale, 0), ("b", "c"): (7 * scale, 3 * scale, 0),
                ("a", "c"): (8 * scale, 2 * scale, 0)}

    small = bradley_terry(["a", "b", "c"], table(1))
    large = bradley_terry(["a", "b", "c"], table(20))
    assert large["a"].elo > large["b"].elo > large["c"].elo
    assert sum(r.elo for r in large.values()) == pytest.approx(0, abs=1e-6)
    assert all(large[n].error95 < small[n].error95 for n in "abc")


def test_bradley_terry_keeps_a_winless_bot_finite() -> None:
    ratings = bradley_terry(["a", "b"], {("a", "b"): (10, 0, 0)})
    assert math.isfinite(ratings["b"].elo) and ratings["b"].elo < -100


def test_bradley_terry_refuses_a_field_that_never_met() -> None:
    with pytest.raises(ValueError, match="never met"):
        bradley_terry(["a", "b", "c", "d"], {("a", "b"): (1, 1, 0), ("c", "d"): (1, 1, 0)})


def test_sprt_accepts_h1_for_a_strong_bot_and_h0_for_an_equal_one() -> None:
    rng = random.Random(7)
    strong, equal = Sprt(0, 50), Sprt(0, 50)
    for _ in range(5000):
        strong.add(1.0 if rng.random() < 0.75 else 0.0)
        equal.add(1.0 if rng.random() < 0.5 else 0.0)
        if strong.decision and equal.decision:
            break
    assert strong.decision == "H1"
    assert equal.decision == "H0"
    assert strong.llr >= strong.upper


def test_sprt_waits_for_min_pairs_and_then_stops_counting() -> None:
    test = Sprt(0, 100, min_pairs=16)
    for _ in range(15):
        assert not test.add(1.0)
    assert test.decision is None
    assert test.add(1.0)
    count = test.count
    test.add(0.0)
    assert test.count == count


@pytest.mark.parametrize("args", [(10, 10), (20, 0)])
def test_sprt_refuses_bad_bounds(args: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="ELO0 < ELO1"):
        Sprt(*args)
