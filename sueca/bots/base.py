"""The one interface every player program implements: the CLI, the arena, the bot protocol and
the web server all seat a :class:`Bot` and hand it only an information state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from sueca.cards import Card, CardMask
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

    def explain(self, info: InformationState) -> tuple[Card, str]:
        """A card and a one-line reason for it (for hints); bots may say more."""
        return self.choose(info), f"{self.name} plays it"

    def deal_over(self, info: InformationState, hands: tuple[CardMask, ...]) -> None:
        """The deal is over: the seat's last information state and every hand as dealt
        (shown to all once the play ends). Bots that learn across deals listen here."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file)."""
