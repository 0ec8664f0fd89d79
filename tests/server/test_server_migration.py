"""A database written before moves were stored as actions (schema 0) opens, is migrated to one
``actions`` table, and every table in it continues from the move where it stopped.

The old database is made here as the server made it then: its schema's SQL and its writes
(``add_play``, ``set_auction``, ``set_redeal``) copied from that code, fed by matches played
through the engine.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sueca.actions import AskBid, AskCall, AskCard, AskRedeal, Bid, Call, Denounce, Play, Redeal
from sueca.cards import card_name, format_mask
from sueca.match import Match
from sueca.record import check
from sueca.rules import Rules
from sueca.server.storage import SCHEMA_VERSION, SQLiteStorage, StorageError
from sueca.server.tables import SeatConfig, Table
from sueca.state import State

# The schema as the server wrote it before actions (with the auction column bidding tables
# added; older databases lack it: OLDEST below).
SCHEMA_0 = """
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
OLDEST = SCHEMA_0.replace("    auction TEXT,\n", "")


@dataclass
class OldTable:
    """One table as the old server wrote it, and the engine's states it played."""

    id: str
    rules: Rules
    match: Match
    states: list[State] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.states[-1]


def write_old_table(db: sqlite3.Connection, table_id: str, rules: Rules, seed: int,
                    stop: Callable[[OldTable], bool]) -> OldTable:
    """Play a match of random moves through the engine, writing it as the old server did,
    until ``stop`` says so (or the match is over)."""
    rng = random.Random(seed)
    seats = [SeatConfig("dummy" if s == rules.dummy else "human", f"P{s}", token=f"tok{s}")
             for s in range(rules.players)]
    db.execute("INSERT INTO tables VALUES (?, ?, ?)", (table_id, time.time(), json.dumps(
        {"rules": rules.to_dict(), "seats": [asdict(s) for s in seats], "open": False})))
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    mid = db.execute(
        "INSERT INTO matches (table_id, number, rules, first_dealer, seats, started)"
        " VALUES (?, 1, ?, ?, ?, ?)",
        (table_id, json.dumps(rules.to_dict()), match.first_dealer,
         json.dumps([s.name for s in seats]), time.time())).lastrowid
    old = OldTable(table_id, rules, match)
    auction = "auction" in {row[1] for row in db.execute("PRAGMA table_info(deals)")}

    def deal() -> None:
        state = match.new_deal(rng)
        trump = state.deal.trump_card
        if auction:
            db.execute("INSERT INTO deals (match_id, idx, dealer, hands, trump_card)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (mid, len(old.states), state.deal.dealer,
                        json.dumps([format_mask(h) for h in state.deal.hands]),
                        "" if trump is None else card_name(trump)))
        else:
            db.execute("INSERT INTO deals VALUES (?, ?, ?, ?, ?)",
                       (mid, len(old.states), state.deal.dealer,
                        json.dumps([format_mask(h) for h in state.deal.hands]),
                        card_name(trump)))  # type: ignore[arg-type]
        old.states.append(state)

    def set_auction(value: dict[str, Any]) -> None:
        db.execute("UPDATE deals SET auction = ? WHERE match_id = ? AND idx = ?",
                   (json.dumps(value), mid, len(old.states) - 1))

    deal()
    while not stop(old):
        state = old.state
        if state.is_finished():
            match.finish_deal(state)
            if match.is_over:
                db.execute("UPDATE matches SET finished = ?, score = ?, winner = ? WHERE id = ?",
                           (time.time(), json.dumps(match.score), match.winner, mid))
                break
            deal()
            continue
        seat = state.to_play
        choices = [a for a in state.legal_actions(seat) if type(a) is not Denounce]
        if type(choices[0]) is Bid:
            choices = choices[:2]  # the auction kept short: a pass, or the lowest bid
        action = rng.choice(choices)
        state.apply(seat, action)
        if type(action) is Play:
            db.execute("INSERT INTO plays VALUES (?, ?, ?, ?)",
                       (mid, len(old.states) - 1, len(state.plays) - 1, card_name(state.plays[-1])))
        elif type(action) is Redeal:
            answers: dict[str, int] = {"kept": state.redeal_answers.count(False)}
            if state.redeal_by is not None:
                answers["asked_by"] = state.redeal_by
            set_auction(answers)
            if state.redeal_by is not None:
                match.annul_deal(state)
                deal()
        else:
            contract = state.contract
            set_auction({"bids": list(state.bids), "called_card": None if contract is None
                         else card_name(contract.called_card)})
    db.commit()
    return old


def finish(table: Table, rng: random.Random) -> None:
    """Play the table's match to its end with random answers to what it is asked."""
    while table.phase != "match_over":
        if table.phase == "deal_over":
            table.deal_next()
            continue
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        if type(request) is AskCard:
            table.submit(seat, Play(rng.choice(request.legal)))
        elif type(request) is AskBid:
            table.submit(seat, Bid(request.lowest if request.may_bid and rng.random() < 0.3
                                   else 0))
        elif type(request) is AskCall:
            table.submit(seat, Call(rng.randrange(40)))
        else:
            assert type(request) is AskRedeal
            table.submit(seat, Redeal(False))


GENEROUS = {"variant": "brazil", "weak_hand_redeal": True, "weak_hand_limits": [15, 15],
            "match_target": 3}


def stop_after(cards: int) -> Callable[[OldTable], bool]:
    return lambda old: sum(len(s.plays) for s in old.states) >= cards


def mid_question_after_an_ask(old: OldTable) -> bool:
    return bool(old.match.annulled) and len(old.state.redeal_answers) == 2 and (
        old.state.phase == "redeal")


TABLES: list[tuple[str, dict[str, Any], int, Callable[[OldTable], bool]]] = [
    ("standard", {"variant": "standard"}, 1, stop_after(57)),  # mid-trick, second deal
    ("auction", {"variant": "italiana5", "match_target": 3}, 2,
     lambda old: len(old.states) == 2 and len(old.state.bids) == 2),
    ("contract", {"variant": "italiana5", "match_target": 3}, 3,
     lambda old: old.state.contract is not None and len(old.state.plays) == 7),
    ("redeal", GENEROUS, 4, mid_question_after_an_ask),
    ("double", {"variant": "double6", "match_target": 2}, 5, stop_after(100)),
    ("dummy", {"variant": "standard", "dummy": 2}, 6, stop_after(23)),
    ("done", {"variant": "standard", "match_target": 1}, 7, lambda old: False),
]


def old_database(path: Path, schema: str = SCHEMA_0,
                 tables: list[tuple[str, dict[str, Any], int, Callable[[OldTable], bool]]]
                 = TABLES) -> dict[str, OldTable]:
    db = sqlite3.connect(path)
    db.executescript(schema)
    written = {name: write_old_table(db, name, Rules.from_dict(rules), seed, stop)
               for name, rules, seed, stop in tables}
    db.close()
    return written


def test_an_old_database_is_migrated_and_every_table_continues(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    old = old_database(db)
    assert mid_question_after_an_ask(old["redeal"]), "seed 4 reaches an ask and two keeps"
    assert old["done"].match.is_over and not old["standard"].match.is_over

    store = SQLiteStorage(db)
    try:
        # Migrated: one actions table, the old table and column gone, the version set, the
        # old file kept beside the new one.
        raw = store._db
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
        assert "actions" in names and "plays" not in names
        assert "auction" not in {row[1] for row in raw.execute("PRAGMA table_info(deals)")}
        assert (tmp_path / "sueca.db.schema0.bak").exists()
        stored = {t.id: t for t in store.open_tables()}
        assert set(stored) == set(old)
        for name, written in old.items():
            match = stored[name].match
            assert match is not None
            # Every move an action, with the seat the engine says made it, in order.
            assert [deal.actions for deal in match.deals] == [
                [(seat, action.to_dict()) for seat, action in state.history]
                for state in written.states], name
            table = Table.restore(stored[name], store, random.Random(0))
            state, again = written.state, table.state
            assert again is not None
            assert (again.deal, again.plays, again.hands, again.bids, again.contract,
                    again.redeal_answers) == (state.deal, state.plays, state.hands, state.bids,
                                              state.contract, state.redeal_answers), name
            assert table.match.score == written.match.score
            assert len(table.match.annulled) == len(written.match.annulled)
            assert table.deal_index == len(written.match.deals) - 1
            finish(table, random.Random(name))
            finished = store.load_match(table.match_id)
            assert finished is not None and finished.finished is not None
            report = check(finished.record)
            assert report["valid"], (name, report["error"])
            assert report["match"]["winner"] == table.match.winner == finished.winner
    finally:
        store.close()

    reopened = SQLiteStorage(db)  # opened again: already at the version, nothing to do
    try:
        assert reopened._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert {t.id for t in reopened.open_tables()} == set(old)
    finally:
        reopened.close()


def test_a_database_from_before_bidding_tables_is_migrated_too(tmp_path: Path) -> None:
    db = tmp_path / "oldest.db"
    old = old_database(db, OLDEST, TABLES[:1])
    store = SQLiteStorage(db)
    try:
        (stored,) = store.open_tables()
        table = Table.restore(stored, store, random.Random(0))
        assert table.state is not None and table.state.plays == old["standard"].state.plays
        finish(table, random.Random(1))
        finished = store.load_match(table.match_id)
        assert finished is not None and check(finished.record)["valid"]
    finally:
        store.close()


def test_moves_that_do_not_play_keep_what_does_and_the_rest_opens(tmp_path: Path) -> None:
    """Rows the old server never wrote (a card nobody held): the match keeps its moves up to
    there, the migration goes on, and the other tables are untouched."""
    db = tmp_path / "sueca.db"
    old = old_database(db, tables=TABLES[:2])
    raw = sqlite3.connect(db)
    raw.execute("UPDATE plays SET card = 'XX' WHERE seq = 3 AND deal_idx = 0 AND match_id = 1")
    raw.commit()
    raw.close()
    store = SQLiteStorage(db)
    try:
        stored = {t.id: t for t in store.open_tables()}
        broken = stored["standard"].match
        assert broken is not None and len(broken.deals[0].actions) == 3
        table = Table.restore(stored["auction"], store, random.Random(0))
        assert table.state is not None and table.state.bids == old["auction"].state.bids
    finally:
        store.close()


def test_a_database_from_a_newer_server_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StorageError, match="newer"):
        SQLiteStorage(db)


def test_a_new_database_starts_at_the_version(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "fresh.db")
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert not (tmp_path / "fresh.db.schema0.bak").exists()  # nothing to keep
    finally:
        store.close()
