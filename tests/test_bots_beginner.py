"""The beginner level's bot (sueca.bots.beginner): a new player's mistakes, never a random
card, and a clear loss to the intermediate level."""

from __future__ import annotations

import random

import pytest

from sueca.arena.tournament import run_arena
from sueca.bots import make_bot
from sueca.bots.beginner import BeginnerBot
from sueca.bots.heuristic import HeuristicBot
from sueca.bots.levels import BY_NAME
from sueca.cards import card_rank, card_suit
from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.state import State

ACE, SEVEN, KING = 9, 8, 7


def _states(deals: int) -> list[State]:
    """Every position of some heuristic deals."""
    out = []
    heuristic = HeuristicBot(0)
    for seed in range(deals):
        state = State(STANDARD, deal_cards(STANDARD, seed % 4, random.Random(seed)))
        while not state.is_finished():
            out.append(state.copy())
            state.push(heuristic.choose(state.information_state(state.to_play)))
    return out


def test_every_card_is_the_heuristics_or_a_named_mistake() -> None:
    beginner = BeginnerBot(seed=1, mistakes=1.0)
    heuristic = HeuristicBot(seed=1)
    mistakes = set()
    for state in _states(6):
        info = state.information_state(state.to_play)
        card, reason = beginner.explain(info)
        assert card in info.legal_moves()
        if reason.startswith("beginner:"):
            mistakes.add(reason.split(" ")[1])
        else:
            assert (card, reason) == heuristic.explain(info)
    # Each kind of mistake turns up: an honour led early, a ruff forgotten (or an ace led
    # into a void), a trick taken high.
    assert {"leads", "plays"} <= mistakes and mistakes & {"throws", "cashes"}


def test_it_leads_a_king_while_its_ace_and_seven_are_out() -> None:
    beginner = BeginnerBot(seed=1, mistakes=1.0)
    found = 0
    for state in _states(10):
        info = state.information_state(state.to_play)
        if info.trick:
            continue
        card, reason = beginner.explain(info)
        if "leads the" in reason:
            suit = card_suit(card)
            out = [c for c in range(40) if card_suit(c) == suit
                   and not info.played >> c & 1 and not info.hand >> c & 1]
            assert any(card_rank(c) in (ACE, SEVEN) for c in out)
            assert card_rank(card) <= KING
            found += 1
    assert found


def test_without_mistakes_it_is_the_heuristic() -> None:
    plain = make_bot("novice:mistakes=0", seed=4)
    heuristic = HeuristicBot(seed=4)
    for state in _states(3):
        info = state.information_state(state.to_play)
        assert plain.choose(info) == heuristic.choose(info)
    with pytest.raises(ValueError, match="mistakes"):
        make_bot("novice:mistakes=2")


def test_the_beginner_loses_to_the_intermediate_level_clearly() -> None:
    assert BY_NAME["beginner"].spec == "novice"
    result = run_arena(STANDARD, ["intermediate", "beginner"], deals=60, seed=3, workers=1)
    pair = result.pairs[0]
    lo, _ = pair.margin_ci95
    assert pair.margin > 5 and lo > 0
    # ...and is no random player: it beats one by more than the intermediate's margin over it.
    against_random = run_arena(STANDARD, ["beginner", "random"], deals=30, seed=3, workers=1)
    assert against_random.pairs[0].margin > pair.margin
