"""Information states: what a seat may know, and worlds sampled from it.

Hidden information must never leak, and every sampled world must be one the seat cannot rule
out: its own hand, the cards it knows, the hand sizes, the suits each seat has shown it lacks,
and no card already played.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest
from core_support import (
    RULE_SETS,
    SWEEP,
    TABLE_RULES,
    play_auction,
    random_state,
    ref_suit,
    snapshot,
)
from hypothesis import given
from hypothesis import strategies as st

from sueca.actions import AskBid, AskCall, AskCard, AskRedeal, Redeal
from sueca.cards import (
    DECK_SIZE,
    SUIT_LETTERS,
    CardMask,
    card_face,
    mask_cards,
    parse_card,
    parse_cards,
)
from sueca.deal import Deal, deal_cards
from sueca.infostate import (
    InformationState,
    _WorldSampler,
    common_information,
    common_knowledge,
    common_teams,
)
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State
from sueca.worlds import sample_state


def suit_mask(suits: int) -> CardMask:
    """The cards of every suit whose bit is set in ``suits``."""
    return sum(((1 << 10) - 1) << (10 * s) for s in range(4) if suits >> s & 1)


def allowed_known(state: State, seat: int, other: int) -> CardMask:
    """The cards of ``other``'s hand that ``seat`` may see (RULES.md, docs/rules.md)."""
    rules = state.rules
    allowed = 0
    dealer = state.deal.dealer
    if other == seat or rules.open_hands is True or (
            rules.open_hands == "dealer_dummy" and other in (dealer, rules.partner_of(dealer))):
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
    if rules.open_hands is True:
        assert list(info.known) == state.hands
    elif rules.open_hands == "dealer_dummy":  # the seeds' à Descoberta
        dealer = state.deal.dealer
        for open_seat in (dealer, rules.partner_of(dealer)):
            assert info.known[open_seat] & state.hands[open_seat] == state.hands[open_seat]
    assert info.hand_sizes == tuple(h.bit_count() for h in state.hands)
    assert list(info.plays) == state.plays and list(info.trick) == state.trick
    assert list(info.trick_winners) == state.trick_winners
    assert info.to_play == state.to_play and info.leader == state.leader
    assert info.dealer == state.deal.dealer and info.trump_card == state.deal.trump_card
    # Taken tricks and their points: both where the rules allow reviewing or the deal is over.
    reviewable = rules.review_tricks or state.is_finished()
    assert info.past_tricks == (tuple(state.tricks()) if reviewable else ())
    assert len(info.points_taken) == (2 if reviewable else 0)
    if reviewable and None not in info.teams:
        assert list(info.points_taken) == state.team_points()
    assert info.played_by() == state.played_by()
    assert info.current_trick() == state.current_trick()
    if rules.decks == 1:  # two decks renumber copies as they are played
        assert info.hands_as_dealt(state.hands) == list(state.deal.hands)
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
    assert tuple(sampled.seat_points) == info.seat_points
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
                check_sampled_state(info, sample_state(info, rng))
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
                check_sampled_state(info, sample_state(info, rng))


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
            assert info.is_void(state.played_by()[index], state.trump)
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


def test_common_teams_are_the_sides_every_seat_knows() -> None:
    class Info:
        def __init__(self, teams: tuple[int | None, ...]) -> None:
            self.teams = teams

    infos = [Info((0, None, 1)), Info((0, 1, 1)), Info((0, None, 1))]
    assert common_teams(infos) == (0, None, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("review", [False, True])
def test_common_information_keeps_the_secret_partner_and_his_points(review: bool) -> None:
    """What every seat knows at a bidding table: the declarer's side only until the called
    card is played (the partner's points count for no side), every side after; the points
    shown where tricks may be reviewed, and by everyone once the deal is over."""
    rules = preset("italiana5").replace(review_tricks=review)
    rng = random.Random(f"common {review}")
    for _ in range(20):
        state = State(rules, deal_cards(rules, rng.randrange(5), rng))
        play_auction(state, rng)
        contract = state.contract
        assert contract is not None
        for _ in range(rng.choice([rng.randrange(40), 40])):
            state.push(rng.choice(state.legal_moves()))
        infos = [state.information_state(s) for s in range(5)]
        common = common_information(infos, 2)
        assert common.known == common_knowledge(infos) and common.hand == common.known[2]
        if contract.called_card in state.plays:
            assert common.teams == state.teams
            expected = tuple(state.team_points())
        else:
            assert common.teams == tuple(0 if s == contract.declarer else None
                                         for s in range(5))
            expected = (state.seat_points[contract.declarer], 0)
        assert common.points_taken == (expected if review or state.is_finished() else ())


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


# ---- the world sampler at every table: exact and uniform ---------------------------------


def table_worlds(info: InformationState) -> list[tuple[CardMask, ...]]:
    """Every consistent world at any table, by brute force: each unseen card goes to a seat
    that still needs cards and has not shown a void in its suit, or to the set-aside pile."""
    n = info.rules.players
    need = [info.hand_sizes[s] - info.known[s].bit_count() for s in range(n)]
    need.append(info.rules.set_aside)
    voids = [*info.voids, 0]
    hands = [*info.known, 0]
    cards = mask_cards(info.unseen)
    worlds: list[tuple[CardMask, ...]] = []

    def place(index: int) -> None:
        if index == len(cards):
            worlds.append(tuple(hands[:n]))
            return
        card = cards[index]
        suit = card_face(card) // 10
        for holder in range(n + 1):
            if need[holder] and not voids[holder] >> suit & 1:
                need[holder] -= 1
                hands[holder] |= 1 << card
                place(index + 1)
                hands[holder] ^= 1 << card
                need[holder] += 1

    place(0)
    assert len(set(worlds)) == len(worlds)
    return worlds


def assert_sampler_exact(info: InformationState, rng: random.Random,
                         per_world: int = 60) -> int:
    """The sampler counts the consistent worlds exactly (its programme counts the ways to
    share the cards among groups of interchangeable holders; each such way stands for the
    same number of splits inside the groups) and draws each about equally often."""
    worlds = table_worlds(info)
    sampler = _WorldSampler(info)
    splits_inside = 1
    for members in sampler.groups:
        total = sum(sampler.seat_need[h] for h in members)
        splits_inside *= math.factorial(total) // math.prod(
            math.factorial(sampler.seat_need[h]) for h in members)
    assert sampler._count(0, sampler.need) * splits_inside == len(worlds)
    draws = per_world * len(worlds)
    counts = Counter(info.sample_world(rng) for _ in range(draws))
    assert set(counts) == set(worlds), "every consistent world must come up, and only those"
    chi2 = sum((counts[w] - per_world) ** 2 / per_world for w in worlds)
    df = len(worlds) - 1
    assert chi2 < df + 4 * math.sqrt(2 * df) + 4, (chi2, df)
    return len(worlds)


def small_positions(rules: Rules, rng: random.Random, count: int, lo: int = 6,
                    hi: int = 80) -> list[tuple[State, InformationState]]:
    """Positions of random games, near their end, whose seat has ``lo`` to ``hi`` worlds
    to choose among, those with voids first."""
    found: list[tuple[State, InformationState]] = []
    for _ in range(300 + 100 * count):
        state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
        play_auction(state, rng)
        end = rules.cards_in_play - rng.randrange(1, 2 * rules.players)
        for _ in range(end):
            state.push(rng.choice(state.legal_moves()))
        seat = rng.randrange(rules.players)
        info = state.information_state(seat)
        if info.unseen.bit_count() > 9:
            continue
        worlds = len(table_worlds(info))
        if lo <= worlds <= hi and (any(info.voids) or rng.random() < 0.3):
            assert tuple(state.hands) in set(table_worlds(info))
            found.append((state, info))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} small positions found")


@pytest.mark.parametrize("name", ["double8", "double6", "italiana5", "dummy", "double6_dummy",
                                  "italiana5_variants"])
def test_sampling_is_exact_at_every_table(name: str) -> None:
    rng = random.Random(f"exact:{name}")
    for _, info in small_positions(TABLE_RULES[name], rng, count=1, hi=40):
        assert_sampler_exact(info, rng, per_world=40)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in sorted(TABLE_RULES) if not n.endswith("_open")])
def test_sampling_is_exact_at_many_positions(name: str) -> None:
    rng = random.Random(f"many exact:{name}")
    for _, info in small_positions(TABLE_RULES[name], rng, count=6 * SWEEP, hi=150):
        assert_sampler_exact(info, rng, per_world=100)


def built_position(rules: Rules, seat: int, hand: str, unseen: str,
                   sizes: dict[int, int], voids: dict[int, str],
                   known: dict[int, str] | None = None) -> InformationState:
    """An information state of ``seat`` made by hand for the sampler: it holds ``hand``, the
    other seats hold ``sizes`` cards among ``unseen`` (the rest of the set-aside pile's too),
    ``known`` cards of theirs are known, ``voids`` are suit letters, and every other card of
    the decks has been played. (A double-deck face named twice is both copies.)"""

    def mask(text: str) -> CardMask:
        out = 0
        for card in parse_cards(text):
            out |= 1 << (card + DECK_SIZE if out >> card & 1 else card)
        return out

    known_masks = [0] * rules.players
    known_masks[seat] = mask(hand)
    for other, text in (known or {}).items():
        known_masks[other] = mask(text)
    hidden = mask(unseen)
    deck = (1 << rules.deck_size) - 1
    played = deck & ~hidden & ~sum_masks(known_masks)
    sizes_all = [sizes.get(s, 0) + known_masks[s].bit_count() for s in range(rules.players)]
    state = State(rules, deal_cards(rules, 0, random.Random(0)))
    base = state.information_state(seat)
    return dataclasses.replace(
        base,
        hand=known_masks[seat],
        known=tuple(known_masks),
        hand_sizes=tuple(sizes_all),
        voids=tuple(sum(1 << SUIT_LETTERS.index(ch) for ch in voids.get(s, ""))
                    for s in range(rules.players)),
        plays=tuple(mask_cards(played)),
    )


@pytest.mark.parametrize(("name", "position"), [
    # Six seats, two cards set aside: seats 1 and 2 share their voids (one group of two), the
    # pile and seat 5 void in nothing share another; seat 4 alone lacks spades. Two copies of
    # the ace of hearts are among the unseen cards.
    ("double6", dict(seat=0, hand="2C 3C", unseen="AH AH 7S KS 5D 6D 2H",
                     sizes={1: 1, 2: 1, 4: 1, 5: 2}, voids={1: "SD", 2: "SD", 4: "S", 3: "SHDC"})),
    # Eight seats, three signatures, one seat void in everything but clubs.
    ("double8", dict(seat=3, hand="AS", unseen="2S 3S 2H 2H 4D 5D 7C",
                     sizes={0: 1, 1: 1, 2: 1, 4: 2, 6: 1, 7: 1},
                     voids={0: "H", 1: "H", 2: "SHD", 5: "SHDC"})),
    # Five players, the declarer's partner unknown: only voids constrain.
    ("italiana5", dict(seat=1, hand="AC 2C", unseen="AS 7S KS AH 7H KH 2D",
                       sizes={0: 2, 2: 2, 3: 2, 4: 1}, voids={0: "S", 4: "H"})),
    # Three players: the dummy's hand (seat 2) is known, the others are not.
    ("dummy", dict(seat=1, hand="AC 2C", unseen="AS 7S KS AH 2D 3D",
                   sizes={0: 3, 3: 3}, voids={3: "H"}, known={2: "QH JH"})),
])
def test_sampling_is_exact_on_hand_built_positions(name: str, position: dict[str, Any]) -> None:
    info = built_position(TABLE_RULES[name], **position)
    rng = random.Random(f"built:{name}")
    worlds = assert_sampler_exact(info, rng, per_world=40)
    assert 10 <= worlds <= 200, worlds
    for world in (info.sample_world(rng) for _ in range(20)):
        check_world_at_table(info, world)


def check_world_at_table(info: InformationState, world: tuple[CardMask, ...]) -> None:
    rules = info.rules
    union = 0
    for seat, hand in enumerate(world):
        assert hand & union == 0
        union |= hand
        assert hand.bit_count() == info.hand_sizes[seat]
        assert hand & info.known[seat] == info.known[seat]
        assert not any(info.voids[seat] >> (card_face(c) // 10) & 1 for c in mask_cards(hand))
    pile = ((1 << rules.deck_size) - 1) & ~info.played & ~union
    assert pile.bit_count() == rules.set_aside


# ---- the table rules of issue 15: à Descoberta, no looking back, one request -----------------


def test_dealer_dummy_shows_the_dealer_and_his_partner_to_everyone() -> None:
    """open_hands "dealer_dummy" (the seeds' à Descoberta): the dealer's hand and his
    partner's are face up to every seat, the other two stay hidden."""
    rules = STANDARD.replace(open_hands="dealer_dummy")
    state = random_state(rules, random.Random(8), plays=13, dealer=1)
    for seat in range(4):
        info = check_info(state, seat)
        for other in range(4):
            if other in (1, 3) or other == seat:
                assert info.known[other] & state.hands[other] == state.hands[other]
            else:
                assert info.known[other] == 0


def test_no_looking_back_gathers_the_trick_the_moment_it_is_taken() -> None:
    """no_looking_back: no seat is shown the trick just taken, not even until the next lead;
    off, it stays on the cloth until then. Everything else a seat knows is the same."""
    rules = STANDARD.replace(no_looking_back=True)
    rng = random.Random(2)
    state = State(rules, deal_cards(rules, 0, rng))
    plain = State(STANDARD, state.deal)
    while not state.is_finished():
        card = rng.choice(state.legal_moves())
        state.push(card)
        plain.push(card)
        for seat in range(4):
            info = state.information_state(seat)
            assert info.last_trick() is None
            other = plain.information_state(seat)
            assert dataclasses.replace(other, rules=rules) == info
            if not state.trick and state.trick_winners:
                assert other.last_trick() == plain.tricks()[-1]


@pytest.mark.parametrize("name", [*sorted(RULE_SETS), *sorted(TABLE_RULES)])
def test_the_request_is_what_the_seat_may_do(name: str) -> None:
    """InformationState.request(): the one value each front-end renders: the seat asked its
    legal cards (nothing else is asked of another seat, nor once the deal is over), the bid
    range, the call, or the redeal question with its points and limit."""
    rules = {**RULE_SETS, **TABLE_RULES}[name]
    rng = random.Random(name)
    for _ in range(3):
        state = State(rules, deal_cards(rules, rng.randrange(rules.players), rng))
        while True:
            for seat in range(rules.players):
                info = state.information_state(seat)
                request = info.request()
                if seat != state.to_play or state.is_finished():
                    assert request is None
                    continue
                assert request is not None and request.seat == seat
                if state.phase == "play":
                    assert request == AskCard(seat, state.legal_moves())
                elif state.phase == "bidding":
                    # RULES.md section 4: 61 to 120, above the highest bid where bids rise.
                    highest = max(state.bids, default=0)
                    lowest = max(61, highest + 1) if rules.bid_must_rise else 61
                    assert request == AskBid(seat, lowest, 120)
                    assert request.may_bid == (lowest <= 120)
                elif state.phase == "calling":
                    assert request == AskCall(seat, rules.deck_size)
                else:
                    assert type(request) is AskRedeal
                    assert request.may_ask == state.may_ask_redeal(seat)
                    assert request.may_ask == (request.points < request.limit)
            moves = [a for a in state.legal_actions(state.to_play) if type(a) is not Redeal
                     or not a.ask]
            if state.is_finished() or not moves:
                break
            state.apply(state.to_play, rng.choice(moves))
