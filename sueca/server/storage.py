"""Where the server keeps tables and matches: one small interface, one SQLite implementation.

The game code talks to :class:`Storage` only, in plain data (dicts, strings, ints), so another
backend (PostgreSQL, say) is a new class with the same methods and nothing else changes. Every
call is synchronous; the server makes them all from one thread of their own
(:class:`~sueca.server.writer.StorageWriter`), which its event loop awaits and never blocks on.
A change of a table is a batch of :class:`Write` values stored in one short transaction
(:meth:`Storage.save`) before anyone sees it, so every move is on disk the moment it is shown
and a server killed with SIGKILL loses nothing (SQLite's write-ahead log,
``synchronous=NORMAL``, survives a crash of the process). A lock held elsewhere fails a write
after :data:`BUSY_TIMEOUT` rather than sqlite's default 5 s.

A match is stored as one history: each deal as dealt (dealer, hands, turned card), and every
move of it in order, each with the seat that made it and its action as
:meth:`sueca.actions.Play.to_dict` and the others write it (``{"type": "play", "card": "7H"}``,
``{"type": "bid", "value": 75}``, ``{"type": "redeal", "ask": false}``,
``{"type": "denounce"}``). The table rebuilds itself by playing them again through the referee
(:mod:`sueca.server.history`); a deal annulled by a redeal is a deal whose last action asks for
a new one.

The schema has a version, SQLite's ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`). A
database written before it had one (the ``plays`` table and the ``deals.auction`` column) is
migrated when it is opened: every stored card, bid, called card and redeal answer becomes an
action, in one transaction, after a copy of the file is kept beside it.

One server at a time: a server holds its database, for its life, by an exclusive lock on
``<db>.lock`` beside it (``lock=True``; :class:`DatabaseInUseError` for a second one), so two
servers never run the same tables. Reading the database beside a server (``lock=False``, as an
``sqlite3`` shell would) stays allowed. The write-ahead log is bounded
(:data:`JOURNAL_SIZE_LIMIT`): a passive checkpoint every second, and one that truncates the log
whenever steady writes outrun it.

>>> store = SQLiteStorage(":memory:")
>>> store.create_table("t1", {"seats": []})
>>> mid = store.start_match("t1", {"variant": "standard"}, first_dealer=0, seats=["a", "b"])
>>> store.add_deal(mid, 0, 0, ["AS", "2S", "3S", "4S"], "AS")
>>> store.add_action(mid, 0, 0, 1, {"type": "play", "card": "2S"})
>>> [t.id for t in store.open_tables()], store.load_match(mid).deals[0].actions
(['t1'], [(1, {'type': 'play', 'card': '2S'})])
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from sueca.record import GameRecord
from sueca.rules import Rules, RulesError
from sueca.server.history import LegacyDeal, StoredHistoryError, legacy_actions, record_of
from sueca.server.players import SQLITE_SCHEMA, Execute, PlayerRows
from sueca.server.tournament_rows import SQLITE_SCHEMA as TOURNAMENT_SCHEMA
from sueca.server.tournament_rows import TournamentRows

log = logging.getLogger("sueca.server")

SCHEMA_VERSION = 3
"""1: one ``actions`` table for every move (0, unversioned: ``plays`` and ``deals.auction``);
2: accounts, the players of finished matches, ratings and stand-ins' moves
(:mod:`sueca.server.players`); 3: tournaments (:mod:`sueca.server.tournament_rows`)."""

BUSY_TIMEOUT = 0.5
"""Seconds a write waits for a lock another connection holds (a backup, an ``sqlite3`` shell)
before it fails: a move is refused, and may be tried again, rather than held for seconds."""

JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
"""The most bytes the write-ahead log is left holding: past it, a checkpoint truncates it."""


class StorageError(RuntimeError):
    """A database this server cannot use (written by a newer version of it, or in use)."""


class DatabaseInUseError(StorageError):
    """Another server holds the database (its lock file is locked)."""


@dataclass(frozen=True)
class StoredDeal:
    """One deal as stored: as dealt (cards by name, RECORD.md notation), and its moves in
    order, each the seat that made it and the action's dict."""

    index: int  # its row among the match's deals (annulled deals have rows too)
    dealer: int
    hands: list[str]
    trump_card: str | None  # None at a bidding table
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def annulled(self) -> bool:
        """Whether a seat asked for a new deal (weak_hand_redeal): the same dealer dealt
        again."""
        return any(a == {"type": "redeal", "ask": True} for _, a in self.actions)


@dataclass(frozen=True)
class StoredMatch:
    """One match as stored: its rules (a RECORD.md ``rules`` object), its deals and how it
    ended. :attr:`record` is the RECORD.md record of it."""

    id: int
    table_id: str
    number: int  # 1 for a table's first match, 2 for its rematch, …
    rules: dict[str, Any]
    first_dealer: int
    deals: list[StoredDeal]
    seats: list[str]  # the players' names, seat by seat
    started: float
    finished: float | None
    score: list[int] | None
    winner: int | None
    practice: bool = False  # its table's practice setting (hints on request; never rated)
    # Who made each stored move that was no person's: (deal row, move) -> the seat a stand-in
    # bot moved for (its absent person's, or one whose turn timer ran out); every other move
    # was the seat's own (a person's, or a bot seat's). Read from the stand_ins rows
    # (schema 2; a match stored before has none: its moves count as the people's).
    stand_ins: dict[tuple[int, int], int] = field(default_factory=dict)

    def stand_in_share(self, seat: int) -> float:
        """The share of the moves ``seat``'s person had to make (his cards, bids and calls,
        and the dummy's cards he plays) that a stand-in bot made for him: 0.0 for a seat
        nobody stood in for (or that made no move)."""
        if not self.stand_ins:
            return 0.0
        controller = _controller(self.rules)
        made = sum(1 for deal in self.deals for mover, _ in deal.actions
                   if controller(mover) == seat)
        if not made:
            return 0.0
        return sum(1 for s in self.stand_ins.values() if s == seat) / made

    @property
    def played_deals(self) -> int:
        """How many deals were played (or are being played): the annulled ones aside."""
        return sum(1 for deal in self.deals if not deal.annulled)

    @cached_property
    def record(self) -> GameRecord:
        """The match as a RECORD.md record (its moves played again: see
        :func:`sueca.server.history.record_of`)."""
        return record_of(self)


def _controller(rules: dict[str, Any]) -> Callable[[int], int]:
    """Who decides a stored move's seat: the dummy's partner for the dummy's cards."""
    try:
        return Rules.from_dict(rules).controller_of
    except (RulesError, ValueError, TypeError):
        return lambda seat: seat


@dataclass(frozen=True)
class StoredTable:
    """A table's settings (seats, tokens, options) and its latest match."""

    id: str
    created: float
    settings: dict[str, Any]
    match: StoredMatch | None


NEW_MATCH = -1
"""In a :class:`Write` of a batch, the id of the match a ``start_match`` earlier in the same
batch starts (not known until it is written)."""


@dataclass(frozen=True)
class Write:
    """One write the server asks of its store, as plain data: a :class:`Storage` method's name
    and its arguments. A table collects the writes a change makes and stores them together
    (:meth:`Storage.save`) before anyone sees the change."""

    method: str  # create_table, save_settings, start_match, add_deal, add_action, score_match
    args: tuple[Any, ...]  # (add_stand_in: the move just added was a stand-in bot's)


WRITE_METHODS = frozenset({"create_table", "save_settings", "start_match", "add_deal",
                           "add_action", "score_match", "add_stand_in", "name_seats"})


def apply_writes(storage: Storage, writes: Sequence[Write]) -> int | None:
    """Make ``writes`` on ``storage`` in order (each through its method), the match id a
    ``start_match`` among them returns put where later ones say :data:`NEW_MATCH`; that id, or
    ``None``. A backend's :meth:`Storage.save` calls this inside its one transaction."""
    started: int | None = None
    for write in writes:
        if write.method not in WRITE_METHODS:
            raise ValueError(f"no such write: {write.method!r}")
        args = write.args
        if args and args[0] == NEW_MATCH and write.method != "start_match":
            if started is None:
                raise ValueError(f"{write.method} of a new match before its start_match")
            args = (started, *args[1:])
        result = getattr(storage, write.method)(*args)
        if write.method == "start_match":
            started = int(result)
    return started


class Storage(Protocol):
    """What the server needs from a store. Implementations must make each write durable (or at
    least crash-safe) before returning: the server acknowledges a move only after storing it.
    The server calls a store from one thread at a time (:class:`~sueca.server.writer.
    StorageWriter`'s), never from its event loop."""

    def save(self, writes: Sequence[Write]) -> int | None:
        """Make ``writes`` in one transaction, all or none (:func:`apply_writes` inside it):
        a change of a table (a move and the deal it ends, a rematch and its first deal) is
        stored whole or not at all, so a refused change leaves the store as it was. Returns
        the id of a match a ``start_match`` among them started, else ``None``. A failure
        raises (``sqlite3.Error``, ``OSError``, the driver's own) with nothing written."""
        ...

    def create_table(self, table_id: str, settings: dict[str, Any]) -> None: ...

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None: ...

    def start_match(
        self, table_id: str, rules: dict[str, Any], first_dealer: int, seats: list[str]
    ) -> int: ...

    def add_deal(
        self, match_id: int, index: int, dealer: int, hands: list[str], trump_card: str | None
    ) -> None: ...

    def add_action(self, match_id: int, deal_index: int, seq: int, seat: int,
                   action: dict[str, Any]) -> None: ...

    def score_match(self, match_id: int, score: list[int], winner: int | None) -> None: ...

    def add_stand_in(self, match_id: int, deal_index: int, seq: int, seat: int) -> None:
        """The move ``seq`` of the deal was made by a stand-in bot for ``seat``'s absent
        person (a match with too many is not rated: :mod:`sueca.server.ratings`)."""
        ...

    def name_seats(self, match_id: int, seats: list[str]) -> None:
        """The match's players' names, seat by seat, as they are now (a person who gave his
        name after the match started: its history says it)."""
        ...

    def players(self) -> PlayerRows:
        """The accounts, match players and ratings of this store (:mod:`~sueca.server.
        players`); called, like the rest, from the writer's thread."""
        ...

    def tournaments(self) -> TournamentRows:
        """The tournaments of this store (:mod:`~sueca.server.tournament_rows`); from the
        writer's thread too."""
        ...

    def open_tables(self, finished_since: float = 0.0) -> list[StoredTable]:
        """The tables to restore; one whose stored rows cannot be read is logged and left
        out, so it never keeps the others from running."""
        ...

    def finished_matches(self, limit: int = 100) -> list[StoredMatch]: ...

    def load_match(self, match_id: int) -> StoredMatch | None: ...

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its latest match (a table evicted from memory, opened again), or
        ``None`` when there is no such table."""
        ...

    def close(self) -> None: ...


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        settings TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        rules TEXT NOT NULL,
        first_dealer INTEGER NOT NULL,
        seats TEXT NOT NULL,
        started REAL NOT NULL,
        finished REAL,
        score TEXT,
        winner INTEGER
    )""",
    "CREATE INDEX IF NOT EXISTS matches_by_table ON matches(table_id, number)",
    # A bidding table turns no card: its trump_card is stored as "" (the column is older).
    """CREATE TABLE IF NOT EXISTS deals (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        idx INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        hands TEXT NOT NULL,
        trump_card TEXT NOT NULL,
        PRIMARY KEY (match_id, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        match_id INTEGER NOT NULL,
        deal_idx INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (match_id, deal_idx, seq)
    )""",
)


class SQLiteStorage:
    """The embedded store: one SQLite file (``":memory:"`` for tests). ``lock``: hold the
    database's lock file for this store's life (the server does; a ``":memory:"`` database
    needs none). ``journal_size_limit`` bounds the write-ahead log; ``checkpoint_every`` is the
    checkpointer's pace in seconds (both for tests); ``busy_timeout``: how long a write waits
    for a lock held elsewhere."""

    def __init__(self, path: str | Path, *, lock: bool = False,
                 journal_size_limit: int = JOURNAL_SIZE_LIMIT,
                 checkpoint_every: float = 1.0, busy_timeout: float = BUSY_TIMEOUT) -> None:
        on_disk = str(path) != ":memory:"
        self.path: Path | None = Path(path) if on_disk else None  # None: in memory
        self._lock: int | None = None
        if on_disk:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if lock:
                self._lock = _lock_database(Path(path))
        self._busy_timeout = busy_timeout
        try:
            self._open(path, on_disk, journal_size_limit, checkpoint_every)
        except BaseException:
            self._unlock()
            raise

    def _open(self, path: str | Path, on_disk: bool, journal_size_limit: int,
              checkpoint_every: float) -> None:
        self._wal = Path(f"{path}-wal") if on_disk else None
        self._journal_size_limit = journal_size_limit
        # The server calls in from its writer thread, not the thread that opened the store
        # (nor do tests), hence check_same_thread=False; one thread at a time.
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                                   timeout=self._busy_timeout)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute(f"PRAGMA journal_size_limit={int(journal_size_limit)}")
        self._open_schema(Path(path) if on_disk else None)
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        # A truncating checkpoint makes writers wait; this server's own batches wait for it
        # here rather than fail after the busy timeout (meant for locks held elsewhere).
        self._truncating = threading.Lock()
        if on_disk:
            # A checkpoint copies the log into the database and syncs it to disk, which can
            # take tens of milliseconds: do it on another connection in another thread, so a
            # move is never kept waiting behind one (WAL lets writers go on meanwhile).
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(str(path), checkpoint_every), daemon=True,
                name="sueca-checkpoint")
            self._checkpointer.start()

    # ---- the schema and its migrations -------------------------------------------------------

    def _version(self) -> int:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        return int(version)

    def _has_table(self, name: str) -> bool:
        return self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (name,)).fetchone() is not None

    def _open_schema(self, path: Path | None) -> None:
        """Create the schema in a new database, or bring an older one up to
        :data:`SCHEMA_VERSION`; refuse one written by a newer server."""
        version = self._version()
        if version > SCHEMA_VERSION:
            raise StorageError(f"the database has schema version {version}, newer than this "
                               f"sueca's ({SCHEMA_VERSION}): upgrade sueca to open it")
        if version == SCHEMA_VERSION:
            return
        if path is not None and self._has_table("deals"):
            self._back_up(path, version)
        # One transaction: another process opening the same old file waits, then finds it
        # migrated; a failure leaves the database as it was.
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()  # read again under the lock
            if version < SCHEMA_VERSION:
                legacy = version == 0 and self._has_table("deals")
                if legacy and not self._has_table("actions"):
                    self._migrate_from_unversioned()
                else:
                    for statement in _SCHEMA:
                        self._db.execute(statement)
                for statement in SQLITE_SCHEMA:  # 1 -> 2: the people's tables
                    self._db.execute(statement)
                for statement in TOURNAMENT_SCHEMA:  # 2 -> 3: tournaments
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def _back_up(self, path: Path, version: int) -> None:
        """Keep a copy of a database about to be migrated beside it (``VACUUM INTO``: a
        consistent copy, whatever the write-ahead log holds)."""
        copy = path.with_name(f"{path.name}.schema{version}.bak")
        if copy.exists():
            return  # a copy from an earlier attempt: the older data is already safe
        self._db.execute("VACUUM INTO ?", (str(copy),))
        log.info("database %s: schema %d copied to %s before migrating", path, version, copy)

    def _migrate_from_unversioned(self) -> None:
        """Schema 0 → 1: every deal's ``plays`` rows and its ``auction`` column (a bidding
        table's bids and called card, or the redeal question's keeps and ask) become rows of
        ``actions``, each with the seat that made it, found by playing them through the
        referee; then the old table and column go. A match whose rows do not play (they were
        never written by the server) keeps what plays and is logged."""
        for statement in _SCHEMA:
            self._db.execute(statement)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(deals)")}
        auction = "auction" if "auction" in columns else "NULL"  # older still: no auctions
        plays: dict[tuple[int, int], list[str]] = {}
        if self._has_table("plays"):
            for match_id, deal_idx, card in self._db.execute(
                    "SELECT match_id, deal_idx, card FROM plays ORDER BY match_id, deal_idx, seq"):
                plays.setdefault((match_id, deal_idx), []).append(card)
        matches = self._db.execute(
            "SELECT id, rules, first_dealer FROM matches ORDER BY id").fetchall()
        converted = 0
        for match_id, rules_text, first_dealer in matches:
            deals = [LegacyDeal(idx, dealer, json.loads(hands), trump or None,
                                json.loads(text) if text else {}, plays.get((match_id, idx), []))
                     for idx, dealer, hands, trump, text in self._db.execute(
                         f"SELECT idx, dealer, hands, trump_card, {auction} FROM deals"
                         " WHERE match_id = ? ORDER BY idx", (match_id,))]
            try:
                moves = legacy_actions(json.loads(rules_text), first_dealer, deals)
            except StoredHistoryError as error:
                moves = error.converted
                log.warning("match %d: stored moves that do not play were not migrated: %s",
                            match_id, error)
            for idx, actions in moves:
                self._db.executemany(
                    "INSERT INTO actions (match_id, deal_idx, seq, seat, action)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(match_id, idx, seq, seat, json.dumps(action))
                     for seq, (seat, action) in enumerate(actions)])
            converted += 1
        self._db.execute("DROP TABLE IF EXISTS plays")
        if "auction" in columns:
            self._db.execute("ALTER TABLE deals DROP COLUMN auction")
        log.info("database migrated to schema %d: %d matches' moves are actions now",
                 SCHEMA_VERSION, converted)

    def _checkpoint_loop(self, path: str, every: float) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute(f"PRAGMA journal_size_limit={self._journal_size_limit}")
            while not self._stop.wait(every):
                self._checkpoint(db)
            self._checkpoint(db)
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        """Copy the log into the database without waiting for anyone (PASSIVE). Under steady
        writes that never catches up (new frames arrive while it copies, so the log is never
        wholly copied and never starts over): once the log is past its limit, a TRUNCATE
        checkpoint waits the writers out for a moment and empties it."""
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        if self._wal is not None and _size(self._wal) > self._journal_size_limit:
            with self._truncating:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _checkpoint_now(self) -> None:
        """One checkpoint, on this connection, now (tests)."""
        self._checkpoint(self._db)

    # ---- writes: each one its own transaction, or a batch in one ----------------------------

    def save(self, writes: Sequence[Write]) -> int | None:
        """Make ``writes`` in one transaction (:meth:`Storage.save`): all, or none."""
        with self._truncating:
            self._db.execute("BEGIN IMMEDIATE")
        try:
            started = apply_writes(self, writes)
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        return started

    def create_table(self, table_id: str, settings: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO tables (id, created, settings) VALUES (?, ?, ?)",
            (table_id, time.time(), json.dumps(settings)),
        )

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        self._db.execute(
            "UPDATE tables SET settings = ? WHERE id = ?", (json.dumps(settings), table_id)
        )

    def start_match(
        self, table_id: str, rules: dict[str, Any], first_dealer: int, seats: list[str]
    ) -> int:
        (number,) = self._db.execute(
            "SELECT COALESCE(MAX(number), 0) + 1 FROM matches WHERE table_id = ?", (table_id,)
        ).fetchone()
        cursor = self._db.execute(
            "INSERT INTO matches (table_id, number, rules, first_dealer, seats, started)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, number, json.dumps(rules), first_dealer, json.dumps(seats), time.time()),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_deal(
        self, match_id: int, index: int, dealer: int, hands: list[str], trump_card: str | None
    ) -> None:
        self._db.execute(
            "INSERT INTO deals (match_id, idx, dealer, hands, trump_card) VALUES (?, ?, ?, ?, ?)",
            (match_id, index, dealer, json.dumps(hands), trump_card or ""),
        )

    def add_action(self, match_id: int, deal_index: int, seq: int, seat: int,
                   action: dict[str, Any]) -> None:
        """The ``seq``-th move of a deal: ``seat`` (the rules' seat: the dummy's own for its
        cards) made ``action``."""
        self._db.execute(
            "INSERT INTO actions (match_id, deal_idx, seq, seat, action) VALUES (?, ?, ?, ?, ?)",
            (match_id, deal_index, seq, seat, json.dumps(action)),
        )

    def score_match(self, match_id: int, score: list[int], winner: int | None) -> None:
        """The match's score after a deal. With a ``winner`` the match is over: finished now,
        or when first won. A won match is never reopened (the referee refuses a late
        *renúncia!* once it is won), so a finished time, once set, stays."""
        self._db.execute(
            "UPDATE matches SET score = ?, winner = ?, finished = COALESCE(finished, ?)"
            " WHERE id = ?",
            (json.dumps(score), winner, None if winner is None else time.time(), match_id),
        )

    def add_stand_in(self, match_id: int, deal_index: int, seq: int, seat: int) -> None:
        self._db.execute("INSERT INTO stand_ins (match_id, deal_idx, seq, seat)"
                         " VALUES (?, ?, ?, ?)", (match_id, deal_index, seq, seat))

    def name_seats(self, match_id: int, seats: list[str]) -> None:
        self._db.execute("UPDATE matches SET seats = ? WHERE id = ?",
                         (json.dumps(seats), match_id))

    def players(self) -> PlayerRows:
        return PlayerRows(self._player_transaction)

    def tournaments(self) -> TournamentRows:
        return TournamentRows(self._player_transaction)

    @contextmanager
    def _player_transaction(self) -> Iterator[Execute]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield lambda sql, params=(): self._db.execute(sql, params).fetchall()
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    # ---- reads -----------------------------------------------------------------------------

    def open_tables(self, finished_since: float = 0.0) -> list[StoredTable]:
        """The tables to restore after a restart, each with its latest match: every table
        whose match is still being played, and those whose match finished at or after
        ``finished_since`` (a rematch may yet be asked for there)."""
        out = []
        rows = self._db.execute(
            "SELECT t.id, t.created, t.settings, m.id FROM tables t"
            " LEFT JOIN matches m ON m.table_id = t.id AND m.number ="
            " (SELECT MAX(number) FROM matches WHERE table_id = t.id)"
            " WHERE m.id IS NULL OR m.finished IS NULL OR m.finished >= ?"
            " ORDER BY t.created",
            (finished_since,),
        )
        for table_id, created, settings, match_id in rows.fetchall():
            try:
                match = self.load_match(match_id) if match_id is not None else None
                out.append(StoredTable(table_id, created, json.loads(settings), match))
            except (ValueError, TypeError, sqlite3.DatabaseError) as error:
                # One line, no traceback: a corrupt row is the data's fault, not the code's.
                log.warning("table %s skipped: its stored rows do not read: %s",
                            table_id, error)
        return out

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table and its latest match, or ``None``; rows that do not read raise."""
        row = self._db.execute(
            "SELECT t.created, t.settings, (SELECT id FROM matches WHERE table_id = t.id"
            " ORDER BY number DESC LIMIT 1) FROM tables t WHERE t.id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        created, settings, match_id = row
        match = self.load_match(match_id) if match_id is not None else None
        return StoredTable(table_id, created, json.loads(settings), match)

    def finished_matches(self, limit: int = 100) -> list[StoredMatch]:
        """The most recently finished matches, newest first."""
        rows = self._db.execute(
            "SELECT id FROM matches WHERE finished IS NOT NULL ORDER BY finished DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [m for (match_id,) in rows if (m := self.load_match(match_id)) is not None]

    def load_match(self, match_id: int) -> StoredMatch | None:
        row = self._db.execute(
            "SELECT table_id, number, rules, first_dealer, seats, started, finished, score, winner"
            " FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        table_id, number, rules, first_dealer, seats, started, finished, score, winner = row
        actions: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        for deal_idx, seat, action in self._db.execute(
            "SELECT deal_idx, seat, action FROM actions WHERE match_id = ?"
            " ORDER BY deal_idx, seq",
            (match_id,),
        ):
            actions.setdefault(deal_idx, []).append((seat, json.loads(action)))
        stand_ins = {(deal_idx, seq): seat for deal_idx, seq, seat in self._db.execute(
            "SELECT deal_idx, seq, seat FROM stand_ins WHERE match_id = ?", (match_id,))}
        deals = [
            StoredDeal(idx, dealer, json.loads(hands), trump or None, actions.get(idx, []))
            for idx, dealer, hands, trump in self._db.execute(
                "SELECT idx, dealer, hands, trump_card FROM deals WHERE match_id = ?"
                " ORDER BY idx",
                (match_id,),
            )
        ]
        return StoredMatch(
            id=match_id,
            table_id=table_id,
            number=number,
            rules=json.loads(rules),
            first_dealer=first_dealer,
            deals=deals,
            seats=json.loads(seats),
            started=started,
            finished=finished,
            score=json.loads(score) if score is not None else None,
            winner=winner,
            practice=self._practice(table_id),
            stand_ins=stand_ins,
        )

    def _practice(self, table_id: str) -> bool:
        row = self._db.execute("SELECT settings FROM tables WHERE id = ?", (table_id,)).fetchone()
        try:
            return row is not None and json.loads(row[0]).get("practice") is True
        except (ValueError, AttributeError):
            return False

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        self._db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the lock
            self._lock = None


def _lock_database(path: Path) -> int:
    """Lock ``<db>.lock`` beside the database for as long as the returned descriptor is open.
    The file itself stays (removing it would let a third server lock a new one while the
    second still holds the old)."""
    lock = path.with_name(f"{path.name}.lock")
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatabaseInUseError(f"the database {path} is in use by another sueca server "
                                 f"(it holds {lock}): stop that one first") from None
    return descriptor


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
