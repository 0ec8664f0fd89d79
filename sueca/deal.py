"""Dealing: the shuffle, the packets, the turned trump card.

The deal is a chance event: :func:`deal_cards` makes one from a random source (reproducible from
a seed), and :class:`Deal` can also be built from explicit hands, as a record gives them.

>>> from sueca.rules import STANDARD
>>> d = deal_cards(STANDARD, dealer=0, rng=random.Random(7))
>>> d == deal_cards(STANDARD, dealer=0, rng=random.Random(7))
True
>>> d.trump_card in mask_cards(d.hands[0])
True
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter

from sueca.cards import (
    DECK_SIZE,
    Card,
    CardMask,
    card_name,
    card_suit,
    cards_mask,
    format_mask,
    held_copy,
    mask_cards,
)
from sueca.rules import Rules


class DealError(ValueError):
    """Hands that are not a deal under the rules (wrong cards, trump not the dealer's)."""


@dataclass(frozen=True)
class Deal:
    """Who dealt, the hand each seat received (as card masks) and the turned trump card
    (``None`` at a bidding table, where the declarer's called card makes trump)."""

    dealer: int
    hands: tuple[CardMask, ...]
    trump_card: Card | None

    @property
    def trump(self) -> int:
        """The trump suit, -1 where the auction decides it."""
        return -1 if self.trump_card is None else card_suit(self.trump_card)

    def set_aside(self, rules: Rules) -> CardMask:
        """The cards no hand received (two at the six-player table): unseen, worth nothing."""
        dealt = 0
        for hand in self.hands:
            dealt |= hand
        return ((1 << rules.deck_size) - 1) & ~dealt

    def validate(self, rules: Rules) -> None:
        """Raise :class:`DealError` naming the problem unless this is a legal deal."""
        if not 0 <= self.dealer < rules.players:
            raise DealError(f"dealer {self.dealer} is not a seat of a {rules.players}-seat table")
        if len(self.hands) != rules.players:
            raise DealError(f"{len(self.hands)} hands for {rules.players} seats")
        seen = 0
        for seat, hand in enumerate(self.hands):
            size = hand.bit_count()
            if size != rules.hand_size:
                raise DealError(f"seat {seat} holds {size} cards, not {rules.hand_size}")
            if seen & hand:
                dup = card_name(mask_cards(seen & hand)[0])
                raise DealError(f"card {dup} is dealt twice (again to seat {seat})")
            seen |= hand
        # A card beyond the decks first: hands of the right sizes holding one always leave a
        # card of the decks missing, so tested second this message could never be given.
        if seen >> rules.deck_size:
            extra = ("second", "third")[rules.decks - 1]
            raise DealError(f"a card of a {extra} deck is dealt at a {rules.decks}-deck table")
        missing = ((1 << rules.deck_size) - 1) & ~seen
        if missing.bit_count() > rules.set_aside:
            raise DealError(f"card {card_name(mask_cards(missing)[0])} is missing from the deal")
        if rules.bidding:
            if self.trump_card is not None:
                raise DealError("no card is turned at a bidding table: the called card is trump")
            return
        if self.trump_card is None:
            raise DealError("the deal has no trump card")
        if not self.hands[self.dealer] >> self.trump_card & 1:
            raise DealError(
                f"trump card {card_name(self.trump_card)} is not in the dealer's hand "
                f"(seat {self.dealer})"
            )
        if rules.redeal_point_trump and rules.card_points[self.trump_card]:
            raise DealError(
                f"trump card {card_name(self.trump_card)} carries points: with "
                "redeal_point_trump that deal is shuffled and dealt again"
            )

    @classmethod
    def from_cards(
        cls, dealer: int, hands: Sequence[Sequence[Card]], trump_card: Card | None
    ) -> Deal:
        return cls(dealer, tuple(cards_mask(h) for h in hands), trump_card)

    def __str__(self) -> str:
        turned = "none" if self.trump_card is None else card_name(self.trump_card)
        lines = [f"dealer {self.dealer}, trump card {turned}"]
        lines += [f"seat {s}: {format_mask(h)}" for s, h in enumerate(self.hands)]
        return "\n".join(lines)


def number_copies(deal: Deal) -> Deal:
    """The same deal with the two copies of each face numbered (``c`` and ``c + 40``) by a coin
    tossed from the deal's faces alone.

    A seat sees its own cards' ids, so the ids must say nothing about the other hands: numbered
    by seat order (the first holder gets ``c``), seat 5 holding a face's first copy alone would
    know seats 0 to 4 hold none of it. Tossed from a generator seeded with every hand's faces,
    each copy's number looks like a fair coin to any seat (which cannot see the seed), and the
    numbering depends on the faces only — so a deal written to a record (which names faces) and
    read back is the very same deal, ids and all. :func:`deal_cards` and record readers both
    number copies this way."""
    n = len(deal.hands)
    faces = [[card % DECK_SIZE for card in mask_cards(hand)] for hand in deal.hands]
    coin = random.Random(f"sueca copies {deal.dealer}: " + " | ".join(
        " ".join(map(str, sorted(seat_faces))) for seat_faces in faces
    ))
    holders: list[list[int]] = [[] for _ in range(DECK_SIZE)]
    for seat in range(n):
        for face in faces[seat]:
            holders[face].append(seat)
    hands = [0] * n
    for face, seats in enumerate(holders):
        copies = (face, face + DECK_SIZE) if coin.random() < 0.5 else (face + DECK_SIZE, face)
        for seat, copy in zip(seats, copies, strict=False):
            hands[seat] |= 1 << copy
    trump = deal.trump_card
    if trump is not None:
        trump = held_copy(hands[deal.dealer], trump)
        twin = trump + DECK_SIZE
        if hands[deal.dealer] >> twin & 1 and coin.random() < 0.5:
            # The dealer holds both copies: which one is turned is a coin too, or a turned
            # second copy would prove that he holds no twin.
            trump = twin
    return Deal(deal.dealer, tuple(hands), trump)


def deal_order(rules: Rules, dealer: int) -> tuple[int, ...]:
    """Which seat receives each position of the shuffled deck, in dealing order.

    Dealing starts with the player after the dealer and ends with the dealer; where the trump is
    the dealer's *first* card, the dealer deals to himself first (the Brazilian alternative).
    """
    return _dealing_plan(rules, dealer)[0]


_Plan = tuple[tuple[int, ...], Callable[[Sequence[Card]], tuple[Card, ...]], int]


def _dealing_plan(rules: Rules, dealer: int) -> _Plan:
    return rules.derived(("deal", dealer), lambda: _make_dealing_plan(rules, dealer))


def _make_dealing_plan(rules: Rules, dealer: int) -> _Plan:
    """The deal order, a function grouping the deck seat by seat, and the trump's position."""
    n = rules.players
    first = dealer if rules.trump_card == "dealer_first" else (dealer + 1) % n
    order: list[int] = []
    for _ in range(rules.hand_size // rules.deal_packets):
        for i in range(n):
            order += [(first + i) % n] * rules.deal_packets
    by_seat = sorted(range(len(order)), key=lambda position: order[position])
    dealer_positions = [p for p, seat in enumerate(order) if seat == dealer]
    trump_position = dealer_positions[0 if rules.trump_card == "dealer_first" else -1]
    return tuple(order), itemgetter(*by_seat), trump_position


_BIT = tuple(1 << c for c in range(80))


def deal_from_deck(rules: Rules, dealer: int, deck: Sequence[Card]) -> Deal:
    """Deal an ordered deck (top card first) by the rules' packets and trump rule."""
    _, by_seat, trump_position = _dealing_plan(rules, dealer)
    # Grouping the deck seat by seat and summing bits keeps the loop in C: dealing is in the
    # hot path of every simulation.
    grouped = by_seat(deck)
    size = rules.hand_size
    hands = tuple(
        sum(map(_BIT.__getitem__, grouped[i:i + size])) for i in range(0, len(grouped), size)
    )
    deal = Deal(dealer, hands, None if rules.bidding else deck[trump_position])
    return number_copies(deal) if rules.decks > 1 else deal


def deal_cards(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """Shuffle and deal; with ``redeal_point_trump`` shuffle again until the trump is blank.

    The same ``rng`` state always gives the same deal. Every deal is (to within 1e-9, see
    :class:`_Shuffle`) equally likely, exactly as from a shuffled deck dealt by the rules' order
    and packets: :func:`shuffled_deck` and :func:`deal_from_deck` give the same deal.
    """
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise DealError(f"dealer {dealer!r} is not a seat of a {rules.players}-seat table")
    shuffle = _shuffle_plan(rules, dealer)
    while True:
        where = shuffle.positions(rng)
        # One C-level pass per hand: each seat's positions read as "1", the rest as "0", and
        # that string (highest card first) parsed as a binary number is the hand's mask.
        hands = tuple(map(int, map(where.translate, shuffle.seat_digits), _BASE_2))
        if rules.bidding:
            deal = Deal(dealer, hands, None)
        else:
            trump_card = shuffle.last_card - where.index(shuffle.trump_position)
            deal = Deal(dealer, hands, trump_card)
            if rules.redeal_point_trump and rules.card_points[trump_card]:
                continue
        return number_copies(deal) if rules.decks > 1 else deal


def shuffled_deck(rules: Rules, rng: random.Random) -> list[Card]:
    """The shuffled deck (top card first) that :func:`deal_cards` deals from the same ``rng``
    state: ``deal_from_deck(rules, dealer, shuffled_deck(rules, rng))`` is that deal."""
    where = _shuffle(rules.deck_size).positions(rng)
    deck = [0] * rules.deck_size
    for index, position in enumerate(where):
        deck[position] = rules.deck_size - 1 - index
    return deck


class _Shuffle:
    """A uniform shuffle done in C: sort the cards by random keys.

    ``random.shuffle`` is a Python loop of 39 ``randrange`` calls (about 5.5 µs for 40 cards,
    half of a deal's cost before this). Here one ``getrandbits`` call draws a 64-bit key per
    card, masked into a big-endian float in [1, 2): ``3F F0`` (sign, exponent and four zero
    mantissa bits), 40 random mantissa bits, and in the lowest byte a label, 0 to size - 1.
    ``struct`` unpacks the keys, ``sorted`` orders them (floats compare fast), ``struct`` packs
    them back, and the label bytes in sorted order are a uniformly random permutation of the
    labels, all in C. The label at sorted index ``i`` is read as the deck position of card
    ``size - 1 - i`` (highest card first, so that ``int(…, 2)`` reads masks off it directly).

    Bias: two keys with equal random bits keep label order instead of a fair coin. That needs a
    collision among 40 draws of 40 bits, probability at most C(40, 2) / 2**40 < 1e-9 per deal
    (C(80, 2) / 2**40 < 3e-9 with two decks): far below anything a simulation can measure.
    """

    def __init__(self, size: int) -> None:
        self.keys = struct.Struct(f">{size}d")
        self.bits = 64 * size
        self.size = size
        self.random_mask = int.from_bytes(bytes([0, 0, 255, 255, 255, 255, 255, 0]) * size, "big")
        self.fixed = int.from_bytes(
            b"".join(bytes([0x3F, 0xF0, 0, 0, 0, 0, 0, label]) for label in range(size)), "big"
        )

    def positions(self, rng: random.Random) -> bytes:
        """Where each card lies in a freshly shuffled deck, as one byte per card, highest card
        first: byte ``i`` is the deck position of card ``size - 1 - i``."""
        keys = self.keys
        raw = (rng.getrandbits(self.bits) & self.random_mask | self.fixed).to_bytes(
            8 * self.size, "big"
        )
        return keys.pack(*sorted(keys.unpack(raw)))[7::8]


@functools.cache
def _shuffle(size: int) -> _Shuffle:
    return _Shuffle(size)


class _DealShuffle:
    """A :class:`_Shuffle` and what turns its positions into one dealer's deal."""

    def __init__(self, rules: Rules, dealer: int) -> None:
        order, _, self.trump_position = _dealing_plan(rules, dealer)
        self.positions = _shuffle(rules.deck_size).positions
        self.last_card = rules.deck_size - 1
        # For each seat, bytes.translate's table: the deck positions it is dealt -> b"1".
        self.seat_digits = tuple(
            bytes(0x31 if p < len(order) and order[p] == seat else 0x30 for p in range(256))
            for seat in range(rules.players)
        )


_BASE_2 = repeat(2)


def _shuffle_plan(rules: Rules, dealer: int) -> _DealShuffle:
    return rules.derived(("shuffle", dealer), lambda: _DealShuffle(rules, dealer))


def random_dealer(rng: random.Random, rules: Rules) -> int:
    """The first dealer, drawn at random (RULES.md: tables disagree on how to draw for it)."""
    return rng.randrange(rules.players)


def hands_text(deal: Deal) -> list[str]:
    return [format_mask(h) for h in deal.hands]


__all__ = [
    "Deal",
    "DealError",
    "cards_mask",
    "deal_cards",
    "deal_from_deck",
    "deal_order",
    "hands_text",
    "random_dealer",
    "shuffled_deck",
]
