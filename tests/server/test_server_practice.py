"""Practice tables (sueca/server/practice.py): a hint before each card, on request, with its
reason; the table marked in the History; and a private table's reviews its players' only."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer
from web_support import chromium, english_browser
from websockets.asyncio.client import connect

from sueca.cards import parse_card
from sueca.server.rooms import Timing

__all__ = ["chromium", "english_browser"]  # the fixtures, imported for pytest

QUICK = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0, invite_wait=0.5)


def wait_for(predicate: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def new_table(base: str, kinds: list[str], practice: bool, target: int = 10) -> dict[str, Any]:
    seats = [{"kind": k, "name": n} for k, n in zip(kinds, ["Ana", "Bruno", "Carla", "Duarte"],
                                                    strict=False)]
    response = httpx2.post(f"{base}/api/tables", json={
        "rules": {"variant": "standard", "match_target": target}, "seats": seats,
        "practice": practice})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


async def join(url: str, token: str) -> Any:
    socket = await connect(url)
    await socket.send(json.dumps({"type": "join", "token": token}))
    return socket


@pytest.mark.slow
def test_a_learner_asks_for_a_hint_before_a_card(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db")) as server:
        made = new_table(server.http, ["human", "bot", "bot", "bot"], practice=True)
        table, token = made["id"], made["seats"][0]["link"].split("#")[1]
        room = wait_for(lambda: server.room(table))

        async def play() -> None:
            socket = await join(f"{server.ws}/ws/{table}", token)
            try:
                view: dict[str, Any] = {}
                while not (view.get("actor") == 0 and view.get("phase") == "playing"
                           and view.get("legal")):
                    message = json.loads(await socket.recv())
                    if message["type"] == "state":
                        view = message["view"]
                assert view["practice"] is True
                async with httpx2.AsyncClient() as client:
                    answer = await client.post(f"{server.http}/api/tables/{table}/hint?lang=en",
                                               json={"token": token})
                assert answer.status_code == 200, answer.text
                hint = answer.json()
                legal = {parse_card(c) for c in view["legal"]}
                assert parse_card(hint["card"]) in legal and hint["reason"]
                assert "pimc" not in hint["reason"]  # plain words, not the bot's jargon
                # Not the seat's turn, a wrong token: refused with a reason.
                async with httpx2.AsyncClient() as client:
                    wrong = await client.post(f"{server.http}/api/tables/{table}/hint",
                                              json={"token": "x" * 24})
                assert wrong.status_code == 403 and wrong.json()["error"] == "bad_token"
            finally:
                await socket.close()

        asyncio.run(play())
        assert room.table.practice
        # Not a practice table: no hint.
        other = new_table(server.http, ["human", "bot", "bot", "bot"], practice=False)
        refused = httpx2.post(f"{server.http}/api/tables/{other['id']}/hint",
                             json={"token": other["seats"][0]["link"].split("#")[1]})
        assert refused.status_code == 409 and refused.json()["error"] == "not_practice"
        assert httpx2.post(f"{server.http}/api/tables/nosuch/hint",
                          json={}).status_code == 404


@pytest.mark.slow
def test_practice_matches_are_marked_in_the_history(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db")) as server:
        new_table(server.http, ["bot"] * 4, practice=True, target=1)
        [match] = wait_for(lambda: httpx2.get(f"{server.http}/api/history").json()["matches"])
        assert match["practice"] is True
    with LiveServer(str(tmp_path / "other.db")) as server:
        new_table(server.http, ["bot"] * 4, practice=False, target=1)
        [match] = wait_for(lambda: httpx2.get(f"{server.http}/api/history").json()["matches"])
        assert match["practice"] is False


@pytest.mark.slow
def test_a_private_tables_reviews_are_its_players_only(tmp_path: Path) -> None:
    # One invited person who never comes: a bot stands in at once (invite_wait), the match
    # ends after a deal; the table is private (a seat with a token, not open).
    with LiveServer(str(tmp_path / "sueca.db"), timing=QUICK) as server:
        made = new_table(server.http, ["human", "bot", "bot", "bot"], practice=False,
                         target=1)
        table, token = made["id"], made["seats"][0]["link"].split("#")[1]
        room = wait_for(lambda: server.room(table))
        wait_for(lambda: room.table.match.is_over, 120)
        match_id = room.table.match_id
        wait_for(lambda: httpx2.get(f"{server.http}/api/history/{match_id}",
                                   headers={"X-Sueca-Seats": f"{table}:{token}"}
                                   ).status_code == 200)
        body = {"match": match_id, "deal": 0, "seat": 0}
        stranger = httpx2.post(f"{server.http}/api/reviews", json=body)
        assert stranger.status_code == 404 and stranger.json()["error"] == "no_match"
        by_table = httpx2.post(f"{server.http}/api/reviews",
                              json={"table": table, "deal": 0, "seat": 0})
        assert by_table.status_code == 404  # the table's match is over: the History's rule
        player = httpx2.post(f"{server.http}/api/reviews", json=body,
                            headers={"X-Sueca-Seats": f"{table}:{token}"})
        assert player.status_code in (200, 202), player.text
        # Polling it without the token: as if there were none.
        poll = httpx2.get(f"{server.http}/api/reviews/{match_id}/0/0")
        assert poll.status_code == 404
        held = {"X-Sueca-Seats": f"{table}:{token}"}
        done = wait_for(lambda: (j := httpx2.get(f"{server.http}/api/reviews/{match_id}/0/0",
                                                headers=held).json())["status"] == "done"
                        and j, 120)
        assert len(done["review"]["cards"]) == 10


@pytest.mark.slow
def test_the_lobby_makes_a_practice_table_and_the_hint_button_answers(
        english_browser: Any, tmp_path: Path) -> None:
    from web_support import ARTIFACTS

    with LiveServer(str(tmp_path / "sueca.db")) as server:
        page = english_browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.http + "/")
        page.fill("#name", "Ana")
        page.check("#practice")
        page.click("#create-button")
        page.click("#my-seat")
        page.wait_for_selector("#hint-button", state="visible", timeout=60_000)
        assert page.inner_text("#hint-button") == "Hint"
        page.click("#hint-button")
        page.wait_for_function("document.querySelector('#hint-text').textContent.length > 0",
                               timeout=60_000)
        text = page.inner_text("#hint-text")
        assert text.startswith("Hint: ") and " — " in text, text
        (room,) = server.app.state.rooms.rooms.values()
        assert room.table.practice
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-practice-hint.png"))
        assert not errors, errors


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_both_stores_say_a_practice_tables_matches_are_practice(
        backend: str, tmp_path: Path) -> None:
    from services import fresh_postgres_database

    from sueca.server.backends import open_storage

    def check(where: str) -> None:
        store = open_storage(where, lock=False)
        try:
            for table_id, settings in (("p1", {"seats": [], "practice": True}),
                                       ("p2", {"seats": []})):
                store.create_table(table_id, settings)
                match_id = store.start_match(table_id, {"variant": "standard"}, first_dealer=0,
                                             seats=["Ana", "Bruno", "Carla", "Duarte"])
                match = store.load_match(match_id)
                assert match is not None and match.practice is ("practice" in settings)
        finally:
            store.close()

    if backend == "sqlite":
        check(str(tmp_path / "sueca.db"))
    else:
        with fresh_postgres_database() as url:
            check(url)
