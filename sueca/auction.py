"""The auction of five-player Sueca Italiana: bids for the lead, then the called card.

Starting with the dealer and going round in the order of play, each player bids once: the card
points he undertakes to take with his partner, from 61 to 120, or 0 to pass. The highest bidder
becomes the *declarer*: he names a card, whose suit is trump and whose holder is his secret
partner (if he holds it himself he plays alone). If everybody passes, the dealer plays for 61
with a bid of 0. RULES.md section 4; the choices it leaves open are documented in
docs/rules.md (``bid_must_rise``: each bid must beat the highest so far, as in any auction).

These functions are the rule; :class:`~sueca.state.State` runs the auction with them.

>>> from sueca.rules import preset
>>> rules = preset("italiana5")
>>> bidding_order(rules, dealer=3)
(3, 4, 0, 1, 2)
>>> bid_error(rules, [0, 70], 65)
'a bid must beat the highest so far (70): bid more than 70, or pass (0)'
>>> high_bidder(rules, 3, [0, 70, 0, 75, 0])
(1, 75)
>>> high_bidder(rules, 3, [0, 0, 0, 0, 0])
(3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sueca.cards import Card, card_name, card_suit
from sueca.rules import MAX_BID, MIN_BID, Rules

PASS = 0


@dataclass(frozen=True)
class Contract:
    """The auction's outcome: who leads and plays for how much, and the card he called."""

    declarer: int
    bid: int  # 0 when everybody passed: the dealer then plays for 61
    called_card: Card

    @property
    def target(self) -> int:
        """The card points the declarer's side must take to win."""
        return self.bid or MIN_BID

    @property
    def trump(self) -> int:
        return card_suit(self.called_card)

    def __str__(self) -> str:
        called = card_name(self.called_card)
        return f"seat {self.declarer} plays for {self.target}, calling {called}"


def bidding_order(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seats in the order they bid: the dealer first, then round the table."""
    n = rules.players
    return tuple((dealer + k) % n for k in range(n))


def bid_error(rules: Rules, bids: Sequence[int], value: object) -> str | None:
    """Why ``value`` may not be the next bid after ``bids`` (``None`` when it may)."""
    if len(bids) >= rules.players:
        return "the bidding is over: every player has bid"
    if type(value) is not int or not (value == PASS or MIN_BID <= value <= MAX_BID):
        return f"a bid is {MIN_BID} to {MAX_BID} card points, or 0 to pass, not {value!r}"
    highest = max(bids, default=PASS)
    if value != PASS and rules.bid_must_rise and value <= highest:
        return (
            f"a bid must beat the highest so far ({highest}): bid more than {highest}, or pass (0)"
        )
    return None


def high_bidder(rules: Rules, dealer: int, bids: Sequence[int]) -> tuple[int, int]:
    """The declarer and his bid once everybody has bid: the highest bid (of equal bids, the
    first made), or the dealer with a bid of 0 when everybody passed."""
    order = bidding_order(rules, dealer)
    best = max(bids, default=PASS)
    if best == PASS:
        return dealer, PASS
    return order[list(bids).index(best)], best


def lowest_bid(rules: Rules, bids: Sequence[int]) -> int:
    """The lowest bid other than a pass that the next bidder may make (above ``MAX_BID`` when
    only a pass is left)."""
    highest = max(bids, default=PASS)
    return max(MIN_BID, highest + 1) if rules.bid_must_rise else MIN_BID


def call_error(rules: Rules, card: object) -> str | None:
    """Why ``card`` may not be called (any card of the deck may, the declarer's own included:
    calling one of his own cards, he plays alone)."""
    if type(card) is not int or not 0 <= card < rules.deck_size:
        return f"{card!r} is not a card"
    return None


__all__ = [
    "PASS", "Contract", "bid_error", "bidding_order", "call_error", "high_bidder", "lowest_bid",
]
