"""What pimc's inference does to its worlds: how many equal worlds the weights are worth, and
what scoring one world costs.

    .venv/bin/python benchmarks/bench_inference.py --deals 6 --worlds 32

For each of ``--deals`` deals played by the heuristic in every seat, after 8, 16 and 24
cards, draws ``--worlds`` worlds from the seat to play's information state, scores them with
:class:`sueca.bots.inference.HeuristicPlayModel` at each softening, and prints per softening
and moment the median of Kish's effective sample size (sum w)^2 / sum w^2 and the median
milliseconds a world's scoring took. (The heuristic models its own play exactly here; against
other players the model is wrong more often.)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from sueca.bots.heuristic import HeuristicBot
from sueca.bots.inference import HeuristicPlayModel, WorldScorer
from sueca.deal import deal_cards
from sueca.infostate import InformationState
from sueca.rules import STANDARD
from sueca.state import State
from sueca.worlds import sample_state

MOMENTS = (8, 16, 24)


def position(seed: int, plays: int) -> InformationState:
    state = State(STANDARD, deal_cards(STANDARD, dealer=seed % 4, rng=random.Random(seed)))
    bot = HeuristicBot(0)
    for _ in range(plays):
        state.push(bot.choose(state.information_state(state.to_play)))
    return state.information_state(state.to_play)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--softening", type=float, nargs="+", default=[0.2, 0.5, 0.8])
    args = parser.parse_args()
    for softening in args.softening:
        row: dict[str, object] = {"softening": softening}
        for plays in MOMENTS:
            sizes: list[float] = []
            costs: list[float] = []
            for seed in range(args.deals):
                info = position(seed, plays)
                scorer = WorldScorer(HeuristicPlayModel(softening), info)
                rng = random.Random(seed)
                logs = []
                for _ in range(args.worlds):
                    world = sample_state(info, rng)
                    clock = time.perf_counter()
                    logs.append(scorer.log_weight(world))
                    costs.append(time.perf_counter() - clock)
                top = max(logs)
                weights = [math.exp(v - top) for v in logs]
                sizes.append(sum(weights) ** 2 / sum(w * w for w in weights))
            row[f"after_{plays}"] = {"effective_worlds": round(statistics.median(sizes), 1),
                                     "ms_per_world": round(1000 * statistics.median(costs), 2)}
        print(json.dumps(row))


if __name__ == "__main__":
    main()
