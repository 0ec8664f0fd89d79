"""The web side of accounts and ratings: pages and the JSON API (docs/accounts.md).

Routes::

    GET  /signup  /login  /leaderboard  /players/{name}      pages (sueca/web)
    POST /api/accounts            {"name", "password"}: a new account, logged in
    POST /api/session             {"name", "password"}: log in (rate limited)
    POST /api/session/end         log out                           (X-CSRF-Token)
    GET  /api/me                  {"account": {"id", "name"} | null, "csrf"}
    POST /api/me/password         {"old", "new"}: every other session ends  (X-CSRF-Token)
    POST /api/me/delete           {"password"}: the account goes, its matches anonymised
    GET  /api/leaderboard         ?kind=four|italiana5&period=all|month&min=N&ladder=people|bots
    GET  /api/players/{name}      the profile: matches, wins, partners, card points, ratings
    GET  /api/players/{name}/rating.svg   the rating over time, drawn here (no script, no CDN)

Every store call goes through the writer's thread (:class:`~sueca.server.writer.
StorageWriter`), never the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from sueca.jsontext import NotJsonError, parse_json
from sueca.server.accounts import (
    COOKIE,
    CSRF_HEADER,
    SESSION_DAYS,
    AccountError,
    LoginLimits,
    Sessions,
    check_name,
    check_password,
    hash_password,
    name_key,
    needs_rehash,
    verify,
)
from sueca.server.players import BOTS, PEOPLE, Account, ordinal
from sueca.server.ratings import MODEL
from sueca.server.responses import JSONResponse, html_page
from sueca.server.views import history_visible
from sueca.server.writer import StorageUnavailable, StorageWriter

MAX_BODY = 4096
KINDS = ("four", "italiana5")
LISTED_MAX = 20  # the latest matches a profile lists
LEADERBOARD_MIN = 5  # matches a player needs to be listed, unless ?min= says otherwise


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise AccountError(f"request too large (at most {MAX_BODY} bytes)", "too_large", 413)
    try:
        data = parse_json(body or b"{}")
    except NotJsonError:
        raise AccountError("the request body is not JSON", "malformed") from None
    if not isinstance(data, dict):
        raise AccountError("the request must be a JSON object", "malformed")
    return data


def month_start(now: float) -> float:
    day = datetime.fromtimestamp(now, UTC)
    return datetime(day.year, day.month, 1, tzinfo=UTC).timestamp()


def rating_svg(points: list[tuple[int, float, float, float]], width: int = 480,
               height: int = 160) -> str:
    """The rating (mu - 3 sigma) after each rated match as a line, with its axis values."""
    values = [ordinal(mu, sigma) for _, _, mu, sigma in points]
    pad = 28
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="rating">',
             f'<rect width="{width}" height="{height}" fill="#fbfaf5" stroke="#ccc"/>']
    if values:
        low, high = min(values), max(values)
        if high - low < 1:
            low, high = low - 0.5, high + 0.5
        step = (width - 2 * pad) / max(1, len(values) - 1)

        def y(v: float) -> float:
            return height - pad - (v - low) / (high - low) * (height - 2 * pad)

        line = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline fill="none" stroke="#1d5c3a" stroke-width="2" '
                     f'points="{line}"/>')
        for i, v in enumerate(values):
            parts.append(f'<circle cx="{pad + i * step:.1f}" cy="{y(v):.1f}" r="2.5" '
                         f'fill="#1d5c3a"/>')
        parts.append(f'<text x="2" y="{pad}" font-size="10">{high:.1f}</text>')
        parts.append(f'<text x="2" y="{height - pad}" font-size="10">{low:.1f}</text>')
    else:
        parts.append(f'<text x="{pad}" y="{height // 2}" font-size="12">—</text>')
    parts.append("</svg>")
    return "".join(parts)


class AccountsWeb:
    """Sessions, log-in limits and the routes, over the server's store (``writer``)."""

    def __init__(self, writer: Callable[[], StorageWriter], sessions: Sessions,
                 limits: LoginLimits | None = None, web_dir: Path | None = None) -> None:
        self.writer = writer
        self.sessions = sessions
        self.limits = limits or LoginLimits()
        self.web_dir = web_dir
        # argon2 takes tens of milliseconds and 64 MiB a hash, by design: off the event loop,
        # two at a time at most (the log-in limits bound how many wait).
        self._hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sueca-argon2")

    # ---- who is logged in -----------------------------------------------------------------

    async def account(self, connection: HTTPConnection) -> Account | None:
        """The account of a request's (or a socket's) session cookie, or None."""
        session = self.sessions.read(connection.cookies.get(COOKIE))
        if session is None:
            return None
        writer = self.writer()
        try:
            account = await writer.call(writer.storage.players().account, session.account_id)
        except StorageUnavailable:
            return None
        if account is None or account.generation != session.generation:
            return None
        return account

    async def _authorised(self, request: Request) -> Account:
        """The logged-in account of a POST that needs one, its CSRF token checked."""
        cookie = request.cookies.get(COOKIE)
        if not self.sessions.csrf_ok(cookie, request.headers.get(CSRF_HEADER)):
            raise AccountError("missing or wrong CSRF token (X-CSRF-Token)", "bad_csrf", 403)
        account = await self.account(request)
        if account is None:
            raise AccountError("log in first", "not_logged_in", 401)
        return account

    def _logged_in(self, request: Request, account: Account, body: dict[str, Any],
                   status: int = 200) -> Response:
        cookie = self.sessions.cookie(account)
        response = JSONResponse({**body, "account": {"id": account.id, "name": account.name},
                                 "csrf": self.sessions.csrf(cookie)}, status_code=status)
        response.set_cookie(COOKIE, cookie, max_age=SESSION_DAYS * 86400, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https", path="/")
        return response

    # ---- the handlers ---------------------------------------------------------------------

    async def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return await self.writer().call(method, *args)
        except StorageUnavailable:
            raise AccountError("the store cannot be used now; try again",
                               "storage_unavailable", 503) from None

    async def _hash(self, password: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(
            self._hashing, hash_password, password)

    async def _verify(self, account: Account | None, password: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(
            self._hashing, verify, account, password)

    def _rows(self) -> Any:
        return self.writer().storage.players()

    async def signup(self, request: Request) -> Response:
        data = await _body(request)
        name = check_name(data.get("name"))
        password = check_password(data.get("password"))
        address = request.client.host if request.client else "?"
        if not self.limits.take_signup(address):
            raise AccountError("too many tries from this address; wait a minute",
                               "rate_limited", 429)
        rows = self._rows()
        account_id = await self._call(rows.create_account, name, name_key(name),
                                      await self._hash(password))
        if account_id is None:
            raise AccountError(f"the name {name!r} is taken", "name_taken", 409)
        account = await self._call(rows.account, account_id)
        return self._logged_in(request, account, {}, 201)

    async def login(self, request: Request) -> Response:
        data = await _body(request)
        name, password = data.get("name"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 256:
            raise AccountError("a name and a password, as text", "malformed")
        key = name_key(" ".join(name.split())[:64])
        address = request.client.host if request.client else "?"
        if not self.limits.take(key, address):
            raise AccountError("too many log-in tries; wait a minute", "rate_limited", 429)
        rows = self._rows()
        account = await self._call(rows.account_by_key, key)
        if not await self._verify(account, password) or account is None:
            raise AccountError("wrong name or password", "bad_login", 401)
        if needs_rehash(account):
            await self._call(rows.set_password, account.id, await self._hash(password))
            account = await self._call(rows.account, account.id)
        return self._logged_in(request, account, {})

    async def logout(self, request: Request) -> Response:
        await self._authorised(request)
        response = JSONResponse({"account": None})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def me(self, request: Request) -> Response:
        account = await self.account(request)
        cookie = request.cookies.get(COOKIE)
        return JSONResponse({
            "account": None if account is None else {"id": account.id, "name": account.name},
            "csrf": self.sessions.csrf(cookie) if account is not None and cookie else None})

    async def password(self, request: Request) -> Response:
        account = await self._authorised(request)
        data = await _body(request)
        old = data.get("old")
        new = check_password(data.get("new"))
        if not isinstance(old, str) or not await self._verify(account, old):
            raise AccountError("the current password is wrong", "bad_login", 401)
        rows = self._rows()
        await self._call(rows.set_password, account.id, await self._hash(new))
        account = await self._call(rows.account, account.id)
        return self._logged_in(request, account, {})  # this session goes on; others end

    async def delete(self, request: Request) -> Response:
        account = await self._authorised(request)
        data = await _body(request)
        password = data.get("password")
        if not isinstance(password, str) or not await self._verify(account, password):
            raise AccountError("the password is wrong", "bad_login", 401)
        await self._call(self._rows().delete_account, account.id)
        response = JSONResponse({"deleted": True, "account": None})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def leaderboard(self, request: Request) -> Response:
        query = request.query_params
        kind = query.get("kind", "four")
        ladder = query.get("ladder", PEOPLE)
        period = query.get("period", "all")
        if kind not in KINDS or ladder not in (PEOPLE, BOTS) or period not in ("all", "month"):
            raise AccountError("kind is four or italiana5, ladder people or bots, period all "
                               "or month", "bad_query")
        text = query.get("min", "")
        least = (int(text) if text.isascii() and text.isdigit() and len(text) < 6
                 else LEADERBOARD_MIN)
        since = month_start(time.time()) if period == "month" else 0.0
        rows = self._rows()
        board = await self._call(lambda: rows.leaderboard(ladder, kind, since=since,
                                                          min_matches=max(1, least)))
        names: dict[int, str] = {}
        if ladder == PEOPLE:
            names = await self._call(rows.names, [int(p) for p, *_ in board])
        return JSONResponse({"kind": kind, "ladder": ladder, "period": period,
                             "min": max(1, least), "players": [
            {"player": names.get(int(p), "?") if ladder == PEOPLE else p,
             "rating": round(ordinal(mu, sigma), 2), "mu": round(mu, 2),
             "sigma": round(sigma, 2), "matches": n}
            for p, mu, sigma, n in board]})

    async def _profile_account(self, request: Request) -> Account:
        name = request.path_params["name"]
        account = (await self._call(self._rows().account_by_key, name_key(name))
                   if len(name) <= 64 else None)
        if not isinstance(account, Account):
            raise AccountError("no such player", "no_player", 404)
        return account

    async def _public(self, match_id: int, settings: dict[str, dict[str, Any] | None]) -> bool:
        """Whether a match may be listed to anyone (the History's rule, views.history_visible,
        for a request holding no seat token): its table was open or of bots alone.
        ``settings``: the tables' stored settings read so far for this request."""
        writer = self.writer()
        try:
            match = await writer.load_match(match_id)
            if match is None:
                return False
            if match.table_id not in settings:
                stored = await writer.load_table(match.table_id)
                settings[match.table_id] = None if stored is None else stored.settings
        except StorageUnavailable:
            return False  # unknown: listed to nobody but the owner
        return history_visible(settings[match.table_id], None)

    async def profile(self, request: Request) -> Response:
        account = await self._profile_account(request)
        viewer = await self.account(request)
        owner = viewer is not None and viewer.id == account.id
        rows = self._rows()
        found = await self._call(rows.player_matches, account.id)
        # One account at several seats of a match (a host seating himself twice) played it
        # once: the store lists the match once per seat.
        matches = list({entry["match"]: entry for entry in found}.values())
        settings: dict[str, dict[str, Any] | None] = {}
        examined = 0
        ids = [s.account_id for m in matches for s in m["seats"] if s.account_id is not None]
        names = await self._call(rows.names, ids)
        played = won = deals = points = point_deals = capotes = bandeiras = 0
        partners: dict[str, int] = {}
        last: list[dict[str, Any]] = []
        for entry in matches:
            seats = entry["seats"]
            mine = next(s for s in seats if s.account_id == account.id)
            played += 1
            won += mine.won
            capotes += mine.capotes
            bandeiras += mine.bandeiras
            if mine.card_points is not None:
                points += mine.card_points
                point_deals += mine.deals
            deals += mine.deals
            # A private table's match counts in the totals above, but who played it, with
            # whom, and its replay are its players' (the History's 404): only the owner sees
            # them listed. Strangers' lists come from the newest LISTED_MAX matches alone,
            # so that one profile costs at most that many table reads.
            if not owner:
                if examined >= LISTED_MAX:
                    continue
                examined += 1
                if not await self._public(entry["match"], settings):
                    continue
            for seat in seats:
                if (seat.seat != mine.seat and seat.team == mine.team
                        and (seat.account_id is None or seat.account_id != account.id)):
                    name = names.get(seat.account_id, seat.name) if seat.account_id else seat.name
                    partners[name] = partners.get(name, 0) + 1
            if len(last) < LISTED_MAX:
                last.append({"match": entry["match"], "kind": entry["kind"],
                             "finished": entry["finished"], "won": mine.won,
                             "replay": f"/history/{entry['match']}",
                             "seats": [names.get(s.account_id, s.name) if s.account_id
                                       else s.name for s in sorted(seats, key=lambda s: s.seat)]})
        ratings = {}
        for kind in KINDS:
            current = await self._call(rows.ratings, PEOPLE, kind, [str(account.id)])
            if str(account.id) in current:
                mu, sigma, n = current[str(account.id)]
                ratings[kind] = {"rating": round(ordinal(mu, sigma), 2), "mu": round(mu, 2),
                                 "sigma": round(sigma, 2), "matches": n}
        return JSONResponse({
            "name": account.name, "since": account.created, "played": played, "won": won,
            "deals": deals,
            "card_points_per_deal": round(points / point_deals, 1) if point_deals else None,
            "capotes": capotes, "bandeiras": bandeiras,
            "partners": [{"name": n, "matches": c} for n, c in
                         sorted(partners.items(), key=lambda item: (-item[1], item[0]))[:10]],
            "ratings": ratings, "last": last})

    async def rating_plot(self, request: Request) -> Response:
        account = await self._profile_account(request)
        kind = request.query_params.get("kind", "four")
        if kind not in KINDS:
            raise AccountError("kind is four or italiana5", "bad_query")
        history = await self._call(self._rows().rating_history, PEOPLE, str(account.id), kind)
        if history:  # the line starts where every newcomer does
            history.insert(0, (0, history[0][1], float(MODEL.mu), float(MODEL.sigma)))
        return Response(rating_svg(history), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-cache"})

    def page(self, name: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            assert self.web_dir is not None
            return html_page(self.web_dir / name)
        return serve

    def routes(self) -> list[Route]:
        def guarded(handler: Callable[[Request], Awaitable[Response]]
                    ) -> Callable[[Request], Awaitable[Response]]:
            async def run(request: Request) -> Response:
                try:
                    return await handler(request)
                except AccountError as error:
                    return _error(error.status, error.code, str(error))
            return run

        return [
            Route("/signup", self.page("signup.html")),
            Route("/login", self.page("login.html")),
            Route("/leaderboard", self.page("leaderboard.html")),
            Route("/players/{name}", self.page("player.html")),
            Route("/api/accounts", guarded(self.signup), methods=["POST"]),
            Route("/api/session", guarded(self.login), methods=["POST"]),
            Route("/api/session/end", guarded(self.logout), methods=["POST"]),
            Route("/api/me", guarded(self.me)),
            Route("/api/me/password", guarded(self.password), methods=["POST"]),
            Route("/api/me/delete", guarded(self.delete), methods=["POST"]),
            Route("/api/leaderboard", guarded(self.leaderboard)),
            Route("/api/players/{name}", guarded(self.profile)),
            Route("/api/players/{name}/rating.svg", guarded(self.rating_plot)),
        ]


__all__ = ["AccountsWeb", "rating_svg"]
