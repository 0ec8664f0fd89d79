"""Issue 17, item 11: the history lists a private table's matches to its players only, with a
rules column and filter."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import LiveServer, token_of
from web_support import chromium, new_table, open_page, screenshots

from sueca.server import Timing

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
        anyone = httpx.get(f"{server.http}/api/history").json()["matches"]
        assert {m["table"] for m in anyone} == {public["id"], bots["id"]}
        (hidden,) = [m["id"] for m in httpx.get(f"{server.http}/api/history", headers={
            "X-Sueca-Seats": f"{private['id']}:{token_of(private, 0)}"}).json()["matches"]
            if m["table"] == private["id"]]
        for path in (f"/api/history/{hidden}", f"/api/history/{hidden}/record.json"):
            assert httpx.get(server.http + path).status_code == 404  # as if there were none
            wrong = {"X-Sueca-Seats": f"{private['id']}:{token_of(public, 0)}"}
            assert httpx.get(server.http + path, headers=wrong).status_code == 404
            mine = {"X-Sueca-Seats": f"{private['id']}:{token_of(private, 0)}"}
            assert httpx.get(server.http + path, headers=mine).status_code == 200

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
