"""The lobby's listing, kept as tables change, and pushed to the lobby pages.

Listing the tables by walking every room cost O(tables) on the event loop at each
``GET /api/tables`` (51–351 ms at 2,000 tables, and every lobby polled every 5 s). The
:class:`LobbyIndex` instead holds each table's summary, already encoded, and the listed
tables in order (newest first); :class:`~sueca.server.rooms.Rooms` tells it when a table is
added or removed and a room after each broadcast, where a cheap fingerprint (phase, presence,
score, names) says whether the summary changed. A page of the listing is then a slice.

``/ws/lobby`` pushes the listing: a :class:`LobbyFeed` per socket sends the first page as a
snapshot, then, whenever the index changed, what changed in that page — at most one message
per :data:`FEED_INTERVAL`, built when it is sent, so a socket that does not read holds one
pending message (the page it was last sent, 200 entries at most) and never a queue.

Messages (JSON text)::

    {"type": "tables", "snapshot": true|false, "order": [id, …], "tables": [summary, …],
     "total": n}

``order`` is the page's ids, newest first; ``tables`` the summaries new or changed since the
last message (all of them in a snapshot); ids in the last ``order`` and not in this one have
left the page. ``total`` counts every listed table. The client may send ``{"type": "ping"}``
(answered by ``{"type": "pong"}``).

Only public facts are listed: the summary (the app's) names seats, kinds and presence, never a
card or a token. Whatever it shows that can change must be in :func:`_fingerprint`.
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sueca.server.rooms import Room

PAGE = 200  # tables listed at most: a lobby page shows this many
FEED_INTERVAL = 0.5  # seconds between two messages to one lobby socket, at least
MAX_FEEDS = 1000  # lobby sockets at once; one more is closed (1013, try again later)


def _fingerprint(room: Room) -> tuple[Any, ...]:
    """Everything a table's summary shows that can change, cheaply (no rules, no JSON)."""
    table = room.table
    return (table.phase, tuple(room.presence()), tuple(table.match.score), table.match_number,
            tuple(table.seat_names()), tuple(seat.claimed for seat in table.seats),
            table.open_seats, any(room.present))


@dataclass
class _Entry:
    fingerprint: tuple[Any, ...]
    text: str  # the summary, encoded once per change
    key: tuple[float, str]  # the listing's order: newest first, then by id
    listed: bool
    in_play: bool


def abandoned(presence: list[str]) -> bool:
    """Whether a table of people has none of them: every person's seat is played by a
    stand-in (each left, or never came, past his wait). Nobody would find a game there."""
    people = [status for status in presence if status not in ("bot", "dummy")]
    return bool(people) and all(status == "stand_in" for status in people)


class LobbyIndex:
    """Every table's lobby summary, and the listed ones in order. A table is listed while its
    match is not over, and after that while someone still sits at it (for the rematch); an
    :func:`abandoned` table is not (it is listed again when one of its people comes back)."""

    def __init__(self, summary: Callable[[Room], dict[str, Any]]) -> None:
        self._summary = summary  # a table's public facts (app._table_summary)
        self._entries: dict[str, _Entry] = {}
        self._listed: list[tuple[float, str]] = []  # sorted keys of the listed tables
        self._wakers: set[asyncio.Event] = set()
        self.version = 0  # grows at each change of the listing
        self.in_play = 0  # tables whose match is not over

    # ---- told by the rooms (rooms.RoomWatcher) -------------------------------------------

    def changed(self, room: Room) -> None:
        """A room was added, or broadcast a change: update its entry if the lobby would show
        something new."""
        table_id = room.table.id
        fingerprint = _fingerprint(room)
        entry = self._entries.get(table_id)
        if entry is not None and entry.fingerprint == fingerprint:
            return
        summary = self._summary(room)
        listed = ((summary["phase"] != "match_over" or any(room.present))
                  and not abandoned(room.presence()) and not room.table.sealed)
        new = _Entry(fingerprint, json.dumps(summary, separators=(",", ":")),
                     (-float(summary["created"]), table_id), listed,
                     summary["phase"] != "match_over")
        self._drop(entry)
        self._entries[table_id] = new
        if new.listed:
            bisect.insort(self._listed, new.key)
        self.in_play += new.in_play
        self._touch()

    def removed(self, table_id: str) -> None:
        """A table left the server's memory (closed or evicted)."""
        entry = self._entries.pop(table_id, None)
        if entry is not None:
            self._drop(entry)
            self._touch()

    def _drop(self, entry: _Entry | None) -> None:
        if entry is None:
            return
        if entry.listed:
            at = bisect.bisect_left(self._listed, entry.key)
            if at < len(self._listed) and self._listed[at] == entry.key:
                del self._listed[at]
        self.in_play -= entry.in_play

    def _touch(self) -> None:
        self.version += 1
        for waker in self._wakers:
            waker.set()

    # ---- read by the app -----------------------------------------------------------------

    @property
    def total(self) -> int:
        """How many tables are listed."""
        return len(self._listed)

    def page(self, offset: int = 0, limit: int = PAGE) -> list[tuple[str, str]]:
        """(id, encoded summary) of the listed tables ``offset``… (newest first): O(limit)."""
        keys = self._listed[offset:offset + limit]
        return [(table_id, self._entries[table_id].text) for _, table_id in keys]

    def listing(self, offset: int = 0, limit: int = PAGE) -> str:
        """``GET /api/tables``' body: ``{"tables": [...], "total": n}``."""
        texts = ",".join(text for _, text in self.page(offset, limit))
        return f'{{"tables":[{texts}],"total":{self.total}}}'

    def watch(self) -> asyncio.Event | None:
        """An event set at every change of the listing, or None when :data:`MAX_FEEDS`
        sockets already watch."""
        if len(self._wakers) >= MAX_FEEDS:
            return None
        waker = asyncio.Event()
        self._wakers.add(waker)
        return waker

    def unwatch(self, waker: asyncio.Event) -> None:
        self._wakers.discard(waker)


class LobbyFeed:
    """One lobby socket: the first page, then what changed in it (see the module's doc)."""

    def __init__(self, index: LobbyIndex, waker: asyncio.Event,
                 send: Callable[[str], Awaitable[None]], interval: float = FEED_INTERVAL) -> None:
        self._index = index
        self._waker = waker
        self._send = send
        self._interval = interval
        self._sent: dict[str, str] = {}  # id → the summary text this socket holds
        self._order: list[str] | None = None  # None: nothing sent yet (a snapshot is due)
        self._pong = False
        waker.set()

    def ping(self) -> None:
        """Answer a ping with the next message (after everything already due)."""
        self._pong = True
        self._waker.set()

    def message(self) -> str | None:
        """What changed in the page since the last message, or None if nothing did."""
        page = self._index.page()
        order = [table_id for table_id, _ in page]
        snapshot = self._order is None
        changed = [text for table_id, text in page if self._sent.get(table_id) is not text]
        if not snapshot and not changed and order == self._order:
            return None
        self._sent = dict(page)
        self._order = order
        return (f'{{"type":"tables","snapshot":{"true" if snapshot else "false"},'
                f'"order":{json.dumps(order)},"tables":[{",".join(changed)}],'
                f'"total":{self._index.total}}}')

    async def pump(self) -> None:
        """Send until cancelled: at most one message per interval, built when it is sent."""
        while True:
            await self._waker.wait()
            self._waker.clear()
            text = self.message()
            if text is not None:
                await self._send(text)
            if self._pong:
                self._pong = False
                await self._send('{"type":"pong"}')
            await asyncio.sleep(self._interval)

    def close(self) -> None:
        self._index.unwatch(self._waker)
