"""The live side of a table: connections, messages, bots, the away timer.

A :class:`Room` wraps one :class:`~sueca.server.tables.Table` with everything asynchronous:
the sockets watching it (each bound to a seat by its token, or a spectator), the bots that play
server-side, and the grace period after which a bot stands in for a player who dropped. The
room only awaits: a person's message, or a bot's decision, and submits it to the table's
referee (:meth:`Table.submit`), which checks it, stores it and ends the deal where it ends.
A bot decides in a worker process (:mod:`~sueca.server.botpool`; in threads with
``bot_workers=0``), so the event loop keeps serving every other table meanwhile:
:func:`~sueca.bots.base.decide` (the one policy for a bot's illegal answer) runs there, and its
action is submitted back on the loop — :meth:`Referee.play_for`'s two steps, apart. All game
changes happen on the event loop's thread.

Store first: a change (a move, a deal, a rematch, a seat claimed) is stored before anyone sees
it. The table collects its writes (:attr:`Table.pending`); the room awaits them on the store's
thread (:class:`~sueca.server.writer.StorageWriter`: the loop never waits on a disk or a lock)
and only then sends the views. If the store fails, the table is rolled back to what the store
holds (:meth:`Table.rolled_back`) and the player's socket gets ``storage_unavailable``
("…could not be saved; nothing changed; try again") and stays open; a bot's move or a deal is
tried again later, with a growing pause and one log line per outage. Each room has a lock, so a
message never runs while another change of the table waits for the store.
:class:`Rooms` is the registry the web app talks to.

Client messages (JSON text, at most :data:`MAX_MESSAGE` bytes)::

    {"type": "join", "token": "…"}     act for the seat this token belongs to
    {"type": "play", "card": "7H"}     play a card (RECORD.md notation; with two decks the
                                       face: the server plays the copy the hand holds)
    {"type": "bid", "value": 75}       bid at a bidding table (61..120, or 0 to pass; pages
                                       opened before it send "bid": 75, still taken)
    {"type": "call", "card": "AH"}     the declarer names his card (any face of the deck)
    {"type": "redeal", "ask": false}   keep the hand (true: ask for a new deal, a weak hand
                                       only; weak_hand_redeal asks every person in turn)
    {"type": "denounce"}               renúncia! (renuncia): a player of the other side
                                       revoked; any seat, until the next deal starts
    {"type": "next"}                   ready for the next deal
    {"type": "rematch"}                ready for a new match once this one is over
    {"type": "name", "name": "Rui"}    name one's own seat (cleaned: tables.clean_name)
    {"type": "stand_in", "seat": 2}    the host only: a bot plays for that missing person now
                                       (no seat: for every missing one, "start with bots")
    {"type": "ping"}

A new table *gathers* first: no bot plays while a person's seat waits for its invited player
(who never came), so the bots do not run ahead of friends still opening their links (a person
already there may play his card; the table then waits with him). It ends when every such seat
is taken, when the host puts bots in (``stand_in``), or after ``Timing.invite_wait``, when
stand-ins come anyway.

The moves are the actions of :func:`sueca.actions.action_from_dict`, the one wire form of every
front-end and the protocol. Server messages: ``{"type": "state", "view": …}`` after every
change (see :mod:`views`), ``{"type": "error", "code": …, "message": …}`` to the one socket
whose message was refused (nothing changes then), ``{"type": "joined", "seat": n}`` and
``{"type": "pong"}``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sueca.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
    AskCard,
    AskRedeal,
    Redeal,
    Request,
    action_from_dict,
)
from sueca.jsontext import NotJsonError, parse_json
from sueca.server import views
from sueca.server.botpool import BotPool, BotRunner, ThreadBots
from sueca.server.limits import TokenBucket
from sueca.server.storage import Storage
from sueca.server.tables import Table, TableError
from sueca.server.writer import StorageUnavailable, StorageWriter
from sueca.state import IllegalMoveError

log = logging.getLogger("sueca.server")

MAX_MESSAGE = 1024
NO_SPECTATORS = ("this table shares its deals with the other tables of its tournament round: "
                 "it cannot be watched; the standings show its result")
# A socket that falls this far behind has its oldest unsent state messages dropped: each state
# message is complete, so a slow client only misses intermediate frames.
OUTBOX_LIMIT = 16
RESTORE_FINISHED = 24 * 3600.0  # seconds a finished table stays open for a rematch
UNSAVED = "the move could not be saved; nothing changed; try again"
# A bot's move or a deal the store refused is tried again after this pause, doubled each time.
RETRY_FIRST, RETRY_MOST = 0.25, 30.0
MAX_ROOMS = 2000  # tables held in memory at once; past it the least recently used idle go
TABLE_ID_MAX = 32  # a table id in a link is 8 characters; a longer one names no table


@dataclass(frozen=True)
class Timing:
    """How the server paces a table. Zero delays are for tests and benchmarks."""

    grace: float = 60.0  # a dropped player's seat goes to a bot after this many seconds
    bot_delay: float = 0.8  # a bot waits this long before its card, so people can follow
    trick_pause: float = 1.4  # the completed trick stays on the cloth this long
    deal_pause: float = 30.0  # the deal summary waits this long for everyone to be ready
    # An invited player who has not come after this many seconds: a bot stands in for him
    # until he does, so one unused invitation cannot stall a table for ever.
    invite_wait: float = 300.0
    # Tables in memory (docs/server.md): one nobody has a socket open to leaves memory after
    # a while (stored, it comes back when a link is opened): a match over after finished_evict
    # seconds, a table of people after abandoned_evict; one none of whose invited players ever
    # came is closed invite_close seconds after it was made. Checked every sweep seconds.
    finished_evict: float = 600.0
    abandoned_evict: float = 3600.0
    invite_close: float = 3600.0
    sweep: float = 30.0


class Connection:
    """One socket watching a table. ``send`` is a coroutine that writes one text frame."""

    def __init__(self, send: Callable[[str], Awaitable[None]],
                 bucket: TokenBucket | None = None) -> None:
        self._send = send
        self.bucket = bucket  # what this socket may still send (None: no rate limit)
        self.seat: int | None = None
        self.account: tuple[int, str] | None = None  # a logged-in person's (id, name)
        self._outbox: deque[tuple[str, str]] = deque()
        self._wake = asyncio.Event()
        self.closed = False

    def push(self, kind: str, text: str) -> None:
        if self.closed:
            return
        if len(self._outbox) >= OUTBOX_LIMIT:
            if kind != "state":
                return  # a client that does not read gets no more errors or pongs queued
            stale = [item for item in self._outbox if item[0] == "state"]
            for item in stale:
                self._outbox.remove(item)
        self._outbox.append((kind, text))
        self._wake.set()

    async def pump(self) -> None:
        """Write queued messages in order until the connection closes."""
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                _, text = self._outbox.popleft()
                await self._send(text)


def _error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


def client_action(message: dict[str, Any]) -> Action:
    """The move a client's message names (:func:`~sueca.actions.action_from_dict`). Pages
    opened before bids were sent as ``"value"`` send ``{"type": "bid", "bid": 75}``: converted
    here, the one place that knows the old form."""
    if message.get("type") == "bid" and "value" not in message and "bid" in message:
        message = {"type": "bid", "value": message["bid"]}
    try:
        return action_from_dict(message)
    except ActionError as error:
        raise TableError(str(error), "malformed") from None


class RoomWatcher(Protocol):
    """Told of every room added or broadcasting a change, and of every table removed from
    memory: the lobby's index (:class:`sueca.server.lobby.LobbyIndex`)."""

    def changed(self, room: Room) -> None: ...

    def removed(self, table_id: str) -> None: ...


class Room:
    """One table with its connections and its bots."""

    watcher: RoomWatcher | None = None  # set by Rooms

    def __init__(self, table: Table, timing: Timing, bots: BotRunner, *,
                 gathering: bool = False, writer: StorageWriter | None = None) -> None:
        self.table = table
        self.writer = writer  # stores the table's changes (None: the table stores its own)
        self.clock: Callable[[], float] = time.monotonic  # Rooms' clock, for eviction
        self.used = self.clock()  # the last time a socket came or went or the table changed
        self.lock = asyncio.Lock()  # one change at a time, stored before the next
        self._outage = False  # the store failed and has not worked since (logged once)
        # A new table waits for its invited players before anyone plays (restored ones were
        # under way: they do not gather again).
        self._gathering = gathering
        self._pace = random.Random()  # the bots' varying pace (never the table's deal rng)
        self.timing = timing
        self.bots = bots  # where this table's bots think
        self.connections: set[Connection] = set()
        self.present = [0] * len(table.seats)  # open sockets per seat
        self.away_since: list[float | None] = [None] * len(table.seats)
        self.ready: set[int] = set()
        self._driver: asyncio.Task[None] | None = None
        self._ready_event = asyncio.Event()
        self._timers: dict[int, asyncio.TimerHandle] = {}  # per seat: its grace period
        # The turn timer (Table.turn_seconds): the move it runs for (Table.move_key), the
        # seat asked and the deadline, and the timer that makes the stand-in move then.
        self._turn: tuple[tuple[int, int, int], int, float] | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self.latencies: list[float] | None = None  # set to a list to record move latencies
        # Told of each finished match once it is stored (ratings.record_finished): what it
        # returns, the rating change, is shown to the table until the next match starts.
        self.on_match_over: Callable[[Table], Awaitable[dict[str, Any] | None]] | None = None
        self.rating: dict[str, Any] | None = None
        self._recorded = -1  # the match whose end was recorded
        now = time.monotonic()
        for seat, config in enumerate(table.seats):
            if config.kind == "human":
                # Restored (the player has yet to reconnect) or invited (yet to come).
                self.away_since[seat] = now
                self._arm_grace(seat)

    # ---- who is where ----------------------------------------------------------------------

    def presence(self) -> list[str]:
        """Per seat: ``bot``, ``dummy``, ``present``, ``away`` (dropped; a bot stands in after
        the grace period: ``stand_in``) or ``waiting`` (invited, never came)."""
        out: list[str] = []
        for seat, config in enumerate(self.table.seats):
            if config.kind in ("bot", "dummy"):
                out.append(config.kind)
            elif self.present[seat]:
                out.append("present")
            elif self._stand_in(seat):
                out.append("stand_in")
            else:
                out.append("away" if self.table.seats[seat].claimed else "waiting")
        return out

    def gathering(self) -> bool:
        """Whether the table still waits for an invited player before its first card."""
        if self._gathering and "waiting" not in self.presence():
            self._gathering = False
        return self._gathering

    def waits(self) -> list[float | None]:
        """Per seat: the seconds left before a bot stands in for its missing person (None for
        a seat that is present, a bot's, or already played for)."""
        now = time.monotonic()
        out: list[float | None] = []
        for seat, since in enumerate(self.away_since):
            if since is None or self.present[seat] or self.table.seats[seat].kind != "human":
                out.append(None)
            else:
                left = self._wait_for(seat) - (now - since)
                out.append(round(left, 1) if left > 0 else None)
        return out

    def _put_stand_in(self, conn: Connection, message: dict[str, Any]) -> None:
        """The host has a bot play now for a missing person (``seat``), or for every one."""
        table = self.table
        if conn.seat is None or conn.seat != table.host:
            raise TableError("only the table's host may put a bot in for a missing player",
                             "not_host")
        wanted = message.get("seat")
        missing = [s for s, left in enumerate(self.waits()) if left is not None]
        if wanted is None:
            seats = missing
        elif type(wanted) is int and wanted in missing:
            seats = [wanted]
        else:
            raise TableError(f"seat {str(wanted)[:20]} has nobody missing to stand in for",
                             "bad_seat")
        now = time.monotonic()
        for seat in seats:
            self.away_since[seat] = now - self._wait_for(seat)
            if seat in self._timers:
                self._timers[seat].cancel()
        self.broadcast()
        self.kick()

    def _wait_for(self, seat: int) -> float:
        """How long a seat's player may be missing before a bot stands in for him."""
        return self.timing.grace if self.table.seats[seat].claimed else self.timing.invite_wait

    def _stand_in(self, seat: int) -> bool:
        since = self.away_since[seat]
        return since is not None and time.monotonic() - since >= self._wait_for(seat)

    def bot_plays(self, seat: int) -> bool:
        config = self.table.seats[seat]
        return config.kind == "bot" or (not self.present[seat] and self._stand_in(seat))

    # ---- the turn timer --------------------------------------------------------------------

    def _timed_seat(self) -> int | None:
        """The person's seat whose move the turn timer runs for now, if any: a table with a
        timer, a move asked of a person no bot plays for, the table not gathering."""
        table = self.table
        if table.turn_seconds is None or table.phase != "playing":
            return None
        asked = table.asked()
        if asked is None or table.seats[asked[0]].kind != "human" or self.bot_plays(asked[0]):
            return None
        return None if self.gathering() else asked[0]

    def _arm_turn(self) -> None:
        """Start the turn timer for the move asked now (once per move: a change that is no
        move, a name or a cry that goes on, keeps its deadline)."""
        seat = self._timed_seat()
        if seat is None:
            if self._turn_timer is not None:
                self._turn_timer.cancel()
            self._turn, self._turn_timer = None, None
            return
        key = self.table.move_key()
        if self._turn is not None and self._turn[:2] == (key, seat):
            return
        assert self.table.turn_seconds is not None
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn = (key, seat, time.monotonic() + self.table.turn_seconds)
        self._turn_timer = asyncio.get_running_loop().call_later(
            self.table.turn_seconds + 0.01, self.kick)

    def turn(self) -> dict[str, Any] | None:
        """The turn timer as the views show it: the seat, its seconds, and those left (the
        server's clock; each page counts down from it)."""
        if self._turn is None or self._turn[:2] != (self.table.move_key(), self._timed_seat()):
            return None
        _, seat, deadline = self._turn
        left = max(0.0, deadline - time.monotonic())
        return {"seat": seat, "seconds": self.table.turn_seconds, "left": round(left, 1)}

    def _turn_over(self, seat: int) -> bool:
        """Whether the turn timer ran out on ``seat``'s move now asked: its stand-in makes
        that one move (the player stays seated)."""
        turn = self._turn
        return (turn is not None and turn[:2] == (self.table.move_key(), seat)
                and time.monotonic() >= turn[2])

    def moves_for(self, seat: int) -> bool:
        """Whether a bot makes ``seat``'s move now: its own, a stand-in for a missing person,
        or the stand-in for a person whose turn timer ran out."""
        return self.bot_plays(seat) or self._turn_over(seat)

    def _arm_grace(self, seat: int) -> None:
        if seat in self._timers:
            self._timers[seat].cancel()
        loop = asyncio.get_running_loop()
        self._timers[seat] = loop.call_later(self._wait_for(seat) + 0.01, self._grace_over)

    def _grace_over(self) -> None:
        self.broadcast()
        self.kick()

    # ---- connections -----------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.used = self.clock()
        if self.table.sealed and conn.seat is None:
            # Its deals are other tables' too (a duplicate round): what a spectator sees here
            # is a hidden card there. Nothing is sent until the socket joins a seat.
            conn.push("error", _error("no_spectators", NO_SPECTATORS))
            return
        if not self.table.pending:  # else the change, once stored, is sent to all (_save)
            conn.push("state", self._state_message(conn.seat, {}))

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        self.connections.discard(conn)
        self.used = self.clock()
        seat = conn.seat
        if seat is not None:
            self.present[seat] -= 1
            if not self.present[seat]:
                self.away_since[seat] = time.monotonic()
                self.ready.discard(seat)
                self._ready_event.set()  # one fewer player to wait for between deals
                self._arm_grace(seat)
                self.broadcast()
                self.kick()

    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """One message from a socket: act on it, or answer that socket with an error. A change
        is stored before anyone sees it; while it waits for the store, the table's other
        messages wait (the room's lock), every other table goes on."""
        try:
            received = time.perf_counter()
            message = self._read(conn, raw)
            async with self.lock:
                if message["type"] == "ping":
                    # Under the lock: answered after any change before it is stored and sent
                    # (a client's sync point, whichever socket made the change).
                    conn.push("pong", '{"type": "pong"}')
                    return
                if message["type"] == "join":
                    await self._join(conn, message.get("token"))
                    return
                ready = set(self.ready)  # a rematch the store refuses: still asked for
                self._handle(conn, message, received)
                await self._save(ready)
                self.broadcast()
        except (TableError, IllegalMoveError) as error:
            code = error.code if isinstance(error, TableError) else error.reason
            conn.push("error", _error(code, str(error)))

    async def _save(self, ready: set[int] | None = None) -> None:
        """Store the table's pending writes (the change just made), or, if the store fails,
        roll the table back to what the store holds (and who was ready to ``ready``) and
        raise ``storage_unavailable``. A caller cancelled meanwhile (its socket's task) still
        settles the table before it gives up the room's lock: a table is never left with
        writes pending (nothing would be shown of it again) nor changed behind a write."""
        table = self.table
        if not table.pending or self.writer is None:
            return
        job = asyncio.ensure_future(self.writer.save(table.pending))
        cancelled = False
        while not job.done():
            try:
                await asyncio.wait({job})
            except asyncio.CancelledError:
                cancelled = True
        try:
            match_id = job.result()
        except (StorageUnavailable, asyncio.CancelledError) as error:
            if not self._outage:
                self._outage = True
                log.warning("table %s: the store failed (%s); its changes are refused until "
                            "it works again", table.id, error or "the writer stopped")
            self.table = table.rolled_back()
            if ready is not None:
                self.ready = ready
            self.broadcast()  # nothing changed; those who came meanwhile get their view
            if cancelled:
                raise asyncio.CancelledError from None
            raise TableError(UNSAVED, "storage_unavailable") from None
        table.saved(match_id)
        self._outage = False
        self.match_over()
        if cancelled:
            self.broadcast()  # stored, so shown, as the caller would have
            raise asyncio.CancelledError

    def match_over(self) -> None:
        """Once a finished match is stored, record it (ratings) in the background."""
        table = self.table
        if (self.on_match_over is None or table.phase != "match_over" or table.pending
                or table.match_id < 0 or self._recorded == table.match_id):
            return
        self._recorded = table.match_id
        asyncio.get_running_loop().create_task(self._record(table))

    async def _record(self, table: Table) -> None:
        assert self.on_match_over is not None
        try:
            shown = await self.on_match_over(table)
        except Exception as error:  # the match is stored; only its rating waits
            log.warning("table %s: match %d not recorded for ratings: %s: %s", table.id,
                        table.match_id, type(error).__name__, error)
            self._recorded = -1
            return
        if shown is not None and self.table.match_id == shown["match"]:
            self.rating = shown
            self.broadcast()

    def _read(self, conn: Connection, raw: str | bytes) -> dict[str, Any]:
        """A message checked for its rate, size and shape."""
        if conn.bucket is not None and not conn.bucket.take():
            raise TableError(f"too many messages: at most {conn.bucket.rate:g} a second",
                             "rate_limited")  # dropped unread: it changes nothing
        if len(raw) > MAX_MESSAGE:
            raise TableError(f"message too large ({len(raw)} bytes; at most {MAX_MESSAGE})",
                             "too_large")
        try:
            message = parse_json(raw)
        except NotJsonError:
            raise TableError("not JSON", "malformed") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise TableError("a message is a JSON object with a 'type'", "malformed")
        return message

    def _handle(self, conn: Connection, message: dict[str, Any], received: float) -> None:
        """A message's change of the table (stored after, by :meth:`handle`)."""
        kind = message["type"]
        if kind not in (*ACTION_TYPES, "next", "rematch", "name", "stand_in"):
            raise TableError(f"unknown message type {kind[:40]!r}", "malformed")
        seat = conn.seat
        if seat is None:
            raise TableError("join a seat with its token first; spectators cannot act",
                             "not_seated")
        if kind == "stand_in":
            self._put_stand_in(conn, message)
            return
        if kind == "name":
            name = message.get("name")
            if not isinstance(name, str):
                raise TableError("'name' must be text", "malformed")
            self.table.rename(seat, name)
            self.broadcast()
            return
        if kind in ACTION_TYPES:
            self.table.submit(seat, client_action(message))
            self.broadcast()
            if self.latencies is not None:
                self.latencies.append(time.perf_counter() - received)
            self.kick()
        elif kind == "next":
            if self.table.phase != "deal_over":
                raise TableError("the deal is not over", "not_now")
            self.ready.add(seat)
            self._ready_event.set()
            self.broadcast()
            self.kick()
        else:
            if self.table.phase != "match_over":
                raise TableError("the match is not over", "not_now")
            self.ready.add(seat)
            if self._everyone_ready():
                self.ready.clear()
                self.table.start_match()
            self.broadcast()
            self.kick()

    async def _join(self, conn: Connection, token: Any) -> None:
        if not isinstance(token, str) or len(token) > 64:
            raise TableError("'token' must be a seat token", "malformed")
        seat = self.table.seat_for_token(token)
        if seat is None:
            raise TableError("that token is not a seat of this table", "bad_token")
        if conn.seat == seat:
            conn.push("joined", json.dumps({"type": "joined", "seat": seat}))
            return
        if conn.seat is not None:
            # One socket, one seat: a page is one player's. Moving it would leave its first
            # seat to a stand-in behind the player's back; a second seat takes a socket of its
            # own (docs/server.md).
            raise TableError(f"this connection already sits at seat {conn.seat}; open another "
                             "connection for another seat", "already_seated")
        if conn.account is not None:
            self.table.link_account(seat, *conn.account)
        self.table.claim(seat)
        await self._save()  # the seat is the player's once that is stored (a restart knows)
        conn.seat = seat
        self.present[seat] += 1
        self.away_since[seat] = None
        self._ready_event.set()  # a table waiting between deals for a person has one now
        conn.push("joined", json.dumps({"type": "joined", "seat": seat}))
        self.broadcast()
        self.kick()

    async def take_open_seat(self, seat: int, name: str) -> str:
        """A stranger takes a free seat of an open table (:meth:`Table.take_open_seat`): the
        token is handed out once the seat is stored as his."""
        async with self.lock:
            token = self.table.take_open_seat(seat, name)
            await self._save()
        self.broadcast()
        return token

    def _everyone_ready(self) -> bool:
        seats = self.table.seats
        return all(s in self.ready for s in range(len(seats))
                   if seats[s].kind == "human" and self.present[s])

    # ---- sending ---------------------------------------------------------------------------

    def _state_message(self, seat: int | None, cache: dict[int | str | None, str]) -> str:
        """The state message for ``seat`` (None: a spectator). The table's public part is the
        same for every viewer, so it is encoded once per change and spliced into each."""
        if seat not in cache:
            if "common" not in cache:
                common = views.table_part(self.table, self.presence(), self.ready,
                                          waits=self.waits(), gathering=self.gathering(),
                                          turn=self.turn())
                if self.rating is not None and self.rating["match"] == self.table.match_id:
                    common["rating"] = self.rating  # the finished match's rating change
                cache["common"] = json.dumps(common, separators=(",", ":"))[1:-1]
            part = (views.public_part(self.table) if seat is None
                    else views.seat_part(self.table, seat))
            own = json.dumps(part, separators=(",", ":"))[1:-1]
            cache[seat] = f'{{"type":"state","view":{{{cache["common"]},{own}}}}}'
        return cache[seat]

    def broadcast(self) -> None:
        """Send every connection the view of its seat (each view built once per change).
        Nothing of a change is sent before it is stored: with writes pending, nothing is
        (the change, once stored, is broadcast then)."""
        if self.table.pending:
            return
        self.used = self.clock()
        self._arm_turn()  # a move asked of a person: his deadline, in the views sent now
        cache: dict[int | str | None, str] = {}
        sealed = self.table.sealed
        for conn in self.connections:
            if not (sealed and conn.seat is None):
                conn.push("state", self._state_message(conn.seat, cache))
        if self.watcher is not None:
            self.watcher.changed(self)  # what the lobby lists may have changed too

    # ---- bots and the flow of the match ----------------------------------------------------

    def kick(self) -> None:
        """Make sure the driver runs if a bot is to play or a deal is to be dealt (and the
        turn timer runs for a person's move)."""
        self._arm_turn()
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        pause = RETRY_FIRST
        try:
            while True:
                try:
                    if not await self._step():
                        return
                    pause = RETRY_FIRST
                except TableError as error:
                    if error.code != "storage_unavailable":
                        raise
                    # The store refused a bot's move or a deal (logged once per outage by
                    # _save): the table is as it was; try again later, less and less often.
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MOST)
        except Exception:  # a bug must not kill the server; the table stays where it was
            log.exception("table %s: the driver failed", self.table.id)

    async def _step(self) -> bool:
        """Advance the table by one thing a human does not do; False when there is none."""
        table = self.table
        if table.phase == "deal_over":
            await self._await_ready()
            async with self.lock:
                if self.table.phase == "deal_over":
                    self.table.deal_next()
                    await self._save()
                    self.ready.clear()
            self.broadcast()
            return True
        asked = table.asked()
        # The redeal question waits for every person, even one whose hand may only be kept:
        # keeping for him at once would tell everyone watching who holds a weak hand.
        if asked is None or self.gathering() or not self.moves_for(asked[0]):
            return False
        seat, request = asked
        state = table.state
        assert state is not None
        version = table.version
        # A move the turn timer gives the stand-in is late already: made at once.
        pace = 0.0 if not self.bot_plays(seat) else self.bot_pace(request)
        if (self.timing.trick_pause and not state.trick and state.plays
                and not table.rules.no_looking_back):
            await asyncio.sleep(self.timing.trick_pause)  # the trick taken, on the cloth
        thinking = time.monotonic()
        if self.table.version != version or not self.moves_for(seat):
            return True  # something changed meanwhile (the player came back): look again
        standing_in = table.seats[seat].kind == "human"
        action: Action
        if standing_in and type(request) is AskRedeal:
            # A stand-in never asks for a new deal: an ask cannot be taken back, and the
            # absent player may come back to the hand he was dealt.
            action = Redeal(False)
        else:
            # A broken or illegal bot must not stall the table: decide plays a plain choice.
            bot, info = table.bot_to_move(standing_in)
            action = await self.bots.decide(bot, info, table=table.id,
                                            where=f"table {table.id}")
        left = pace - (time.monotonic() - thinking)  # the thinking counts toward the pace
        if left > 0:
            await asyncio.sleep(left)
        async with self.lock:
            if self.table.version != version or not self.moves_for(seat):
                return True  # a denunciation, the player came back, a rollback: look again
            self.table.submit(seat, action, stand_in=standing_in)
            await self._save()
        self.broadcast()
        return True

    def bot_pace(self, request: Request) -> float:
        """How long a bot takes over a move, its thinking included: a person's pace, a little
        different each time (``Timing.bot_delay`` times 0.75 to 1.6), and quicker when the
        move is forced (one card to play: half the delay)."""
        delay = self.timing.bot_delay
        if type(request) is AskCard and len(request.legal) == 1:
            return delay * self._pace.uniform(0.4, 0.6)
        return delay * self._pace.uniform(0.75, 1.6)

    async def _await_ready(self) -> None:
        """At the end of a deal, wait for every present player to be ready (or the pause).
        A table of people none of whom is there (a restored table nobody has reopened yet,
        or one everybody left) keeps the summary until one comes back, then waits the pause
        for them: the next deal is never dealt to an empty room. Bots alone pause a moment."""
        if not any(self.present):
            if not any(seat.kind == "human" for seat in self.table.seats):
                if self.timing.bot_delay:
                    await asyncio.sleep(self.timing.bot_delay * 3)
                return
            while not any(self.present):
                self._ready_event.clear()
                await self._ready_event.wait()  # set when a player joins
        deadline = time.monotonic() + self.timing.deal_pause
        while not self._everyone_ready():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._ready_event.clear()
            try:
                await asyncio.wait_for(self._ready_event.wait(), left)
            except TimeoutError:
                return

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        if self._driver is not None:
            self._driver.cancel()
        self.table.close()


class Rooms:
    """Every table the server holds, by id."""

    def __init__(self, storage: Storage, timing: Timing, *, seed: int | None = None,
                 bot_threads: int = 2, bot_workers: int = 0, max_rooms: int = MAX_ROOMS,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, writer_threads: int = 1) -> None:
        self.storage = storage
        # Every call on the store, off the event loop (threads > 1: a pooled store's).
        self.writer = StorageWriter(storage, writer_threads)
        self._outage = False  # new tables could not be stored, and none has been since
        self.timing = timing
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        # Bots think in bot_workers processes (sueca serve: min(cores, 4)), or with 0 in
        # bot_threads threads of this process (tests).
        self.bots: BotRunner = (BotPool(bot_workers, threads=bot_threads) if bot_workers > 0
                                else ThreadBots(bot_threads))
        self.rooms: dict[str, Room] = {}
        self.watcher: RoomWatcher | None = None  # the lobby's index (lobby.LobbyIndex)
        # Each finished match's record (ratings.record_finished; the app sets it).
        self.on_match_over: Callable[[Table], Awaitable[dict[str, Any] | None]] | None = None
        self.max_rooms = max_rooms
        self.clock = clock  # idle times (monotonic)
        self.wall = wall  # a table's age (its ``created`` is wall-clock time)
        self._loading = asyncio.Lock()  # one table read back from the store at a time
        self._sweeper: asyncio.Task[None] | None = None

    async def restore(self) -> None:
        """Load the stored tables and set their bots going (after a restart): every table in
        play, and those whose match ended in the last day (for a rematch). A table that cannot
        be restored is reported in one line and skipped: every other table runs."""
        stored_tables = await self.writer.open_tables(time.time() - RESTORE_FINISHED)
        self._start_sweeping()
        for stored in stored_tables:
            if stored.settings.get("closed") is not None:
                continue  # closed: nobody it invited came (its links say so)
            try:
                table = Table.restore(stored, self.storage, self.rng, autosave=False)
            except Exception as error:
                log.warning("table %s skipped: it cannot be restored: %s: %s",
                            stored.id, type(error).__name__, error)
                continue
            room = self._add(table)
            try:
                await room._save()  # a deal dealt again, a score the server had not stored
            except TableError:
                log.warning("table %s skipped: the store refused what restoring it wrote",
                            stored.id)
                self.rooms.pop(table.id, None)
                room.close()
                continue
            room.kick()

    async def create(self, rules_data: Any, seats_data: Any, open_seats: bool = False,
                     practice: bool = False, *, deals_seed: int | None = None,
                     hosted: bool = True, turn_seconds: Any = None) -> Room:
        """A new table, stored before anyone hears of it (``storage_unavailable``: it was
        not, and there is none). ``deals_seed``, ``hosted``: a tournament's table
        (:meth:`Table.create`); ``turn_seconds``: the turn timer (a request's, checked)."""
        from sueca.server.tables import parse_rules, parse_seats, parse_turn_seconds

        rules = parse_rules(rules_data)
        seats = parse_seats(seats_data, rules)
        timer = parse_turn_seconds(turn_seconds)
        table_id = secrets.token_urlsafe(6)
        table = Table.create(table_id, rules, seats, self.storage, self.rng,
                             open_seats=open_seats, created=self.wall(), autosave=False,
                             practice=practice, deals_seed=deals_seed, hosted=hosted,
                             turn_seconds=timer)
        try:
            table.saved(await self.writer.save(table.pending))
        except StorageUnavailable as error:
            table.close()
            if not self._outage:  # one line per outage, however many tables are asked for
                self._outage = True
                log.warning("a new table could not be stored (%s)", error)
            raise TableError("the table could not be saved; nothing changed; try again",
                             "storage_unavailable") from None
        self._outage = False
        room = self._add(table, gathering=True)
        room.kick()
        return room

    def _add(self, table: Table, *, gathering: bool = False) -> Room:
        room = Room(table, self.timing, self.bots, gathering=gathering, writer=self.writer)
        room.clock = self.clock
        room.used = self.clock()
        self.rooms[table.id] = room
        self._start_sweeping()
        if len(self.rooms) > self.max_rooms:
            self._evict_least_used(keep=table.id)
        room.watcher = self.watcher
        room.on_match_over = self.on_match_over
        if self.watcher is not None:
            self.watcher.changed(room)
        room.match_over()  # a match that ended before a restart, not yet recorded
        return room

    def get(self, table_id: str) -> Room | None:
        """The table if it is in memory (see :meth:`find`)."""
        return self.rooms.get(table_id)

    async def find(self, table_id: str) -> Room:
        """The table a link names: in memory, or read back from the store (evicted, or not
        restored at start: a finished match of long ago), at the move where it stopped.
        Raises :class:`TableError` ``no_table``, or ``table_closed`` for a table none of whose
        invited players came."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if not table_id or len(table_id) > TABLE_ID_MAX:
            raise TableError("no such table", "no_table")
        async with self._loading:
            room = self.rooms.get(table_id)  # read back meanwhile by another socket
            if room is not None:
                return room
            try:
                stored = await self.writer.load_table(table_id)
            except StorageUnavailable:
                raise TableError("the table cannot be read now; try again",
                                 "storage_unavailable") from None
            if stored is None:
                raise TableError("no such table", "no_table")
            if stored.settings.get("closed") is not None:
                raise TableError("this table was closed: none of its invited players came",
                                 "table_closed")
            try:
                table = Table.restore(stored, self.storage, self.rng, autosave=False)
            except Exception as error:
                log.warning("table %s cannot be restored: %s: %s", table_id,
                            type(error).__name__, error)
                raise TableError("this table cannot be restored", "no_table") from None
            room = self._add(table)
            try:
                await room._save()
            except TableError:
                self.evict(table_id)
                raise
            room.kick()
            return room

    # ---- memory: tables leave it, and come back from the store -----------------------------

    def evict(self, table_id: str) -> None:
        """Take a table out of memory (its bots released, its timers stopped); the store keeps
        it whole, so :meth:`find` brings it back at the same move."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        room.close()
        if self.watcher is not None:
            self.watcher.removed(table_id)

    def _idle(self, room: Room) -> bool:
        # No socket, and no change waiting for the store.
        return not room.connections and not room.lock.locked()

    def _evict_least_used(self, keep: str) -> None:
        """Past :attr:`max_rooms`, the idle tables used longest ago leave memory (a table
        someone has open never does: the cap then waits for one to be left)."""
        idle = sorted((room for room in self.rooms.values()
                       if room.table.id != keep and self._idle(room)), key=lambda r: r.used)
        for room in idle[:len(self.rooms) - self.max_rooms]:
            self.evict(room.table.id)

    async def sweep(self) -> None:
        """Evict the tables nobody has open for long (a match over, a table of people), and
        close those none of whose invited players ever came (:class:`Timing`)."""
        timing, now = self.timing, self.clock()
        for room in list(self.rooms.values()):
            if not self._idle(room):
                continue
            table, idle = room.table, now - room.used
            if table.unvisited() and self.wall() - table.created >= timing.invite_close:
                async with room.lock:
                    room.table.close_unvisited(self.wall())
                    try:
                        await room._save()
                    except TableError:
                        continue  # the store fails: closed at a later sweep
                log.info("table %s closed: none of its invited players came", table.id)
                self.evict(table.id)
            elif ((table.phase == "match_over" and idle >= timing.finished_evict)
                  or (any(seat.kind == "human" for seat in table.seats)
                      and idle >= timing.abandoned_evict)):
                self.evict(table.id)

    def _start_sweeping(self) -> None:
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_every())

    async def _sweep_every(self) -> None:
        while True:
            await asyncio.sleep(self.timing.sweep)
            try:
                await self.sweep()
            except Exception:  # a bug must not stop the sweeps, nor flood the log
                log.exception("the sweep of idle tables failed")
                await asyncio.sleep(60)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            room.close()
        self.bots.close()
        self.writer.close()
