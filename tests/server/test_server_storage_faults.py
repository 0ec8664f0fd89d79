"""Storage faults the server must survive (issue 16, section 1): a corrupt stored table is
skipped and the others run, the write-ahead log stays bounded, a second server on the same
database refuses to start, and a change the store refuses (a lock held elsewhere, a failing
disk) changes nothing, blocks no other table, and goes through once the store works."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of
from starlette.testclient import TestClient

from sueca.actions import Play
from sueca.cards import card_name
from sueca.rules import Rules
from sueca.server import Timing, create_app
from sueca.server.rooms import Connection, Rooms
from sueca.server.storage import (
    JOURNAL_SIZE_LIMIT,
    NEW_MATCH,
    DatabaseInUseError,
    SQLiteStorage,
    Write,
)
from sueca.server.tables import SeatConfig, Table

FAST = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0)


def stored_tables(db: Path, ids: list[str]) -> None:
    """Tables of four people, stored and dealt, as the server leaves them."""
    store = SQLiteStorage(db)
    try:
        rules = Rules()
        for table_id in ids:
            seats = [SeatConfig("human", f"P{s}", token=f"tok{s}") for s in range(4)]
            Table.create(table_id, rules, seats, store, random.Random(1), created=1.0)
    finally:
        store.close()


@pytest.mark.parametrize("corrupt", [
    "UPDATE tables SET settings = '{not json' WHERE id = 'bad'",
    "UPDATE tables SET settings = '{\"seats\": []}' WHERE id = 'bad'",
    "UPDATE deals SET hands = '[\"ZZ\"]' WHERE match_id ="
    " (SELECT id FROM matches WHERE table_id = 'bad')",
    "INSERT INTO actions SELECT id, 0, 0, 0, '{\"type\": \"play\", \"card\": \"XX\"}'"
    " FROM matches WHERE table_id = 'bad'",
    "INSERT INTO actions SELECT id, 0, 0, 0, 'garbage' FROM matches WHERE table_id = 'bad'",
])
def test_a_table_that_cannot_be_restored_is_reported_and_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, corrupt: str,
) -> None:
    db = tmp_path / "sueca.db"
    stored_tables(db, ["good1", "bad", "good2"])
    with sqlite3.connect(db) as raw:
        raw.execute(corrupt)
    raw.close()
    with (caplog.at_level(logging.WARNING, logger="sueca.server"),
          TestClient(create_app(db, timing=FAST, seed=1)) as client):
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {"good1", "good2"}
    reports = [r for r in caplog.records if "bad" in r.getMessage()]
    assert len(reports) == 1, [r.getMessage() for r in caplog.records]
    assert reports[0].exc_info is None  # one line, no traceback
    assert "skipped" in reports[0].getMessage()


def test_the_default_journal_size_limit_is_set(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "sueca.db")
    try:
        (limit,) = store._db.execute("PRAGMA journal_size_limit").fetchone()
        assert limit == JOURNAL_SIZE_LIMIT
    finally:
        store.close()


class _CheckpointsSeen:
    """The checkpointer's connection, as :meth:`SQLiteStorage._checkpoint` uses it, noting per
    checkpoint the log's size once the passive checkpoint is done, and the moment a TRUNCATE
    one returns whether it got the writers out of its way and the size it left: still inside
    the storage's ``_truncating`` lock, so no writer's frame comes between (the writes below go
    through :meth:`SQLiteStorage.save`, as the server's do, and wait on that lock)."""

    def __init__(self, db: sqlite3.Connection, wal: Path, seen: list[list[int]]) -> None:
        self._db, self._wal, self._seen = db, wal, seen

    def execute(self, sql: str) -> sqlite3.Cursor:
        cursor = self._db.execute(sql)
        if "PASSIVE" in sql:
            self._seen.append([self._wal.stat().st_size])
        elif "TRUNCATE" in sql:
            (busy, _log, _done) = cursor.fetchone()
            self._seen[-1] += [busy, self._wal.stat().st_size]
        return cursor


def test_the_write_ahead_log_stays_bounded_under_steady_writes(tmp_path: Path) -> None:
    """Passive checkpoints alone never catch up with steady writes (this loop grew the log to
    50 MB with them): a checkpoint that finds the log past its limit must empty it, while the
    writes go on. What is held is the mechanism, not the machine's pace: every checkpoint that
    left the log past its limit went on to a TRUNCATE one, and each TRUNCATE that got the
    writers out of its way left the log empty (a slow machine checkpoints less often, or
    writes less per tick: never a log that is carried on growing)."""
    db = tmp_path / "sueca.db"
    limit = 1024 * 1024
    wal = db.with_name(db.name + "-wal")
    seen: list[list[int]] = []  # per checkpoint: [size after PASSIVE, (busy, size after TRUNCATE)]

    class Watched(SQLiteStorage):
        def _checkpoint(self, db: sqlite3.Connection) -> None:
            if db is self._db:  # _checkpoint_now, on the store's own connection
                super()._checkpoint(db)
            else:
                super()._checkpoint(_CheckpointsSeen(db, wal, seen))  # type: ignore[arg-type]

    store = Watched(db, journal_size_limit=limit, checkpoint_every=0.02)
    written = 0
    try:
        store.create_table("t", {"seats": []})
        match_id = store.start_match("t", {"variant": "standard"}, 0, ["a", "b", "c", "d"])
        padding = "x" * 2000  # 3,000 fat moves: some 25 MB through the log
        for deal in range(60):
            store.save([Write("add_deal", (match_id, deal, 0, ["AS"] * 4, "AS"))])
            for seq in range(50):
                action = {"type": "play", "card": "AS", "pad": padding}
                store.save([Write("add_action", (match_id, deal, seq, seq % 4, action))])
                written += len(padding)
                time.sleep(0.0002)
        store.close()  # the checkpointer stopped: nothing changes ``seen`` any more
        assert written >= 5 * limit and seen  # many logs' worth, under checkpoints
        past = [tick for tick in seen if tick[0] > limit]
        assert all(len(tick) == 3 for tick in past), past[:5]  # each past the limit truncated
        assert all(size == 0 for _, busy, size in past if not busy), past[:5]
        assert not past or any(not busy for _, busy, _size in past), past[:5]
    finally:
        store.close()
    reopened = SQLiteStorage(db)
    try:
        reopened._checkpoint_now()  # no other checkpointer now: this one is never busy
        assert not wal.exists() or wal.stat().st_size <= limit  # the last close may remove it
        assert len(reopened.load_match(match_id).deals) == 60  # type: ignore[union-attr]
    finally:
        reopened.close()


def test_the_checkpoint_truncates_the_log(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    store = SQLiteStorage(db, journal_size_limit=64 * 1024, checkpoint_every=3600)
    try:
        store.create_table("t", {"seats": []})
        match_id = store.start_match("t", {"variant": "standard"}, 0, ["a", "b", "c", "d"])
        store.add_deal(match_id, 0, 0, ["AS"] * 4, "AS")
        for seq in range(2000):
            store.add_action(match_id, 0, seq, 0, {"type": "play", "card": "AS", "p": "x" * 500})
        wal = db.with_name(db.name + "-wal")
        assert wal.stat().st_size > 64 * 1024  # no checkpoint yet: the log grew
        store._checkpoint_now()
        assert wal.stat().st_size <= 64 * 1024
    finally:
        store.close()


def test_a_second_storage_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    first = SQLiteStorage(db, lock=True)
    try:
        with pytest.raises(DatabaseInUseError, match=r"sueca\.db\.lock"):
            SQLiteStorage(db, lock=True)
        SQLiteStorage(db).close()  # reading beside the server, as an sqlite3 shell would
    finally:
        first.close()
    SQLiteStorage(db, lock=True).close()  # released with the first: a restart opens it


def test_memory_databases_need_no_lock() -> None:
    first, second = SQLiteStorage(":memory:", lock=True), SQLiteStorage(":memory:", lock=True)
    first.close()
    second.close()


def test_a_second_app_on_the_same_database_does_not_start(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    with TestClient(create_app(db, timing=FAST, seed=1)) as client:
        assert client.get("/api/tables").status_code == 200
        with (pytest.raises(DatabaseInUseError),
              TestClient(create_app(db, timing=FAST, seed=1))):
            pass  # pragma: no cover - the lifespan refuses to start


def test_a_second_sueca_serve_exits_with_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    held = SQLiteStorage(db, lock=True)
    try:
        done = subprocess.run(
            [str(Path(sys.executable).with_name("sueca")), "serve", "--db", str(db), "--port", "0"],
            capture_output=True, text=True, timeout=60)
    finally:
        held.close()
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, done.stderr
    assert "sueca.db.lock" in errors[0] and "Traceback" not in done.stderr


# ---- store first: a change the store refuses changes nothing ----------------------------------


class FaultyStorage(SQLiteStorage):
    """The real SQLite store, whose batches fail on demand as a full disk would: a fault
    injector, the store itself untouched."""

    failing = False
    refused = 0

    def save(self, writes: Any) -> int | None:
        if self.failing:
            self.refused += 1
            raise sqlite3.OperationalError("disk I/O error")
        return super().save(writes)


def position(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["deal"], view["played"], view["hand"], view["trick"], view["actor"],
            view["phase"], view["score"]["match"])


def test_a_batch_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "sueca.db")
    try:
        store.create_table("t", {"seats": []})
        match_id = store.save([Write("start_match", ("t", {"variant": "standard"}, 0, ["a"])),
                               Write("add_deal", (NEW_MATCH, 0, 0, ["AS"] * 4, "AS"))])
        assert match_id is not None
        with pytest.raises(sqlite3.IntegrityError):
            store.save([Write("add_action", (match_id, 0, 0, 1, {"type": "play", "card": "2S"})),
                        Write("add_action", (match_id, 0, 0, 2, {"type": "play", "card": "3S"}))])
        stored = store.load_match(match_id)
        assert stored is not None and stored.deals[0].actions == []  # the first one too
        with pytest.raises(ValueError, match="no such write"):
            store.save([Write("close", ())])
    finally:
        store.close()


def test_a_rolled_back_table_is_the_stored_one(tmp_path: Path) -> None:
    """The copy a table keeps of what is stored is what the store reads back: after every
    stored move, the rolled-back table and the table restored from storage play on alike;
    with a move pending, rolling back drops exactly that move."""
    store = SQLiteStorage(tmp_path / "sueca.db")
    rng = random.Random(4)
    try:
        seats = [SeatConfig("human", f"P{s}", token=f"tok{s}") for s in range(4)]
        table = Table.create("t", Rules(match_target=2), seats, store, random.Random(2),
                             autosave=False)
        table.saved(store.save(table.pending))
        while table.phase != "match_over":
            assert table.state is not None
            stored_deal, stored_plays = table.state.deal, list(table.state.plays)
            if table.phase == "deal_over":
                table.deal_next()
            else:
                seat, request = table.asked()  # type: ignore[misc]
                table.submit(seat, Play(rng.choice(request.legal)))  # type: ignore[attr-defined]
            assert table.pending
            before = table.rolled_back()  # the change not stored: as if never made
            assert before.state is not None and before.state.deal == stored_deal
            assert before.state.plays == stored_plays
            table.saved(store.save(table.pending))
            assert not table.pending
            again = table.rolled_back()
            loaded = store.load_table("t")
            assert loaded is not None
            restored = Table.restore(loaded, store, random.Random(0), autosave=False)
            for copy in (again, restored):
                assert copy.state is not None and copy.state.plays == table.state.plays
                assert copy.state.deal == table.state.deal
                assert list(copy.match.score) == list(table.match.score)
                assert copy.phase == table.phase and copy.asked() == table.asked()
            table = again  # play on from the copy: it is the table
        assert table.phase == "match_over"
    finally:
        store.close()


def test_a_lock_held_elsewhere_refuses_the_card_and_the_loop_goes_on(tmp_path: Path) -> None:
    """A real second connection holds the database (BEGIN EXCLUSIVE, as an ``sqlite3`` shell
    or a backup may): the card is refused with storage_unavailable, nothing changes, the socket
    stays open, another table's ping is answered before the refusal (the event loop does not
    wait on the lock), the same card plays once the lock is gone, and a restart finds it."""
    db = tmp_path / "sueca.db"
    humans = ["human"] * 4

    async def play_under_the_lock(server: LiveServer) -> tuple[str, list[Any]]:
        first = create_table(server.http, humans)
        second = create_table(server.http, humans)
        players = [await join(server.ws, first["id"], token_of(first, s), s) for s in range(4)]
        elsewhere = await join(server.ws, second["id"], token_of(second, 0), 0)
        views = [await p.sync() for p in players]
        actor = players[views[0]["actor"]]
        card = views[0]["actor"] == actor.seat and actor.view["legal"][0]  # type: ignore[index]
        before = [position(v) for v in views]
        blocker = sqlite3.connect(db, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            loop = asyncio.get_running_loop()
            await actor.send({"type": "play", "card": card})
            await elsewhere.sync()
            pong_at = loop.time()
            error = await actor.recv_until("error")
            error_at = loop.time()
            assert pong_at < error_at, "another table waited on the lock"
            assert error["code"] == "storage_unavailable"
            assert "nothing changed" in error["message"] and "try again" in error["message"]
            assert [position(await p.sync()) for p in players] == before
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        await actor.send({"type": "play", "card": card})  # the same card, once more
        view = await actor.recv_until("state")
        assert view["view"]["played"] == views[0]["played"] + 1
        after = [position(await p.sync()) for p in players]
        for p in [*players, elsewhere]:
            await p.socket.close()
        return first["id"], [first, after]

    with LiveServer(str(db)) as server:
        table_id, (first, after) = asyncio.run(play_under_the_lock(server))

    async def reopened(server: LiveServer) -> list[Any]:
        players = [await join(server.ws, table_id, token_of(first, s), s) for s in range(4)]
        out = [position(await p.sync()) for p in players]
        for p in players:
            await p.socket.close()
        return out

    with LiveServer(str(db)) as server:
        assert asyncio.run(reopened(server)) == after


def test_a_failing_disk_refuses_every_change_and_the_table_goes_on_after(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Creating a table (503), taking an open seat (503), claiming a seat, a person's card and
    a bot's card are all refused while the disk fails, each changing nothing; the bots try
    again with one log line for the outage, and play on once the disk works."""
    db = tmp_path / "sueca.db"
    store = FaultyStorage(db, lock=True)
    timing = Timing(grace=60.0, bot_delay=0.2, trick_pause=0.0, deal_pause=30.0)
    bot = {"kind": "bot", "level": "heuristic"}
    body = {"rules": {"variant": "standard"}, "seats": [{"kind": "human", "name": "Ana"}, bot,
                                                          bot, bot]}
    open_body = {"rules": {"variant": "standard"}, "open": True,
                 "seats": [{"kind": "human"}, bot, {"kind": "human"}, bot]}

    async def scenario(server: LiveServer) -> None:
        async with httpx2.AsyncClient(base_url=server.http) as http:
            store.failing = True
            refused = await http.post("/api/tables", json=body)
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == "storage_unavailable"
            assert server.app.state.rooms.rooms == {}
            store.failing = False
            table = (await http.post("/api/tables", json=body)).json()
            opened = (await http.post("/api/tables", json=open_body)).json()
            store.failing = True
            taken = await http.post(f"/api/tables/{opened['id']}/seats/2", json={"name": "X"})
            assert taken.status_code == 503 and taken.json()["error"] == "storage_unavailable"
            ana = await join(server.ws, table["id"], None, None)
            await ana.send({"type": "join", "token": token_of(table, 0)})
            assert (await ana.recv_until("error"))["code"] == "storage_unavailable"
            await ana.send({"type": "play", "card": "AS"})
            assert (await ana.recv_until("error"))["code"] == "not_seated"  # not seated
            store.failing = False
            assert (await http.post(f"/api/tables/{opened['id']}/seats/2",
                                    json={"name": "Bia"})).status_code == 200  # still free
        await ana.send({"type": "join", "token": token_of(table, 0)})
        await ana.recv_until("joined")
        view = await ana.sync()
        while view["actor"] != 0:
            view = (await ana.recv_until("state"))["view"]
        before = position(view)
        store.failing = True
        await ana.send({"type": "play", "card": view["legal"][0]})
        assert (await ana.recv_until("error"))["code"] == "storage_unavailable"
        assert position(await ana.sync()) == before
        store.failing = False
        await ana.send({"type": "play", "card": view["legal"][0]})
        view = (await ana.recv_until("state"))["view"]
        assert view["played"] == before[1] + 1 and view["actor"] == 1  # a bot's turn now
        store.failing = True  # before the bot's card (bot_delay): its move is refused
        await asyncio.sleep(2.0)  # the driver tries again meanwhile, a few times
        assert store.refused >= 3
        assert position(await ana.sync())[1] == before[1] + 1  # the bot's card is not down
        store.failing = False
        while view["played"] < before[1] + 2:  # the bot plays on, after its next try
            view = (await ana.recv_until("state", timeout=15))["view"]
        await ana.socket.close()

    with caplog.at_level(logging.WARNING, logger="sueca.server"), \
            LiveServer(str(db), storage=store, timing=timing) as server:
        asyncio.run(scenario(server))
    lines = [r.getMessage() for r in caplog.records]
    assert len([line for line in lines if "a new table could not be stored" in line]) == 1
    # One line per table per outage: the open table's seat, and Ana's table's three outages
    # (her seat, her card, and the bot's card however often its driver tried again).
    outage = [line for line in lines if "the store failed" in line]
    assert len(outage) == 4, outage
    assert all("disk I/O error" in line for line in outage)


def test_a_refused_deal_is_dealt_once_the_store_works(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    stored_deal_over(db)
    store = FaultyStorage(db, lock=True)
    timing = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0)

    async def scenario(server: LiveServer) -> None:
        players = [await join(server.ws, "t", f"tok{s}", s) for s in range(4)]
        store.failing = True
        for p in players:
            await p.send({"type": "next"})
        await asyncio.sleep(1.0)
        assert server.room("t").table.phase == "deal_over"
        assert store.refused >= 2  # tried again
        store.failing = False
        view = await players[0].recv_until("state")
        while view["view"]["deal"] != 1:
            view = await players[0].recv_until("state", timeout=15)
        for p in players:
            await p.socket.close()

    with LiveServer(str(db), storage=store, timing=timing) as server:
        asyncio.run(scenario(server))


def stored_deal_over(db: Path) -> None:
    """A table of four people who have all come once, its first deal played out: as a server
    stopped during the deal's summary leaves it."""
    store = SQLiteStorage(db)
    try:
        seats = [SeatConfig("human", f"P{s}", token=f"tok{s}", claimed=True) for s in range(4)]
        table = Table.create("t", Rules(), seats, store, random.Random(3), created=1.0)
        while table.phase == "playing":
            seat, request = table.asked()  # type: ignore[misc]
            table.submit(seat, Play(request.legal[0]))  # type: ignore[attr-defined]
        assert table.phase == "deal_over"
    finally:
        store.close()


def test_after_a_restart_between_deals_the_summary_waits_for_the_players(tmp_path: Path) -> None:
    """Nobody has reopened the restored table yet: the summary stays (the next deal is not
    dealt to an empty room, however long); the first player back sees it and deals on."""
    db = tmp_path / "sueca.db"
    stored_deal_over(db)
    timing = Timing(grace=60.0, bot_delay=0.1, trick_pause=0.0, deal_pause=30.0)

    async def scenario(server: LiveServer) -> None:
        await asyncio.sleep(1.0)  # ten times what the room waited for nobody before
        assert server.room("t").table.phase == "deal_over"
        ana = await join(server.ws, "t", "tok0", 0)
        view = await ana.sync()
        assert view["phase"] == "deal_over" and view["deal"] == 0
        await ana.send({"type": "next"})  # the only one there: ready is everyone
        while view["deal"] != 1:
            view = (await ana.recv_until("state"))["view"]
        await ana.socket.close()

    with LiveServer(str(db), timing=timing) as server:
        asyncio.run(scenario(server))


def test_a_refused_rematch_keeps_the_finished_match_and_who_asked(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    store = SQLiteStorage(db)
    try:
        seats = [SeatConfig("human", f"P{s}", token=f"tok{s}", claimed=True) for s in range(4)]
        table = Table.create("t", Rules(match_target=1), seats, store, random.Random(3))
        while table.phase != "match_over":
            seat, request = table.asked()  # type: ignore[misc]
            table.submit(seat, Play(request.legal[0]))  # type: ignore[attr-defined]
    finally:
        store.close()
    faulty = FaultyStorage(db, lock=True)

    async def scenario(server: LiveServer) -> None:
        players = [await join(server.ws, "t", f"tok{s}", s) for s in range(4)]
        for p in players[:3]:
            await p.send({"type": "rematch"})
            await p.sync()
        faulty.failing = True
        await players[3].send({"type": "rematch"})  # the last one asked: the new match
        assert (await players[3].recv_until("error"))["code"] == "storage_unavailable"
        view = await players[0].sync()
        assert view["phase"] == "match_over" and view["score"]["number"] == 1
        assert sorted(view["ready"]) == [0, 1, 2]  # those who asked are still asking
        faulty.failing = False
        await players[3].send({"type": "rematch"})
        view = (await players[3].recv_until("state"))["view"]
        assert view["phase"] == "playing" and view["score"]["number"] == 2
        for p in players:
            await p.socket.close()

    with LiveServer(str(db), storage=faulty) as server:
        asyncio.run(scenario(server))


class SlowStorage(SQLiteStorage):
    """The real store, each batch a moment long (a slow disk)."""

    def save(self, writes: Any) -> int | None:
        time.sleep(0.3)
        return super().save(writes)


def test_a_move_whose_socket_task_is_cancelled_mid_write_is_settled(tmp_path: Path) -> None:
    """The socket's task is cancelled while its card is being written: the write finishes,
    the table takes it (stored and shown, nothing left pending) before the lock is let go,
    and the next card plays."""
    async def scenario() -> None:
        rooms = Rooms(SlowStorage(tmp_path / "sueca.db"), FAST, seed=2)
        try:
            seats = [{"kind": "human", "name": f"P{s}"} for s in range(4)]
            room = await rooms.create(None, seats)
            sent: list[str] = []

            async def send(text: str) -> None:
                sent.append(text)

            conns = []
            for config in room.table.seats:
                conn = Connection(send)
                room.attach(conn)
                await room.handle(conn, json.dumps({"type": "join", "token": config.token}))
                conns.append(conn)
            seat, request = room.table.asked()  # type: ignore[misc]
            card = request.legal[0]  # type: ignore[attr-defined]
            task = asyncio.ensure_future(room.handle(
                conns[seat], json.dumps({"type": "play", "card": card_name(card)})))
            await asyncio.sleep(0.1)  # the write is under way
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert not room.table.pending and len(room.table.state.plays) == 1  # type: ignore[union-attr]
            stored = rooms.storage.load_table(room.table.id)
            assert stored is not None and len(stored.match.deals[0].actions) == 1  # type: ignore[union-attr]
            seat, request = room.table.asked()  # type: ignore[misc]
            await room.handle(conns[seat], json.dumps(
                {"type": "play", "card": card_name(request.legal[0])}))  # type: ignore[attr-defined]
            assert len(room.table.state.plays) == 2  # type: ignore[union-attr]
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(scenario())
