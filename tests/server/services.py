"""The real PostgreSQL and Redis servers some tests need (``.ci/run`` starts them; by hand:
``source .ci/services && start_services``). Without their URLs a test is skipped with the
reason, on a laptop's plain ``pytest``; where ``SUECA_REQUIRE_SERVICES`` is set (CI) it fails
instead, so CI can never pass by skipping them."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _url(variable: str, what: str) -> str:
    url = os.environ.get(variable)
    if url:
        return url
    reason = (f"{variable} is not set: these tests need a real {what} server "
              "(source .ci/services && start_services)")
    if os.environ.get("SUECA_REQUIRE_SERVICES"):
        pytest.fail(reason)
    pytest.skip(reason)


def postgres_url() -> str:
    return _url("SUECA_TEST_POSTGRES", "PostgreSQL")


def redis_url() -> str:
    return _url("SUECA_TEST_REDIS", "Redis")


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty database on the test server for one test (dropped after it)."""
    import psycopg

    admin = postgres_url()
    name = f"sueca_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())


@contextmanager
def fresh_redis_db() -> Iterator[str]:
    """The test Redis server's URL; its keys are removed after the test."""
    import redis

    url = redis_url()
    yield url
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
