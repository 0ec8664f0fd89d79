"""Cards, suits, ranks and card sets.

A card is a plain ``int`` (like a square in python-chess): ``suit * 10 + rank``, where ranks
run from the lowest (``2``) to the highest (``A``) in Sueca order, so within a suit a larger
number is a stronger card. A set of cards is an ``int`` bit mask (bit ``c`` set when card ``c``
is in the set), which makes hands, legal moves and played cards cheap to compute with.

With two decks (the 6- and 8-player tables) the second copy of a card is ``card + 40``; the
face of any card is ``card % 40``.

>>> card_name(parse_card("7h"))
'7H'
>>> card_symbol(parse_card("♠A"))
'A♠'
>>> [card_name(c) for c in mask_cards(parse_mask("AS 2S 7H"))]
['2S', 'AS', '7H']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
Suit = int
Rank = int
CardMask = int

SUITS: Final = (0, 1, 2, 3)
SPADES, HEARTS, DIAMONDS, CLUBS = SUITS
SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")

# Lowest to highest: 2 3 4 5 6 Q J K 7 A.
RANK_LETTERS: Final = "23456QJK7A"
RANKS: Final = tuple(range(10))
RANK_POINTS: Final = (0, 0, 0, 0, 0, 2, 3, 4, 10, 11)
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "queen", "jack", "king", "seven", "ace")

DECK_SIZE: Final = 40
CARDS_PER_SUIT: Final = 10
FULL_DECK: Final[CardMask] = (1 << DECK_SIZE) - 1


def make_card(rank: Rank, suit: Suit) -> Card:
    return suit * CARDS_PER_SUIT + rank


def card_suit(card: Card) -> Suit:
    return (card % DECK_SIZE) // CARDS_PER_SUIT


def card_rank(card: Card) -> Rank:
    return card % CARDS_PER_SUIT


def card_face(card: Card) -> Card:
    """The card's face in the first deck: the two copies of a double deck share it."""
    return card % DECK_SIZE


def one_per_face(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` with the second copy of a face left out, in order. Two copies in one hand are
    the same move (of two equal cards in a trick the first played wins, whichever copy it is),
    so a search need try only one.

    >>> [card_name(c) for c in one_per_face([9, 19, 49])]
    ['AS', 'AH']
    """
    seen = 0
    kept = []
    for card in cards:
        bit = 1 << card % DECK_SIZE
        if not seen & bit:
            seen |= bit
            kept.append(card)
    return tuple(kept)


def held_copy(hand: CardMask, card: Card) -> Card:
    """The copy of ``card``'s face that ``hand`` holds (the first deck's when it holds both);
    ``card`` itself when it holds neither. Notation names a face, not a copy: this turns a
    named card back into the one a player can play."""
    face = card % DECK_SIZE
    for copy in (face, face + DECK_SIZE):
        if hand >> copy & 1:
            return copy
    return card


def card_points(card: Card) -> int:
    return RANK_POINTS[card % CARDS_PER_SUIT]


def card_name(card: Card) -> str:
    """The record notation: rank letter then suit letter, e.g. ``7H``."""
    return RANK_LETTERS[card_rank(card)] + SUIT_LETTERS[card_suit(card)]


def card_symbol(card: Card) -> str:
    """The display form with a suit symbol, e.g. ``7♥``."""
    return RANK_LETTERS[card_rank(card)] + SUIT_SYMBOLS[card_suit(card)]


class CardParseError(ValueError):
    """A string that is not a card in RECORD.md notation."""


_SUIT_BY_CHAR = {ch: i for i, ch in enumerate(SUIT_LETTERS)} | {
    ch: i for i, ch in enumerate(SUIT_SYMBOLS)
}
_SUIT_BY_CHAR |= {"\u2664": 0, "\u2661": 1, "\u2662": 2, "\u2667": 3}  # outlined symbols


def parse_card(text: str) -> Card:
    """Parse ``7H``, ``7h``, ``h7``, ``♥7`` or ``7♥`` into a card (rank first or suit first)."""
    token = text.strip().upper().replace("\ufe0f", "")
    if len(token) == 2:
        for rank_char, suit_char in ((token[0], token[1]), (token[1], token[0])):
            rank = RANK_LETTERS.find(rank_char)
            suit = _SUIT_BY_CHAR.get(suit_char)
            if rank >= 0 and suit is not None:
                return make_card(rank, suit)
    raise CardParseError(
        f"not a card: {text!r} (expected a rank A 7 K J Q 6 5 4 3 2 and a suit S H D C)"
    )


def parse_cards(text: str) -> list[Card]:
    """Parse space- or comma-separated cards, in the order given."""
    return [parse_card(token) for token in text.replace(",", " ").split()]


def parse_mask(text: str) -> CardMask:
    return cards_mask(parse_cards(text))


# ---- card sets as bit masks -------------------------------------------------------------

SUIT_MASKS: Final = tuple(((1 << CARDS_PER_SUIT) - 1) << (CARDS_PER_SUIT * s) for s in SUITS)

# The cards of each 10-bit pattern of suit block ``b`` (cards ``10b`` to ``10b + 9``), low to
# high: turns a mask into its cards with four lookups instead of a loop over bits.
_BLOCK_CARDS: Final = tuple(
    tuple(
        tuple(10 * block + r for r in RANKS if pattern >> r & 1)
        for pattern in range(1 << CARDS_PER_SUIT)
    )
    for block in range(8)
)
_B0, _B1, _B2, _B3 = SUIT_BLOCK_CARDS = _BLOCK_CARDS[:4]


def cards_mask(cards: Iterable[Card]) -> CardMask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_cards(mask: CardMask) -> tuple[Card, ...]:
    """The cards of a mask, suit by suit (S H D C), low to high within a suit."""
    if mask >> DECK_SIZE == 0:
        return _B0[mask & 1023] + _B1[mask >> 10 & 1023] + _B2[mask >> 20 & 1023] + _B3[mask >> 30]
    cards: tuple[Card, ...] = ()
    block = 0
    while mask:
        cards += _BLOCK_CARDS[block][mask & 1023]
        mask >>= 10
        block += 1
    return cards


def iter_mask(mask: CardMask) -> Iterator[Card]:
    return iter(mask_cards(mask))


def suit_cards_high_to_low(mask: CardMask, suit: Suit) -> tuple[Card, ...]:
    """The cards of one suit in a (single-deck) mask, strongest first."""
    return _BLOCK_CARDS[suit][(mask >> (CARDS_PER_SUIT * suit)) & 1023][::-1]


def mask_points(mask: CardMask) -> int:
    return sum(card_points(card) for card in iter_mask(mask))


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    fmt = card_symbol if symbols else card_name
    return " ".join(fmt(card) for card in cards)


def format_mask(mask: CardMask, symbols: bool = False) -> str:
    return format_cards(mask_cards(mask), symbols)


# Constants named suit-first, so that they are identifiers: ``H7`` is the seven of hearts.
S2, S3, S4, S5, S6, SQ, SJ, SK, S7, SA = range(0, 10)
H2, H3, H4, H5, H6, HQ, HJ, HK, H7, HA = range(10, 20)
D2, D3, D4, D5, D6, DQ, DJ, DK, D7, DA = range(20, 30)
C2, C3, C4, C5, C6, CQ, CJ, CK, C7, CA = range(30, 40)
