"""The play of one deal: legal moves, ``push``/``pop``, tricks, card points.

:class:`State` is the full (perfect-information) state, the one the referee holds. Actions are
card ids (0–39). ``push`` plays a card and ``pop`` takes it back, so search can walk the tree
without copying; an illegal card raises :class:`IllegalMoveError` naming the reason and leaves
the state unchanged. What one seat may see of it is :meth:`State.information_state`.

>>> from sueca.deal import deal_cards
>>> from sueca.rules import STANDARD
>>> import random
>>> state = State(STANDARD, deal_cards(STANDARD, dealer=3, rng=random.Random(1)))
>>> state.to_play
0
>>> card = state.legal_moves()[0]
>>> state.push(card)
>>> state.pop() == card
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sueca.cards import (
    SUIT_BLOCK_CARDS,
    SUIT_NAMES,
    Card,
    CardMask,
    card_name,
    card_suit,
    format_cards,
    mask_cards,
)
from sueca.deal import Deal
from sueca.rules import Rules

if TYPE_CHECKING:
    from sueca.infostate import InformationState


class IllegalMoveError(ValueError):
    """A card that may not be played now. ``reason`` is one of the ``REASON_*`` codes."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


REASON_OVER = "hand_over"
REASON_TURN = "not_your_turn"
REASON_NOT_HELD = "not_in_hand"
REASON_FOLLOW = "must_follow"
REASON_TRUMP = "must_trump"


@dataclass(frozen=True)
class Trick:
    """A completed (or current) trick: who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    points: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


def legal_mask_for(rules: Rules, hand: CardMask, led: Card | None, trump: int) -> CardMask:
    """The rule of play: the cards of ``hand`` that may go to a trick led by ``led`` (``None``
    when leading). :meth:`State.push` and :meth:`State.legal_moves` inline the same test for
    speed; the invariant tests hold all three to agreement."""
    if led is None:
        return hand
    t = _tables(rules, trump)
    follow = hand & t.suit_mask_of[led]
    if follow:
        return follow
    if rules.must_trump and hand & t.trump_mask:
        return hand & t.trump_mask
    return hand


class _Tables:
    """Per-table lookup tables, so the hot path does no arithmetic on cards."""

    def __init__(self, rules: Rules, trump: int) -> None:
        size = rules.deck_size
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
        # beats[w][c]: card c, played to a trick that w is winning, takes the lead. Of two
        # identical cards (double deck) neither beats the other: the first played keeps it.
        self.beats = tuple(
            tuple(
                (self.suit[c] == self.suit[w] and self.strength[c] > self.strength[w])
                or (self.suit[c] == trump and self.suit[w] != trump)
                for c in range(size)
            )
            for w in range(size)
        )
        self.team = rules.teams


def _tables(rules: Rules, trump: int) -> _Tables:
    return rules.derived(("play", trump), lambda: _Tables(rules, trump))


class State:
    """One deal in play. Mutable; ``copy()`` when you need a snapshot."""

    __slots__ = (
        "_beats",
        "_must_trump",
        "_points",
        "_single_deck",
        "_strength",
        "_suit",
        "_suit_mask_of",
        "_t",
        "_trump_mask",
        "_undo",
        "deal",
        "hands",
        "leader",
        "players",
        "plays",
        "rules",
        "seat_points",
        "to_play",
        "trick_points",
        "trick_start",
        "trick_winners",
        "tricks_total",
        "trump",
        "win_card",
        "win_seat",
    )

    def __init__(self, rules: Rules, deal: Deal) -> None:
        self.rules = rules
        self.deal = deal
        self.trump = deal.trump
        self.players = rules.players
        self.hands = list(deal.hands)
        self.plays: list[Card] = []
        self.to_play = (deal.dealer + 1) % rules.players
        self.leader = self.to_play
        self.trick_start = 0
        self.win_card = -1
        self.win_seat = -1
        self.trick_points = 0
        self.seat_points = [0] * rules.players
        self.trick_winners: list[int] = []
        self.tricks_total = rules.hand_size
        self._t = t = _tables(rules, deal.trump)
        # The tables again as slots: the hot path saves an attribute lookup on every card.
        self._suit = t.suit
        self._strength = t.strength
        self._points = t.points
        self._suit_mask_of = t.suit_mask_of
        self._trump_mask = t.trump_mask
        self._must_trump = rules.must_trump
        self._single_deck = rules.decks == 1
        self._beats = t.beats
        self._undo: list[tuple[int, int, int, int, int, int]] = []

    # ---- moves ---------------------------------------------------------------------------

    def legal_mask(self) -> CardMask:
        """The cards the player to move may play, as a mask (0 when the hand is over)."""
        plays = self.plays
        led = plays[self.trick_start] if len(plays) > self.trick_start else None
        return legal_mask_for(self.rules, self.hands[self.to_play], led, self.trump)

    def legal_moves(self) -> tuple[Card, ...]:
        """The cards the player to move may play, suit by suit, low to high."""
        hand = self.hands[self.to_play]
        plays = self.plays
        if len(plays) != self.trick_start:
            led = plays[self.trick_start]
            follow = hand & self._suit_mask_of[led]
            if follow:
                if self._single_deck:  # one suit: a single table lookup
                    suit = self._suit[led]
                    return SUIT_BLOCK_CARDS[suit][follow >> (10 * suit)]
                return mask_cards(follow)
            if self._must_trump and hand & self._trump_mask:
                return mask_cards(hand & self._trump_mask)
        return mask_cards(hand)

    def is_legal(self, card: Card) -> bool:
        return bool(0 <= card < self.rules.deck_size and self.legal_mask() >> card & 1)

    def play(self, card: Card, seat: int | None = None) -> None:
        """Like :meth:`push`, but also refuse a card offered by a seat whose turn it is not."""
        if seat is not None and seat != self.to_play and not self.is_finished():
            raise IllegalMoveError(
                f"it is seat {self.to_play}'s turn, not seat {seat}'s", REASON_TURN
            )
        self.push(card)

    def push(self, card: Card) -> None:
        """Play ``card`` for the seat to move; raise :class:`IllegalMoveError` if it may not.

        The legality test is written out here rather than calling :meth:`legal_mask`: this is
        the innermost step of every simulation and search.
        """
        seat = self.to_play
        hand = self.hands[seat]
        plays = self.plays
        start = self.trick_start
        if card < 0 or not hand >> card & 1:
            raise self._illegal(card, seat)
        self._undo.append(
            (seat, self.leader, start, self.win_card, self.win_seat, self.trick_points)
        )
        if len(plays) == start:
            self.win_card = card
            self.win_seat = seat
            self.trick_points = self._points[card]
        else:
            led = self._suit_mask_of[plays[start]]
            trumps = self._trump_mask
            if not led >> card & 1 and (
                hand & led or (self._must_trump and hand & trumps and not trumps >> card & 1)
            ):
                self._undo.pop()
                raise self._illegal(card, seat)
            if self._beats[self.win_card][card]:
                self.win_card = card
                self.win_seat = seat
            self.trick_points += self._points[card]
        self.hands[seat] = hand ^ (1 << card)
        plays.append(card)
        if len(plays) - start == self.players:
            winner = self.win_seat
            self.trick_winners.append(winner)
            points = self.trick_points
            if len(self.trick_winners) == self.tricks_total:
                points += self.rules.last_trick_bonus
            self.seat_points[winner] += points
            self.trick_start = len(plays)
            self.to_play = self.leader = winner
        else:
            self.to_play = (seat + 1) % self.players

    def pop(self) -> Card:
        """Take back the last card played and return it."""
        if not self.plays:
            raise IndexError("pop from a deal with no card played")
        seat, leader, trick_start, win_card, win_seat, trick_points = self._undo.pop()
        card = self.plays.pop()
        if self.trick_start > trick_start:  # that card had completed a trick
            winner = self.trick_winners.pop()
            points = self.trick_points
            if len(self.trick_winners) == self.tricks_total - 1:
                points += self.rules.last_trick_bonus
            self.seat_points[winner] -= points
        self.hands[seat] |= 1 << card
        self.to_play = seat
        self.leader = leader
        self.trick_start = trick_start
        self.win_card = win_card
        self.win_seat = win_seat
        self.trick_points = trick_points
        return card

    def _illegal(self, card: Card, seat: int) -> IllegalMoveError:
        if self.is_finished():
            return IllegalMoveError("the hand is over: no card may be played", REASON_OVER)
        if not 0 <= card < self.rules.deck_size:
            return IllegalMoveError(f"{card!r} is not a card", REASON_NOT_HELD)
        name = card_name(card)
        hand = self.hands[seat]
        if not hand >> card & 1:
            return IllegalMoveError(f"{name} is not in seat {seat}'s hand", REASON_NOT_HELD)
        led = self._t.suit[self.plays[self.trick_start]]
        follow = hand & self._t.suit_mask[led]
        if follow:
            return IllegalMoveError(
                f"must follow {SUIT_NAMES[led]}: seat {seat} holds "
                f"{format_cards(reversed(mask_cards(follow)))}",
                REASON_FOLLOW,
            )
        trumps = hand & self._t.trump_mask
        return IllegalMoveError(
            f"must trump: seat {seat} has no {SUIT_NAMES[led]} and holds "
            f"{format_cards(reversed(mask_cards(trumps)))}",
            REASON_TRUMP,
        )

    # ---- what the state shows ------------------------------------------------------------

    def is_finished(self) -> bool:
        return len(self.trick_winners) == self.tricks_total

    @property
    def trick(self) -> list[Card]:
        """The cards of the trick in progress, in play order (empty between tricks)."""
        return self.plays[self.trick_start:]

    @property
    def trick_number(self) -> int:
        """How many tricks are complete (the index of the trick in progress)."""
        return len(self.trick_winners)

    def tricks(self) -> list[Trick]:
        """Every completed trick, in order."""
        n = self.players
        out = []
        leader = (self.deal.dealer + 1) % n
        for i, winner in enumerate(self.trick_winners):
            cards = tuple(self.plays[i * n:(i + 1) * n])
            points = sum(self._t.points[c] for c in cards)
            if i == self.tricks_total - 1:
                points += self.rules.last_trick_bonus
            out.append(Trick(leader, cards, winner, points))
            leader = winner
        return out

    def current_trick(self) -> Trick:
        return Trick(self.leader, tuple(self.trick), None, self.trick_points if self.trick else 0)

    def team_points(self) -> list[int]:
        """Card points (bonuses included) each partnership has taken so far."""
        totals = [0] * self.rules.teams_count
        for seat, points in enumerate(self.seat_points):
            totals[self._t.team[seat]] += points
        return totals

    def team_tricks(self) -> list[int]:
        counts = [0] * self.rules.teams_count
        for winner in self.trick_winners:
            counts[self._t.team[winner]] += 1
        return counts

    def trump_card_held(self) -> bool:
        """Whether the turned trump card is still face up in the dealer's hand."""
        return bool(self.hands[self.deal.dealer] >> self.deal.trump_card & 1)

    def played_mask(self) -> CardMask:
        mask = 0
        for card in self.plays:
            mask |= 1 << card
        return mask

    def seat_of_play(self, index: int) -> int:
        """The seat that played ``plays[index]``."""
        n = self.players
        trick, position = divmod(index, n)
        leader = (self.deal.dealer + 1) % n if trick == 0 else self.trick_winners[trick - 1]
        return (leader + position) % n

    def remaining_cards(self) -> list[tuple[Card, ...]]:
        return [mask_cards(h) for h in self.hands]

    def information_state(self, seat: int) -> InformationState:
        """What ``seat`` may know now: the one place where hidden information is filtered."""
        from sueca.infostate import InformationState

        return InformationState.of(self, seat)

    def copy(self) -> State:
        other = State.__new__(State)
        for name in State.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    def __repr__(self) -> str:
        return (
            f"<State trick {self.trick_number + 1}, seat {self.to_play} to play, "
            f"trick [{format_cards(self.trick)}], points {self.team_points()}>"
        )

