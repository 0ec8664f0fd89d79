"""Rate limits (sueca/server/limits.py): a socket that sends too fast gets an error for each
message over its limit and changes nothing; an address that opens too many tables gets 429.
Limits are given per test (``sueca serve`` runs with DEFAULT_LIMITS)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of

from sueca.server.limits import DEFAULT_LIMITS, AddressLimiter, Limits


def test_an_address_over_its_table_limit_is_refused_with_429(tmp_path: Path) -> None:
    limits = Limits(tables_per_minute=1, table_burst=2)
    with LiveServer(str(tmp_path / "sueca.db"), limits=limits) as server:
        for _ in range(2):
            create_table(server.http, ["human", "bot", "bot", "bot"])
        response = httpx2.post(f"{server.http}/api/tables", json={
            "rules": {"variant": "standard"},
            "seats": [{"kind": "human", "name": n} for n in "ABCD"]})
        assert response.status_code == 429
        assert response.json() == {
            "error": "rate_limited",
            "message": "too many new tables from this address: at most 1 a minute"}
        assert len(httpx2.get(f"{server.http}/api/tables").json()["tables"]) == 2


def test_a_socket_over_its_message_limit_gets_errors_and_changes_nothing(tmp_path: Path
                                                                          ) -> None:
    limits = Limits(messages_per_second=0.01, message_burst=3)
    with LiveServer(str(tmp_path / "sueca.db"), limits=limits) as server:
        table = create_table(server.http, ["human"] * 4)

        async def scenario() -> tuple[list[str], dict[str, object], int]:
            watcher = await join(server.ws, table["id"], None, None)  # a bucket of its own
            seat = (await watcher.sync())["actor"]
            player = await join(server.ws, table["id"], token_of(table, seat), seat)  # 1 token
            for _ in range(2):
                await player.send({"type": "ping"})
            kinds = [(await player.recv_until("pong"))["type"] for _ in range(2)]
            view = player.view
            assert view is not None and view["legal"]
            # Over the limit: even the legal card the seat is to play is dropped unread.
            await player.send({"type": "play", "card": view["legal"][0]})
            refused = await player.recv_until("error")
            played = (await watcher.sync())["played"]
            await player.socket.close()
            await watcher.socket.close()
            return kinds, refused, played

        kinds, refused, played = asyncio.run(scenario())
    assert kinds == ["pong", "pong"]
    assert refused["code"] == "rate_limited"
    assert refused["message"] == "too many messages: at most 0.01 a second"
    assert played == 0


def test_the_address_table_forgets_idle_addresses() -> None:
    clock = [0.0]
    limiter = AddressLimiter(rate_per_minute=60, burst=1, clock=lambda: clock[0], remember=4)
    assert [limiter.take(a) for a in "abc"] == [True, True, True]
    assert not limiter.take("a")  # one a minute... a second here: too soon
    clock[0] = 2.0  # a, b and c are full again
    assert limiter.take("d")  # the fourth address: the table is full now
    assert limiter.take("e") and sorted(limiter._buckets) == ["d", "e"]  # a-c forgotten
    assert not limiter.take("d")  # d is still remembered, and still limited


def test_sueca_serve_runs_with_the_default_limits(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    import uvicorn

    from sueca.server import app

    built: dict[str, Any] = {}
    create_app = app.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        built.update(kwargs)
        return create_app(*args, **kwargs)

    monkeypatch.setattr(app, "create_app", spy)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    # Its filters would stay on pytest's own log handlers (the root logger's) for the rest of
    # the run, and hold back the log lines later tests look for.
    monkeypatch.setattr(app, "limit_log_rate", lambda per_minute: None)
    app.serve(db_path=tmp_path / "sueca.db", bot_workers=0)  # built, not run
    assert built["limits"] is DEFAULT_LIMITS
    assert DEFAULT_LIMITS.messages_per_second >= 5 and DEFAULT_LIMITS.tables_per_minute >= 5
