"""Endgames, duplicate: bot A against bot B from the same late positions, the teams swapped.

    .venv/bin/python benchmarks/bench_endgames.py --positions 500 --trick 7 \
        --a alphamu --b pimc --seed 1

collects ``--positions`` positions at the start of trick ``--trick`` from self-play deals of
``--collector`` (deal ``i`` of series ``--seed``, as the arena deals it), then plays each
position's rest twice: A in team 0's seats and B in team 1's, then swapped. Each seat's bot
has the same seed in both plays (the same worlds drawn where the position is the same), so a
position where A and B play alike scores 0 and only what they do differently counts. Prints
per position A's card-point margin over B (of the whole deal: the points before the position
cancel out between the two plays) and A's game points per deal over B's (standard scoring,
the match at 0–0), each with its 95% interval, the share of positions played differently,
and the median and maximum time A and B took per card (forced cards included). ``--json``
prints the same as one object. A's spec plays as pimc before its own ``from_trick``: give it
one no later than ``--trick`` (alphamu's default is 7).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from sueca.arena.play import hash_seed
from sueca.arena.stats import mean_ci95
from sueca.bots import Bot, make_bot
from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.scoring import score_hand
from sueca.state import State

RULES = STANDARD


def position(seed: int, index: int, trick: int, collector: str) -> State:
    """Deal ``index`` of series ``seed`` played by ``collector`` in every seat up to the start
    of trick ``trick`` (1–10)."""
    deal = deal_cards(RULES, index % RULES.players, random.Random(f"{seed}:deal:{index}"))
    state = State(RULES, deal)
    bots = [make_bot(collector, seed=hash_seed(seed, index, "collect", s))
            for s in range(RULES.players)]
    while state.trick_number < trick - 1:
        seat = state.to_play
        state.push(bots[seat].choose(state.information_state(seat)))
    for bot in bots:
        bot.close()
    return state


def play_rest(start: State, bots: list[Bot], times: list[list[float]], spec_of: list[int]
              ) -> State:
    """Play ``start`` on to the end (a copy); each card's seconds go to ``times[spec_of[seat]]``."""
    state = start.copy()
    while not state.is_finished():
        seat = state.to_play
        info = state.information_state(seat)
        began = time.perf_counter()
        card = bots[seat].choose(info)
        times[spec_of[seat]].append(time.perf_counter() - began)
        state.push(card)
    return state


@dataclass(frozen=True)
class Board:
    margin: float  # A's card points over B's, the mean of the two plays
    games: float  # A's game points over B's, the same
    alike: bool  # both plays the same cards, seat for seat (so the margin is 0)
    times_a: list[float]
    times_b: list[float]


def board(args: tuple[int, int, int, str, str, str]) -> Board:
    """One position, played twice: A's margin, game-point difference, and the card times."""
    seed, index, trick, collector, spec_a, spec_b = args
    start = position(seed, index, trick, collector)
    times: list[list[float]] = [[], []]
    margins, games, cards = [], [], []
    for swap in (0, 1):
        # spec_of[seat]: 0 for A, 1 for B. A holds team ``swap``.
        spec_of = [0 if RULES.teams[s] == swap else 1 for s in range(RULES.players)]
        specs = (spec_a, spec_b)
        bots = [make_bot(specs[spec_of[s]], seed=hash_seed(seed, index, "play", s))
                for s in range(RULES.players)]
        for s, bot in enumerate(bots):
            bot.new_match(RULES, s)
        end = play_rest(start, bots, times, spec_of)
        for bot in bots:
            bot.close()
        points = end.team_points()
        result = score_hand(RULES, points, end.team_tricks())
        a, b = swap, 1 - swap
        margins.append(points[a] - points[b])
        games.append(result.game_points[a] - result.game_points[b])
        cards.append(tuple(end.plays[len(start.plays):]))
    return Board(statistics.fmean(margins), statistics.fmean(games), cards[0] == cards[1],
                 times[0], times[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--trick", type=int, default=7, help="the position's trick, 1-10")
    parser.add_argument("--a", default="alphamu")
    parser.add_argument("--b", default="pimc")
    parser.add_argument("--collector", default="pimc:worlds=8:nodes=500000",
                        help="the bot that plays every seat up to the position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.trick <= 10:
        parser.error(f"--trick must be 1-10, not {args.trick}")
    began = time.perf_counter()
    tasks = [(args.seed, i, args.trick, args.collector, args.a, args.b)
             for i in range(args.positions)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(board, tasks))
    else:
        results = [board(task) for task in tasks]
    margins = [r.margin for r in results]
    games = [r.games for r in results]
    times_a = sorted(t for r in results for t in r.times_a)
    times_b = sorted(t for r in results for t in r.times_b)
    lo, hi = mean_ci95(margins)
    glo, ghi = mean_ci95(games)
    differently = sum(not r.alike for r in results) / len(results)
    summary = {
        "a": args.a, "b": args.b, "positions": len(results), "trick": args.trick,
        "seed": args.seed, "collector": args.collector,
        "margin": statistics.fmean(margins), "margin_ci95": [lo, hi],
        "game_points": statistics.fmean(games), "game_points_ci95": [glo, ghi],
        "played_differently": differently,
        "a_ms_median": 1000 * statistics.median(times_a), "a_ms_max": 1000 * times_a[-1],
        "b_ms_median": 1000 * statistics.median(times_b), "b_ms_max": 1000 * times_b[-1],
        "seconds": time.perf_counter() - began,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(f"{args.a} - {args.b}, {len(results)} positions at trick {args.trick} "
          f"(seed {args.seed}, collected by {args.collector}):")
    print(f"  card points per deal, A - B: {summary['margin']:+.2f} ({lo:+.2f} to {hi:+.2f})")
    print(f"  game points per deal, A - B: {summary['game_points']:+.3f} "
          f"({glo:+.3f} to {ghi:+.3f})")
    print(f"  played differently: {100 * differently:.1f}% of positions")
    print(f"  ms per card: A median {summary['a_ms_median']:.1f} max {summary['a_ms_max']:.0f}; "
          f"B median {summary['b_ms_median']:.1f} max {summary['b_ms_max']:.0f}")
    print(f"  {summary['seconds']:.0f} s")


if __name__ == "__main__":
    main()
