"""The bot protocol: a tiny external bot plays a full arena match; the referee survives every
kind of misbehaving program; the bot side rebuilds exactly the seat's information state."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sueca.arena.play import play_deal, play_match
from sueca.arena.tournament import run_arena
from sueca.bots import HeuristicBot, make_bot
from sueca.cards import card_name, mask_cards, parse_card
from sueca.deal import Deal, deal_cards
from sueca.infostate import InformationState
from sueca.protocol import (
    BotSession,
    ExternalBot,
    ProtocolError,
    SeatFeed,
    SeatTracker,
    decode,
    encode,
    serve,
)
from sueca.rules import STANDARD, Rules
from sueca.state import State

# A whole bot in the standard library: it logs what it hears and plays its first legal card,
# or misbehaves as its second argument says.
TINY_BOT = r'''
import json, sys, time
log = open(sys.argv[1], "a", encoding="utf-8")
mode = sys.argv[2] if len(sys.argv) > 2 else "good"
turns = 0
if mode == "silent":
    time.sleep(30)
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "tiny"}), flush=True)
    elif kind == "turn":
        turns += 1
        legal = message["legal"]
        print(json.dumps({"type": "info", "note": "thinking"}), flush=True)
        if mode == "illegal":
            print(json.dumps({"type": "play", "card": "XX" if turns % 2 else "2S"}), flush=True)
        elif mode == "garbage" and turns == 1:
            print("this is not json", flush=True)
        elif mode == "slow" and turns == 3:
            time.sleep(30)
        elif mode == "huge" and turns == 1:
            print(json.dumps({"type": "play", "card": "A" * 100_000}), flush=True)
        elif mode == "crash" and turns == 2:
            sys.exit(3)
        else:
            print(json.dumps({"type": "play", "card": legal[0]}), flush=True)
    elif kind == "quit":
        break
'''


def turned_name(deal: Deal) -> str:
    assert deal.trump_card is not None
    return card_name(deal.trump_card)


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    script = tmp_path / "tiny_bot.py"
    script.write_text(TINY_BOT, encoding="utf-8")
    return script, tmp_path / "log.jsonl"


def command(tiny: tuple[Path, Path], mode: str = "good") -> str:
    script, log = tiny
    return f"{sys.executable} {script} {log} {mode}"


def logged(tiny: tuple[Path, Path]) -> list[dict[str, object]]:
    return [json.loads(line) for line in tiny[1].read_text(encoding="utf-8").splitlines()]


def test_tiny_external_bot_plays_a_full_arena_match(tiny: tuple[Path, Path],
                                                    tmp_path: Path) -> None:
    spec = "cmd:" + command(tiny)
    result = run_arena(STANDARD, ["heuristic", spec], deals=2, seed=4, workers=1,
                       records_dir=tmp_path / "records")
    pair = result.pairs[0]
    assert pair.pairs == 2 and sum(pair.deals_won) == 4
    assert pair.errors == []
    assert len(list((tmp_path / "records").rglob("*.json"))) == 4
    messages = logged(tiny)
    kinds = [m["type"] for m in messages]
    # Four programs (two seats, two plays of each of two deals), each from hello to quit.
    assert kinds.count("hello") == kinds.count("quit") == 8
    assert kinds.count("deal") == kinds.count("deal_end") == 8
    assert kinds.count("played") == 8 * 40
    assert kinds.count("turn") == 8 * 10


def test_external_bot_plays_a_whole_match_and_sees_only_its_seat(tiny: tuple[Path, Path]
                                                                ) -> None:
    bots = [HeuristicBot(1), ExternalBot(command(tiny), seed=2),
            HeuristicBot(3), HeuristicBot(4)]
    match, states = play_match(STANDARD, bots, random.Random(5))
    for bot in bots:
        bot.close()
    assert match.is_over and states
    external = bots[1]
    assert isinstance(external, ExternalBot) and external.errors == []
    assert external.remote_name == "tiny" and external.infos
    deals = [m for m in logged(tiny) if m["type"] == "deal"]
    assert len(deals) == len(states)
    for message, state in zip(deals, states, strict=True):
        assert set(message) == {"type", "dealer", "hand", "trump_card"}
        assert message["hand"] == [card_name(c) for c in mask_cards(state.deal.hands[1])]
        assert message["trump_card"] == turned_name(state.deal)
    matches = [m for m in logged(tiny) if m["type"] == "match"]
    assert matches == [{"type": "match", "rules": {"variant": "standard"}, "seat": 1}]
    ends = [m for m in logged(tiny) if m["type"] == "deal_end"]
    assert ends[0]["hands"] == [[card_name(c) for c in mask_cards(h)]
                                for h in states[0].deal.hands]
    assert ends[0]["points"] == states[0].team_points()


@pytest.mark.parametrize(("mode", "errors", "forfeited"), [
    ("garbage", 1, False),  # asked again, then plays on
    ("illegal", 20, False),  # every turn: two bad answers, then the fallback card
    ("crash", 1, True),
    ("slow", 1, True),
])
def test_misbehaving_programs_never_crash_the_referee(tiny: tuple[Path, Path], mode: str,
                                                      errors: int, forfeited: bool) -> None:
    deal = deal_cards(STANDARD, 0, random.Random(8))
    external = ExternalBot(command(tiny, mode), time_ms=200, grace_ms=300)
    bots = [HeuristicBot(1), external, HeuristicBot(3), HeuristicBot(4)]
    for seat, bot in enumerate(bots):
        bot.new_match(STANDARD, seat)
    state = play_deal(STANDARD, deal, bots)
    external.close()
    assert state.is_finished()
    assert len(external.errors) == errors, external.errors
    assert all(e.startswith(f"cmd:{command(tiny, mode)}: seat 1") or "forfeited" in e
               for e in external.errors)
    assert any("forfeited" in e for e in external.errors) == forfeited


def test_a_program_that_never_says_hello_is_forfeited(tiny: tuple[Path, Path]) -> None:
    external = ExternalBot(command(tiny, "silent"), hello_timeout=0.5)
    deal = deal_cards(STANDARD, 0, random.Random(1))
    state = play_deal(STANDARD, deal, [HeuristicBot(), external, HeuristicBot(), HeuristicBot()])
    external.close()
    assert state.is_finished()
    assert len(external.errors) == 1 and "hello" in external.errors[0]


def test_a_program_that_cannot_start_is_forfeited() -> None:
    external = make_bot("cmd:/nonexistent/bot --fast")
    assert isinstance(external, ExternalBot)
    state = play_deal(STANDARD, deal_cards(STANDARD, 0, random.Random(1)),
                      [external, HeuristicBot(), HeuristicBot(), HeuristicBot()])
    assert state.is_finished()
    assert "cannot start" in external.errors[0]


def test_a_command_with_an_unclosed_quote_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="cmd:python 'x is not a command line"):
        make_bot("cmd:python 'x")


def test_an_empty_command_is_refused() -> None:
    with pytest.raises(ValueError, match="needs a command"):
        make_bot("cmd:  ")


def test_the_seed_reaches_the_command() -> None:
    bot = ExternalBot("prog --seed {seed}", seed=42)
    assert bot.argv == ["prog", "--seed", "42"]


def _same(a: InformationState, b: InformationState) -> bool:
    fields = [f.name for f in dataclasses.fields(InformationState) if f.compare]
    return all(getattr(a, name) == getattr(b, name) for name in fields)


@pytest.mark.parametrize("variant", ["standard", "italiana", "brazil"])
def test_seat_tracker_rebuilds_the_information_state(variant: str) -> None:
    rules = Rules.from_dict({"variant": variant})
    rng = random.Random(variant)
    for _ in range(5):
        deal = deal_cards(rules, rng.randrange(4), rng)
        state = State(rules, deal)
        trackers = [SeatTracker(rules, s, deal.dealer, deal.hands[s], deal.trump_card)
                    for s in range(4)]
        bot = HeuristicBot()
        while not state.is_finished():
            seat = state.to_play
            assert _same(trackers[seat].information_state(), state.information_state(seat))
            card = bot.choose(state.information_state(seat))
            state.push(card)
            for tracker in trackers:
                tracker.played(seat, card)
        for seat in range(4):
            assert _same(trackers[seat].information_state(), state.information_state(seat))


def test_seat_tracker_refuses_impossible_plays() -> None:
    deal = deal_cards(STANDARD, 3, random.Random(2))
    tracker = SeatTracker(STANDARD, 1, 3, deal.hands[1], deal.trump_card)
    with pytest.raises(ProtocolError, match="turn"):
        tracker.played(1, mask_cards(deal.hands[1])[0])
    with pytest.raises(ProtocolError, match="which seat 1 holds"):
        tracker.played(0, mask_cards(deal.hands[1])[0])
    first = mask_cards(deal.hands[0])[0]
    tracker.played(0, first)
    with pytest.raises(ProtocolError, match="not in seat 1's hand"):
        tracker.played(1, mask_cards(deal.hands[2])[0])
    with pytest.raises(ProtocolError, match="already played"):
        tracker.played(1, first)


def test_serve_answers_a_session() -> None:
    deal = deal_cards(STANDARD, 3, random.Random(6))
    hand = [card_name(c) for c in mask_cards(deal.hands[0])]
    state = State(STANDARD, deal)
    legal = [card_name(c) for c in state.legal_moves()]
    lines: list[dict[str, Any]] = [
        {"type": "hello", "protocol": "sueca-bot/1"},
        {"type": "match", "rules": {"variant": "standard"}, "seat": 0},
        {"type": "deal", "dealer": 3, "hand": hand, "trump_card": turned_name(deal)},
        {"type": "whatever", "future": True},
        {"type": "turn", "legal": legal, "time_ms": 1000},
        {"type": "played", "seat": 2, "card": "AS"},
        {"type": "quit"},
        {"type": "turn", "legal": legal, "time_ms": 1000},
    ]
    out = io.StringIO()
    assert serve(HeuristicBot(1), io.StringIO("".join(encode(m) + "\n" for m in lines)),
                 out) == 0
    answers = [decode(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"type": "hello", "name": "heuristic", "protocol": "sueca-bot/1"}
    assert answers[1]["type"] == "play" and answers[1]["card"] in legal
    assert answers[2]["type"] == "info" and "turn" in str(answers[2]["error"])
    assert len(answers) == 3  # nothing after quit


def test_a_turn_with_an_empty_legal_list_is_refused() -> None:
    deal = deal_cards(STANDARD, 3, random.Random(6))
    session = BotSession(HeuristicBot(1))
    session.handle({"type": "deal", "dealer": 3,
                    "hand": [card_name(c) for c in mask_cards(deal.hands[0])],
                    "trump_card": turned_name(deal)})
    with pytest.raises(ProtocolError, match="legal list is empty"):
        session.handle({"type": "turn", "legal": []})


@pytest.mark.parametrize(("message", "problem"), [
    ({"type": "deal", "dealer": 0, "hand": [], "trump_card": "2S"}, "deal hand holds 0"),
    ({"type": "deal", "dealer": 9, "hand": ["2S"] * 10, "trump_card": "2S"}, "dealer must"),
    ({"type": "played", "seat": 0, "card": "2S"}, "no deal in progress"),
    ({"type": "match", "rules": {"variant": "nope"}, "seat": 0}, "bad rules"),
    ({"type": "match", "rules": {}, "seat": 7}, "seat from 0 to 3"),
    ({"type": "deal", "dealer": 0, "hand": ["ZZ"], "trump_card": "2S"}, "deal hand"),
    ({"type": "deal", "dealer": 0, "hand": ["2S"] * 10, "trump_card": "2S"}, "a card twice"),
])
def test_bot_session_names_bad_messages(message: dict[str, object], problem: str) -> None:
    session = BotSession(HeuristicBot())
    with pytest.raises(ProtocolError, match=problem):
        session.handle(message)


def test_decode_refuses_what_is_not_a_message() -> None:
    with pytest.raises(ProtocolError, match="not JSON"):
        decode("{oops")
    with pytest.raises(ProtocolError, match="not JSON"):
        decode("[" * 5000)
    with pytest.raises(ProtocolError, match="not JSON"):
        decode("1" * 5000)
    with pytest.raises(ProtocolError, match="not a protocol message"):
        decode("[1, 2]")
    assert decode('{"type": "quit"}') == {"type": "quit"}


def test_sueca_bot_command_speaks_the_protocol() -> None:
    deal = deal_cards(STANDARD, 3, random.Random(6))
    hand = [card_name(c) for c in mask_cards(deal.hands[0])]
    messages: list[dict[str, Any]] = [
        {"type": "hello", "protocol": "sueca-bot/1"},
        {"type": "deal", "dealer": 3, "hand": hand, "trump_card": turned_name(deal)},
        {"type": "turn", "legal": hand, "time_ms": 500},
        {"type": "quit"},
    ]
    session = "".join(encode(m) + "\n" for m in messages)
    done = subprocess.run([sys.executable, "-m", "sueca.cli", "bot", "ismcts:iterations=50",
                           "--seed", "3"], input=session, capture_output=True, text=True,
                          timeout=60, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0]["type"] == "hello" and answers[0]["name"] == "ismcts"
    assert answers[1]["type"] == "play" and answers[1]["card"] in hand
    assert deal.hands[0] >> parse_card(answers[1]["card"]) & 1


# ---- bad input is never echoed at length ----------------------------------------------------

HUGE = "A" * 2_000_000


def test_an_error_quotes_at_most_80_characters_of_the_bad_input() -> None:
    """``sueca bot`` answers a line it cannot follow with an ``info`` line of words: however
    long the bad input, the error shows at most 80 characters of it, cut with "…"."""
    deal = deal_cards(STANDARD, 3, random.Random(6))
    hand = [card_name(c) for c in mask_cards(deal.hands[0])]
    bad = [
        {"type": "played", "seat": 0, "card": HUGE},
        {"type": "played", "seat": 0, "card": "2S", "turned": HUGE},
        {"type": "deal", "dealer": 3, "hand": [HUGE], "trump_card": "2S"},
        {"type": "contract", "declarer": 0, "bid": 71, "called_card": "AH", "trump": HUGE},
        {"type": "bid", "seat": 0, "value": int("9" * 4000)},
        {"type": "match", "rules": {"variant": HUGE}, "seat": 0},
        {"type": "match", "rules": {HUGE: True}, "seat": 0},
    ]
    lines = [encode({"type": "match", "rules": {"variant": "standard"}, "seat": 0}),
             encode({"type": "deal", "dealer": 3, "hand": hand,
                     "trump_card": turned_name(deal)}),
             *(encode(m) for m in bad), "{" * 100_000, "[" + HUGE]
    out = io.StringIO()
    serve(HeuristicBot(1), io.StringIO("".join(line + "\n" for line in lines)), out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(bad) + 2
    for line in answers:
        error = decode(line)["error"]
        assert len(error) < 250 and "AAAAAAAAAA" * 9 not in error, error[:300]
    assert all("…" in decode(line)["error"] for line in answers[:3])


def test_the_referee_records_at_most_80_characters_of_a_bad_answer(tiny: tuple[Path, Path]
                                                                   ) -> None:
    external = ExternalBot(command(tiny, "huge"))
    bots = [HeuristicBot(1), external, HeuristicBot(3), HeuristicBot(4)]
    for seat, bot in enumerate(bots):
        bot.new_match(STANDARD, seat)
    play_deal(STANDARD, deal_cards(STANDARD, 0, random.Random(8)), bots)
    external.close()
    (error,) = external.errors  # asked again, it plays on
    assert "is not a card; asking again" in error and "…" in error
    assert len(error) < len(external.name) + 150


# ---- deal_end: its hands are checked -------------------------------------------------------


def _session_at_the_end(deal: Deal) -> tuple[BotSession, list[list[str]]]:
    """A session at seat 1 told a whole deal, every card played; and its true deal_end."""
    state = State(STANDARD, deal)
    bot = HeuristicBot()
    while not state.is_finished():
        state.push(bot.choose(state.information_state(state.to_play)))
    feed = SeatFeed()
    feed.start_match(STANDARD, 1)
    told = feed.deal_end(state.information_state(1))
    session = BotSession(HeuristicBot(1))
    for message in told[:-1]:
        session.handle(decode(encode(message)))
    return session, told[-1]["hands"]


def test_a_deal_end_whose_hands_are_not_the_deal_is_refused() -> None:
    """As any bad field: an ``info`` error, and the deal stays open until a good one."""
    deal = deal_cards(STANDARD, 3, random.Random(6))
    session, hands = _session_at_the_end(deal)
    own = hands[1]
    for wrong, problem in [
        ([], "deal_end names 0 hands, not 4"),
        (None, "deal_end names 0 hands, not 4"),
        (hands[:3], "deal_end names 3 hands, not 4"),
        ([hands[0], own[1:], hands[2], hands[3]], "deal_end hand 1 names 9 cards, not 10"),
        ([hands[0], own, hands[2][1:], hands[3]], "deal_end hand 2 names 9 cards, not 10"),
        ([hands[0], own, [own[0], *hands[2][1:]], hands[3]], "deal_end hand 2 lacks"),
        ([hands[0], own, [*hands[2], hands[3][0]], hands[3]], "deal_end hand 2 names 11"),
    ]:
        message: dict[str, Any] = {"type": "deal_end", "points": [60, 60]}
        if wrong is not None:
            message["hands"] = wrong
        with pytest.raises(ProtocolError, match=problem):
            session.handle(message)
        assert session.tracker is not None  # refused: nothing changed
    assert session.handle({"type": "deal_end", "points": [60, 60], "hands": hands}) == []
    assert session.tracker is None and session.last is not None
