"""Why a card was good or bad, in facts a seat could see: the reasons of the review and of
the terminal's hints.

Every fact is read from one :class:`~sueca.infostate.InformationState`: the seat's own hand,
the cards played and who played them, the suits each seat has shown it lacks, the trick on
the table. Nothing else is passed in, so no fact can name a card the seat could not know
(a test holds two deals with the same information state to the same facts). A fact is a
value (a key and the card, suit or seat it speaks of); the words are the front-ends', in
each language (``sueca/terminal/i18n.py``, keys ``fact_<key>``), with one card notation.

>>> import random
>>> from sueca.cards import parse_card
>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> from sueca.state import State
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=0, rng=random.Random(3)))
>>> info = state.information_state(state.to_play)
>>> all(isinstance(f, Fact) for f in card_facts(info, info.legal_moves()[0]))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sueca.cards import (
    CARDS_PER_SUIT,
    DECK_SIZE,
    Card,
    card_rank,
    card_suit,
    make_card,
    one_per_face,
)
from sueca.infostate import InformationState
from sueca.trick import trick_winner

# The most facts one reason gives: a reason is read at a glance.
MAX_FACTS = 3

KEYS = ("only_card", "partner_winning", "opponent_winning", "last_to_play", "trick_points",
        "still_out", "master", "partner_void", "opponent_void", "trumps_out", "no_trumps_out",
        "ruff", "discard")
"""Every fact's key (the front-ends hold a message ``fact_<key>`` for each)."""


@dataclass(frozen=True)
class Fact:
    """One thing the seat could see: ``key`` (one of :data:`KEYS`) and what it is about."""

    key: str
    card: Card | None = None
    suit: int | None = None
    seat: int | None = None
    count: int | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fact:
        """The fact :meth:`to_json` wrote (a stored review's)."""
        from sueca.cards import parse_card

        card = data.get("card")
        return cls(str(data["key"]), None if card is None else parse_card(str(card)),
                   data.get("suit"), data.get("seat"), data.get("count"))

    def to_json(self) -> dict[str, object]:
        """``{"key": …}`` and the fields it has (cards as record names, ``"7H"``)."""
        from sueca.cards import card_name

        out: dict[str, object] = {"key": self.key}
        if self.card is not None:
            out["card"] = card_name(self.card)
        for name in ("suit", "seat", "count"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


def card_facts(info: InformationState, card: Card, other: Card | None = None) -> list[Fact]:
    """Why ``card`` (the better card, or the one suggested) is what it is, against ``other``
    (the card played, when it differs): at most :data:`MAX_FACTS` facts, the most telling
    first, each one the seat could see."""
    if len(one_per_face(info.legal_moves())) == 1:
        return [Fact("only_card")]
    # The card's place in its suit first (what is still out above it, or that it is the
    # master): most choices between two cards turn on it; then the trick; then the voids.
    facts: list[Fact] = []
    facts += _suit_facts(info, card)
    if other is not None and card_suit(other) != card_suit(card):
        facts += _suit_facts(info, other)
    facts += _trick_facts(info)
    facts += _lead_facts(info, card)
    unique: list[Fact] = []
    for fact in facts:
        if fact not in unique:
            unique.append(fact)
    return unique[:MAX_FACTS]


def _higher(card: Card) -> list[Card]:
    """The cards of the same suit that beat ``card``, highest first."""
    suit, rank = card_suit(card), card_rank(card)
    return [make_card(r, suit) for r in range(CARDS_PER_SUIT - 1, rank, -1)]


def _trick_facts(info: InformationState) -> list[Fact]:
    """Who holds the trick on the table, its points, and whether the seat plays last."""
    trick = info.trick
    if not trick:
        return []
    facts: list[Fact] = []
    n = info.rules.players
    winner_index = trick_winner(info.rules, info.trump, trick)
    winner_seat = (info.leader + winner_index) % n
    winner_card = trick[winner_index]
    if winner_seat in info.partners():
        facts.append(Fact("partner_winning", card=winner_card, seat=winner_seat))
    else:
        facts.append(Fact("opponent_winning", card=winner_card, seat=winner_seat))
    if len(trick) == n - 1:
        facts.append(Fact("last_to_play"))
    points = sum(info.rules.card_points[c] for c in trick)
    if points:
        facts.append(Fact("trick_points", count=points))
    led = card_suit(trick[0])
    if info.hand and not any(card_suit(c) == led for c in _hand(info)):
        trump = info.trump
        facts.append(Fact("ruff" if trump >= 0 and any(card_suit(c) == trump for c in _hand(info))
                          else "discard", suit=led))
    return facts


def _hand(info: InformationState) -> list[Card]:
    return [c for c in range(info.rules.deck_size) if info.hand >> c & 1]


def _suit_facts(info: InformationState, card: Card) -> list[Fact]:
    """Whether a card that beats ``card`` is still out (not played, not in the seat's hand),
    or whether every card above it has gone (it is the master of its suit)."""
    higher = _higher(card)
    if not higher:
        return []
    played, hand = info.played, info.hand
    decks = info.rules.decks

    def copies(c: Card) -> list[Card]:  # a double deck holds two of each face
        return [c + DECK_SIZE * k for k in range(decks)]

    out = [c for c in higher if any(not (played | hand) >> x & 1 for x in copies(c))]
    if out:
        return [Fact("still_out", card=out[0])]
    gone = [c for c in higher if any(played >> x & 1 for x in copies(c))]
    return [Fact("master", card=gone[0])] if gone else []


def _lead_facts(info: InformationState, card: Card) -> list[Fact]:
    """On a lead: the voids the partner and the opponents have shown in the card's suit, and
    how many trumps are still out."""
    if info.trick:
        return []
    facts: list[Fact] = []
    suit = card_suit(card)
    partners = info.partners()
    for seat in range(info.rules.players):
        if seat == info.seat or not info.voids[seat] >> suit & 1:
            continue
        facts.append(Fact("partner_void" if seat in partners else "opponent_void",
                          suit=suit, seat=seat))
    trump = info.trump
    if trump >= 0:
        out = sum(1 for r in range(CARDS_PER_SUIT)
                  if not (info.played | info.hand) >> make_card(r, trump) & 1)
        if suit == trump or out:
            facts.append(Fact("trumps_out", count=out) if out else Fact("no_trumps_out"))
    return facts


def hint_facts(info: InformationState, card: Card, means: dict[Card, float],
               worlds: int) -> tuple[list[Fact], float | None]:
    """A hint's reason (the terminal's ``--hints``): the facts behind ``card``, and the final
    points the seat's side should expect with it where the hint bot searched (``means``: its
    mean points from the remaining tricks over ``worlds`` worlds), else ``None``."""
    facts = card_facts(info, card)
    side = info.teams[info.seat] if info.teams else None
    if worlds <= 0 or card not in means or side is None or facts == [Fact("only_card")]:
        return facts, None
    return facts, side_points_taken(info) + means[card]


def side_points_taken(info: InformationState) -> int:
    """The card points the seat's side has taken in completed tricks: public (the seat saw
    every trick and who won it)."""
    side = info.teams[info.seat]
    return sum(points for seat, points in enumerate(info.seat_points)
               if info.teams[seat] == side)
