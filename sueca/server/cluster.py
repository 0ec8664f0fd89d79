"""Several server processes behind one address, through Redis: who owns which table, who is
alive, and the channels between them (the lichess shape, lila ↔ redis ↔ lila-ws).

*Leases.* A table is played by one worker at a time, its owner: the worker holding its lease,
``<prefix>:lease:<table>`` set with ``SET NX PX`` (it expires unless renewed, every
:attr:`Cluster.heartbeat_every` seconds, well inside :attr:`Cluster.lease_ttl`). Each lease
taken gets a *token* from a per-table counter, so a later owner's token is always larger; the
store is fenced with it (:meth:`sueca.server.postgres.PostgresStorage.fence`) before the new
owner reads the table, and every write of the old owner checks the fence in its own
transaction. The counter lives in Redis, and a new token is also above the store's fence (the
caller reads it first), so tokens keep growing across a Redis restarted empty. A worker
paused past its lease (a stalled VM, a long GC) may still believe it owns the table, but can
no longer write to it: fencing, not the clock, is what keeps two owners from both playing a
table.

*Registry.* Each worker keeps ``<prefix>:worker:<id>`` alive (a key with the same TTL, renewed
with the leases) holding what it is (host, pid, started). A worker killed with SIGKILL simply
stops renewing: its key and its leases lapse together, and the others take its tables over.

*Channels* (pub/sub, at most once: a message published while nobody listens is lost, so
nothing a table needs lives only in a message; the store holds the game):
- ``<prefix>:to:<worker>``: a worker's inbox, for what another worker relays to the tables it
  owns (a socket's messages) and for the owner's replies to one relayed socket;
- ``<prefix>:tables``: the tables' events, heard by every worker (a table taken over, so the
  sockets relayed to its old owner follow it at once, not at the next heartbeat);
- ``<prefix>:lobby``: lobby changes, so every worker's listing shows every worker's tables.

Every message is one JSON object; a message that is not one is dropped with one log line
(another cluster's traffic on the same Redis, a bug), never a traceback.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

log = logging.getLogger("sueca.server")

LEASE_TTL = 5.0  # seconds a lease lasts unless renewed: a dead worker's tables move after it
HEARTBEAT_EVERY = 1.0  # seconds between renewals (a lease survives four missed in a row)
MAX_CONNECTIONS = 64  # Redis connections a worker opens at most (one more is waited for)
MAX_BUS_MESSAGE = 64 * 1024  # a relayed message bigger than this is dropped, not parsed

# Take a free lease: set it only if nobody holds it, then stamp it with the next token, above
# the floor the caller read from the store's fence (the counter starts over if Redis restarts
# empty; the fence does not).
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local token = redis.call('INCR', KEYS[2])
  if token <= tonumber(ARGV[3]) then
    token = tonumber(ARGV[3]) + 1
    redis.call('SET', KEYS[2], token)
  end
  redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. token, 'PX', ARGV[2])
  return token
end
return false
"""
# Renew or release a lease only while it is still this holder's.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class Lease:
    """A worker's hold on one table: ``token`` fences the store (it only grows)."""

    table_id: str
    worker: str
    token: int

    @property
    def value(self) -> str:
        return f"{self.worker} {self.token}"


def new_worker_id() -> str:
    """A worker's name in the cluster: its host and pid, and the time, so a restarted worker
    that reuses a pid is still a new one."""
    return f"{socket.gethostname()}-{os.getpid()}-{int(time.time() * 1000) % 10**8}"


class Keys:
    """The cluster's Redis keys and channels, under one prefix (one cluster per prefix)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def lease(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def token(self, table_id: str) -> str:
        return f"{self.prefix}:token:{table_id}"

    def worker(self, worker_id: str) -> str:
        return f"{self.prefix}:worker:{worker_id}"

    def inbox(self, worker_id: str) -> str:
        return f"{self.prefix}:to:{worker_id}"

    @property
    def tables(self) -> str:
        return f"{self.prefix}:tables"

    @property
    def lobby(self) -> str:
        return f"{self.prefix}:lobby"


def _parse_owner(value: bytes | str | None) -> tuple[str, int] | None:
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    worker, _, token = text.rpartition(" ")
    return (worker, int(token)) if worker and token.isdigit() else None


class Cluster:
    """One worker's handle on the cluster's Redis (redis-py's asyncio client)."""

    def __init__(self, client: aioredis.Redis, worker_id: str, *, prefix: str = "sueca",
                 lease_ttl: float = LEASE_TTL, heartbeat_every: float = HEARTBEAT_EVERY) -> None:
        if heartbeat_every * 2 > lease_ttl:
            raise ValueError("a lease must outlast two heartbeats")
        self.client = client
        self.worker_id = worker_id
        self.keys = Keys(prefix)
        self.lease_ttl = lease_ttl
        self.heartbeat_every = heartbeat_every
        self.leases: dict[str, Lease] = {}  # the tables this worker owns
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    @classmethod
    def from_url(cls, url: str, worker_id: str | None = None, **options: Any) -> Cluster:
        # A burst of sockets waits for one of a bounded set of connections rather than
        # failing (redis-py's plain pool refuses the 101st).
        # A connection Redis closed (it restarted) is retried on a new one, twice.
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=5, socket_timeout=5,
            socket_connect_timeout=5, health_check_interval=10,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            retry_on_error=[redis.ConnectionError, redis.TimeoutError])
        client = aioredis.Redis(connection_pool=pool)
        return cls(client, worker_id or new_worker_id(), **options)

    @property
    def _ttl_ms(self) -> int:
        return int(self.lease_ttl * 1000)

    # ---- the registry ------------------------------------------------------------------------

    async def join(self, **info: Any) -> None:
        """Say this worker is alive (``info``: what it is, for operators), until it stops
        renewing."""
        facts = {"host": socket.gethostname(), "pid": os.getpid(), "started": time.time(),
                 **info}
        await self.client.set(self.keys.worker(self.worker_id), json.dumps(facts),
                              px=self._ttl_ms)

    async def workers(self) -> dict[str, dict[str, Any]]:
        """Every live worker, by id, with what it said of itself."""
        prefix = self.keys.worker("")
        out: dict[str, dict[str, Any]] = {}
        async for key in self.client.scan_iter(match=f"{prefix}*", count=500):
            name = key.decode() if isinstance(key, bytes) else key
            raw = await self.client.get(name)
            if raw is not None:
                out[name[len(prefix):]] = _json_object(raw) or {}
        return out

    async def alive(self, worker_id: str) -> bool:
        return bool(await self.client.exists(self.keys.worker(worker_id)))

    async def heartbeat(self) -> list[Lease]:
        """Renew this worker's key and every lease it holds; the leases it has lost (expired
        and perhaps taken by another), which it must stop playing now."""
        pipe = self.client.pipeline(transaction=False)
        pipe.pexpire(self.keys.worker(self.worker_id), self._ttl_ms)
        held = list(self.leases.values())
        for lease in held:
            await self._renew(keys=[self.keys.lease(lease.table_id)],
                              args=[lease.value, self._ttl_ms], client=pipe)  # queued
        results = await pipe.execute()
        if not results[0]:
            await self.join()  # the key lapsed (Redis restarted, a long pause): say so again
        lost = [lease for lease, renewed in zip(held, results[1:], strict=True) if not renewed]
        for lease in lost:
            self.leases.pop(lease.table_id, None)
        return lost

    async def leave(self) -> None:
        """Release every lease and leave the registry (a clean shutdown: the others take
        the tables over at once rather than after the leases lapse)."""
        for lease in list(self.leases.values()):
            await self.release(lease)
        await self.client.delete(self.keys.worker(self.worker_id))

    # ---- leases ------------------------------------------------------------------------------

    async def acquire(self, table_id: str, floor: int = 0) -> Lease | None:
        """Take the table's lease if nobody holds it: the lease (with its new token, above
        ``floor``: the token the store is fenced at), or None while another worker holds
        it."""
        token = await self._acquire(keys=[self.keys.lease(table_id), self.keys.token(table_id)],
                                    args=[self.worker_id, self._ttl_ms, floor])
        if token is None:
            return None
        lease = Lease(table_id, self.worker_id, int(token))
        self.leases[table_id] = lease
        return lease

    async def release(self, lease: Lease) -> None:
        self.leases.pop(lease.table_id, None)
        await self._release(keys=[self.keys.lease(lease.table_id)], args=[lease.value])

    async def owner(self, table_id: str) -> tuple[str, int] | None:
        """Who holds the table's lease, and under which token; None when nobody does."""
        return _parse_owner(await self.client.get(self.keys.lease(table_id)))

    async def owners(self, table_ids: Iterable[str]) -> dict[str, tuple[str, int] | None]:
        """The owner and token of each of ``table_ids`` (None: nobody), in one round
        trip."""
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self.client.mget([self.keys.lease(t) for t in ids])
        return {t: _parse_owner(v) for t, v in zip(ids, values, strict=True)}

    # ---- channels ----------------------------------------------------------------------------

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Send one JSON object on a channel; how many workers heard it."""
        return int(await self.client.publish(channel, json.dumps(message,
                                                                 separators=(",", ":"))))

    async def send_to(self, worker_id: str, message: dict[str, Any]) -> int:
        return await self.publish(self.keys.inbox(worker_id), message)

    async def listen(self, *channels: str,
                     ready: Any = None) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """The messages of ``channels`` as ``(channel, object)``, for as long as the caller
        iterates (cancel the task to stop). ``ready``: an :class:`asyncio.Event` set once
        subscribed (a message published before that is not heard)."""
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(*channels)
            if ready is not None:
                ready.set()
            while True:
                item = await pubsub.get_message(timeout=1.0)
                if item is None or item.get("type") != "message":
                    continue
                channel = item["channel"]
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                message = _json_object(item["data"])
                if message is None:
                    log.warning("cluster: a message on %s that is not a JSON object was "
                                "dropped", name[:80])
                    continue
                yield name, message
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        await self.client.aclose()
        await self.client.connection_pool.disconnect()


def _json_object(raw: bytes | str) -> dict[str, Any] | None:
    if len(raw) > MAX_BUS_MESSAGE:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


class SyncLeases:
    """The lease half of :class:`Cluster` for a thread without an event loop (the storage
    writer's, which takes the lease of a table it creates): the same keys and scripts."""

    def __init__(self, url: str, cluster: Cluster) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.cluster = cluster
        self._acquire = self.client.register_script(_ACQUIRE)

    def acquire(self, table_id: str) -> Lease | None:
        keys = self.cluster.keys
        token = self._acquire(keys=[keys.lease(table_id), keys.token(table_id)],
                              args=[self.cluster.worker_id, self.cluster._ttl_ms, 0])
        if token is None:
            return None
        lease = Lease(table_id, self.cluster.worker_id, int(token))
        self.cluster.leases[table_id] = lease
        return lease

    def close(self) -> None:
        self.client.close()
