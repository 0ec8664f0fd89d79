"""Strength of the search bots: a duplicate arena between bot specs, with the time per move.

    .venv/bin/python benchmarks/bench_strength.py --bots ismcts:iterations=300,heuristic \
        --deals 1000 --workers 2

prints the time each bot takes per move (median over positions of random deals, measured in
this process before the arena starts) and the arena's summary, and a Markdown line for
BENCHMARKS.md. Keep the budgets small on a shared machine: every figure names its budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from sueca.arena.tournament import run_arena
from sueca.bots import make_bot
from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.state import State


def time_per_move(spec: str, positions: int = 40, seed: int = 0) -> float:
    """Median seconds per decision of ``spec`` over positions of random deals (forced moves
    left out: they cost nothing)."""
    rng = random.Random(seed)
    bot = make_bot(spec, seed=seed)
    timings = []
    try:
        while len(timings) < positions:
            state = State(STANDARD, deal_cards(STANDARD, rng.randrange(4), rng))
            for _ in range(rng.randrange(36)):
                state.push(rng.choice(state.legal_moves()))
            info = state.information_state(state.to_play)
            if len(info.legal_moves()) < 2:
                continue
            bot.new_match(STANDARD, state.to_play)
            start = time.perf_counter()
            bot.choose(info)
            timings.append(time.perf_counter() - start)
    finally:
        bot.close()
    return statistics.median(timings)


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
        print(f"{spec}: median {1000 * time_per_move(spec, args.positions):.2f} ms per move",
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
