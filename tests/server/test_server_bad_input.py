"""Bad input the audit of issue 16 found elsewhere: each a clear refusal, never a traceback,
and nothing changes."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of
from test_server_refusals import refused

from sueca.server.storage import SQLiteStorage
from sueca.server.tables import SeatConfig


def test_a_token_that_is_not_ascii_is_simply_not_a_seat() -> None:
    seat = SeatConfig(kind="human", name="Ana", token="abc")
    assert not seat.matches("é") and not seat.matches("abcé") and seat.matches("abc")


def test_a_non_ascii_token_is_refused_as_unknown_without_a_log_line(
    server: LiveServer, caplog: pytest.LogCaptureFixture,
) -> None:
    table = create_table(server.http, ["human"] * 4)

    async def scenario() -> None:
        player = await join(server.ws, table["id"], None, None)
        for _ in range(20):  # compare_digest's TypeError was a traceback per message
            await refused(player, {"type": "join", "token": "é" * 24}, "bad_token")
        await refused(player, {"type": "join", "token": token_of(table, 1) + "é"}, "bad_token")
        await player.send({"type": "join", "token": token_of(table, 1)})
        assert (await player.recv_until("joined"))["seat"] == 1  # the socket still works
        await player.socket.close()

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("number", ["9" * 19, "9" * 4301, "9" * 10_000])
def test_a_huge_match_number_is_not_found(server: LiveServer, number: str) -> None:
    for path in (f"/api/history/{number}", f"/api/history/{number}/record.json",
                 f"/history/{number}"):
        response = httpx2.get(server.http + path)
        assert response.status_code == 404, path  # it was a 500: SQLite or int refused it
    response = httpx2.post(f"{server.http}/api/tables/x/seats/{number}", json={})
    assert response.status_code == 404
    assert httpx2.get(f"{server.http}/api/history/999999999999999999").status_code == 404


def test_a_socket_holds_one_seat(server: LiveServer) -> None:
    table = create_table(server.http, ["human", "human", "bot", "bot"])

    async def scenario() -> None:
        player = await join(server.ws, table["id"], token_of(table, 0), 0)
        await refused(player, {"type": "join", "token": token_of(table, 1)}, "already_seated")
        view = await player.sync()
        assert view["you"] == 0
        room = server.room(table["id"])
        # Seat 0 is still this socket's; seat 1 was never taken (its invitation still waits).
        assert room.present == [1, 0, 0, 0] and room.away_since[0] is None
        assert room.presence()[:2] == ["present", "waiting"]
        await player.send({"type": "join", "token": token_of(table, 0)})  # its own: fine
        assert (await player.recv_until("joined"))["seat"] == 0
        other = await join(server.ws, table["id"], token_of(table, 1), 1)  # a socket of its own
        await player.socket.close()
        await other.socket.close()

    asyncio.run(scenario())


def test_a_free_seat_taken_from_the_lobby_gets_a_token_of_its_own(server: LiveServer,
                                                                  tmp_path: Path) -> None:
    response = httpx2.post(f"{server.http}/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        "open": True})
    table = response.json()
    invited = token_of(table, 1)
    taken = httpx2.post(f"{server.http}/api/tables/{table['id']}/seats/1", json={"name": "Rui"})
    assert taken.status_code == 200
    token = taken.json()["token"]
    assert token != invited  # the invitation's token was handed out already
    again = httpx2.post(f"{server.http}/api/tables/{table['id']}/seats/1", json={})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    room = server.room(table["id"])
    assert room.table.seat_for_token(invited) is None
    assert room.table.seat_for_token(token) == 1

    async def scenario() -> None:
        stranger = await join(server.ws, table["id"], token, 1)
        late = await join(server.ws, table["id"], None, None)
        await refused(late, {"type": "join", "token": invited}, "bad_token")
        await stranger.socket.close()
        await late.socket.close()

    asyncio.run(scenario())
    # The new token is stored: a restart seats the stranger, not the invitation.
    store = SQLiteStorage(tmp_path / "sueca.db")
    try:
        (stored,) = [t for t in store.open_tables() if t.id == table["id"]]
    finally:
        store.close()
    assert stored.settings["seats"][1]["token"] == token


def test_an_invited_player_who_came_first_keeps_the_seat(server: LiveServer) -> None:
    response = httpx2.post(f"{server.http}/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        "open": True})
    table = response.json()

    async def scenario() -> None:
        invited = await join(server.ws, table["id"], token_of(table, 1), 1)
        taken = httpx2.post(f"{server.http}/api/tables/{table['id']}/seats/1", json={})
        assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
        assert (await invited.sync())["you"] == 1
        await invited.socket.close()

    asyncio.run(scenario())
