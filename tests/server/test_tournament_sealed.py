"""A duplicate round's table is sealed: its deals are the other tables' of the round, so a
spectator there would see cards still hidden at the others. No socket that has not joined a
seat gets a view (only the no_spectators error), the lobby does not list it, the tournament page
gives no watch link, and its deals are reviewed by nobody while its match is in play."""

from __future__ import annotations

import asyncio

import httpx2
import pytest
from server_support import LiveServer, Player, create_table, token_of
from test_server_review import review, wait_for
from websockets.asyncio.client import connect


def _seal(server: LiveServer, table_id: str) -> None:
    room = server.room(table_id)
    room.table.deals_seed = 11  # what Rooms.create(deals_seed=...) makes of a duplicate round's
    assert room.table.sealed


async def _open(server: LiveServer, table_id: str) -> Player:
    return Player(await connect(f"{server.ws}/ws/{table_id}"), None)


def test_a_sealed_table_shows_no_spectator_anything(server: LiveServer) -> None:
    table = create_table(server.http, ["human"] * 4)
    _seal(server, table["id"])

    async def scenario() -> None:
        spectator = await _open(server, table["id"])
        first = await spectator.recv()
        assert first["type"] == "error" and first["code"] == "no_spectators"
        seated = await _open(server, table["id"])
        assert (await seated.recv())["code"] == "no_spectators"
        await seated.send({"type": "join", "token": token_of(table, 0)})
        await seated.recv_until("joined")
        view = (await seated.recv_until("state"))["view"]
        assert view["you"] == 0 and view["hand"]
        await spectator.send({"type": "ping"})
        await spectator.recv_until("pong")  # the seat's join was handled before the ping
        assert [m["type"] for m in spectator.log] == ["error", "pong"]
        await spectator.send({"type": "play", "card": view["hand"][0]})
        refused = await spectator.recv()
        assert refused["code"] == "not_seated"
        assert all(m["type"] != "state" for m in spectator.log)
        for player in (spectator, seated):
            await player.socket.close()

    asyncio.run(scenario())
    listed = httpx2.get(f"{server.http}/api/tables").json()["tables"]
    assert table["id"] not in [entry["id"] for entry in listed]


@pytest.mark.slow
def test_a_sealed_tables_deals_are_not_reviewed_while_it_plays(server: LiveServer) -> None:
    table = create_table(server.http, ["bot"] * 4,
                         rules={"variant": "standard", "match_target": 100})
    room = wait_for(lambda: server.room(table["id"]))
    wait_for(lambda: room.table.match.results)  # its first deal is over; the match goes on
    asked = {"table": table["id"], "deal": 0, "seat": 0}
    assert review(server.http, **asked)["status"] == "done"  # an ordinary table's: reviewed
    _seal(server, table["id"])
    for seat in range(4):
        refused = httpx2.post(f"{server.http}/api/reviews", json={**asked, "seat": seat})
        assert refused.status_code in (403, 404), refused.text
        assert "cards" not in refused.text
