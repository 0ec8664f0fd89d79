"""Practice tables: a learner may ask for a hint before each of his cards (docs/server.md).

A table created with ``"practice": true`` (the lobby's *Practice* option) is stored so, shown
so in the History, and answers ``POST /api/tables/{t}/hint`` (``{"token": T}``,
``?lang=pt|pt-BR|en``) with ``{"card", "reason"}``: the strongest bot's card for the seat of
token ``T`` when the table asks that seat for a card (its own or, for its partner, the
dummy's), and why, in the plain words of the review (:func:`sueca.review.facts.hint_facts`:
facts the seat can see, and the points its side should end with). The bot is handed the
seat's information state alone, so a hint never tells what the seat could not know.

Bounds: the search runs in a thread, off the event loop; one hint at a time per table
(another is ``busy``, 429) and at most :data:`MAX_THINKING` across the server (503 ``busy``).
Anything else (not a practice table, not the seat's turn, a bad token) is refused with a
reason and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sueca.actions import AskCard
from sueca.cards import Card, card_name
from sueca.infostate import InformationState
from sueca.terminal.i18n import LANGUAGES, Language, language

MAX_THINKING = 2
"""Hints searched at once across the server."""


def _words(request: Request) -> Language:
    code = request.query_params.get("lang", "pt")
    code = "pt" if code.lower() == "pt-pt" else code
    known = {k.lower() for k in LANGUAGES}
    return language(code if len(code) <= 10 and code.lower() in known else "pt")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def think(info: InformationState, lang: Language, seed: int) -> tuple[Card, str]:
    """The strongest bot's card for ``info`` and its reason in ``lang`` (in a thread)."""
    from sueca.bots import STRONGEST, make_bot
    from sueca.terminal.review import hint_reason

    bot = make_bot(STRONGEST, seed=seed)
    bot.new_match(info.rules, info.seat)
    try:
        card = bot.choose(info)
        return card, hint_reason(lang, info, card, bot)
    finally:
        bot.close()


def practice_routes(get_room: Callable[[str], Any]) -> list[Route]:
    """``POST /api/tables/{table_id}/hint``: see the module."""
    busy_tables: set[str] = set()
    lock = threading.Lock()
    thinking = asyncio.Semaphore(MAX_THINKING)

    async def hint(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        room = get_room(table_id)
        if room is None:
            return _error(404, "no_table", "no such table")
        table = room.table
        if not getattr(table, "practice", False):
            return _error(409, "not_practice", "hints are given at practice tables only")
        body = await request.body()
        if len(body) > 1024:
            return _error(400, "too_large", "request too large (at most 1024 bytes)")
        try:
            data = json.loads(body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return _error(400, "malformed", "the request body is not JSON")
        token = data.get("token") if isinstance(data, dict) else None
        seat = table.seat_for_token(token) if isinstance(token, str) and len(token) < 100 \
            else None
        if seat is None:
            return _error(403, "bad_token", "this invitation is not valid")
        asked = table.referee.asked()
        if asked is None or asked[0] != seat or not isinstance(asked[1], AskCard):
            return _error(409, "not_your_turn", "a hint comes when the table asks you for a "
                                                "card")
        state = table.state
        info = state.information_state(state.to_play)  # the seat's, or the dummy's it plays
        with lock:
            if table_id in busy_tables:
                return _error(429, "busy", "a hint is on its way already")
            busy_tables.add(table_id)
        try:
            if thinking.locked():
                return _error(503, "busy", "the server is thinking for others; try again in "
                                           "a moment")
            async with thinking:
                seed = random.Random(f"hint:{table_id}:{len(info.plays)}").getrandbits(32)
                card, reason = await asyncio.to_thread(think, info, _words(request), seed)
        finally:
            with lock:
                busy_tables.discard(table_id)
        return JSONResponse({"card": card_name(card), "reason": reason,
                             "seat": state.to_play})

    return [Route("/api/tables/{table_id}/hint", hint, methods=["POST"])]


__all__ = ["MAX_THINKING", "practice_routes", "think"]
