"""Matches: the dealer passes on, the score accumulates to the target, nothing after the end."""

from __future__ import annotations

import itertools
import random

import pytest
from core_support import RULE_SETS, any_rules, sweep_state
from hypothesis import given
from hypothesis import strategies as st

from sueca.cards import mask_cards
from sueca.deal import DealError, deal_cards
from sueca.match import Match, MatchOverError
from sueca.record import GameRecord, check
from sueca.rules import STANDARD, Rules
from sueca.state import State


def play_random(state: State, rng: random.Random) -> State:
    """Play the deal out at random; with weak_hand_redeal a seat that may ask does so half the
    time (the deal then ends annulled, unplayed)."""
    while state.phase == "redeal":
        state.answer_redeal(state.may_ask_redeal(state.to_play) and rng.random() < 0.5)
    if state.redeal_by is not None:
        return state
    while not state.is_finished():
        state.push(rng.choice(state.legal_moves()))
    return state


def test_the_deal_passes_to_the_next_seat() -> None:
    match = Match(STANDARD, first_dealer=2)
    rng = random.Random(1)
    dealers = []
    for _ in range(3):
        state = match.new_deal(rng)
        dealers.append(state.deal.dealer)
        match.finish_deal(play_random(state, rng))
    assert dealers == [2, 3, 0]
    assert match.dealer == 1


def test_new_deal_is_reproducible() -> None:
    one = Match(STANDARD).new_deal(random.Random(9))
    two = Match(STANDARD).new_deal(random.Random(9))
    assert one.deal == two.deal


def test_bad_deals_are_refused_and_change_nothing() -> None:
    match = Match(STANDARD, first_dealer=0)
    with pytest.raises(ValueError, match="deal by seat 1, but seat 0 deals now"):
        match.start_deal(deal_cards(STANDARD, 1, random.Random(1)))
    deal = deal_cards(STANDARD, 0, random.Random(1))
    broken = type(deal)(0, (deal.hands[1], deal.hands[0], deal.hands[2], deal.hands[3]),
                        deal.trump_card)
    with pytest.raises(DealError, match="not in the dealer's hand"):
        match.start_deal(broken)
    assert match.deals == [] and match.results == [] and match.dealer == 0
    state = match.start_deal(deal)
    with pytest.raises(RuntimeError, match="not finished"):
        match.start_deal(deal_cards(STANDARD, 0, random.Random(2)))
    with pytest.raises(ValueError, match="not finished"):
        match.finish_deal(state)
    assert match.results == [] and match.score == [0, 0]


def test_nothing_is_dealt_or_scored_after_the_match_is_won() -> None:
    match = Match(STANDARD, first_dealer=3)
    state = sweep_state(STANDARD, 3)
    match.start_deal(state.deal)
    result = match.finish_deal(state)
    assert result.game_points == (4, 0)
    assert match.is_over and match.winner == 0 and match.score == [4, 0]
    with pytest.raises(MatchOverError, match="team 0 has won"):
        match.new_deal(random.Random(1))
    with pytest.raises(MatchOverError):
        match.finish_deal(sweep_state(STANDARD, 0))
    assert match.score == [4, 0] and len(match.results) == 1


def play_random_match(rules: Rules, seed: int) -> tuple[Match, list[State]]:
    rng = random.Random(seed)
    match = Match(rules, first_dealer=rng.randrange(4))
    states = []
    while not match.is_over:
        assert len(states) < 200, "the match does not end"
        state = play_random(match.new_deal(rng), rng)
        if state.redeal_by is None:
            match.finish_deal(state)
        else:
            match.annul_deal(state)  # nobody scores; the same dealer deals again
        states.append(state)
    return match, states


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_matches_end_with_the_right_winner(name: str) -> None:
    for seed in range(3):
        check_random_match(RULE_SETS[name], seed)


@given(rules=any_rules, seed=st.integers(0, 2**32))
def test_matches_under_any_combination_of_options(rules: Rules, seed: int) -> None:
    check_random_match(rules.replace(match_target=min(rules.match_target, 300)), seed)


def check_random_match(rules: Rules, seed: int) -> None:
    match, states = play_random_match(rules, seed)
    winner = match.winner
    assert winner is not None
    last = match.results[-1]
    if last.wins_match is None:
        assert match.score[winner] >= rules.match_target
        assert match.score[winner] > match.score[1 - winner]
    totals = [sum(r.game_points[t] for r in match.results) for t in (0, 1)]
    assert totals == match.score
    assert all(s >= 0 for s in match.score)
    # Before the last deal nobody had won.
    before = [s - g for s, g in zip(match.score, last.game_points, strict=True)]
    assert max(before) < rules.match_target or rules.scoring == "pontos"
    played = [s for s in states if s.redeal_by is None]
    dealers = [s.deal.dealer for s in played]
    assert dealers == [(match.first_dealer + i) % 4 for i in range(len(played))]
    for annulled, after in itertools.pairwise(states):
        if annulled.redeal_by is not None:  # dealt again by the same dealer
            assert after.deal.dealer == annulled.deal.dealer
    report = check(GameRecord.from_states(rules, match.first_dealer, states))
    assert report["valid"], report["error"]
    assert report["match"] == {"score": match.score, "winner": winner}


def test_a_deal_denounced_after_its_last_card_is_scored_again() -> None:
    """renuncia: a denunciation made once the last card is down, before the next deal, scores
    that deal again from the match's score before it; no other deal may be scored again."""
    rules = STANDARD.replace(renuncia=True, match_target=50)
    rng = random.Random(6)
    match = Match(rules, first_dealer=0)
    first = play_random(match.new_deal(rng), rng)
    match.finish_deal(first)
    second = match.new_deal(rng)
    while not second.is_finished():  # team 0 plays any card it holds (revokes are played)
        seat = second.to_play
        cards = mask_cards(second.hands[seat]) if seat % 2 == 0 else second.legal_moves()
        second.push(rng.choice(cards))
    assert second.revokes
    plain = match.finish_deal(second)
    before = [a - b for a, b in zip(match.score, plain.game_points, strict=True)]
    revoker = second.played_by()[second.revokes[0]]
    second.denounce(rules.partner_of(revoker))  # the revoker's own side: wrong
    wrong = match.rescore_last(second)
    assert len(match.results) == 2 and match.results[-1] is wrong
    expected = list(plain.game_points)
    expected[1 - rules.teams[revoker]] += rules.false_renuncia_penalty
    assert list(wrong.game_points) == expected
    assert match.score == [a + b for a, b in zip(before, expected, strict=True)]
    second.denounce((revoker + 1) % 4)  # the other side: correct
    proven = match.rescore_last(second)
    assert proven.revoked_by == rules.teams[revoker]
    assert match.score == [a + b for a, b in zip(before, proven.game_points, strict=True)]
    with pytest.raises(ValueError, match="only the deal just finished"):
        match.rescore_last(first)
    match.new_deal(rng)
    with pytest.raises(ValueError, match="only the deal just finished"):
        match.rescore_last(second)
