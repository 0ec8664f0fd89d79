"""The engine's speed tricks hold to their plain definitions: the sort-key shuffle is a shuffled
deck dealt by the rules, uniformly; the trick in progress worked out on demand matches the
reference; out-of-range card ids are refused like any other card that is not held."""

from __future__ import annotations

import random

import pytest
from core_support import RULE_SETS, ref_points, ref_trick_winner, snapshot

from sueca.cards import SUIT_LETTERS
from sueca.deal import _shuffle, deal_cards, deal_from_deck, shuffled_deck
from sueca.rules import STANDARD
from sueca.state import IllegalMoveError, State


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_deal_cards_deals_the_shuffled_deck(name: str) -> None:
    rules = RULE_SETS[name]
    for seed in range(40):
        dealer = seed % rules.players
        deck = shuffled_deck(rules, random.Random(seed))
        assert sorted(deck) == list(range(rules.deck_size))
        first = deal_from_deck(rules, dealer, deck)
        if rules.redeal_point_trump and rules.card_points[first.trump_card]:
            continue  # deal_cards shuffles again
        assert deal_cards(rules, dealer, random.Random(seed)) == first


@pytest.mark.parametrize("size", [40, 80])
def test_shuffle_positions_are_a_permutation(size: int) -> None:
    rng = random.Random(size)
    for _ in range(200):
        assert sorted(_shuffle(size).positions(rng)) == list(range(size))


def test_every_card_takes_every_deck_position_equally_often() -> None:
    """The full permutation, not only the seats: a 40 x 40 table of card against position
    (fixed seed, so it cannot flake; the bound is about four standard deviations)."""
    rng = random.Random("positions")
    shuffles = 4000
    counts = [[0] * 40 for _ in range(40)]
    for _ in range(shuffles):
        for index, position in enumerate(_shuffle(40).positions(rng)):
            counts[39 - index][position] += 1
    expected = shuffles / 40
    chi2 = sum((n - expected) ** 2 / expected for row in counts for n in row)
    df = 39 * 39
    assert chi2 < df + 4 * (2 * df) ** 0.5, chi2
    # And one pairwise check: card 0 lies above card 1 half of the time (sd about 22).
    above = 0
    for _ in range(2000):
        positions = _shuffle(40).positions(rng)
        above += positions[39] < positions[38]
    assert abs(above - 1000) < 4 * 22.4, above


@pytest.mark.parametrize("name", ["standard", "italiana_bonuses", "maria_de_copas"])
def test_the_trick_in_progress_matches_the_reference(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(f"trick in progress:{name}")
    for _ in range(20):
        state = State(rules, deal_cards(rules, rng.randrange(4), rng))
        trump = SUIT_LETTERS[state.trump]
        while not state.is_finished():
            trick = state.trick
            if not trick:
                assert (state.win_card, state.win_seat, state.trick_points) == (-1, -1, 0)
            else:
                winner = ref_trick_winner(trick, state.leader, trump, rules.players)
                assert state.win_seat == winner
                assert state.win_card == trick[(winner - state.leader) % rules.players]
                assert state.trick_points == sum(ref_points(c, rules) for c in trick)
                current = state.current_trick()
                assert current.points == state.trick_points and current.cards == tuple(trick)
            state.push(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("card", [-1, -40, 40, 79, 80, 10**9])
def test_out_of_range_cards_are_refused_and_change_nothing(card: int) -> None:
    state = State(STANDARD, deal_cards(STANDARD, 0, random.Random(1)))
    for _ in range(5):
        state.push(state.legal_moves()[0])
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="is not a card") as caught:
        state.push(card)
    assert caught.value.reason == "not_in_hand"
    assert snapshot(state) == before


def test_pop_through_whole_deals_restores_every_field() -> None:
    """push to the end, pop to the start: every intermediate snapshot comes back, including
    the private fields that the fast paths keep (the led suit, the trick points)."""
    rng = random.Random("pop all")
    for rules in RULE_SETS.values():
        state = State(rules, deal_cards(rules, rng.randrange(4), rng))
        history = []
        while not state.is_finished():
            history.append(snapshot(state))
            state.push(rng.choice(state.legal_moves()))
        for before in reversed(history):
            state.pop()
            assert snapshot(state) == before
