"""Strength of the search bots: a duplicate arena between bot specs, with the time per move.

    .venv/bin/python benchmarks/bench_strength.py --bots ismcts:iterations=300,heuristic \
        --deals 1000 --workers 2

prints the time each bot takes per move (median over positions of random deals, measured in
this process before the arena starts) and the arena's summary, and a Markdown line for
BENCHMARKS.md. Keep the budgets small on a shared machine: every figure names its budget.
"""

from __future__ import annotations

import argparse

from bench_tables import time_per_move  # one timing loop for every table

from sueca.arena.tournament import run_arena
from sueca.rules import STANDARD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", default="ismcts:iterations=300,heuristic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=40, help="positions timed per bot")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",")]
    for spec in bots:
        print(f"{spec}: median {1000 * time_per_move(STANDARD, spec, args.positions):.2f} ms "
              "per move",
              flush=True)
    result = run_arena(STANDARD, bots, args.deals, args.seed, args.workers)
    print(result)
    for pair in result.pairs:
        lo, hi = pair.margin_ci95
        print(f"| {pair.bot_a} | {pair.bot_b} | {pair.pairs} | {pair.margin:+.2f} "
              f"| [{lo:+.2f}, {hi:+.2f}] | {result.seconds / 60:.0f} min on {result.workers} "
              f"workers |")


if __name__ == "__main__":
    main()
