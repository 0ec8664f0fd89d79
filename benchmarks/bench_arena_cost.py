"""What an arena evaluation costs: the per-board spread of the margin and the CPU time a board
takes, and from them the boards that resolve a 1-point margin and the time on N cores.

    .venv/bin/python benchmarks/bench_arena_cost.py --pair heuristic,heuristic+signals \
        --boards 400 --seed 1

A board is one deal played twice, the teams swapped (docs/arena.md); its margin is A's card
points minus B's per deal, averaged over the two plays. With ``s`` the boards' standard
deviation, the 95% interval of the mean margin is ``±1.96 s / sqrt(n)``: it is narrower than
±1 point from ``n = (1.96 s)^2`` boards, and a true 1-point margin is told from none (95%
confidence, 80% power) from ``n = ((1.96 + 0.84) s)^2``. The cost is CPU seconds per board
played in this process (one worker: boards are independent, so N cores take 1/N of it, less
the pool's start); the machine is shared, so CPU time, not wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sueca.arena.tournament import run_arena
from sueca.rules import preset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="heuristic,heuristic+signals")
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cores", default="2,64,1024")
    args = parser.parse_args()
    bots = [b.strip() for b in args.pair.split(",")]
    started = time.process_time()
    result = run_arena(preset(args.rules), bots, deals=args.boards, seed=args.seed, workers=1)
    seconds = (time.process_time() - started) / args.boards
    margins = result.pairs[0].margins
    spread = statistics.stdev(margins)
    resolve = (1.96 * spread) ** 2
    detect = ((1.96 + 0.84) * spread) ** 2
    print(f"{args.pair} on {args.rules}, {args.boards} boards, seed {args.seed}")
    print(f"  margin per board: mean {statistics.fmean(margins):+.2f}, standard deviation "
          f"{spread:.2f} card points")
    print(f"  CPU per board: {seconds * 1000:.1f} ms (one worker)")
    print(f"  boards for a 95% interval of ±1 point: {resolve:,.0f}; to tell a 1-point margin "
          f"from none (95%, 80% power): {detect:,.0f}")
    for cores in (int(c) for c in args.cores.split(",")):
        print(f"  {cores:>5} cores: ±1-point interval in {resolve * seconds / cores / 3600:.2f} h,"
              f" a million boards in {1e6 * seconds / cores / 3600:.2f} h")


if __name__ == "__main__":
    main()
