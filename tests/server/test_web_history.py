"""Issue 17, item 11: the history lists a private table's matches to its players only, with a
rules column and filter."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, token_of
from services import fresh_postgres_database
from web_support import chromium, new_table, open_page, screenshots

from sueca.bots.base import decide
from sueca.rules import Rules
from sueca.server import Timing
from sueca.server.backends import open_storage
from sueca.server.storage import SQLiteStorage, Storage
from sueca.server.tables import SeatConfig, Table

__all__ = ["chromium"]  # the fixture, imported for the test below

# Nobody comes: a stand-in plays each person's seat at once, so matches end by themselves.
ALONE = Timing(grace=0.0, bot_delay=0.0, trick_pause=0.0, deal_pause=0.0, invite_wait=0.0)


def finished(server: LiveServer, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while server.room(table_id).table.phase != "match_over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_private_tables_history_is_its_players_alone(chromium: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=ALONE) as server:
        seats = [{"kind": "human", "name": "Ana"}] + [
            {"kind": "bot", "level": "intermediate"}] * 3
        unnamed = [seats[0], {"kind": "human"}, *seats[2:]]  # seat 2's friend gave no name
        private = new_table(server.http, unnamed, {"variant": "standard", "match_target": 1})
        public = new_table(server.http, seats, {"variant": "brazil", "match_target": 1},
                           open=True)
        bots = new_table(server.http, [{"kind": "bot", "level": "beginner"}] * 4,
                         {"variant": "standard", "match_target": 1})
        for table in (private, public, bots):
            finished(server, table["id"])
        anyone = httpx2.get(f"{server.http}/api/history").json()["matches"]
        assert {m["table"] for m in anyone} == {public["id"], bots["id"]}
        (hidden,) = [m["id"] for m in httpx2.get(f"{server.http}/api/history", headers={
            "X-Sueca-Seats": f"{private['id']}:{token_of(private, 0)}"}).json()["matches"]
            if m["table"] == private["id"]]
        for path in (f"/api/history/{hidden}", f"/api/history/{hidden}/record.json"):
            assert httpx2.get(server.http + path).status_code == 404  # as if there were none
            wrong = {"X-Sueca-Seats": f"{private['id']}:{token_of(public, 0)}"}
            assert httpx2.get(server.http + path, headers=wrong).status_code == 404
            mine = {"X-Sueca-Seats": f"{private['id']}:{token_of(private, 0)}"}
            assert httpx2.get(server.http + path, headers=mine).status_code == 200

        # Ana's browser holds her seat (the table page kept it): she sees her match, a
        # stranger's does not; the list says each match's rules and filters by them.
        ana, errors = open_page(chromium, server.http + private["seats"][0]["link"])
        ana.wait_for_selector("#score-sheet")
        ana.goto(server.http + "/history")
        ana.wait_for_selector("table.matches")
        assert ana.locator("table.matches tbody tr").count() == 3
        assert "Regras do Brasil" in ana.inner_text("table.matches")
        listed = ana.inner_text("table.matches")
        assert "Lugar 2" in listed and "Seat" not in listed  # no English in a pt page
        ana.select_option("#rules-filter", "brazil")
        assert ana.locator("table.matches tbody tr").count() == 1
        screenshots(ana, "web-history")
        stranger, stranger_errors = open_page(chromium, server.http + "/history")
        stranger.wait_for_selector("table.matches")
        assert stranger.locator("table.matches tbody tr").count() == 2
        with stranger.expect_download() as download:
            stranger.locator("button.download").first.click()
        assert download.value.suggested_filename.startswith("sueca-match-")
        assert not errors and not stranger_errors


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """Each store: a SQLite file, and a fresh database on a real PostgreSQL server."""
    if request.param == "sqlite":
        opened = open_storage(str(tmp_path / "sueca.db"), lock=False)
        yield opened
        opened.close()
        return
    with fresh_postgres_database() as url:
        opened = open_storage(url, lock=False)
        yield opened
        opened.close()


def test_each_stored_move_says_whether_a_stand_in_made_it(store: Storage) -> None:
    """Item 11: who made each move, a person or a stand-in bot, is stored with the match, and
    a seat's share of moves a stand-in made is read from it (the dummy's cards count as its
    partner's, who plays them)."""
    store.create_table("t1", {"seats": []})
    rules = {"variant": "standard", "dummy": 2}  # three players: seat 0 plays the dummy
    match_id = store.start_match("t1", rules, 0, ["Ana", "Bruno", "Dummy", "Duarte"])
    store.add_deal(match_id, 0, 0, ["AS 2S", "3S 4S", "5S 6S", "7S KS"], "AS")
    moves = [(1, "3S", True), (2, "5S", True), (3, "7S", False), (0, "AS", False),
             (0, "2S", False), (1, "4S", True), (2, "6S", False), (3, "KS", False)]
    for seq, (seat, card, stood_in) in enumerate(moves):
        store.add_action(match_id, 0, seq, seat, {"type": "play", "card": card})
        if stood_in:
            store.add_stand_in(match_id, 0, seq, 0 if seat == 2 else seat)
    match = store.load_match(match_id)
    assert match is not None
    assert match.stand_ins == {(0, 0): 1, (0, 1): 0, (0, 5): 1}
    assert match.stand_in_share(0) == 0.25  # 1 of the 4 cards Ana decided (2 hers, 2 dummy's)
    assert match.stand_in_share(1) == 1.0
    assert match.stand_in_share(3) == 0.0
    assert match.stand_in_share(2) == 0.0  # nobody decides for the dummy itself


def test_a_tables_rollback_copy_keeps_who_made_each_move(tmp_path: Path) -> None:
    storage = SQLiteStorage(":memory:")
    seats = [SeatConfig("human", "Ana", "heuristic", token="t0")] + [
        SeatConfig("bot", "", "heuristic") for _ in range(3)]
    table = Table.create("t1", Rules.from_dict({"variant": "standard"}), seats, storage,
                         random.Random(3))
    while table.actor() != 0:
        bot, info = table.bot_to_move(False)
        table.submit(table.actor() or 0, decide(bot, info))
    bot, info = table.bot_to_move(True)
    table.submit(0, decide(bot, info), stand_in=True)
    stored = storage.load_match(table.match_id)
    assert stored is not None and stored.stand_in_share(0) == 1.0
    again = table.rolled_back()  # rebuilt from the copy the table keeps of what it stored
    assert again.referee.state is not None
    assert table._stored is not None and table._stored.match is not None
    assert table._stored.match.stand_ins == stored.stand_ins


@pytest.mark.slow
def test_the_history_marks_the_seats_stand_ins_played(chromium: Any, tmp_path: Path) -> None:
    """Item 11: a match finished by a stand-in is marked in the History, seat by seat, with
    the share of the seat's moves the bot made, in the list and in the replay."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=ALONE) as server:
        seats = [{"kind": "human", "name": "Ana"}] + [
            {"kind": "bot", "level": "intermediate"}] * 3
        table = new_table(server.http, seats, {"variant": "standard", "match_target": 1},
                          open=True)
        finished(server, table["id"])
        (match,) = httpx2.get(f"{server.http}/api/history").json()["matches"]
        assert match["stand_ins"] == [1.0, 0, 0, 0]  # Ana never came: her bot played it all
        detail = httpx2.get(f"{server.http}/api/history/{match['id']}").json()
        assert detail["match"]["stand_ins"] == [1.0, 0, 0, 0]
        page, errors = open_page(chromium, server.http + "/history")
        page.wait_for_selector("table.matches")
        marks = page.locator("table.matches .stand-in-mark")
        assert marks.count() == 1
        assert marks.first.inner_text() == "robô 100%"
        assert "Ana" in page.inner_text("table.matches tbody tr")
        page.locator("table.matches a.btn").first.click()
        page.wait_for_selector(".replay-felt")
        assert page.locator('.replay-felt .stand-in-mark[data-seat="0"]').count() == 1
        assert page.locator(".replay-felt .stand-in-mark").count() == 1
        screenshots(page, "web-history-stand-in")
        assert not errors, errors


@pytest.mark.slow
def test_a_name_given_after_the_match_started_reaches_its_history(chromium: Any,
                                                                  tmp_path: Path) -> None:
    """Item 5 and 11: an invited friend names himself once the match is under way; the
    match's history (the stored seat names, the History page, the record) says his name."""
    quick = Timing(grace=0.0, bot_delay=0.0, trick_pause=0.0, deal_pause=0.0, invite_wait=2.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=quick) as server:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                 {"kind": "bot", "level": "intermediate"}, {"kind": "bot", "level": "intermediate"}]
        table = new_table(server.http, seats, {"variant": "standard", "match_target": 1},
                          open=True)
        room = server.room(table["id"])
        store = room.writer.storage
        assert room.writer.call_waiting(store.load_match, room.table.match_id).seats[1] == "Seat 2"
        friend, errors = open_page(chromium, server.http + table["seats"][1]["link"])
        friend.wait_for_selector("#name-form:not([hidden])")
        friend.fill("#name-input", "Rui")
        friend.click("#name-form button")
        wait_until_named = time.monotonic() + 10
        while room.writer.call_waiting(store.load_match, room.table.match_id).seats[1] != "Rui":
            assert time.monotonic() < wait_until_named, "the stored match kept 'Seat 2'"
            time.sleep(0.05)
        assert room.table.seat_names()[1] == "Rui"
        friend.context.close()  # both seats stood in for now (grace 0): the match ends
        finished(server, table["id"])
        (match,) = httpx2.get(f"{server.http}/api/history").json()["matches"]
        assert match["seats"][1] == "Rui"
        record = httpx2.get(f"{server.http}/api/history/{match['id']}/record.json").json()
        assert "Rui" in str(record)
        page, page_errors = open_page(chromium, server.http + "/history")
        page.wait_for_selector("table.matches")
        assert "Rui" in page.inner_text("table.matches tbody tr")
        assert not errors and not page_errors, errors + page_errors
