"""Each bot's strength against random on every table of RULES.md sections 3-4 (issue 6).

    .venv/bin/python benchmarks/bench_tables.py --bot heuristic --deals 400 \
        --tables double8,double6,italiana5,dummy

For each table: the time the bot takes per decision (median over positions of random deals,
forced moves left out) and ``run_arena(rules, [bot, "random"], deals)``: at the partnership
tables (``double8``, ``double6``, ``dummy`` = standard with seat 2 a dummy) each deal is played
twice with the teams swapped, and the figure is the bot's card-point margin per deal (its
team's points minus random's, scaled to 120); at ``italiana5`` each deal is played once with
random in every seat and once per seat with the bot there (docs/arena.md), and the figures are
the margin in card points of the seat's side and in game points, per deal, over random in the
same seat. Prints the summaries and one Markdown row per table for BENCHMARKS.md, with the
command that reproduces it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from sueca.arena.play import play_auction
from sueca.arena.stats import mean_ci95
from sueca.arena.tournament import run_arena
from sueca.bots import make_bot
from sueca.deal import deal_cards
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State

TABLES: dict[str, Rules] = {
    "double8": preset("double8"),
    "double6": preset("double6"),
    "italiana5": preset("italiana5"),
    "dummy": STANDARD.replace(dummy=2),
}


def time_per_move(rules: Rules, spec: str, positions: int = 20, seed: int = 0) -> float:
    """Median seconds per card decision of ``spec`` over positions of random deals."""
    rng = random.Random(seed)
    bot = make_bot(spec, seed=seed)
    randoms = [make_bot("random", seed=s) for s in range(rules.players)]
    timings = []
    try:
        while len(timings) < positions:
            state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
            play_auction(state, randoms)
            for _ in range(rng.randrange(rules.cards_in_play - rules.players)):
                state.push(rng.choice(state.legal_moves()))
            info = state.information_state(state.to_play)
            if len(info.legal_moves()) < 2:
                continue
            bot.new_match(rules, state.to_play)
            start = time.perf_counter()
            bot.choose(info)
            timings.append(time.perf_counter() - start)
    finally:
        bot.close()
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=20, help="positions timed per table")
    args = parser.parse_args()
    rows = []
    for name in args.tables.split(","):
        rules = TABLES[name]
        per_move = time_per_move(rules, args.bot, args.positions)
        result = run_arena(rules, [args.bot, "random"], args.deals, args.seed, args.workers)
        pair = result.pairs[0]
        print(f"== {name}: {args.bot} median {1000 * per_move:.2f} ms per move", flush=True)
        print(result, flush=True)
        lo, hi = pair.margin_ci95
        command = (f"`benchmarks/bench_tables.py --bot {args.bot} --deals {args.deals} "
                   f"--tables {name} --seed {args.seed}`")
        if pair.rotation:
            g_lo, g_hi = mean_ci95(pair.game_margins)
            game = (f"{statistics.fmean(pair.game_margins):+.3f} [{g_lo:+.3f}, {g_hi:+.3f}]"
                    f" ({statistics.fmean(pair.game_a):.3f} vs "
                    f"{statistics.fmean(pair.game_b):.3f})")
        else:
            game = "—"
        rows.append(
            f"| {name} | {args.bot} | {pair.pairs} | {pair.margin:+.2f} [{lo:+.2f}, {hi:+.2f}] "
            f"| {game} | {1000 * per_move:.2f} ms | {result.seconds / 60:.1f} min | {command} |"
        )
    print("\n| table | bot | deals | card-point margin per deal [95% CI] | game-point margin "
          "per deal [95% CI] (bot vs random) | median per move | run | command |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
