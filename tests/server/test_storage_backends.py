"""The Storage interface, the same tests against both stores: the embedded SQLite file and a
real PostgreSQL server (skipped with the reason where none is running; CI starts one)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from server_support import FAST, LiveServer, create_table, join, play_on, token_of
from services import fresh_postgres_database

from sueca.record import check
from sueca.server import create_app
from sueca.server.backends import open_storage
from sueca.server.storage import (
    NEW_MATCH,
    SCHEMA_VERSION,
    DatabaseInUseError,
    Storage,
    StorageError,
    Write,
)


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a store lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "sueca.db")
    else:
        with fresh_postgres_database() as url:
            yield url


@pytest.fixture
def store(where: str) -> Iterator[Storage]:
    opened = open_storage(where, lock=False)
    yield opened
    opened.close()


def _play_a_deal(store: Storage, table_id: str = "t1") -> int:
    store.create_table(table_id, {"seats": [{"kind": "human"}], "n": 1})
    match_id = store.start_match(table_id, {"variant": "standard"}, first_dealer=2,
                                 seats=["Ana", "Bruno", "Carla", "Duarte"])
    store.add_deal(match_id, 0, 2, ["AS 2S", "3S 4S", "5S 6S", "7S KS"], "AS")
    store.add_action(match_id, 0, 0, 3, {"type": "play", "card": "7S"})
    store.add_action(match_id, 0, 1, 0, {"type": "play", "card": "2S"})
    return match_id


def test_a_match_reads_back_as_written(store: Storage) -> None:
    match_id = _play_a_deal(store)
    match = store.load_match(match_id)
    assert match is not None
    assert (match.table_id, match.number, match.rules, match.first_dealer) == (
        "t1", 1, {"variant": "standard"}, 2)
    assert match.seats == ["Ana", "Bruno", "Carla", "Duarte"]
    (deal,) = match.deals
    assert (deal.index, deal.dealer, deal.hands, deal.trump_card) == (
        0, 2, ["AS 2S", "3S 4S", "5S 6S", "7S KS"], "AS")
    assert deal.actions == [(3, {"type": "play", "card": "7S"}),
                            (0, {"type": "play", "card": "2S"})]
    assert match.finished is None and match.score is None and match.winner is None
    assert store.load_match(match_id + 1000) is None


def test_a_bidding_table_turns_no_card(store: Storage) -> None:
    store.create_table("t1", {})
    match_id = store.start_match("t1", {"variant": "bidding"}, 0, ["a", "b", "c", "d"])
    store.add_deal(match_id, 0, 0, ["AS", "2S", "3S", "4S"], None)
    match = store.load_match(match_id)
    assert match is not None and match.deals[0].trump_card is None


def test_a_move_twice_at_one_place_is_refused(store: Storage) -> None:
    match_id = _play_a_deal(store)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.add_action(match_id, 0, 1, 1, {"type": "play", "card": "3S"})
    match = store.load_match(match_id)
    assert match is not None and len(match.deals[0].actions) == 2


def test_open_tables_and_rematches(store: Storage) -> None:
    first = _play_a_deal(store, "t1")
    store.create_table("t2", {"empty": True})
    store.score_match(first, [4, 0], winner=0)
    finished = store.load_match(first)
    assert finished is not None and finished.finished is not None
    assert finished.score == [4, 0] and finished.winner == 0
    # A finished table is open only if it finished since the time asked for.
    assert {t.id for t in store.open_tables()} == {"t1", "t2"}
    assert {t.id for t in store.open_tables(finished_since=finished.finished + 1)} == {"t2"}
    second = store.start_match("t1", {"variant": "standard"}, 1, ["a", "b", "c", "d"])
    tables = {t.id: t for t in store.open_tables(finished_since=finished.finished + 1)}
    assert tables["t2"].match is None and tables["t2"].settings == {"empty": True}
    match = tables["t1"].match
    assert match is not None and (match.id, match.number) == (second, 2)


def test_a_finished_time_stays(store: Storage) -> None:
    match_id = _play_a_deal(store)
    store.score_match(match_id, [1, 0], winner=None)
    assert (m := store.load_match(match_id)) is not None and m.finished is None
    store.score_match(match_id, [4, 0], winner=0)
    first = store.load_match(match_id)
    assert first is not None and first.finished is not None
    store.score_match(match_id, [4, 2], winner=0)
    again = store.load_match(match_id)
    assert again is not None and again.finished == first.finished and again.score == [4, 2]


def test_settings_are_saved(store: Storage) -> None:
    store.create_table("t1", {"a": 1})
    store.save_settings("t1", {"a": 2, "names": ["Zé"]})
    (table,) = store.open_tables()
    assert table.settings == {"a": 2, "names": ["Zé"]}


def test_finished_matches_newest_first(store: Storage) -> None:
    ids = [_play_a_deal(store, f"t{i}") for i in range(3)]
    for match_id in (ids[1], ids[0], ids[2]):
        store.score_match(match_id, [4, 0], winner=0)
    assert [m.id for m in store.finished_matches()] == [ids[2], ids[0], ids[1]]
    assert [m.id for m in store.finished_matches(limit=1)] == [ids[2]]


def test_a_corrupt_row_is_skipped_not_fatal(where: str, store: Storage,
                                            caplog: pytest.LogCaptureFixture) -> None:
    _play_a_deal(store, "good")
    _play_a_deal(store, "bad")
    _corrupt_settings(where, "bad")
    with caplog.at_level("WARNING", logger="sueca.server"):
        assert [t.id for t in store.open_tables()] == ["good"]
    assert "table bad skipped" in caplog.text


def _corrupt_settings(where: str, table_id: str) -> None:
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            conn.execute("UPDATE tables SET settings = '{not json' WHERE id = %s", (table_id,))
    else:
        import sqlite3

        with sqlite3.connect(where) as conn:
            conn.execute("UPDATE tables SET settings = '{not json' WHERE id = ?", (table_id,))


def test_schema_version_and_a_newer_database_refused(where: str) -> None:
    store = open_storage(where, lock=False)
    store.close()
    assert _schema_version(where) == SCHEMA_VERSION
    store = open_storage(where, lock=False)  # opened again: nothing to migrate
    store.close()
    _set_schema_version(where, SCHEMA_VERSION + 1)
    with pytest.raises(StorageError, match="newer than this sueca"):
        open_storage(where, lock=False)


def _schema_version(where: str) -> int:
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where) as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            assert row is not None
            return int(row[0])
    import sqlite3

    with sqlite3.connect(where) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _set_schema_version(where: str, version: int) -> None:
    if where.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            conn.execute("UPDATE schema_version SET version = %s", (version,))
    else:
        import sqlite3

        conn = sqlite3.connect(where)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.close()


def test_a_second_server_on_one_database_is_refused(where: str) -> None:
    first = open_storage(where, lock=True)
    try:
        with pytest.raises(DatabaseInUseError, match="in use by another sueca server"):
            open_storage(where, lock=True)
        reader = open_storage(where, lock=False)  # reading beside a server stays allowed
        reader.close()
    finally:
        first.close()
    open_storage(where, lock=True).close()  # once the first is gone, the lock is free


class StoreServer(LiveServer):
    """The live server of server_support, on a store of this test's choosing."""

    def __init__(self, store: Storage) -> None:
        self.app = create_app(storage=store, timing=FAST, seed=7)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


def test_a_whole_match_on_the_server_restarted_mid_trick(where: str) -> None:
    """The server on each store: a person and three bots play to mid-trick; a second server
    on the same store goes on from that card; the match finishes and its record checks."""
    rng = random.Random(3)
    with StoreServer(open_storage(where, lock=True)) as live:
        table = create_table(live.http, ["human", "bot", "bot", "bot"],
                             {"variant": "standard", "match_target": 2}, level="heuristic")

        async def first_half() -> dict[str, Any]:
            player = await join(live.ws, table["id"], token_of(table, 0), 0)
            await play_on(player, rng, stop_at_played=6)
            view = await player.sync()
            await player.socket.close()
            return view

        before = asyncio.run(first_half())
    assert before["played"] >= 6 and before["phase"] == "playing"
    with StoreServer(open_storage(where, lock=True)) as live:

        async def second_half() -> tuple[dict[str, Any], dict[str, Any]]:
            player = await join(live.ws, table["id"], token_of(table, 0), 0)
            again = await player.sync()
            over = await play_on(player, rng, timeout=60)
            await player.socket.close()
            return again, over

        again, over = asyncio.run(second_half())
    for key in ("deal", "played", "hand", "trick", "trump_card", "dealer"):
        assert again[key] == before[key], key
    assert over["phase"] == "match_over"
    store = open_storage(where, lock=False)
    try:
        (match,) = [m for m in store.finished_matches() if m.table_id == table["id"]]
        report = check(match.record)
        assert report["valid"], report
        assert report["match"]["winner"] == match.winner
    finally:
        store.close()


def test_a_batch_is_stored_whole_or_not_at_all(store: Storage) -> None:
    store.create_table("t1", {})
    started = store.save([
        Write("start_match", ("t1", {"variant": "standard"}, 0, ["a", "b", "c", "d"])),
        Write("add_deal", (NEW_MATCH, 0, 0, ["AS", "2S", "3S", "4S"], "AS")),
        Write("add_action", (NEW_MATCH, 0, 0, 1, {"type": "play", "card": "2S"})),
    ])
    assert started is not None
    match = store.load_match(started)
    assert match is not None and match.deals[0].actions == [(1, {"type": "play", "card": "2S"})]
    # The second write of this batch fails (that move is stored already): the first is
    # undone with it.
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.save([Write("score_match", (started, [4, 0], 0)),
                    Write("add_action", (started, 0, 0, 2, {"type": "play", "card": "3S"}))])
    after = store.load_match(started)
    assert after is not None and after.score is None and after.finished is None
    assert store.save([Write("add_action", (started, 0, 1, 2,
                                            {"type": "play", "card": "3S"}))]) is None
    (table,) = [t for t in store.open_tables() if t.id == "t1"]
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.match is not None and table.match is not None
    assert loaded.match.deals == table.match.deals and len(loaded.match.deals[0].actions) == 2
    assert store.load_table("nothing") is None
