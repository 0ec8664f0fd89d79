"""The observation tensor holds what the seat's information state holds, and nothing else:
two deals that a seat cannot tell apart give it the same observation, information-state
tensor and strings, and every slice reads back as the information state says."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from core_support import TABLE_RULES

from sueca.cards import DECK_SIZE, held_copy, mask_cards
from sueca.deal import Deal, deal_cards
from sueca.env.actions import ActionCodec
from sueca.env.observation import ObservationEncoder
from sueca.env.table import AgentDeal
from sueca.infostate import InformationState
from sueca.rules import STANDARD, Rules, preset
from sueca.state import State, replay

TABLES: dict[str, Rules] = {
    "standard": STANDARD,
    "brazil": preset("brazil"),
    "italiana": preset("italiana"),
    "open_dealer": STANDARD.replace(open_hands="dealer_dummy"),
    "open": STANDARD.replace(open_hands=True),
    "weak_hand_redeal": preset("brazil").replace(weak_hand_redeal=True),
    **TABLE_RULES,
}


def played_deal(rules: Rules, seed: int, moves: int) -> AgentDeal:
    """A deal ``moves`` random legal moves in (fewer if it ends first)."""
    rng = random.Random(seed)
    deal = AgentDeal(rules, deal_cards(rules, rng.randrange(rules.players), rng))
    for _ in range(moves):
        if deal.over:
            break
        deal.apply(rng.choice(deal.legal()))
    return deal


def twin_world(state: State, seat: int, rng: random.Random) -> State:
    """The same moves, dealt again with the hidden cards drawn among the worlds consistent
    with what ``seat`` knows: a deal that seat cannot tell from ``state``."""
    info = state.information_state(seat)
    hands = info.hands_as_dealt(info.sample_world(rng))
    turned = state.deal.trump_card
    if turned is not None:  # with two decks the dealer may hold the other copy now
        turned = held_copy(hands[state.deal.dealer], turned)
    twin = replay(state.rules, Deal(state.deal.dealer, tuple(hands), turned), state.history)
    if state.rules.decks == 1:  # with two, the copies' ids differ, the faces do not
        assert twin.information_state(seat) == info
    return twin


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_seat_that_cannot_tell_two_deals_apart_observes_the_same(name: str) -> None:
    rules = TABLES[name]
    encoder = ObservationEncoder(rules)
    rng = random.Random(5)
    differed = 0
    for seed in range(6):
        deal = played_deal(rules, seed, moves=rng.randrange(rules.cards_in_play))
        state = deal.state
        for seat in range(rules.players):
            twin = twin_world(state, seat, rng)
            mine, theirs = state.information_state(seat), twin.information_state(seat)
            assert np.array_equal(encoder.observation(mine), encoder.observation(theirs))
            assert np.array_equal(encoder.information_state(mine),
                                  encoder.information_state(theirs))
            assert encoder.text(mine, history=True) == encoder.text(theirs, history=True)
            differed += twin.hands != state.hands
    if rules.open_hands is not True:  # face up, nothing is hidden
        assert differed, "no twin deal hid a different card: the test would prove nothing"


def test_what_the_seat_holds_changes_its_observation() -> None:
    """The converse, so the test above can fail: another hand, another observation."""
    encoder = ObservationEncoder(STANDARD)
    one = State(STANDARD, deal_cards(STANDARD, 0, random.Random(1)))
    two = State(STANDARD, deal_cards(STANDARD, 0, random.Random(2)))
    assert not np.array_equal(encoder.observation(one.information_state(1)),
                              encoder.observation(two.information_state(1)))


def faces(vector: np.ndarray, decks: int) -> dict[int, int]:
    return {face: round(float(v) * decks) for face, v in enumerate(vector) if v}


def face_counts(cards: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card % DECK_SIZE] = counts.get(card % DECK_SIZE, 0) + 1
    return counts


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_card_slice_reads_back_as_the_information_state(name: str) -> None:
    rules = TABLES[name]
    encoder = ObservationEncoder(rules)
    n = rules.players
    for seed in range(4):
        deal = played_deal(rules, seed, moves=7 * seed + 3)
        for seat in range(n):
            info: InformationState = deal.state.information_state(seat)
            vector = encoder.observation(info)

            def part(name: str, rel: int = 0, width: int = DECK_SIZE,
                     vector: np.ndarray = vector) -> np.ndarray:
                start = vector[encoder.slice(name)]
                return start[rel * width:(rel + 1) * width]

            assert faces(part("hand"), rules.decks) == face_counts(mask_cards(info.hand))
            for rel in range(1, n):
                other = (seat + rel) % n
                assert faces(part("known", rel - 1), rules.decks) == face_counts(
                    mask_cards(info.known[other]))
            by = info.played_by()
            for rel in range(n):
                other = (seat + rel) % n
                cards = [c for c, s in zip(info.plays, by, strict=True) if s == other]
                assert faces(part("played", rel), rules.decks) == face_counts(cards)
                assert part("hand_sizes", width=1, rel=rel)[0] == pytest.approx(
                    info.hand_sizes[other] / rules.hand_size)
            history = encoder.information_state(info)[encoder.size:]
            assert [int(np.argmax(row)) for row in history.reshape(-1, DECK_SIZE)
                    if row.any()] == [c % DECK_SIZE for c in info.plays]
            assert part("to_play", width=1, rel=(info.to_play - seat) % n)[0] == 1.0


def test_the_dummy_s_partner_sees_the_dummy_s_view_when_it_decides_for_it() -> None:
    rules = STANDARD.replace(dummy=2)
    deal = AgentDeal(rules, deal_cards(rules, 1, random.Random(3)))
    rng = random.Random(0)
    seen = 0
    while not deal.over:
        seat, _ = deal.asked()
        info, for_dummy = deal.view(seat)
        assert for_dummy == (deal.state.to_play == 2)
        assert info.seat == deal.state.to_play
        seen += for_dummy
        deal.apply(rng.choice(deal.legal()))
    assert seen == rules.hand_size


def test_the_action_numbering_is_one_range_for_every_table() -> None:
    for rules in TABLES.values():
        codec = ActionCodec(rules)
        assert codec.size == 143
        for index in range(codec.size):
            assert codec.index(codec.action(index)) == index
    with pytest.raises(ValueError, match="not an index from 0 to 142"):
        ActionCodec(STANDARD).action(143)


def test_docs_env_md_lists_the_slices_as_the_encoder_lays_them_out() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "env.md"
    assert ObservationEncoder(STANDARD).slices() in docs.read_text(encoding="utf-8")
