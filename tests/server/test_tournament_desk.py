"""The tournament desk on a live server: refusals (bad input, guests, other accounts), a
forfeit after the wait, withdrawal, reseating and adjudication through the API, a knock-out
with a bye, the tokens kept to their owners."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import FAST, LiveServer, Player
from websockets.asyncio.client import connect

from sueca.server.accounts import COOKIE


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with LiveServer(str(tmp_path / "sueca.db"), timing=FAST) as live:
        yield live


def signup(base: str, name: str) -> httpx2.Client:
    client = httpx2.Client(base_url=base, timeout=30)
    response = client.post("/api/accounts", json={"name": name, "password": "segredo-123"})
    assert response.status_code == 201, response.text
    client.headers["X-CSRF-Token"] = response.json()["csrf"]
    return client


def tournament(organiser: httpx2.Client, clients: dict[str, httpx2.Client], pairs: int,
               **settings: Any) -> int:
    made = organiser.post("/api/tournaments", json={"name": "Torneio", **settings})
    assert made.status_code == 201, made.text
    tid: int = made.json()["id"]
    names = list(clients)
    for i in range(pairs):
        a, b = names[2 * i], names[2 * i + 1]
        for who, partner in ((a, b), (b, a)):  # the partner named confirms
            answer = clients[who].post(f"/api/tournaments/{tid}/register",
                                       json={"partner": partner})
            assert answer.status_code == 200, answer.text
    return tid


def people(server: LiveServer, n: int) -> dict[str, httpx2.Client]:
    return {f"P{i}": signup(server.http, f"P{i}") for i in range(n)}


def test_refusals_name_the_problem_and_change_nothing(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    url = f"{server.http}/api/tournaments"
    guest = httpx2.post(url, json={"name": "x"})
    assert guest.status_code == 403 and guest.json()["error"] == "bad_csrf"
    for body, code in [({"name": ""}, "bad_tournament"), ({"name": "x", "format": "liga"},
                       "bad_format"), ({"name": "x", "rounds": 99}, "bad_rounds"),
                       ({"name": "x", "rounds": "3"}, "bad_tournament"),
                       ({"name": "x", "format": "knockout", "duplicate_rounds": [1]},
                        "bad_rounds"), ({"name": "x", "sets": 2}, "bad_sets"),
                       ({"name": ["x"]}, "bad_tournament")]:
        answer = organiser.post("/api/tournaments", json=body)
        assert answer.status_code in (400, 409), (body, answer.text)
        assert answer.json()["error"] == code, body
    assert organiser.post("/api/tournaments", content=b"{not json").json()["error"] == "malformed"
    big = organiser.post("/api/tournaments", content=b"{" + b" " * 5000 + b"}")
    assert big.status_code == 413
    assert httpx2.get(url).json()["tournaments"] == []  # nothing was made
    for path in ("/api/tournaments/999", "/api/tournaments/abc", "/api/tournaments/%C2%B2",
                 "/api/tournaments/" + "9" * 30):
        assert httpx2.get(server.http + path).status_code == 404, path
    for _ in range(5):
        assert organiser.post("/api/tournaments", json={"name": "t"}).status_code == 201
    too_many = organiser.post("/api/tournaments", json={"name": "t"})
    assert too_many.status_code == 429 and too_many.json()["error"] == "too_many"
    other = signup(server.http, "Outro")
    tid = httpx2.get(url).json()["tournaments"][0]["id"]
    alone = other.post(f"{url}/{tid}/register", json={"partner": "Ninguém"})
    assert alone.status_code == 404 and alone.json()["error"] == "no_player"
    one_pair = other.post(f"{url}/{tid}/register", json={"partner": "Org"})
    assert one_pair.status_code == 200
    early = organiser.post(f"{url}/{tid}/rounds")
    assert early.status_code == 409 and early.json()["error"] == "too_few_pairs"
    assert organiser.get(f"{url}/{tid}").json()["rounds"] == []


async def _take_seats(server: LiveServer, clients: list[httpx2.Client],
                      tid: int) -> list[Player]:
    players = []
    for client in clients:
        mine = client.get(f"/api/tournaments/{tid}").json()["my_table"]
        table_id, token = mine["link"].removeprefix("/t/").split("#")
        socket = await connect(f"{server.ws}/ws/{table_id}", additional_headers={
            "Cookie": f"{COOKIE}={client.cookies[COOKIE]}"})
        player = Player(socket, mine["seat"])
        await player.recv_until("state")
        await player.send({"type": "join", "token": token})
        await player.recv_until("joined")
        players.append(player)
    return players


def test_a_pair_that_does_not_come_loses_by_forfeit(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 4)
    tid = tournament(organiser, clients, 2, rounds=1, forfeit_wait=1)
    server.app.state.tournaments.look_every = 0  # every look reads the tables (the pages: 5 s)
    view = organiser.post(f"/api/tournaments/{tid}/rounds").json()
    table = view["rounds"][0]["tables"][0]
    assert table["pairs"] == [1, 2] and table["watch"].startswith("/t/")
    # Each player's page gets his own seat's token, and nobody else's.
    links = {name: c.get(f"/api/tournaments/{tid}").json()["my_table"]
             for name, c in clients.items()}
    assert [links[n]["seat"] for n in ("P0", "P2", "P1", "P3")] == [0, 1, 2, 3]
    assert len({link["link"] for link in links.values()}) == 4
    assert organiser.get(f"/api/tournaments/{tid}").json()["my_table"] is None

    async def come() -> None:
        players = await _take_seats(server, [clients["P0"], clients["P1"]], tid)  # pair 1
        time.sleep(1.2)  # the tournament's wait (1 s) runs out; pair 2 never came
        for player in players:
            await player.socket.close()

    asyncio.run(come())
    after = httpx2.get(f"{server.http}/api/tournaments/{tid}").json()
    result = after["rounds"][0]["tables"][0]["result"]
    assert result["how"] == "forfeit" and result["winner"] == 0 and result["games"] == [4, 0]
    assert [(s["pair"], s["match_points"], s["game_points"]) for s in after["standings"]] == [
        (1, 2, 4), (2, 0, 0)]
    assert after["status"] == "finished"


def test_organiser_reseats_adjudicates_and_a_pair_withdraws(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 8)
    tid = tournament(organiser, clients, 4, rounds=2)
    first = organiser.post(f"/api/tournaments/{tid}/rounds").json()["rounds"][0]
    old = {t["watch"] for t in first["tables"]}
    assert [t["pairs"] for t in first["tables"]] == [[1, 2], [3, 4]]
    wrong = clients["P0"].post(f"/api/tournaments/{tid}/reseat", json={"round": 1,
                                                                       "pairs": [2, 3]})
    assert wrong.status_code == 403
    reseated = organiser.post(f"/api/tournaments/{tid}/reseat",
                              json={"round": 1, "pairs": [2, 3]}).json()["rounds"][0]
    assert [t["pairs"] for t in reseated["tables"]] == [[1, 3], [2, 4]]
    assert not old & {t["watch"] for t in reseated["tables"]}  # new tables for both
    link = clients["P4"].get(f"/api/tournaments/{tid}").json()["my_table"]  # pair 3
    assert link["table"] == 1 and link["seat"] == 1
    bad = organiser.post(f"/api/tournaments/{tid}/adjudicate",
                         json={"round": 1, "table": 1, "winner": 0, "games": [1, 4]})
    assert bad.status_code == 409 and bad.json()["error"] == "bad_result"
    decided = organiser.post(f"/api/tournaments/{tid}/adjudicate",
                             json={"round": 1, "table": 1, "winner": 1, "games": [2, 4]})
    assert decided.json()["rounds"][0]["tables"][0]["result"]["how"] == "adjudicated"
    gone = clients["P0"].post(f"/api/tournaments/{tid}/withdraw", json={"pair": 3})
    assert gone.status_code == 403  # not his pair
    gone = clients["P6"].post(f"/api/tournaments/{tid}/withdraw", json={"pair": 4})
    view = gone.json()
    assert view["rounds"][0]["tables"][1]["result"]["how"] == "forfeit"
    assert view["rounds"][0]["finished"]
    second = organiser.post(f"/api/tournaments/{tid}/rounds").json()["rounds"][1]
    # Pair 4 left: three pairs, the lowest without a bye sits out.
    playing = [p for t in second["tables"] for p in t["pairs"]]
    assert 4 not in playing and len(second["byes"]) == 1


def test_knockout_with_a_bye(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 6)
    tid = tournament(organiser, clients, 3, format="knockout", rounds=2)
    first = organiser.post(f"/api/tournaments/{tid}/rounds").json()["rounds"][0]
    # bracket of 4: 1-(bye), 2-3
    assert [t["pairs"] for t in first["tables"]] == [[2, 3]]
    assert [b["pair"] for b in first["byes"]] == [1]
    organiser.post(f"/api/tournaments/{tid}/adjudicate",
                   json={"round": 1, "table": 1, "winner": 1})
    final = organiser.post(f"/api/tournaments/{tid}/rounds").json()["rounds"][1]
    assert [t["pairs"] for t in final["tables"]] == [[1, 3]]


def test_pages_are_served_under_the_policy_with_no_inline_script(server: LiveServer) -> None:
    import re

    for path in ("/tournaments", "/tournaments/1", "/static/tournaments.js",
                 "/static/tournament.js"):
        response = httpx2.get(server.http + path)
        assert response.status_code == 200, path
        if path.startswith("/tournaments"):
            assert "script-src 'self'" in response.headers["content-security-policy"]
            scripts = re.findall(r"<script([^>]*)>(.*?)</script>", response.text, re.S)
            assert scripts and all('src="/static/' in attrs and not body.strip()
                                   for attrs, body in scripts), path
            assert "onclick" not in response.text and "http" not in response.text.replace(
                "http-equiv", "")


def test_individuals_are_drawn_into_pairs_at_the_first_round(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 5)
    tid = organiser.post("/api/tournaments", json={"name": "Sorteio", "individuals": True,
                                                   "rounds": 1}).json()["id"]
    paired = clients["P0"].post(f"/api/tournaments/{tid}/register", json={"partner": "P1"})
    assert paired.status_code == 409 and paired.json()["error"] == "register_alone"
    for client in clients.values():
        assert client.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
    view = clients["P0"].get(f"/api/tournaments/{tid}").json()
    assert view["you"]["registered"] and len(view["singles"]) == 5 and view["pairs"] == []
    started = organiser.post(f"/api/tournaments/{tid}/rounds").json()
    assert len(started["pairs"]) == 2 and len(started["singles"]) == 1  # one left over
    drawn = {n for p in started["pairs"] for n in p["players"]} | set(started["singles"])
    assert drawn == set(clients)
    assert len(started["rounds"][0]["tables"]) == 1
