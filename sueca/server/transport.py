"""The server's sockets: deadlines, connection caps and a log that cannot flood.

An audit held 1,100 half-sent requests open against ``sueca serve``: every normal GET then
timed out, and once the process ran out of file descriptors ``EMFILE`` wrote 43,000 log
lines. uvicorn alone waits for a request's headers for ever, and accepts connections until
the process has no descriptor left. Here:

- **A request deadline.** A connection's request (line, headers and body) must arrive within
  :attr:`EdgeLimits.request_timeout` seconds of its first byte (of the connection, for the
  first request); one that does not gets ``408`` and is closed. An idle keep-alive
  connection is closed after :attr:`EdgeLimits.keep_alive` seconds (uvicorn's own timer).
- **Connection caps.** At most :attr:`EdgeLimits.per_address` open connections from one
  address (HTTP and WebSocket together): one more is answered ``429`` and closed at once;
  at most :attr:`EdgeLimits.connections` in all, below the process's descriptor limit (which
  :func:`raise_file_limit` raises to its hard limit first): one more gets ``503``. So a flood
  from one address leaves every other address served, and no flood reaches ``EMFILE``.
- **Silent sockets.** uvicorn pings every WebSocket (:attr:`EdgeLimits.ws_ping`) and closes
  one whose peer does not answer; the app closes one that sends nothing for 10 minutes
  (``app.SOCKET_IDLE``; the pages ping).
- **A log that cannot flood.** :class:`LogRateLimit`: the same message (its template, from
  the same logger at the same level) at most :attr:`EdgeLimits.log_per_minute` times a
  minute, then one line saying how many more were suppressed.

The caps live in a uvicorn HTTP protocol class (:class:`GuardedH11Protocol`, a subclass of
uvicorn's h11 implementation, which the default install uses) and its WebSocket twin, which
count each connection from ``connection_made`` to ``connection_lost`` — so one that upgraded
to a WebSocket is still counted. Behind a reverse proxy every connection comes from the
proxy's address: set ``--max-per-address 0`` there and let the proxy cap addresses.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("sueca.server.transport")


@dataclass(frozen=True)
class EdgeLimits:
    """What one connection may hold, and how many may be open."""

    request_timeout: float = 10.0  # seconds for a request's line, headers and body
    keep_alive: int = 5  # seconds an idle keep-alive connection stays open (uvicorn's)
    per_address: int = 128  # open connections from one address (0: no cap, behind a proxy)
    connections: int = 4096  # open connections in all (lowered to fit the descriptor limit)
    ws_ping: float = 20.0  # seconds between pings to a WebSocket, and to wait for its pong
    # Connections the kernel queues for accepting; asyncio accepts up to this many in one go,
    # before any of them is refused, so they count against the file limit too.
    backlog: int = 2048
    log_per_minute: int = 20  # the same log message at most this often


DEFAULT_EDGE = EdgeLimits()
LINGERING = 64  # refused connections drained at once, at most (each for LINGER seconds)
LINGER = 1.0
OWN_FILES = 64  # descriptors the process keeps for everything but connections


class ConnectionGuard:
    """The open connections, per address and in all; refuses one over a cap."""

    def __init__(self, limits: EdgeLimits) -> None:
        self.limits = limits
        self._address: dict[Any, str] = {}  # transport → its peer's address
        self._per_address: dict[str, int] = {}
        self.refused = 0
        self.lingering = 0  # refused connections still being told why

    @property
    def open(self) -> int:
        return len(self._address)

    def admit(self, transport: Any, address: str) -> tuple[int, str] | None:
        """Count a new connection, or say why not: (HTTP status, message)."""
        if len(self._address) >= self.limits.connections:
            self.refused += 1
            return 503, f"the server has its most open connections ({self.limits.connections})"
        held = self._per_address.get(address, 0)
        if self.limits.per_address and held >= self.limits.per_address:
            self.refused += 1
            return 429, (f"too many open connections from this address "
                         f"(at most {self.limits.per_address})")
        self._address[transport] = address
        self._per_address[address] = held + 1
        return None

    def release(self, transport: Any) -> None:
        """The connection closed (idempotent: an HTTP connection that became a WebSocket is
        released once, by whichever protocol held it last)."""
        address = self._address.pop(transport, None)
        if address is None:
            return
        left = self._per_address[address] - 1
        if left:
            self._per_address[address] = left
        else:
            del self._per_address[address]

    def held_by(self, address: str) -> int:
        return self._per_address.get(address, 0)


def _refusal(status: int, message: str) -> bytes:
    reason = {408: "Request Timeout", 429: "Too Many Requests",
              503: "Service Unavailable"}[status]
    code = {408: "request_timeout", 429: "too_many_connections", 503: "server_busy"}[status]
    body = json.dumps({"error": code, "message": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the connection caps and the request deadline. ``guard``
    is set on a subclass per server (:func:`protocol_classes`)."""

    guard: ConnectionGuard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False
        address = self.client[0] if self.client else "?"
        refused = self.guard.admit(transport, address)
        if refused is not None:
            log.warning("connection from %s refused: %s", address, refused[1])
            self._refuse(transport, refused)
            return
        self._arm_deadline()

    def _refuse(self, transport: asyncio.Transport, refused: tuple[int, str]) -> None:
        """Say why and close. Closing a socket whose request is unread sends a reset, which
        may overtake the answer: so a few refused connections at a time are half-closed and
        drained for a moment first; past those, the flood is simply cut."""
        self._refused = True
        transport.write(_refusal(*refused))
        if self.guard.lingering >= LINGERING or not transport.can_write_eof():
            transport.close()
            return
        self.guard.lingering += 1
        self._lingering = True
        transport.write_eof()
        self.loop.call_later(LINGER, transport.close)

    def _arm_deadline(self) -> None:
        self._deadline = self.loop.call_later(self.guard.limits.request_timeout,
                                              self._deadline_passed)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer begun yet
            self.transport.write(_refusal(408, "the request did not arrive in time"))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # a refused connection's request: drained, unread
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm_deadline()  # the first byte of a next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._cancel_deadline()  # the whole request is in

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._cancel_deadline()  # the socket's own pings and idle limit take over
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self.guard.release(self.transport)
        if getattr(self, "_lingering", False):
            self._lingering = False
            self.guard.lingering -= 1
        super().connection_lost(exc)


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that releases its connection from the guard."""

    guard: ConnectionGuard

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


def protocol_classes(guard: ConnectionGuard) -> tuple[type[GuardedH11Protocol],
                                                      type[GuardedWebSocketProtocol]]:
    """The HTTP and WebSocket protocol classes of one server, sharing ``guard``."""
    http = type("SuecaHttpProtocol", (GuardedH11Protocol,), {"guard": guard})
    ws = type("SuecaWebSocketProtocol", (GuardedWebSocketProtocol,), {"guard": guard})
    return http, ws


def raise_file_limit() -> int | None:
    """Raise the soft limit on open files to the hard one; the soft limit now (None where the
    platform has no such limit)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def fit_to_file_limit(limits: EdgeLimits, file_limit: int | None) -> EdgeLimits:
    """The caps lowered so that a flood never reaches ``EMFILE``: a burst of accepted
    connections (the backlog, an eighth of the limit at most), the refused ones still being
    told why (:data:`LINGERING`) and the process's own files (the database, the bots'
    processes, the log: :data:`OWN_FILES`) all fit beside the open connections."""
    if file_limit is None:
        return limits
    backlog = max(8, min(limits.backlog, file_limit // 8))
    room = file_limit - backlog - LINGERING - OWN_FILES
    return replace(limits, backlog=backlog, connections=max(8, min(limits.connections, room)))


class LogRateLimit(logging.Filter):
    """The same message at most ``per_window`` times a ``window``; then one line saying how
    many more were suppressed, logged when the window is over (with the next record this
    filter sees). "The same" is the record's template from the same logger at the same
    level, so a message repeated with different arguments (an address, a number) counts as
    one. Keys are forgotten, oldest first, past ``remember``."""

    def __init__(self, handler: logging.Handler, per_window: int = 20, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, remember: int = 1000) -> None:
        super().__init__()
        self._handler = handler
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._remember = remember
        # key → [window start, records in it, suppressed, a record of it]
        self._seen: dict[tuple[str, int, str], list[Any]] = {}
        self._suppressing: set[tuple[str, int, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_suppressed_note", False):
            return True
        now = self._clock()
        if self._suppressing:
            self._report(now)
        key = (record.name, record.levelno, str(record.msg)[:200])
        seen = self._seen.get(key)
        if seen is None or now - seen[0] >= self.window:
            if seen is None and len(self._seen) >= self._remember:
                oldest = next(iter(self._seen))
                if oldest not in self._suppressing:
                    del self._seen[oldest]
            self._seen[key] = [now, 1, 0, record]
            return True
        seen[1] += 1
        if seen[1] <= self.per_window:
            return True
        seen[2] += 1
        seen[3] = record
        self._suppressing.add(key)
        return False

    def _report(self, now: float) -> None:
        for key in [k for k in self._suppressing if now - self._seen[k][0] >= self.window]:
            self._suppressing.discard(key)
            start, _, suppressed, last = self._seen[key]
            note = logging.LogRecord(
                last.name, last.levelno, last.pathname, last.lineno,
                "%d more like this suppressed in %g s: %s", (suppressed, self.window,
                                                              last.getMessage()[:200]),
                None)
            note._suppressed_note = True
            self._seen[key] = [start, self.per_window, 0, last]
            self._handler.handle(note)


def limit_log_rate(per_minute: int) -> None:
    """Put a :class:`LogRateLimit` on every handler of the root logger and uvicorn's error
    log (the access log, one line per request, is left whole: the connection caps bound
    it). The root logger gets a stderr handler if it has none, so that asyncio's and
    sueca's warnings pass through the filter too, not Python's unfiltered last resort."""
    root = logging.getLogger()
    if not root.handlers:
        stderr = logging.StreamHandler(sys.stderr)
        stderr.setLevel(logging.WARNING)
        stderr.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        root.addHandler(stderr)
    for name in ("", "uvicorn", "uvicorn.error"):
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, LogRateLimit) for f in handler.filters):
                handler.addFilter(LogRateLimit(handler, per_window=per_minute))


def uvicorn_config(app: Any, host: str, port: int, limits: EdgeLimits = DEFAULT_EDGE,
                   **options: Any) -> Any:
    """A ``uvicorn.Config`` serving ``app`` with these limits (the caller raises the file
    limit and fits the caps to it first; ``sueca serve`` does)."""
    import uvicorn

    http, ws = protocol_classes(ConnectionGuard(limits))
    return uvicorn.Config(app, host=host, port=port, http=http, ws=ws, backlog=limits.backlog,
                          timeout_keep_alive=limits.keep_alive,
                          ws_ping_interval=limits.ws_ping, ws_ping_timeout=limits.ws_ping,
                          **options)
