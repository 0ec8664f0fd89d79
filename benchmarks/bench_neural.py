"""The learned bot's matches: a duplicate arena between two bot specs, with the time per move
and the game points per deal beside the card-point margin.

    .venv/bin/python benchmarks/bench_neural.py --bots neural,heuristic --deals 500 --seed 1

prints each bot's median time per move (positions of random deals, measured here before the
arena), the arena's summary, A's game points per deal less B's in the same seats (95%
interval over the duplicate pairs, read back from the arena's records), and a Markdown row for
BENCHMARKS.md ("The learned bot (issue 21)"). One worker: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench_tables import time_per_move

from sueca.arena.stats import mean_ci95
from sueca.arena.tournament import run_arena
from sueca.record import from_json, replay
from sueca.rules import STANDARD


def game_margins(folder: Path, bot_a: str) -> list[float]:
    """A's game points less B's per duplicate pair (the mean of its two seatings)."""
    by_board: dict[str, list[float]] = {}
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text())
        seats = data["seats"]
        result = replay(from_json(data))
        if result.error is not None:
            raise RuntimeError(f"{path} does not replay: {result.error}")
        team_a = seats.index(bot_a) % 2
        margin = 0.0
        for deal in result.results:
            points = deal["game_points"]
            margin += points[team_a] - points[1 - team_a]
        by_board.setdefault(path.stem[:-1], []).append(margin)
    return [statistics.fmean(v) for v in by_board.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", required=True, help="two specs: A,B")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=20, help="positions timed per bot")
    args = parser.parse_args()
    bot_a, bot_b = (b.strip() for b in args.bots.split(","))
    times = {}
    for spec in (bot_a, bot_b):
        times[spec] = 1000 * time_per_move(STANDARD, spec, args.positions)
        print(f"{spec}: median {times[spec]:.2f} ms per move", flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        result = run_arena(STANDARD, [bot_a, bot_b], args.deals, args.seed, 1,
                           records_dir=Path(folder))
        games = game_margins(Path(folder), bot_a)
    minutes = (time.monotonic() - started) / 60
    print(result)
    g_lo, g_hi = mean_ci95(games)
    print(f"  game points per deal, {bot_a} less {bot_b}: {statistics.fmean(games):+.3f} "
          f"(95% CI {g_lo:+.3f} to {g_hi:+.3f}, {len(games)} pairs)")
    pair = result.pairs[0]
    lo, hi = pair.margin_ci95
    print(f"| {bot_a} | {bot_b} | {pair.pairs} | {pair.margin:+.2f} | {lo:+.2f} – {hi:+.2f} "
          f"| {statistics.fmean(games):+.3f} ({g_lo:+.3f} – {g_hi:+.3f}) "
          f"| {times[bot_a]:.2f} ms | {times[bot_b]:.2f} ms | {minutes:.1f} min, 1 worker |")


if __name__ == "__main__":
    main()
