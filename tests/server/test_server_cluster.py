"""The cluster's Redis pieces on a real Redis server (skipped with the reason where none is
running; CI starts one): leases and their tokens, renewal and loss, the worker registry, the
channels. The whole cluster (several worker processes, a worker killed mid-trick) is in
test_server_workers.py."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from services import redis_url

from sueca.server.cluster import Cluster


def _run(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """Run an async test with two workers of a cluster of its own (its own key prefix)."""

    def wrapper() -> None:
        url = redis_url()

        async def body() -> None:
            prefix = f"test-{secrets.token_hex(4)}"
            a = Cluster.from_url(url, "A", prefix=prefix, lease_ttl=0.6, heartbeat_every=0.2)
            b = Cluster.from_url(url, "B", prefix=prefix, lease_ttl=0.6, heartbeat_every=0.2)
            try:
                await test(a, b)
            finally:
                async for key in a.client.scan_iter(match=f"{prefix}:*"):
                    await a.client.delete(key)
                await a.close()
                await b.close()

        asyncio.run(body())

    wrapper.__name__ = test.__name__
    return wrapper


@_run
async def test_one_owner_at_a_time_and_tokens_only_grow(a: Cluster, b: Cluster) -> None:
    first = await a.acquire("t1")
    assert first is not None and first.worker == "A"
    assert await b.acquire("t1") is None  # held
    assert await b.owner("t1") == ("A", first.token)
    await a.release(first)
    assert await a.owner("t1") is None
    second = await b.acquire("t1")
    assert second is not None and second.token > first.token
    assert await a.owners(["t1", "t2"]) == {"t1": "B", "t2": None}


@_run
async def test_a_lease_lasts_while_renewed_and_lapses_when_not(a: Cluster, b: Cluster) -> None:
    await a.join(port=1)
    lease = await a.acquire("t1")
    assert lease is not None
    for _ in range(5):  # 1 s, past the 0.6 s lease: renewals keep it
        await asyncio.sleep(0.2)
        assert await a.heartbeat() == []
    assert await b.acquire("t1") is None
    assert set(await b.workers()) == {"A"} and (await b.workers())["A"]["port"] == 1
    await asyncio.sleep(0.8)  # A stops renewing (killed): its key and lease lapse together
    assert not await b.alive("A") and await b.owner("t1") is None
    taken = await b.acquire("t1")
    assert taken is not None and taken.token > lease.token
    # A wakes up: its renewal tells it the table is gone, and it holds nothing more.
    assert await a.heartbeat() == [lease]
    assert a.leases == {} and await b.owner("t1") == ("B", taken.token)


@_run
async def test_a_release_by_a_stale_holder_changes_nothing(a: Cluster, b: Cluster) -> None:
    old = await a.acquire("t1")
    assert old is not None
    await asyncio.sleep(0.8)
    new = await b.acquire("t1")
    assert new is not None
    await a.release(old)  # too late: the lease is B's now
    assert await a.owner("t1") == ("B", new.token)


@_run
async def test_leave_frees_every_lease_at_once(a: Cluster, b: Cluster) -> None:
    await a.join()
    for table in ("t1", "t2"):
        assert await a.acquire(table) is not None
    await a.leave()
    assert await b.owners(["t1", "t2"]) == {"t1": None, "t2": None}
    assert await b.workers() == {}


@_run
async def test_channels_carry_json_objects_and_drop_the_rest(a: Cluster, b: Cluster) -> None:
    heard: list[tuple[str, dict[str, Any]]] = []
    ready = asyncio.Event()

    async def listen() -> None:
        async for item in b.listen(b.keys.inbox("B"), b.keys.lobby, ready=ready):
            heard.append(item)
            if len(heard) == 2:
                return

    task = asyncio.create_task(listen())
    await asyncio.wait_for(ready.wait(), 5)
    await a.client.publish(b.keys.inbox("B"), b"not json")
    await a.client.publish(b.keys.inbox("B"), b"[1, 2]")
    assert await a.send_to("B", {"op": "hello", "text": "olá"}) == 1
    await a.publish(a.keys.lobby, {"op": "changed"})
    await asyncio.wait_for(task, 5)
    assert heard == [(b.keys.inbox("B"), {"op": "hello", "text": "olá"}),
                     (b.keys.lobby, {"op": "changed"})]


def test_a_lease_must_outlast_two_heartbeats() -> None:
    with pytest.raises(ValueError, match="outlast"):
        Cluster(None, "A", lease_ttl=1.0, heartbeat_every=0.6)  # type: ignore[arg-type]

