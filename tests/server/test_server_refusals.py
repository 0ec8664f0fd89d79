"""Messages the server must refuse: an error on that socket, and nothing changes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from server_support import FAST, LiveServer, Player, create_table, join, token_of

from sueca.cards import card_name, card_suit, mask_cards
from sueca.server import Timing
from sueca.server.storage import SQLiteStorage


def snapshot(server: LiveServer, table_id: str, db: Path) -> tuple[Any, ...]:
    """Everything that a refused message must leave alone: the table and what is stored."""
    table = server.room(table_id).table
    store = SQLiteStorage(db)
    try:
        (stored,) = [t for t in store.open_tables() if t.id == table_id]
        moves = [list(d.actions) for d in stored.match.deals]
    finally:
        store.close()
    return table.version, list(table.state.plays), list(table.state.hands), moves


async def refused(player: Player, message: Any, code: str) -> None:
    await player.send(message)
    error = await player.recv_until("error")
    assert error["code"] == code, error
    assert error["message"]
    await player.sync()


def test_bad_messages_are_refused_and_change_nothing(server: LiveServer, tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    table = create_table(server.http, ["human"] * 4)
    table_id = table["id"]

    async def scenario() -> None:
        players = [await join(server.ws, table_id, token_of(table, s), s) for s in range(4)]
        spectator = await join(server.ws, table_id, None, None)
        state = server.room(table_id).table.state
        actor = state.to_play
        other = (actor + 1) % 4
        mover = players[actor]
        before = snapshot(server, table_id, db)

        # Out of turn, with a card the other seat really holds.
        own = card_name(mask_cards(state.hands[other])[0])
        await refused(players[other], {"type": "play", "card": own}, "not_your_turn")
        # A card the mover does not hold.
        foreign = card_name(mask_cards(state.hands[other])[0])
        await refused(mover, {"type": "play", "card": foreign}, "not_in_hand")
        # Malformed messages of every kind.
        for message in ["not json", "[]", "42", json.dumps({"type": 5}),
                        json.dumps({"kind": "play"}), json.dumps({"type": "dance"}),
                        json.dumps({"type": "play"}), json.dumps({"type": "play", "card": 7}),
                        json.dumps({"type": "play", "card": "XX"}),
                        json.dumps({"type": "join", "token": ["x"]}), b"\xff\xfe",
                        "[" * 1000]:  # nesting too deep for the parser: no RecursionError
            await refused(mover, message, "malformed")
        # Too large: refused before it is even parsed.
        await refused(mover, json.dumps({"type": "play", "card": "AS", "pad": "x" * 2000}),
                      "too_large")
        # A wrong token seats nobody; spectators cannot act.
        await refused(spectator, {"type": "join", "token": "not-a-token"}, "bad_token")
        await refused(spectator, {"type": "play", "card": own}, "not_seated")
        other_table = create_table(server.http, ["human"] * 4)
        await refused(spectator, {"type": "join", "token": token_of(other_table, actor)},
                      "bad_token")
        await refused(spectator, {"type": "play", "card": foreign}, "not_seated")
        # Wrong moment.
        await refused(mover, {"type": "next"}, "not_now")
        await refused(mover, {"type": "rematch"}, "not_now")
        assert snapshot(server, table_id, db) == before

        # A card that breaks the rule of following suit, found by playing on.
        while True:
            state = server.room(table_id).table.state
            seat = state.to_play
            if state.trick:
                led = card_suit(state.trick[0])
                hand = mask_cards(state.hands[seat])
                follows = [c for c in hand if card_suit(c) == led]
                off = [c for c in hand if card_suit(c) != led]
                if follows and off:
                    before = snapshot(server, table_id, db)
                    await refused(players[seat], {"type": "play", "card": card_name(off[0])},
                                  "must_follow")
                    assert snapshot(server, table_id, db) == before
                    break
            await players[seat].send({"type": "play",
                                      "card": card_name(state.legal_moves()[0])})
            await players[seat].sync()

        # Refusals went only to the socket that sent the bad message.
        for player in [*players, spectator]:
            errors = [m for m in player.log if m["type"] == "error"]
            if player is not mover and player is not spectator:
                assert all(e["code"] in ("not_your_turn", "must_follow") for e in errors)
            await player.socket.close()

    asyncio.run(scenario())


def test_a_token_acts_only_for_its_own_table_and_seat(server: LiveServer) -> None:
    first = create_table(server.http, ["human"] * 4)
    second = create_table(server.http, ["human"] * 4)

    async def scenario() -> None:
        player = await join(server.ws, first["id"], token_of(first, 2), 2)
        assert player.view is not None and player.view["you"] == 2
        await refused(player, {"type": "join", "token": token_of(second, 2)}, "bad_token")
        view = await player.sync()
        assert view["you"] == 2  # still seat 2 of the first table
        await player.socket.close()

    asyncio.run(scenario())


def test_a_dropped_player_is_away_then_a_bot_plays_until_they_return(tmp_path: Path) -> None:
    timing = Timing(grace=0.3, bot_delay=0.0, trick_pause=0.0, deal_pause=FAST.deal_pause)
    with LiveServer(str(tmp_path / "sueca.db"), timing=timing) as server:
        table = create_table(server.http, ["human", "human", "bot", "bot"], level="heuristic")

        async def scenario() -> None:
            ana = await join(server.ws, table["id"], token_of(table, 0), 0)
            bruno = await join(server.ws, table["id"], token_of(table, 1), 1)
            await bruno.socket.close()
            view = await ana.sync()
            while view["seats"][1]["status"] != "away":
                view = (await ana.recv_until("state"))["view"]
            # After the grace period a bot stands in for seat 1: play goes on past its turns.
            start = server.room(table["id"]).table.state.plays[:]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while True:
                view = await ana.sync()
                state = server.room(table["id"]).table.state
                if view["actor"] == 0:
                    await ana.send({"type": "play", "card": view["legal"][0]})
                seat1_moves = [i for i in range(len(start), len(state.plays))
                               if state.played_by()[i] == 1]
                if len(seat1_moves) >= 2:
                    break
                assert loop.time() < deadline, "no bot stood in for the away player"
                await asyncio.sleep(0.05)
            assert view["seats"][1]["status"] in ("stand_in", "away")
            # Bruno reloads the page: back in his seat, and the bot stops playing for him.
            bruno = await join(server.ws, table["id"], token_of(table, 1), 1)
            assert bruno.view is not None and bruno.view["seats"][1]["status"] == "present"
            assert len(bruno.view["hand"]) == bruno.view["hand_sizes"][1]
            for _ in range(30):
                view = await ana.sync()
                if view["actor"] == 1 and view["phase"] == "playing":
                    break
                if view["actor"] == 0:
                    await ana.send({"type": "play", "card": view["legal"][0]})
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)  # past the grace period: still waiting for Bruno
            assert (await bruno.sync())["actor"] == 1
            await ana.socket.close()
            await bruno.socket.close()

        asyncio.run(scenario())


def test_an_invited_player_who_never_comes_gets_a_stand_in_until_he_does(tmp_path: Path) -> None:
    """One unused invitation must not stall a table: after ``invite_wait`` a bot plays the
    seat (status ``stand_in``, was ``waiting``); the invitee who comes late takes it over."""
    timing = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=FAST.deal_pause,
                    invite_wait=0.3)
    with LiveServer(str(tmp_path / "sueca.db"), timing=timing) as server:
        table = create_table(server.http, ["human", "human", "bot", "bot"], level="heuristic")

        async def scenario() -> None:
            ana = await join(server.ws, table["id"], token_of(table, 0), 0)
            view = await ana.sync()
            assert view["seats"][1]["status"] in ("waiting", "stand_in")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while True:
                view = await ana.sync()
                state = server.room(table["id"]).table.state
                if view["actor"] == 0:
                    await ana.send({"type": "play", "card": view["legal"][0]})
                if 1 in state.played_by():
                    break
                assert loop.time() < deadline, "nobody stood in for the invitee"
                await asyncio.sleep(0.05)
            assert view["seats"][1]["status"] == "stand_in"
            bruno = await join(server.ws, table["id"], token_of(table, 1), 1)
            assert bruno.view is not None and bruno.view["seats"][1]["status"] == "present"
            await ana.socket.close()
            await bruno.socket.close()

        asyncio.run(scenario())
