"""Whole matches over WebSockets: four players and a spectator, and no hidden card leaks."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import (
    LiveServer,
    Player,
    card_strings,
    create_table,
    join,
    leaked_cards,
    play_on,
    stored_match,
    token_of,
)

from sueca.record import check, loads


@pytest.mark.parametrize("rules", [{"variant": "standard", "match_target": 2},
                                   {"variant": "brazil", "review_tricks": True, "match_target": 2},
                                   {"variant": "brazil", "weak_hand_redeal": True,
                                    "weak_hand_limits": [15, 15], "match_target": 2}])
def test_four_players_play_a_match_and_see_only_their_own_cards(
    server: LiveServer, tmp_path: Path, rules: dict[str, Any]
) -> None:
    table = create_table(server.http, ["human"] * 4, rules)

    async def scenario() -> tuple[list[Player], Player]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(4)]
        spectator = await join(server.ws, table["id"], None, None)
        rngs = [random.Random(s) for s in range(4)]
        finals = await asyncio.gather(*(play_on(p, r) for p, r in zip(players, rngs,
                                                                       strict=True)))
        assert all(f["phase"] == "match_over" for f in finals)
        # The spectator's socket has been receiving all along; drain it to the end.
        while spectator.view is None or spectator.view["phase"] != "match_over":
            await spectator.recv()
        for p in [*players, spectator]:
            await p.socket.close()
        return players, spectator

    players, spectator = asyncio.run(scenario())
    match = stored_match(tmp_path / "sueca.db", table["id"])
    record = match.record
    report = check(record)
    assert report["valid"], report["error"]
    assert report["match"]["winner"] is not None
    assert match.winner == report["match"]["winner"] and match.finished is not None
    if rules.get("weak_hand_redeal"):  # the check below then covers annulled deals' views
        assert any(deal.redeals for deal in record.deals)

    for player in players:
        assert player.seat is not None
        states = [m for m in player.log if m["type"] == "state"]
        assert len(states) > 40
        own = set()
        for message in states:
            assert leaked_cards(message, player.seat, record) == set(), message
            own |= set(message["view"].get("hand", []))
        # The check above is not vacuous: each seat did see its own cards in its messages.
        assert set(record.deals[0].hands[player.seat].split()) <= own
        assert player.view is not None
        assert player.view["score"]["match"] == report["match"]["score"]
    seen_by_spectator: set[str] = set()
    for message in spectator.log:
        assert leaked_cards(message, None, record) == set(), message
        seen_by_spectator |= set(card_strings(message))
        if message["type"] == "state" and message["view"]["phase"] == "playing":
            assert message["view"]["hand"] == [] and message["view"]["legal"] == []
    assert seen_by_spectator  # it saw the cards as they were played


def test_a_seat_view_shows_hand_legal_cards_and_trump(server: LiveServer) -> None:
    table = create_table(server.http, ["human", "bot", "bot", "bot"])

    async def scenario() -> dict[str, Any]:
        player = await join(server.ws, table["id"], token_of(table, 0), 0)
        view = await player.sync()
        while view["actor"] != 0:  # the bots think (search bots take a moment) up to seat 0
            await player.recv_until("state", timeout=60)
            assert player.view is not None
            view = player.view
        await player.socket.close()
        return view

    view = asyncio.run(scenario())
    state = server.room(table["id"]).table.state
    dealt = set(hand_names(state.deal.hands[0]))
    # Seat 0 is the only human and has not played: it holds its ten dealt cards, and only them.
    assert view["you"] == 0 and set(view["hand"]) == dealt and len(view["hand"]) == 10
    assert view["trump_card"] in hand_names(state.deal.hands[state.deal.dealer])
    assert view["seats"][1]["kind"] == "bot" and view["seats"][0]["status"] == "present"
    # The bots have played up to seat 0's turn, and stopped there.
    assert view["actor"] == 0 and view["to_play"] == 0
    assert view["legal"] and set(view["legal"]) <= dealt
    assert view["hand_sizes"][0] == 10


def hand_names(mask: int) -> list[str]:
    from sueca.cards import card_name, mask_cards

    return [card_name(c) for c in mask_cards(mask)]


def test_bots_finish_a_table_of_four_bots_and_history_serves_the_record(
    server: LiveServer,
) -> None:
    # (The heuristic bot: the search bots' strength is not what this test is about.)
    table = create_table(server.http, ["bot"] * 4, {"variant": "standard", "match_target": 1},
                         level="heuristic")

    async def scenario() -> dict[str, Any]:
        spectator = await join(server.ws, table["id"], None, None)
        while spectator.view is None or spectator.view["phase"] != "match_over":
            await spectator.recv()
        await spectator.socket.close()
        return spectator.view

    final = asyncio.run(scenario())
    assert final["score"]["winner"] in (0, 1)
    history = httpx2.get(f"{server.http}/api/history").json()["matches"]
    (entry,) = [m for m in history if m["table"] == table["id"]]
    detail = httpx2.get(f"{server.http}/api/history/{entry['id']}").json()
    assert detail["report"]["valid"] and detail["report"]["match"]["winner"] == final["score"][
        "winner"]
    download = httpx2.get(f"{server.http}/api/history/{entry['id']}/record.json")
    assert "attachment" in download.headers["content-disposition"]
    record = loads(download.text)
    assert check(record)["valid"]
    assert record.extra["seats"] == entry["seats"]
    assert httpx2.get(f"{server.http}/api/history/999999").status_code == 404


def test_pages_and_static_files_are_served(server: LiveServer) -> None:
    for path in ("/", "/t/abc", "/history", "/history/3", "/static/table.js",
                 "/static/style.css", "/static/cards.js", "/static/i18n.js"):
        response = httpx2.get(server.http + path)
        assert response.status_code == 200, path
    assert httpx2.get(server.http + "/api/bots").json()["default"]
    lobby = httpx2.get(server.http + "/").text
    assert "lobby.js" in lobby and "<script src=\"http" not in lobby  # nothing fetched from outside


def test_lobby_lists_tables_without_tokens(server: LiveServer) -> None:
    table = create_table(server.http, ["human", "human", "bot", "bot"])
    listing = httpx2.get(f"{server.http}/api/tables").text
    assert table["id"] in listing
    assert token_of(table, 0) not in listing and token_of(table, 1) not in listing


def test_create_table_refuses_bad_requests(server: LiveServer) -> None:
    url = f"{server.http}/api/tables"
    bad: list[Any] = [
        {"rules": {"variant": "nope"}, "seats": [{"kind": "bot"}] * 4},
        {"rules": {"variant": "standard", "trumps": 1}, "seats": [{"kind": "bot"}] * 4},
        {"seats": [{"kind": "bot"}] * 3},
        {"seats": [{"kind": "robot"}] * 4},
        {"seats": [{"kind": "bot", "level": "genius"}] * 4},
        [],
    ]
    for body in bad:
        response = httpx2.post(url, json=body)
        assert response.status_code == 400, body
        assert response.json()["message"]
    assert httpx2.post(url, content=b"not json").status_code == 400
    assert httpx2.post(url, content=b"[" * 10000).status_code == 400  # too deep to parse
    assert httpx2.post(url, content=b"1" * 10000).status_code == 400  # too many digits
    assert httpx2.post(url, content=b"x" * 20000).status_code == 400
    assert httpx2.get(f"{server.http}/api/tables").json()["tables"] == []


def test_open_table_seat_can_be_taken_once(server: LiveServer) -> None:
    response = httpx2.post(f"{server.http}/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        "open": True})
    table_id = response.json()["id"]
    taken = httpx2.post(f"{server.http}/api/tables/{table_id}/seats/1", json={"name": "Rui"})
    assert taken.status_code == 200 and taken.json()["link"].startswith(f"/t/{table_id}#")
    again = httpx2.post(f"{server.http}/api/tables/{table_id}/seats/1", json={"name": "Eva"})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    assert httpx2.post(f"{server.http}/api/tables/{table_id}/seats/2", json={}).status_code == 409
    closed = create_table(server.http, ["human", "human", "bot", "bot"])
    refused = httpx2.post(f"{server.http}/api/tables/{closed['id']}/seats/1", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "not_open"


def test_rematch_starts_a_new_match_at_the_same_table_once_everyone_asks(
    server: LiveServer,
) -> None:
    table = create_table(server.http, ["human", "human", "bot", "bot"],
                         {"variant": "standard", "match_target": 1}, level="heuristic")

    async def scenario() -> None:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in (0, 1)]
        finals = await asyncio.gather(*(play_on(p, random.Random(p.seat)) for p in players))
        assert all(f["phase"] == "match_over" and f["score"]["number"] == 1 for f in finals)
        await players[0].send({"type": "rematch"})
        view = await players[0].sync()
        assert view["phase"] == "match_over" and view["ready"] == [0]  # waits for seat 1
        await players[1].send({"type": "rematch"})
        view = await players[1].sync()
        assert view["score"] == {"match": [0, 0], "deals": [], "winner": None, "number": 2}
        assert view["deal"] == 0 and len(view["hand"]) + view["played"] // 4 >= 10
        for p in players:
            await p.socket.close()

    asyncio.run(scenario())
    mine = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 0)}"}  # (a private table's)
    history = httpx2.get(f"{server.http}/api/history", headers=mine).json()["matches"]
    assert [(m["table"], m["number"]) for m in history] == [(table["id"], 1)]
