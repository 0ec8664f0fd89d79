"""What PostgreSQL storage has beyond the shared Storage tests (test_storage_backends.py):
fencing, by which a worker whose lease ran out can never write over the table's next owner;
one migrator when workers start together; a clear refusal of an unreachable server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from services import fresh_postgres_database

from sueca.server.postgres import LeaseLostError, PostgresStorage, redact
from sueca.server.storage import SCHEMA_VERSION, StorageError


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_postgres_database() as fresh:
        yield fresh


@pytest.fixture
def store(url: str) -> Iterator[PostgresStorage]:
    opened = PostgresStorage(url)
    yield opened
    opened.close()


def test_a_stale_owner_cannot_write_once_fenced(store: PostgresStorage) -> None:
    first = store.fenced("t1", 1)
    first.create_table("t1", {})
    match_id = first.start_match("t1", {"variant": "standard"}, 0, ["a", "b", "c", "d"])
    first.add_deal(match_id, 0, 0, ["AS", "2S", "3S", "4S"], "AS")
    first.add_action(match_id, 0, 0, 1, {"type": "play", "card": "2S"})
    assert store.fence("t1", 2)  # a second worker takes the table over
    second = store.fenced("t1", 2)
    with pytest.raises(LeaseLostError, match="lease 1 is over"):
        first.add_action(match_id, 0, 1, 2, {"type": "play", "card": "3S"})
    for write in (lambda: first.save_settings("t1", {"x": 1}),
                  lambda: first.score_match(match_id, [4, 0], 0),
                  lambda: first.add_deal(match_id, 1, 1, ["AS", "2S", "3S", "4S"], "AS"),
                  lambda: first.start_match("t1", {}, 0, [])):
        with pytest.raises(LeaseLostError):
            write()
    second.add_action(match_id, 0, 1, 2, {"type": "play", "card": "3S"})
    match = store.load_match(match_id)
    assert match is not None and match.deals[0].actions == [
        (1, {"type": "play", "card": "2S"}), (2, {"type": "play", "card": "3S"})]
    assert match.number == 1 and match.finished is None  # the stale score never landed
    assert not store.fence("t1", 1)  # an older token never fences a newer one off


def test_a_fence_waits_for_the_write_in_flight(url: str, store: PostgresStorage) -> None:
    """The old owner's write that began before the fence commits before the fence does, so
    the new owner, reading after fencing, sees it."""
    import psycopg

    owner = store.fenced("t1", 1)
    owner.create_table("t1", {})
    # Another session holds the fence row's share lock, as a write in flight does.
    with psycopg.connect(url) as writer:
        writer.execute("SELECT token FROM fences WHERE table_id = 't1' FOR SHARE")
        fenced_at: list[float] = []
        taker = threading.Thread(target=lambda: fenced_at.append(
            time.monotonic() if store.fence("t1", 2) else -1.0))
        taker.start()
        time.sleep(0.3)
        assert not fenced_at  # still waiting for the write to commit
        released = time.monotonic()
        writer.commit()
        taker.join(timeout=5)
    assert fenced_at and fenced_at[0] >= released


def test_workers_starting_together_migrate_once(url: str) -> None:
    stores: list[PostgresStorage] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(PostgresStorage(url))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors and len(stores) == 4
    assert {s.schema_version() for s in stores} == {SCHEMA_VERSION}
    for opened in stores:
        opened.close()


def test_an_unreachable_server_is_refused_by_name() -> None:
    url = "postgresql://sueca:secret@127.0.0.1:1/nothing"
    with pytest.raises(StorageError, match=r"cannot connect to PostgreSQL") as error:
        PostgresStorage(url, connect_timeout=1.0)
    assert "secret" not in str(error.value)  # the password is never said back


def test_redact_hides_the_password() -> None:
    assert redact("postgresql://u:pw@h:5/db") == "postgresql://u:***@h:5/db"
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"


def test_tables_in_play_are_open_tables_ids(store: PostgresStorage) -> None:
    store.create_table("a", {})
    store.create_table("b", {})
    done = store.start_match("b", {}, 0, [])
    store.score_match(done, [4, 0], 0)
    assert store.tables_in_play() == [t.id for t in store.open_tables()] == ["a", "b"]
    assert store.tables_in_play(finished_since=time.time() + 1) == ["a"]
