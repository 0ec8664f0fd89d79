"""Four people in four browser contexts (Debian's Chromium, Playwright) sign up, queue for quick
play, play a rated match against each other (no bot plays: each page plays its first legal
card), see their ratings change at the end, on the leaderboard and on their profiles."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from server_support import LiveServer
from web_support import ARTIFACTS, PACE, chromium, open_page, screenshots

__all__ = ["chromium"]

NAMES = ("Ana", "Bruno", "Carla", "Duarte")


def _sign_up(page: Any, name: str) -> None:
    page.click("#account-link")
    page.wait_for_url("**/login")
    page.click("a[href='/signup']")
    page.fill("#name", name)
    page.fill("#password", "segredo-123")
    page.fill("#password2", "segredo-123")
    page.click("#signup-submit")
    page.wait_for_url(lambda url: url.endswith("/"))
    page.wait_for_function(f"document.querySelector('#account-link')?.textContent === '{name}'")


@pytest.mark.slow
def test_four_people_sign_up_queue_and_play_a_rated_match(chromium: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        server.app.state.quickplay.rules = {"variant": "standard", "match_target": 1}
        pages, errors = [], []
        for name in NAMES:
            page, page_errors = open_page(chromium, server.http + "/")
            _sign_up(page, name)
            pages.append(page)
            errors.append(page_errors)
        # A guest is asked to log in; these four see the queue.
        assert pages[0].locator("#quick-form").is_visible()
        screenshots(pages[0], "lobby-quick-play")
        for page in pages:
            page.click("#quick-join")
        for page in pages:
            page.wait_for_url("**/t/**", timeout=20_000)
            page.wait_for_selector("#hand .card")
        (room,) = server.app.state.rooms.rooms.values()
        assert [seat.account for seat in room.table.seats] != [None] * 4
        deadline = time.monotonic() + 120
        while room.table.phase != "match_over":
            assert time.monotonic() < deadline, "the match did not end"
            for page in pages:
                if page.locator("#next-deal").count():
                    page.click("#next-deal")
                playable = page.locator("#hand .card.playable")
                if playable.count():
                    # The view may move on under the click: look again.
                    with contextlib.suppress(PlaywrightError):
                        playable.first.click(timeout=2000)
            time.sleep(0.05)
        for page in pages:
            page.wait_for_selector("#rating-change li", timeout=20_000)
            lines = page.locator("#rating-change li").all_inner_texts()
            assert len(lines) == 4 and all("→" in line for line in lines)
        pages[0].screenshot(path=str(ARTIFACTS / "rated-match-over.png"))
        winner = room.table.match.winner
        board = pages[0]
        board.goto(server.http + "/leaderboard")
        board.fill("#min", "1")
        board.dispatch_event("#min", "change")
        board.wait_for_function("document.querySelectorAll('#board tbody tr').length === 4")
        first = board.locator("#board tbody tr").first.inner_text()
        screenshots(board, "leaderboard")  # at a phone's width too, nothing wider
        seated = room.table.seat_names()
        assert sorted(seated) == sorted(NAMES)
        assert any(seated[s] in first for s in range(4) if s % 2 == winner)
        board.goto(server.http + "/players/Ana")
        board.wait_for_selector("#ratings .rating")
        assert board.inner_text("#played") == "1"
        assert board.inner_text("#won") == ("1" if seated.index("Ana") % 2 == winner else "0")
        board.wait_for_function("document.querySelector('#rating-plot').naturalWidth > 0")
        screenshots(board, "player-profile")
        assert errors == [[], [], [], []]


@pytest.mark.slow
def test_the_account_pages_refuse_say_why_and_manage_the_account(
        chromium: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        page, errors = open_page(chromium, server.http + "/signup")
        page.fill("#name", "Ana")
        page.fill("#password", "segredo-123")
        page.fill("#password2", "outra-coisa")
        page.click("#signup-submit")
        assert page.inner_text("#error") == "As palavras-passe não coincidem."
        page.fill("#password2", "segredo-123")
        page.click("#signup-submit")
        page.wait_for_url(lambda url: url.endswith("/"))
        # The lobby offers quick play to the logged-in, and the header names her.
        page.wait_for_selector("#quick-form:not([hidden])")
        assert page.inner_text("#account-link") == "Ana"
        other, other_errors = open_page(chromium, server.http + "/signup", locale="en-GB")
        other.fill("#name", "ANA")
        other.fill("#password", "segredo-123")
        other.fill("#password2", "segredo-123")
        other.click("#signup-submit")
        other.wait_for_function("document.querySelector('#error').textContent !== ''")
        assert other.inner_text("#error") == "That name is taken."
        assert other.locator("#quick-form").count() == 0  # not the lobby: still signing up
        other.goto(server.http + "/")
        assert other.locator("#quick-guest").is_visible()  # a guest is asked to log in
        other.goto(server.http + "/login")
        other.fill("#name", "Ana")
        other.fill("#password", "wrong-password")
        other.click("#login-submit")
        other.wait_for_function("document.querySelector('#error').textContent !== ''")
        assert other.inner_text("#error") == "Wrong name or password."
        other.fill("#password", "segredo-123")
        other.click("#login-submit")
        other.wait_for_url(lambda url: url.endswith("/"))
        # Ana changes her password on her first page: the other session ends.
        page.goto(server.http + "/login")
        page.wait_for_selector("#account-panel:not([hidden])")
        assert page.inner_text("#who") == "Entrou como Ana"
        page.fill("#old", "segredo-123")
        page.fill("#new", "novo-segredo")
        page.click("#password-form button")
        page.wait_for_function("document.querySelector('#password-message').textContent !== ''")
        assert page.inner_text("#password-message") == "Palavra-passe mudada."
        other.goto(server.http + "/login")
        other.wait_for_selector("#login-panel:not([hidden])")
        page.fill("#delete-password", "novo-segredo")
        page.click("#delete-form button")
        page.wait_for_selector("#login-panel:not([hidden])")
        page.goto(server.http + "/players/Ana")
        page.wait_for_function("document.querySelector('#profile').textContent !== ''")
        assert page.inner_text("#profile") == "Este jogador não existe."
        assert errors == [] and other_errors == []
