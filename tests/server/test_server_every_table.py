"""Every table of the rules over the web socket: five-player Italiana (auction, called card,
secret partner), the double deck at six and eight seats, and three players with a dummy."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import (
    LiveServer,
    Player,
    create_table,
    join,
    leaked_cards,
    play_on,
    stored_match,
    token_of,
)

from sueca.cards import card_name, card_points, card_suit, mask_cards, parse_card
from sueca.deal import Deal
from sueca.record import check, dumps, loads
from sueca.state import State

NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipe", "Gil", "Helena"]


async def error_for(player: Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send a message that must be refused; the refusal, after checking nothing changed."""
    before = await player.sync()
    await player.send(message)
    reply = await player.recv_until("error")
    after = await player.sync()
    assert after["version"] == before["version"], "a refused message changed the table"
    return reply


def test_italiana5_auction_call_and_play_to_the_end_of_the_match(
    server: LiveServer, tmp_path: Path
) -> None:
    table = create_table(server.http, ["human"] * 5, {"variant": "italiana5", "match_target": 2},
                         NAMES)

    async def scenario() -> tuple[list[Player], Player]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(5)]
        spectator = await join(server.ws, table["id"], None, None)
        view = await spectator.sync()
        assert view["stage"] == "bidding" and view["bidding"] and view["players"] == 5
        assert view["trump_card"] is None and view["trump"] is None
        assert view["sides"] == [None] * 5 and view["score"]["match"] == [0] * 5
        auction = view["auction"]
        first = auction["to_bid"]
        assert first == view["dealer"] and auction["order"][0] == first
        assert (auction["min_bid"], auction["max_bid"], auction["contract"]) == (61, 120, None)
        bidder = players[first]
        other = players[(first + 1) % 5]
        # Refusals name the problem and change nothing.
        assert (await error_for(bidder, {"type": "bid", "bid": 50}))["code"] == "bad_bid"
        refused = await error_for(bidder, {"type": "bid", "bid": "70"})
        assert refused["code"] == "malformed" and "whole number" in refused["message"]
        assert (await error_for(other, {"type": "bid", "bid": 70}))["code"] == "not_your_turn"
        assert (await error_for(bidder, {"type": "call", "card": "AH"}))["code"] == "not_now"
        assert (await error_for(bidder, {"type": "play", "card": "AH"}))["code"] == "not_now"
        await bidder.send({"type": "bid", "bid": 70})
        view = await other.sync()
        assert view["auction"]["bids"] == [70] and view["auction"]["min_bid"] == 71
        refused = await error_for(other, {"type": "bid", "bid": 65})
        assert refused["code"] == "bad_bid" and "70" in refused["message"]
        # Everyone else passes: the first bidder (the dealer) calls.
        for k in range(1, 5):
            seat = (first + k) % 5
            await players[seat].send({"type": "bid", "bid": 0})
            await players[seat].sync()
        view = await bidder.sync()
        assert view["stage"] == "calling" and view["auction"]["declarer"] == first
        assert view["actor"] == first
        assert (await error_for(bidder, {"type": "call", "card": "ZZ"}))["code"] == "malformed"
        assert (await error_for(other, {"type": "call", "card": "AH"}))["code"] == "not_your_turn"
        await bidder.send({"type": "call", "card": "AH"})
        view = await spectator.sync()
        assert view["stage"] == "play" and view["trump"] == "H"
        assert view["auction"]["contract"] == {"declarer": first, "bid": 70, "target": 70,
                                               "called_card": "AH"}
        assert view["to_play"] == first and view["first_leader"] == first
        # Then random legal play (bids and calls too) to the end of the match.
        for p in players:
            await p.sync()  # each socket's latest view: play_on answers it
        rngs = [random.Random(s) for s in range(5)]
        finals = await asyncio.gather(*(play_on(p, r) for p, r in zip(players, rngs,
                                                                       strict=True)))
        assert all(f["phase"] == "match_over" for f in finals)
        while spectator.view is None or spectator.view["phase"] != "match_over":
            await spectator.recv()
        for p in [*players, spectator]:
            await p.socket.close()
        return players, spectator

    players, spectator = asyncio.run(scenario())
    final = spectator.view
    assert final is not None
    assert len(final["score"]["match"]) == 5 and max(final["score"]["match"]) >= 2
    assert final["summary"]["made"] in (True, False) and len(final["seat_points"]) == 5
    match = stored_match(tmp_path / "sueca.db", table["id"])
    record = match.record
    first_deal = record.deals[0]
    assert first_deal.bids[0] == 70 and first_deal.called_card == "AH"
    assert first_deal.trump_card is None
    report = check(loads(dumps(record)))  # the stored record, as `sueca check` reads it
    assert report["valid"], report["error"]
    assert report["match"]["score"] == final["score"]["match"] == match.score
    assert report["deals"][0]["contract"]["called_card"] == "AH"
    for player in [*players, spectator]:
        for message in player.log:
            assert leaked_cards(message, player.seat, record) == set(), message
    # The history page has it, and the download is a record `sueca check` accepts.
    # (A private table's: shown to a holder of one of its seats, issue 17.)
    mine = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 0)}"}
    history = httpx2.get(f"{server.http}/api/history", headers=mine).json()["matches"]
    (entry,) = [m for m in history if m["table"] == table["id"]]
    assert entry["rules"]["variant"] == "italiana5" and len(entry["score"]) == 5
    text = httpx2.get(f"{server.http}/api/history/{entry['id']}/record.json", headers=mine).text
    assert check(loads(text))["valid"]


# ---- the secret partner ---------------------------------------------------------------------


def rigged_deal(rng: random.Random) -> tuple[Deal, Deal, int, int, int]:
    """Two italiana5 deals by seat 0 that differ only in who holds the called card: in the
    first seat ``p1`` holds ``called`` and seat ``p2`` a card ``other`` of the same suit, in the
    second the two are swapped (so every seat's legal cards stay the same). Seat 0 (the dealer,
    who bids first) will declare."""
    while True:
        cards = list(range(40))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[8 * s:8 * s + 8]) for s in range(5)]
        called = next(c for c in range(40) if not hands[0] >> c & 1 and not hands[1] >> c & 1)
        p1 = next(s for s in range(5) if hands[s] >> called & 1)
        others = [(s, c) for s in range(2, 5) if s != p1
                  for c in mask_cards(hands[s]) if card_suit(c) == card_suit(called)]
        if others:
            p2, other = others[0]
            swapped = list(hands)
            swapped[p1] ^= 1 << called | 1 << other
            swapped[p2] ^= 1 << called | 1 << other
            return (Deal(0, tuple(hands), None), Deal(0, tuple(swapped), None), called, p1, p2)


def rig(server: LiveServer, table_id: str, deal: Deal) -> None:
    """Replace the table's first deal by ``deal`` (before anyone has joined or acted)."""
    room = server.room(table_id)
    table = room.table
    table.match.first_dealer = 0
    table.match.deals[-1] = deal
    table.referee.resume(State(table.rules, deal))  # (the store keeps the deal it dealt)


async def drive_until_called(players: list[Player], spectator: Player, called: str,
                             watchers: list[Player]) -> list[Any]:
    """Seat 0 bids 75, the others pass, seat 0 calls ``called``; then each seat plays its lowest
    legal card other than the called card's suit mates held by the two candidates, until the
    called card's suit would have to be played. Returns each watcher's state messages."""
    for p in [*players, spectator]:
        await p.sync()
        p.log.clear()

    async def act(seat: int, message: dict[str, Any]) -> None:
        await players[seat].send(message)
        await players[seat].sync()
        for p in [*players, spectator]:
            await p.sync()

    await act(0, {"type": "bid", "bid": 75})
    for seat in range(1, 5):
        await act(seat, {"type": "bid", "bid": 0})
    await act(0, {"type": "call", "card": called})
    suit = called[1]
    while True:
        view = spectator.view
        assert view is not None
        actor = view["actor"]
        legal = players[actor].view["legal"]  # type: ignore[index,unused-ignore]
        choices = [c for c in legal if c[1] != suit]
        if not choices:
            break
        await act(actor, {"type": "play", "card": choices[0]})
    return [[m for m in w.log if m["type"] == "state"] for w in watchers]


def without_table_id(messages: list[Any]) -> str:
    return json.dumps([{**m, "view": {**m["view"], "table": None}} for m in messages])


def test_the_secret_partner_is_never_sent_before_the_called_card_is_played(
    server: LiveServer,
) -> None:
    first, second, called, p1, p2 = rigged_deal(random.Random(4))
    called_name = card_name(called)
    watching = [s for s in range(1, 5) if s not in (p1, p2)]  # the declarer and a defender
    logs = []
    for deal in (first, second):
        table = create_table(server.http, ["human"] * 5, {"variant": "italiana5"}, NAMES)
        rig(server, table["id"], deal)

        async def scenario(table: dict[str, Any] = table) -> tuple[list[Any], list[Player]]:
            players = [await join(server.ws, table["id"], token_of(table, s), s)
                       for s in range(5)]
            spectator = await join(server.ws, table["id"], None, None)
            watchers = [players[0], *(players[s] for s in watching), spectator]
            seen = await drive_until_called(players, spectator, called_name, watchers)
            return seen, players

        seen, players = asyncio.run(scenario())
        logs.append(seen)
        # The deal went some way: tricks were played before the called suit was needed.
        assert players[0].view is not None and players[0].view["played"] >= 5
        # Nothing names the partner in what the declarer, a defender and a spectator got.
        partner = p1 if deal is first else p2
        for messages in seen:
            assert messages
            for message in messages:
                view = message["view"]
                assert view["sides"][partner] is None
                assert all(s["team"] is None for s in view["seats"])
                if view["auction"]["contract"]:
                    assert view["sides"][0] == 0  # the declarer's side is public
        # The partner himself knows (his view says so).
        own = players[partner].view
        assert own is not None and own["sides"][partner] == 0 and own["sides"][0] == 0
    # Messages to those seats are the same byte for byte whoever holds the called card.
    for one, two in zip(logs[0], logs[1], strict=True):
        assert len(one) == len(two) > 10
        assert without_table_id(one) == without_table_id(two)


def test_the_partner_is_public_once_the_called_card_is_played(server: LiveServer) -> None:
    first, _, called, p1, _ = rigged_deal(random.Random(4))
    table = create_table(server.http, ["human"] * 5, {"variant": "italiana5"}, NAMES)
    rig(server, table["id"], first)

    async def scenario() -> dict[str, Any]:
        players = [await join(server.ws, table["id"], token_of(table, s), s) for s in range(5)]
        spectator = await join(server.ws, table["id"], None, None)
        await drive_until_called(players, spectator, card_name(called), [spectator])
        name = card_name(called)
        while True:  # play on, the called card as soon as it may be, until everyone knows
            view = await spectator.sync()
            if None not in view["sides"]:
                return view
            assert called not in server.room(table["id"]).table.state.plays
            actor = view["actor"]
            legal = (await players[actor].sync())["legal"]
            await players[actor].send({"type": "play",
                                       "card": name if name in legal else legal[0]})
            await players[actor].sync()

    view = asyncio.run(scenario())
    assert view["sides"][p1] == 0 and view["sides"].count(0) == 2
    assert called in server.room(table["id"]).table.state.plays


# ---- double deck ----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "hand"), [("double6", 6, 13), ("double8", 8, 10)])
def test_double_deck_tables_with_bots_play_a_match(
    server: LiveServer, tmp_path: Path, variant: str, players: int, hand: int
) -> None:
    kinds = ["human", "bot"] * (players // 2)
    table = create_table(server.http, kinds, {"variant": variant, "match_target": 1}, NAMES,
                         level="heuristic")
    assert [s["kind"] for s in table["seats"]] == kinds
    humans = [s for s in range(players) if kinds[s] == "human"]

    async def scenario() -> list[Player]:
        seated = [await join(server.ws, table["id"], token_of(table, s), s) for s in humans]
        view = await seated[0].sync()
        assert view["players"] == players and view["hand_sizes"][0] == len(view["hand"])
        assert view["sides"] == [s % 2 for s in range(players)]
        assert sum(view["hand_sizes"]) + view["played"] == hand * players
        rngs = [random.Random(s) for s in humans]
        await asyncio.gather(*(play_on(p, r) for p, r in zip(seated, rngs, strict=True)))
        for p in seated:
            await p.socket.close()
        return seated

    seated = asyncio.run(scenario())
    match = stored_match(tmp_path / "sueca.db", table["id"])
    report = check(loads(dumps(match.record)))
    assert report["valid"], report["error"]
    final = seated[0].view
    assert final is not None and final["phase"] == "match_over"
    # The points of the deal are the cards dealt: all 240, or 240 less the two set aside.
    dealt = [parse_card(c) for h in final["summary"]["hands"] for c in h]
    assert sum(final["summary"]["points"]) == sum(card_points(c) for c in dealt)
    assert sum(final["summary"]["points"]) == 240 or players == 6
    assert len(final["summary"]["hands"]) == players
    # Two identical cards: a hand shows a name twice where it holds both copies, and the
    # dealt hands of the summary hold each face at most twice.
    faces = Counter(c for h in final["summary"]["hands"] for c in h)
    assert max(faces.values()) <= 2 and sum(faces.values()) == hand * players
    for player in seated:
        for message in player.log:
            assert leaked_cards(message, player.seat, match.record) == set(), message


def test_a_double_deck_hand_holding_both_copies_plays_them_by_name(server: LiveServer) -> None:
    table = create_table(server.http, ["human"] * 8, {"variant": "double8"}, NAMES)
    room = server.room(table["id"])
    # A rigged deal: seat 1 (to lead, the dealer being seat 0) holds both aces of spades.
    cards = [c for c in range(80) if c not in (9, 49)]
    hands = [0] * 8
    hands[1] = 1 << 9 | 1 << 49
    for seat in range(8):
        while hands[seat].bit_count() < 10:
            hands[seat] |= 1 << cards.pop()
    deal = Deal(0, tuple(hands), mask_cards(hands[0])[0])
    table_obj = room.table
    table_obj.match.first_dealer = 0
    table_obj.match.deals[-1] = deal
    table_obj.referee.resume(State(table_obj.rules, deal))

    async def scenario() -> dict[str, Any]:
        player = await join(server.ws, table["id"], token_of(table, 1), 1)
        view = await player.sync()
        assert view["hand"].count("AS") == 2
        await player.send({"type": "play", "card": "AS"})
        view = await player.sync()
        await player.socket.close()
        return view

    view = asyncio.run(scenario())
    assert view["hand"].count("AS") == 1 and view["trick"]["cards"] == ["AS"]
    assert table_obj.state.plays == [9]  # the first deck's copy


# ---- three players: the dummy -------------------------------------------------------------


def test_a_three_player_table_from_the_lobby_the_partner_plays_the_dummy(
    server: LiveServer, tmp_path: Path
) -> None:
    refused = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard", "dummy": 2},
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]})
    assert refused.status_code == 400 and "dummy" in refused.json()["message"]
    response = httpx2.post(f"{server.http}/api/tables", json={
        "rules": {"variant": "standard", "dummy": 2, "match_target": 1},
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "heuristic"},
                  {"kind": "dummy"}, {"kind": "bot", "level": "heuristic"}]})
    assert response.status_code == 201, response.text
    table = response.json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "dummy", "bot"]
    assert table["seats"][2]["link"] is None
    listed = httpx2.get(f"{server.http}/api/tables").json()["tables"]
    (entry,) = [t for t in listed if t["id"] == table["id"]]
    assert entry["seats"][2]["status"] == "dummy" and not entry["seats"][2]["free"]

    async def scenario() -> tuple[Player, Player]:
        player = await join(server.ws, table["id"], token_of(table, 0), 0)
        spectator = await join(server.ws, table["id"], None, None)
        view = await player.sync()
        assert view["dummy"] == 2 and len(view["known"][2]) == 10  # the partner sees it
        public = await spectator.sync()
        if public["played"] == 0:
            # Face down until the opening lead (but for the turned card, if the dummy dealt).
            assert set(public["known"][2]) <= {public["trump_card"]}
        acted_for_dummy = 0
        rng = random.Random(3)
        while True:
            current = player.view
            assert current is not None
            view = current
            if view["phase"] == "match_over":
                break
            if view["phase"] == "deal_over":
                await player.send({"type": "next"})
                await player.recv()
                continue
            if view["actor"] == 0 and view["legal"]:
                if view["acting_for"] == 2:
                    acted_for_dummy += 1
                    assert set(view["legal"]) <= set(view["known"][2])
                await player.send({"type": "play", "card": rng.choice(view["legal"])})
                await player.sync()
                continue
            await player.recv()
        public = await spectator.sync()
        assert acted_for_dummy >= 10
        await player.socket.close()
        await spectator.socket.close()
        return player, spectator

    _, spectator = asyncio.run(scenario())
    record = stored_match(tmp_path / "sueca.db", table["id"]).record
    assert check(record)["valid"]
    for message in spectator.log:
        view = message.get("view") or {}
        if message["type"] == "state" and view.get("played", 0) > 0 \
                and view.get("phase") == "playing":
            assert len(view["known"][2]) == view["hand_sizes"][2]  # face up after the lead


def test_bots_bid_and_call_at_an_italiana5_table(server: LiveServer, tmp_path: Path) -> None:
    table = create_table(server.http, ["human"] + ["bot"] * 4,
                         {"variant": "italiana5", "match_target": 3}, NAMES, level="heuristic")

    async def scenario() -> dict[str, Any]:
        player = await join(server.ws, table["id"], token_of(table, 0), 0)
        final = await play_on(player, random.Random(5))
        await player.socket.close()
        return final

    final = asyncio.run(scenario())
    assert final["phase"] == "match_over" and max(final["score"]["match"]) >= 3
    record = stored_match(tmp_path / "sueca.db", table["id"]).record
    report = check(record)
    assert report["valid"], report["error"]
    assert all(len(d.bids) == 5 and d.called_card for d in record.deals)
