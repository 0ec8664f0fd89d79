"""Storage faults the server must survive (issue 16, section 1): a corrupt stored table is
skipped and the others run, the write-ahead log stays bounded, and a second server on the same
database refuses to start."""

from __future__ import annotations

import logging
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sueca.rules import Rules
from sueca.server import Timing, create_app
from sueca.server.storage import (
    JOURNAL_SIZE_LIMIT,
    DatabaseInUseError,
    SQLiteStorage,
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


def test_the_write_ahead_log_stays_bounded_under_steady_writes(tmp_path: Path) -> None:
    """Passive checkpoints alone never catch up with steady writes (this loop grew the log to
    50 MB with them): the log must stay near its limit, within a tick's worth of writes."""
    db = tmp_path / "sueca.db"
    limit = 1024 * 1024
    store = SQLiteStorage(db, journal_size_limit=limit, checkpoint_every=0.02)
    wal = db.with_name(db.name + "-wal")
    largest = 0
    try:
        store.create_table("t", {"seats": []})
        match_id = store.start_match("t", {"variant": "standard"}, 0, ["a", "b", "c", "d"])
        padding = "x" * 2000  # 3,000 fat moves, some thousands a second: 25 MB through the log
        for deal in range(60):
            store.add_deal(match_id, deal, 0, ["AS"] * 4, "AS")
            for seq in range(50):
                store.add_action(match_id, deal, seq, seq % 4,
                                 {"type": "play", "card": "AS", "pad": padding})
                largest = max(largest, wal.stat().st_size)
                time.sleep(0.0002)
        assert largest <= 4 * limit
        store._checkpoint_now()
        assert wal.stat().st_size <= limit
        assert len(store.load_match(match_id).deals) == 60  # type: ignore[union-attr]
    finally:
        store.close()


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
