"""Engine speed: random full deals per second on one core, and push+pop throughput for search.

    .venv/bin/python benchmarks/bench_engine.py --deals 20000 --repeats 7 --seed 1

One *random deal* is what a Monte Carlo rollout costs: ``deal_cards`` (a seeded shuffle),
``State``, then for every card ``legal_moves()``, a uniformly random choice among them and
``push``, and finally ``team_points()``: the same public API the search bots use, pushes
checked for legality. Each figure is the median over ``--repeats`` runs of ``--deals`` deals.

Time is CPU time of this process (``time.process_time``): the development machine is shared, and
wall-clock time there measures the neighbours as much as the engine. Wall-clock medians are
printed too. Two yardsticks run interleaved with the engine in the same process, so that their
ratios hold however busy the machine is:

* ``naive``: a self-contained, straightforward implementation of the same loop for the
  standard rules (``random.shuffle``, hands as lists, legal cards by a list comprehension,
  ``random.choice``, tricks scored with plain comparisons): the speed a first version gets;
* ``engine, random.choice``: the engine again, picking moves with ``rng.choice`` instead of the
  cheaper draw below, to show what the harness itself costs.

The harness draws its random choices 40 at a time: one ``getrandbits`` call unpacked into 32-bit
words, a move picked as ``moves[word % len(moves)]``. With at most 10 moves the modulo's bias is
below 10 / 2**32 per choice, negligible against what a benchmark can observe.

The push+pop figure is the inner step of a tree search: at positions from random deals, push
each legal card and pop it again (pairs per second).
"""

from __future__ import annotations

import argparse
import random
import statistics
import struct
import sys
import time
from collections.abc import Callable

from sueca.deal import deal_cards
from sueca.rules import Rules, preset
from sueca.state import State

Harness = Callable[[Rules, int, int], int]


def engine_deals(rules: Rules, deals: int, seed: int) -> int:
    """Play ``deals`` random deals through the public API; return a checksum of the points."""
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    cards = rules.deck_size
    words = struct.Struct(f"<{cards}I").unpack
    checksum = 0
    for number in range(deals):
        state = State(rules, deal_cards(rules, number % rules.players, rng))
        legal_moves = state.legal_moves
        push = state.push
        # One random 32-bit word per card played, drawn in one call.
        for word in words(getrandbits(32 * cards).to_bytes(4 * cards, "little")):
            moves = legal_moves()
            push(moves[word % len(moves)])
        checksum += state.team_points()[0]
    return checksum


def engine_deals_choice(rules: Rules, deals: int, seed: int) -> int:
    """``engine_deals`` with the textbook ``rng.choice`` for each move."""
    rng = random.Random(seed)
    choice = rng.choice
    checksum = 0
    for number in range(deals):
        state = State(rules, deal_cards(rules, number % rules.players, rng))
        legal_moves = state.legal_moves
        push = state.push
        for _ in range(rules.deck_size):
            push(choice(legal_moves()))
        checksum += state.team_points()[0]
    return checksum


# ---- the naive yardstick: standard rules, written the obvious way ------------------------

_NAIVE_POINTS = (0, 0, 0, 0, 0, 2, 3, 4, 10, 11) * 4


def naive_deals(rules: Rules, deals: int, seed: int) -> int:
    """The same loop without the engine, written the obvious way: cards 0-39 as
    ``suit * 10 + rank``, hands as lists, the standard rules only (no options)."""
    rng = random.Random(seed)
    checksum = 0
    deck = list(range(40))
    for number in range(deals):
        dealer = number % 4
        rng.shuffle(deck)
        hands = [deck[(seat - dealer - 1) % 4::4] for seat in range(4)]  # one card at a time
        trump = deck[39] // 10  # the dealer's last card
        leader = (dealer + 1) % 4
        points = [0, 0]
        for _ in range(10):
            trick: list[int] = []
            for offset in range(4):
                hand = hands[(leader + offset) % 4]
                legal = hand
                if trick:
                    legal = [c for c in hand if c // 10 == trick[0] // 10] or hand
                card = rng.choice(legal)
                hand.remove(card)
                trick.append(card)
            best = 0
            for i in range(1, 4):
                card, top = trick[i], trick[best]
                if (card // 10 == top // 10 and card > top) or (
                    card // 10 == trump and top // 10 != trump
                ):
                    best = i
            leader = (leader + best) % 4
            points[leader % 2] += sum(_NAIVE_POINTS[c] for c in trick)
        checksum += points[0]
    return checksum


# ---- push+pop ------------------------------------------------------------------------------


def push_pop_positions(rules: Rules, seed: int, count: int = 400) -> list[State]:
    """States at every stage of random deals (0 to 39 cards played)."""
    rng = random.Random(seed)
    states = []
    for number in range(count):
        state = State(rules, deal_cards(rules, number % rules.players, rng))
        for _ in range(number % rules.deck_size):
            state.push(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def push_pop_rate(states: list[State], rounds: int) -> tuple[float, int]:
    """Push and pop every legal card of every state ``rounds`` times: (CPU seconds, pairs)."""
    work = [(state.push, state.pop, state.legal_moves()) for state in states]
    pairs = rounds * sum(len(moves) for _, _, moves in work)
    start = time.process_time()
    for _ in range(rounds):
        for push, pop, moves in work:
            for card in moves:
                push(card)
                pop()
    return time.process_time() - start, pairs


def operation_costs(rules: Rules, states: list[State], seed: int) -> dict[str, float]:
    """Microseconds per call of each step of a deal (best of 5 passes: the least disturbed)."""
    rng = random.Random(seed)
    deals = [deal_cards(rules, n % rules.players, rng) for n in range(len(states))]
    finished = []
    for deal in deals:
        state = State(rules, deal)
        while not state.is_finished():
            state.push(state.legal_moves()[0])
        finished.append(state)

    def best(step: Callable[[], object], calls: int) -> float:
        times = []
        for _ in range(5):
            start = time.process_time()
            step()
            times.append(time.process_time() - start)
        return min(times) / calls * 1e6

    n = len(states)
    return {
        "deal_cards": best(lambda: [deal_cards(rules, 0, rng) for _ in range(n)], n),
        "State()": best(lambda: [State(rules, deal) for deal in deals], n),
        "legal_moves": best(lambda: [state.legal_moves() for state in states], n),
        "team_points": best(lambda: [state.team_points() for state in finished], n),
    }


# ---- running -------------------------------------------------------------------------------


def timed(harness: Harness, rules: Rules, deals: int, seed: int) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, checksum) of one run."""
    wall = time.perf_counter()
    cpu = time.process_time()
    checksum = harness(rules, deals, seed)
    return time.process_time() - cpu, time.perf_counter() - wall, checksum


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000, help="deals per run (20000)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per figure (7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every run (1)")
    parser.add_argument(
        "--variant", default="standard", help="rules preset for the engine runs (standard)"
    )
    parser.add_argument(
        "--no-yardsticks", action="store_true", help="only the engine (faster; no ratios)"
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")
    rules = preset(args.variant)

    harnesses: dict[str, Harness] = {"engine": engine_deals}
    if not args.no_yardsticks:
        harnesses["engine, random.choice"] = engine_deals_choice
        harnesses["naive"] = naive_deals
    cpu: dict[str, list[float]] = {name: [] for name in harnesses}
    wall: dict[str, list[float]] = {name: [] for name in harnesses}
    checksums: dict[str, set[int]] = {name: set() for name in harnesses}
    ratios: list[float] = []
    for _ in range(args.repeats):
        for name, harness in harnesses.items():  # interleaved: each repeat sees the same load
            seconds, wall_seconds, checksum = timed(harness, rules, args.deals, args.seed)
            cpu[name].append(args.deals / seconds)
            wall[name].append(args.deals / wall_seconds)
            checksums[name].add(checksum)
        if "naive" in cpu:
            ratios.append(cpu["engine"][-1] / cpu["naive"][-1])

    states = push_pop_positions(rules, args.seed)
    push_pop = []
    for _ in range(args.repeats):
        seconds, pairs = push_pop_rate(states, rounds=3)
        push_pop.append(pairs / seconds)

    print(f"python {sys.version.split()[0]}, rules {args.variant}, seed {args.seed}, "
          f"{args.deals} deals x {args.repeats} runs (median; CPU time)")
    for name in harnesses:
        print(f"  {name:24s} {statistics.median(cpu[name]):9,.0f} deals/s   "
              f"(wall {statistics.median(wall[name]):9,.0f}; "
              f"min {min(cpu[name]):,.0f}, max {max(cpu[name]):,.0f})")
        if len(checksums[name]) != 1:
            raise SystemExit(f"{name}: runs with one seed disagree: {sorted(checksums[name])}")
    if ratios:
        print(f"  engine / naive           {statistics.median(ratios):9.2f} x "
              f"(median of per-run ratios)")
    print(f"  push+pop                 {statistics.median(push_pop):9,.0f} pairs/s "
          f"({1e6 / statistics.median(push_pop):.3f} us per pair)")
    costs = operation_costs(rules, states, args.seed)
    print("  per call (us, best of 5): " + ", ".join(f"{k} {v:.2f}" for k, v in costs.items()))


if __name__ == "__main__":
    main()
