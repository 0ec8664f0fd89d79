"""Issue 17, item 7: bot levels people choose by name, and bots that pace their cards."""

from __future__ import annotations

import random
from types import SimpleNamespace

import httpx2
from server_support import LiveServer

from sueca.actions import AskCard
from sueca.bots import BOTS, STRONGEST, make_bot
from sueca.bots.levels import DEFAULT_LEVEL, LEVELS, level_of
from sueca.server import Timing
from sueca.server.rooms import Room


def test_each_level_is_a_bot_spec_of_its_own() -> None:
    assert [level.name for level in LEVELS] == ["beginner", "intermediate", "strong", "expert"]
    for level in LEVELS:
        assert level.name in BOTS  # so every command and a seat's "level" take it
        assert make_bot(level.name, seed=1).name == make_bot(level.spec, seed=1).name
        assert level_of(level.name) == level_of(level.spec) == level.name
    assert level_of(STRONGEST) == DEFAULT_LEVEL == "expert"  # the strongest bot
    assert level_of("cmd:python my_bot.py") is None


def test_the_lobby_is_offered_levels_with_a_line_each(tmp_path: object) -> None:
    with LiveServer(f"{tmp_path}/sueca.db") as server:
        data = httpx2.get(f"{server.http}/api/bots").json()
        assert data["bots"] == ["beginner", "intermediate", "strong", "expert"]
        assert data["default"] == "expert"
        assert all(item["description"] for item in data["levels"])
        assert "pimc" in data["algorithms"]
        table = httpx2.post(f"{server.http}/api/tables", json={
            "rules": {"variant": "standard"},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "beginner"}] * 3})
        assert table.status_code == 201, table.text


def test_a_bot_takes_a_persons_varying_time_and_less_when_forced() -> None:
    room = SimpleNamespace(timing=Timing(bot_delay=0.8), _pace=random.Random(3))
    free = AskCard(seat=1, legal=(1, 2, 3))
    forced = AskCard(seat=1, legal=(4,))
    paces = [Room.bot_pace(room, free) for _ in range(50)]  # type: ignore[arg-type]
    quick = [Room.bot_pace(room, forced) for _ in range(50)]  # type: ignore[arg-type]
    assert len(set(paces)) == 50 and min(paces) >= 0.6 and max(paces) <= 1.28
    assert max(quick) < min(paces)
    still = SimpleNamespace(timing=Timing(bot_delay=0.0), _pace=random.Random(3))
    assert Room.bot_pace(still, free) == 0.0  # type: ignore[arg-type]
