"""Actions as integers: one numbering of every move of a table, shared by both environments.

An environment's action is an index into one flat range laid out by the rules:

=================  ==========================  ==========================================
indexes            action                      asked by
=================  ==========================  ==========================================
0 … 39             ``Play(card)``              :class:`~sueca.actions.AskCard`
40 … 100           ``Bid(0)`` (pass), then     :class:`~sueca.actions.AskBid`
                   ``Bid(61)`` … ``Bid(120)``
101 … 140          ``Call(card)``              :class:`~sueca.actions.AskCall`
141, 142           ``Redeal(False)``, ``True`` :class:`~sueca.actions.AskRedeal`
=================  ==========================  ==========================================

A card is a face (0-39): with two decks the two copies of a card play alike, and the state
plays the copy the hand holds, so one index stands for both. The legal indexes are read from
the seat's :meth:`~sueca.infostate.InformationState.request`, the one place that works them
out. Every table has the same 143 actions; those a table never asks are never legal there.

>>> from sueca.rules import STANDARD
>>> codec = ActionCodec(STANDARD)
>>> codec.size, codec.action(codec.index(Bid(75)))
(143, Bid(value=75))
"""

from __future__ import annotations

from sueca.actions import (
    Action,
    AskBid,
    AskCall,
    AskCard,
    AskRedeal,
    Bid,
    Call,
    Play,
    Redeal,
    Request,
)
from sueca.auction import PASS
from sueca.cards import DECK_SIZE, card_name
from sueca.rules import MAX_BID, MIN_BID, Rules

BID_VALUES = (PASS, *range(MIN_BID, MAX_BID + 1))


class ActionCodec:
    """The index of every action of a table under ``rules``, and back."""

    def __init__(self, rules: Rules) -> None:
        deck = DECK_SIZE
        self.bid_base = deck
        self.call_base = deck + len(BID_VALUES)
        self.redeal_base = self.call_base + deck
        self.size = self.redeal_base + 2

    def index(self, action: Action) -> int:
        if type(action) is Play:
            return action.card % DECK_SIZE
        if type(action) is Bid:
            return self.bid_base + BID_VALUES.index(action.value)
        if type(action) is Call:
            return self.call_base + action.card % DECK_SIZE
        if type(action) is Redeal:
            return self.redeal_base + int(action.ask)
        raise ValueError(f"{action!r} has no index: denunciations are not environment actions")

    def action(self, index: int) -> Action:
        """The action of ``index``; :class:`ValueError` names an index out of range."""
        if type(index) is not int or not 0 <= index < self.size:
            raise ValueError(f"action {index!r} is not an index from 0 to {self.size - 1}")
        if index < self.bid_base:
            return Play(index)
        if index < self.call_base:
            return Bid(BID_VALUES[index - self.bid_base])
        if index < self.redeal_base:
            return Call(index - self.call_base)
        return Redeal(bool(index - self.redeal_base))

    def legal(self, request: Request | None) -> list[int]:
        """The indexes ``request`` allows, ascending (empty for ``None``). A ``renuncia``
        table's revokes are not offered: agents play as the bots do (docs/env.md)."""
        if request is None:
            return []
        if type(request) is AskCard:
            return sorted({card % DECK_SIZE for card in request.legal})
        if type(request) is AskBid:
            values = [PASS, *range(request.lowest, request.highest + 1)]
            return [self.bid_base + BID_VALUES.index(v) for v in values]
        if type(request) is AskCall:
            faces = {card % DECK_SIZE for card in range(request.deck_size)}
            return [self.call_base + face for face in sorted(faces)]
        if type(request) is AskRedeal:
            return [self.redeal_base, self.redeal_base + 1][: 2 if request.may_ask else 1]
        raise ValueError(f"{request!r} is not a request")

    def describe(self, index: int) -> str:
        """The action in words, as OpenSpiel's action strings give it."""
        action = self.action(index)
        if type(action) is Play:
            return f"play {card_name(action.card)}"
        if type(action) is Bid:
            return "pass" if action.value == PASS else f"bid {action.value}"
        if type(action) is Call:
            return f"call {card_name(action.card)}"
        assert type(action) is Redeal
        return "ask for a new deal" if action.ask else "keep the hand"
