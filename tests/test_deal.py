"""Dealing: reproducible shuffles, the packets, the turned trump card, deal validation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_support import RULE_SETS

from sueca.cards import card_name, card_points, mask_cards, parse_card, parse_cards
from sueca.deal import (
    Deal,
    DealError,
    deal_cards,
    deal_from_deck,
    deal_order,
    random_dealer,
    shuffled_deck,
)
from sueca.rules import STANDARD, Rules, preset


def documented_seat(rules: Rules, dealer: int, position: int) -> int:
    """RULES.md: packets of ``deal_packets`` cards in play order, starting with the player
    after the dealer (or with the dealer himself when his first card is the trump)."""
    first = dealer if rules.trump_card == "dealer_first" else dealer + 1
    return (first + position // rules.deal_packets) % rules.players


@pytest.mark.parametrize("packets", [1, 5, 10])
@pytest.mark.parametrize("trump_card", ["dealer_last", "dealer_first"])
@pytest.mark.parametrize("dealer", range(4))
def test_packets_give_the_documented_positions(packets: int, trump_card: str, dealer: int) -> None:
    rules = STANDARD.replace(deal_packets=packets, trump_card=trump_card)
    order = deal_order(rules, dealer)
    assert list(order) == [documented_seat(rules, dealer, p) for p in range(40)]
    deck = list(range(40))
    random.Random(packets * 10 + dealer).shuffle(deck)
    deal = deal_from_deck(rules, dealer, deck)
    for position, card in enumerate(deck):
        assert deal.hands[documented_seat(rules, dealer, position)] >> card & 1
    # The dealer's last card (the 40th of the deck) or his first (the deck's top card).
    expected = deck[39] if trump_card == "dealer_last" else deck[0]
    assert deal.trump_card == expected
    assert deal.dealer == dealer
    deal.validate(rules)


def test_packets_of_one_alternate_seats() -> None:
    deck = list(range(40))
    deal = deal_from_deck(STANDARD, 0, deck)
    # Seat 1 gets cards 0, 4, 8, …; the dealer (seat 0) gets 3, 7, …, 39 and turns 39.
    assert mask_cards(deal.hands[1]) == tuple(range(0, 40, 4))
    assert mask_cards(deal.hands[0]) == tuple(range(3, 40, 4))
    assert card_name(deal.trump_card) == "AC"


def test_brazil_deals_ten_at_a_time() -> None:
    deal = deal_from_deck(preset("brazil"), 2, list(range(40)))
    assert [mask_cards(h) for h in deal.hands] == [
        tuple(range(10, 20)), tuple(range(20, 30)), tuple(range(30, 40)), tuple(range(10))
    ]
    assert deal.trump_card == 39  # the bottom card is the dealer's (seat 2)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_seeded_deals_are_reproducible_and_valid(name: str) -> None:
    rules = RULE_SETS[name]
    for seed in range(20):
        dealer = seed % 4
        deal = deal_cards(rules, dealer, random.Random(seed))
        assert deal == deal_cards(rules, dealer, random.Random(seed))
        deal.validate(rules)
        assert deal.hands[dealer] >> deal.trump_card & 1
    deals = {deal_cards(rules, 0, random.Random(seed)).hands for seed in range(20)}
    assert len(deals) == 20


def test_redeal_point_trump_never_turns_a_point_card() -> None:
    for rules in (STANDARD.replace(redeal_point_trump=True),
                  STANDARD.replace(redeal_point_trump=True, maria_de_copas=3, deal_packets=5)):
        rng = random.Random(5)
        turned = [deal_cards(rules, rng.randrange(4), rng).trump_card for _ in range(400)]
        assert all(rules.card_points[c] == 0 for c in turned)
        assert len({c % 10 for c in turned}) == 5  # every blank rank comes up
    # Without the option, point cards are turned about half of the time.
    rng = random.Random(5)
    plain = [deal_cards(STANDARD, 0, rng).trump_card for _ in range(400)]
    assert 120 < sum(1 for c in plain if card_points(c)) < 280


def test_random_dealer_is_a_seat() -> None:
    rng = random.Random(1)
    assert {random_dealer(rng, STANDARD) for _ in range(100)} == {0, 1, 2, 3}


def good_hands() -> list[list[int]]:
    return [parse_cards(" ".join(r + s for r in "A7KJQ65432")) for s in "SHDC"]


def test_validate_accepts_a_good_deal() -> None:
    Deal.from_cards(0, good_hands(), parse_card("2S")).validate(STANDARD)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h: (4, h, "2S"), "dealer 4 is not a seat"),
        (lambda h: (-1, h, "2S"), "dealer -1 is not a seat"),
        (lambda h: (0, h[:3], "2S"), "3 hands for 4 seats"),
        (lambda h: (0, [h[0][:9], h[1], h[2], h[3] + h[0][9:]], "3S"),
         "seat 0 holds 9 cards, not 10"),
        (lambda h: (0, [h[0], [*h[1][:9], h[0][0]], h[2], h[3]], "2S"),
         "card AS is dealt twice"),
        (lambda h: (0, [h[0], h[1][:9] + h[2][:1], h[2][1:] + h[3][:1], h[3][1:] + h[0][:1]],
                    "3S"), "dealt twice"),
        (lambda h: (1, h, "2S"), "trump card 2S is not in the dealer's hand"),
    ],
)
def test_validate_names_the_problem(change, message: str) -> None:  # type: ignore[no-untyped-def]
    dealer, hands, trump = change(good_hands())
    with pytest.raises(DealError, match=message):
        Deal.from_cards(dealer, hands, parse_card(trump)).validate(STANDARD)


def test_validate_finds_a_missing_card() -> None:
    hands = good_hands()
    deal = Deal(0, (hands_mask(hands[0]), hands_mask(hands[1]), hands_mask(hands[2]),
                    hands_mask(hands[3][:9]) | 1 << 40), parse_card("2S"))
    with pytest.raises(DealError, match="a card of a second deck is dealt at a 1-deck table"):
        deal.validate(STANDARD)
    # Ten cards of the deck, but one of them twice and 2C nowhere.
    twice = Deal(0, (hands_mask(hands[0]), hands_mask(hands[1]), hands_mask(hands[2]),
                     hands_mask(hands[3][:9]) | 1 << parse_card("AS")), parse_card("2S"))
    with pytest.raises(DealError, match="dealt twice"):
        twice.validate(STANDARD)


def test_validate_refuses_a_point_trump_under_redeal_point_trump() -> None:
    rules = STANDARD.replace(redeal_point_trump=True)
    Deal.from_cards(0, good_hands(), parse_card("6S")).validate(rules)
    with pytest.raises(DealError, match="trump card 7S carries points"):
        Deal.from_cards(0, good_hands(), parse_card("7S")).validate(rules)


def hands_mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def test_deal_prints_its_hands() -> None:
    text = str(Deal.from_cards(0, good_hands(), parse_card("2S")))
    assert text.splitlines()[0] == "dealer 0, trump card 2S"
    assert "seat 3: 2C 3C" in text


def chi_square_bound(df: int) -> float:
    """About four standard deviations above the chi-square distribution's mean."""
    return df + 4 * (2 * df) ** 0.5


@pytest.mark.parametrize("name", ["standard", "packets5", "brazil_dealer_first"])
def test_shuffles_are_uniform(name: str) -> None:
    """Each card lands in each seat, and each card is turned, about equally often: a check on
    any faster shuffle (fixed seed, so it cannot flake)."""
    rules = RULE_SETS[name]
    rng = random.Random(f"uniform:{name}")
    deals = 4000
    seat_counts = [[0] * 4 for _ in range(40)]
    trump_counts = [0] * 40
    for _ in range(deals):
        deal = deal_cards(rules, 0, rng)
        for seat, hand in enumerate(deal.hands):
            for card in mask_cards(hand):
                seat_counts[card][seat] += 1
        trump_counts[deal.trump_card] += 1
    expected = deals / 4
    chi2 = sum((n - expected) ** 2 / expected for row in seat_counts for n in row)
    assert chi2 < chi_square_bound(40 * 3), chi2
    expected = deals / 40
    chi2 = sum((n - expected) ** 2 / expected for n in trump_counts)
    assert chi2 < chi_square_bound(39), chi2


def test_redealt_trumps_are_uniform_over_the_blank_cards() -> None:
    rules = STANDARD.replace(redeal_point_trump=True)
    rng = random.Random("uniform redeal")
    counts = [0] * 40
    for _ in range(2000):
        counts[deal_cards(rules, 1, rng).trump_card] += 1
    blanks = [c for c in range(40) if not card_points(c)]
    assert all(counts[c] == 0 for c in range(40) if c not in blanks)
    expected = 2000 / len(blanks)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in blanks)
    assert chi2 < chi_square_bound(len(blanks) - 1), chi2


# ---- the larger tables ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["double8", "double6", "italiana5"])
def test_larger_tables_deal_the_documented_deck(name: str) -> None:
    """Each seat's cards are the shuffled deck's documented positions (play order from the
    seat after the dealer, packets of one); at six seats the deck's last two cards are set
    aside; the dealer's last card is turned, except at the bidding table, which turns none."""
    rules = preset(name)
    for seed in range(20):
        dealer = seed % rules.players
        deck = shuffled_deck(rules, random.Random(seed))
        deal = deal_cards(rules, dealer, random.Random(seed))
        assert deal == deal_from_deck(rules, dealer, deck)
        deal.validate(rules)
        # Faces, not ids: with two decks the copies are numbered by a coin
        # (deal.number_copies), so only the faces at each position are the deal's.
        def faces(mask: int) -> list[int]:
            return sorted(card % 40 for card in mask_cards(mask))

        dealt: list[list[int]] = [[] for _ in range(rules.players)]
        aside = []
        for position, card in enumerate(deck):
            if position < rules.cards_in_play:
                dealt[documented_seat(rules, dealer, position)].append(card % 40)
            else:
                aside.append(card % 40)
        assert [sorted(h) for h in dealt] == [faces(h) for h in deal.hands]
        assert sorted(aside) == faces(deal.set_aside(rules))
        assert deal.set_aside(rules).bit_count() == rules.set_aside
        if rules.bidding:
            assert deal.trump_card is None and deal.trump == -1
        else:
            assert deal.trump_card is not None
            assert deal.trump_card % 40 == deck[rules.cards_in_play - 1] % 40
            assert deal.hands[dealer] >> deal.trump_card & 1


def test_double6_shuffles_are_uniform_with_the_set_aside_pile() -> None:
    """Every card of both decks goes to each of the six seats 13 times in 80 and to the
    set-aside pile 2 times in 80 (chi-square, fixed seed), and each is turned equally often."""
    rules = preset("double6")
    rng = random.Random("uniform double6")
    deals = 1500
    # By face: the copies are numbered by deal.number_copies, two of each face.
    counts = [[0] * 7 for _ in range(40)]
    turned = [0] * 40
    for _ in range(deals):
        deal = deal_cards(rules, 3, rng)
        for seat, hand in enumerate((*deal.hands, deal.set_aside(rules))):
            for card in mask_cards(hand):
                counts[card % 40][seat] += 1
        assert deal.trump_card is not None
        turned[deal.trump_card % 40] += 1
    shares = [2 * 13 / 80] * 6 + [2 * 2 / 80]
    chi2 = sum((row[h] - deals * shares[h]) ** 2 / (deals * shares[h])
               for row in counts for h in range(7))
    assert chi2 < chi_square_bound(40 * 6), chi2
    chi2 = sum((n - deals / 40) ** 2 / (deals / 40) for n in turned)
    assert chi2 < chi_square_bound(39), chi2


@pytest.mark.parametrize(("rules", "change", "message"), [
    (STANDARD, lambda h: [h[0] | 1 << 45, *h[1:]], "holds 11 cards"),
    (STANDARD, lambda h: [h[0] ^ (h[0] & -h[0]) | 1 << 45, *h[1:]], "second deck"),
    (preset("double8"), lambda h: [*h[:7], h[7] ^ (h[7] & -h[7]) | 1 << 85],
     "a third deck is dealt at a 2-deck table"),
    (preset("double6"), lambda h: [h[0] ^ (h[0] & -h[0]), *h[1:]], "holds 12 cards"),
    (preset("double8"), lambda h: [h[1] & -h[1] | h[0] ^ (h[0] & -h[0]), *h[1:]],
     "dealt twice"),
])
def test_validate_names_the_problem_at_larger_tables(rules: Rules, change: Any,
                                                     message: str) -> None:
    deal = deal_cards(rules, 1, random.Random(2))
    bad = Deal(deal.dealer, tuple(change(list(deal.hands))), deal.trump_card)
    with pytest.raises(DealError, match=message):
        bad.validate(rules)


def test_double6_any_two_cards_may_be_the_set_aside_pile() -> None:
    rules = preset("double6")
    deal = deal_cards(rules, 1, random.Random(2))
    hands = list(deal.hands)
    spare = mask_cards(deal.set_aside(rules))[0]
    low = hands[0] & -hands[0]
    hands[0] ^= low | 1 << spare  # a set-aside card dealt, a dealt card set aside
    other = Deal(deal.dealer, tuple(hands), deal.trump_card)
    other.validate(rules)
    assert other.set_aside(rules) == deal.set_aside(rules) ^ (low | 1 << spare)


@pytest.mark.parametrize("dealer", [4, -1, True, 1.0])
def test_dealing_from_a_seat_that_is_not_at_the_table_is_refused_by_name(dealer: Any) -> None:
    with pytest.raises(DealError, match="is not a seat of a 4-seat table"):
        deal_cards(STANDARD, dealer, random.Random(1))
