"""Bots: the :class:`Bot` interface and a registry of named bots.

>>> bot = make_bot("heuristic", seed=1)
>>> bot.name
'heuristic'
>>> make_bot("ismcts:iterations=200+signals", seed=1).name
'ismcts+signals'
>>> make_bot("nobody")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown bot 'nobody' (known: ...heuristic, ...)

A spec is ``NAME[:OPTION=VALUE…][+signals]`` (options go to the bot, ``+signals`` makes it play
and read the partner echo of :mod:`sueca.bots.signals`; ``neural+search`` is the learned bot's
network guiding pimc's search, :mod:`sueca.neural`), or ``PREFIX:REST`` for a kind of bot
registered by another package (:func:`register_prefix`): ``cmd:COMMAND``, an external program
speaking the bot protocol, is registered by :mod:`sueca.protocol` when it is imported, so that
the bots never import the wire. An unknown name or prefix is refused with the bots and the
prefixes known.
"""

from __future__ import annotations

from collections.abc import Callable

from sueca.bots import learned
from sueca.bots.alphamu import AlphaMuBot
from sueca.bots.base import Bot
from sueca.bots.beginner import BeginnerBot
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.ismcts import IsmctsBot
from sueca.bots.levels import BY_NAME, LEVELS
from sueca.bots.pimc import PimcBot
from sueca.bots.random_bot import RandomBot

BotFactory = Callable[[int | None], Bot]
# A prefix's factory: the spec after ``PREFIX:`` and the seed.
PrefixFactory = Callable[[str, int | None], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "novice": BeginnerBot,  # the beginner level's bot (sueca.bots.beginner)
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
    "pimc": PimcBot,
    "alphamu": AlphaMuBot,  # pimc with one strategy for its own next moves, late in a deal
}

# What may follow a spec after ``+``: ``signals`` (any bot), ``search`` (a bot registered as
# ``NAME+search`` too: ``neural+search``).
MODIFIERS = ("signals", "search")
BOTS["neural"] = learned.neural  # sueca.neural, loaded when one is made
BOTS["neural+search"] = learned.neural_search

# The strongest bot available: what a table seats when the user does not choose (the level
# "expert", sueca.bots.levels).
STRONGEST = "expert"


# PREFIX:REST specs, by prefix; filled by the packages that define them (sueca.protocol: cmd).
PREFIXES: dict[str, PrefixFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def register_prefix(prefix: str, factory: PrefixFactory) -> None:
    """Make ``PREFIX:REST`` a bot spec: :func:`make_bot` hands ``REST`` and the seed to
    ``factory`` (no options or modifiers are read from ``REST``: it is the factory's)."""
    PREFIXES[prefix] = factory


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot by spec (``random``, ``heuristic``, ``ismcts:iterations=200+signals``, or a
    registered prefix's, ``cmd:python my_bot.py``); a bad spec raises ``ValueError`` naming
    the problem."""
    spec = spec.strip()
    prefix, colon, rest = spec.partition(":")
    if colon and prefix.strip() in PREFIXES:
        return PREFIXES[prefix.strip()](rest, seed)
    base, *parts = (part.strip() for part in spec.split("+"))
    modifiers = []
    for part in parts:  # options may follow a modifier too: neural+search:worlds=16
        modifier, colon, more = part.partition(":")
        modifiers.append(modifier.strip())
        base += f":{more}" if colon else ""
    for modifier in modifiers:
        if modifier not in MODIFIERS:
            raise ValueError(f"unknown bot modifier {modifier!r} in {spec!r} (known: "
                             f"{', '.join(MODIFIERS)}, each once)")
        if modifiers.count(modifier) > 1:
            raise ValueError(f"bot modifier {modifier!r} given twice in {spec!r}")
    name, _, option_text = base.partition(":")
    name = name.strip()
    if "search" in modifiers:  # a bot's search variant is a bot of its own: NAME+search
        if f"{name}+search" not in BOTS:
            searching = ", ".join(sorted(n for n in BOTS if n.endswith("+search")))
            raise ValueError(f"bot {name!r} has no +search variant (known: {searching})")
        name = f"{name}+search"
    if name not in BOTS:
        known = (f"the levels {', '.join(level.name for level in LEVELS)}; the bots "
                 + ", ".join(sorted(n for n in BOTS if n not in BY_NAME)))
        if PREFIXES:
            known += f"; prefixes: {', '.join(f'{p}:' for p in sorted(PREFIXES))}"
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    bot = BOTS[name](seed)
    if option_text:
        options = {}
        for item in option_text.split(":"):
            key, equals, value = item.partition("=")
            if not equals or not key.strip():
                raise ValueError(f"bot option {item!r} in {spec!r} is not OPTION=VALUE")
            options[key.strip()] = value.strip()
        configure = getattr(bot, "configure", None)
        if configure is None:
            raise ValueError(f"bot {name!r} takes no options")
        configure(options)
    if "signals" in modifiers:
        from sueca.bots.signals import SignalBot

        bot = SignalBot(bot)
    return bot


def _level_factory(spec: str) -> BotFactory:
    return lambda seed: make_bot(spec, seed)


# The levels people choose from (sueca.bots.levels) are bot names too.
for _level in LEVELS:
    BOTS[_level.name] = _level_factory(_level.spec)


__all__ = [
    "BOTS", "PREFIXES", "STRONGEST", "Bot", "HeuristicBot", "IsmctsBot", "PimcBot", "RandomBot",
    "make_bot", "register_bot", "register_prefix",
]
