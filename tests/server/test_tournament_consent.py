"""A pair is made with both players' word: the partner named confirms (by registering naming
the first back); a pending pair blocks nobody, is seen only by its two players, is stored,
and never enters the draw. Tournament and pair names are refused as table names are (a lone
surrogate, a control or a bidi character: 400 ``bad_name``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import FAST, LiveServer
from test_tournament_desk import people, signup

from sueca.server.tournaments import Player, Tournament


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with LiveServer(str(tmp_path / "sueca.db"), timing=FAST) as live:
        yield live


def test_a_named_partner_confirms_before_the_pair_is_made(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 5)
    tid = organiser.post("/api/tournaments", json={"name": "Consentimento"}).json()["id"]
    url = f"/api/tournaments/{tid}"
    asked = clients["P0"].post(f"{url}/register", json={"partner": "P1", "name": "Os Ases"})
    assert asked.status_code == 200, asked.text
    view = asked.json()
    assert view["pairs"] == [] and view["waiting_for"] == "P1"
    assert not view["you"]["registered"]
    assert clients["P1"].get(url).json()["asked_by"] == ["P0"]
    others = clients["P2"].get(url).json()  # nobody else sees the pending pair
    assert others["asked_by"] == [] and others["waiting_for"] is None
    assert httpx2.get(server.http + url).json()["waiting_for"] is None  # nor a guest

    # P1 is not bound: he registers with P2 instead, and P0's proposal is dropped.
    elsewhere = clients["P1"].post(f"{url}/register", json={"partner": "P2"})
    assert elsewhere.status_code == 200 and elsewhere.json()["pairs"] == []
    confirmed = clients["P2"].post(f"{url}/register", json={"partner": "P1"})
    assert confirmed.status_code == 200, confirmed.text
    assert [p["players"] for p in confirmed.json()["pairs"]] == [["P1", "P2"]]
    p0 = clients["P0"].get(url).json()
    assert p0["waiting_for"] is None and not p0["you"]["registered"]
    late = clients["P0"].post(f"{url}/register", json={"partner": "P1"})
    assert late.status_code == 409 and late.json()["error"] == "registered"

    # P0 asks P3, who accepts (the page's button registers him naming P0); the pair's name
    # is the one its proposer gave.
    clients["P0"].post(f"{url}/register", json={"partner": "P3", "name": "Os Ases"})
    accepted = clients["P3"].post(f"{url}/register", json={"partner": "P0"})
    assert accepted.status_code == 200, accepted.text
    pairs = accepted.json()["pairs"]
    assert [(p["name"], p["players"]) for p in pairs] == [
        ("P1 & P2", ["P1", "P2"]), ("Os Ases", ["P0", "P3"])]

    # P4's pending pair with the organiser never enters the draw, and is gone after it.
    clients["P4"].post(f"{url}/register", json={"partner": "Org"})
    assert organiser.get(url).json()["asked_by"] == ["P4"]
    started = organiser.post(f"{url}/rounds")
    assert started.status_code == 200, started.text
    body = started.json()
    assert [t["pairs"] for t in body["rounds"][0]["tables"]] == [[1, 2]]
    assert body["asked_by"] == [] and len(body["pairs"]) == 2
    assert clients["P4"].get(url).json()["waiting_for"] is None


def test_a_pending_pair_is_stored_and_can_be_declined(server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 2)
    tid = organiser.post("/api/tournaments", json={"name": "Guardado"}).json()["id"]
    url = f"/api/tournaments/{tid}"
    clients["P0"].post(f"{url}/register", json={"partner": "P1"})
    # Every request loads the tournament from the store: the pending pair was saved.
    assert clients["P1"].get(url).json()["asked_by"] == ["P0"]
    declined = clients["P1"].post(f"{url}/unregister", json={})  # he says no
    assert declined.status_code == 200 and declined.json()["asked_by"] == []
    assert clients["P0"].get(url).json()["waiting_for"] is None


def test_tournament_and_pair_names_are_refused_as_table_names_are(
        server: LiveServer) -> None:
    organiser = signup(server.http, "Org")
    clients = people(server, 2)
    for bad in ("Torneio \ud800", "Torneio\x07", "Torneio \u202e"):
        # As a hostile client sends it: JSON's \\ud800 escape (httpx2 cannot encode it).
        answer = organiser.post("/api/tournaments", content=json.dumps({"name": bad}))
        assert answer.status_code == 400 and answer.json()["error"] == "bad_name", bad
    assert httpx2.get(f"{server.http}/api/tournaments").json()["tournaments"] == []
    tid = organiser.post("/api/tournaments", json={"name": "Café"}).json()["id"]
    url = f"/api/tournaments/{tid}"
    bad_pair = clients["P0"].post(f"{url}/register", content=json.dumps(
        {"partner": "P1", "name": "Par \ud800"}))
    assert bad_pair.status_code == 400 and bad_pair.json()["error"] == "bad_name"
    assert clients["P0"].get(url).json()["waiting_for"] is None  # nothing was kept


def test_proposals_in_the_pure_tournament() -> None:
    t = Tournament(name="Café", organiser=9)
    ana, rui, eva = Player(1, "Ana"), Player(2, "Rui"), Player(3, "Eva")
    assert t.propose("", ana, rui) is None and t.pairs == []
    assert t.propose("", ana, eva) is None  # a new proposal replaces his last
    assert [p.partner for p in t.proposals] == [eva]
    assert t.propose("", rui, ana) is None  # Ana no longer asks Rui: Rui now waits
    pair = t.propose("", eva, ana)
    assert pair is not None and pair.players == (ana, eva)
    assert t.proposals == []  # Rui's proposal to Ana went with her pairing
