"""How long a bot's moves take when the front-end tells it a budget (the protocol's
``time_ms``, :meth:`Bot.set_time_budget`): the distribution over every card of whole deals.

    .venv/bin/python benchmarks/bench_move_time.py --bot pimc --deals 5            # untold
    .venv/bin/python benchmarks/bench_move_time.py --bot pimc --time-ms 1000 --deals 5

plays ``--deals`` deals with the bot in every seat (random deals from ``--seed``) and prints
the median, 99th percentile and maximum of the seconds a card took, the moves over the
budget, and the worlds solved (pimc). Forced cards count too (they take no time): the figures
are per card played, as a person at the table waits them. The same code path as ``sueca bot``
answering a ``turn`` with ``time_ms``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from sueca.bots import make_bot
from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.state import State


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="pimc")
    parser.add_argument("--time-ms", type=int, default=0, help="the budget told (0: none)")
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bots = [make_bot(args.bot, seed=args.seed * 4 + s) for s in range(4)]
    for seat, bot in enumerate(bots):
        bot.new_match(STANDARD, seat)
        if args.time_ms:
            bot.set_time_budget(args.time_ms / 1000)
    rng = random.Random(args.seed)
    times: list[float] = []
    for deal in range(args.deals):
        state = State(STANDARD, deal_cards(STANDARD, dealer=deal % 4, rng=rng))
        while not state.is_finished():
            info = state.information_state(state.to_play)
            clock = time.perf_counter()
            card = bots[state.to_play].choose(info)
            times.append(time.perf_counter() - clock)
            state.push(card)
    times.sort()
    budget = args.time_ms / 1000 if args.time_ms else 1.0
    figures = {
        "bot": args.bot, "time_ms": args.time_ms, "deals": args.deals, "moves": len(times),
        "median_ms": round(1000 * statistics.median(times), 1),
        "p99_ms": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 1),
        "max_ms": round(1000 * times[-1], 1),
        "over_budget": sum(t > budget for t in times),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
