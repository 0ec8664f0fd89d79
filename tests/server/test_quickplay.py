"""Quick play: who is seated with whom (ratings, pairs, bots after a wait), on a live server
the queue's links, and friends' invitations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import FAST, LiveServer
from test_accounts import signup

from sueca.server.quickplay import SPREAD, WIDEN, QuickPlay, Ticket


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with LiveServer(str(tmp_path / "sueca.db"), timing=FAST) as live:
        yield live


def _queue(clock: list[float], *tickets: Ticket) -> QuickPlay:
    queue = QuickPlay(rooms=lambda: None, accounts=None,  # type: ignore[arg-type,return-value]
                      clock=lambda: clock[0])
    for ticket in tickets:
        queue.tickets[ticket.account] = ticket
    return queue


def test_four_similar_ratings_sit_together_and_a_far_one_waits_until_the_spread_widens() -> None:
    clock = [0.0]
    near = [Ticket(i, f"p{i}", rating, 0.0) for i, rating in enumerate([1.0, 2.0, 3.0, 4.0])]
    far = Ticket(9, "far", 4.0 + SPREAD + 10, 0.0)
    queue = _queue(clock, *near, far)
    [(members, bots)] = queue.groups()
    assert sorted(t.account for t in members) == [0, 1, 2, 3] and bots == 0
    queue = _queue(clock, *near[:3], far)
    assert queue.groups() == []
    clock[0] = (far.rating - near[0].rating - SPREAD) / WIDEN + 1
    [(members, _)] = queue.groups()
    assert sorted(t.account for t in members) == [0, 1, 2, 9]


def test_a_pair_sits_together_only_when_both_asked() -> None:
    clock = [0.0]
    ana = Ticket(1, "Ana", 0.0, 0.0, partner="bruno")
    others = [Ticket(i, f"p{i}", 0.0, 0.0) for i in (3, 4)]
    queue = _queue(clock, ana, *others)
    assert queue.groups() == []  # Bruno has not asked: Ana waits for him
    queue.tickets[2] = Ticket(2, "Bruno", 0.0, 0.0, partner="ana")
    [(members, _)] = queue.groups()
    assert sorted(t.account for t in members) == [1, 2, 3, 4]


def test_bots_fill_the_table_after_the_wait_a_player_chose() -> None:
    clock = [0.0]
    queue = _queue(clock, Ticket(1, "Ana", 0.0, 0.0, bots_after=30.0),
                   Ticket(2, "Rui", 50.0, 0.0))
    assert queue.groups() == []
    clock[0] = 30.0
    [(members, bots)] = queue.groups()
    assert [t.account for t in members] == [1] and bots == 3  # Rui is far from Ana still


def test_the_queue_seats_four_accounts_at_one_table(server: LiveServer) -> None:
    server.app.state.quickplay.rules = {"variant": "standard", "match_target": 1}
    clients = [signup(server.http, n) for n in ("Ana", "Bruno", "Carla", "Duarte")]
    refused = httpx2.post(f"{server.http}/api/quickplay", json={},
                         cookies=clients[0].cookies)  # no CSRF token
    assert refused.status_code == 403
    assert httpx2.get(f"{server.http}/api/quickplay").status_code == 401
    first = clients[0].post("/api/quickplay", json={"partner": "Carla"}).json()
    assert first["state"] == "waiting"
    clients[2].post("/api/quickplay", json={"partner": "ana"})
    clients[1].post("/api/quickplay", json={})
    last = clients[3].post("/api/quickplay", json={"bots_after": None}).json()
    assert last["state"] == "seated"
    links = [c.get("/api/quickplay").json()["link"] for c in clients]
    tables = {link.split("/")[2].split("#")[0] for link in links}
    assert len(tables) == 1 and len(set(links)) == 4
    room = server.room(tables.pop())
    names = room.table.seat_names()
    assert {names[0], names[2]} == {"Ana", "Carla"}  # the pair sits as partners
    assert [seat.kind for seat in room.table.seats] == ["human"] * 4
    bad = clients[0].post("/api/quickplay", json={"bots_after": -1})
    assert bad.status_code == 400
    assert clients[0].post("/api/quickplay/leave").json() == {"state": "none"}


def test_a_friend_is_invited_by_name_with_a_seat_the_inviter_holds(server: LiveServer) -> None:
    host, friend = signup(server.http, "Lia"), signup(server.http, "Zeca")
    table = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard"},
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]}).json()
    token = table["seats"][2]["link"].split("#")[1]
    wrong = host.post("/api/invitations", json={"friend": "Zeca", "table": table["id"],
                                                "token": "not-a-token"})
    assert wrong.status_code == 403
    nobody = host.post("/api/invitations", json={"friend": "Nobody", "table": table["id"],
                                                 "token": token})
    assert nobody.status_code == 404
    sent = host.post("/api/invitations", json={"friend": "zeca", "table": table["id"],
                                               "token": token})
    assert sent.status_code == 201 and sent.json() == {"invited": "Zeca"}
    [invitation] = friend.get("/api/invitations").json()["invitations"]
    assert invitation["from"] == "Lia" and invitation["link"] == f"/t/{table['id']}#{token}"
    assert host.get("/api/invitations").json()["invitations"] == []


def test_invitations_are_capped_per_sender_and_nobody_invites_himself(
        server: LiveServer) -> None:
    from sueca.server.quickplay import INVITATION_BURST

    host, friend, other = (signup(server.http, n) for n in ("Rita", "Amigo", "Outro"))
    table = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard"},
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]}).json()
    token = table["seats"][2]["link"].split("#")[1]

    def invite(name: str) -> httpx2.Response:
        return host.post("/api/invitations", json={"friend": name, "table": table["id"],
                                                   "token": token})

    himself = invite("rita")
    assert himself.status_code == 400 and himself.json()["error"] == "self_invitation"
    # A recipient keeps his latest 20; a sender sends a burst, then at a steady rate.
    for _ in range(INVITATION_BURST):
        assert invite("Amigo").status_code == 201
    over = invite("Outro")
    assert over.status_code == 429 and over.json()["error"] == "rate_limited"
    assert other.get("/api/invitations").json()["invitations"] == []
    assert len(friend.get("/api/invitations").json()["invitations"]) == INVITATION_BURST
