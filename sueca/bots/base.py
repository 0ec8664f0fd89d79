"""The one interface every player program implements: the CLI, the arena, the bot protocol and
the web server all seat a :class:`Bot` and hand it only an information state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from sueca.auction import PASS
from sueca.cards import CARDS_PER_SUIT, SUITS, Card, CardMask, make_card
from sueca.infostate import InformationState
from sueca.rules import Rules


def playable(info: InformationState) -> tuple[Card, ...]:
    """The cards a bot may choose from; a clear error when it is not this seat's turn (every
    bot asks here, so none fails with an index error on an empty hand)."""
    legal = info.legal_moves()
    if not legal:
        raise ValueError(f"seat {info.seat} has no card to play now")
    return legal


class Bot(ABC):
    """A player of one seat. Deterministic given its seed."""

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def new_match(self, rules: Rules, seat: int) -> None:
        """A match starts: the rules and the seat this bot plays."""

    @abstractmethod
    def choose(self, info: InformationState) -> Card:
        """The card to play; ``info`` is this seat's information state, its turn to play."""

    def bid(self, info: InformationState) -> int:
        """At a bidding table, this seat's bid (``info.phase == "bidding"``, its turn): card
        points from 61 to 120, or 0 to pass (see :mod:`sueca.auction`). The plain bot passes."""
        return PASS

    def call(self, info: InformationState) -> Card:
        """As declarer, the card to call: its suit is trump, its holder the partner. The plain
        bot calls the highest card it lacks in its longest suit."""
        hand = info.hand
        suit = max(SUITS, key=lambda s: (sum(hand >> make_card(r, s) & 1
                                             for r in range(CARDS_PER_SUIT)), s))
        for rank in reversed(range(CARDS_PER_SUIT)):
            card = make_card(rank, suit)
            if not hand >> card & 1:
                return card
        return make_card(CARDS_PER_SUIT - 1, suit)  # the whole suit: play alone

    def explain(self, info: InformationState) -> tuple[Card, str]:
        """A card and a one-line reason for it (for hints); bots may say more."""
        return self.choose(info), f"{self.name} plays it"

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        """The deal is over: the seat's last information state and every hand as dealt
        (shown to all once the play ends). Bots that learn across deals listen here."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file)."""
