"""The redeal on a weak hand at the front-ends: nobody learns from who is asked whether a hand
could ask (the web table asks every person, the hot-seat terminal passes the screen to every
person), a stand-in bot keeps for an absent player, and the dummy's question travels the bot
protocol to the program that plays the dummy."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from sueca.arena.play import play_match
from sueca.bots import Bot, HeuristicBot
from sueca.cards import card_name, mask_cards
from sueca.match import Match
from sueca.protocol import BotSession, ExternalBot
from sueca.redeal import hand_points, redeal_order
from sueca.rules import Rules
from sueca.state import State

sys.path.insert(0, str(Path(__file__).parent / "server"))

# Three players: seat 0 plays its own hand and the dummy's, seat 2.
DUMMY_TABLE = Rules.from_dict({"variant": "brazil", "dummy": 2, "weak_hand_redeal": True,
                               "weak_hand_limits": [15, 15]})


# ---- the bot protocol: the dummy's question ------------------------------------------------


def _dummy_question_state(seed: int = 8) -> State:
    """A first deal (dealer 0) whose dummy may ask and is asked after seat 1, who may not.
    Seed 8 deals that (as play_match with ``first_dealer=0`` does)."""
    state = Match(DUMMY_TABLE, first_dealer=0).new_deal(random.Random(seed))
    assert redeal_order(DUMMY_TABLE, state.first_leader)[:2] == (1, 2)
    assert not state.may_ask_redeal(1) and state.may_ask_redeal(2)
    return state


def test_sueca_bot_answers_the_dummys_question_named_by_its_seat() -> None:
    state = _dummy_question_state()
    deal = state.deal
    session = BotSession(HeuristicBot(0))
    session.handle({"type": "match", "rules": DUMMY_TABLE.to_dict(), "seat": 0})
    assert deal.trump_card is not None
    session.handle({"type": "deal", "dealer": 0,
                    "hand": [card_name(c) for c in mask_cards(deal.hands[0])],
                    "trump_card": card_name(deal.trump_card)})
    session.handle({"type": "shown", "seat": 2,
                    "cards": [card_name(c) for c in mask_cards(deal.hands[2])]})
    session.handle({"type": "redeal", "seat": 1, "ask": False})
    points = hand_points(DUMMY_TABLE, deal.hands[2])
    assert session.handle({"type": "redeal_turn", "points": points, "limit": 15,
                           "time_ms": 1000, "seat": 2}) == [{"type": "redeal", "ask": True}]


def test_sueca_bot_plays_a_dummy_and_answers_its_redeal_question_for_a_whole_match() -> None:
    """``sueca bot heuristic`` seated by cmd: at seat 0 and for the dummy (seat 2): every
    question of the match, the dummy's included, gets the heuristic's answer (it asks
    whenever it may), and the program is never given up on."""
    program = ExternalBot(f"{sys.executable} -m sueca.cli bot heuristic --seed {{seed}}",
                          seed=0, time_ms=300, grace_ms=700)
    bots: list[Bot] = [program, HeuristicBot(1), program, HeuristicBot(3)]
    try:
        # Seed 8: the first deal's dummy may ask, and seat 1, asked before it, may not.
        match, states = play_match(DUMMY_TABLE, bots, random.Random(8), first_dealer=0)
    finally:
        program.close()
    assert match.is_over and program.errors == []
    assert states[0].redeal_by == 2 and states[0].deal == _dummy_question_state().deal
    for state in states:
        order = redeal_order(DUMMY_TABLE, state.first_leader)
        expected = []
        for seat in order:
            expected.append(state.may_ask_redeal(seat))
            if expected[-1]:
                break
        assert state.redeal_answers == expected
