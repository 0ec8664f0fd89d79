"""Environment speed: steps per second of a random rollout through each wrapper, beside the
raw engine.

    .venv/bin/python benchmarks/bench_env.py --episodes 200 --repeats 5 --seed 1

A *step* is one decision (a bid, a call, a redeal answer or a card; OpenSpiel's chance nodes,
the dealer and each card dealt, are not counted as steps but their time is). Every harness
plays whole deals with uniformly random legal actions:

* ``engine``: ``State.legal_actions`` and ``State.apply`` on a dealt ``State`` (no
  observation: the floor any wrapper stands on);
* ``referee``: :class:`sueca.env.table.AgentDeal` (the referee checks and scores each move) and
  no observation;
* ``pettingzoo``: ``sueca.env.pettingzoo.env()`` with PettingZoo's wrappers, ``last()`` (the
  observation tensor and mask of the agent to act) then ``step``;
* ``openspiel``: ``pyspiel.load_game("sueca")``: the deal's chance nodes, then
  ``legal_actions`` + ``information_state_tensor`` of the player to act + ``apply_action``.

Time is CPU time of this process (``time.process_time``; the machine is shared). Each figure
is the median over ``--repeats`` runs of ``--episodes`` deals, the harnesses interleaved.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from sueca.deal import deal_cards
from sueca.env.table import AgentDeal
from sueca.rules import Rules, preset
from sueca.state import State

Harness = Callable[[Rules, int, int], int]


def engine(rules: Rules, episodes: int, seed: int) -> int:
    rng = random.Random(seed)
    steps = 0
    for _ in range(episodes):
        state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
        while state.phase in ("play", "bidding", "calling", "redeal"):
            seat = state.to_play
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
    return steps


def referee(rules: Rules, episodes: int, seed: int) -> int:
    rng = random.Random(seed)
    steps = 0
    for _ in range(episodes):
        deal = AgentDeal(rules, deal_cards(rules, rng.randrange(rules.players), rng))
        while not deal.over:
            deal.apply(rng.choice(deal.legal()))
            steps += 1
    return steps


def pettingzoo(rules: Rules, episodes: int, seed: int) -> int:
    import numpy as np

    from sueca.env.pettingzoo import env

    environment = env(rules=rules)
    rng = random.Random(seed)
    steps = 0
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps


def openspiel(rules: Rules, episodes: int, seed: int) -> int:
    import json

    import pyspiel

    import sueca.env.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("sueca", {"rules": json.dumps(rules.to_dict())})
    rng = random.Random(seed)
    steps = 0
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


HARNESSES: dict[str, Harness] = {"engine": engine, "referee": referee,
                                 "pettingzoo": pettingzoo, "openspiel": openspiel}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    rules = preset(args.rules)
    rates: dict[str, list[float]] = {name: [] for name in HARNESSES}
    for repeat in range(args.repeats):
        for name, harness in HARNESSES.items():
            started = time.process_time()
            steps = harness(rules, args.episodes, args.seed + repeat)
            rates[name].append(steps / (time.process_time() - started))
    base = statistics.median(rates["engine"])
    print(f"{args.rules}: {args.episodes} random deals x {args.repeats} repeats, "
          "CPU time, medians")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:<11} {median:>9,.0f} steps/s  (engine/this {base / median:5.1f}x; "
              f"range {min(values):,.0f}-{max(values):,.0f})")


if __name__ == "__main__":
    main()
