"""The redeal on a weak hand at the front-ends: nobody learns from who is asked whether a hand
could ask (the web table asks every person, the hot-seat terminal passes the screen to every
person), a stand-in bot keeps for an absent player, and the dummy's question travels the bot
protocol to the program that plays the dummy."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


# ---- the web table: a stand-in keeps ---------------------------------------------------------


def test_a_stand_in_keeps_for_a_player_who_dropped_during_the_question(tmp_path: Path
                                                                      ) -> None:
    """The plain bot asks whenever its hand may: standing in for a person it keeps instead,
    for an ask cannot be taken back and the player may return to the hand he was dealt."""
    from server_support import LiveServer, create_table, join, token_of

    from sueca.server import Timing

    # Seed 13: the first deal asks seats 3, 0, 1, 2; only seat 0, the person, may ask.
    pace = Timing(grace=0.3, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=pace, seed=13) as server:
        created = create_table(server.http, ["human", "bot", "bot", "bot"],
                               {"variant": "brazil", "weak_hand_redeal": True,
                                "weak_hand_limits": [15, 15]}, level="random")
        table = server.room(created["id"]).table
        first = table.state
        assert [first.may_ask_redeal(s) for s in range(4)] == [True, False, False, False]

        async def drop_when_asked() -> None:
            player = await join(server.ws, created["id"], token_of(created, 0), 0)
            view = await player.sync()
            while view["actor"] != 0:
                await player.recv_until("state")
                view = player.view or view
            assert view["stage"] == "redeal" and view["redeal"]["may_ask"]
            await player.socket.close()

        asyncio.run(drop_when_asked())
        deadline = time.monotonic() + 10
        while not first.plays and first.redeal_by is None and time.monotonic() < deadline:
            time.sleep(0.02)
        # (The bots play on meanwhile: only the first deal is looked at.)
        assert first.redeal_by is None and first.redeal_answers == [False] * 4
        assert first.plays and server.room(created["id"]).presence()[0] == "stand_in"


# ---- the terminal table ----------------------------------------------------------------------

TERMINAL_RULES = Rules.from_dict({"variant": "brazil", "weak_hand_redeal": True,
                                  "weak_hand_limits": [15, 15]})


def _until_the_first_card(answers: dict[str, list[str]]
                          ) -> Callable[[Any, str], str | None]:
    """A scripted screen's answers: for each prompt kind (a word in the prompt) the lines in
    turn; the first card prompt ends the input (the table stops and saves)."""
    def answer(screen: Any, prompt: str) -> str | None:
        for word, lines in answers.items():
            if word in prompt and lines:
                return lines.pop(0)
        return None

    return answer


def test_at_one_screen_every_person_is_asked_a_hand_that_may_only_keep_too(tmp_path: Path
                                                                          ) -> None:
    """Hot-seat: the screen goes to each person in turn, so nobody learns from it whose hand is
    weak. Seed 7: the first deal asks seat 2 (Player 3, as the screen counts from 1; 14 card
    points: it may ask) then seat 0 (Player 1; 42: it may only keep, and a "y" is refused,
    saying why)."""
    sys.path.insert(0, str(Path(__file__).parent / "terminal"))
    from terminal_scripting import make_table

    answer = _until_the_first_card({"Pass the screen": ["", "", ""], "new deal?": ["n"],
                                    "keep it?": ["y", "n"]})
    table, screen = make_table(tmp_path, answer,
                               rules=TERMINAL_RULES, humans=(0, 2), seed=7)
    table.run()
    prompts = screen.prompts
    assert prompts[:4] == [
        "Pass the screen to Player 3 and press Enter ",
        "Player 3, your hand holds 14 card points: ask for a new deal? (y/n; ? help, q quit): ",
        "Pass the screen to Player 1 and press Enter ",
        "Player 1, your hand holds 42 card points (a new deal needs fewer than 15): keep it? "
        "(n; ? help, q quit): ",
    ]
    assert prompts[4] == prompts[3] and "your card" in prompts[-1]
    refused = [v.message for v in screen.views if v.message]
    assert refused == ["With 42 card points this hand may only be kept: a new deal needs "
                       "fewer than 15. Answer n."]
    (state,) = table.states
    assert state.redeal_answers == [False] * 4 and state.phase == "play"


def test_a_single_person_among_bots_is_not_asked_with_a_hand_that_may_only_keep(
        tmp_path: Path) -> None:
    """Nobody watches the screen but the person: a hand that may only keep is kept for him
    without a question. Seed 0: seat 0 may not ask in the first deal, and nobody asks."""
    sys.path.insert(0, str(Path(__file__).parent / "terminal"))
    from terminal_scripting import make_table

    table, screen = make_table(tmp_path, _until_the_first_card({}),
                               rules=TERMINAL_RULES, humans=(0,), seed=0)
    table.run()
    (state,) = table.states
    assert not state.may_ask_redeal(0) and state.redeal_answers == [False] * 4
    assert [p for p in screen.prompts if "new deal" in p or "keep" in p] == []
