"""Quick play: "a match to 4 with anyone", and friends invited by name.

A logged-in person joins the queue, alone or with a partner (each names the other: the two
are seated as partners once both have asked), and may let bots fill the table after a wait of
his choosing. Four people of similar rating (OpenSkill's ordinal on the ``four`` ladder, a
newcomer at 0) are seated together: the rating spread allowed starts at :data:`SPREAD` and
widens by :data:`WIDEN` a second of the longest wait, so nobody waits for ever for an equal.
Someone whose bot wait is over is seated at once with whoever waits (any rating) and bots in
the empty seats. The table is an ordinary one (``Rooms.create``); each person's page polls
``GET /api/quickplay`` and gets his seat's link once seated.

An invitation names a friend (an account) and hands him a seat's link, which the inviter must
hold (its token proves it): the friend's lobby lists it (``GET /api/invitations``).

Bounded: at most :data:`MAX_WAITING` people wait (503 past it), invitations are kept an hour,
at most :data:`MAX_INVITATIONS` per person, and a seated ticket is forgotten after ten minutes;
one person sends at most :data:`INVITATIONS_SENT_PER_HOUR` invitations an hour (a burst of
:data:`INVITATION_BURST`; 429 past it), and none to himself. The queue and the invitations
live in this process's memory: under ``sueca serve --workers N`` each worker has its own.

Routes (logged in; POSTs carry ``X-CSRF-Token``)::

    POST /api/quickplay         {"partner": name | null, "bots_after": seconds | null}
    GET  /api/quickplay         {"state": "none" | "waiting" | "seated", "link", "waited"}
    POST /api/quickplay/leave
    POST /api/invitations       {"friend": name, "table": id, "token": a seat's token}
    GET  /api/invitations       {"invitations": [{"from", "table", "link", "at"}]}
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sueca.server.account_routes import AccountsWeb
from sueca.server.account_routes import _body as _json
from sueca.server.accounts import AccountError, name_key
from sueca.server.limits import AddressLimiter
from sueca.server.players import PEOPLE, Account, ordinal
from sueca.server.responses import JSONResponse
from sueca.server.tables import TableError

if TYPE_CHECKING:
    from sueca.server.rooms import Rooms

log = logging.getLogger("sueca.server")

MAX_WAITING = 1000
MAX_INVITATIONS = 20
INVITATIONS_SENT_PER_HOUR = 20
INVITATION_BURST = 10
INVITATION_AGE = 3600.0
SEATED_AGE = 600.0
MAX_BOT_WAIT = 3600.0
SPREAD = 5.0  # rating points (ordinal) between the best and worst of a table, at first
WIDEN = 0.5  # more allowed per second of the longest wait
BOT_LEVEL = "expert"
MATCH_EVERY = 1.0  # seconds between passes over the queue


@dataclass
class Ticket:
    """One person in the queue (or seated from it)."""

    account: int
    name: str
    rating: float
    joined: float
    partner: str | None = None  # the key of the name he queues with (both must ask)
    bots_after: float | None = None  # seconds, or None: people only
    link: str | None = None  # his seat's link, once seated
    seated_at: float | None = None


@dataclass
class Invitation:
    sender: str
    table: str
    link: str
    at: float


@dataclass
class QuickPlay:
    """The queue and the invitations of one server process."""

    rooms: Callable[[], Rooms]
    accounts: AccountsWeb
    rules: dict[str, Any] = field(default_factory=lambda: {"variant": "standard"})
    clock: Callable[[], float] = time.monotonic
    tickets: dict[int, Ticket] = field(default_factory=dict)
    invitations: dict[int, list[Invitation]] = field(default_factory=dict)
    # Invitations each sender may send (keyed by account id): a recipient's cap alone would
    # let one sender flood every account's lobby.
    senders: AddressLimiter = field(default_factory=lambda: AddressLimiter(
        INVITATIONS_SENT_PER_HOUR / 60, INVITATION_BURST))
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _matcher: asyncio.Task[None] | None = None

    # ---- the queue -------------------------------------------------------------------------

    def waiting(self) -> list[Ticket]:
        return [t for t in self.tickets.values() if t.link is None]

    def _forget_old(self) -> None:
        now = self.clock()
        for account, ticket in list(self.tickets.items()):
            if ticket.seated_at is not None and now - ticket.seated_at > SEATED_AGE:
                del self.tickets[account]

    def groups(self) -> list[tuple[list[Ticket], int]]:
        """The tables to seat now: (people, seats for bots). Pairs who named each other sit
        as partners; four similar ratings sit together; a wait for bots that is over seats
        whoever waits, with bots for the rest."""
        now = self.clock()
        waiting = sorted(self.waiting(), key=lambda t: (t.rating, t.joined))
        by_key = {name_key(t.name): t for t in waiting}
        units: list[list[Ticket]] = []
        placed: set[int] = set()
        for ticket in waiting:
            if ticket.account in placed:
                continue
            mate = by_key.get(ticket.partner or "")
            if (mate is not None and mate.account not in placed and mate is not ticket
                    and mate.partner == name_key(ticket.name)):
                units.append([ticket, mate])
                placed.update({ticket.account, mate.account})
            elif ticket.partner is None:
                units.append([ticket])
                placed.add(ticket.account)
        out: list[tuple[list[Ticket], int]] = []
        used: set[int] = set()
        units.sort(key=lambda u: sum(t.rating for t in u) / len(u))
        # No table is wider than the longest wait allows: units further apart than that in
        # rating (they are sorted) are never looked at together, so a pass stays short.
        widest = SPREAD + WIDEN * max((now - t.joined for t in waiting), default=0.0)
        for start, unit in enumerate(units):
            if unit[0].account in used:
                continue
            table = [unit]
            size = len(unit)
            for other in units[start + 1:]:
                if min(t.rating for t in other) - max(t.rating for t in unit) > widest:
                    break
                if other[0].account in used or size + len(other) > 4:
                    continue
                members = [t for u in (*table, other) for t in u]
                longest = max(now - t.joined for t in members)
                spread = max(t.rating for t in members) - min(t.rating for t in members)
                if spread <= SPREAD + WIDEN * longest:
                    table.append(other)
                    size += len(other)
                if size == 4:
                    break
            members = [t for u in table for t in u]
            bots_due = any(t.bots_after is not None and now - t.joined >= t.bots_after
                           for t in members)
            if size == 4 or bots_due:
                out.append((members, 4 - size))
                used.update(t.account for t in members)
        return out

    async def seat(self) -> int:
        """Seat every group the queue holds now; how many tables were made."""
        made = 0
        async with self._lock:
            self._forget_old()
            for members, _bots in self.groups():
                if await self._table(members):
                    made += 1
        return made

    async def _table(self, members: list[Ticket]) -> bool:
        # Partners face each other: a pair at seats 0 and 2 (or 1 and 3).
        order: list[Ticket | None] = [None] * 4
        pairs = [t for t in members if t.partner is not None]
        singles = [t for t in members if t.partner is None]
        free = [0, 2, 1, 3]
        for ticket in pairs + singles:
            order[free.pop(0)] = ticket
        seats = [{"kind": "human", "name": t.name} if t is not None
                 else {"kind": "bot", "level": BOT_LEVEL} for t in order]
        try:
            room = await self.rooms().create(self.rules, seats)
        except TableError as error:
            log.warning("quick play: a table could not be made (%s)", error)
            return False
        table = room.table
        now = self.clock()
        for index, seated in enumerate(order):
            if seated is not None:
                seated.link = f"/t/{table.id}#{table.seats[index].token}"
                seated.seated_at = now
        return True

    async def _rating(self, account: Account) -> float:
        writer = self.rooms().writer
        rows = writer.storage.players()
        current = await writer.call(rows.ratings, PEOPLE, "four", [str(account.id)])
        mu, sigma, _ = current.get(str(account.id), (25.0, 25 / 3, 0))
        return ordinal(mu, sigma)

    # ---- the routes ------------------------------------------------------------------------

    async def join(self, request: Request) -> Response:
        account = await self.accounts._authorised(request)
        data = await _json(request)
        partner = data.get("partner")
        if partner is not None and (not isinstance(partner, str) or not 0 < len(partner) <= 64):
            raise AccountError("'partner' is a player's name", "malformed")
        if partner is not None and name_key(partner) == name_key(account.name):
            raise AccountError("one cannot partner oneself", "malformed")
        bots_after = data.get("bots_after")
        if bots_after is not None and (type(bots_after) not in (int, float)
                                       or not 0 <= bots_after <= MAX_BOT_WAIT):
            raise AccountError(f"'bots_after' is 0 to {MAX_BOT_WAIT:g} seconds, or null",
                               "malformed")
        self._forget_old()
        if account.id not in self.tickets and len(self.waiting()) >= MAX_WAITING:
            raise AccountError("the queue is full; try again soon", "queue_full", 503)
        self.tickets[account.id] = Ticket(
            account.id, account.name, await self._rating(account), self.clock(),
            None if partner is None else name_key(" ".join(partner.split())),
            None if bots_after is None else float(bots_after))
        await self.seat()
        self._start_matching()
        return self._status(account.id)

    async def status(self, request: Request) -> Response:
        account = await self.accounts.account(request)
        if account is None:
            raise AccountError("log in first", "not_logged_in", 401)
        return self._status(account.id)

    def _start_matching(self) -> None:
        if self._matcher is None or self._matcher.done():
            self._matcher = asyncio.get_running_loop().create_task(self._match_every())

    async def _match_every(self) -> None:
        """Once a second while anyone waits: a wait for bots may be over, or the spread wide
        enough now (the pages only poll their ticket: a poll costs no matching)."""
        while self.waiting():
            await asyncio.sleep(MATCH_EVERY)
            try:
                await self.seat()
            except Exception:  # a bug must not stop the queue, nor flood the log
                log.exception("quick play: seating failed")
                await asyncio.sleep(30)

    def _status(self, account_id: int) -> Response:
        ticket = self.tickets.get(account_id)
        if ticket is None:
            return JSONResponse({"state": "none"})
        if ticket.link is not None:
            return JSONResponse({"state": "seated", "link": ticket.link})
        return JSONResponse({"state": "waiting", "waited": round(self.clock() - ticket.joined),
                             "waiting": len(self.waiting())})

    async def leave(self, request: Request) -> Response:
        account = await self.accounts._authorised(request)
        self.tickets.pop(account.id, None)
        return JSONResponse({"state": "none"})

    async def invite(self, request: Request) -> Response:
        account = await self.accounts._authorised(request)
        data = await _json(request)
        friend_name, table_id, token = data.get("friend"), data.get("table"), data.get("token")
        if not all(isinstance(v, str) and 0 < len(v) <= 64
                   for v in (friend_name, table_id, token)):
            raise AccountError("'friend', 'table' and 'token' are text", "malformed")
        assert isinstance(friend_name, str) and isinstance(table_id, str)
        assert isinstance(token, str)
        writer = self.rooms().writer
        friend = await writer.call(writer.storage.players().account_by_key,
                                   name_key(friend_name))
        if friend is None:
            raise AccountError("no such player", "no_player", 404)
        if friend.id == account.id:
            raise AccountError("you cannot invite yourself", "self_invitation")
        try:
            room = await self.rooms().find(table_id)
        except TableError:
            raise AccountError("no such table", "no_table", 404) from None
        if room.table.seat_for_token(token) is None:
            raise AccountError("that token is not a seat of this table", "bad_token", 403)
        if not self.senders.take(str(account.id)):
            raise AccountError(f"too many invitations sent: at most "
                               f"{INVITATIONS_SENT_PER_HOUR} an hour", "rate_limited", 429)
        now = time.time()
        kept = [i for i in self.invitations.get(friend.id, [])
                if now - i.at < INVITATION_AGE][-(MAX_INVITATIONS - 1):]
        kept.append(Invitation(account.name, table_id, f"/t/{table_id}#{token}", now))
        self.invitations[friend.id] = kept
        if len(self.invitations) > 10 * MAX_WAITING:  # bounded: the oldest people forgotten
            for key in list(self.invitations)[:MAX_WAITING]:
                del self.invitations[key]
        return JSONResponse({"invited": friend.name}, status_code=201)

    async def list_invitations(self, request: Request) -> Response:
        account = await self.accounts.account(request)
        if account is None:
            raise AccountError("log in first", "not_logged_in", 401)
        now = time.time()
        mine = [i for i in self.invitations.get(account.id, []) if now - i.at < INVITATION_AGE]
        return JSONResponse({"invitations": [
            {"from": i.sender, "table": i.table, "link": i.link, "at": i.at}
            for i in reversed(mine)]})

    def routes(self) -> list[Route]:
        def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
            async def run(request: Request) -> Response:
                try:
                    response: Response = await handler(request)
                    return response
                except AccountError as error:
                    return JSONResponse({"error": error.code, "message": str(error)},
                                        status_code=error.status)
            return run

        return [
            Route("/api/quickplay", guarded(self.join), methods=["POST"]),
            Route("/api/quickplay", guarded(self.status), methods=["GET"]),
            Route("/api/quickplay/leave", guarded(self.leave), methods=["POST"]),
            Route("/api/invitations", guarded(self.invite), methods=["POST"]),
            Route("/api/invitations", guarded(self.list_invitations), methods=["GET"]),
        ]

