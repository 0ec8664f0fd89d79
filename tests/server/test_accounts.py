"""Accounts (sign-up, log-in, sessions, CSRF, limits, password change, deletion) and rated
matches on a live server: four accounts play, their ratings change; a guest makes it unrated."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import FAST, LiveServer, Player, play_on, token_of
from websockets.asyncio.client import connect

from sueca.server import Timing
from sueca.server.accounts import COOKIE, Sessions, check_name, name_key
from sueca.server.players import ANONYMOUS, Account


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with LiveServer(str(tmp_path / "sueca.db"), timing=FAST) as live:
        yield live


def signup(base: str, name: str, password: str = "segredo-123") -> httpx2.Client:
    client = httpx2.Client(base_url=base)
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    client.headers["X-CSRF-Token"] = response.json()["csrf"]
    return client


def test_names_are_checked_and_unique_whatever_the_case(server: LiveServer) -> None:
    signup(server.http, "Ana Sofia")
    taken = httpx2.post(f"{server.http}/api/accounts",
                       json={"name": "ana  SOFIA", "password": "outra-senha"})
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"
    for bad in ["", "x", "a" * 25, "<script>", 7]:
        answer = httpx2.post(f"{server.http}/api/accounts", json={"name": bad, "password": "p" * 9})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_name", bad
    short = httpx2.post(f"{server.http}/api/accounts", json={"name": "Rui", "password": "curta"})
    assert short.json()["error"] == "bad_password"
    assert check_name("  Zé   Manel ") == "Zé Manel" and name_key("ANA") == name_key("ana")


def test_login_session_and_csrf(server: LiveServer) -> None:
    signup(server.http, "Bruno")
    client = httpx2.Client(base_url=server.http)
    wrong = client.post("/api/session", json={"name": "bruno", "password": "not-it-at-all"})
    assert wrong.status_code == 401 and COOKIE not in client.cookies
    right = client.post("/api/session", json={"name": "bruno", "password": "segredo-123"})
    assert right.status_code == 200 and right.json()["account"]["name"] == "Bruno"
    me = client.get("/api/me").json()
    assert me["account"]["name"] == "Bruno" and me["csrf"] == right.json()["csrf"]
    # A POST the cookie authorises needs the token too.
    refused = client.post("/api/me/password", json={"old": "segredo-123", "new": "novo-segredo"})
    assert refused.status_code == 403 and refused.json()["error"] == "bad_csrf"
    # A forged cookie is nobody's.
    forged = httpx2.get(f"{server.http}/api/me", cookies={COOKIE: "eyJhIjoxLCJnIjowfQ.x.y"})
    assert forged.json() == {"account": None, "csrf": None}
    out = client.post("/api/session/end", headers={"X-CSRF-Token": me["csrf"]})
    assert out.status_code == 200


def test_login_is_rate_limited_per_name(server: LiveServer) -> None:
    signup(server.http, "Carla")
    codes = [httpx2.post(f"{server.http}/api/session",
                        json={"name": "Carla", "password": f"wrong-{i}-guess"}).status_code
             for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]


def test_password_change_ends_other_sessions(server: LiveServer) -> None:
    first = signup(server.http, "Duarte")
    second = httpx2.Client(base_url=server.http)
    second.post("/api/session", json={"name": "Duarte", "password": "segredo-123"})
    assert second.get("/api/me").json()["account"] is not None
    changed = first.post("/api/me/password", json={"old": "segredo-123", "new": "novo-segredo"})
    assert changed.status_code == 200, changed.text
    first.headers["X-CSRF-Token"] = changed.json()["csrf"]
    assert first.get("/api/me").json()["account"]["name"] == "Duarte"
    assert second.get("/api/me").json()["account"] is None  # its cookie's generation is old
    again = httpx2.post(f"{server.http}/api/session",
                       json={"name": "Duarte", "password": "novo-segredo"})
    assert again.status_code == 200


def test_sessions_refuse_what_they_did_not_sign() -> None:
    sessions = Sessions(b"k" * 32)
    cookie = sessions.cookie(Account(3, "Ana", "h", 1, 0.0))
    assert sessions.read(cookie) is not None and sessions.read(cookie).account_id == 3
    assert Sessions(b"j" * 32).read(cookie) is None
    assert sessions.read(cookie[:-2] + "xx") is None and sessions.read("x" * 600) is None
    assert sessions.csrf_ok(cookie, sessions.csrf(cookie))
    assert not sessions.csrf_ok(cookie, "0" * 64) and not sessions.csrf_ok(None, "x")


async def _seat(server: LiveServer, table: dict[str, Any], seat: int,
                client: httpx2.Client | None) -> Player:
    headers = {} if client is None else {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
    socket = await connect(f"{server.ws}/ws/{table['id']}", additional_headers=headers)
    player = Player(socket, seat)
    await player.recv_until("state")
    await player.send({"type": "join", "token": token_of(table, seat)})
    await player.recv_until("joined")
    return player


async def _play_match(server: LiveServer, clients: list[httpx2.Client | None],
                      seed: int, table: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    table = table or new_table(server)
    players = [await _seat(server, table, seat, client) for seat, client in enumerate(clients)]
    rng = random.Random(seed)
    await asyncio.gather(*(play_on(p, rng) for p in players))
    views = []
    for player in players:  # the rating change follows the match's last view
        while "rating" not in (player.view or {}):
            await player.recv()
        views.append(player.view or {})
        await player.socket.close()
    return views


def new_table(server: LiveServer) -> dict[str, Any]:
    table: dict[str, Any] = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard", "match_target": 1},
        "seats": [{"kind": "human"} for _ in range(4)]}).json()
    return table


def test_four_accounts_play_a_rated_match_and_their_ratings_change(server: LiveServer) -> None:
    clients = [signup(server.http, name) for name in ("Ana", "Bruno", "Carla", "Duarte")]
    views = asyncio.run(_play_match(server, list(clients), seed=3))
    rating = views[0]["rating"]
    assert rating["rated"] and rating["kind"] == "four" and rating["reason"] is None
    assert all(v["rating"] == rating for v in views)
    changes = {c["seat"]: c for c in rating["changes"]}
    assert sorted(changes) == [0, 1, 2, 3]
    winners = [s for s in range(4) if s % 2 == views[0]["score"]["winner"]]
    for seat, change in changes.items():
        went_up = change["after"] > change["before"]
        assert went_up == (seat in winners)
    assert [seat["name"] for seat in views[0]["seats"]] == ["Ana", "Bruno", "Carla", "Duarte"]
    board = httpx2.get(f"{server.http}/api/leaderboard?min=1").json()["players"]
    assert sorted(p["player"] for p in board) == ["Ana", "Bruno", "Carla", "Duarte"]
    assert [p["matches"] for p in board] == [1, 1, 1, 1]
    assert board[0]["player"] in [("Ana", "Bruno", "Carla", "Duarte")[s] for s in winners]
    assert httpx2.get(f"{server.http}/api/leaderboard").json()["players"] == []  # min 5
    monthly = httpx2.get(f"{server.http}/api/leaderboard?min=1&period=month").json()
    assert len(monthly["players"]) == 4
    # The table was private: its match is listed to Ana herself (logged in) only; anyone
    # else sees it counted, but not who played it, with whom, nor its replay.
    profile = clients[0].get("/api/players/ana").json()
    assert profile["played"] == 1 and profile["won"] == int(0 in winners)
    assert profile["partners"] == [{"name": "Carla", "matches": 1}]
    assert profile["ratings"]["four"]["matches"] == 1
    assert profile["last"][0]["replay"].startswith("/history/")
    for viewer in (httpx2.Client(base_url=server.http), clients[1]):
        public = viewer.get("/api/players/ana").json()
        assert public["played"] == 1 and public["won"] == profile["won"]
        assert public["ratings"] == profile["ratings"]
        assert public["last"] == [] and public["partners"] == []
        assert "/history/" not in viewer.get("/api/players/ana").text
    svg = httpx2.get(f"{server.http}/api/players/Ana/rating.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "<polyline" in svg.text
    assert httpx2.get(f"{server.http}/api/players/Nobody").status_code == 404


def test_a_guest_at_the_table_makes_the_match_unrated(server: LiveServer) -> None:
    clients: list[httpx2.Client | None] = [signup(server.http, n) for n in ("Rui", "Sara", "Tó")]
    views = asyncio.run(_play_match(server, [*clients, None], seed=5))
    rating = views[0]["rating"]
    assert not rating["rated"] and rating["reason"] == "a guest played"
    assert rating["changes"] == []
    assert httpx2.get(f"{server.http}/api/leaderboard?min=1").json()["players"] == []
    assert httpx2.get(f"{server.http}/api/players/Rui").json()["played"] == 1


def test_an_open_tables_match_is_listed_to_all_and_one_account_at_two_seats_counts_once(
        server: LiveServer) -> None:
    rui = signup(server.http, "Rui")
    table: dict[str, Any] = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard", "match_target": 1}, "open": True,
        "seats": [{"kind": "human"} for _ in range(4)]}).json()
    asyncio.run(_play_match(server, [rui, rui, None, None], seed=5, table=table))
    for viewer in (rui, httpx2.Client(base_url=server.http)):
        profile = viewer.get("/api/players/Rui").json()
        assert profile["played"] == 1, profile  # the store lists the match once per seat
        assert len(profile["last"]) == 1 and profile["last"][0]["replay"].startswith("/history/")
        assert all(p["name"] != "Rui" for p in profile["partners"])  # not his own partner


def test_deleting_an_account_anonymises_its_matches(server: LiveServer) -> None:
    clients = [signup(server.http, name) for name in ("Vera", "Xico", "Zeca", "Lia")]
    table = new_table(server)
    asyncio.run(_play_match(server, list(clients), seed=9, table=table))
    held = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 1)}"}
    history = httpx2.get(f"{server.http}/api/history", headers=held).json()["matches"]
    assert history[0]["seats"] == ["Vera", "Xico", "Zeca", "Lia"]
    wrong = clients[0].post("/api/me/delete", json={"password": "nope-nope-nope"})
    assert wrong.status_code == 401
    gone = clients[0].post("/api/me/delete", json={"password": "segredo-123"})
    assert gone.status_code == 200, gone.text
    history = httpx2.get(f"{server.http}/api/history", headers=held).json()["matches"]
    assert history[0]["seats"] == [ANONYMOUS, "Xico", "Zeca", "Lia"]
    assert httpx2.get(f"{server.http}/api/players/Vera").status_code == 404
    board = httpx2.get(f"{server.http}/api/leaderboard?min=1").json()["players"]
    assert sorted(p["player"] for p in board) == ["Lia", "Xico", "Zeca"]
    assert httpx2.post(f"{server.http}/api/session",
                      json={"name": "Vera", "password": "segredo-123"}).status_code == 401


def test_a_stand_in_for_most_of_a_seat_makes_the_match_unrated(tmp_path: Path) -> None:
    quick_grace = Timing(grace=0.05, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=quick_grace) as live:
        clients = [signup(live.http, n) for n in ("Ana", "Bruno", "Carla", "Duarte")]

        async def play() -> dict[str, Any]:
            table = new_table(live)
            players = [await _seat(live, table, seat, client)
                       for seat, client in enumerate(clients)]
            await players[3].socket.close()  # Duarte leaves: a bot plays his seat from now on
            rng = random.Random(4)
            await asyncio.gather(*(play_on(p, rng) for p in players[:3]))
            while "rating" not in (players[0].view or {}):
                await players[0].recv()
            return players[0].view or {}

        view = asyncio.run(play())
    rating = view["rating"]
    assert not rating["rated"] and rating["reason_code"] == "stand_in"
    assert rating["changes"] == []


def test_a_match_that_ended_before_a_restart_is_rated_after_it(tmp_path: Path) -> None:
    db = str(tmp_path / "sueca.db")
    with LiveServer(db, timing=FAST) as live:
        clients = [signup(live.http, n) for n in ("Ana", "Bruno", "Carla", "Duarte")]
        asyncio.run(_play_match(live, list(clients), seed=3))
    # As if the server had stopped between the match's last card and its record.
    raw = sqlite3.connect(db)
    for table in ("rated_matches", "match_players", "rating_changes", "ratings"):
        raw.execute(f"DELETE FROM {table}")
    raw.commit()
    raw.close()
    with LiveServer(db, timing=FAST) as live:
        deadline = time.monotonic() + 10
        while not httpx2.get(f"{live.http}/api/leaderboard?min=1").json()["players"]:
            assert time.monotonic() < deadline, "the restored match was not rated"
            time.sleep(0.05)
        board = httpx2.get(f"{live.http}/api/leaderboard?min=1").json()["players"]
        assert sorted(p["player"] for p in board) == ["Ana", "Bruno", "Carla", "Duarte"]
        assert all(p["matches"] == 1 for p in board)


def test_accounts_and_a_rated_match_on_postgresql(tmp_path: Path) -> None:
    from services import fresh_postgres_database

    from sueca.server.backends import open_storage

    with fresh_postgres_database() as url, LiveServer(
            str(tmp_path / "unused.db"), timing=FAST, storage=open_storage(url)) as live:
        clients = [signup(live.http, n) for n in ("Ana", "Bruno", "Carla", "Duarte")]
        views = asyncio.run(_play_match(live, list(clients), seed=8))
        assert views[0]["rating"]["rated"] and len(views[0]["rating"]["changes"]) == 4
        board = httpx2.get(f"{live.http}/api/leaderboard?min=1").json()["players"]
        assert sorted(p["player"] for p in board) == ["Ana", "Bruno", "Carla", "Duarte"]
        assert httpx2.get(f"{live.http}/api/players/Ana").json()["played"] == 1
        gone = clients[1].post("/api/me/delete", json={"password": "segredo-123"})
        assert gone.status_code == 200
        assert httpx2.get(f"{live.http}/api/players/Bruno").status_code == 404
