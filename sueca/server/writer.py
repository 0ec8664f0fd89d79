"""The one thread through which the server uses its store, so that storage never blocks the
event loop.

A :class:`~sueca.server.storage.Storage` is synchronous: SQLite waits on a lock another
process holds, a disk stalls, PostgreSQL answers over the network. The event loop serves every
table's sockets, so it must never wait on any of that. :class:`StorageWriter` makes every call
on one thread of its own (a single-thread executor: calls run one at a time, in the order they
were made, on one connection) and the loop awaits the result. A failing store is one
exception, :class:`StorageUnavailable`, whatever the backend raised: the room rolls the change
back and tells the player (:mod:`sueca.server.rooms`).

Why a thread rather than an async driver (aiosqlite, psycopg's async mode): the store stays one
plain synchronous class, the same for the server, the tests and the tools, and the thread is
what aiosqlite would run anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from sueca.server.storage import Storage, StoredMatch, StoredTable, Write

log = logging.getLogger("sueca.server")
T = TypeVar("T")


class StorageUnavailable(RuntimeError):
    """The store refused or failed a call (a lock held elsewhere, a full disk, an I/O error,
    a lost connection); nothing of the call was written."""


class StorageWriter:
    """Every call on ``storage``, made on one thread and awaited. ``threads`` > 1 only for a
    store whose connections are a pool (PostgreSQL, over the network): calls of different
    tables then overlap their round trips, while each room still awaits its own writes one at
    a time (its lock), so a table's writes keep their order."""

    def __init__(self, storage: Storage, threads: int = 1) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sueca-store")

    async def call(self, method: Callable[..., T], *args: object) -> T:
        """``method(*args)`` (a method of the store) on the store's thread."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, partial(method, *args))
        except Exception as error:
            raise StorageUnavailable(f"{type(error).__name__}: {error}") from error

    def call_waiting(self, method: Callable[..., T], *args: object) -> T:
        """``method(*args)`` on the store's thread, waited for by a thread outside the event
        loop (a test, an operator's tool): the store's connection is never used by two
        threads at once."""
        return self._thread.submit(method, *args).result()

    async def save(self, writes: Sequence[Write]) -> int | None:
        """Store ``writes`` in one transaction (:meth:`Storage.save`)."""
        return await self.call(self.storage.save, tuple(writes))

    async def load_table(self, table_id: str) -> StoredTable | None:
        return await self.call(self.storage.load_table, table_id)

    async def open_tables(self, finished_since: float = 0.0) -> list[StoredTable]:
        return await self.call(self.storage.open_tables, finished_since)

    async def finished_matches(self, limit: int = 100) -> list[StoredMatch]:
        return await self.call(self.storage.finished_matches, limit)

    async def load_match(self, match_id: int) -> StoredMatch | None:
        return await self.call(self.storage.load_match, match_id)

    def close(self) -> None:
        """Finish the calls made so far, then stop the thread (the store stays open: its
        owner closes it)."""
        self._thread.shutdown(wait=True)


__all__ = ["StorageUnavailable", "StorageWriter"]
