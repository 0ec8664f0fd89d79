"""Ratings: the OpenSkill update against the library's published reference values, how a match
is judged (who counts, stand-ins, bots' ladder), the people's rows on both stores, and the
migration of a schema-1 database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from services import fresh_postgres_database

from sueca.match import Match
from sueca.rules import Rules, preset
from sueca.scoring import HandResult
from sueca.server.backends import open_storage
from sueca.server.players import BOTS, PEOPLE, Judgement, PlayerRow, ordinal
from sueca.server.ratings import MODEL, changes, judge, kind_of, player_rows, rate, standings
from sueca.server.storage import SCHEMA_VERSION, SQLiteStorage, Storage, Write


def test_rate_reproduces_openskills_reference_values() -> None:
    # openskill.py's README (Plackett-Luce, no dynamics factor): a1 and a2 beat b1 and b2.
    after = rate([[(25.0, 25 / 3), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)]],
                 [0, 1], model=PlackettLuce(tau=0))
    expected = [[(28.669648436582808, 8.071520788025197), (33.83086971107981, 5.062772998705765)],
                [(43.071274808241974, 2.4166900452721256),
                 (23.149503312339064, 6.1378606973362135)]]
    for team, want in zip(after, expected, strict=True):
        for (mu, sigma), (mu_want, sigma_want) in zip(team, want, strict=True):
            assert mu == pytest.approx(mu_want, abs=1e-9)
            assert sigma == pytest.approx(sigma_want, abs=1e-9)
    # The server's model is the library's default one.
    direct = MODEL.rate([[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]])
    ours = rate([[(25.0, 25 / 3)] * 2, [(25.0, 25 / 3)] * 2], [0, 1])
    assert ours[0][0] == pytest.approx((direct[0][0].mu, direct[0][0].sigma))


def _won_match(rules: Rules, winner: int) -> Match:
    match = Match(rules)
    points = (91, 29) if winner == 0 else (29, 91)
    match.results.append(HandResult(points=points, tricks=(7, 3) if winner == 0 else (3, 7),
                                    game_points=(2, 0) if winner == 0 else (0, 2)))
    match.score = [2, 0] if winner == 0 else [0, 2]
    match.winner = winner
    return match


def test_kinds_and_judgements() -> None:
    four, italiana5 = preset("standard"), preset("italiana5")
    assert kind_of(four) == "four" and kind_of(italiana5) == "italiana5"
    assert kind_of(preset("double6")) is None
    people = [{"kind": "human", "account": i, "level": "expert"} for i in range(4)]
    assert judge(four, people, False, {s: 10 for s in range(4)}, {}) == (PEOPLE, None)
    assert judge(four, people, True, {}, {})[1] == "a practice table"
    guest = [*people[:3], {"kind": "human", "account": None, "level": "expert"}]
    assert judge(four, guest, False, {}, {}) == (None, "a guest played")
    twice = [*people[:3], people[0]]
    assert judge(four, twice, False, {}, {}) == (None, "one account at two seats")
    bot = [*people[:3], {"kind": "bot", "account": None, "level": "expert"}]
    assert judge(four, bot, False, {}, {}) == (None, "a bot sat at the table")
    # A stand-in for a quarter of a seat's moves is allowed; more is not.
    assert judge(four, people, False, {2: 40}, {2: 10}) == (PEOPLE, None)
    ladder, reason = judge(four, people, False, {2: 40}, {2: 11})
    assert ladder is None and reason is not None and "stand-in" in reason
    bots = [{"kind": "bot", "level": lvl} for lvl in ("expert", "beginner") * 2]
    assert judge(four, bots, False, {}, {}) == (BOTS, None)
    same = [{"kind": "bot", "level": "expert"}] * 4
    assert judge(four, same, False, {}, {}) == (None, "the same level on both sides")


def test_changes_move_partners_together_and_keep_the_sum() -> None:
    rules = preset("standard")
    match = _won_match(rules, winner=1)
    assert standings(match) == [1, 0]
    moved = changes(PEOPLE, "four", rules, match, ["1", "2", "3", "4"], {})
    by = {c.player: c for c in moved}
    assert by["2"].mu_after > 25 > by["1"].mu_after
    assert by["2"].mu_after == pytest.approx(by["4"].mu_after)
    assert by["1"].mu_after + by["2"].mu_after == pytest.approx(50)
    rows = player_rows(match, ["A", "B", "C", "D"], [1, 2, 3, 4])
    assert [r.won for r in rows] == [False, True, False, True]
    assert rows[1].card_points == 91 and rows[1].capotes == 1 and rows[0].capotes == 0


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        opened = open_storage(str(tmp_path / "sueca.db"), lock=False)
        yield opened
        opened.close()
    else:
        with fresh_postgres_database() as url:
            opened = open_storage(url, lock=False)
            yield opened
            opened.close()


def _finished(store: Storage, table_id: str = "t1") -> int:
    started = store.save([Write("create_table", (table_id, {"seats": []})),
                          Write("start_match", (table_id, {"variant": "standard"}, 0,
                                                ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]))])
    assert started is not None
    return started


def _rows(won: int) -> list[PlayerRow]:
    return [PlayerRow(s, s + 1, "ABCD"[s], s % 2, s % 2 == won, 1, 91 if s % 2 == won else 29,
                      int(s % 2 == won), 0) for s in range(4)]


def test_people_rows_on_both_stores(store: Storage) -> None:
    rows = store.players()
    ids = [rows.create_account(n, n.lower(), "hash") for n in "ABCD"]
    assert ids == [1, 2, 3, 4] and rows.create_account("a", "a", "x") is None
    match_id = _finished(store)
    store.save([Write("add_deal", (match_id, 0, 0, ["AS"] * 4, "AS")),
                Write("add_action", (match_id, 0, 0, 1, {"type": "play", "card": "AS"})),
                Write("add_stand_in", (match_id, 0, 0, 1))])
    assert rows.stand_in_moves(match_id) == {1: 1}
    match = _won_match(preset("standard"), winner=0)
    players = ["1", "2", "3", "4"]

    def update(current: dict[str, Any]) -> Any:
        return changes(PEOPLE, "four", preset("standard"), match, players, current)

    assert rows.record_match(match_id, Judgement("four", PEOPLE, None), _rows(0), players,
                             update)
    # Recorded once: a second call (a restart) writes nothing.
    assert not rows.record_match(match_id, Judgement("four", PEOPLE, None), _rows(0), players,
                                 update)
    judged = rows.judgement(match_id)
    assert judged is not None and judged.ladder == PEOPLE and len(judged.changes) == 4
    assert store.load_match(match_id).seats == ["A", "B", "C", "D"]
    board = rows.leaderboard(PEOPLE, "four")
    assert [p for p, *_ in board][:2] in (["1", "3"], ["3", "1"])
    assert rows.leaderboard(PEOPLE, "four", min_matches=2) == []
    assert len(rows.leaderboard(PEOPLE, "four", since=1.0)) == 4
    assert rows.player_matches(1)[0]["seats"][0].card_points == 91
    history = rows.rating_history(PEOPLE, "1", "four")
    assert len(history) == 1 and ordinal(history[0][2], history[0][3]) > ordinal(25, 25 / 3)
    # An unrated match changes no rating.
    other = _finished(store, "t2")
    rows.record_match(other, Judgement("four", None, "a guest played"), _rows(1), players,
                      update)
    assert rows.ratings(PEOPLE, "four", ["2"])["2"][2] == 1
    assert rows.judgement(other) == Judgement("four", None, "a guest played", ())
    rows.set_password(1, "new")
    account = rows.account(1)
    assert account is not None and account.generation == 1 and account.password == "new"
    rows.delete_account(1)
    assert rows.account(1) is None and rows.account_by_key("a") is None
    assert store.load_match(match_id).seats[0] == "—"
    assert rows.player_matches(1) == [] and "1" not in rows.ratings(PEOPLE, "four", ["1"])


def test_a_schema_1_sqlite_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = SQLiteStorage(path)
    match_id = _finished(store)
    store.close()
    raw = sqlite3.connect(path)
    for table in ("accounts", "match_players", "rated_matches", "ratings", "rating_changes",
                  "stand_ins"):
        raw.execute(f"DROP TABLE {table}")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    store = SQLiteStorage(path)
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert store.load_match(match_id) is not None
        assert store.players().create_account("Ana", "ana", "h") == 1
    finally:
        store.close()
    assert (tmp_path / "old.db.schema1.bak").exists()


def test_a_schema_1_postgres_database_is_migrated() -> None:
    import psycopg

    with fresh_postgres_database() as url:
        store = open_storage(url, lock=False)
        match_id = _finished(store)
        store.close()
        with psycopg.connect(url, autocommit=True) as conn:
            for table in ("accounts", "match_players", "rated_matches", "ratings",
                          "rating_changes", "stand_ins"):
                conn.execute(f"DROP TABLE {table}".encode())
            conn.execute("UPDATE schema_version SET version = 1")
        store = open_storage(url, lock=False)
        try:
            assert store.load_match(match_id) is not None
            assert store.players().create_account("Ana", "ana", "h") == 1
        finally:
            store.close()


def test_italiana5_ranks_five_players_by_their_final_score() -> None:
    rules = preset("italiana5")
    match = Match(rules)
    match.score = [10, 4, 7, 4, 1]
    match.winner = 0
    assert standings(match) == [0, 2, 1, 2, 3]
    moved = {c.player: c for c in changes(PEOPLE, "italiana5", rules, match,
                                          ["a", "b", "c", "d", "e"], {})}
    assert moved["a"].mu_after > moved["c"].mu_after > moved["b"].mu_after
    assert moved["b"].mu_after == pytest.approx(moved["d"].mu_after)  # tied: the same move
    assert moved["d"].mu_after > moved["e"].mu_after
    # The library's own update, seat by seat, is what the server stores.
    direct = MODEL.rate([[MODEL.rating()] for _ in range(5)], ranks=[0, 2, 1, 2, 3])
    assert [moved[p].mu_after for p in "abcde"] == pytest.approx([r[0].mu for r in direct])
    rows = player_rows(match, list("ABCDE"), [1, 2, 3, 4, 5])
    assert [r.won for r in rows] == [True, False, False, False, False]
    assert all(r.card_points is None for r in rows)  # sides change deal by deal
