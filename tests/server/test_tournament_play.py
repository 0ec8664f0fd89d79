"""The torneio on a live server (issue 18's acceptance): eight accounts register as four
pairs, an organiser runs two Swiss rounds and a duplicate round, every match to 4 played over
WebSockets by scripted clients (each from the link its own page is given), and the standings
are checked against a hand computation from what the players saw at their tables."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import FAST, LiveServer, Player, play_on
from web_support import ARTIFACTS, chromium, open_page
from websockets.asyncio.client import connect

from sueca.server.accounts import COOKIE

__all__ = ["chromium"]

NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipe", "Graça", "Hugo"]


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


async def _take_seats(server: LiveServer, clients: list[httpx2.Client],
                      tid: int) -> list[Player]:
    """Each player opens his own seat's link (from the tournament's API, his session's) and
    sits down."""
    players = []
    for client in clients:
        mine = client.get(f"/api/tournaments/{tid}").json()["my_table"]
        table_id, token = mine["link"].removeprefix("/t/").split("#")
        socket = await connect(f"{server.ws}/ws/{table_id}", additional_headers={
            "Cookie": f"{COOKIE}={client.cookies[COOKIE]}"})
        player = Player(socket, mine["seat"])
        # The spectator's view first; at a duplicate round's (sealed) table, no_spectators.
        await player.recv()
        await player.send({"type": "join", "token": token})
        await player.recv_until("joined")
        players.append(player)
    return players


async def _play_table(server: LiveServer, clients: list[httpx2.Client], tid: int,
                      seed: int) -> list[Player]:
    """Each of four players takes his seat (:func:`_take_seats`) and plays random legal
    cards to the end of the match."""
    players = await _take_seats(server, clients, tid)
    rng = random.Random(seed)
    await asyncio.gather(*(play_on(p, rng, timeout=60) for p in players))
    for player in players:
        await player.socket.close()
    return players


def _seen(player: Player, number: int = 1) -> dict[str, Any]:
    """What a player saw of the table's match ``number``: the final score and each deal's card
    points and hands (the end-of-deal summaries)."""
    deals: dict[int, dict[str, Any]] = {}
    final: dict[str, Any] = {}
    for message in player.log:
        if message["type"] != "state":
            continue
        view = message["view"]
        if view["score"]["number"] != number:
            continue
        if view["phase"] != "playing" and view.get("summary"):
            deals[view["deal"]] = {"points": view["summary"]["points"],
                                   "hands": view["summary"]["hands"]}
        final = view
    return {"score": final["score"]["match"], "winner": final["score"]["winner"],
            "deals": [deals[i] for i in sorted(deals)]}


def _order(totals: dict[int, list[Any]]) -> list[int]:
    return sorted(totals, key=lambda p: (-totals[p][0], -totals[p][1], -totals[p][2], p))


def _monrad(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """The pairing rule by hand, for four pairs: the leader against the best it has not met."""
    first = order[0]
    for other in order[1:]:
        rest = [p for p in order[1:] if p != other]
        if frozenset((first, other)) not in met and frozenset(rest) not in met:
            return [(first, other), (rest[0], rest[1])]
    raise AssertionError("no pairing without a rematch")


def _round(server: LiveServer, organiser: httpx2.Client, tid: int,
           by_account: dict[str, httpx2.Client], seed: int) -> tuple[dict[str, Any],
                                                                   list[dict[str, Any]]]:
    started = organiser.post(f"/api/tournaments/{tid}/rounds")
    assert started.status_code == 200, started.text
    view = started.json()
    round_ = view["rounds"][-1]
    pairs = {p["pair"]: p["players"] for p in view["pairs"]}

    async def play_all() -> list[list[Player]]:
        return await asyncio.gather(*(
            _play_table(server, [by_account[pairs[t["pairs"][0]][0]],
                                 by_account[pairs[t["pairs"][1]][0]],
                                 by_account[pairs[t["pairs"][0]][1]],
                                 by_account[pairs[t["pairs"][1]][1]]],
                        tid, seed + t["table"])
            for t in round_["tables"]))

    # In a thread of its own: the browser fixture's Playwright holds this thread's loop.
    with ThreadPoolExecutor(1) as thread:
        played = thread.submit(asyncio.run, play_all()).result()
    return round_, [_seen(players[0]) for players in played]


def test_eight_accounts_two_swiss_rounds_and_a_duplicate_round(server: LiveServer,
                                                               chromium: Any) -> None:
    server.app.state.tournaments.look_every = 0  # each look reads the tables (the pages: 5 s)
    organiser = signup(server.http, "Organizador")
    by_account = {name: signup(server.http, name) for name in NAMES}
    made = organiser.post("/api/tournaments", json={
        "name": "Torneio do Café", "format": "swiss", "rounds": 3, "duplicate_rounds": [3],
        "target": 4})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for a, b in zip(NAMES[0::2], NAMES[1::2], strict=True):  # pairs 1-4: Ana & Bruno, ...
        for who, partner in ((a, b), (b, a)):  # the partner named confirms
            registered = by_account[who].post(f"/api/tournaments/{tid}/register",
                                              json={"partner": partner})
            assert registered.status_code == 200, registered.text
    again = by_account["Ana"].post(f"/api/tournaments/{tid}/register", json={"partner": "Eva"})
    assert again.status_code == 409 and again.json()["error"] == "registered"
    not_mine = by_account["Ana"].post(f"/api/tournaments/{tid}/rounds")
    assert not_mine.status_code == 403 and not_mine.json()["error"] == "not_organiser"
    no_csrf = httpx2.post(f"{server.http}/api/tournaments/{tid}/rounds",
                         cookies={COOKIE: organiser.cookies[COOKIE]})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"] == "bad_csrf"

    totals: dict[int, list[Any]] = {p: [Fraction(0), 0, 0] for p in range(1, 5)}
    met: set[frozenset[int]] = set()
    expected_pairs = [(1, 2), (3, 4)]  # round 1: all level, in registration order
    seen_by_round = []
    for number in (1, 2, 3):
        round_, seen = _round(server, organiser, tid, by_account, seed=10 * number)
        assert [tuple(t["pairs"]) for t in round_["tables"]] == expected_pairs, number
        assert round_["duplicate"] == (number == 3)
        seen_by_round.append(seen)
        if number < 3:
            for (a, b), s in zip(expected_pairs, seen, strict=True):
                winner = (a, b)[s["winner"]]
                totals[winner][0] += 2
                for side, pair in enumerate((a, b)):
                    totals[pair][1] += s["score"][side]
                    totals[pair][2] += sum(d["points"][side] for d in s["deals"])
                met.add(frozenset((a, b)))
            expected_pairs = _monrad(_order(totals), met)
        else:
            # Duplicate: the two tables held the same cards, deal by deal.
            one, two = seen
            common = min(len(one["deals"]), len(two["deals"]))
            assert common >= 1
            for i in range(common):
                assert one["deals"][i]["hands"] == two["deals"][i]["hands"], i
            for side in (0, 1):
                mine = sum(d["points"][side] for d in one["deals"][:common])
                theirs = sum(d["points"][side] for d in two["deals"][:common])
                first, second = expected_pairs[0][side], expected_pairs[1][side]
                if mine == theirs:
                    totals[first][0] += 1
                    totals[second][0] += 1
                else:
                    totals[first if mine > theirs else second][0] += 2
            for (a, b), s in zip(expected_pairs, seen, strict=True):
                for side, pair in enumerate((a, b)):
                    totals[pair][1] += s["score"][side]
                    totals[pair][2] += sum(d["points"][side] for d in s["deals"])

    final = httpx2.get(f"{server.http}/api/tournaments/{tid}").json()
    assert final["status"] == "finished"
    got = [(s["pair"], Fraction(s["match_points"]), s["game_points"], s["card_points"])
           for s in final["standings"]]
    assert got == [(p, *totals[p]) for p in _order(totals)]
    assert [s["rank"] for s in final["standings"]] == [1, 2, 3, 4]
    listed = httpx2.get(f"{server.http}/api/tournaments").json()["tournaments"]
    assert listed[0]["id"] == tid and listed[0]["status"] == "finished"
    # The downloads say the same.
    download = httpx2.get(f"{server.http}/api/tournaments/{tid}/results.json")
    assert "attachment" in download.headers["content-disposition"]
    assert download.json()["standings"] == final["standings"]
    sheet = list(csv.reader(io.StringIO(
        httpx2.get(f"{server.http}/api/tournaments/{tid}/results.csv").text)))
    assert sheet[0][:3] == ["rank", "pair", "name"]
    assert [int(row[1]) for row in sheet[1:5]] == [p for p, *_ in got]
    # A spectator sees no seat's token: none in the public view.
    assert final["my_table"] is None and "#" not in str(final["rounds"])

    # The standings page, in a browser: the same order and figures, in English too.
    page, errors = open_page(chromium, f"{server.http}/tournaments/{tid}", locale="en")
    page.wait_for_selector("#standings tbody tr")
    cells = page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    names = {p["pair"]: p["name"] for p in final["pairs"]}
    assert [(c[1], c[2], c[3], c[4]) for c in cells] == [
        (names[p], str(float(mp)).removesuffix(".0"), str(gp), str(cp))
        for p, mp, gp, cp in got]
    facts = page.text_content("#facts") or ""
    assert "Finished" in facts and "round 3 of 3" in facts, facts
    assert page.locator("#register-box").is_hidden() and page.locator("#organiser").is_hidden()
    assert page.locator("#rounds h3").count() == 3
    assert "duplicate" in page.text_content("#rounds h3:first-child")
    page.screenshot(path=str(ARTIFACTS / "tournament-standings.png"), full_page=True)
    listing, list_errors = open_page(chromium, f"{server.http}/tournaments", locale="pt-PT")
    listing.wait_for_selector("#list tbody tr")
    assert "Torneio do Café" in listing.text_content("#list tbody")
    assert "Terminado" in listing.text_content("#list tbody")
    assert errors == [] and list_errors == []


async def _play_sets(server: LiveServer, clients: list[httpx2.Client], tid: int,
                     organiser: httpx2.Client) -> list[dict[str, Any]]:
    """Matches at one table, a rematch after each, until the tournament has the table's
    result (the best of three); what seat 0 saw of each match."""
    players = await _take_seats(server, clients, tid)
    rng = random.Random(4)
    seen = []
    wins = [0, 0]
    for number in range(1, 4):
        await asyncio.gather(*(play_on(p, rng, timeout=60) for p in players))
        seen.append(_seen(players[0], number))
        wins[seen[-1]["winner"]] += 1
        if max(wins) == 2:
            break
        for player in players:
            await player.send({"type": "rematch"})
        for player in players:
            while player.view is None or player.view["score"]["number"] != number + 1 or \
                    player.view["phase"] != "playing":
                await player.recv(30)
    for player in players:
        await player.socket.close()
    return seen


def test_best_of_three_sets_at_one_table(server: LiveServer) -> None:
    organiser = signup(server.http, "Organizador")
    clients = {name: signup(server.http, name) for name in NAMES[:4]}
    tid = organiser.post("/api/tournaments", json={
        "name": "À melhor de três", "rounds": 1, "sets": 3, "target": 1}).json()["id"]
    for a, b in (("Ana", "Bruno"), ("Carla", "Duarte")):
        clients[a].post(f"/api/tournaments/{tid}/register", json={"partner": b})
        clients[b].post(f"/api/tournaments/{tid}/register", json={"partner": a})
    organiser.post(f"/api/tournaments/{tid}/rounds")
    order = [clients[n] for n in ("Ana", "Carla", "Bruno", "Duarte")]  # seats 0-3
    server.app.state.tournaments.look_every = 0
    seen = asyncio.run(_play_sets(server, order, tid, organiser))
    deadline = time.monotonic() + 30  # the end-of-match hook reads the last match
    while httpx2.get(f"{server.http}/api/tournaments/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the table's result was not read"
        time.sleep(0.1)
    wins = [0, 0]
    for match in seen:
        wins[match["winner"]] += 1
    assert max(wins) == 2 and len(seen) in (2, 3)  # stopped once a pair had two
    final = httpx2.get(f"{server.http}/api/tournaments/{tid}").json()
    result = final["rounds"][0]["tables"][0]["result"]
    assert result["sets"] == wins and result["winner"] == wins.index(2)
    assert result["games"] == [sum(m["score"][s] for m in seen) for s in (0, 1)]
    assert result["card_points"] == [
        sum(d["points"][s] for m in seen for d in m["deals"]) for s in (0, 1)]
    assert final["status"] == "finished"
