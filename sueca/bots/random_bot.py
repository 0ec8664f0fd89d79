"""The baseline: a uniformly random legal card."""

from __future__ import annotations

from sueca.bots.base import Bot, playable
from sueca.cards import Card
from sueca.infostate import InformationState


class RandomBot(Bot):
    name = "random"

    def choose(self, info: InformationState) -> Card:
        return self.rng.choice(playable(info))
