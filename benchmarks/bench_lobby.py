"""The lobby's listing at N tables: the walk over every room (the listing before the index)
against a page of the index (lobby.LobbyIndex), and GET /api/tables as a client sees it.

One server process (``sueca serve``'s app on uvicorn, SQLite in a temporary directory, no
rate limits) holds N tables of four invited people (nobody comes, so no bot plays and the
tables stay put). Measured, each ``--repeat`` times:

- ``walk_ms``: what ``GET /api/tables`` cost on the event loop before the index — a summary
  of every room, filtered, sorted, the first 200 encoded (the old handler's body, here);
- ``index_ms``: what it costs now — ``LobbyIndex.listing()``, a slice of encoded summaries;
- ``get_ms``: a client's ``GET /api/tables`` round trip on the loopback, now;
- ``changed_us``: what each broadcast now adds to keep the index (a table's fingerprint
  compared, the summary re-encoded only when the lobby would show something new).

Medians and 99th percentiles; the two computations run in this process on the server's own
rooms (read between requests, while the server idles).

Then what a player feels (``--seconds`` per mode): one seated player's ping round trip (a
``{"type": "ping"}`` every 50 ms on the table's socket) while ``--lobbies`` lobby pages are
open, each either polling the old walk (served here at ``/bench/walk``, the old handler) every
``--poll`` seconds (``walk``: the lobby before), polling ``GET /api/tables`` (``index``), or
holding a ``/ws/lobby`` socket (``push``: the lobby now).

    python benchmarks/bench_lobby.py --tables 2000 --repeat 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from websockets.asyncio.client import connect

from sueca.server import Timing, create_app
from sueca.server.app import _table_summary


def walk(rooms: Any) -> bytes:
    """The listing as the handler computed it before the index (its body, verbatim)."""
    tables = [_table_summary(room) for room in rooms.rooms.values()
              if room.table.phase != "match_over" or any(room.present)]
    tables.sort(key=lambda t: -float(t["created"]))
    return bytes(JSONResponse({"tables": tables[:200]}).body)


async def player_pings(base: str, table: dict[str, Any], mode: str, lobbies: int,
                       poll: float, seconds: float) -> list[float]:
    """A seated player's ping round trips (ms) while the lobby pages do what ``mode`` says."""
    ws = base.replace("http", "ws")
    stop = asyncio.Event()

    async def poller(path: str, offset: float) -> None:
        async with httpx2.AsyncClient(base_url=base, timeout=60) as client:
            await asyncio.sleep(offset)
            while not stop.is_set():
                await client.get(path)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), poll)

    async def listener() -> None:
        async with connect(f"{ws}/ws/lobby") as socket:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(socket.recv(), 0.5)

    tasks = [asyncio.create_task(
        listener() if mode == "push" else
        poller("/bench/walk" if mode == "walk" else "/api/tables", poll * n / lobbies))
        for n in range(lobbies)]
    token = table["seats"][0]["link"].split("#", 1)[1]
    times: list[float] = []
    async with connect(f"{ws}/ws/{table['id']}") as socket:
        await socket.send(json.dumps({"type": "join", "token": token}))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            await socket.send('{"type": "ping"}')
            while json.loads(await socket.recv())["type"] != "pong":
                pass
            times.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*tasks)
    return times


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 3),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--lobbies", type=int, default=4)
    parser.add_argument("--poll", type=float, default=5.0,
                        help="seconds between two polls of one lobby page (the old page: 5)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "bench.db", timing=Timing(invite_wait=3600.0))

        async def old_listing(request: Request) -> Response:
            return Response(walk(app.state.rooms), media_type="application/json")

        app.router.routes.insert(0, Route("/bench/walk", old_listing))
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        seats = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
        with httpx2.Client(base_url=base) as client:
            for n in range(args.tables):
                response = client.post("/api/tables", json={
                    "rules": {"variant": "standard"}, "seats": seats, "open": n % 3 == 0})
                assert response.status_code == 201, response.text
            rooms = app.state.rooms
            index = rooms.watcher
            assert index.total == args.tables
            walk_ms, index_ms, get_ms, changed_us = [], [], [], []
            some = list(rooms.rooms.values())
            for i in range(args.repeat):
                started = time.perf_counter()
                walk(rooms)
                walk_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                index.listing()
                index_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                response = client.get("/api/tables")
                get_ms.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200 and len(response.json()["tables"]) == 200
                room = some[i % len(some)]
                started = time.perf_counter()
                index.changed(room)  # what a broadcast adds: nothing shown changed
                changed_us.append((time.perf_counter() - started) * 1e6)
            player = client.post("/api/tables", json={
                "rules": {"variant": "standard"}, "seats": seats}).json()
        pings = {mode: percentiles(asyncio.run(player_pings(
                     base, player, mode, args.lobbies, args.poll, args.seconds)))
                 for mode in ("walk", "index", "push")}
        server.should_exit = True
        thread.join(timeout=10)
    walk_p, index_p = percentiles(walk_ms), percentiles(index_ms)
    print(json.dumps({
        "tables": args.tables, "repeat": args.repeat,
        "walk_ms": walk_p, "index_ms": index_p, "get_ms": percentiles(get_ms),
        "changed_us": percentiles(changed_us),
        "walk_over_index": round(walk_p["p50"] / index_p["p50"], 1),
        "lobbies": args.lobbies, "poll_s": args.poll, "player_ping_ms": pings,
    }))


if __name__ == "__main__":
    main()
