"""Helpers for the server tests: a live server in a thread, WebSocket players, leak checks."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from sueca.record import GameRecord
from sueca.server import Timing, create_app
from sueca.server.limits import Limits
from sueca.server.storage import SQLiteStorage, Storage

FAST = Timing(grace=60.0, bot_delay=0.0, trick_pause=0.0, deal_pause=30.0)
CARD = re.compile(r"^[23456QJK7A][SHDC]$")


class LiveServer:
    """The app on uvicorn, in a thread, on a free port."""

    def __init__(self, db_path: str, timing: Timing = FAST, seed: int | None = 7,
                 limits: Limits | None = None, storage: Storage | None = None) -> None:
        self.app = create_app(db_path, timing=timing, seed=seed, limits=limits, storage=storage)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def room(self, table_id: str) -> Any:
        return self.app.state.rooms.get(table_id)


def create_table(base: str, kinds: list[str], rules: dict[str, Any] | None = None,
                 names: list[str] | None = None, level: str | None = None) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [
        {"kind": k, "name": (names or ["Ana", "Bruno", "Carla", "Duarte"])[i]}
        for i, k in enumerate(kinds)]
    if level is not None:
        for seat in seats:
            seat["level"] = level
    response = httpx2.post(f"{base}/api/tables", json={
        "rules": rules or {"variant": "standard"}, "seats": seats})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def token_of(table: dict[str, Any], seat: int) -> str:
    link: str = table["seats"][seat]["link"]
    return link.split("#", 1)[1]


@dataclass
class Player:
    """One socket at a table: every message it received, and its latest view."""

    socket: ClientConnection
    seat: int | None
    log: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.log.append(message)
        if message["type"] == "state":
            self.view = message["view"]
        return message

    async def recv_until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def send(self, message: Any) -> None:
        await self.socket.send(message if isinstance(message, str | bytes)
                               else json.dumps(message))

    async def sync(self) -> dict[str, Any]:
        """Ping and wait for the pong: every earlier message has been handled by then."""
        await self.send({"type": "ping"})
        await self.recv_until("pong")
        assert self.view is not None
        return self.view


async def join(ws_base: str, table_id: str, token: str | None, seat: int | None) -> Player:
    socket = await connect(f"{ws_base}/ws/{table_id}", max_size=2**22)
    player = Player(socket, seat)
    await player.recv_until("state")
    if token is not None:
        await player.send({"type": "join", "token": token})
        joined = await player.recv_until("joined")
        assert joined["seat"] == seat
        while player.view is None or player.view["you"] != seat:
            await player.recv_until("state")
    return player


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal message for the seat whose turn it is in ``view``: at a bidding table a
    pass or the lowest bid allowed, the call of a random face; the redeal question (a weak
    hand asks now and then); else a random legal card."""
    stage = view.get("stage")
    if stage == "redeal":
        may_ask = bool((view.get("redeal") or {}).get("may_ask"))
        return {"type": "redeal", "ask": may_ask and rng.random() < 0.3}
    if stage == "bidding":
        low = view["auction"]["min_bid"]
        return {"type": "bid", "value": rng.choice([0, 0, low] if low else [0])}
    if stage == "calling":
        return {"type": "call", "card": rng.choice("A7KJQ65432") + rng.choice("SHDC")}
    return {"type": "play", "card": rng.choice(view["legal"])}


def view_position(view: dict[str, Any]) -> tuple[Any, ...]:
    """Where a deal stands: match, deal, stage, bids made, new deals asked for and redeal
    answers given, cards down (one action each)."""
    auction = view.get("auction") or {}
    return (view["score"]["number"], view.get("deal"), view.get("stage"),
            len(auction.get("bids", ())), len(view.get("redeals") or ()),
            len(view.get("redeal_answers") or ()), view.get("played"))


async def play_on(player: Player, rng: random.Random, stop_at_played: int | None = None,
                  timeout: float = 20.0) -> dict[str, Any]:
    """Play random legal cards (bids and calls at a bidding table) for this seat, and say
    ready between deals, until the match is over, or until ``stop_at_played`` cards of the
    current deal are down."""
    # Act once per position: a view can be sent again for the same position (someone joined,
    # someone is ready), and answering it twice would be out of turn.
    acted: set[tuple[Any, ...]] = set()
    readied: set[tuple[int, int]] = set()
    while True:
        view = player.view
        if view is not None:
            if view["phase"] == "match_over":
                return view
            if stop_at_played is not None and view.get("played", 0) >= stop_at_played:
                return view
            position = view_position(view)
            if (view["phase"] == "playing" and view["actor"] == player.seat
                    and view["you"] == player.seat and position not in acted):
                acted.add(position)
                await player.send(random_action(view, rng))
            key = (view["score"]["number"], view["deal"])
            if view["phase"] == "deal_over" and key not in readied:
                readied.add(key)
                await player.send({"type": "next"})
        message = await player.recv(timeout)
        assert message["type"] != "error", message


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value that is a card name."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def leaked_cards(message: dict[str, Any], seat: int | None, record: GameRecord) -> set[str]:
    """Cards in ``message`` that ``seat`` (None: a spectator) must not know: cards of another
    seat's hand not yet played. The turned trump card is public while the dealer holds it."""
    if message["type"] != "state" or "deal" not in message["view"]:
        return set()
    view = message["view"]
    deal = record.deals[view["deal"]]
    # weak_hand_redeal: after k asks the cards on the table are the k-th annulled deal's, or
    # the played deal's once every annulled one is behind.
    asked = len(view.get("redeals") or ())
    if asked < len(deal.redeals or ()):
        deal = (deal.redeals or [])[asked]
    played = deal.plays[:view["played"]]
    allowed = set(played) | {deal.trump_card}
    contract = (view.get("auction") or {}).get("contract")
    if contract:
        allowed.add(contract["called_card"])  # named aloud by the declarer: public
    if seat is not None:
        allowed |= set(deal.hands[seat].split())
    return set(card_strings(message)) - allowed


def stored_match(db: Path, table_id: str) -> Any:
    """The match record the server stored for a table (read straight from its database)."""
    store = SQLiteStorage(db)
    try:
        (table,) = [t for t in store.open_tables() if t.id == table_id]
        return table.match
    finally:
        store.close()
