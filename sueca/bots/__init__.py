"""Bots: the :class:`Bot` interface and a registry of named bots.

>>> bot = make_bot("heuristic", seed=1)
>>> bot.name
'heuristic'
>>> make_bot("nobody")
Traceback (most recent call last):
...
ValueError: unknown bot 'nobody' (known: heuristic, random)
"""

from __future__ import annotations

from collections.abc import Callable

from sueca.bots.base import Bot
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.random_bot import RandomBot

BotFactory = Callable[[int | None], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}

# The strongest bot available: what a table seats when the user does not choose.
STRONGEST = "heuristic"


def register_bot(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot by name (``random``, ``heuristic``, …)."""
    name = spec.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed)


__all__ = ["BOTS", "STRONGEST", "Bot", "HeuristicBot", "RandomBot", "make_bot", "register_bot"]
