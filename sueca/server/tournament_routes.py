"""The torneio on the web server: the tournament desk (its tables, their results) and its
pages and JSON API (docs/tournaments.md).

Routes::

    GET  /tournaments  /tournaments/{id}                 pages (sueca/web)
    GET  /api/tournaments                                the latest tournaments
    POST /api/tournaments          {"name", "format", "rounds", "duplicate_rounds", "target",
                                   "sets", "forfeit_wait", "start", "individuals"}: organise one
    GET  /api/tournaments/{id}     pairs, rounds and tables, standings; the logged-in
                                   player's own table link (his seat's token, his alone)
    POST /api/tournaments/{id}/register     {"partner": name, "name": pair's} (or {} when
                                   pairs are drawn): pending until the partner registers
                                   naming this player back
    POST /api/tournaments/{id}/unregister   before the start (also drops a pending pair,
                                   and declines those proposed to this player)
    POST /api/tournaments/{id}/unregister   before the start
    POST /api/tournaments/{id}/withdraw     {"pair": n}: the organiser, or one of the pair
    POST /api/tournaments/{id}/rounds       the organiser: pair and seat the next round
    POST /api/tournaments/{id}/adjudicate   {"round", "table", "winner", "games"}: organiser
    POST /api/tournaments/{id}/reseat       {"round", "pairs": [a, b]}: organiser
    GET  /api/tournaments/{id}/results.json  /results.csv   the results, to download

Every POST needs a logged-in account and its CSRF token (:mod:`sueca.server.accounts`). A
round's tables are made through :meth:`Rooms.create <sueca.server.rooms.Rooms.create>`, one
human seat per player (a pair at seats 0 and 2, the other at 1 and 3), without a host (no seat
sees another's token); each player's page gets his own seat's link from this API. A duplicate
round's tables are dealt from the round's seed (the same cards at every table). Results are
read from the stored matches (:func:`~sueca.server.history.replay_stored`: each deal's card
points), when a match ends and whenever the tournament is looked at; a pair that has not
taken both its seats when the round's wait is over loses by forfeit. Every store call goes
through the writer's thread.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sueca.jsontext import NotJsonError, parse_json
from sueca.server.accounts import AccountError, name_key
from sueca.server.history import replay_stored
from sueca.server.players import Account
from sueca.server.responses import html_page
from sueca.server.tables import TableError, clean_name
from sueca.server.tournament_rows import result_data
from sueca.server.tournaments import (
    Assignment,
    Player,
    Round,
    Tournament,
    TournamentError,
    result_of_sets,
)
from sueca.server.writer import StorageUnavailable

if TYPE_CHECKING:
    from sueca.server.account_routes import AccountsWeb
    from sueca.server.rooms import Rooms
    from sueca.server.tables import Table

log = logging.getLogger("sueca.server")

MAX_BODY = 4096
OPEN_PER_ORGANISER = 5  # tournaments an account may have open (not finished) at once
LOCKS_KEPT = 256  # per-tournament locks kept (least recently used dropped)
TABLES_KNOWN = 4096  # table -> tournament entries kept for the end-of-match hook
# A look at a tournament reads its tables from the store at most this often (the pages poll;
# a match's end is read at once by the end-of-match hook, a POST reads them always): the
# store's writer thread is every table's.
LOOK_EVERY = 5.0


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


async def _body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise _Refused(413, "too_large", f"request too large (at most {MAX_BODY} bytes)")
    try:
        data = parse_json(body or b"{}")
    except NotJsonError:
        raise _Refused(400, "malformed", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise _Refused(400, "malformed", "the request must be a JSON object")
    return data


def _clean(name: str) -> str:
    """A tournament's or pair's name, refused (``bad_name``) as a table refuses a player's:
    a lone surrogate, a control or a bidi character would break a page or the store."""
    try:
        return clean_name(name)
    except TableError as error:
        raise _Refused(400, error.code, str(error)) from None


def _whole(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10_000:
        raise _Refused(400, "malformed", f"{key!r} must be a whole number")
    return value


class TournamentDesk:
    """Runs the server's tournaments over its rooms and store."""

    def __init__(self, rooms: Callable[[], Rooms], accounts: AccountsWeb,
                 web_dir: Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self.rooms = rooms
        self.accounts = accounts
        self.web_dir = web_dir
        self.clock = clock
        self.rules: dict[str, Any] = {"variant": "standard"}  # a test's may differ
        self._locks: OrderedDict[int, asyncio.Lock] = OrderedDict()
        self._tables: OrderedDict[str, int] = OrderedDict()  # table id -> tournament id
        self._tasks: set[asyncio.Task[None]] = set()
        self._looked: OrderedDict[int, float] = OrderedDict()  # tournament -> last read
        self.look_every = LOOK_EVERY  # a test's may be 0

    # ---- the store ------------------------------------------------------------------------

    async def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return await self.rooms().writer.call(method, *args)
        except StorageUnavailable:
            raise _Refused(503, "storage_unavailable",
                           "the store cannot be used now; try again") from None

    def _rows(self) -> Any:
        return self.rooms().writer.storage.tournaments()

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        lock = self._locks.pop(tournament_id, None) or asyncio.Lock()
        self._locks[tournament_id] = lock
        while len(self._locks) > LOCKS_KEPT:
            oldest, held = next(iter(self._locks.items()))
            if held.locked():
                break
            self._locks.pop(oldest)
        return lock

    async def _load(self, tournament_id: int) -> Tournament:
        t = await self._call(self._rows().load, tournament_id)
        if t is None:
            raise _Refused(404, "no_tournament", "no such tournament")
        assert isinstance(t, Tournament)
        if t.rounds:
            for table in t.rounds[-1].tables:
                if table.table_id is not None:
                    self._know(table.table_id, t.id)
        return t

    def _know(self, table_id: str, tournament_id: int) -> None:
        self._tables.pop(table_id, None)
        self._tables[table_id] = tournament_id
        while len(self._tables) > TABLES_KNOWN:
            self._tables.popitem(last=False)

    # ---- results --------------------------------------------------------------------------

    async def match_over(self, table: Table) -> None:
        """The rooms' end-of-match hook: a tournament table's match is read into its
        tournament at once (before a rematch could start another)."""
        tournament_id = self._tables.get(table.id)
        if tournament_id is None:
            return
        match_id = table.match_id

        async def refresh() -> None:
            try:
                async with self._lock(tournament_id):
                    t = await self._load(tournament_id)
                    known = False
                    for assignment in t.rounds[-1].tables if t.rounds else []:
                        if assignment.table_id == table.id and match_id not in \
                                assignment.matches and match_id >= 0:
                            assignment.matches = (*assignment.matches, match_id)
                            known = True
                    await self._refresh(t, changed=known)
            except Exception as error:  # the match is stored; the next look reads it
                log.warning("tournament %s: table %s not read: %s: %s", tournament_id,
                            table.id, type(error).__name__, error)

        task = asyncio.get_running_loop().create_task(refresh())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _look(self, t: Tournament) -> None:
        """A GET's refresh, at most every ``look_every`` seconds per tournament."""
        now = self.clock()
        last = self._looked.pop(t.id, None)
        if last is not None and now - last < self.look_every:
            self._looked[t.id] = last
            return
        self._looked[t.id] = now
        while len(self._looked) > LOCKS_KEPT:
            self._looked.popitem(last=False)
        await self._refresh(t)

    async def _refresh(self, t: Tournament, changed: bool = False) -> bool:
        """Read the results of the round in play (its finished matches, its forfeits after
        the wait); store the tournament if anything changed (``changed``: the caller changed
        it already). Call under its lock."""
        if not t.rounds:
            return False
        round_ = t.rounds[-1]
        writer = self.rooms().writer
        for assignment in round_.tables:
            if assignment.result is not None or assignment.table_id is None:
                continue
            # Read from the store, not the rooms: a table need not be in this process's
            # memory (evicted, or a cluster's other worker's), and the store holds every
            # change before anyone sees it.
            table = await self._call(writer.storage.load_table, assignment.table_id)
            if table is not None and table.match is not None and \
                    table.match.id not in assignment.matches:
                assignment.matches = (*assignment.matches, table.match.id)
                changed = True
            sets = []
            for match_id in assignment.matches:
                stored = (table.match if table is not None and table.match is not None
                          and table.match.id == match_id
                          else await self._call(writer.storage.load_match, match_id))
                if stored is None or stored.finished is None or stored.score is None:
                    continue
                replayed = replay_stored(stored)
                deals = [(r.points[0], r.points[1]) for r in replayed.match.results]
                sets.append(((stored.score[0], stored.score[1]), deals))
            result = result_of_sets(sets, needed=t.sets // 2 + 1)
            waited = round_.started is not None and \
                self.clock() - round_.started > t.forfeit_wait
            absent = [False, False]
            if table is not None and (waited or result is not None):
                # A pair one of whose players never took his seat did not show up: a bot
                # standing in for him (after the table's invite wait) does not play for it.
                seats = table.settings.get("seats", [])
                claimed = [isinstance(seat, dict) and seat.get("claimed") is True
                           for seat in seats]
                if len(claimed) == 4:
                    absent = [not (claimed[side] and claimed[side + 2]) for side in (0, 1)]
            if absent[0] != absent[1]:
                t.forfeit(round_.number, assignment.number, absent.index(True))
                changed = True
            elif result is not None and not any(absent):
                t.record(round_.number, assignment.number, result)
                changed = True
            # Both pairs absent: the organiser adjudicates.
        if changed:
            await self._call(self._rows().save, t)
        return changed

    async def _seat_round(self, t: Tournament, round_: Round,
                          tables: list[Assignment]) -> None:
        """Make the server's tables of ``tables`` (a pair at seats 0 and 2)."""
        for assignment in tables:
            a, b = (t.pair(n) for n in assignment.pairs)
            names = [a.players[0].name, b.players[0].name, a.players[1].name,
                     b.players[1].name]
            seats = [{"kind": "human", "name": name} for name in names]
            rules = {**self.rules, "match_target": t.target}
            try:
                room = await self.rooms().create(
                    rules, seats, deals_seed=round_.seed if round_.duplicate else None,
                    hosted=False)
            except TableError as error:
                raise _Refused(503 if error.code == "storage_unavailable" else 400,
                               error.code, str(error)) from None
            assignment.table_id = room.table.id
            assignment.matches = (room.table.match_id,)
            self._know(room.table.id, t.id)
        round_.started = self.clock()

    # ---- the handlers ---------------------------------------------------------------------

    async def _account(self, request: Request) -> Account:
        return await self.accounts._authorised(request)

    def _id(self, request: Request) -> int:
        text = str(request.path_params["tid"])
        if not (text.isascii() and text.isdigit()) or len(text) > 18:
            raise _Refused(404, "no_tournament", "no such tournament")
        return int(text)

    async def latest(self, request: Request) -> Response:
        return JSONResponse({"tournaments": await self._call(self._rows().latest)})

    async def create(self, request: Request) -> Response:
        account = await self._account(request)
        data = await _body(request)
        name = data.get("name")
        if not isinstance(name, str) or len(name) > 200:
            raise _Refused(400, "bad_tournament", "a tournament needs a name (text)")
        t = Tournament.from_settings(_clean(name), account.id, data)
        if await self._call(self._rows().count_open, account.id) >= OPEN_PER_ORGANISER:
            raise _Refused(429, "too_many", f"an organiser may run {OPEN_PER_ORGANISER} "
                           "tournaments at once; finish one first")
        t.created = self.clock()
        t.id = await self._call(self._rows().create, t)
        return JSONResponse({"id": t.id, "link": f"/tournaments/{t.id}"}, status_code=201)

    async def show(self, request: Request) -> Response:
        tid = self._id(request)
        account = await self.accounts.account(request)
        async with self._lock(tid):
            t = await self._load(tid)
            await self._look(t)
        return JSONResponse(await self.view(t, account))

    async def view(self, t: Tournament, account: Account | None) -> dict[str, Any]:
        names = {p.number: p.name for p in t.pairs}
        mine = t.pair_of(account.id) if account is not None else None
        my_table: dict[str, Any] | None = None
        rounds = []
        for round_ in t.rounds:
            tables = []
            for a in round_.tables:
                tables.append({
                    "table": a.number, "pairs": list(a.pairs),
                    "names": [names.get(n, "?") for n in a.pairs],
                    # A duplicate round's tables share their deals: none may be watched.
                    "watch": (None if a.table_id is None or round_.duplicate
                              else f"/t/{a.table_id}"),
                    "result": None if a.result is None else result_data(a.result)})
                if mine is not None and round_ is t.rounds[-1] and mine.number in a.pairs \
                        and a.result is None and a.table_id is not None:
                    my_table = await self._seat_link(a, t, account)
            rounds.append({"round": round_.number, "duplicate": round_.duplicate,
                           "byes": [{"pair": n, "name": names.get(n, "?")}
                                    for n in round_.byes],
                           "finished": round_.finished, "started": round_.started,
                           "tables": tables})
        return {
            **t.summary(), "organiser": t.organiser, "rounds_planned": t.rounds_planned,
            "you": None if account is None else {
                "id": account.id, "organiser": account.id == t.organiser,
                "pair": None if mine is None else mine.number,
                "registered": mine is not None or any(
                    p.account == account.id for p in t.singles)},
            "pairs": [{"pair": p.number, "name": p.name,
                       "players": [x.name for x in p.players],
                       "withdrawn": p.withdrawn is not None} for p in t.pairs],
            "singles": [p.name for p in t.singles],
            # Only the two people concerned see a pending pair (nobody else's business).
            "waiting_for": None if account is None else next(
                (p.partner.name for p in t.proposals if p.by.account == account.id), None),
            "asked_by": [] if account is None else [p.by.name
                                                   for p in t.proposals_to(account.id)],
            "rounds": rounds,
            "standings": [s.to_dict() for s in t.standings()],
            "my_table": my_table,
        }

    async def _seat_link(self, a: Assignment, t: Tournament,
                         account: Account | None) -> dict[str, Any] | None:
        """The logged-in player's own seat at his table: its link with its token (his
        alone: the table has no host and this answer goes to his session only)."""
        if account is None or a.table_id is None:
            return None
        order = [t.pair(a.pairs[0]).players[0], t.pair(a.pairs[1]).players[0],
                 t.pair(a.pairs[0]).players[1], t.pair(a.pairs[1]).players[1]]
        seat = next((i for i, p in enumerate(order) if p.account == account.id), None)
        if seat is None:
            return None
        table = await self._call(self.rooms().writer.storage.load_table, a.table_id)
        seats = [] if table is None else table.settings.get("seats", [])
        if len(seats) != 4 or not isinstance(seats[seat], dict):
            return None
        token = seats[seat].get("token")
        if not isinstance(token, str) or not token:
            return None
        return {"table": a.number, "seat": seat, "link": f"/t/{a.table_id}#{token}"}

    async def _change(self, request: Request,
                      change: Callable[[Tournament, Account, dict[str, Any]],
                                       Awaitable[None]]) -> Response:
        account = await self._account(request)
        data = await _body(request)
        tid = self._id(request)
        async with self._lock(tid):
            t = await self._load(tid)
            await self._refresh(t)
            await change(t, account, data)
            await self._call(self._rows().save, t)
        return JSONResponse(await self.view(t, account))

    @staticmethod
    def _organiser(t: Tournament, account: Account) -> None:
        if account.id != t.organiser:
            raise _Refused(403, "not_organiser", "only the tournament's organiser may do that")

    async def register(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            me = Player(account.id, account.name)
            partner = data.get("partner")
            if t.individuals:
                if partner:
                    raise TournamentError("this tournament draws pairs: register alone",
                                          "register_alone")
                t.register_single(me)
                return
            if not isinstance(partner, str) or not 0 < len(partner) <= 64:
                raise _Refused(400, "malformed", "'partner' is your partner's account name")
            other = await self.accounts._call(self.accounts._rows().account_by_key,
                                              name_key(partner))
            if other is None:
                raise _Refused(404, "no_player", f"no account is called {partner!r}")
            pair_name = data.get("name", "")
            if not isinstance(pair_name, str):
                raise _Refused(400, "malformed", "'name' is text")
            # The partner named is asked, not bound: the pair waits until he registers
            # naming this player back (or accepts on the page, which does the same).
            t.propose(_clean(pair_name), me, Player(other.id, other.name))
        return await self._change(request, change)

    async def unregister(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            t.unregister(account.id)
        return await self._change(request, change)

    async def withdraw(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            number = _whole(data, "pair")
            pair = t.pair(number)
            if account.id != t.organiser and all(p.account != account.id
                                                  for p in pair.players):
                raise _Refused(403, "not_organiser",
                               "only the organiser or the pair itself may withdraw it")
            t.withdraw(number)
        return await self._change(request, change)

    async def next_round(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            self._organiser(t, account)
            round_ = t.start_round(seed=secrets.randbits(48),
                                   rng=random.SystemRandom())
            await self._seat_round(t, round_, round_.tables)
        return await self._change(request, change)

    async def adjudicate(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            self._organiser(t, account)
            games = data.get("games")
            if games is not None and (not isinstance(games, list) or len(games) != 2 or
                                      not all(isinstance(g, int) and not isinstance(g, bool)
                                              for g in games)):
                raise _Refused(400, "malformed", "'games' is two whole numbers, or null")
            t.adjudicate(_whole(data, "round"), _whole(data, "table"), _whole(data, "winner"),
                         None if games is None else (games[0], games[1]))
        return await self._change(request, change)

    async def reseat(self, request: Request) -> Response:
        async def change(t: Tournament, account: Account, data: dict[str, Any]) -> None:
            self._organiser(t, account)
            pairs = data.get("pairs")
            if not isinstance(pairs, list) or len(pairs) != 2 or not all(
                    isinstance(p, int) and not isinstance(p, bool) for p in pairs):
                raise _Refused(400, "malformed", "'pairs' is two pair numbers")
            number = _whole(data, "round")
            changed = t.reseat(number, pairs[0], pairs[1])
            for assignment in changed:  # the old tables are left; new ones are made
                assignment.matches = ()
            await self._seat_round(t, t.round(number), changed)
        return await self._change(request, change)

    async def results_json(self, request: Request) -> Response:
        tid = self._id(request)
        async with self._lock(tid):
            t = await self._load(tid)
            await self._look(t)
        body = await self.view(t, None)
        return JSONResponse(body, headers={
            "Content-Disposition": f'attachment; filename="tournament-{tid}.json"'})

    async def results_csv(self, request: Request) -> Response:
        tid = self._id(request)
        async with self._lock(tid):
            t = await self._load(tid)
            await self._look(t)
        out = io.StringIO()
        sheet = csv.writer(out)
        sheet.writerow(["rank", "pair", "name", "players", "match_points", "game_points",
                        "card_points", "played", "withdrawn"])
        players = {p.number: " & ".join(x.name for x in p.players) for p in t.pairs}
        for s in t.standings():
            row = s.to_dict()
            sheet.writerow([row["rank"], row["pair"], _cell(row["name"]),
                            _cell(players[s.pair]), row["match_points"], row["game_points"],
                            row["card_points"], row["played"], row["withdrawn"]])
        sheet.writerow([])
        sheet.writerow(["round", "table", "pair_a", "pair_b", "winner", "games_a", "games_b",
                        "card_points_a", "card_points_b", "how"])
        for round_ in t.rounds:
            for a in round_.tables:
                r = a.result
                sheet.writerow([round_.number, a.number, a.pairs[0], a.pairs[1],
                                "" if r is None else a.pairs[r.winner],
                                *(("",) * 5 if r is None else
                                  (*r.games, *r.card_points, r.how))])
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="tournament-{tid}.csv"'})

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
                except (AccountError, _Refused) as error:
                    status = error.status
                    return JSONResponse({"error": error.code, "message": str(error)},
                                        status_code=status)
                except TournamentError as error:
                    status = 404 if error.code.startswith("no_") else 409
                    return JSONResponse({"error": error.code, "message": str(error)},
                                        status_code=status)
            return run

        base = "/api/tournaments/{tid}"
        return [
            Route("/tournaments", self.page("tournaments.html")),
            Route("/tournaments/{tid}", self.page("tournament.html")),
            Route("/api/tournaments", guarded(self.latest), methods=["GET"]),
            Route("/api/tournaments", guarded(self.create), methods=["POST"]),
            Route(base, guarded(self.show), methods=["GET"]),
            Route(base + "/register", guarded(self.register), methods=["POST"]),
            Route(base + "/unregister", guarded(self.unregister), methods=["POST"]),
            Route(base + "/withdraw", guarded(self.withdraw), methods=["POST"]),
            Route(base + "/rounds", guarded(self.next_round), methods=["POST"]),
            Route(base + "/adjudicate", guarded(self.adjudicate), methods=["POST"]),
            Route(base + "/reseat", guarded(self.reseat), methods=["POST"]),
            Route(base + "/results.json", guarded(self.results_json), methods=["GET"]),
            Route(base + "/results.csv", guarded(self.results_csv), methods=["GET"]),
        ]


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
