"""What a screen is shown: one picture of the table, always built from an information state.

A :class:`TableView` holds the information state of whoever faces the screen (or, for a screen
nobody in particular faces, what every seat knows), never the full deal, so no screen can draw
a card its viewer may not know. :class:`Views` builds them for the match at the table, and
:class:`Screen` is where they are drawn (``render.py`` has the Rich screen and the plain one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from sueca.cards import (
    CLUBS,
    DECK_SIZE,
    DIAMONDS,
    HEARTS,
    SPADES,
    Card,
    CardMask,
    cards_mask,
    suit_cards_high_to_low,
)
from sueca.infostate import InformationState, common_information
from sueca.match import Match
from sueca.scoring import HandResult
from sueca.state import State
from sueca.terminal.setup import Setup

# Suits in the order a hand is laid out: black and red alternate, as players sort them.
DISPLAY_SUITS: Final = (SPADES, HEARTS, CLUBS, DIAMONDS)


def suit_cards(mask: CardMask, suit: int) -> list[Card]:
    """The cards of one suit in ``mask``, strongest first. With two decks a card held twice is
    there twice (its two copies, the first deck's first): both are drawn, both may be played."""
    faces = suit_cards_high_to_low(mask | mask >> DECK_SIZE, suit)
    return [copy for face in faces for copy in (face, face + DECK_SIZE) if mask >> copy & 1]


def hand_order(mask: CardMask) -> list[Card]:
    """A hand as laid out: by suit (♠ ♥ ♣ ♦), strongest first."""
    return [c for suit in DISPLAY_SUITS for c in suit_cards(mask, suit)]


def numbered(legal: Sequence[Card]) -> list[Card]:
    """The cards a player may choose (a request's legal cards) in the order the hand is laid
    out: card ``k`` is number ``k + 1``."""
    return hand_order(cards_mask(legal))


@dataclass(frozen=True)
class TableView:
    """One picture of the table for whoever faces the screen, built from what they may know."""

    info: InformationState  # already filtered: the seat's own, or the public view
    bottom: int  # the seat drawn at the bottom (the viewer)
    names: tuple[str, ...]
    seats: tuple[str, ...]  # human / bot name / dummy, per seat
    deal_number: int
    results: tuple[HandResult, ...]  # the finished deals of the match
    score: tuple[int, ...]
    acting: int | None = None  # the seat whose card the viewer now chooses
    hint: tuple[Card, str] | None = None  # a card to play, or to call in the auction
    message: str | None = None  # a refusal or a notice for the viewer
    hidden: bool = False  # hot-seat: the screen is waiting to be passed on
    review: bool = False  # a position of a saved record (sueca replay), drawn whole
    bid_hint: tuple[int, str] | None = None  # a bid and its reason, in the auction
    legal: tuple[Card, ...] = ()  # the cards the viewer may choose now (the request's)

    @property
    def us(self) -> int:
        """The side written *Nós* on the score sheet: the viewer's (0 where it is not known:
        a bidding table keeps its score per player, not per side)."""
        side = self.info.teams[self.bottom] if self.info.teams else None
        return side if side is not None else 0

    @property
    def per_player(self) -> bool:
        """A bidding table: the score is kept per player, the sides change every deal."""
        return self.info.rules.scores_per_seat

    @property
    def choices(self) -> list[Card]:
        """The cards the viewer may choose, numbered from 1 in this order (none when the
        viewer is not choosing a card)."""
        return numbered(self.legal) if self.acting is not None else []


class Screen(Protocol):
    """Where the table is drawn and lines are read."""

    interactive: bool  # a person at a terminal: clear, pause and wait for Enter

    def show(self, view: TableView) -> None:
        """Draw the table as ``view`` shows it."""

    def say(self, text: str) -> None:
        """Tell what happened (a card played, a trick taken, a result)."""

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` at the end of the input."""

    def hide(self) -> None:
        """Hide every hand: the screen is about to pass to another player."""

    def pause(self, seconds: float) -> None:
        """Wait, so that a person can follow the play."""

    def close(self) -> None:
        """The match has stopped: show whatever was said since the table was last drawn."""


@dataclass
class Views:
    """The pictures of one match at the table. ``facing`` is the person now at the screen
    (the one person at a table of bots; at hot-seat whoever the screen was last passed to,
    ``None`` while it waits to be passed)."""

    setup: Setup
    match: Match
    facing: int | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names()

    def view(self, info: InformationState, bottom: int, acting: int | None = None,
             hint: tuple[Card, str] | None = None, message: str | None = None,
             hidden: bool = False, bid_hint: tuple[int, str] | None = None,
             legal: tuple[Card, ...] = ()) -> TableView:
        match = self.match
        return TableView(
            info=info,
            bottom=bottom,
            names=self.names,
            seats=self.setup.seats,
            deal_number=len(match.deals),
            results=tuple(match.results),
            score=tuple(match.score),
            acting=acting,
            hint=hint,
            message=message,
            hidden=hidden,
            bid_hint=bid_hint,
            legal=legal,
        )

    def public_info(self, state: State, bottom: int) -> InformationState:
        """What every seat knows: the view for a screen nobody in particular faces (between
        hot-seat turns, or a table of bots): the cards and the sides every seat knows (a
        secret partner stays secret here until the called card is played)."""
        infos = [state.information_state(s) for s in range(self.setup.rules.players)]
        return common_information(infos, bottom)

    def between_turns(self, state: State, bottom: int | None = None) -> TableView:
        """The table between turns: the facing person's own view, or the public one (drawn
        from ``bottom``'s seat, by default whoever faces the screen)."""
        setup = self.setup
        if self.facing is not None and not setup.hotseat:
            return self.view(state.information_state(self.facing), self.facing)
        if bottom is None:
            bottom = self.facing if self.facing is not None else (setup.humans or (0,))[0]
        return self.view(self.public_info(state, bottom), bottom, hidden=setup.hotseat)
