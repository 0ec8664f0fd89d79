"""Bounded memory (issue 16, section 2): tables nobody has open leave memory and come back from
storage when a link is opened, at the same move; a table none of whose invited players came is
closed; a cap on the tables held, the least recently used idle ones going first; bots are
released. The rules' timings run on a fake clock here, and the sweep is called by hand."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer, create_table, join, token_of

from sueca.bots.base import Bot
from sueca.server.rooms import Connection, Room, Rooms, Timing
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import TableError

TIMING = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0,
                finished_evict=600.0, abandoned_evict=3600.0, invite_close=1800.0,
                sweep=3600.0)
PEOPLE = [{"kind": "human", "name": n} for n in ("Ana", "Bruno", "Carla", "Duarte")]


class Clock:
    """A clock the test moves: both the monotonic one and the wall."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class LobbyWatcher:
    """What the lobby index hears (rooms.RoomWatcher)."""

    def __init__(self) -> None:
        self.gone: list[str] = []

    def changed(self, room: Room) -> None:
        pass

    def removed(self, table_id: str) -> None:
        self.gone.append(table_id)


def rooms_on(db: Path, clock: Clock, **options: Any) -> Rooms:
    rooms = Rooms(SQLiteStorage(db), TIMING, seed=5, clock=clock, wall=clock, **options)
    rooms.watcher = LobbyWatcher()
    return rooms


async def sit_everyone(room: Room) -> None:
    """Each person takes his seat once (so the table is not an unused invitation), then leaves."""
    for seat, config in enumerate(room.table.seats):
        if config.kind != "human":
            continue
        conn = Connection(_discard)
        room.attach(conn)
        await room.handle(conn, json.dumps({"type": "join", "token": config.token}))
        assert conn.seat == seat
        room.detach(conn)


async def _discard(text: str) -> None:
    pass


def facts(room: Room) -> tuple[Any, ...]:
    state = room.table.state
    assert state is not None
    return (state.deal, list(state.plays), room.table.asked(), list(room.table.match.score),
            room.table.phase)


async def play_cards(room: Room, count: int) -> None:
    rng = random.Random(1)
    for _ in range(count):
        seat, request = room.table.asked()  # type: ignore[misc]
        room.table.play(seat, rng.choice(request.legal))  # type: ignore[attr-defined]
        await room._save()


def test_an_abandoned_table_leaves_memory_and_comes_back_at_the_same_card(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario() -> None:
        rooms = rooms_on(tmp_path / "sueca.db", clock)
        try:
            room = await rooms.create(None, PEOPLE)
            await sit_everyone(room)
            await play_cards(room, 6)
            before = facts(room)
            clock.now += TIMING.abandoned_evict - 1
            await rooms.sweep()
            assert room.table.id in rooms.rooms  # not yet
            clock.now += 2
            await rooms.sweep()
            assert room.table.id not in rooms.rooms
            assert rooms.watcher.gone == [room.table.id]  # type: ignore[union-attr]
            again = await rooms.find(room.table.id)
            assert again is not room and facts(again) == before
            assert again is await rooms.find(room.table.id)  # once back, it stays
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(scenario())


def test_a_table_someone_has_open_stays(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario() -> None:
        rooms = rooms_on(tmp_path / "sueca.db", clock)
        try:
            room = await rooms.create(None, PEOPLE)
            await sit_everyone(room)
            room.attach(Connection(_discard))  # a spectator
            clock.now += 10 * TIMING.abandoned_evict
            await rooms.sweep()
            assert room.table.id in rooms.rooms
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(scenario())


def test_a_finished_match_leaves_memory_and_its_bots_are_released(tmp_path: Path) -> None:
    clock = Clock()
    released: list[Bot] = []
    original = Bot.close

    def close(bot: Bot) -> None:
        released.append(bot)
        original(bot)

    async def scenario() -> None:
        rooms = rooms_on(tmp_path / "sueca.db", clock)
        try:
            bots = [{"kind": "bot", "level": "random"}] * 4
            room = await rooms.create({"variant": "standard", "match_target": 1}, bots)
            seated = [b for b in room.table.referee.seats if b is not None]
            # Until the last card is stored too: the table shows it first, and a room whose
            # change is still being written is not idle (nor evicted).
            for _ in range(200):
                if room.table.phase == "match_over" and not room.lock.locked():
                    break
                await asyncio.sleep(0.02)
            assert room.table.phase == "match_over" and not room.lock.locked()
            assert set(seated) <= set(released)  # released as the match was won
            clock.now += TIMING.finished_evict + 1
            await rooms.sweep()
            assert room.table.id not in rooms.rooms
            again = await rooms.find(room.table.id)
            assert again.table.phase == "match_over"  # for a rematch, from the store
        finally:
            rooms.close()
            rooms.storage.close()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Bot, "close", close)
        asyncio.run(scenario())


def test_an_invitation_nobody_took_is_closed(tmp_path: Path) -> None:
    """Invited people never came and stand-ins would play on: after invite_close the table is
    closed, stored as closed, not restored at start, and its links say why."""
    clock = Clock()
    db = tmp_path / "sueca.db"

    async def scenario() -> str:
        rooms = rooms_on(db, clock)
        try:
            room = await rooms.create(None, [PEOPLE[0], {"kind": "bot", "level": "random"},
                                             PEOPLE[2], {"kind": "bot", "level": "random"}])
            clock.now += TIMING.invite_close - 1
            await rooms.sweep()
            assert room.table.id in rooms.rooms
            clock.now += 2
            await rooms.sweep()
            assert room.table.id not in rooms.rooms
            with pytest.raises(TableError) as refused:
                await rooms.find(room.table.id)
            assert refused.value.code == "table_closed"
            assert "none of its invited players came" in str(refused.value)
            return room.table.id
        finally:
            rooms.close()
            rooms.storage.close()

    table_id = asyncio.run(scenario())

    async def restarted() -> None:
        rooms = rooms_on(db, clock)
        try:
            await rooms.restore()
            assert table_id not in rooms.rooms
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(restarted())


def test_past_the_cap_the_least_recently_used_idle_table_leaves(tmp_path: Path) -> None:
    clock = Clock()

    async def scenario() -> None:
        rooms = rooms_on(tmp_path / "sueca.db", clock, max_rooms=3)
        try:
            made = []
            for _ in range(3):
                made.append(await rooms.create(None, PEOPLE))
                clock.now += 1
            made[0].attach(Connection(_discard))  # open: never evicted
            made[1].broadcast()  # changed lately: used after the third
            clock.now += 1
            fourth = await rooms.create(None, PEOPLE)
            assert set(rooms.rooms) == {made[0].table.id, made[1].table.id, fourth.table.id}
            assert rooms.watcher.gone == [made[2].table.id]  # type: ignore[union-attr]
            back = await rooms.find(made[2].table.id)  # opened again: another one goes
            assert len(rooms.rooms) == 3 and back.table.id in rooms.rooms
            assert made[1].table.id not in rooms.rooms
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(scenario())


def test_an_unknown_or_hostile_table_id_is_no_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        rooms = rooms_on(tmp_path / "sueca.db", Clock())
        try:
            for table_id in ("nope", "x" * 10_000, ""):
                with pytest.raises(TableError) as refused:
                    await rooms.find(table_id)
                assert refused.value.code == "no_table"
        finally:
            rooms.close()
            rooms.storage.close()

    asyncio.run(scenario())


def test_a_link_opened_after_eviction_finds_the_table_over_the_socket(tmp_path: Path) -> None:
    timing = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0,
                    abandoned_evict=0.3, sweep=0.1)
    with LiveServer(str(tmp_path / "sueca.db"), timing=timing) as server:
        table = create_table(server.http, ["human"] * 4)

        async def scenario() -> None:
            players = [await join(server.ws, table["id"], token_of(table, s), s)
                       for s in range(4)]
            for _ in range(3):
                view = await players[0].sync()
                actor = players[view["actor"]]
                await actor.send({"type": "play", "card": (await actor.sync())["legal"][0]})
            before = [await p.sync() for p in players]
            for p in players:
                await p.socket.close()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 10
            while server.room(table["id"]) is not None:
                assert loop.time() < deadline, "the table stayed in memory"
                await asyncio.sleep(0.05)
            players = [await join(server.ws, table["id"], token_of(table, s), s)
                       for s in range(4)]
            after = [await p.sync() for p in players]
            keys = ("deal", "played", "hand", "trick", "actor", "score")
            assert [[v[k] for k in keys] for v in after] == [[v[k] for k in keys]
                                                             for v in before]
            for p in players:
                await p.socket.close()

        asyncio.run(scenario())
