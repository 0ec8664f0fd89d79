"""The edge of the app: cross-site requests refused, and the security headers of every answer.

Nothing here needs a cookie to be worth guarding: a seat's token travels in the page's URL
fragment and the socket's first message, never automatically. What a cross-site page *can*
do is spend this server's limits with its visitors' browsers and addresses — open tables
(``POST /api/tables``), take open seats, hold sockets — so every state-changing request and
every WebSocket upgrade must come from one of this site's own pages:

- ``Origin`` (every browser sends it with a POST and a WebSocket handshake) must name this
  host, or one of the origins the operator allowed (``sueca serve --allow-origin``);
- a browser that sent ``Origin: null`` (a sandboxed frame, a privacy setting) or none is
  judged by ``Sec-Fetch-Site`` (``same-origin`` or ``none``: typed by the person), and a
  request with neither by its ``Referer``;
- a request with none of the three is no browser's (curl, the bot programs, the benchmarks,
  the tests): allowed, since a page cannot make a browser send one.

A refused POST gets 403 ``{"error": "cross_site", "message": …}`` and changes nothing; a
refused socket is closed before it is accepted (the browser sees the handshake fail with
403). "This host" is the request's ``Host``, or ``X-Forwarded-Host`` when the server sits
behind a reverse proxy that rewrites ``Host`` and was told so (``--forwarded-host``).

Every HTTP answer carries the security headers of :data:`SECURITY_HEADERS`: a
Content-Security-Policy with no inline script (the pages load their scripts from
``/static``; their inline ``style`` attributes, which position seats on the cloth, are
allowed precisely by ``style-src-attr`` and nothing else inline is), no framing, no
referrer, no MIME sniffing, and a browsing context of its own.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Requests that change nothing: the Origin check leaves them alone.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    # The pages set seat positions with style attributes (table.js, history.js); inline
    # <style> elements and styles from elsewhere stay refused.
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",  # CSP 3: 'self' covers ws: and wss: to this host
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    # Invitation tokens live in the URL's fragment, which no browser sends; still, no page
    # of this site tells another site where it came from.
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


def _origin_key(origin: str) -> tuple[str, int] | None:
    """``scheme://host[:port]`` as (host, port), the port filled in from the scheme; None
    for anything that is not such an origin."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[parts.scheme]


def _host_matches(host: str, origin: tuple[str, int]) -> bool:
    """Whether a ``Host`` header (``name[:port]``) names the origin's host. A Host without a
    port means the scheme's default, which the server cannot see behind a TLS proxy: it
    matches an origin on port 80 or 443."""
    try:
        parts = urlsplit(f"//{host}")
        port = parts.port
    except ValueError:
        return False
    if not parts.hostname or parts.hostname.lower() != origin[0]:
        return False
    return origin[1] in (80, 443) if port is None else port == origin[1]


@dataclass(frozen=True)
class Guard:
    """Which origins may change state here, besides the server's own.

    ``allowed_origins``: extra origins (``https://cards.example``), for pages served from
    another host than the API's; ``forwarded_host``: trust ``X-Forwarded-Host`` as the
    request's host (a reverse proxy that rewrites ``Host`` sets it)."""

    allowed_origins: tuple[str, ...] = ()
    forwarded_host: bool = False

    def __post_init__(self) -> None:
        for origin in self.allowed_origins:
            if _origin_key(origin) is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {origin[:80]!r}")

    def refusal(self, headers: dict[str, str]) -> str | None:
        """Why a state-changing request with these (lower-cased) headers is refused, or None
        when it comes from this site's pages or from no browser at all."""
        origin = headers.get("origin")
        if origin is not None and origin != "null":
            if self._allowed(origin, headers):
                return None
            return f"requests from another site ({origin[:80]}) are refused"
        site = headers.get("sec-fetch-site")
        if site is not None:
            if site in ("same-origin", "none"):
                return None
            return f"a {site[:20]} request is refused (Sec-Fetch-Site)"
        referer = headers.get("referer")
        if referer is not None:
            parts = urlsplit(referer)
            if self._allowed(f"{parts.scheme}://{parts.netloc}", headers):
                return None
            return "requests from another site are refused (Referer)"
        if origin == "null":
            return "requests from an opaque origin (Origin: null) are refused"
        return None  # no browser sends none of them: curl, a bot program, a test

    def _allowed(self, origin: str, headers: dict[str, str]) -> bool:
        key = _origin_key(origin)
        if key is None:
            return False
        if any(_origin_key(extra) == key for extra in self.allowed_origins):
            return True
        host = headers.get("host", "")
        if self.forwarded_host:
            # The proxy's own, the first of a list a chain of proxies built.
            host = headers.get("x-forwarded-host", host).split(",")[0].strip()
        return _host_matches(host, key)


def _headers(scope: Scope) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in scope["headers"]:
        key = name.decode("latin-1").lower()
        if key not in found:  # the first of a repeated header counts
            found[key] = value.decode("latin-1")
    return found


class GuardMiddleware:
    """ASGI middleware: :meth:`Guard.refusal` on every POST (PUT, PATCH, DELETE) and every
    WebSocket upgrade, and :data:`SECURITY_HEADERS` on every HTTP answer. A client that
    leaves before its body is read ends its request quietly (no traceback in the log)."""

    def __init__(self, app: ASGIApp, guard: Guard | None = None) -> None:
        self.app = app
        self.guard = guard or Guard()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self.guard.refusal(_headers(scope)) is not None:
                # Closed before accepted: the handshake fails with 403 and no frame is read.
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            reason = self.guard.refusal(_headers(scope))
            if reason is not None:
                await _refuse(send, reason)
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": _with_security(message.get("headers", []))}
            await send(message)

        # A client gone, or cut at the transport's deadline mid-body: nobody to answer.
        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, receive, send_with_headers)


def _with_security(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    out = list(headers)
    present = {name.lower() for name, _ in out}
    out.extend(item for item in SECURITY_HEADERS if item[0] not in present)
    return out


async def _refuse(send: Send, reason: str) -> None:
    body = json.dumps({"error": "cross_site", "message": reason}).encode()
    headers: list[Any] = [(b"content-type", b"application/json"),
                          (b"content-length", str(len(body)).encode()),
                          *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
