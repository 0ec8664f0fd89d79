"""``sueca bot`` given what a broken referee might send: every wrong-typed field of every
message is answered with an ``info`` error naming the problem, never a traceback, and the
session goes on."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from sueca.bots import make_bot
from sueca.protocol import messages as msg
from sueca.protocol.session import BotSession, serve

# Values of every JSON type, and a few that look almost right.
WRONG: list[Any] = [None, "x", "é" * 3, 5, -1, 10**30, True, 1.5, [], ["x"], [[1]], [None],
                    {}, {"a": 1}, "7H", ["7H", 5], {"variant": "x"}]
A_MATCH = {"type": "match", "rules": {"variant": "standard"}, "seat": 0}
A_DEAL = {"type": "deal", "dealer": 1, "trump_card": "2S",
          "hand": ["AH", "7H", "KH", "JH", "QH", "AS", "7S", "KS", "JS", "QS"]}


def bot_lines(lines: list[str]) -> list[dict[str, Any]]:
    """What ``sueca bot`` writes for these lines (a traceback would fail the test)."""
    out = io.StringIO()
    assert serve(make_bot("random", seed=1), io.StringIO("\n".join(lines) + "\n"), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_match_whose_rules_are_not_an_object_is_an_info_error() -> None:
    (answer,) = bot_lines([json.dumps({"type": "match", "rules": "x", "seat": 0})])
    assert answer == {"type": "info",
                      "error": "match rules must be a RECORD.md rules object, not 'x'"}


def test_a_match_without_rules_is_still_the_standard_game() -> None:
    assert bot_lines([json.dumps({"type": "match", "rules": None, "seat": 0}),
                      json.dumps(A_DEAL)]) == []


@pytest.mark.parametrize("kind", sorted(msg.TO_BOT))
def test_every_wrong_typed_field_is_an_info_error(kind: str) -> None:
    fields = {f.metadata["wire"] or f.name for f in msg.TO_BOT[kind].__dataclass_fields__.values()
              if f.name != "TYPE"} | {"seat"}
    for field in sorted(fields):
        for value in WRONG:
            session = BotSession(make_bot("random", seed=1))
            session.handle(A_MATCH)
            session.handle(A_DEAL)
            message = {"type": kind, field: value}
            try:
                answers = session.handle(message)
            except msg.ProtocolError as error:
                assert str(error), message
            else:
                assert all(isinstance(a, dict) for a in answers), message


@pytest.mark.parametrize("line", [
    '{"type": []}', '{"type": {}}', '{"type": 5}', "[1]", '"match"', "5", "null",
    '{"type": "match", "rules": {"variant": "standard", "players": []}, "seat": 0}',
    '{"type": "match", "rules": {"variant": "standard", "match_target": 1e999}, "seat": 0}',
    '{"type": "match", "rules": {"variant": "standard", "match_target": 99999999}, "seat": 0}',
    '{"type": "match", "rules": {"variant": ["standard"]}, "seat": 0}',
    '{"type": "match", "rules": {"variant": "standard"}, "seat": 99999999999999999999}',
    '{"type": "deal", "hand": "AH", "dealer": 0, "trump_card": "AH"}',
])
def test_lines_of_the_wrong_shape_are_answered_and_the_session_goes_on(line: str) -> None:
    answers = bot_lines([line, json.dumps({"type": "hello", "protocol": 1})])
    assert answers[-1]["type"] == "hello"
    for answer in answers[:-1]:
        assert answer["type"] == "info" and answer["error"]


HAND = ["AS", "7S", "KS", "2H", "3H", "AD", "QD", "JC", "4C", "5C"]
OPENING = [json.dumps({"type": "hello", "protocol": msg.PROTOCOL}),
           json.dumps({"type": "match", "rules": {"variant": "standard"}, "seat": 0}),
           json.dumps({"type": "deal", "dealer": 3, "hand": HAND, "trump_card": "6D"})]


@pytest.mark.parametrize("time_ms", [-5, 0, 1.5, "1000", True])
def test_a_turn_whose_time_ms_is_no_budget_is_refused_and_the_next_turn_is_played(
        time_ms: object) -> None:
    answers = bot_lines([*OPENING,
                         json.dumps({"type": "turn", "legal": HAND, "time_ms": time_ms}),
                         json.dumps({"type": "turn", "legal": HAND, "time_ms": 50})])
    errors = [a for a in answers if a["type"] == "info"]
    assert len(errors) == 1 and "time_ms" in errors[0]["error"]
    assert len([a for a in answers if a["type"] == "play"]) == 1  # the second turn's card


def test_a_turns_time_ms_becomes_the_bots_budget() -> None:
    bot = make_bot("heuristic", seed=1)
    session = BotSession(bot)
    for line in [*OPENING, json.dumps({"type": "turn", "legal": HAND, "time_ms": 250})]:
        session.handle(json.loads(line))
    assert bot.time_budget == 0.25
