"""Where the server keeps tables and matches: one small interface, one SQLite implementation.

The game code talks to :class:`Storage` only, in plain data (dicts, strings, ints), so another
backend (PostgreSQL, say) is a new class with the same methods and nothing else changes. Every
call is synchronous and made from the event loop's thread; each one is a short transaction, so
every card is on disk the moment it has been played and a server killed with SIGKILL loses
nothing (SQLite's write-ahead log, ``synchronous=NORMAL``, survives a crash of the process).

>>> store = SQLiteStorage(":memory:")
>>> store.create_table("t1", {"seats": []})
>>> mid = store.start_match("t1", {"variant": "standard"}, first_dealer=0, seats=["a", "b"])
>>> store.add_deal(mid, 0, 0, ["AS", "2S", "3S", "4S"], "AS")
>>> store.set_auction(mid, 0, [0, 70], None)
>>> store.add_play(mid, 0, 0, "2S")
>>> [t.id for t in store.open_tables()], store.load_match(mid).record.deals[0].plays
(['t1'], ['2S'])
>>> store.load_match(mid).record.deals[0].bids
[0, 70]
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sueca.record import DealRecord, GameRecord


@dataclass(frozen=True)
class StoredMatch:
    """One match as stored: its record so far (RECORD.md form) and how it ended."""

    id: int
    table_id: str
    number: int  # 1 for a table's first match, 2 for its rematch, …
    record: GameRecord
    seats: list[str]  # the players' names, seat by seat
    started: float
    finished: float | None
    score: list[int] | None
    winner: int | None
    # weak_hand_redeal: how many seats kept on the last deal stored while its redeal question
    # was still open (a record holds no keeps: a deal played means every seat kept).
    redeal_kept: int = 0


@dataclass(frozen=True)
class StoredTable:
    """A table's settings (seats, tokens, options) and its latest match."""

    id: str
    created: float
    settings: dict[str, Any]
    match: StoredMatch | None


class Storage(Protocol):
    """What the server needs from a store. Implementations must make each write durable (or at
    least crash-safe) before returning: the server acknowledges a card only after storing it."""

    def create_table(self, table_id: str, settings: dict[str, Any]) -> None: ...

    def save_settings(self, table_id: str, settings: dict[str, Any]) -> None: ...

    def start_match(
        self, table_id: str, rules: dict[str, Any], first_dealer: int, seats: list[str]
    ) -> int: ...

    def add_deal(
        self, match_id: int, index: int, dealer: int, hands: list[str], trump_card: str | None
    ) -> None: ...

    def set_auction(
        self, match_id: int, deal_index: int, bids: list[int], called_card: str | None
    ) -> None: ...

    def set_redeal(self, match_id: int, deal_index: int, kept: int,
                   asked_by: int | None = None) -> None: ...

    def add_play(self, match_id: int, deal_index: int, seq: int, card: str) -> None: ...

    def finish_match(self, match_id: int, score: list[int], winner: int | None) -> None: ...

    def open_tables(self, finished_since: float = 0.0) -> list[StoredTable]: ...

    def finished_matches(self, limit: int = 100) -> list[StoredMatch]: ...

    def load_match(self, match_id: int) -> StoredMatch | None: ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
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
);
CREATE INDEX IF NOT EXISTS matches_by_table ON matches(table_id, number);
CREATE TABLE IF NOT EXISTS deals (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    hands TEXT NOT NULL,
    trump_card TEXT NOT NULL,
    auction TEXT,
    PRIMARY KEY (match_id, idx)
);
CREATE TABLE IF NOT EXISTS plays (
    match_id INTEGER NOT NULL,
    deal_idx INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    card TEXT NOT NULL,
    PRIMARY KEY (match_id, deal_idx, seq)
);
"""


class SQLiteStorage:
    """The embedded store: one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # The server calls in from its event loop only; Starlette's test client runs that loop
        # in another thread than the one that built the app, hence check_same_thread=False.
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(deals)")}
        if "auction" not in columns:  # a database made before bidding tables
            self._db.execute("ALTER TABLE deals ADD COLUMN auction TEXT")
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        if str(path) != ":memory:":
            # A checkpoint copies the log into the database and syncs it to disk, which can
            # take tens of milliseconds: do it on another connection in another thread, so a
            # card is never kept waiting behind one (WAL lets writers go on meanwhile).
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(str(path),), daemon=True,
                name="sueca-checkpoint")
            self._checkpointer.start()

    def _checkpoint_loop(self, path: str, every: float = 2.0) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            while not self._stop.wait(every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    # ---- writes: each one its own transaction ----------------------------------------------

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
        # A bidding table turns no card: stored as "" (the column predates such tables).
        self._db.execute(
            "INSERT INTO deals (match_id, idx, dealer, hands, trump_card) VALUES (?, ?, ?, ?, ?)",
            (match_id, index, dealer, json.dumps(hands), trump_card or ""),
        )

    def set_auction(
        self, match_id: int, deal_index: int, bids: list[int], called_card: str | None
    ) -> None:
        """A bidding table's auction so far: the bids in bidding order, the called card."""
        auction = json.dumps({"bids": bids, "called_card": called_card})
        self._db.execute(
            "UPDATE deals SET auction = ? WHERE match_id = ? AND idx = ?",
            (auction, match_id, deal_index),
        )

    def set_redeal(self, match_id: int, deal_index: int, kept: int,
                   asked_by: int | None = None) -> None:
        """The redeal question so far (weak_hand_redeal): ``kept`` seats kept, then
        ``asked_by`` asked for a new deal and annulled it (``None``: not yet). Kept in the
        auction column, which the question leaves free (it is never asked at a bidding
        table)."""
        answers: dict[str, int] = {"kept": kept}
        if asked_by is not None:
            answers["asked_by"] = asked_by
        self._db.execute(
            "UPDATE deals SET auction = ? WHERE match_id = ? AND idx = ?",
            (json.dumps(answers), match_id, deal_index),
        )

    def add_play(self, match_id: int, deal_index: int, seq: int, card: str) -> None:
        self._db.execute(
            "INSERT INTO plays (match_id, deal_idx, seq, card) VALUES (?, ?, ?, ?)",
            (match_id, deal_index, seq, card),
        )

    def finish_match(self, match_id: int, score: list[int], winner: int | None) -> None:
        self._db.execute(
            "UPDATE matches SET finished = ?, score = ?, winner = ? WHERE id = ?",
            (time.time(), json.dumps(score), winner, match_id),
        )

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
            match = self.load_match(match_id) if match_id is not None else None
            out.append(StoredTable(table_id, created, json.loads(settings), match))
        return out

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
        plays: dict[int, list[str]] = {}
        for deal_idx, card in self._db.execute(
            "SELECT deal_idx, card FROM plays WHERE match_id = ? ORDER BY deal_idx, seq",
            (match_id,),
        ):
            plays.setdefault(deal_idx, []).append(card)
        deals = []
        annulled: list[DealRecord] = []  # deals annulled by a redeal, before the next one
        kept = 0  # the last deal's keeps, its redeal question still open
        for idx, dealer, hands, trump, auction_text in self._db.execute(
            "SELECT idx, dealer, hands, trump_card, auction FROM deals WHERE match_id = ?"
            " ORDER BY idx",
            (match_id,),
        ):
            auction = json.loads(auction_text) if auction_text else {}
            kept = auction.get("kept", 0)
            if "asked_by" in auction:
                annulled.append(DealRecord(dealer, json.loads(hands), trump or None,
                                           asked_by=auction["asked_by"]))
                continue
            deals.append(DealRecord(dealer, json.loads(hands), trump or None,
                                    plays.get(idx, []), bids=auction.get("bids"),
                                    called_card=auction.get("called_card"),
                                    redeals=annulled or None))
            annulled = []
        record = GameRecord(json.loads(rules), first_dealer, deals, pending_redeals=annulled)
        return StoredMatch(
            id=match_id,
            table_id=table_id,
            number=number,
            record=record,
            seats=json.loads(seats),
            started=started,
            finished=finished,
            score=json.loads(score) if score is not None else None,
            winner=winner,
            redeal_kept=0 if annulled else kept,
        )

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        self._db.close()
