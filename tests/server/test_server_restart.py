"""Nothing is lost: a server killed with SIGKILL mid-deal comes back at the same card."""

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

import httpx
import pytest
from server_support import create_table, join, play_on, token_of

from sueca.record import check
from sueca.server.storage import SQLiteStorage

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


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port)])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


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
            return list(await asyncio.gather(*(play_on(p, r) for p, r in
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
        await player.recv(20)
