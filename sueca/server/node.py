"""One worker of a cluster (``sueca serve --redis … --db postgresql://…``): the tables it
owns, and the sockets it relays to the tables other workers own.

Each table is played by one worker, its owner (its lease: :mod:`sueca.server.cluster`). A
socket may land on any worker. On the owner it is an ordinary connection of the table's room.
On any other worker it is *relayed*: its messages go to the owner's inbox on Redis, where the
owner has a stand-in :class:`~sueca.server.rooms.Connection` for it in the room, joined to the
seat the socket joined; what the room sends that stand-in (the state message of *its* seat, an
error, a pong) comes back addressed to that one socket, which the relaying worker forwards.
A view is built for one seat and sent to one socket, as in a single process, so a relayed
socket never sees another seat's cards.

A worker dies: its leases lapse (:data:`~sueca.server.cluster.LEASE_TTL`). Every worker looks
over the tables in play each :attr:`Node.adopt_every` seconds and takes those nobody owns: it
fences the store with its new lease token, reads the table from the store and restores it at
the card where it stopped (what the dead owner stored is all there is: it showed no move it had
not stored). The sockets other workers relayed to the dead owner are sent on to the new one,
joined again to their seats; the sockets that were on the dead worker itself reconnect (the
table page does) and land on a live one.

A worker that loses a lease it still believed it held (it was paused too long) drops the table
at once and sends its sockets on to the new owner; its writes were already refused by the
store's fence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError
from starlette.websockets import WebSocket, WebSocketDisconnect

from sueca.server.cluster import Cluster, Lease, SyncLeases
from sueca.server.limits import TokenBucket
from sueca.server.postgres import LeasedStorage, PostgresStorage, redact
from sueca.server.rooms import MAX_MESSAGE, Connection, Room, Rooms, Timing
from sueca.server.shared_lobby import SharedLobbyIndex
from sueca.server.storage import StorageError
from sueca.server.tables import TableError

log = logging.getLogger("sueca.server")

ADOPT_EVERY = 1.0  # seconds between two looks for tables nobody owns
RELAY_QUEUE = 64  # messages of one relayed socket waiting at its owner; more are dropped
WRITERS = 8  # the store's connections and threads: tables' writes overlap their round trips
CALL_TIMEOUT = 5.0  # seconds another worker has to answer a request asked of it
MAX_CALLS = 256  # requests waiting for other workers at once; more are refused


@dataclass(frozen=True)
class ClusterOptions:
    """How a worker joins a cluster: the Redis and PostgreSQL servers (``--redis``,
    ``--db``), the key prefix (several clusters on one Redis), and the lease's timing."""

    redis_url: str
    db_url: str
    prefix: str = "sueca"
    lease_ttl: float = 5.0
    heartbeat_every: float = 1.0
    adopt_every: float = ADOPT_EVERY


class Forward(Connection):
    """A socket's connection in a room of this worker: what the room sends it goes into the
    socket's own outbox (``out``, which outlives any one room: a table taken over here gets a
    new Forward of the same socket)."""

    def __init__(self, out: Connection) -> None:
        super().__init__(out._send, out.bucket)
        self.out = out

    def push(self, kind: str, text: str) -> None:
        if not self.closed:
            self.out.push(kind, text)


@dataclass(eq=False)
class Link:
    """One socket on this worker: its outbox (``out``), where its messages go (``owner``:
    this worker's id, or the worker it is relayed to; ``attached``, its connection in the room
    when here) and the last seat it joined (its join message, replayed to a new owner)."""

    id: str
    table_id: str
    out: Connection
    owner: str | None = None
    token: int = 0  # the owner's lease token when routed: a new lease is a new room
    attached: Forward | None = None
    join: str | None = None
    moving: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass(eq=False)
class StandIn:
    """A socket relayed here from another worker: its connection in the room, and its
    messages in order."""

    room: Room
    conn: Connection
    queue: asyncio.Queue[str]
    tasks: list[asyncio.Task[None]]


class Node:
    """A worker: its rooms (tables it owns), its cluster handle and the relays."""

    def __init__(self, cluster: Cluster, store: PostgresStorage, rooms: Rooms, *,
                 adopt_every: float = ADOPT_EVERY) -> None:
        self.cluster = cluster
        self.store = store
        self.rooms = rooms
        self.adopt_every = adopt_every
        self.me = cluster.worker_id
        self.links: dict[str, Link] = {}  # this worker's sockets, by link id
        self.stand_ins: dict[tuple[str, str], StandIn] = {}  # (worker, link id) → its stand-in
        self._broken: dict[str, float] = {}  # tables that would not restore: when tried
        self._tasks: list[asyncio.Task[None]] = []
        self.lobby: SharedLobbyIndex | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._moves: set[asyncio.Task[Any]] = set()  # sockets sent on, answers being made
        self._adopting: set[str] = set()  # tables leased, being restored
        self._absent: set[str] = set()  # leased tables out of memory at the last heartbeat
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}  # asked of other workers
        self._stopping = False

    # ---- life ------------------------------------------------------------------------------

    async def start(self, lobby: SharedLobbyIndex | None = None, **info: Any) -> None:
        """Join the cluster; ``lobby``: the app's lobby index, shared with the others."""
        await self.cluster.join(**info)
        ready = asyncio.Event()
        loop = self._loop = asyncio.get_running_loop()
        if lobby is not None:
            self.lobby = lobby
            lobby.cluster = self.cluster
            await lobby.load()
            self._tasks.append(loop.create_task(lobby.publish()))
        self._tasks += [loop.create_task(self._listen(ready)),
                       loop.create_task(self._every(self.cluster.heartbeat_every,
                                                    self._heartbeat)),
                       loop.create_task(self._every(self.adopt_every, self._adopt_unowned))]
        await asyncio.wait_for(ready.wait(), 10)
        await self._adopt_unowned()

    async def stop(self) -> None:
        """Leave the cluster: the leases are released, so the others take the tables over at
        once (a clean shutdown), and the relayed sockets are closed."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for stand_in in list(self.stand_ins.values()):
            for task in stand_in.tasks:
                task.cancel()
        with contextlib.suppress(Exception):
            await self.cluster.leave()
        await self.cluster.close()

    async def _every(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        failing = False  # one line when a step starts failing, one when it works again
        while True:
            await asyncio.sleep(seconds)
            name = step.__name__.strip("_")
            try:
                await step()
            except Exception as error:  # Redis away for a moment: try again next time
                if not failing:
                    log.warning("cluster: %s fails (tried again every %g s): %s: %s", name,
                                seconds, type(error).__name__, error)
                failing = True
            else:
                if failing:
                    log.warning("cluster: %s works again", name)
                failing = False

    # ---- owning tables ---------------------------------------------------------------------

    def owns(self, table_id: str) -> bool:
        return table_id in self.cluster.leases and table_id in self.rooms.rooms

    async def adopt(self, table_id: str) -> bool:
        """Take a table nobody owns: its lease, the store fenced with it, the table restored
        from the store; this worker's sockets of it attached here. False if another worker
        got it first, or it is no table (or one that does not restore)."""
        if self.owns(table_id):
            return True
        floor = await self.rooms.writer.call(self.store.fence_of, table_id)
        lease = await self.cluster.acquire(table_id, floor)
        if lease is None:
            return False
        self._adopting.add(table_id)
        try:
            room = await self._restore(table_id, lease)
        except Exception as error:
            log.warning("table %s: not taken over: %s: %s", table_id, type(error).__name__,
                        error)
            room = None
        finally:
            self._adopting.discard(table_id)
        if room is None:
            await self.cluster.release(lease)
            return False
        log.info("table %s: taken over by %s (lease %d)", table_id, self.me, lease.token)
        with contextlib.suppress(RedisError, OSError):  # (the heartbeats find it anyway)
            await self.cluster.publish(self.cluster.keys.tables, {
                "op": "owner", "from": self.me, "table": table_id, "token": lease.token})
        # This worker's sockets of the table, relayed until now, join it here (one being
        # routed already finds it here itself).
        for link in self.links.values():
            if link.table_id == table_id and link.owner != self.me and not link.moving.locked():
                self._move(link)
        return True

    def _move(self, link: Link, again: str | None = None) -> None:
        """Route the socket again, in a task of its own; then send ``again``, a message the
        old owner bounced (a join is replayed by routing)."""

        async def move() -> None:
            if await self._route(link) and again is not None and not _is_join(again):
                await self._forward(link, again)

        self._spawn(move())

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in a task, kept until done (so it is not collected)."""
        task = asyncio.get_running_loop().create_task(work)
        self._moves.add(task)
        task.add_done_callback(self._moves.discard)

    async def _restore(self, table_id: str, lease: Lease) -> Room | None:
        writer = self.rooms.writer
        if not await writer.call(self.store.fence, table_id, lease.token):
            return None  # a later lease fenced it already: that owner plays it
        if table_id in self.rooms.rooms:  # a room of an earlier lease that lapsed: the store
            self.rooms.evict(table_id)  # is newer than it
        try:
            return await self.rooms.find(table_id)  # read back at the move where it stopped
        except TableError as error:
            if error.code != "storage_unavailable":
                self._broken[table_id] = time.monotonic()  # not again for a while
            return None

    async def _adopt_unowned(self) -> None:
        """Take a fair share of the tables in play that nobody owns (a worker died, or the
        whole cluster was restarted)."""
        if self._stopping:
            return
        # Matches in play only: a finished table waiting for a rematch is taken when a
        # socket asks for it (so an evicted one stays out of memory).
        ids = await self.rooms.writer.call(self.store.tables_in_play, time.time())
        now = time.monotonic()
        owners = await self.cluster.owners(ids)
        unowned = [t for t, owner in owners.items() if owner is None
                   and now - self._broken.get(t, -3600.0) > 600]
        if not unowned:
            return
        workers = max(1, len(await self.cluster.workers()))
        random.shuffle(unowned)
        for table_id in unowned[:max(1, -(-len(unowned) // workers))]:
            await self.adopt(table_id)

    async def _heartbeat(self) -> None:
        # A table that left memory (evicted: finished, or abandoned) is leased no more: once
        # it is seen out of memory at two heartbeats in a row (a table being created or taken
        # over is leased a moment before its room is added).
        absent = {t for t in list(self.cluster.leases)
                  if t not in self.rooms.rooms and t not in self._adopting}
        for table_id in absent & self._absent:
            lease = self.cluster.leases.get(table_id)
            if lease is not None:
                await self.cluster.release(lease)
        self._absent = absent - self._absent
        lost = await self.cluster.heartbeat()
        for lease in lost:
            await self._drop(lease.table_id, "its lease lapsed")
        # Sockets relayed to an owner that is gone, or that changed: send them on.
        relayed = {lk.table_id for lk in self.links.values() if lk.owner not in (None, self.me)}
        if relayed:
            owners = await self.cluster.owners(relayed)
            for link in list(self.links.values()):
                if (link.table_id in owners and link.owner != self.me
                        and owners[link.table_id] != (link.owner, link.token)):
                    await self._route(link)
        # Stand-ins of sockets whose worker died: their seats are away now.
        for worker in {w for w, _ in self.stand_ins}:
            if not await self.cluster.alive(worker):
                for key in [k for k in self.stand_ins if k[0] == worker]:
                    self._drop_stand_in(key)

    def fenced_off_soon(self, table_id: str) -> None:
        """A write of this table was refused by the store's fence (another worker took it
        while this one was paused, or Redis forgot the lease): stop playing it now rather than
        at the next heartbeat. Called from the writer's thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(
                lambda: self._spawn(self._fenced_off(table_id)))

    async def _fenced_off(self, table_id: str) -> None:
        lease = self.cluster.leases.pop(table_id, None)
        if lease is not None and table_id in self.rooms.rooms:
            await self._drop(table_id, "the store is fenced by a later owner")

    async def _drop(self, table_id: str, why: str) -> None:
        """Stop playing a table (its lease is gone): its room leaves memory, its sockets go
        to the new owner."""
        log.warning("table %s: dropped by %s: %s", table_id, self.me, why)
        room = self.rooms.rooms.pop(table_id, None)
        if room is not None:
            room.close()
            if self.lobby is not None:
                self.lobby.forget(table_id)
        for key, stand_in in list(self.stand_ins.items()):
            if stand_in.room is room:
                self._drop_stand_in(key)
                await self.cluster.send_to(key[0], {"op": "moved", "link": key[1]})
        for link in [lk for lk in self.links.values() if lk.table_id == table_id]:
            link.owner = None
            await self._route(link)

    # ---- this worker's sockets -------------------------------------------------------------

    async def serve_socket(self, table_id: str, out: Connection,
                           receive: Callable[[], Awaitable[str | bytes | None]]) -> bool:
        """Serve one socket of ``table_id`` until it closes: ``out`` is its outbox (pumped by
        the caller, with its rate limit), ``receive`` gives its next message (None once it
        closed). False at once if there is no such table."""
        link = Link(secrets.token_urlsafe(9), table_id, out)
        self.links[link.id] = link
        try:
            if not await self._route(link):
                return False
            while (raw := await receive()) is not None:
                try:
                    await self._forward(link, raw)
                except (RedisError, OSError):  # Redis away a moment: the socket stays
                    link.owner = None  # (routed again with its next message)
                    link.out.push("error", json.dumps({
                        "type": "error", "code": "worker_unavailable",
                        "message": "the table could not be reached; nothing changed; "
                                   "try again"}))
            return True
        finally:
            self.links.pop(link.id, None)
            await self._unroute(link)

    async def _route(self, link: Link) -> bool:
        """Attach the socket where its table is played: here, or relayed to its owner (taking
        the table first if nobody owns it). False if there is no such table."""
        async with link.moving:
            await self._unroute(link)
            owner = await self.cluster.owner(link.table_id)
            if owner is None and not await self.adopt(link.table_id):
                owner = await self.cluster.owner(link.table_id)
                if owner is None:
                    return False
            worker = self.me if owner is None else owner[0]
            if worker == self.me:
                room = self.rooms.rooms.get(link.table_id)
                lease = self.cluster.leases.get(link.table_id)
                if room is None and lease is not None:  # evicted a moment ago: back
                    room = await self._restore(link.table_id, lease)
                if room is None:
                    return False
                link.owner, link.token = self.me, lease.token if lease else 0
                link.attached = Forward(link.out)
                room.attach(link.attached)
                if link.join is not None:
                    await room.handle(link.attached, link.join)
            else:
                link.owner, link.token = worker, owner[1] if owner else 0
                await self.cluster.send_to(worker, {"op": "attach", "from": self.me,
                                                    "link": link.id, "table": link.table_id})
                if link.join is not None:
                    await self._relay(link, link.join)
            return True

    async def _unroute(self, link: Link) -> None:
        owner, link.owner = link.owner, None
        attached, link.attached = link.attached, None
        if attached is not None:
            room = self.rooms.rooms.get(link.table_id)
            if room is not None and attached in room.connections:
                room.detach(attached)
            attached.closed = True
        elif owner is not None:
            with contextlib.suppress(Exception):
                await self.cluster.send_to(owner, {"op": "detach", "from": self.me,
                                                   "link": link.id})

    async def _forward(self, link: Link, raw: str | bytes) -> None:
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        if len(text) <= MAX_MESSAGE and _is_join(text):
            link.join = text  # the seat it holds, for a new owner
        if link.owner is None:
            await self._route(link)
        if link.attached is not None:
            room = self.rooms.rooms.get(link.table_id)
            if room is not None:
                await room.handle(link.attached, raw)
            return
        # The room's first two checks, here, so that nothing they refuse reaches Redis.
        bucket = link.out.bucket
        if bucket is not None and not bucket.take():
            link.out.push("error", json.dumps({
                "type": "error", "code": "rate_limited",
                "message": f"too many messages: at most {bucket.rate:g} a second"}))
            return
        if len(raw) > MAX_MESSAGE:
            link.out.push("error", json.dumps({
                "type": "error", "code": "too_large",
                "message": f"message too large ({len(raw)} bytes; at most {MAX_MESSAGE})"}))
            return
        await self._relay(link, text)

    async def _relay(self, link: Link, text: str) -> None:
        if link.owner is not None:
            await self.cluster.send_to(link.owner, {"op": "msg", "from": self.me,
                                                    "link": link.id, "raw": text})

    # ---- asked of a table's owner (HTTP) -----------------------------------------------------

    async def take_seat(self, table_id: str, seat: int, name: str) -> str:
        """``POST /api/tables/{t}/seats/{s}`` on any worker: the owner takes the free seat
        (:meth:`Room.take_open_seat`) and hands out its token. :class:`TableError` as the
        room refuses, ``no_table``, or ``worker_unavailable`` when the owner does not
        answer in time (nothing changed, or the seat is taken and the token lost: the same
        as a request that timed out on one server)."""
        owner = await self.cluster.owner(table_id)
        if owner is None and await self.adopt(table_id):
            owner = (self.me, 0)
        if owner is None:
            raise TableError("no such table", "no_table")
        if owner[0] == self.me:
            room = self.rooms.rooms.get(table_id)
            if room is None:
                raise TableError("no such table", "no_table")
            return await room.take_open_seat(seat, name)
        if len(self._calls) >= MAX_CALLS:
            raise TableError("too many requests waiting for other workers; try again",
                             "worker_unavailable")
        call_id = secrets.token_urlsafe(9)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = answer
        try:
            await self.cluster.send_to(owner[0], {"op": "seat", "from": self.me,
                                                  "link": call_id, "table": table_id,
                                                  "seat": seat, "name": name})
            reply = await asyncio.wait_for(answer, CALL_TIMEOUT)
        except TimeoutError:
            raise TableError("the table's worker did not answer; try again",
                             "worker_unavailable") from None
        finally:
            self._calls.pop(call_id, None)
        if isinstance(reply.get("token"), str):
            return str(reply["token"])
        raise TableError(str(reply.get("message", "refused"))[:200],
                         str(reply.get("code", "refused"))[:40])

    async def _answer(self, worker: str, call_id: str,
                      reply: Awaitable[dict[str, Any]]) -> None:
        await self.cluster.send_to(worker, {"op": "answer", "link": call_id,
                                            "reply": await reply})

    async def _answer_seat(self, message: dict[str, Any]) -> dict[str, Any]:
        table_id, seat, name = message.get("table"), message.get("seat"), message.get("name")
        room = self.rooms.rooms.get(table_id) if isinstance(table_id, str) else None
        if room is None or not self.owns(room.table.id):
            return {"code": "worker_unavailable", "message": "the table moved; try again"}
        if type(seat) is not int or not isinstance(name, str):
            return {"code": "malformed", "message": "a seat number and a name"}
        try:
            return {"token": await room.take_open_seat(seat, name[:200])}
        except TableError as error:
            return {"code": error.code, "message": str(error)}

    # ---- the inbox ---------------------------------------------------------------------------

    async def _listen(self, ready: asyncio.Event) -> None:
        """This worker's inbox and the lobby, subscribed again whenever Redis comes back."""
        lobby, tables = self.cluster.keys.lobby, self.cluster.keys.tables
        failing = False
        while True:
            try:
                async for channel, message in self.cluster.listen(
                        self.cluster.keys.inbox(self.me), lobby, tables, ready=ready):
                    if failing:
                        log.warning("cluster: %s hears its inbox again", self.me)
                        failing = False
                    await self._heard(lobby, channel, message)
            except (RedisError, OSError) as error:
                if not failing:
                    log.warning("cluster: %s's inbox is not answering (tried again every "
                                "%g s): %s", self.me, self.cluster.heartbeat_every, error)
                failing = True
            await asyncio.sleep(self.cluster.heartbeat_every)

    async def _heard(self, lobby: str, channel: str, message: dict[str, Any]) -> None:
        try:
            if channel == lobby:
                if self.lobby is not None and message.get("from") != self.me:
                    self.lobby.heard(message)
                return
            if channel == self.cluster.keys.tables:
                self._owner_changed(message)
                return
            await self._on_message(message)
        except Exception as error:
            log.warning("cluster: a message to %s failed: %s: %s", self.me,
                        type(error).__name__, error)

    def _owner_changed(self, message: dict[str, Any]) -> None:
        """A table was taken over: this worker's sockets of it that are relayed elsewhere
        follow it now."""
        owner, table_id, token = message.get("from"), message.get("table"), message.get("token")
        if message.get("op") != "owner" or owner == self.me or not isinstance(token, int):
            return
        for link in self.links.values():
            if (link.table_id == table_id and link.owner != self.me
                    and (link.owner, link.token) != (owner, token)
                    and not link.moving.locked()):
                self._move(link)

    async def _on_message(self, message: dict[str, Any]) -> None:
        op, sender, link_id = message.get("op"), message.get("from"), message.get("link")
        if not isinstance(link_id, str):
            return
        if op == "out":  # the owner's message to one of this worker's relayed sockets
            link = self.links.get(link_id)
            text = message.get("text")
            if link is not None and isinstance(text, str):
                link.out.push("state" if text.startswith('{"type":"state"') else "reply",
                              text)
            return
        if op == "moved":  # that owner no longer plays the table: find the new one
            link = self.links.get(link_id)
            again = message.get("again")
            if link is not None:
                link.owner = None
                self._move(link, again if isinstance(again, str) else None)
            return
        if op == "answer":  # another worker's answer to this one's call
            answer = self._calls.get(link_id)
            reply = message.get("reply")
            if answer is not None and not answer.done() and isinstance(reply, dict):
                answer.set_result(reply)
            return
        if not isinstance(sender, str):
            return
        if op == "seat":  # in a task: the store's write must not hold the inbox up
            self._spawn(self._answer(sender, link_id, self._answer_seat(message)))
            return
        key = (sender, link_id)
        if op == "attach":
            table_id = message.get("table")
            room = self.rooms.rooms.get(table_id) if isinstance(table_id, str) else None
            if room is None or not self.owns(room.table.id):
                await self.cluster.send_to(sender, {"op": "moved", "link": link_id})
                return
            self._drop_stand_in(key)
            self.stand_ins[key] = self._stand_in(key, room)
        elif op == "msg":
            stand_in = self.stand_ins.get(key)
            raw = message.get("raw")
            if stand_in is None:  # (a new room of this table, say): the message comes again
                await self.cluster.send_to(sender, {"op": "moved", "link": link_id,
                                                    "again": raw})
            elif isinstance(raw, str):
                if stand_in.queue.full():  # a socket far ahead of its table: shed, no queue
                    stand_in.conn.push("error", json.dumps({
                        "type": "error", "code": "rate_limited",
                        "message": "too many messages waiting; this one was dropped"}))
                else:
                    stand_in.queue.put_nowait(raw)
        elif op == "detach":
            self._drop_stand_in(key)

    def _stand_in(self, key: tuple[str, str], room: Room) -> StandIn:
        worker, link_id = key
        cluster = self.cluster

        async def send(text: str) -> None:
            await cluster.send_to(worker, {"op": "out", "link": link_id, "text": text})

        conn = Connection(send)  # (the socket's worker applies its rate limit)
        queue: asyncio.Queue[str] = asyncio.Queue(RELAY_QUEUE)

        async def handle() -> None:
            while True:
                raw = await queue.get()
                try:
                    await room.handle(conn, raw)
                except Exception:
                    log.exception("table %s: a relayed message failed", room.table.id)

        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(conn.pump()), loop.create_task(handle())]
        room.attach(conn)
        return StandIn(room, conn, queue, tasks)

    def _drop_stand_in(self, key: tuple[str, str]) -> None:
        stand_in = self.stand_ins.pop(key, None)
        if stand_in is None:
            return
        for task in stand_in.tasks:
            task.cancel()
        if stand_in.conn in stand_in.room.connections:
            stand_in.room.detach(stand_in.conn)


def _is_join(text: str) -> bool:
    if '"join"' not in text:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "join"


def check_cluster(options: ClusterOptions) -> None:
    """Before any worker starts (``sueca serve``): the database opens (its schema brought up
    to date, once) and Redis answers; :class:`~sueca.server.storage.StorageError` names the
    one that does not."""
    import redis

    PostgresStorage(options.db_url).close()
    client = redis.Redis.from_url(options.redis_url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    except (redis.RedisError, OSError, ValueError) as error:
        raise StorageError(f"cannot reach Redis at {redact(options.redis_url)}: "
                           f"{error}") from None
    finally:
        client.close()


async def open_node(options: ClusterOptions, timing: Timing, *, seed: int | None = None,
                    **rooms_options: Any) -> tuple[Node, PostgresStorage]:
    """A worker joined to its cluster: its store (fenced by its leases), its rooms (none
    yet: it takes tables as it finds them unowned or as sockets ask), and its relays."""
    store = PostgresStorage(options.db_url, lock=False, pool_size=WRITERS)
    try:
        cluster = Cluster.from_url(options.redis_url, prefix=options.prefix,
                                   lease_ttl=options.lease_ttl,
                                   heartbeat_every=options.heartbeat_every)
        leases = SyncLeases(options.redis_url, cluster)

        def token_for(table_id: str) -> int | None:
            lease = cluster.leases.get(table_id)
            return None if lease is None else lease.token

        def lease_new(table_id: str) -> int | None:
            lease = leases.acquire(table_id)
            return None if lease is None else lease.token

        nodes: list[Node] = []

        def on_lost(table_id: str) -> None:  # (the writer's thread)
            nodes[0].fenced_off_soon(table_id)

        rooms = Rooms(LeasedStorage(store, token_for, lease_new, on_lost), timing, seed=seed,
                      writer_threads=WRITERS, **rooms_options)
        node = Node(cluster, store, rooms, adopt_every=options.adopt_every)
        nodes.append(node)
    except BaseException:
        store.close()
        raise
    return node, store


async def serve_websocket(node: Node, websocket: WebSocket, table_id: str,
                          bucket: TokenBucket | None,
                          receive: Callable[[], Awaitable[dict[str, Any] | None]]) -> None:
    """One table socket of a worker (the app's ``/ws/{table}``): its outbox and rate limit
    here, its messages to the table wherever it is played."""
    out = Connection(websocket.send_text, bucket)
    pump = asyncio.get_running_loop().create_task(out.pump())

    async def next_raw() -> str | bytes | None:
        message = await receive()
        if message is None:
            return None
        raw: str | bytes | None = message.get("text")
        return raw if raw is not None else (message.get("bytes") or b"")

    try:
        if not await node.serve_socket(table_id, out, next_raw):
            await websocket.send_text(json.dumps(
                {"type": "error", "code": "no_table", "message": "no such table"}))
            await websocket.close(code=4404)
    except WebSocketDisconnect:
        pass
    except (RedisError, OSError) as error:  # Redis away: this socket ends, the page retries
        log.warning("cluster: a socket of table %s ended: %s: %s", table_id,
                    type(error).__name__, error)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011, reason="the cluster is not answering; retry")
    finally:
        out.closed = True
        pump.cancel()
