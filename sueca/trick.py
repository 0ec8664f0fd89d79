"""The rules of one trick, in one home: which cards may go to it, who wins it, what it is worth.

:class:`~sueca.state.State` (the referee's full state) and
:class:`~sueca.infostate.InformationState` (what one seat knows) both import these, so the rule
of play is written once and neither module needs the other. The state inlines the same tests
on its hot path for speed; the tests hold them to agreement.

>>> from sueca.cards import card_name, mask_cards, parse_card, parse_mask
>>> from sueca.rules import STANDARD
>>> hand = parse_mask("AS 7H 2H")
>>> [card_name(c) for c in mask_cards(legal_mask_for(STANDARD, hand, parse_card("KH"), 0))]
['2H', '7H']
>>> trick_winner(STANDARD, 1, [parse_card(c) for c in ("KS", "AS", "2H", "7S")])
2
>>> trick_points(STANDARD, [parse_card(c) for c in ("KS", "AS", "2H", "7S")], last=False)
25
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sueca.cards import Card, CardMask, card_suit
from sueca.rules import Rules

__all__ = ["PlayTables", "Trick", "legal_mask_for", "play_tables", "seats_of_plays",
           "trick_points", "trick_winner"]


@dataclass(frozen=True)
class Trick:
    """A completed (or current) trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    points: int

    def seat_of(self, index: int, players: int) -> int:
        """The seat that played ``cards[index]``: the trick goes round from its leader."""
        return (self.leader + index) % players


def seats_of_plays(
    players: int, first_leader: int, trick_winners: Sequence[int], count: int
) -> tuple[int, ...]:
    """The seat that played each of a deal's first ``count`` cards: the first trick is led by
    ``first_leader``, every other by the winner of the trick before, and each goes round the
    table. Public facts only, so the referee's state and every information state agree."""
    seats = []
    leader = first_leader
    for index in range(count):
        trick, position = divmod(index, players)
        if position == 0 and trick:
            leader = trick_winners[trick - 1]
        seats.append((leader + position) % players)
    return tuple(seats)


def legal_mask_for(rules: Rules, hand: CardMask, led: Card | None, trump: int) -> CardMask:
    """The rule of play: the cards of ``hand`` that may go to a trick led by ``led`` (``None``
    when leading). :meth:`State.push`, :meth:`State.legal_moves` and :meth:`State.legal_mask`
    inline the same test for speed; the tests hold them all to agreement."""
    if led is None:
        return hand
    t = play_tables(rules, trump)
    follow = hand & t.suit_mask_of[led]
    if follow:
        return follow
    if rules.must_trump and hand & t.trump_mask:
        return hand & t.trump_mask
    return hand


class PlayTables:
    """Per-table lookup tables, so the hot path does no arithmetic on cards."""

    def __init__(self, rules: Rules, trump: int) -> None:
        size = rules.deck_size
        n = rules.players
        self.suit = tuple(card_suit(c) for c in range(size))
        # Strength for comparing two cards of one suit: the face, so that of two identical cards
        # (double deck) neither beats the other and the first played keeps the trick.
        self.strength = tuple(c % 40 for c in range(size))
        suit_masks = [0, 0, 0, 0]
        for c in range(size):
            suit_masks[card_suit(c)] |= 1 << c
        self.suit_mask = tuple(suit_masks)
        self.suit_mask_of = tuple(suit_masks[card_suit(c)] for c in range(size))
        self.trump_mask = suit_masks[trump]
        self.points = rules.card_points
        # better[w][c]: the card holding the trick once c is played to a trick that w is winning.
        # Chaining it over a trick's cards finds the winner with lookups only, no branches.
        self.better = tuple(
            tuple(
                c
                if (self.suit[c] == self.suit[w] and self.strength[c] > self.strength[w])
                or (self.suit[c] == trump and self.suit[w] != trump)
                else w
                for c in range(size)
            )
            for w in range(size)
        )
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.prev_seat = tuple((s - 1) % n for s in range(n))
        # What State.__init__ copies into its private slots, in slot order, in one unpacking.
        self.hot = (
            self.better,
            rules.last_trick_bonus,
            rules.cards_in_play,
            rules.must_trump,
            self.next_seat,
            self.points,
            self.prev_seat,
            self.suit_mask_of,
            self.trump_mask,
        )


def play_tables(rules: Rules, trump: int) -> PlayTables:
    return rules.derived(("play", trump), lambda: PlayTables(rules, trump))




def trick_winner(rules: Rules, trump: int, cards: Sequence[Card]) -> int:
    """The index in ``cards`` (a trick in play order, the lead first) of the card that wins
    it: the highest trump, else the highest card of the suit led; of two identical cards
    (two decks) the first played. ``trump`` -1: no trump (a bidding table before the call)."""
    better = play_tables(rules, max(trump, 0)).better
    win = cards[0]
    for card in cards[1:]:
        if trump >= 0 or card_suit(card) == card_suit(win):
            win = better[win][card]
    return list(cards).index(win)


def trick_points(rules: Rules, cards: Sequence[Card], last: bool) -> int:
    """The card points of a trick under ``rules`` (a Maria de Copas bonus included), with the
    last-trick bonus when it is the deal's last trick."""
    points = rules.card_points
    return sum(points[c] for c in cards) + (rules.last_trick_bonus if last else 0)
