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
    ARTIFACTS,
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


@pytest.mark.slow
def test_the_host_shares_invitations_from_the_table_and_the_first_deal_waits(
    chromium: Any, tmp_path: Path
) -> None:
    """Items 2 and 5: Ana's table page lists the free seat's invitation (copy, share) for as
    long as it is free, and no bot plays before her friend comes; the friend opens the link,
    is asked his name, and the table knows him by it. No other page ever holds a token but
    its own."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                                        {"kind": "bot", "level": "heuristic"},
                                        {"kind": "bot", "level": "heuristic"}])
        assert table["host"] == 0
        room = server.room(table["id"])
        ana, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        ana.wait_for_selector("#gather-panel .invite input")
        link = ana.input_value("#gather-panel .invite input")
        assert link == server.http + table["seats"][1]["link"]
        assert ana.locator("#start-with-bots").count() == 1
        ana.reload()  # the invitation stays on the table page: never shown once and lost
        ana.wait_for_selector("#gather-panel .invite input")
        ana.wait_for_timeout(800)
        assert room.table.state.plays == [], "no bot plays while a guest has not come"
        screenshots(ana, "web-invites")
        watcher, watcher_errors = open_page(chromium, f"{server.http}/t/{table['id']}")
        watcher.wait_for_function("view && view.seats")
        seen = watcher.evaluate("JSON.stringify(view)")
        assert table["seats"][1]["link"].split("#")[1] not in seen and "invites" not in seen

        bruno, bruno_errors = open_page(chromium, link, locale="en")
        bruno.wait_for_selector("#name-form:not([hidden])")
        bruno.fill("#name-input", "  Bruno   Reis ")
        bruno.click("#name-form button")
        wait_until(lambda: room.table.seats[1].name == "Bruno Reis")
        ana.wait_for_function(
            "document.querySelector('#felt').textContent.includes('Bruno Reis')")
        assert ana.locator("#gather-panel .invite").count() == 0  # taken: no link to share
        assert bruno.evaluate("view.invites === undefined")  # not the host: no links at all
        assert bruno.evaluate("localStorage.getItem('sueca.name')") == "Bruno Reis"
        # Only the host may put bots in.
        bruno.evaluate("send({type: 'stand_in'})")
        bruno.wait_for_function(
            "document.querySelector('#toast').textContent.includes('creator')")
        # Both are here: the deal goes on, and each plays.
        wait_until(lambda: room.table.state.plays != [] or room.table.state.to_play in (0, 1))
        for page in (ana, bruno):
            if room.table.state.to_play == (0 if page is ana else 1):
                wait_my_card(page)
        assert not errors and not bruno_errors and not watcher_errors


@pytest.mark.slow
def test_a_missing_player_has_a_countdown_and_the_host_puts_bots_in(
    chromium: Any, tmp_path: Path
) -> None:
    """Item 3: a seat whose player has not come shows how long before a bot stands in (the
    server's seconds, counting down), and the host may put a bot in now, or start with bots."""
    from sueca.server import Timing

    timing = Timing(grace=60.0, bot_delay=0.03, trick_pause=0.05, deal_pause=60.0,
                    invite_wait=120.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=timing) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                                        {"kind": "human"}, {"kind": "bot", "level": "heuristic"}])
        room = server.room(table["id"])
        ana, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        ana.wait_for_selector('#gather-panel .countdown[data-seat="1"]')
        first = ana.inner_text('#gather-panel .countdown[data-seat="1"]')
        assert first.startswith(("1:5", "2:00")), first
        ana.wait_for_timeout(2100)
        later = ana.inner_text('#gather-panel .countdown[data-seat="1"]')
        assert later < first, (first, later)  # m:ss of one width: text order is time order
        assert "Lugar 2" in ana.inner_text("#gather-panel")
        ana.click('#gather-panel .stand-in[data-seat="1"]')
        wait_until(lambda: room.presence()[1] == "stand_in")
        assert room.presence()[2] == "waiting" and room.gathering()
        ana.click("#start-with-bots")
        wait_until(lambda: room.presence()[2] == "stand_in" and not room.gathering())
        ana.wait_for_function("!document.querySelector('#start-with-bots')")
        # The bots play now: the table goes on to Ana's turn (or past the first cards).
        wait_until(lambda: room.table.state.plays or room.table.state.to_play == 0)
        wait_my_card(ana)
        assert not errors, errors


@pytest.mark.slow
def test_the_last_trick_stays_on_the_cloth_and_a_held_back_card_says_why(
    chromium: Any, tmp_path: Path
) -> None:
    """Items 4 and 6: a click on a card the rules hold back says why ("Tem de assistir a
    Copas"); the trick just taken may be peeked at (at this table, which lets players review
    the tricks, in the middle of the next one too); the deal's last trick lies on the cloth
    before the end-of-deal summary covers it."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, ANA_AND_BOTS, {"variant": "standard", "match_target": 10,
                                                      "review_tricks": True})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        room = server.room(table["id"])
        reasons: list[str] = []
        peeked = False
        for _ in range(10):
            wait_my_card(page)
            restriction = page.evaluate("view.restriction || null")
            if restriction and not reasons:
                page.locator('#hand .card[aria-disabled="true"]').first.click(force=True)
                page.wait_for_selector("#toast:not([hidden])")
                reasons.append(page.inner_text("#toast"))
                state = room.table.state
                suit = "SHDC".index(restriction["suit"])
                led = state.trick[0] % 40 // 10
                assert (restriction["code"] == "must_follow") == (suit == led)
            if not peeked and page.locator("#peek-button:not([hidden])").count():
                page.click("#peek-button")
                assert page.locator("#trick .slot.peek").count() == 4
                page.wait_for_function("!document.querySelector('#trick .slot.peek')",
                                       timeout=5_000)
                peeked = True
            if page.locator("#summary[open]").count():
                break
            play_first_card(page)
        assert reasons and ("Tem de assistir a" in reasons[0] or "Tem de trunfar" in reasons[0])
        assert peeked
        page.wait_for_function("view.phase !== 'playing'", timeout=20_000)
        # The 40th card is on the cloth with the three before it, and no summary over them.
        assert page.locator("#summary[open]").count() == 0
        assert page.locator("#trick .slot").count() == 4
        page.screenshot(path=str(ARTIFACTS / "web-last-trick-desktop.png"))
        page.wait_for_selector("#summary[open]", timeout=5_000)
        assert not errors, errors


@pytest.mark.slow
def test_the_table_reads_on_a_phone_to_spectators_and_round_a_ring(
    chromium: Any, tmp_path: Path
) -> None:
    """Items 8–10: on a phone the tricks and the match score stay in sight while playing,
    dimmed cards are not see-through, the language menu tells Portugal from Brazil; a side is
    said in words beside its colour; a spectator's "to play" line lies over nobody's cards; at
    the five-player table at 1280×900 the hand stays on the screen while bidding and the score
    sheet's names are whole."""
    from web_support import DESKTOP, PHONE

    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, ANA_AND_BOTS, {"variant": "standard", "match_target": 10})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                 viewport=PHONE)
        page.wait_for_selector("#hand .card")
        wait_my_card(page)
        corner = page.locator("#tricks-corner")
        box = corner.bounding_box()
        assert corner.is_visible() and box is not None and box["y"] + box["height"] <= 844
        assert "Nós 0" in corner.inner_text() and "Resultado" in corner.inner_text()
        opacity = page.evaluate(
            "getComputedStyle(document.querySelector('#hand .card .face')).opacity")
        dimmed = page.locator('#hand.mine .card[aria-disabled="true"] .face')
        if dimmed.count():
            opacity = dimmed.first.evaluate("e => getComputedStyle(e).opacity")
        assert opacity == "1"
        languages = page.locator("#lang option").all_inner_texts()
        assert "Português (Portugal)" in languages and "Português (Brasil)" in languages
        tags = [page.text_content(f'.plate[data-seat="{seat}"] .side-tag') for seat in range(4)]
        assert tags == ["Nós", "Eles", "Nós", "Eles"], tags
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshots(page, "web-phone-playing")

        watcher, watcher_errors = open_page(chromium, f"{server.http}/t/{table['id']}")
        watcher.wait_for_selector("#status:not(:empty)")
        line = watcher.locator("#status").bounding_box()
        cards = watcher.locator("#pos-bottom .seat-cards").bounding_box()
        assert line is not None and cards is not None
        overlap = (line["x"] < cards["x"] + cards["width"]
                   and cards["x"] < line["x"] + line["width"]
                   and line["y"] < cards["y"] + cards["height"]
                   and cards["y"] < line["y"] + line["height"])
        assert not overlap, (line, cards)
        assert watcher.text_content('.plate[data-seat="1"] .side-tag') == "Equipa B"
        screenshots(watcher, "web-spectator")

        five = new_table(server.http, [{"kind": "human", "name": "Ana"}] + [
            {"kind": "bot", "level": "intermediate", "name": name}
            for name in ("Tomás", "Vasco", "Beatriz", "Inês")], {"variant": "italiana5"})
        ring, ring_errors = open_page(chromium, server.http + five["seats"][0]["link"],
                                      viewport=DESKTOP)
        ring.wait_for_selector("#pass-button", timeout=20_000)
        last = ring.locator("#hand .card").last.bounding_box()
        assert last is not None and last["y"] + last["height"] <= DESKTOP["height"], last
        names = ring.locator("#score-sheet tbody th")
        assert names.all_inner_texts() == ["Ana", "Tomás", "Vasco", "Beatriz", "Inês"]
        assert ring.evaluate("[...document.querySelectorAll('#score-sheet tbody th')]"
                             ".every(th => th.scrollWidth <= th.clientWidth)")
        screenshots(ring, "web-italiana5-bidding")
        assert not errors and not watcher_errors and not ring_errors


@pytest.mark.slow
def test_polish_plurals_the_favicon_sound_off_by_default(chromium: Any, tmp_path: Path) -> None:
    """Item 12: "1 jogo" (not "1 jogos"), a favicon, sound off until the player turns it on
    (and remembered), the turned card marked in words for the dealer."""
    import httpx2

    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        icon = httpx2.get(f"{server.http}/static/favicon.svg")
        assert icon.status_code == 200 and icon.text.startswith("<svg")
        table = new_table(server.http, ANA_AND_BOTS, {"variant": "standard", "match_target": 1})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        page.wait_for_selector("#score-sheet")
        assert page.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"
        target = page.inner_text("#score-panel")
        assert "1 jogo" in target and "1 jogos" not in target, target
        sound = page.locator("#sound-button")
        assert sound.get_attribute("aria-pressed") == "false"
        assert sound.inner_text() == "Som: desligado"
        sound.click()
        assert sound.get_attribute("aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#score-sheet")
        assert page.get_attribute("#sound-button", "aria-pressed") == "true"
        room = server.room(table["id"])
        if room.table.state.deal.dealer == 0 and room.table.state.trump_card_held:
            assert page.locator("#hand .trump-ribbon").count() == 1
        assert not errors, errors
