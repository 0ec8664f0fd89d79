"""Issue 17: what stopped or confused people at the web table, each in a real browser.

Debian's Chromium driven by Playwright (``web_support.py``); each test saves screenshots at
1280×900 and 390×844 under ``test-artifacts/``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer
from web_support import (
    PACE,
    chromium,
    new_table,
    open_page,
    play_first_card,
    screenshots,
    wait_my_card,
)

from sueca.cards import parse_card

__all__ = ["chromium"]  # the fixture, imported for the tests below

ANA_AND_BOTS = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "heuristic"}] * 3


def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_card_clicked_during_a_connection_blip_is_played_once_back(
    chromium: Any, tmp_path: Path
) -> None:
    """Item 1: the socket drops, the player clicks a card: the page says it will go, and it
    goes once the connection is back; the next turn plays as any other."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, ANA_AND_BOTS)
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        room = server.room(table["id"])
        page.wait_for_selector("#hand .card.playable", timeout=20_000)
        card = page.locator("#hand .card.playable").first.get_attribute("data-card")
        assert card is not None
        page.context.set_offline(True)
        page.evaluate("socket.close()")
        page.wait_for_function("socket.readyState !== WebSocket.OPEN")
        page.click(f'#hand .card[data-card="{card}"]')
        page.wait_for_selector("#toast:not([hidden])")
        assert "ligação" in page.inner_text("#toast")  # the player is told it waits
        page.wait_for_timeout(600)
        state = room.table.state
        assert state.hands[0] >> parse_card(card) & 1, "the card went nowhere yet"
        page.context.set_offline(False)
        wait_until(lambda: not room.table.state.hands[0] >> parse_card(card) & 1)
        assert parse_card(card) in room.table.state.plays
        # Never a locked turn: the next card is played by a click as any other.
        wait_my_card(page)
        if not page.locator("#summary[open]").count():
            before = len(room.table.state.plays)
            play_first_card(page)
            wait_until(lambda: len(room.table.state.plays) > before)
        screenshots(page, "web-blip")
        assert not errors, errors


@pytest.mark.slow
def test_a_card_chosen_offline_is_dropped_visibly_when_the_table_moved_on(
    chromium: Any, tmp_path: Path
) -> None:
    """Item 1, the other way: while the page is cut off a stand-in plays the seat's card; the
    card clicked meanwhile is not sent on return (the table moved on), the page says so, and
    the hand is live again."""
    from sueca.server import Timing

    quick = Timing(grace=0.3, bot_delay=0.03, trick_pause=0.05, deal_pause=60.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=quick) as server:
        table = new_table(server.http, ANA_AND_BOTS)
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        room = server.room(table["id"])
        page.wait_for_selector("#hand .card.playable", timeout=20_000)
        played = len(room.table.state.plays)
        page.context.set_offline(True)
        page.evaluate("socket.close()")
        page.locator("#hand .card.playable").first.click()
        # The grace period passes: the stand-in plays for the seat.
        wait_until(lambda: len(room.table.state.plays) > played)
        page.context.set_offline(False)
        page.wait_for_function(
            "document.querySelector('#toast').textContent.includes('avançou')", timeout=10_000)
        wait_my_card(page)
        assert not errors, errors
