"""Bot levels: the names people choose from (Beginner, Intermediate, Strong, Expert), each an
existing bot spec.

A level is what the lobby, the table page and every command offer instead of an algorithm's
name: ``make_bot("strong")`` is the bot its spec names, and ``sueca play --bots beginner``,
``sueca arena --bots expert,strong``, a seat's ``"level"`` in ``POST /api/tables`` all take
them. Issue 20 calibrated them in the arena (BENCHMARKS.md, the level ladder): the beginner is
the heuristic with a new player's mistakes (:mod:`sueca.bots.beginner`), never random cards.
Expert is the strongest bot available: pimc at a larger budget than ``pimc``'s default, which
stays what it was so that today's pimc remains the benchmark's baseline. Playing for the
match score (``goal=match``, :mod:`sueca.bots.equity`) is an option of strong's and expert's
bots, not yet their default: in duplicate matches it has not won more of them (BENCHMARKS.md).
So is pimc's inference (``pimc:inference=heuristic``, :mod:`sueca.bots.inference`): its gain
over plain pimc has not yet shown an interval above 0 (BENCHMARKS.md, Inference).
"""

from __future__ import annotations

from dataclasses import dataclass

EXPERT_SPEC = "pimc:worlds=128:nodes=8000000"


@dataclass(frozen=True)
class Level:
    """One level: its name (a bot spec of its own), the bot spec it plays as, and a line
    saying what a person may expect of it."""

    name: str
    spec: str
    description: str


LEVELS: tuple[Level, ...] = (
    Level("beginner", "novice",
          "knows the rules and wants tricks: leads its kings early, forgets to ruff"),
    # The heuristic with the seeds' tips that measurably win, each alone and together
    # (BENCHMARKS.md, "The seeds' tips": +0.65 card points a deal, 95% CI +0.45 to +0.85).
    Level("intermediate", "heuristic:tips=aces/partner",
          "plays by the table's rules of thumb: follows its partner, saves its trumps"),
    Level("strong", "ismcts:iterations=300",
          "thinks ahead over the hands it cannot see (tree search)"),
    # pimc with twice today's node budget and room for more worlds once they are cheap: +1.19
    # card points a deal over today's pimc (95% CI +0.41 to +1.97, 1,000 pairs; BENCHMARKS.md,
    # "The expert's budget"), under 1 s a move on one core. ``pimc`` itself is unchanged.
    Level("expert", EXPERT_SPEC,
          "the strongest bot: weighs every deal consistent with what it saw"),
)
BY_NAME = {level.name: level for level in LEVELS}
DEFAULT_LEVEL = "expert"


def level_of(spec: str) -> str | None:
    """The level a bot spec is (a level's name, or the spec a level plays as), or None."""
    if spec in BY_NAME:
        return spec
    return next((level.name for level in LEVELS if level.spec == spec), None)


__all__ = ["BY_NAME", "DEFAULT_LEVEL", "EXPERT_SPEC", "LEVELS", "Level", "level_of"]
