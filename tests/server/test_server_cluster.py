"""The cluster's Redis pieces on a real Redis server (skipped with the reason where none is
running; CI starts one): leases and their tokens, renewal and loss, the worker registry, the
channels; and the whole cluster: a match over two worker processes whose owner is killed
mid-trick."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from server_support import (
    FAST,
    LiveServer,
    Player,
    create_table,
    join,
    leaked_cards,
    play_on,
    token_of,
)
from services import fresh_postgres_database, redis_url

from sueca.record import check
from sueca.server import create_app
from sueca.server.cluster import Cluster
from sueca.server.node import ClusterOptions
from sueca.server.postgres import PostgresStorage


def _run(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """Run an async test with two workers of a cluster of its own (its own key prefix)."""

    def wrapper() -> None:
        url = redis_url()

        async def body() -> None:
            prefix = f"test-{secrets.token_hex(4)}"
            a = Cluster.from_url(url, "A", prefix=prefix, lease_ttl=0.6, heartbeat_every=0.2)
            b = Cluster.from_url(url, "B", prefix=prefix, lease_ttl=0.6, heartbeat_every=0.2)
            try:
                await test(a, b)
            finally:
                async for key in a.client.scan_iter(match=f"{prefix}:*"):
                    await a.client.delete(key)
                await a.close()
                await b.close()

        asyncio.run(body())

    wrapper.__name__ = test.__name__
    return wrapper


@_run
async def test_one_owner_at_a_time_and_tokens_only_grow(a: Cluster, b: Cluster) -> None:
    first = await a.acquire("t1")
    assert first is not None and first.worker == "A"
    assert await b.acquire("t1") is None  # held
    assert await b.owner("t1") == ("A", first.token)
    await a.release(first)
    assert await a.owner("t1") is None
    second = await b.acquire("t1")
    assert second is not None and second.token > first.token
    assert await a.owners(["t1", "t2"]) == {"t1": ("B", second.token), "t2": None}


@_run
async def test_a_lease_lasts_while_renewed_and_lapses_when_not(a: Cluster, b: Cluster) -> None:
    await a.join(port=1)
    lease = await a.acquire("t1")
    assert lease is not None
    for _ in range(5):  # 1 s, past the 0.6 s lease: renewals keep it
        await asyncio.sleep(0.2)
        assert await a.heartbeat() == []
    assert await b.acquire("t1") is None
    assert set(await b.workers()) == {"A"} and (await b.workers())["A"]["port"] == 1
    await asyncio.sleep(0.8)  # A stops renewing (killed): its key and lease lapse together
    assert not await b.alive("A") and await b.owner("t1") is None
    taken = await b.acquire("t1")
    assert taken is not None and taken.token > lease.token
    # A wakes up: its renewal tells it the table is gone, and it holds nothing more.
    assert await a.heartbeat() == [lease]
    assert a.leases == {} and await b.owner("t1") == ("B", taken.token)


@_run
async def test_a_release_by_a_stale_holder_changes_nothing(a: Cluster, b: Cluster) -> None:
    old = await a.acquire("t1")
    assert old is not None
    await asyncio.sleep(0.8)
    new = await b.acquire("t1")
    assert new is not None
    await a.release(old)  # too late: the lease is B's now
    assert await a.owner("t1") == ("B", new.token)


@_run
async def test_leave_frees_every_lease_at_once(a: Cluster, b: Cluster) -> None:
    await a.join()
    for table in ("t1", "t2"):
        assert await a.acquire(table) is not None
    await a.leave()
    assert await b.owners(["t1", "t2"]) == {"t1": None, "t2": None}
    assert await b.workers() == {}


@_run
async def test_channels_carry_json_objects_and_drop_the_rest(a: Cluster, b: Cluster) -> None:
    heard: list[tuple[str, dict[str, Any]]] = []
    ready = asyncio.Event()

    async def listen() -> None:
        async for item in b.listen(b.keys.inbox("B"), b.keys.lobby, ready=ready):
            heard.append(item)
            if len(heard) == 2:
                return

    task = asyncio.create_task(listen())
    await asyncio.wait_for(ready.wait(), 5)
    await a.client.publish(b.keys.inbox("B"), b"not json")
    await a.client.publish(b.keys.inbox("B"), b"[1, 2]")
    assert await a.send_to("B", {"op": "hello", "text": "olá"}) == 1
    await a.publish(a.keys.lobby, {"op": "changed"})
    await asyncio.wait_for(task, 5)
    assert heard == [(b.keys.inbox("B"), {"op": "hello", "text": "olá"}),
                     (b.keys.lobby, {"op": "changed"})]


def test_a_lease_must_outlast_two_heartbeats() -> None:
    with pytest.raises(ValueError, match="outlast"):
        Cluster(None, "A", lease_ttl=1.0, heartbeat_every=0.6)  # type: ignore[arg-type]



# ---- two workers in this process (each its own thread, loop and node) ------------------------


class ThreadWorker(LiveServer):
    """A worker of a cluster on uvicorn in a thread (server_support's LiveServer)."""

    def __init__(self, options: ClusterOptions) -> None:
        self.app = create_app(cluster=options, timing=FAST, seed=None)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


@pytest.fixture
def two_workers() -> Iterator[tuple[ThreadWorker, ThreadWorker]]:
    with fresh_postgres_database() as db:
        options = ClusterOptions(redis_url(), db, prefix=f"test-{secrets.token_hex(4)}",
                                 lease_ttl=1.5, heartbeat_every=0.3, adopt_every=0.3)
        with ThreadWorker(options) as a, ThreadWorker(options) as b:
            yield a, b


def test_a_table_of_one_worker_is_listed_and_played_on_the_other(
        two_workers: tuple[ThreadWorker, ThreadWorker]) -> None:
    a, b = two_workers
    table = create_table(a.http, ["human", "human", "bot", "bot"], level="heuristic")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the lobby change reaches the other worker
        listed = httpx2.get(f"{b.http}/api/tables").json()["tables"]
        if [t["id"] for t in listed] == [table["id"]]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the other worker never listed the table")
    assert listed[0]["seats"][0]["name"] == "Ana" and "token" not in json.dumps(listed)

    async def play() -> list[Player]:
        # One person on each worker: seat 1's socket is relayed from b to a, the owner.
        players = [await join(a.ws, table["id"], token_of(table, 0), 0),
                   await join(b.ws, table["id"], token_of(table, 1), 1)]
        spectator = await join(b.ws, table["id"], None, None)
        rngs = [random.Random(1), random.Random(2)]
        await asyncio.gather(*(play_on(p, r, stop_at_played=12)
                               for p, r in zip(players, rngs, strict=True)))
        for _ in range(50):  # the bots play on to a person's turn; then all agree
            views = [await p.sync() for p in (*players, spectator)]
            if len({(v["played"], v["version"]) for v in views}) == 1:
                break
            await asyncio.sleep(0.1)
        assert len({(v["played"], v["version"]) for v in views}) == 1  # one table, one state
        assert views[1]["you"] == 1 and views[1]["hand"]
        assert views[2]["you"] is None and views[2]["hand"] == []  # the spectator
        await players[1].send({"type": "play", "card": "XX"})  # refused, on its socket only
        error = await players[1].recv_until("error")
        assert error["code"] == "malformed"
        await players[1].send({"type": "ping", "pad": "x" * 2000})  # refused before Redis
        error = await players[1].recv_until("error")
        assert error["code"] == "too_large"
        return [*players, spectator]

    players = asyncio.run(play())
    owner = a.app.state.rooms
    assert table["id"] in owner.rooms and table["id"] not in b.app.state.rooms.rooms
    stored = owner.storage.load_table(table["id"])
    assert stored is not None and stored.match is not None
    record = stored.match.record
    for player in players:
        assert [m["code"] for m in player.log if m["type"] == "error"] == (
            ["malformed", "too_large"] if player.seat == 1 else [])
        for message in player.log:
            assert not leaked_cards(message, player.seat, record), message


def test_a_free_seat_is_taken_through_any_worker(
        two_workers: tuple[ThreadWorker, ThreadWorker]) -> None:
    a, b = two_workers
    created = httpx2.post(f"{a.http}/api/tables", json={
        "rules": {"variant": "standard"}, "open": True,
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                  {"kind": "bot"}, {"kind": "bot"}]})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    taken = httpx2.post(f"{b.http}/api/tables/{table_id}/seats/1", json={"name": "Rui"})
    assert taken.status_code == 200, taken.text
    token = taken.json()["token"]
    again = httpx2.post(f"{b.http}/api/tables/{table_id}/seats/1", json={"name": "Zé"})
    assert again.status_code == 409 and again.json()["error"]  # the owner's refusal
    assert httpx2.post(f"{b.http}/api/tables/nothing/seats/1", json={}).status_code == 404

    async def sit() -> dict[str, Any]:
        player = await join(b.ws, table_id, token, 1)
        return await player.sync()

    view = asyncio.run(sit())
    assert view["you"] == 1 and view["seats"][1]["name"] == "Rui"


# ---- the whole cluster: worker processes on real sockets -------------------------------------

WORKER = """
import json, sys, uvicorn
from sueca.server import Timing, create_app
from sueca.server.node import ClusterOptions
app = create_app(cluster=ClusterOptions(**json.loads(sys.argv[1])),
                 timing=Timing(grace=60, bot_delay=0.0, trick_pause=0.0))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _start_worker(options: dict[str, Any], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(options), str(port)])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=1).status_code == 200:
                return process
        except httpx2.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the worker did not start")


def _facts(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["deal"], view["played"], view["hand"], view["trick"], view["to_play"],
            view["score"]["match"], view["trump_card"], view["dealer"])


@pytest.mark.slow
def test_a_match_over_two_workers_survives_the_owner_killed_mid_trick() -> None:
    """Four people, two on each worker; the table's owner is killed (SIGKILL) mid-trick; the
    other worker takes the table over from the store at the same card, the two people of the
    dead worker reconnect to it, and the match is played to its end. Every record checks, and
    no socket ever saw a card its seat may not see."""
    with fresh_postgres_database() as db:
        options = {"redis_url": redis_url(), "db_url": db,
                   "prefix": f"test-{secrets.token_hex(4)}", "lease_ttl": 1.5,
                   "heartbeat_every": 0.3, "adopt_every": 0.3}
        ports = [_free_port(), _free_port()]
        workers = [_start_worker(options, port) for port in ports]
        try:
            _play_over_two_workers(options, ports, workers)
        finally:
            for worker in workers:
                worker.kill()
                worker.wait(timeout=10)
        store = PostgresStorage(db)
        try:
            (match,) = store.finished_matches()
            report = check(match.record)
        finally:
            store.close()
    assert report["valid"], report["error"]
    assert report["match"]["winner"] is not None


def _play_over_two_workers(options: dict[str, Any], ports: list[int],
                           workers: list[subprocess.Popen[bytes]]) -> None:
    http = [f"http://127.0.0.1:{port}" for port in ports]
    ws = [f"ws://127.0.0.1:{port}" for port in ports]
    # Created on worker 0, which owns it; a target one deal cannot reach.
    table = create_table(http[0], ["human"] * 4, {"variant": "standard", "match_target": 2})
    tokens = [token_of(table, seat) for seat in range(4)]
    on_worker = [0, 0, 1, 1]

    async def owner_of(table_id: str) -> str | None:
        cluster = Cluster.from_url(options["redis_url"], "probe", prefix=options["prefix"])
        try:
            owner = await cluster.owner(table_id)
            return None if owner is None else owner[0]
        finally:
            await cluster.close()

    async def match() -> list[Player]:
        first_owner = await owner_of(table["id"])
        players = [await join(ws[on_worker[s]], table["id"], tokens[s], s) for s in range(4)]
        rngs = [random.Random(s) for s in range(4)]
        # Mid-trick: two cards of the second trick down; every player stops there.
        await asyncio.gather(*(play_on(p, r, stop_at_played=6)
                               for p, r in zip(players, rngs, strict=True)))
        before = [_facts(await p.sync()) for p in players]
        assert before[0][1] == 6
        os.kill(workers[0].pid, signal.SIGKILL)
        workers[0].wait(timeout=10)
        # The relayed players' socket stays open: the other worker takes the table over and
        # sends each its seat's view again. The dead worker's players reconnect to it.
        for seat in (0, 1):
            with contextlib.suppress(Exception):
                await players[seat].socket.close()
            players[seat] = await join(ws[1], table["id"], tokens[seat], seat)
        for seat in (2, 3):
            while _facts(await players[seat].sync()) != before[seat] or (
                    await owner_of(table["id"])) in (None, first_owner):
                await players[seat].recv(10)
        after = [_facts(await p.sync()) for p in players]
        assert after == before  # the same card, the same hands, the same trick
        assert await owner_of(table["id"]) not in (None, first_owner)
        rngs = [random.Random(10 + s) for s in range(4)]
        finals = await asyncio.gather(*(play_on(p, r, timeout=30)
                                        for p, r in zip(players, rngs, strict=True)))
        assert all(f["phase"] == "match_over" for f in finals)
        return players

    players = asyncio.run(match())
    store = PostgresStorage(options["db_url"])
    try:
        (stored,) = store.finished_matches()
        record = stored.record
    finally:
        store.close()
    for player in players:
        for message in player.log:
            assert not leaked_cards(message, player.seat, record), message


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# ---- sueca serve --workers -------------------------------------------------------------------


def test_serve_refuses_a_cluster_without_its_servers(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from sueca.cli import app

    runner = CliRunner()
    alone = runner.invoke(app, ["serve", "--workers", "2"])
    assert alone.exit_code != 0 and "--workers needs --redis" in alone.output
    sqlite = runner.invoke(app, ["serve", "--redis", "redis://127.0.0.1:1/0",
                                 "--db", str(tmp_path / "x.db")])
    assert sqlite.exit_code != 0 and "--redis needs a PostgreSQL --db" in sqlite.output
    many = runner.invoke(app, ["serve", "--workers", "65"])
    assert many.exit_code != 0 and "--workers must be from 1 to 64" in many.output


def test_serve_names_the_server_that_does_not_answer() -> None:
    from typer.testing import CliRunner

    from sueca.cli import app

    with fresh_postgres_database() as db:
        result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", db,
                                          "--redis", "redis://:secret@127.0.0.1:1/0"])
    assert result.exit_code == 1, result.output
    assert "cannot reach Redis at redis://:***@127.0.0.1:1/0" in result.output
    assert "secret" not in result.output


@pytest.mark.slow
def test_serve_workers_share_one_port_and_replace_a_dead_one() -> None:
    """``sueca serve --workers 2``: two processes on one port; a table made through it plays;
    a worker killed is replaced; SIGTERM stops them all."""
    with fresh_postgres_database() as db:
        port = _free_port()
        supervisor = subprocess.Popen(
            [str(Path(sys.executable).parent / "sueca"), "serve", "--port", str(port),
             "--workers", "2", "--db", db, "--redis", redis_url(), "--bot-workers", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            workers = _children(supervisor.pid, 2)
            base = f"http://127.0.0.1:{port}"
            _wait_for(lambda: httpx2.get(f"{base}/api/bots", timeout=1).status_code == 200)
            tables = [create_table(base, ["human", "bot", "bot", "bot"], level="random")
                      for _ in range(6)]
            # Made through one port, the tables are spread over both; each lists them all.
            _wait_for(lambda: {t["id"] for t in tables} <= {
                t["id"] for t in httpx2.get(f"{base}/api/tables").json()["tables"]})
            os.kill(workers[0], signal.SIGKILL)
            replaced = _children(supervisor.pid, 2, besides={workers[1]})
            assert workers[0] not in replaced

            async def play() -> dict[str, Any]:
                player = await join(f"ws://127.0.0.1:{port}", tables[0]["id"],
                                    token_of(tables[0], 0), 0)
                return await play_on(player, random.Random(5), stop_at_played=8, timeout=30)

            assert asyncio.run(play())["played"] >= 8
            supervisor.send_signal(signal.SIGTERM)
            assert supervisor.wait(timeout=30) == 0
            for pid in replaced:
                _wait_for(lambda pid=pid: not _alive(pid))
        finally:
            if supervisor.poll() is None:
                supervisor.kill()
            supervisor.wait(timeout=10)


def _children(parent: int, count: int, besides: set[int] | None = None) -> list[int]:
    """The parent's ``count`` live worker processes (waiting for them to start)."""
    found: list[int] = []

    def ready() -> bool:
        found[:] = [pid for pid in _child_pids(parent) if _alive(pid)]
        return len(found) >= count and (besides is None or besides <= set(found))

    _wait_for(ready, 60)
    return found


def _child_pids(parent: int) -> list[int]:
    """The worker processes among the parent's children (multiprocessing's resource tracker
    is one too)."""
    try:
        text = Path(f"/proc/{parent}/task/{parent}/children").read_text()
        return [int(pid) for pid in text.split()
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("timed out")


@pytest.mark.slow
def test_tables_play_on_after_redis_restarts(tmp_path: Path) -> None:
    """Redis restarted empty (no persistence): every lease and registry key is gone; the
    workers notice at their next heartbeat, take the tables again (fenced anew), and the
    players' sockets, never closed, go on at the same card."""
    import redis

    port = _free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(tmp_path)]
    url = f"redis://127.0.0.1:{port}/0"
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        _wait_for(lambda: _pings(url))
        with fresh_postgres_database() as db:
            options = ClusterOptions(url, db, lease_ttl=1.5, heartbeat_every=0.3,
                                     adopt_every=0.3)
            with ThreadWorker(options) as a, ThreadWorker(options) as b:
                table = create_table(a.http, ["human", "human", "bot", "bot"],
                                     level="random")

                async def play() -> None:
                    players = [await join(a.ws, table["id"], token_of(table, 0), 0),
                               await join(b.ws, table["id"], token_of(table, 1), 1)]
                    rngs = [random.Random(3), random.Random(4)]
                    await asyncio.gather(*(play_on(p, r, stop_at_played=5)
                                           for p, r in zip(players, rngs, strict=True)))
                    server.terminate()
                    server.wait(timeout=10)
                    await asyncio.sleep(1.0)
                    restarted = subprocess.Popen(command, stdout=subprocess.DEVNULL)
                    try:
                        deadline = time.monotonic() + 20
                        while not _owned_again(url, table["id"]):
                            assert time.monotonic() < deadline, "nobody took the table again"
                            await asyncio.sleep(0.2)
                        for player in players:  # the view once the table is played again
                            await player.sync()
                        # A move made on the old owner before it saw its lease gone is refused
                        # by the store's fence (storage_unavailable: nothing changed, try
                        # again); the player tries again, and it lands on the new owner.
                        await asyncio.gather(*(_play_retrying(p, r, 14)
                                               for p, r in zip(players, rngs, strict=True)))
                        views = [await p.sync() for p in players]
                        assert min(v["played"] for v in views) >= 14
                    finally:
                        restarted.terminate()
                        restarted.wait(timeout=10)

                asyncio.run(play())
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(timeout=10)
    del redis


async def _play_retrying(player: Player, rng: random.Random, played: int) -> None:
    for _ in range(3):
        try:
            await play_on(player, rng, stop_at_played=played, timeout=30)
            return
        except AssertionError as error:
            if "storage_unavailable" not in str(error):
                raise
            await asyncio.sleep(0.5)
            await player.sync()
    raise AssertionError("refused three times")


def _pings(url: str) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _owned_again(url: str, table_id: str) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        return client.get(f"sueca:lease:{table_id}") is not None
    except redis.RedisError:
        return False
    finally:
        client.close()


@_run
async def test_a_token_stays_above_the_floor_after_redis_forgets(a: Cluster, b: Cluster) -> None:
    first = await a.acquire("t1")
    assert first is not None
    await a.release(first)
    await a.client.delete(a.keys.token("t1"))  # Redis restarted empty: the counter is gone
    again = await b.acquire("t1", floor=first.token + 5)  # the store's fence says otherwise
    assert again is not None and again.token == first.token + 6
    await b.release(again)
    later = await a.acquire("t1")
    assert later is not None and later.token > again.token
