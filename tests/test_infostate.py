"""Information states: what a seat may know, and worlds sampled from it.

Hidden information must never leak, and every sampled world must be one the seat cannot rule
out: its own hand, the cards it knows, the hand sizes, the suits each seat has shown it lacks,
and no card already played.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from core_support import RULE_SETS, SWEEP, random_state, ref_suit, snapshot
from hypothesis import given
from hypothesis import strategies as st

from sueca.cards import SUIT_LETTERS, CardMask, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState, common_knowledge
from sueca.rules import STANDARD, preset
from sueca.state import State


def suit_mask(suits: int) -> CardMask:
    """The cards of every suit whose bit is set in ``suits``."""
    return sum(((1 << 10) - 1) << (10 * s) for s in range(4) if suits >> s & 1)


def allowed_known(state: State, seat: int, other: int) -> CardMask:
    """The cards of ``other``'s hand that ``seat`` may see (RULES.md, docs/rules.md)."""
    rules = state.rules
    allowed = 0
    if other == seat or rules.open_hands:
        allowed = state.hands[other]
    if state.trump_card_held() and other == state.deal.dealer:
        allowed |= 1 << state.deal.trump_card
    dummy = rules.dummy
    if dummy is not None:
        controller = rules.partner_of(dummy)
        if other == dummy and (state.plays or seat == controller):
            allowed |= state.hands[dummy]  # face up after the lead; its player sees it always
        if seat == dummy and other == controller:
            allowed |= state.hands[controller]  # the dummy's decisions are its partner's
    return allowed


def check_info(state: State, seat: int) -> InformationState:
    """The information state of ``seat`` is true, complete where it must be, and leaks
    nothing."""
    rules = state.rules
    info = state.information_state(seat)
    assert info.seat == seat and info.hand == state.hands[seat]
    assert info.known[seat] & state.hands[seat] == state.hands[seat]
    for other in range(rules.players):
        known = info.known[other]
        assert known & ~state.hands[other] == 0, "known cards must really be there"
        assert known & ~allowed_known(state, seat, other) == 0, (
            f"seat {seat} sees {mask_cards(known & ~allowed_known(state, seat, other))} "
            f"of seat {other}"
        )
        assert state.hands[other] & suit_mask(info.voids[other]) == 0, "voids must be true"
    if state.trump_card_held():
        assert info.known[state.deal.dealer] >> state.deal.trump_card & 1
        assert info.trump_card_held
    if rules.open_hands:
        assert list(info.known) == state.hands
    assert info.hand_sizes == tuple(h.bit_count() for h in state.hands)
    assert list(info.plays) == state.plays and list(info.trick) == state.trick
    assert list(info.trick_winners) == state.trick_winners
    assert info.to_play == state.to_play and info.leader == state.leader
    assert info.dealer == state.deal.dealer and info.trump_card == state.deal.trump_card
    assert info.past_tricks == (tuple(state.tricks()) if rules.review_tricks else ())
    deck = (1 << rules.deck_size) - 1
    hidden = deck & ~state.played_mask() & ~sum_masks(info.known)
    assert info.unseen == hidden
    if seat == state.to_play and not state.is_finished():
        assert info.legal_moves() == state.legal_moves()
    else:
        assert info.legal_moves() == ()
    return info


def sum_masks(masks: tuple[CardMask, ...] | list[CardMask]) -> CardMask:
    out = 0
    for mask in masks:
        out |= mask
    return out


def check_world(info: InformationState, world: tuple[CardMask, ...]) -> None:
    rules = info.rules
    assert len(world) == rules.players
    assert world[info.seat] == info.hand
    union = 0
    for seat, hand in enumerate(world):
        assert hand & union == 0, "a card in two hands"
        union |= hand
        assert hand.bit_count() == info.hand_sizes[seat]
        assert hand & info.known[seat] == info.known[seat]
        assert hand & suit_mask(info.voids[seat]) == 0
    assert union == ((1 << rules.deck_size) - 1) & ~info.played


def check_sampled_state(info: InformationState, sampled: State) -> None:
    check_world(info, tuple(sampled.hands))
    assert sampled.plays == list(info.plays)
    assert sampled.trick_winners == list(info.trick_winners)
    assert sampled.to_play == info.to_play and sampled.trick == list(info.trick)
    assert tuple(sampled.team_points()) == info.points_taken
    assert sampled.deal.trump_card == info.trump_card and sampled.deal.dealer == info.dealer
    assert sampled.deal.hands[info.dealer] >> info.trump_card & 1
    assert sampled.information_state(info.seat).hand == info.hand


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_information_states_leak_nothing_and_worlds_fit_them(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(f"info:{name}")
    for _ in range(6):
        state = random_state(rules, rng)
        before = snapshot(state)
        for seat in range(rules.players):
            info = check_info(state, seat)
            for _ in range(3):
                check_world(info, info.sample_world(rng))
            if not state.is_finished():
                check_sampled_state(info, info.sample_state(rng))
        assert snapshot(state) == before, "taking information states changed the state"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["italiana", "italiana_bonuses", "italiana_dummy", "standard",
                                  "dummy", "open_hands"])
def test_many_positions_sampled(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(f"many infos:{name}")
    for _ in range(60 * SWEEP):
        state = random_state(rules, rng)
        for seat in range(rules.players):
            info = check_info(state, seat)
            check_world(info, info.sample_world(rng))
            if not state.is_finished():
                check_sampled_state(info, info.sample_state(rng))


@given(seed=st.integers(0, 2**32), plays=st.integers(0, 40), seat=st.integers(0, 3))
def test_must_trump_voids_are_inferred_and_respected(seed: int, plays: int, seat: int) -> None:
    rules = preset("italiana")
    state = random_state(rules, random.Random(seed), plays=plays)
    info = check_info(state, seat)
    trump = SUIT_LETTERS[state.trump]
    # Every discard of a non-trump on another suit shows a void in the suit led and in trumps.
    for index, card in enumerate(state.plays):
        led = state.plays[index - index % 4]
        if ref_suit(card) not in (ref_suit(led), trump):
            assert info.is_void(state.seat_of_play(index), state.trump)
    check_world(info, info.sample_world(random.Random(seed)))


def test_the_dealers_turned_card_is_known_to_all_until_played() -> None:
    hands = [
        "AS 7S KS JS QS 6S 5S 4S 3S 2C",
        "AH 7H KH JH QH 6H 5H 4H 3H 2S",
        "AD 7D KD JD QD 6D 5D 4D 3D 2H",
        "AC 7C KC JC QC 6C 5C 4C 3C 2D",
    ]
    deal = Deal.from_cards(3, [[parse_card(t) for t in h.split()] for h in hands],
                           parse_card("2D"))
    state = State(STANDARD, deal)
    for seat in range(3):
        assert state.information_state(seat).known[3] == 1 << parse_card("2D")
    for card in ("3S", "2S", "2H"):
        state.push(parse_card(card))
    state.push(parse_card("2D"))
    for seat in range(3):
        assert state.information_state(seat).known[3] == 0


def test_dummy_is_face_up_after_the_opening_lead() -> None:
    rules = STANDARD.replace(dummy=3)  # seat 1 plays seat 3's cards
    state = random_state(rules, random.Random(4), plays=0, dealer=2)
    assert state.information_state(0).known[3] & ~(1 << state.deal.trump_card) == 0
    assert state.information_state(1).known[3] == state.hands[3]
    state.push(state.legal_moves()[0])
    for seat in range(4):
        assert state.information_state(seat).known[3] == state.hands[3]
    assert state.information_state(0).known[1] == 0


def brute_force_worlds(info: InformationState) -> list[tuple[CardMask, ...]]:
    """Every assignment of the unseen cards to the other seats that fits the information."""
    unseen = mask_cards(info.unseen)
    needs = [info.hand_sizes[s] - info.known[s].bit_count() for s in range(4)]
    slots = [s for s in range(4) for _ in range(needs[s])]
    worlds = set()
    for order in set(itertools.permutations(slots)):
        hands = list(info.known)
        ok = True
        for card, seat in zip(unseen, order, strict=True):
            if info.voids[seat] >> (card // 10) & 1:
                ok = False
                break
            hands[seat] |= 1 << card
        if ok:
            worlds.add(tuple(hands))
    return sorted(worlds)


def test_sampling_is_uniform_on_a_small_position() -> None:
    """On a position with a few dozen consistent worlds (some voids known), every world comes
    up, about equally often: a chi-square test, with a fixed seed so it cannot flake."""
    rng = random.Random(11)
    for _ in range(500):
        state = random_state(preset("italiana"), rng, plays=29)
        info = state.information_state(state.to_play)
        worlds = brute_force_worlds(info)
        if 12 <= len(worlds) <= 60 and any(info.voids):
            break
    else:
        pytest.fail("no small position found")
    assert tuple(state.hands) in worlds
    per_world = 150
    draws = per_world * len(worlds)
    counts = Counter(info.sample_world(rng) for _ in range(draws))
    assert set(counts) == set(worlds), "every consistent world must come up, and only those"
    chi2 = sum((counts[w] - per_world) ** 2 / per_world for w in worlds)
    df = len(worlds) - 1
    # About four standard deviations of the chi-square distribution above its mean.
    assert chi2 < df + 4 * math.sqrt(2 * df), (chi2, df)


def test_common_knowledge_is_what_every_seat_knows() -> None:
    from sueca.deal import deal_cards

    deal = deal_cards(STANDARD, 2, random.Random(3))
    state = State(STANDARD, deal)
    infos = [state.information_state(s) for s in range(4)]
    assert common_knowledge(infos) == (0, 0, 1 << deal.trump_card, 0)  # the turned card
    open_rules = STANDARD.replace(open_hands=True)
    open_state = State(open_rules, deal)
    assert common_knowledge([open_state.information_state(s) for s in range(4)]) == deal.hands


def test_last_trick_is_on_the_cloth_until_the_next_lead_and_counts_the_bonus() -> None:
    rules = STANDARD.replace(last_trick_bonus=10)
    state = State(rules, deal_cards(rules, dealer=0, rng=random.Random(4)))
    for _ in range(3):
        state.push(state.legal_moves()[0])
    assert state.information_state(1).last_trick() is None  # a trick still in progress
    while not state.is_finished():
        state.push(state.legal_moves()[0])
        info = state.information_state(2)
        done = info.last_trick()
        if state.trick:
            assert done is None
        else:
            expected = state.tricks()[-1]
            assert done == expected  # same leader, cards, winner and points as the referee's
    assert done is not None and done.points == state.tricks()[-1].points
    assert done.points == sum(rules.card_points[c] for c in done.cards) + 10
