"""The lobby of a cluster: every worker lists every worker's tables.

Each worker's :class:`SharedLobbyIndex` is the :class:`~sueca.server.lobby.LobbyIndex` of its
own rooms, plus the entries the other workers publish. A change of one of its own tables (what
the lobby index already notices, by fingerprint) is written to a Redis hash,
``<prefix>:lobby:entries`` (so a worker that starts reads the whole listing once), and published
on ``<prefix>:lobby`` (so the others update theirs as it happens); a table that leaves a worker's
memory is deleted from both. A worker that dies leaves its entries behind until the workers
that take its tables over publish them again. Only the lobby's public summary travels (the
app's, the same the listing shows): no card, no token.

Publishing is one task per worker draining an ordered queue, the latest entry per table (so a
table that changes ten times in a burst sends its last state once, never an older one after
it).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
from collections.abc import Callable
from typing import Any

from sueca.server.cluster import Cluster
from sueca.server.lobby import LobbyIndex, _Entry
from sueca.server.rooms import Room

log = logging.getLogger("sueca.server")

MAX_ENTRY = 16 * 1024  # a published summary longer than this is not listed


class SharedLobbyIndex(LobbyIndex):
    """The lobby index of this worker's rooms and of the cluster's other tables."""

    def __init__(self, summary: Callable[[Room], dict[str, Any]]) -> None:
        super().__init__(summary)
        self.cluster: Cluster | None = None
        self._remote: set[str] = set()  # tables listed for another worker
        self._outbox: dict[str, dict[str, Any] | None] = {}  # table → entry (None: removed)
        self._wake = asyncio.Event()

    @property
    def _hash(self) -> str:
        assert self.cluster is not None
        return f"{self.cluster.keys.lobby}:entries"

    # ---- this worker's tables --------------------------------------------------------------

    def changed(self, room: Room) -> None:
        table_id = room.table.id
        before = self._entries.get(table_id)
        self._remote.discard(table_id)  # this worker plays it now
        super().changed(room)
        after = self._entries.get(table_id)
        if after is not None and after is not before:
            self._queue(table_id, {"text": after.text, "created": -after.key[0],
                                   "listed": after.listed})

    def removed(self, table_id: str) -> None:
        super().removed(table_id)
        self._queue(table_id, None)

    def forget(self, table_id: str) -> None:
        """Unlist a table this worker stopped playing (its lease lapsed) without telling the
        others: its new owner lists it."""
        super().removed(table_id)

    def _queue(self, table_id: str, entry: dict[str, Any] | None) -> None:
        if self.cluster is None:
            return
        self._outbox.pop(table_id, None)  # the latest goes last
        self._outbox[table_id] = entry
        self._wake.set()

    async def publish(self) -> None:
        """Send this worker's lobby changes until cancelled (Node runs it)."""
        assert self.cluster is not None
        cluster = self.cluster
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                table_id = next(iter(self._outbox))
                entry = self._outbox.pop(table_id)
                message = {"from": cluster.worker_id, "table": table_id, "entry": entry}
                try:
                    if entry is None:
                        await cluster.client.hdel(self._hash, table_id)
                    else:
                        await cluster.client.hset(self._hash, table_id, json.dumps(entry))
                    await cluster.publish(cluster.keys.lobby, message)
                except Exception as error:  # Redis away: the next change sends it again
                    log.warning("cluster: a lobby change was not sent: %s", error)

    # ---- the others' -------------------------------------------------------------------------

    async def load(self) -> None:
        """Read the whole listing once (a worker starting)."""
        assert self.cluster is not None
        for table_id, raw in (await self.cluster.client.hgetall(self._hash)).items():
            name = table_id.decode() if isinstance(table_id, bytes) else str(table_id)
            try:
                self.heard({"table": name, "entry": json.loads(raw)})
            except ValueError:
                continue

    def heard(self, message: dict[str, Any]) -> None:
        """Another worker's lobby change (``{"table", "entry"}``; ``entry`` None: gone)."""
        table_id, entry = message.get("table"), message.get("entry")
        if not isinstance(table_id, str) or len(table_id) > 64:
            return
        if table_id in self._entries and table_id not in self._remote:
            return  # this worker plays it: its own entry is the one that counts
        if entry is None:
            if table_id in self._remote:
                self._remote.discard(table_id)
                super().removed(table_id)
            return
        text, created = entry.get("text") if isinstance(entry, dict) else None, None
        if isinstance(entry, dict) and isinstance(entry.get("created"), int | float):
            created = float(entry["created"])
        if not isinstance(text, str) or len(text) > MAX_ENTRY or created is None:
            return
        listed = bool(entry.get("listed"))
        # Another worker's table: listed, never counted against this worker's own cap.
        new = _Entry(("remote", text), text, (-created, table_id), listed, False)
        self._drop(self._entries.get(table_id))
        self._entries[table_id] = new
        self._remote.add(table_id)
        if listed:
            bisect.insort(self._listed, new.key)
        self._touch()
