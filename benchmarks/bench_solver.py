"""Double-dummy solver speed, and the pimc bot's time per move.

    .venv/bin/python benchmarks/bench_solver.py --deals 200 --seed 1
    .venv/bin/python benchmarks/bench_solver.py --deals 200 --seed 1 --threads 2
    .venv/bin/python benchmarks/bench_solver.py --what pimc --deals 4 --seed 1

``solver``: ``--deals`` random deals (standard rules, the dealer rotating), each solved from
the opening lead: the exact value of the full 40-card deal (``value``), one shared core as
:func:`sueca.solver.value` uses it. Prints the median, 90th percentile and maximum of the time
per deal, and of search nodes (nodes do not depend on the machine's load: compare them across
versions). ``--moves`` times ``move_values`` (every opening lead's value) instead.

``pimc``: ``--deals`` deals of the pimc bot (default settings, or ``--spec``) against the
heuristic bot, timing every pimc decision with more than one legal card, by trick.

Times are CPU time of this process (``time.process_time``): the development machine is shared,
and wall-clock time measures the neighbours too. With ``--threads`` 2 or more the search's
threads add up their CPU time, so the times are wall-clock (``time.perf_counter``), and the
CPU time in all is printed beside them: run it on an otherwise idle machine. ``--backend
python`` times the fallback.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sueca.bots import make_bot
from sueca.bots.pimc import PimcBot
from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.solver import core_for, position_of
from sueca.state import State


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench_solver(deals: int, seed: int, backend: str, moves: bool,
                 threads: int = 1) -> dict[str, object]:
    core = core_for(STANDARD, backend, threads)
    clock = time.process_time if threads == 1 else time.perf_counter
    times: list[float] = []
    nodes: list[int] = []
    cpu_total = 0.0
    rng = random.Random(seed)
    for index in range(deals):
        state = State(STANDARD, deal_cards(STANDARD, index % 4, rng))
        position = position_of(state)
        before = core.nodes
        cpu_start = time.process_time()
        start = clock()
        if moves:
            core.move_values(*position)
        else:
            core.value(*position)
        times.append(clock() - start)
        cpu_total += time.process_time() - cpu_start
        nodes.append(core.nodes - before)
    return {
        "what": "move_values" if moves else "value",
        "backend": backend,
        "threads": threads,
        "clock": "cpu" if threads == 1 else "wall",
        "cpu_total_s": round(cpu_total, 1),
        "deals": deals,
        "median_ms": round(statistics.median(times) * 1e3, 1),
        "p90_ms": round(percentile(times, 0.9) * 1e3, 1),
        "max_ms": round(max(times) * 1e3, 1),
        "mean_ms": round(statistics.fmean(times) * 1e3, 1),
        "median_nodes": int(statistics.median(nodes)),
        "max_nodes": max(nodes),
        "ns_per_node": round(cpu_total / max(sum(nodes), 1) * 1e9, 1),  # CPU time
    }


def bench_pimc(deals: int, seed: int, spec: str) -> dict[str, object]:
    by_trick: dict[int, list[float]] = {}
    worlds: dict[int, list[int]] = {}
    rng = random.Random(seed)
    for index in range(deals):
        state = State(STANDARD, deal_cards(STANDARD, index % 4, rng))
        bots = [make_bot(spec if seat % 2 == index % 2 else "heuristic", seed=seed + seat)
                for seat in range(4)]
        while not state.is_finished():
            seat = state.to_play
            info = state.information_state(seat)
            bot = bots[seat]
            start = time.process_time()
            card = bot.choose(info)
            elapsed = time.process_time() - start
            if isinstance(bot, PimcBot) and len(info.legal_moves()) > 1:
                by_trick.setdefault(state.trick_number + 1, []).append(elapsed)
                worlds.setdefault(state.trick_number + 1, []).append(bot.last_worlds)
            state.push(card)
    all_times = [t for ts in by_trick.values() for t in ts]
    return {
        "what": "pimc",
        "spec": spec,
        "decisions": len(all_times),
        "median_ms": round(statistics.median(all_times) * 1e3, 1),
        "max_ms": round(max(all_times) * 1e3, 1),
        "by_trick": {
            trick: {"median_ms": round(statistics.median(ts) * 1e3, 1),
                    "max_ms": round(max(ts) * 1e3, 1),
                    "median_worlds": statistics.median(worlds[trick])}
            for trick, ts in sorted(by_trick.items())
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--what", choices=("solver", "pimc"), default="solver")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("c", "python"), default="c")
    parser.add_argument("--moves", action="store_true", help="time move_values, not value")
    parser.add_argument("--threads", type=int, default=1,
                        help="search threads (the times are then wall-clock)")
    parser.add_argument("--spec", default="pimc", help="the pimc bot spec (--what pimc)")
    args = parser.parse_args()
    if args.what == "solver":
        result = bench_solver(args.deals, args.seed, args.backend, args.moves, args.threads)
    else:
        result = bench_pimc(args.deals, args.seed, args.spec)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
