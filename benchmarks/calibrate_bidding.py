"""Fit the bidding evaluation of :mod:`sueca.bots.bidding` to heuristic playouts.

    .venv/bin/python benchmarks/calibrate_bidding.py --deals 3000

Deals random five-player Italiana hands; for each, seat 0 (the dealer) becomes the declarer
(everybody passes) and calls, in turn, each card :func:`call_candidates` proposes; the
heuristic bot plays every seat to the end. The declarer's side's card points are regressed on
:func:`features` by least squares; the script prints the weights, the residual spread and the
fit's R², to paste into ``WEIGHTS`` and ``SPREAD``. Pure Python: no numpy needed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from sueca.arena.play import play_out
from sueca.bots import make_bot
from sueca.bots.bidding import FEATURES, call_candidates, features
from sueca.deal import deal_cards
from sueca.rules import preset
from sueca.state import State


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the normal equations are small)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            raise ValueError(f"feature {FEATURES[col]!r} never varies: cannot fit it")
        for row in range(n):
            if row != col:
                factor = a[row][col] / a[col][col]
                a[row] = [x - factor * y for x, y in zip(a[row], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = preset("italiana5")
    rng = random.Random(args.seed)
    rows: list[tuple[float, ...]] = []
    targets: list[float] = []
    for index in range(args.deals):
        deal = deal_cards(rules, 0, rng)
        hand = deal.hands[0]
        for called in call_candidates(hand):
            state = State(rules, deal)
            for _ in range(rules.players):
                state.bid(0)
            state.call(called)
            bots = [make_bot("heuristic", seed=index * 8 + s) for s in range(rules.players)]
            play_out(state, bots)
            rows.append(features(hand, called))
            targets.append(float(state.team_points()[0]))
    k = len(FEATURES)
    xtx = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    xty = [sum(r[i] * y for r, y in zip(rows, targets, strict=True)) for i in range(k)]
    weights = solve(xtx, xty)
    predictions = [sum(w * f for w, f in zip(weights, r, strict=True)) for r in rows]
    residuals = [y - p for y, p in zip(targets, predictions, strict=True)]
    spread = math.sqrt(sum(e * e for e in residuals) / (len(rows) - k))
    variance = statistics.pvariance(targets)
    r2 = 1 - statistics.fmean(e * e for e in residuals) / variance
    print(f"{len(rows)} playouts from {args.deals} deals; R² {r2:.3f}, spread {spread:.2f}")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"  {name:<20} {weight:+.3f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.3g}" for w in weights) + ")")


if __name__ == "__main__":
    main()
