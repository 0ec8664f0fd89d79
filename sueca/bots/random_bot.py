"""The baseline: a uniformly random legal card (and at a bidding table a random legal bid, a
pass half the time, and a uniformly random called card; with ``weak_hand_redeal`` a random
answer among those allowed)."""

from __future__ import annotations

from sueca.bots.base import Bot, playable
from sueca.bots.bidding import random_bid
from sueca.cards import Card
from sueca.infostate import InformationState


class RandomBot(Bot):
    name = "random"

    def choose(self, info: InformationState) -> Card:
        return self.rng.choice(playable(info))

    def bid(self, info: InformationState) -> int:
        return random_bid(info, self.rng)

    def redeal(self, info: InformationState) -> bool:
        return self.rng.choice(info.redeal_answers_allowed())

    def call(self, info: InformationState) -> Card:
        return self.rng.randrange(info.rules.deck_size)
