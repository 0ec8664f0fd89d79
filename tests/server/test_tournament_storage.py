"""Tournaments in both stores (schema 3): saved whole, read back as saved, the list, and a
database of schema 2 migrated (SQLite and a real PostgreSQL server; skipped with the reason
where none runs, CI starts one)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from services import fresh_postgres_database

from sueca.server.backends import open_storage
from sueca.server.storage import SCHEMA_VERSION, SQLiteStorage, Storage
from sueca.server.tournament_rows import TournamentRows
from sueca.server.tournaments import Player, Result, Tournament

TOURNAMENT_TABLES = ("tournaments", "tournament_pairs", "tournament_singles",
                     "tournament_proposals", "tournament_rounds", "tournament_tables")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        opened = open_storage(str(tmp_path / "sueca.db"), lock=False)
        yield opened
        opened.close()
    else:
        with fresh_postgres_database() as url:
            opened = open_storage(url, lock=False)
            yield opened
            opened.close()


def _played(rows: TournamentRows) -> Tournament:
    t = Tournament(name="Torneio  de Natal", organiser=9, rounds_planned=2,
                   duplicate_rounds=frozenset({2}))
    for n in range(1, 4):
        t.register_pair(f"P{n}", (Player(n * 10, f"a{n}"), Player(n * 10 + 1, f"b{n}")))
    t.id = rows.create(t)
    round_ = t.start_round(seed=12345)
    round_.started = 100.5
    round_.tables[0].table_id = "abc"
    round_.tables[0].matches = (5, 6)
    t.record(1, 1, Result(0, (4, 2), (250, 230), ((70, 50), (180, 180)), (1, 0)))
    t.withdraw(3)
    rows.save(t)
    return t


def test_a_tournament_reads_back_as_saved(store: Storage) -> None:
    rows = store.tournaments()
    t = _played(rows)
    back = rows.load(t.id)
    assert back is not None
    assert (back.name, back.organiser, back.settings()) == ("Torneio de Natal", 9, t.settings())
    assert back.pairs == t.pairs and back.rounds == t.rounds
    assert [s.to_dict() for s in back.standings()] == [s.to_dict() for s in t.standings()]
    assert rows.load(t.id + 99) is None
    listed = rows.latest()
    assert [(x["id"], x["status"], x["pairs"]) for x in listed] == [(t.id, "running", 3)]
    assert rows.count_open(9) == 1 and rows.count_open(8) == 0


def test_a_pending_pair_reads_back_as_saved(store: Storage) -> None:
    rows = store.tournaments()
    t = Tournament(name="Inscrições", organiser=9)
    t.propose("Os Ases", Player(1, "Ana"), Player(2, "Rui"))
    t.id = rows.create(t)
    back = rows.load(t.id)
    assert back is not None and back.proposals == t.proposals and back.pairs == []
    assert back.propose("", Player(2, "Rui"), Player(1, "Ana")) is not None
    rows.save(back)
    again = rows.load(t.id)
    assert again is not None and again.proposals == []
    assert [(p.name, p.players) for p in again.pairs] == [
        ("Os Ases", (Player(1, "Ana"), Player(2, "Rui")))]


def test_a_saved_change_replaces_the_rows(store: Storage) -> None:
    rows = store.tournaments()
    t = _played(rows)
    t.adjudicate(1, 1, winner=1)
    rows.save(t)
    back = rows.load(t.id)
    assert back is not None and back.rounds[0].tables[0].result is not None
    assert back.rounds[0].tables[0].result.how == "adjudicated"
    assert len(back.rounds) == 1 and len(back.rounds[0].tables) == 1


def test_a_schema_2_sqlite_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SQLiteStorage(path).close()
    raw = sqlite3.connect(path)
    for table in TOURNAMENT_TABLES:
        raw.execute(f"DROP TABLE {table}")
    raw.execute("PRAGMA user_version = 2")
    raw.commit()
    raw.close()
    store = SQLiteStorage(path)
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert SCHEMA_VERSION == 3
        t = _played(store.tournaments())
        assert store.tournaments().load(t.id) is not None
    finally:
        store.close()


def test_a_schema_2_postgres_database_is_migrated() -> None:
    import psycopg

    with fresh_postgres_database() as url:
        open_storage(url, lock=False).close()
        with psycopg.connect(url, autocommit=True) as conn:
            for table in TOURNAMENT_TABLES:
                conn.execute(f"DROP TABLE {table}".encode())
            conn.execute("UPDATE schema_version SET version = 2")
        store = open_storage(url, lock=False)
        try:
            t = _played(store.tournaments())
            assert store.tournaments().load(t.id) is not None
        finally:
            store.close()
