"""The review's speed: a whole deal reviewed for one seat (its 10 cards), on one core.

    .venv/bin/python benchmarks/bench_review.py --deals 20 --seed 1

``--deals`` deals played out by the heuristic bots (standard rules, the dealer rotating), each
reviewed for one seat (seat ``index % 4``) with the review's defaults (at least 6 worlds a
card, at most 48, until the label is certain; ``--max-worlds`` to change). Prints the median,
90th percentile and maximum CPU time per deal (``time.process_time``: the development machine
is shared, and wall-clock time would measure the neighbours too; the search runs on one
thread), the time of the first trick's card alone (the dearest: ten cards a hand), and the
worlds solved per card by trick. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sueca.bots import make_bot
from sueca.deal import deal_cards
from sueca.review import Budget, review_deal
from sueca.rules import STANDARD
from sueca.solver import new_core
from sueca.state import State


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bot_deal(index: int, rng: random.Random) -> State:
    state = State(STANDARD, deal_cards(STANDARD, index % 4, rng))
    bots = [make_bot("heuristic", seed=index * 4 + s) for s in range(4)]
    while not state.is_finished():
        seat = state.to_play
        state.push(bots[seat].choose(state.information_state(seat)))
    return state


def bench(deals: int, seed: int, max_worlds: int) -> dict[str, object]:
    rng = random.Random(seed)
    core = new_core(STANDARD)
    per_deal: list[float] = []
    first: list[float] = []
    worlds_by_trick: dict[int, list[int]] = {}
    budget = Budget(min(6, max_worlds), max_worlds)
    for index in range(deals):
        state = bot_deal(index, rng)
        stamps: list[float] = []
        start = time.process_time()
        review = review_deal(state, index % 4, index, seed, budget=budget, core=core,
                             progress=lambda done, total, stamps=stamps: stamps.append(
                                 time.process_time()))
        per_deal.append(time.process_time() - start)
        first.append(stamps[0] - start)
        for card in review.cards:
            worlds_by_trick.setdefault(card.trick, []).append(card.estimate.worlds)
    return {
        "deals": deals,
        "seed": seed,
        "max_worlds": max_worlds,
        "median_s": round(statistics.median(per_deal), 3),
        "p90_s": round(percentile(per_deal, 0.9), 3),
        "max_s": round(max(per_deal), 3),
        "first_card_median_s": round(statistics.median(first), 3),
        "first_card_max_s": round(max(first), 3),
        "median_worlds_by_trick": {t: statistics.median(w)
                                   for t, w in sorted(worlds_by_trick.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-worlds", type=int, default=48)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = bench(args.deals, args.seed, args.max_worlds)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['deals']} deals, one seat each, at most {result['max_worlds']} worlds a "
          f"card (CPU time, one thread):")
    print(f"  per deal: median {result['median_s']} s, 90th pct {result['p90_s']} s, "
          f"max {result['max_s']} s")
    print(f"  the first card alone: median {result['first_card_median_s']} s, "
          f"max {result['first_card_max_s']} s")
    print(f"  median worlds a card, by trick: {result['median_worlds_by_trick']}")


if __name__ == "__main__":
    main()
