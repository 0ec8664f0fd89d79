"""The statistics of the arena: confidence intervals, Elo, Bradley–Terry ratings, the SPRT.

The unit of comparison is the duplicate *pair*: one deal played twice with the teams swapped.
A pair is won by the side that took more card points over its two plays (a small match of two
deals); its score is 1, ½ or 0. Elo figures are logistic (``400·log10``) in these pair scores.

>>> lo, hi = mean_ci95([1.0, 2.0, 3.0, 4.0])
>>> round(lo, 2), round(hi, 2)
(1.23, 3.77)
>>> round(elo_from_score(0.75))
191
>>> ratings = bradley_terry(["a", "b"], {("a", "b"): (30, 10, 0)})
>>> round(ratings["a"].elo - ratings["b"].elo)
185
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

ELO_SCALE = 400 / math.log(10)  # Elo points per unit of natural-log strength


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """Normal-approximation 95% interval of the mean (the mean itself for one value)."""
    if len(values) < 2:
        mean = values[0] if values else 0.0
        return mean, mean
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def elo_from_score(score: float) -> float:
    """The Elo difference that makes ``score`` the expected score (clamped off 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Rating:
    """A Bradley–Terry rating in Elo, centred on the field's mean, with its 95% error."""

    name: str
    elo: float
    error95: float


def bradley_terry(
    names: Sequence[str],
    results: Mapping[tuple[str, str], tuple[int, int, int]],
    prior_draws: float = 1.0,
    iterations: int = 1000,
) -> dict[str, Rating]:
    """Maximum-likelihood Bradley–Terry ratings from ``(a, b) -> (a wins, b wins, draws)``.

    A draw counts half a win to each side. ``prior_draws`` virtual draws between every pair
    that met keep a side that never won (or never lost) at a finite rating. Fitted by the MM
    algorithm (Hunter 2004); the error bars come from the Fisher information of the log
    strengths with the ratings' mean fixed at zero.
    """
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    games = [[0.0] * k for _ in range(k)]
    wins = [0.0] * k
    for (a, b), (won, lost, drawn) in results.items():
        i, j = index[a], index[b]
        n = won + lost + drawn + prior_draws
        games[i][j] += n
        games[j][i] += n
        wins[i] += won + (drawn + prior_draws) / 2
        wins[j] += lost + (drawn + prior_draws) / 2
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denominator = sum(games[i][j] / (strength[i] + strength[j])
                              for j in range(k) if j != i and games[i][j])
            new.append(wins[i] / denominator if denominator else strength[i])
        centre = math.exp(statistics.fmean(math.log(s) for s in new))
        new = [s / centre for s in new]
        converged = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if converged:
            break
    theta = [math.log(s) for s in strength]
    # Fisher information of the log strengths: a weighted graph Laplacian, singular along
    # (1, …, 1); its pseudo-inverse is the covariance with the mean held at zero.
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                weight = games[i][j] * p * (1 - p)
                info[i][j] -= weight
                info[i][i] += weight
    covariance = _laplacian_pseudo_inverse(info)
    return {
        name: Rating(name, ELO_SCALE * theta[i],
                     1.96 * ELO_SCALE * math.sqrt(max(covariance[i][i], 0.0)))
        for name, i in index.items()
    }


def _laplacian_pseudo_inverse(matrix: list[list[float]]) -> list[list[float]]:
    """``L⁺ = (L + J/k)⁻¹ − J/k`` for a connected Laplacian ``L`` (``J`` all ones)."""
    k = len(matrix)
    shifted = [[matrix[i][j] + 1 / k for j in range(k)] for i in range(k)]
    inverse = _invert(shifted)
    return [[inverse[i][j] - 1 / k for j in range(k)] for i in range(k)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inversion with partial pivoting (the matrices here are a few rows)."""
    k = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ValueError("the ratings are not connected: some bots never met")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(k):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[k:] for row in rows]


class Sprt:
    """Wald's sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo =
    ``elo1`` on pair scores (1, ½, 0), in the normal approximation used by chess engine
    testers (the generalised SPRT): after ``n`` scores with mean ``m`` and variance ``v``,
    ``LLR = n · (s1 − s0) · (2m − s0 − s1) / (2v)`` where ``s0``, ``s1`` are the expected
    scores under each hypothesis. It accepts H1 when the LLR rises above ``log((1−β)/α)``
    and H0 when it falls below ``log(β/(1−α))``, and not before ``min_pairs`` scores (the
    variance of a handful of scores is no estimate).

    >>> test = Sprt(0, 50)
    >>> for score in [1.0, 1.0, 0.0, 1.0] * 40:
    ...     if test.add(score):
    ...         break
    >>> test.decision, test.count < 160
    ('H1', True)
    """

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                 min_pairs: int = 16) -> None:
        if elo1 <= elo0:
            raise ValueError(f"the SPRT needs ELO0 < ELO1, not {elo0:g},{elo1:g}")
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise ValueError("the SPRT error rates must lie between 0 and 0.5")
        self.elo0, self.elo1 = elo0, elo1
        self.min_pairs = min_pairs
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.s0, self.s1 = score_from_elo(elo0), score_from_elo(elo1)
        self.count = 0
        self.total = 0.0
        self.squares = 0.0
        self.decision: str | None = None  # "H0", "H1" or None while undecided

    @property
    def llr(self) -> float:
        if self.count < 2:
            return 0.0
        mean = self.total / self.count
        variance = self.squares / self.count - mean * mean
        if variance <= 0:
            variance = 0.25 / self.count  # every score alike so far: a cautious floor
        return self.count * (self.s1 - self.s0) * (2 * mean - self.s0 - self.s1) / (2 * variance)

    def add(self, score: float) -> bool:
        """Count one pair score; ``True`` once the test has decided (then it stops counting)."""
        if self.decision is not None:
            return True
        self.count += 1
        self.total += score
        self.squares += score * score
        if self.count < self.min_pairs:
            return False
        llr = self.llr
        if llr >= self.upper:
            self.decision = "H1"
        elif llr <= self.lower:
            self.decision = "H0"
        return self.decision is not None

    def to_json(self) -> dict[str, object]:
        return {"elo0": self.elo0, "elo1": self.elo1, "llr": round(self.llr, 3),
                "bounds": [round(self.lower, 3), round(self.upper, 3)],
                "pairs": self.count, "decision": self.decision}
