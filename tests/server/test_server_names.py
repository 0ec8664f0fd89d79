"""Names people give (sueca/server/tables.py clean_name): text that is not Unicode (a lone
surrogate), control characters and format characters (bidi overrides, invisible marks) are
refused with ``bad_name`` wherever a name is given, before anything changes; a name already
stored with such text (an old row) cannot take the History down; and other odd input
(NaN, a header of too many seat tokens, a refused table) is handled as docs/server.md says."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table, join, token_of
from starlette.requests import Request
from test_server_refusals import refused

from sueca.server.app import MAX_HELD_SEATS, _held_seats
from sueca.server.limits import Limits
from sueca.server.tables import TableError, clean_name

BAD_NAMES = ["\ud800B", "A\x00B", "Ana\u202e", "A\u2066B\u2069", "Rui\u200e", "Ze\u2028\x07"]


def tables(base: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = httpx2.get(f"{base}/api/tables").json()["tables"]
    return listed


def post_table(base: str, names: list[str], **extra: Any) -> httpx2.Response:
    # json.dumps writes a lone surrogate as the escape \ud800, as a hostile client would.
    body = json.dumps({"rules": {"variant": "standard"},
                       "seats": [{"kind": "human", "name": n} for n in names], **extra})
    return httpx2.post(f"{base}/api/tables", content=body,
                      headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("name", BAD_NAMES)
def test_clean_name_refuses_surrogates_controls_and_format_characters(name: str) -> None:
    with pytest.raises(TableError) as refusal:
        clean_name(name)
    assert refusal.value.code == "bad_name" and "U+" in str(refusal.value)


def test_clean_name_keeps_every_script_and_the_joiners_emoji_need() -> None:
    assert clean_name("  Tomás   João ") == "Tomás João"
    assert clean_name("👩\u200d👩\u200d👧 Ana") == "👩\u200d👩\u200d👧 Ana"
    assert clean_name("مریم\u200cی") == "مریم\u200cی"  # Persian: a zero-width non-joiner
    assert clean_name("Rui\tSá\n") == "Rui Sá"  # white space is made one space, as before


def test_a_bad_seat_name_is_refused_before_any_table_is_made(server: LiveServer) -> None:
    for name in BAD_NAMES:
        response = post_table(server.http, ["Ana", name, "Carla", "Duarte"])
        assert response.status_code == 400, (name, response.text)
        assert response.json()["error"] == "bad_name"
        assert response.json()["message"].startswith("seat 1: ")
    assert tables(server.http) == []  # no orphan table in the lobby
    assert post_table(server.http, ["Ana", "Bruno", "Carla", "Duarte"]).status_code == 201


def test_renaming_ones_seat_to_a_bad_name_is_refused_and_changes_nothing(
        server: LiveServer) -> None:
    table = create_table(server.http, ["human", "human", "bot", "bot"])

    async def scenario() -> None:
        player = await join(server.ws, table["id"], token_of(table, 1), 1)
        for name in BAD_NAMES:
            await refused(player, {"type": "name", "name": name}, "bad_name")
        view = await player.sync()
        assert [seat["name"] for seat in view["seats"]][:2] == ["Ana", "Bruno"]
        await player.send({"type": "name", "name": "Bia"})  # the socket still works
        while [seat["name"] for seat in (await player.sync())["seats"]][1] != "Bia":
            await asyncio.sleep(0.05)
        await player.socket.close()

    asyncio.run(scenario())


def test_taking_an_open_seat_with_a_bad_name_is_refused_and_the_seat_stays_free(
        server: LiveServer) -> None:
    made = post_table(server.http, ["Ana", "", "", ""], open=True).json()
    url = f"{server.http}/api/tables/{made['id']}/seats/1"
    for name in BAD_NAMES:
        answer = httpx2.post(url, content=json.dumps({"name": name}),
                            headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_name", answer.text
    taken = httpx2.post(url, json={"name": "Rui"})
    assert taken.status_code == 200, taken.text


def test_nan_and_infinity_are_not_json_to_the_server(server: LiveServer) -> None:
    for constant in ("NaN", "Infinity", "-Infinity", "1e999"):
        body = ('{"rules": {"variant": "standard"}, "turn_seconds": ' + constant
                + ', "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"},'
                ' {"kind": "bot"}]}')
        answer = httpx2.post(f"{server.http}/api/tables", content=body)
        assert answer.status_code == 400 and answer.json()["error"] == "malformed", constant
        review = httpx2.post(f"{server.http}/api/reviews",
                            content='{"match": 1, "deal": 0, "seat": ' + constant + "}")
        assert review.status_code == 400 and review.json()["error"] == "malformed", constant
    assert tables(server.http) == []


def test_a_stored_name_that_is_not_unicode_cannot_take_the_history_down(
        tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    with LiveServer(str(db)) as server:
        create_table(server.http, ["bot"] * 4, rules={"variant": "standard", "match_target": 1})
        deadline = time.monotonic() + 60
        while not httpx2.get(f"{server.http}/api/history").json()["matches"]:
            assert time.monotonic() < deadline, "the bots' match did not finish"
            time.sleep(0.1)
        # An old row, stored before names were checked (or by another program).
        with sqlite3.connect(db) as connection:
            connection.execute("UPDATE matches SET seats = ?",
                               (json.dumps(["\ud800Ana", "Bruno", "Carla", "Duarte"]),))
        history = httpx2.get(f"{server.http}/api/history")
        assert history.status_code == 200, history.text
        match = history.json()["matches"][0]
        assert match["seats"] == ["?Ana", "Bruno", "Carla", "Duarte"]
        one = httpx2.get(f"{server.http}/api/history/{match['id']}")
        assert one.status_code == 200 and one.json()["match"]["seats"][0] == "?Ana"


def test_a_refused_table_does_not_use_up_the_addresss_budget(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), limits=Limits(tables_per_minute=1,
                                                                table_burst=1)) as server:
        for _ in range(5):
            assert post_table(server.http, ["Ana", "\x00", "C", "D"]).status_code == 400
        assert post_table(server.http, ["Ana", "Bruno", "Carla", "Duarte"]).status_code == 201
        assert post_table(server.http, ["Ana", "Bruno", "Carla", "Duarte"]).status_code == 429


def test_the_first_64_seat_tokens_of_the_header_are_read_and_the_rest_ignored() -> None:
    def request(header: str) -> Request:
        return Request({"type": "http", "method": "GET", "path": "/api/history",
                        "headers": [(b"x-sueca-seats", header.encode())]})

    pairs = [f"t{i}:k{i}" for i in range(MAX_HELD_SEATS + 6)]
    held = _held_seats(request(" ".join(pairs)))
    assert MAX_HELD_SEATS == 64
    assert held == {f"t{i}": f"k{i}" for i in range(MAX_HELD_SEATS)}


@pytest.mark.parametrize("name", [*BAD_NAMES, "Ana\u200d"])
def test_account_names_refuse_the_same_text(name: str) -> None:
    from sueca.server.accounts import AccountError, check_name

    with pytest.raises(AccountError) as refusal:  # letters, digits, " -_." only
        check_name(name)
    assert refusal.value.code == "bad_name"
