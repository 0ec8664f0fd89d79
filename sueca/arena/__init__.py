"""Playing bots against each other: one deal, a match, and duplicate series with statistics."""

import sueca.protocol  # noqa: F401 (registers cmd:)
from sueca.arena.play import (
    DuplicateSummary,
    play_auction,
    play_deal,
    play_match,
    run_duplicate,
)

__all__ = ["DuplicateSummary", "play_auction", "play_deal", "play_match", "run_duplicate"]
