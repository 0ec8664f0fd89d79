"""The transport's limits against a real uvicorn on a free port, with real sockets: half-sent
requests are closed at their deadline and cannot starve other addresses, the connection caps
refuse what is over them, silent sockets are closed, and the log cannot flood."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2
import pytest
import uvicorn
from server_support import FAST, create_table
from websockets.asyncio.client import connect

from sueca.server import create_app
from sueca.server.transport import (
    EdgeLimits,
    LogRateLimit,
    fit_to_file_limit,
    uvicorn_config,
)

FLOOD = "127.0.0.2"  # the flood's source address (all of 127/8 is this machine)
HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # headers never finished


class EdgeServer:
    """The app on uvicorn with the transport's protocol classes, in a thread."""

    def __init__(self, db_path: str, limits: EdgeLimits, socket_idle: float = 600.0) -> None:
        self.app = create_app(db_path, timing=FAST, seed=7, socket_idle=socket_idle)
        config = uvicorn_config(self.app, "127.0.0.1", 0, limits, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> EdgeServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server"
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "sueca.db")


def half_sent(port: int, source: str = FLOOD) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(HALF_SENT)
    return sock


def answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server writes until it closes the connection."""
    sock.settimeout(timeout)
    data = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk


def cut_or_answered(sock: socket.socket) -> bool:
    """Whether the server closed the connection (a reset counts: closed) within 10 s."""
    with contextlib.suppress(ConnectionResetError):
        answer(sock, 10)
    return True


def closed_within(sock: socket.socket, timeout: float) -> bool:
    try:
        answer(sock, timeout)
    except TimeoutError:
        return False
    return True


def test_a_flood_of_half_sent_requests_starves_no_one_and_is_closed_at_the_deadline(
        db: str) -> None:
    limits = EdgeLimits(request_timeout=1.5, per_address=64)
    with EdgeServer(db, limits) as live:
        held = [half_sent(live.port) for _ in range(64)]
        over: list[socket.socket] = []
        try:
            # Beyond its cap the flooding address is refused at once, with a reason...
            for _ in range(20):
                over.append(half_sent(live.port))
                refused = answer(over[-1])
                assert refused.startswith(b"HTTP/1.1 429") and b"too_many_connections" in refused
            # ... or, 200 at once, at least closed at once (those past the few told why are
            # cut: a reset).
            over += [half_sent(live.port) for _ in range(200)]
            assert all(cut_or_answered(sock) for sock in over[20:])
            # Every other address is served while the flood is open.
            for _ in range(5):
                response = httpx2.get(f"{live.http}/api/tables", timeout=10)
                assert response.status_code == 200
            # The half-sent requests are closed at their deadline (408), not held for ever.
            endings = [answer(sock, timeout=15) for sock in held]
            assert all(e.startswith(b"HTTP/1.1 408") for e in endings)
            # Then the address may connect again.
            again = half_sent(live.port)
            assert answer(again).startswith(b"HTTP/1.1 408")
        finally:
            for sock in held + over:
                sock.close()


def test_a_request_trickled_on_a_kept_alive_connection_meets_the_deadline(db: str) -> None:
    with EdgeServer(db, EdgeLimits(request_timeout=1.0, keep_alive=30)) as live:
        sock = socket.create_connection(("127.0.0.1", live.port))
        try:
            sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(10)
            first = sock.recv(65536)
            assert first.startswith(b"HTTP/1.1 200")
            # A second request, one header byte at a time: the deadline counts from its first.
            started = time.monotonic()
            closed = False
            for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa":
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                time.sleep(0.1)
                if time.monotonic() - started > 1.5:
                    break
            if not closed:
                try:
                    closed = b"408" in answer(sock, timeout=5)
                except ConnectionResetError:  # the 408 came, then our late bytes were refused
                    closed = True
            assert closed
        finally:
            sock.close()


def test_a_body_that_does_not_arrive_meets_the_deadline_without_a_traceback(db: str) -> None:
    records: list[logging.LogRecord] = []
    catch = logging.Handler()
    catch.emit = records.append  # type: ignore[method-assign]
    with EdgeServer(db, EdgeLimits(request_timeout=1.0)) as live:
        logging.getLogger("uvicorn.error").addHandler(catch)  # uvicorn's own log, unpropagated
        sock = socket.create_connection(("127.0.0.1", live.port))
        try:
            sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n"
                         b"Content-Type: application/json\r\n\r\n{\"rules\"")
            assert answer(sock).startswith(b"HTTP/1.1 408")
        finally:
            sock.close()
        time.sleep(0.3)  # the handler that awaited the body has ended
        logging.getLogger("uvicorn.error").removeHandler(catch)
    assert not [r.getMessage() for r in records if r.exc_info]


def test_an_idle_kept_alive_connection_is_closed(db: str) -> None:
    with EdgeServer(db, EdgeLimits(keep_alive=1)) as live:
        sock = socket.create_connection(("127.0.0.1", live.port))
        try:
            sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(10)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            assert closed_within(sock, 10)
        finally:
            sock.close()


def test_the_global_cap_refuses_connections_over_it_and_counts_websockets(db: str) -> None:
    limits = EdgeLimits(connections=12, per_address=0, request_timeout=30)
    with EdgeServer(db, limits) as live:
        table = create_table(live.http, ["human", "bot", "bot", "bot"])
        time.sleep(0.3)  # that request's connection is gone

        async def run() -> None:
            sockets = [await connect(f"ws://127.0.0.1:{live.port}/ws/{table['id']}")
                       for _ in range(4)]
            held = [half_sent(live.port, "127.0.0.1") for _ in range(8)]
            try:
                refused = await asyncio.to_thread(answer, half_sent(live.port, "127.0.0.3"))
                assert refused.startswith(b"HTTP/1.1 503") and b"server_busy" in refused
                for sock in held:
                    sock.close()
                for s in sockets[:2]:
                    await s.close()
                await asyncio.sleep(0.3)  # the server sees them go
                response = await asyncio.to_thread(httpx2.get, f"{live.http}/api/bots")
                assert response.status_code == 200
            finally:
                for s in sockets:
                    await s.close()

        asyncio.run(run())


def test_a_socket_that_sends_nothing_is_closed(db: str) -> None:
    with EdgeServer(db, EdgeLimits(), socket_idle=0.5) as live:
        table = create_table(live.http, ["human", "bot", "bot", "bot"])

        async def run() -> None:
            for path in (f"/ws/{table['id']}", "/ws/lobby"):
                async with connect(f"ws://127.0.0.1:{live.port}{path}") as sock:
                    with pytest.raises(Exception):  # noqa: B017 (ConnectionClosed, any kind)
                        while True:
                            await asyncio.wait_for(sock.recv(), 10)
                    assert sock.close_code == 4408, path

        asyncio.run(run())


def test_the_same_log_message_is_told_a_few_times_a_minute_then_counted() -> None:
    clock = [0.0]
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(LogRateLimit(handler, per_window=5, window=60, clock=lambda: clock[0]))
    logger = logging.getLogger("test.flood")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for n in range(1000):
            logger.error("socket.accept() out of system resource (%d)", n)
        logger.error("another message")
        assert out.getvalue().count("out of system resource") == 5
        assert "another message" in out.getvalue()
        clock[0] = 61.0  # the minute is over: the next line brings the count with it
        logger.error("another message")
        lines = out.getvalue().splitlines()
        assert any(line.startswith("995 more like this suppressed") for line in lines)
        assert len(lines) == 8
        logger.error("socket.accept() out of system resource (%d)", 1)  # a new minute
        assert out.getvalue().count("out of system resource") == 7  # 5 + the note + this
    finally:
        logger.removeHandler(handler)


def test_the_connection_cap_fits_below_the_file_limit() -> None:
    small = fit_to_file_limit(EdgeLimits(connections=4096, backlog=2048), 1024)
    assert (small.backlog, small.connections) == (128, 1024 - 128 - 64 - 64)
    large = fit_to_file_limit(EdgeLimits(connections=4096, backlog=2048), 100_000)
    assert (large.backlog, large.connections) == (2048, 4096)
    assert fit_to_file_limit(EdgeLimits(connections=4096), None).connections == 4096


@pytest.mark.slow
def test_sueca_serve_at_a_low_file_limit_survives_a_flood_with_a_short_log(tmp_path: Path) -> None:
    """``sueca serve`` itself, its descriptors limited to 256: 600 connections at once from
    one address reach no EMFILE (the caps refuse them first), the log stays short, and once
    the flood's deadline passed the server answers again."""
    port = _free_port()
    script = ("import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256));"
              "from sueca.cli import main; sys.argv = ['sueca', 'serve', '--port', sys.argv[1],"
              " '--db', sys.argv[2], '--request-timeout', '2']; main()")
    server = subprocess.Popen([sys.executable, "-c", script, str(port), str(tmp_path / "s.db")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, )
    try:
        _wait_listening(port)
        flood: list[socket.socket] = []
        for _ in range(600):
            try:
                flood.append(half_sent(port))
            except OSError:
                break
        time.sleep(4)  # the flood's deadline passes
        response = httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=10)
        assert response.status_code == 200
        for sock in flood:
            sock.close()
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    log = err.decode(errors="replace")
    assert "out of system resource" not in log and "Too many open files" not in log
    assert len(log.splitlines()) < 80, log[-3000:]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("sueca serve did not listen")

