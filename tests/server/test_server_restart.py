"""Nothing is lost: a server killed with SIGKILL mid-deal comes back at the same card; a
restored table's bots know the match score (and every server bot the table's time budget)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import create_table, join, play_on, token_of

from sueca.actions import AskCard, Play
from sueca.record import check
from sueca.rules import Rules
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import BOT_SECONDS, SeatConfig, Table

SERVER = """
import sys, uvicorn
from sueca.server import Timing, create_app
app = create_app(sys.argv[1], timing=Timing(grace=60, bot_delay=0.0, trick_pause=0.0))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# Deadlines on conditions, generous for a loaded machine (CI shares its cores): a server's
# start (imports, the store, its bot workers' imports) and a bot's first move after it can take
# tens of seconds at a load of 19; a healthy run waits for none of them.
START_SECONDS = 180.0
MOVE_SECONDS = 120.0


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port)])
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/api/bots", timeout=5).status_code == 200:
                return process
        except httpx2.HTTPError:
            time.sleep(0.1)
    process.kill()
    process.wait(timeout=10)
    raise RuntimeError(f"the server did not start (exit status {process.returncode})")


def view_facts(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["deal"], view["played"], view["hand"], view["trick"], view["to_play"],
            view["score"]["match"], view["trump_card"], view["dealer"])


@pytest.mark.slow
def test_sigkill_mid_deal_then_restart_continues_from_the_same_card(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    port = free_port()
    http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = start_server(db, port)
    try:
        # A target no single deal can reach (a deal scores at most 4), so a second deal comes.
        table = create_table(http, ["human", "human", "bot", "human"],
                             {"variant": "standard", "match_target": 5})
        tokens = [token_of(table, s) if s != 2 else None for s in range(4)]
        humans = [0, 1, 3]

        async def first_half() -> list[tuple[Any, ...]]:
            players = [await join(ws, table["id"], tokens[s], s) for s in humans]
            rngs = [random.Random(s) for s in humans]
            # Play into the second deal, stopping mid-trick in it.
            await asyncio.gather(*(_play_to(p, r, deal=1, played=17)
                                   for p, r in zip(players, rngs, strict=True)))
            facts = [view_facts(await p.sync()) for p in players]
            return facts

        before = asyncio.run(first_half())
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)

        server = start_server(db, port)

        async def second_half() -> list[dict[str, Any]]:
            players = [await join(ws, table["id"], tokens[s], s) for s in humans]
            after = [view_facts(await p.sync()) for p in players]
            assert after == before
            # Play the match out on the restarted server.
            rngs = [random.Random(10 + s) for s in humans]
            return list(await asyncio.gather(*(play_on(p, r, timeout=MOVE_SECONDS) for p, r in
                                               zip(players, rngs, strict=True))))

        finals = asyncio.run(second_half())
        assert all(f["phase"] == "match_over" for f in finals)
    finally:
        server.kill()
        server.wait(timeout=10)
    store = SQLiteStorage(db)
    try:
        (stored,) = store.open_tables()
        assert stored.match is not None and stored.match.finished is not None
        report = check(stored.match.record)
    finally:
        store.close()
    assert report["valid"], report["error"]
    assert report["match"]["winner"] is not None
    assert len(report["deals"]) >= 2


async def _play_to(player: Any, rng: random.Random, deal: int, played: int) -> None:
    """Play until deal ``deal`` has ``played`` cards down and a human is to play: there every
    player stops, and nothing moves (the bot only plays on its own turn)."""
    acted: set[tuple[int, int]] = set()  # positions (deal, cards down) answered
    readied: set[int] = set()
    while True:
        view = player.view
        if (view["deal"] == deal and view["played"] >= played and view["phase"] == "playing"
                and view["actor"] != 2):
            return
        if (view["phase"] == "playing" and view["actor"] == player.seat
                and (view["deal"], view["played"]) not in acted):
            acted.add((view["deal"], view["played"]))
            await player.send({"type": "play", "card": rng.choice(view["legal"])})
        if view["phase"] == "deal_over" and view["deal"] not in readied:
            readied.add(view["deal"])
            await player.send({"type": "next"})
        await player.recv(MOVE_SECONDS)


def _play_deal(table: Table) -> None:
    """Play the deal out: the bots' seats as their bots choose, the people's their first
    legal card."""
    while table.phase == "playing":
        asked = table.asked()
        assert asked is not None
        seat, request = asked
        assert isinstance(request, AskCard)
        if table.seats[seat].kind == "bot":
            bot, info = table.bot_to_move(False)
            table.submit(seat, Play(bot.choose(info)))
        else:
            table.play(seat, request.legal[0])


def test_a_restored_tables_bots_know_the_match_score_and_the_time_budget() -> None:
    store = SQLiteStorage(":memory:")
    seats = [SeatConfig("bot", "Rita", level="heuristic"),
             SeatConfig("human", "Ana", level="heuristic", token="tok-ana"),
             SeatConfig("bot", "Tomás", level="heuristic"),
             SeatConfig("human", "Rui", level="heuristic", token="tok-rui")]
    table = Table.create("score", Rules(match_target=100), seats, store, random.Random(3))
    bots = [table.referee.seats[0], table.referee.seats[2]]
    assert all(bot is not None and bot.time_budget == BOT_SECONDS for bot in bots)
    for _ in range(2):
        _play_deal(table)
        table.deal_next()
    score = tuple(table.referee.match.score)
    assert any(score), "two deals scored no game: pick another seed"
    stored = store.load_table("score")
    assert stored is not None
    restored = Table.restore(stored, store, random.Random(4))
    for seat in (0, 2):
        bot = restored.referee.seats[seat]
        assert bot is not None and bot.match_score == score, seat  # not 0-0
        assert bot.time_budget == BOT_SECONDS
    stand_in = restored.stand_in(1)  # a bot playing for an absent person knows it too
    assert stand_in.match_score == score and stand_in.time_budget == BOT_SECONDS
    _play_deal(restored)  # and they play on from there
    assert len(restored.referee.match.results) == 3

