"""The lobby's index and its socket on a live server: the listing follows every change a
table shows (no walk over the rooms), pages in order, and ``/ws/lobby`` pushes a snapshot
then only what changed; the lobby page lists a new table without polling."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of
from websockets.asyncio.client import ClientConnection, connect

from sueca.server import lobby
from sueca.server.app import _table_summary


def listing(server: LiveServer, query: str = "") -> dict[str, Any]:
    data: dict[str, Any] = httpx2.get(f"{server.http}/api/tables{query}").json()
    return data


def walked(server: LiveServer) -> list[dict[str, Any]]:
    """The listing as the server once computed it at each request: every room, sorted."""
    rooms = server.app.state.rooms.rooms.values()
    tables = [_table_summary(room) for room in rooms
              if room.table.phase != "match_over" or any(room.present)]
    tables.sort(key=lambda t: (-float(t["created"]), t["id"]))
    return tables


async def pushed(socket: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout))
    return message


async def pushed_until(socket: ClientConnection, check: Any,
                       timeout: float = 10.0) -> dict[str, Any]:
    while True:
        message = await pushed(socket, timeout)
        if check(message):
            return message


def test_the_listing_pages_newest_first_and_follows_every_change(server: LiveServer) -> None:
    ids = [create_table(server.http, ["human", "human", "bot", "bot"])["id"] for _ in range(5)]
    assert listing(server) == {"tables": walked(server), "total": 5}
    assert [t["id"] for t in listing(server)["tables"]] == ids[::-1]
    assert [t["id"] for t in listing(server, "?offset=1&limit=2")["tables"]] == ids[3:1:-1]
    for bad in ("?limit=0", "?limit=x", "?offset=-1", "?limit=" + "9" * 5000):
        assert listing(server, bad)["total"] == 5  # clamped or ignored, never a 500
    assert len(listing(server, "?limit=0")["tables"]) == 1

    first = server.room(ids[0])

    async def sit() -> None:
        token = first.table.seats[1].token
        player = await join(server.ws, ids[0], token, 1)
        await player.sync()
        seats = next(t for t in listing(server)["tables"] if t["id"] == ids[0])["seats"]
        assert seats[1]["status"] == "present"
        assert listing(server)["tables"] == walked(server)
        await player.socket.close()

    asyncio.run(sit())
    for _ in range(100):  # the server sees the socket go
        seats = next(t for t in listing(server)["tables"] if t["id"] == ids[0])["seats"]
        if seats[1]["status"] == "away":
            break
        time.sleep(0.05)
    assert seats[1]["status"] == "away"
    assert listing(server)["tables"] == walked(server)


def test_a_finished_match_leaves_the_listing(server: LiveServer) -> None:
    quick = {"rules": {"variant": "standard", "match_target": 1},
             "seats": [{"kind": "bot", "level": "random"}] * 4}
    table_id = httpx2.post(f"{server.http}/api/tables", json=quick).json()["id"]
    for _ in range(200):
        if not listing(server)["tables"]:
            break
        time.sleep(0.05)
    assert listing(server) == {"tables": [], "total": 0}
    assert server.room(table_id).table.phase == "match_over"


def test_the_lobby_socket_pushes_a_snapshot_then_only_what_changed(server: LiveServer) -> None:
    older = create_table(server.http, ["human", "bot", "bot", "bot"])

    async def run() -> None:
        async with connect(f"{server.ws}/ws/lobby") as socket:
            snapshot = await pushed(socket)
            assert snapshot["snapshot"] is True and snapshot["total"] == 1
            assert snapshot["order"] == [older["id"]]
            assert [t["id"] for t in snapshot["tables"]] == [older["id"]]
            assert snapshot["tables"] == listing(server)["tables"]

            newer = await asyncio.to_thread(create_table, server.http,
                                            ["human", "human", "bot", "bot"])
            added = await pushed_until(socket, lambda m: newer["id"] in m["order"])
            assert added["snapshot"] is False
            assert added["order"] == [newer["id"], older["id"]]
            assert [t["id"] for t in added["tables"]] == [newer["id"]]  # the old one unchanged

            player = await join(server.ws, older["id"], token_of(older, 0), 0)
            await player.sync()
            sat = await pushed_until(socket, lambda m: m["tables"])
            assert [t["id"] for t in sat["tables"]] == [older["id"]]
            assert sat["tables"][0]["seats"][0]["status"] == "present"
            assert sat["order"] == [newer["id"], older["id"]]

            await socket.send('{"type": "ping"}')
            assert (await pushed_until(socket, lambda m: m["type"] == "pong"))["type"] == "pong"
            await socket.send("x" * 5000)  # anything else is ignored; the socket stays
            await socket.send('{"type": "ping"}')
            await pushed_until(socket, lambda m: m["type"] == "pong")
            await player.socket.close()

    asyncio.run(run())


def test_a_removed_table_leaves_the_listing_and_the_feeds(server: LiveServer) -> None:
    room = server.room(create_table(server.http, ["human", "bot", "bot", "bot"])["id"])
    index = lobby.LobbyIndex(_table_summary)

    async def run() -> None:
        waker = index.watch()
        assert waker is not None
        feed = lobby.LobbyFeed(index, waker, _ignore, interval=0.0)
        index.changed(room)
        assert json.loads(feed.message() or "")["order"] == [room.table.id]
        assert index.in_play == 1
        waker.clear()
        index.removed(room.table.id)  # evicted, or closed
        assert waker.is_set()
        gone = json.loads(feed.message() or "")
        assert (gone["order"], gone["tables"], gone["total"]) == ([], [], 0)
        assert index.listing() == '{"tables":[],"total":0}' and index.in_play == 0
        index.removed(room.table.id)  # twice: nothing more
        feed.close()

    asyncio.run(run())


async def _ignore(text: str) -> None:
    pass


def test_a_feed_that_is_not_read_holds_one_page_not_a_queue(server: LiveServer) -> None:
    """Many changes while a socket does not read: each message is built when it is sent,
    so none is queued; the next one names each changed table once."""
    index = lobby.LobbyIndex(_table_summary)

    async def run() -> None:
        waker = index.watch()
        assert waker is not None
        feed = lobby.LobbyFeed(index, waker, _ignore, interval=0.0)
        assert json.loads(feed.message() or "")["snapshot"] is True
        assert feed.message() is None  # nothing changed
        room = server.room(create_table(server.http, ["human", "bot", "bot", "bot"])["id"])
        for _ in range(50):
            index.removed(room.table.id)  # gone and back: a change each time
            index.changed(room)
        message = json.loads(feed.message() or "")
        assert [t["id"] for t in message["tables"]] == [room.table.id]
        feed.close()

    asyncio.run(run())


def test_lobby_sockets_are_capped(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "MAX_FEEDS", 2)

    async def run() -> None:
        async with connect(f"{server.ws}/ws/lobby") as a, connect(f"{server.ws}/ws/lobby") as b:
            await pushed(a)
            await pushed(b)
            async with connect(f"{server.ws}/ws/lobby") as c:
                with pytest.raises(Exception):  # noqa: B017 (closed: 1013, try again later)
                    await pushed(c)
                assert c.close_code == 1013

    asyncio.run(run())


@pytest.mark.slow
def test_the_lobby_page_lists_a_new_table_without_polling(server: LiveServer) -> None:
    from web_support import CHROMIUM, LAUNCH_ARGS, need_chromium

    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=LAUNCH_ARGS)
        try:
            page = browser.new_page()
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url)
                    if r.url.endswith("/api/tables") and r.method == "GET" else None)
            page.goto(server.http + "/")
            page.wait_for_selector("#tables li.muted")  # "no tables" from the snapshot
            table = create_table(server.http, ["human", "bot", "bot", "bot"],
                                 names=["Zé Lobby", "", "", ""])
            page.wait_for_selector(f"#tables a[href='/t/{table['id']}']", timeout=10_000)
            assert "Zé Lobby" in page.locator("#tables").inner_text()
            assert asked == []  # pushed: the page never asked
        finally:
            browser.close()
