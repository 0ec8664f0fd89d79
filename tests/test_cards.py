"""Cards and card sets: notation, order, points, masks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sueca import cards
from sueca.cards import (
    FULL_DECK,
    CardParseError,
    card_name,
    card_points,
    card_rank,
    card_suit,
    card_symbol,
    cards_mask,
    format_mask,
    mask_cards,
    mask_points,
    parse_card,
    parse_cards,
    parse_mask,
    suit_cards_high_to_low,
)


def test_every_card_round_trips_through_its_name_and_symbol() -> None:
    names = {card_name(c) for c in range(40)}
    assert len(names) == 40
    for card in range(40):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_symbol(card)) == card
        assert parse_card(card_name(card).lower()) == card
        assert parse_card(card_name(card)[::-1]) == card  # suit first


@pytest.mark.parametrize(
    ("text", "name"),
    [("7H", "7H"), ("7h", "7H"), ("h7", "7H"), ("♥7", "7H"), ("7♥", "7H"), ("A♠", "AS"),
     ("q♣", "QC"), ("2♦", "2D"), (" KS ", "KS"), ("7♥\ufe0f", "7H")],
)
def test_readers_accept_every_documented_spelling(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "7", "10H", "8H", "9S", "7X", "AHH", "HH", "77", "1S", " "])
def test_bad_card_text_names_the_problem(text: str) -> None:
    with pytest.raises(CardParseError, match="not a card"):
        parse_card(text)


def test_rank_order_and_points_follow_the_rules() -> None:
    # RULES.md: A, 7, K, J, Q, 6, 5, 4, 3, 2, high to low; A 11, 7 10, K 4, J 3, Q 2.
    for suit in "SHDC":
        order = [parse_card(r + suit) for r in "A7KJQ65432"]
        assert [card_rank(c) for c in order] == sorted((card_rank(c) for c in order),
                                                       reverse=True)
        assert {card_suit(c) for c in order} == {"SHDC".index(suit)}
        assert [card_points(c) for c in order] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0]
        assert suit_cards_high_to_low(FULL_DECK, "SHDC".index(suit)) == tuple(order)
    assert mask_points(FULL_DECK) == 120


def test_named_constants_match_the_notation() -> None:
    for card in range(40):
        name = card_name(card)
        assert getattr(cards, name[1] + name[0]) == card


@given(st.sets(st.integers(0, 39)))
def test_masks_hold_exactly_their_cards(chosen: set[int]) -> None:
    mask = cards_mask(chosen)
    listed = mask_cards(mask)
    assert set(listed) == chosen and len(listed) == len(chosen)
    # Suit by suit (S H D C), low to high within a suit.
    assert list(listed) == sorted(chosen, key=lambda c: (card_suit(c), card_rank(c)))
    assert parse_mask(format_mask(mask)) == mask
    assert parse_mask(format_mask(mask, symbols=True)) == mask
    assert mask_points(mask) == sum(card_points(c) for c in chosen)


def test_parse_cards_keeps_order_and_accepts_commas() -> None:
    assert [card_name(c) for c in parse_cards("AS, 2H 7c")] == ["AS", "2H", "7C"]
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("AS XX")
