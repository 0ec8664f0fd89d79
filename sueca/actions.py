"""What a seat may do, and what it is asked: actions and requests as immutable values.

Every move of a deal is an :data:`Action`: a card played (:class:`Play`), a bid
(:class:`Bid`), the declarer's called card (:class:`Call`), an answer to the redeal question
(:class:`Redeal`) or, at a table playing ``renuncia``, a denunciation of a revoke
(:class:`Denounce`). :meth:`sueca.state.State.apply` takes them, :attr:`State.history` lists
them, and :func:`sueca.state.replay` plays a list of them again. Cards stay ints underneath,
as python-chess keeps bitboards under its ``Move``: the search's ``push``/``pop`` never makes
an action.

What a seat is asked now is a :data:`Request`, computed in one place
(:meth:`sueca.infostate.InformationState.request`): the bot protocol's turn messages, the web
view, the terminal's prompts and the bots' checks all render or check that one value.

>>> Play(3).to_dict()
{'type': 'play', 'card': '5S'}
>>> action_from_dict({"type": "bid", "value": 75})
Bid(value=75)
>>> action_from_dict({"type": "redeal", "ask": "no"})
Traceback (most recent call last):
...
sueca.actions.ActionError: a redeal answer's 'ask' must be true or false, not 'no'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sueca.cards import Card, CardParseError, card_name, parse_card


class Phase(StrEnum):
    """What a deal waits for. A :class:`~enum.StrEnum`, so ``phase == "play"`` reads as before
    and a phase prints as its name in every message and record."""

    BIDDING = "bidding"  # each seat bids once (five-player Sueca Italiana)
    CALLING = "calling"  # the declarer names the card that makes trump and his partner
    REDEAL = "redeal"  # weak_hand_redeal: each seat keeps its hand or asks for a new deal
    REDEALT = "redealt"  # one asked: the deal is annulled, the same dealer deals again
    PLAY = "play"
    OVER = "over"  # every trick taken, or (renuncia) a revoke proven: the deal is scored


class ActionError(ValueError):
    """A message that does not name an action (the wrong type, a missing or bad field)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (with two decks a face: the state plays the copy the hand holds)."""

    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "card": card_name(self.card)}


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid ``value`` card points, 61 to 120, or 0 to pass."""

    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bid", "value": self.value}


@dataclass(frozen=True, slots=True)
class Call:
    """The declarer names ``card``: its suit is trump, its holder his secret partner."""

    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "call", "card": card_name(self.card)}


@dataclass(frozen=True, slots=True)
class Redeal:
    """Keep the hand (``ask`` false) or ask for a new deal (a weak hand only)."""

    ask: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "redeal", "ask": self.ask}


@dataclass(frozen=True, slots=True)
class Denounce:
    """*Renúncia!*: the seat says a player of the other side has revoked this deal (failed to
    follow suit, or to trump under ``must_trump``, holding a card that could). It names no card:
    a correct denunciation is proven by the hands, which only the referee holds."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "denounce"}


Action = Play | Bid | Call | Redeal | Denounce

ACTION_TYPES = ("play", "bid", "call", "redeal", "denounce")


@dataclass(frozen=True, slots=True)
class Denunciation:
    """A seat's *renúncia!*: after how many cards of the deal it came, who made it, and whether
    a player of the other side had revoked by then (the referee's finding: the hands prove it).
    Public: every seat hears the cry and its outcome, never which card revoked."""

    after: int
    seat: int
    correct: bool


def _card_field(message: dict[str, Any], what: str) -> Card:
    text = message.get("card")
    if not isinstance(text, str):
        raise ActionError(f"a {what} needs a 'card' such as \"7H\", not {text!r}")
    try:
        return parse_card(text)
    except CardParseError as error:
        raise ActionError(f"a {what}'s card: {error}") from None


def action_from_dict(message: dict[str, Any]) -> Action:
    """The action a JSON message names (the one wire form of every front-end and the
    protocol): ``{"type": "play", "card": "7H"}``, ``{"type": "bid", "value": 75}``,
    ``{"type": "call", "card": "AH"}``, ``{"type": "redeal", "ask": false}``,
    ``{"type": "denounce"}``. :class:`ActionError` says what is wrong."""
    kind = message.get("type")
    if kind == "play":
        return Play(_card_field(message, "play"))
    if kind == "bid":
        value = message.get("value")
        if type(value) is not int:
            raise ActionError("a bid's 'value' must be a whole number of card points (0 "
                              f"passes), not {value!r}")
        return Bid(value)
    if kind == "call":
        return Call(_card_field(message, "call"))
    if kind == "redeal":
        ask = message.get("ask")
        if type(ask) is not bool:
            raise ActionError(f"a redeal answer's 'ask' must be true or false, not {ask!r}")
        return Redeal(ask)
    if kind == "denounce":
        return Denounce()
    raise ActionError(f"{kind!r} is not an action (one of: {', '.join(ACTION_TYPES)})")


# ---- what a seat is asked --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AskCard:
    """Play a card: one of ``legal`` (in deck order). ``revokes`` are the other cards of the
    hand, which a person may still play at a ``renuncia`` table (a revoke: told to nobody, and
    the other side may denounce it); empty elsewhere. ``seat`` is the hand the card comes from
    (the dummy's, for its partner)."""

    seat: int
    legal: tuple[Card, ...]
    revokes: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class AskBid:
    """Bid: 0 passes, or a whole number from ``lowest`` to ``highest`` (``lowest`` is above
    ``highest`` when only a pass is left)."""

    seat: int
    lowest: int
    highest: int

    @property
    def may_bid(self) -> bool:
        return self.lowest <= self.highest


@dataclass(frozen=True, slots=True)
class AskCall:
    """The declarer names any card of the deck (``deck_size`` ids)."""

    seat: int
    deck_size: int = 40


@dataclass(frozen=True, slots=True)
class AskRedeal:
    """Keep the hand, or ask for a new deal where ``may_ask`` (its ``points`` are under the
    seat's ``limit``). Only the seat asked sees its points: the question is private."""

    seat: int
    may_ask: bool
    points: int
    limit: int


Request = AskCard | AskBid | AskCall | AskRedeal
