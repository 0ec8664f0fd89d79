"""Issue 17, "also": a turn timer for tables of strangers. Each person's move has
``turn_seconds``; the views say the seconds left (the server's clock), the page draws them as
a ring, and when they run out the seat's stand-in makes that one move through the referee
(stored as a stand-in's) while the person stays seated."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, join, token_of
from web_support import PACE, chromium, new_table, open_page, screenshots

from sueca.server.tables import TURN_SECONDS_MAX, TURN_SECONDS_MIN

__all__ = ["chromium"]  # the fixture, imported for the browser test below

ANA_AND_BOTS = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "heuristic"}] * 3


@pytest.mark.parametrize("value", [TURN_SECONDS_MIN - 1, TURN_SECONDS_MAX + 1, "30", 12.5, True])
def test_a_turn_timer_out_of_its_bounds_is_refused(tmp_path: Path, value: Any) -> None:
    with LiveServer(str(tmp_path / "sueca.db")) as server:
        response = httpx2.post(f"{server.http}/api/tables", json={
            "rules": {"variant": "standard"}, "seats": ANA_AND_BOTS, "turn_seconds": value})
        assert response.status_code == 400
        assert response.json()["error"] == "bad_turn_seconds"
        assert "turn_seconds must be a whole number from 5 to 600" in response.json()["message"]
        assert not server.app.state.rooms.rooms  # nothing was made


async def wait_view(ana: Any, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while ana.view is None or not check(ana.view):
        assert time.monotonic() < deadline, "timed out"
        await ana.recv(timeout)
    view: dict[str, Any] = ana.view
    return view


async def let_the_clock_run(server: LiveServer, table: dict[str, Any]) -> None:
    ana = await join(server.ws, table["id"], token_of(table, 0), 0)
    view = await wait_view(ana, lambda v: v["actor"] == 0 and v["legal"])
    assert view["turn_seconds"] == TURN_SECONDS_MIN
    turn = view["turn"]
    assert turn["seat"] == 0 and turn["seconds"] == TURN_SECONDS_MIN
    assert TURN_SECONDS_MIN - 1 < turn["left"] <= TURN_SECONDS_MIN
    hand = set(view["hand"])
    # A change that is no move (a name) keeps the deadline.
    await asyncio.sleep(0.5)
    await ana.send({"type": "name", "name": "Ana Rita"})
    renamed = await wait_view(ana, lambda v: v["seats"][0]["name"] == "Ana Rita")
    assert renamed["turn"]["left"] < turn["left"]
    # Ana does nothing: after the seconds, her stand-in plays one of her cards for her.
    started = time.monotonic()
    view = await wait_view(ana, lambda v: len(v["hand"]) < len(hand) or v["phase"] != "playing")
    assert time.monotonic() - started > TURN_SECONDS_MIN - 2
    played = hand - set(view["hand"])
    assert len(played) == 1
    room = server.room(table["id"])
    # She stays seated: present, her socket hers, and the next move is hers to make again.
    assert view["seats"][0]["status"] == "present" and view["you"] == 0
    moves = room.writer.call_waiting(room.writer.storage.players().stand_in_moves,
                                     room.table.match_id)
    assert moves == {0: 1}
    view = await wait_view(ana, lambda v: v["actor"] == 0 and v["legal"])
    assert view["turn"]["left"] > TURN_SECONDS_MIN - 1  # a new move, a new deadline
    await ana.send({"type": "play", "card": view["legal"][0]})
    await wait_view(ana, lambda v: len(v["hand"]) < len(view["hand"]))
    assert room.writer.call_waiting(room.writer.storage.players().stand_in_moves,
                                     room.table.match_id) == {0: 1}
    await ana.socket.close()


def test_a_person_out_of_time_has_his_stand_in_move_and_stays_seated(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db")) as server:
        table = new_table(server.http, ANA_AND_BOTS, turn_seconds=TURN_SECONDS_MIN)
        asyncio.run(let_the_clock_run(server, table))


def test_no_timer_by_default(tmp_path: Path) -> None:
    async def look(server: LiveServer, table: dict[str, Any]) -> None:
        ana = await join(server.ws, table["id"], token_of(table, 0), 0)
        view = await wait_view(ana, lambda v: v["actor"] == 0 and v["legal"])
        assert view["turn_seconds"] is None and view["turn"] is None
        await ana.socket.close()

    with LiveServer(str(tmp_path / "sueca.db")) as server:
        asyncio.run(look(server, new_table(server.http, ANA_AND_BOTS)))


@pytest.mark.slow
def test_the_page_shows_the_turn_timer_as_a_ring(chromium: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        # Made from the lobby's option, as a person makes it.
        page, errors = open_page(chromium, server.http + "/")
        page.fill("#name", "Ana")
        page.select_option("#turn_seconds", "15")
        assert "Tempo por jogada" in page.inner_text("label:has(#turn_seconds)")
        for index in (1, 2, 3):
            page.locator(".seat-row").nth(index).locator(".kind").select_option("bot")
        page.click("#create-button")
        page.click("#my-seat")
        page.wait_for_url("**/t/**")
        (room,) = server.app.state.rooms.rooms.values()
        assert room.table.turn_seconds == 15
        ring = page.locator('.plate[data-seat="0"] .turn-ring')
        page.wait_for_selector('.plate[data-seat="0"] .turn-ring', timeout=20_000)
        first = int(ring.inner_text())
        assert 10 <= first <= 15
        page.wait_for_timeout(2200)
        later = int(ring.inner_text())
        assert later < first  # it counts down between views
        share = float(ring.evaluate("el => getComputedStyle(el).getPropertyValue('--turn-share')"))
        assert 0 < share < 1
        assert "para jogar" in (ring.get_attribute("aria-label") or "")
        assert not page.locator('.plate:not([data-seat="0"]) .turn-ring').count()
        screenshots(page, "web-turn-timer")
        assert not errors, errors
