"""The tournament pages in Chromium (Playwright): an organiser creates a tournament from
/tournaments, four people register as two pairs on its page, the organiser starts the round,
and each player's page offers his own seat's link, which opens his seat at the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_support import FAST, LiveServer
from web_support import ARTIFACTS, chromium, open_page, screenshots

__all__ = ["chromium"]


ERRORS: list[list[str]] = []


def _signed_up(browser: Any, base: str, name: str, path: str, locale: str = "pt-PT") -> Any:
    page, errors = open_page(browser, base + "/login", locale=locale)
    answer = page.request.post(base + "/api/accounts",
                               data={"name": name, "password": "segredo-123"})
    assert answer.status == 201, answer.text()
    page.goto(base + path)
    page.wait_for_function(f"document.querySelector('#account-link')?.textContent === '{name}'")
    ERRORS.append(errors)
    return page


def test_organise_register_and_start_a_round_in_the_browser(chromium: Any,
                                                            tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=FAST) as server:
        guest, guest_errors = open_page(chromium, server.http + "/tournaments")
        guest.wait_for_selector("#login-first", state="visible")
        assert guest.locator("#create-box").is_hidden()

        organiser = _signed_up(chromium, server.http, "Organizador", "/tournaments")
        organiser.wait_for_selector("#create", state="visible")
        organiser.fill("#name", "Torneio da Tasca")
        organiser.select_option("#format", "swiss")
        organiser.fill("#rounds", "2")
        organiser.fill("#duplicate", "2")
        organiser.click("#create button[type=submit]")
        organiser.wait_for_url("**/tournaments/*")
        organiser.wait_for_function("document.querySelector('#title').textContent === "
                                    "'Torneio da Tasca'")
        url = organiser.url
        assert organiser.locator("#organiser").is_visible()

        players = {name: _signed_up(chromium, server.http, name, url.removeprefix(server.http),
                                    locale="en")
                   for name in ("Ana", "Bruno", "Carla", "Duarte")}
        for name, partner in (("Ana", "Bruno"), ("Carla", "Duarte")):
            page = players[name]
            page.wait_for_selector("#partner", state="visible")
            page.fill("#partner", partner)
            page.click("#register-button")
            page.wait_for_selector("#unregister", state="visible")
        assert "Waiting for Bruno to confirm" in players["Ana"].inner_text("#waiting")
        assert players["Ana"].locator("#entries li").count() == 0  # not a pair yet
        for name in ("Bruno", "Duarte"):  # each accepts the pair his partner proposed
            players[name].reload()
            players[name].wait_for_selector("#asked button.accept")
            players[name].click("#asked button.accept")
            players[name].wait_for_selector("#unregister", state="visible")
        players["Bruno"].wait_for_selector("#entries li >> nth=1")
        assert players["Bruno"].locator("#register-button").is_hidden()  # he is in a pair
        assert "Carla & Duarte" in players["Bruno"].inner_text("#entries")

        refused = players["Ana"].request.post(url.replace("/tournaments/", "/api/tournaments/")
                                              + "/rounds")
        assert refused.status == 403  # no CSRF token, and not the organiser anyway
        organiser.reload()
        organiser.wait_for_selector("#next-round", state="visible")
        organiser.click("#next-round")
        organiser.wait_for_selector("#rounds h3")
        assert organiser.locator("#rounds tbody tr").count() == 1
        assert "Ronda 1" in organiser.inner_text("#rounds")
        screenshots(organiser, "tournament-round")

        ana = players["Ana"]
        ana.reload()
        ana.wait_for_selector("#my-table", state="visible")
        link = ana.get_attribute("#my-link", "href") or ""
        assert link.startswith("/t/") and "#" in link
        ana.click("#my-link")
        ana.wait_for_url("**/t/**")
        ana.wait_for_selector("#hand .card")
        ana.screenshot(path=str(ARTIFACTS / "tournament-table.png"))
        room = next(iter(server.app.state.rooms.rooms.values()))
        assert room.table.seats[0].claimed and room.table.seats[0].name == "Ana"
        assert room.table.host is None
        assert all(errors == [] for errors in ERRORS), ERRORS
        assert guest_errors == []
