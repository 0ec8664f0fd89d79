"""The web application: pages, a small JSON API, and one WebSocket per table.

``create_app(db_path)`` builds a Starlette app; ``sueca serve`` runs it on uvicorn. Pages are
static files shipped in :mod:`sueca.web`; everything live goes over ``/ws/{table}`` (see
:mod:`sueca.server.rooms` for the messages).

Routes::

    GET  /                       lobby: create a table, open tables, spectate
    GET  /t/{table}              the table page (invitation links add #TOKEN)
    GET  /history[/{match}]      finished matches, replayed trick by trick
    GET  /api/tables             open tables (public facts only; ?offset=&limit=)
    GET  /api/bots               the bot levels a seat may have
    POST /api/tables             create: {"rules": {...}, "seats": [...], "open": bool}
    POST /api/tables/{t}/seats/{s}  take a free seat of an open table
    GET  /api/history            finished matches
    GET  /api/history/{m}        one match: record and the check report
    GET  /api/history/{m}/record.json   the RECORD.md record, as a download
    GET  /review                 a deal's review (reviews.py): POST /api/reviews starts one,
                                 GET /api/reviews/{m}/{d}/{s} polls it
    WS   /ws/{table}
    WS   /ws/lobby                the listing, pushed as it changes (lobby.py)
    GET  /signup /login /leaderboard /players/{name}   accounts and ratings
                                 (account_routes.py: /api/accounts, /api/session, /api/me…)
    POST /api/quickplay          quick play and invitations by name (quickplay.py)

Every answer carries the security headers and every POST and socket passes the cross-site
check of :mod:`sueca.server.guard`; ``serve`` runs uvicorn with the connection limits of
:mod:`sueca.server.transport`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.convertors import IntegerConvertor, register_url_convertor
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from sueca.jsontext import NotJsonError, parse_json
from sueca.record import GameRecord, check, dumps
from sueca.rules import RulesError
from sueca.server import views
from sueca.server.account_routes import AccountsWeb
from sueca.server.accounts import Sessions, load_secret
from sueca.server.botpool import default_bot_workers
from sueca.server.guard import Guard, GuardMiddleware
from sueca.server.limits import DEFAULT_LIMITS, AddressLimiter, Limits
from sueca.server.lobby import PAGE, LobbyFeed, LobbyIndex
from sueca.server.practice import practice_routes
from sueca.server.quickplay import QuickPlay
from sueca.server.ratings import record_finished
from sueca.server.responses import JSONResponse, html_page
from sueca.server.reviews import ReviewService, review_routes, reviews_directory
from sueca.server.rooms import Connection, Room, Rooms, Timing
from sueca.server.storage import SQLiteStorage, Storage, StoredMatch
from sueca.server.tables import Table, TableError
from sueca.server.tournament_routes import TournamentDesk
from sueca.server.transport import (
    DEFAULT_EDGE,
    EdgeLimits,
    fit_to_file_limit,
    limit_log_rate,
    raise_file_limit,
    uvicorn_config,
)
from sueca.server.writer import StorageUnavailable

if TYPE_CHECKING:  # the cluster's modules need its extra (psycopg, redis): imported on use
    from sueca.server.node import ClusterOptions, Node

MAX_BODY = 16 * 1024
# A socket that sends nothing for this long (the pages ping every 30 s) is closed (4408): a
# page that is still there reconnects; a forgotten or half-open one frees its place.
SOCKET_IDLE = 600.0


class NumberConvertor(IntegerConvertor):
    """A match id or a seat in a path: at most 18 digits. A longer number names no row (SQLite
    ids are 64-bit) and, past 4,300 digits, is not even an int Python parses: such a path is
    simply not found (404), where ``int`` let it through to a 500."""

    regex = "[0-9]{1,18}"


register_url_convertor("number", NumberConvertor())
WEB_DIR = Path(str(resources.files("sueca") / "web"))


def default_db_path() -> Path:
    """The embedded database in the user's data directory (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("sueca", appauthor=False)) / "sueca.db"


def _page(name: str) -> FileResponse:
    return html_page(WEB_DIR / name)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


# A refusal's HTTP status where it is not the handler's usual one: a store that failed is the
# server's trouble, not the request's (nothing changed; the same request may be made again).
_STATUS = {"storage_unavailable": 503, "worker_unavailable": 503, "no_table": 404,
           "bad_name": 400}


def _unreadable() -> JSONResponse:
    return _error(503, "storage_unavailable", "the store cannot be read now; try again")


def _table_summary(room: Room) -> dict[str, Any]:
    table = room.table
    presence = room.presence()
    names = table.seat_names()
    return {
        "id": table.id,
        "rules": table.rules.to_dict(),
        "players": table.rules.players,
        "dummy": table.rules.dummy,
        "phase": table.phase,
        "open": table.open_seats,
        "score": list(table.match.score),  # per team, or per player at a bidding table
        "match": table.match_number,
        "created": table.created,
        "seats": [
            {"seat": i, "name": names[i], "kind": seat.kind, "status": presence[i],
             "free": (table.open_seats and seat.kind == "human" and not seat.claimed
                      and i != table.host)}
            for i, seat in enumerate(table.seats)
        ],
    }


async def _receive(websocket: WebSocket, idle: float) -> dict[str, Any] | None:
    """The socket's next message, or None once it closed or stayed silent ``idle`` seconds
    (then it is closed, 4408)."""
    try:
        async with asyncio.timeout(idle):
            message = await websocket.receive()
    except TimeoutError:
        with contextlib.suppress(RuntimeError, OSError):
            await websocket.close(code=4408, reason="idle: nothing received for too long")
        return None
    return None if message["type"] == "websocket.disconnect" else dict(message)


def _is_ping(text: Any) -> bool:
    """Whether a lobby socket's message is ``{"type": "ping"}`` (a short one only is read)."""
    if not isinstance(text, str) or len(text) > 64:
        return False
    try:
        message = parse_json(text)
    except NotJsonError:
        return False
    return isinstance(message, dict) and message.get("type") == "ping"


def _bounded(text: str | None, low: int, high: int, default: int) -> int:
    """A whole number from a query parameter, clamped to [low, high]; absent or not a number
    (at most 7 digits read): the default."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 7:
        return default
    return min(max(int(text), low), high)


def _match_summary(match: StoredMatch) -> dict[str, Any]:
    return {
        "id": match.id,
        "table": match.table_id,
        "number": match.number,
        "seats": match.seats,
        "rules": match.rules,
        "started": match.started,
        "finished": match.finished,
        "score": match.score,
        "winner": match.winner,
        "deals": match.played_deals,
        # Per seat, the share of its moves a stand-in bot made (its person away or out of time).
        "stand_ins": [round(match.stand_in_share(seat), 3) for seat in range(len(match.seats))],
        "practice": match.practice,  # a practice table's (hints on request): never rated
    }


SEATS_HEADER = "x-sueca-seats"
MAX_HELD_SEATS = 64


def _held_seats(request: Request) -> dict[str, str]:
    """The seat tokens a page holds, table by table: ``X-Sueca-Seats: TABLE:TOKEN …`` (the
    history page sends those its browser keeps; at most 64, the header read to 8 KiB). A
    header, not the address, so that tokens stay out of logs and of the Referer."""
    held: dict[str, str] = {}
    for item in request.headers.get(SEATS_HEADER, "")[:8192].split()[:MAX_HELD_SEATS]:
        table_id, _, token = item.partition(":")
        if table_id and token:
            held[table_id] = token
    return held


def _renuncia(record: GameRecord) -> dict[str, int] | None:
    """A renúncia match's penalties as the table scored them (the history page says what each
    cry cost), or ``None`` for a match without the rule."""
    try:
        rules = record.parsed_rules()
    except (RulesError, TypeError):
        return None  # the report says why the record does not read
    return views.renuncia_penalties(rules) if rules.renuncia else None


def create_app(
    db_path: str | Path | None = None,
    *,
    storage: Storage | None = None,
    timing: Timing | None = None,
    seed: int | None = None,
    limits: Limits | None = None,
    guard: Guard | None = None,
    socket_idle: float = SOCKET_IDLE,
    bot_workers: int = 0,
    cluster: ClusterOptions | None = None,
    secret: bytes | None = None,
) -> Starlette:
    """The server app. ``db_path``: the SQLite file (default: the user's data directory);
    ``storage`` replaces it with another :class:`Storage`; ``timing`` paces the bots and the
    grace period; ``seed`` makes deals and bots reproducible (tests); ``limits`` caps what a
    socket may send and how many tables an address may open (``sueca serve``:
    :data:`~sueca.server.limits.DEFAULT_LIMITS`; ``None``: no caps); ``guard`` the origins
    allowed besides the server's own (:class:`~sueca.server.guard.Guard`); ``socket_idle``
    the seconds a socket may stay silent; ``bot_workers`` the processes bots think in
    (:mod:`~sueca.server.botpool`; 0: threads of this process); ``cluster``: run as one
    worker of a cluster (PostgreSQL and Redis: :mod:`~sueca.server.node`) instead;
    ``secret`` signs the session cookies of accounts (:mod:`~sueca.server.accounts`; None: a
    new one, so sessions end with the process)."""

    holder: dict[str, Rooms] = {}
    nodes: dict[str, Node] = {}  # this worker's part of a cluster, if it is one
    table_limiter = (None if limits is None else
                     AddressLimiter(limits.tables_per_minute, limits.table_burst))
    server_tables = None if limits is None else limits.server_bucket()
    index = LobbyIndex(_table_summary)
    if cluster is not None:  # every worker lists every worker's tables
        from sueca.server.shared_lobby import SharedLobbyIndex

        index = shared = SharedLobbyIndex(_table_summary)

    def rooms() -> Rooms:
        return holder["rooms"]

    accounts = AccountsWeb(lambda: rooms().writer, Sessions(secret or os.urandom(32)),
                           web_dir=WEB_DIR)
    quickplay = QuickPlay(rooms, accounts)  # the queue and friends' invitations
    tournaments = TournamentDesk(rooms, accounts, web_dir=WEB_DIR)  # the torneio

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if cluster is not None:
            from sueca.server.node import open_node  # psycopg, redis: the cluster extra

            store: Storage
            node, store = await open_node(cluster, timing or Timing(), seed=seed,
                                          bot_workers=bot_workers)
            registry = node.rooms
            nodes["node"] = app.state.node = node
        else:
            store = (storage if storage is not None
                     else SQLiteStorage(db_path or default_db_path(), lock=True))
            registry = Rooms(store, timing or Timing(), seed=seed, bot_workers=bot_workers)
        registry.watcher = index

        async def match_over(table: Table) -> dict[str, Any] | None:
            await tournaments.match_over(table)  # a tournament table's result, read at once
            return await record_finished(registry.writer, table)

        registry.on_match_over = match_over
        if cluster is not None:
            await node.start(lobby=shared)  # it takes the tables nobody owns, as it finds them
        else:
            await registry.restore()
        holder["rooms"] = registry
        app.state.rooms = registry
        try:
            yield
        finally:
            if "node" in nodes:
                await nodes["node"].stop()
            if "service" in review_holder:
                review_holder.pop("service").close()
            registry.close()
            store.close()

    async def lobby(request: Request) -> Response:
        return _page("index.html")

    async def table_page(request: Request) -> Response:
        return _page("table.html")

    async def history_page(request: Request) -> Response:
        return _page("history.html")

    async def list_tables(request: Request) -> Response:
        # A page of the index (lobby.py): O(page), however many tables the server holds.
        offset = _bounded(request.query_params.get("offset"), 0, 1_000_000, 0)
        limit = _bounded(request.query_params.get("limit"), 1, PAGE, PAGE)
        return Response(index.listing(offset, limit), media_type="application/json")

    async def read_json(request: Request) -> Any:
        body = await request.body()
        if len(body) > MAX_BODY:
            raise TableError(f"request too large (at most {MAX_BODY} bytes)", "too_large")
        try:
            return parse_json(body or b"{}")
        except NotJsonError:
            raise TableError("the request body is not JSON", "malformed") from None

    async def create_table(request: Request) -> Response:
        address = request.client.host if request.client else "?"
        if limits is not None and index.in_play >= limits.max_tables_in_play:
            return _error(503, "server_full",
                          f"the server holds its most tables in play "
                          f"({limits.max_tables_in_play}); try again when one ends")
        if table_limiter is not None and not table_limiter.take(address):
            return _error(429, "rate_limited",
                          f"too many new tables from this address: at most "
                          f"{table_limiter.rate * 60:g} a minute")
        if server_tables is not None and not server_tables.take():
            return _error(429, "rate_limited",
                          f"too many new tables on this server: at most "
                          f"{server_tables.rate * 60:g} a minute; try again in a minute")
        try:
            data = await read_json(request)
            if not isinstance(data, dict):
                raise TableError("the request must be a JSON object", "malformed")
            room = await rooms().create(data.get("rules"), data.get("seats"),
                                        open_seats=data.get("open") is True,
                                        practice=data.get("practice") is True,
                                        turn_seconds=data.get("turn_seconds"))
        except TableError as error:
            # A refused request made no table: it does not use up the address's budget.
            if table_limiter is not None:
                table_limiter.refund(address)
            if server_tables is not None:
                server_tables.refund()
            return _error(_STATUS.get(error.code, 400), error.code, str(error))
        table = room.table
        return JSONResponse({
            "id": table.id,
            "url": f"/t/{table.id}",
            "host": table.host,  # the creator's seat: its page shows the free seats' links
            "seats": [
                {"seat": i, "kind": seat.kind, "name": name,
                 "link": f"/t/{table.id}#{seat.token}" if seat.kind == "human" else None}
                for i, (seat, name) in enumerate(zip(table.seats, table.seat_names(),
                                                     strict=True))
            ],
        }, status_code=201)

    async def take_seat(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            # A cluster's worker asks the table's owner, wherever it is (node.py).
            room = None if "node" in nodes else await rooms().find(table_id)
        except TableError as error:
            return _error(_STATUS.get(error.code, 404), error.code, str(error))
        try:
            data = await read_json(request)
            name = data.get("name", "") if isinstance(data, dict) else ""
            name = name if isinstance(name, str) else ""
            token = (await room.take_open_seat(request.path_params["seat"], name)
                     if room is not None else
                     await nodes["node"].take_seat(table_id, request.path_params["seat"], name))
        except TableError as error:
            return _error(_STATUS.get(error.code, 409), error.code, str(error))
        return JSONResponse({"token": token, "link": f"/t/{table_id}#{token}"})

    async def list_bots(request: Request) -> Response:
        from sueca.bots import BOTS
        from sueca.bots.levels import DEFAULT_LEVEL, LEVELS

        # People choose a level (sueca.bots.levels); the algorithms stay accepted by name.
        return JSONResponse({
            "bots": [level.name for level in LEVELS],
            "levels": [{"name": level.name, "description": level.description}
                       for level in LEVELS],
            "algorithms": sorted(name for name in BOTS if name not in
                                 {level.name for level in LEVELS}),
            "default": DEFAULT_LEVEL})

    async def visible(match: StoredMatch, held: dict[str, str],
                      settings: dict[str, dict[str, Any] | None]) -> bool:
        """Whether this request may see a finished match: its table was open to strangers,
        or the request holds one of its table's seat tokens (``settings``: a cache of the
        tables' stored settings for one request)."""
        if match.table_id not in settings:
            stored = await rooms().writer.load_table(match.table_id)
            settings[match.table_id] = None if stored is None else stored.settings
        return views.history_visible(settings[match.table_id], held.get(match.table_id))

    async def list_history(request: Request) -> Response:
        held = _held_seats(request)
        settings: dict[str, dict[str, Any] | None] = {}
        try:
            matches = [m for m in await rooms().writer.finished_matches()
                       if await visible(m, held, settings)]
        except StorageUnavailable:
            return _unreadable()
        return JSONResponse({"matches": [_match_summary(m) for m in matches]})

    async def finished_match(request: Request) -> StoredMatch | None:
        """A finished match this request may see (a private table's to its players only;
        else None, as for no match at all: nothing says a private one exists)."""
        match = await rooms().writer.load_match(request.path_params["match_id"])
        if match is None or match.finished is None:
            return None
        return match if await visible(match, _held_seats(request), {}) else None

    async def history_match(request: Request) -> Response:
        try:
            match = await finished_match(request)
        except StorageUnavailable:
            return _unreadable()
        if match is None:
            return _error(404, "no_match", "no such finished match")
        return JSONResponse({"match": _match_summary(match),
                             "record": match.record.to_json(),
                             "report": check(match.record),
                             "renuncia": _renuncia(match.record)})

    async def history_record(request: Request) -> Response:
        try:
            match = await finished_match(request)
        except StorageUnavailable:
            return _unreadable()
        if match is None:
            return _error(404, "no_match", "no such finished match")
        record = match.record
        record.extra = {"seats": match.seats}
        return Response(dumps(record), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="sueca-match-{match.id}.json"'})

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        if "node" in nodes:  # the table may be another worker's: the node relays to it
            from sueca.server.node import serve_websocket

            await serve_websocket(nodes["node"], websocket, websocket.path_params["table_id"],
                                  None if limits is None else limits.socket_bucket(),
                                  lambda: _receive(websocket, socket_idle))
            return
        try:
            # In memory, or read back from the store (a table evicted while nobody had it open).
            room = await rooms().find(websocket.path_params["table_id"])
        except TableError as error:
            await websocket.send_text(json.dumps(
                {"type": "error", "code": error.code, "message": str(error)}))
            await websocket.close(code=4404)
            return
        conn = Connection(websocket.send_text,
                          None if limits is None else limits.socket_bucket())
        account = await accounts.account(websocket)  # a logged-in person's seat is his
        conn.account = None if account is None else (account.id, account.name)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        room.attach(conn)
        try:
            while True:
                message = await _receive(websocket, socket_idle)
                if message is None:
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await room.handle(conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            room.detach(conn)
            pump.cancel()

    async def lobby_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        waker = index.watch()
        if waker is None:
            await websocket.close(code=1013, reason="too many lobby sockets; try again later")
            return
        feed = LobbyFeed(index, waker, websocket.send_text)
        pump = asyncio.get_running_loop().create_task(feed.pump())
        bucket = None if limits is None else limits.socket_bucket()
        try:
            while True:
                message = await _receive(websocket, socket_idle)
                if message is None:
                    break
                # The lobby reads nothing but pings; anything else, or too much, is dropped.
                if bucket is not None and not bucket.take():
                    continue
                if _is_ping(message.get("text")):
                    feed.ping()
        except WebSocketDisconnect:
            pass
        finally:
            feed.close()
            pump.cancel()

    review_holder: dict[str, ReviewService] = {}

    def review_service() -> ReviewService:
        # Started on the first review asked for: its worker process only then (reviews.py).
        if "service" not in review_holder:
            review_holder["service"] = ReviewService(reviews_directory(rooms().storage))
        return review_holder["service"]

    async def review_visible(request: Request, match: StoredMatch) -> bool:
        # A deal of a match in play is the table's (its summary shows every hand to whoever
        # watches); a finished match's follows the History: a private table's to its players.
        # A duplicate round's table (sealed) shares its deals with tables still in play: its
        # deals are reviewed by nobody while its match is.
        if match.finished is None:
            room = rooms().get(match.table_id)
            return room is not None and not room.table.sealed
        return await visible(match, _held_seats(request), {})

    def table_match(table_id: str) -> int | None:
        room = rooms().get(table_id)
        return room.table.match_id if room is not None and room.table.match_id >= 0 else None

    routes = [
        Route("/", lobby),
        Route("/t/{table_id}", table_page),
        Route("/history", history_page),
        Route("/history/{match_id:number}", history_page),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat:number}", take_seat, methods=["POST"]),
        Route("/api/bots", list_bots),
        Route("/api/history", list_history),
        Route("/api/history/{match_id:number}", history_match),
        Route("/api/history/{match_id:number}/record.json", history_record),
        *review_routes(review_service, lambda m: rooms().writer.load_match(m),
                       table_match, review_visible, WEB_DIR,
                       None if limits is None else
                       AddressLimiter(limits.reviews_per_minute, limits.review_burst)),
        *practice_routes(lambda table_id: rooms().get(table_id)),
        *accounts.routes(),
        *quickplay.routes(),
        *tournaments.routes(),
        WebSocketRoute("/ws/lobby", lobby_socket),  # before /ws/{table_id}: ids are 8 long
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(GuardMiddleware, guard=guard)])
    app.state.quickplay = quickplay  # its rules: a test's may be a shorter match
    app.state.accounts = accounts  # its log-in limits (accounts.LoginLimits) for tests
    app.state.tournaments = tournaments  # its rules: a test's may be a shorter match
    return app


def _secret_path(db_path: str | Path | None) -> Path:
    """The key file that signs session cookies: beside a SQLite database, else in the user's
    data directory (a PostgreSQL URL; every worker of one machine shares it)."""
    if db_path is not None and "://" not in str(db_path) and str(db_path) != ":memory:":
        return Path(f"{db_path}.secret")
    return default_db_path().with_name("session.secret")


def serve(host: str = "127.0.0.1", port: int = 8000, db_path: str | Path | None = None,
          grace: float = 60.0, *, guard: Guard | None = None,
          edge: EdgeLimits = DEFAULT_EDGE, bot_workers: int | None = None,
          cluster: ClusterOptions | None = None, reuse_port: bool = False) -> None:
    """Run the server until interrupted (``sueca serve``). The database is opened (and
    locked) first: one another server holds, or a newer sueca wrote, raises
    :class:`~sueca.server.storage.StorageError` before anything listens. ``guard``: origins
    allowed besides the server's own; ``edge``: deadlines and connection caps
    (:mod:`sueca.server.transport`), the connection cap fitted below the file limit;
    ``bot_workers`` the bots' worker processes (default ``min(cores, 4)``; 0: threads).
    ``db_path`` may be a ``postgresql://`` URL (:func:`~sueca.server.backends.open_storage`);
    ``cluster``: serve as a worker of a cluster instead (docs/deploy.md), ``reuse_port`` on a
    port other workers listen on too (:mod:`sueca.server.workers`)."""
    import uvicorn

    edge = fit_to_file_limit(edge, raise_file_limit())
    options: dict[str, Any] = {
        "timing": Timing(grace=grace), "limits": DEFAULT_LIMITS, "guard": guard,
        "secret": load_secret(_secret_path(db_path)),
        "bot_workers": default_bot_workers() if bot_workers is None else bot_workers}
    if cluster is not None:
        app = create_app(cluster=cluster, **options)
    else:
        from sueca.server.backends import open_storage

        app = create_app(storage=open_storage(db_path or default_db_path(), lock=True),
                         **options)
    # Frames beyond 64 KiB close the socket outright; smaller oversized ones (over
    # MAX_MESSAGE) get an error message and change nothing.
    config = uvicorn_config(app, host, port, edge, ws_max_size=64 * 1024, log_level="info")
    limit_log_rate(edge.log_per_minute)  # after uvicorn's Config has set its handlers up
    if reuse_port:
        from sueca.server.workers import reuse_port_socket

        uvicorn.Server(config).run(sockets=[reuse_port_socket(host, port)])
    else:
        uvicorn.Server(config).run()
