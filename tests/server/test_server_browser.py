"""A person at the table: Debian's Chromium, driven by Playwright, plays a whole deal.

The browser and its helpers: ``web_support.py``. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer
from web_support import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, PACE

from sueca.auction import bidding_order
from sueca.cards import card_name


@pytest.fixture
def browser(tmp_path: Path) -> Any:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
            args=LAUNCH_ARGS, viewport={"width": 1280, "height": 860}, locale="pt-PT",
            bypass_csp=True)  # the tests' evaluated expressions; the pages' own scripts obey it
        try:
            yield context
        finally:
            context.close()


@pytest.mark.slow
def test_a_person_creates_a_table_with_three_bots_and_plays_a_deal(
    browser: Any, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.http + "/")
        page.fill("#name", "Ana")
        page.fill("#target", "10")  # no single deal can end the match: a next deal follows
        # Seats 2–4 are bots by default: create the table and take seat 1.
        assert page.locator(".seat-row .kind").nth(1).input_value() == "bot"
        # Bots by level, with a line each (issue 17): the strongest by default.
        level = page.locator(".seat-row .level").nth(1)
        assert level.input_value() == "expert"
        # (The select names the level; its line is written whole under it.)
        assert level.locator("option:checked").inner_text() == "Mestre"
        assert page.locator(".seat-row .level-help").nth(1).inner_text().startswith("o mais forte")
        assert level.locator("option").count() == 4
        page.click("#create-button")
        page.click("#my-seat")
        page.wait_for_selector("#hand .card")
        assert len(page.locator("#hand .card").all()) == 10
        assert "Robô · Mestre" in page.inner_text("#felt")

        (room,) = server.app.state.rooms.rooms.values()
        clicked = 0
        while not page.locator("#summary[open]").count():
            page.wait_for_function(
                "document.querySelector('#summary[open]') ||"
                " document.querySelector('#hand .card.playable')", timeout=20_000)
            playable = page.locator("#hand .card.playable")
            if page.locator("#summary[open]").count() or not playable.count():
                continue
            # Exactly the legal cards are playable; the others are dimmed.
            state = room.table.state
            assert state.to_play == 0
            legal = {card_name(c) for c in state.legal_moves()}
            shown = {b.get_attribute("data-card") for b in playable.all()}
            dimmed = page.locator('#hand .card[aria-disabled="true"]').count()
            assert shown == legal and dimmed == state.hands[0].bit_count() - len(legal)
            card = playable.first
            label = card.get_attribute("aria-label")
            assert label and " de " in label  # a Portuguese card name for screen readers
            before = page.locator("#hand .card").count()
            if clicked == 3:
                card.focus()
                page.keyboard.press("Enter")  # the keyboard plays too
            else:
                card.click()
            page.wait_for_function(
                f"document.querySelectorAll('#hand .card').length < {before}", timeout=10_000)
            clicked += 1
            if clicked == 2:
                # Reloading the page puts the player back in the seat, cards and all.
                page.reload()
                page.wait_for_selector("#hand .card")
                assert page.locator("#hand .card").count() == 8
                assert "(" in page.locator("#pos-bottom .plate").inner_text()  # "Ana (Você)"
            if clicked == 5:
                page.screenshot(path=str(ARTIFACTS / "web-table-playing.png"))
        assert clicked == 10

        # The end-of-deal summary and the score sheet agree with the server's match.
        match = room.table.match
        (result,) = match.results
        points = [int(x) for x in page.locator("#deal-result .big").all_inner_texts()]
        assert points == list(result.points) and sum(points) == 120
        assert page.locator("#summary .mini-hand").count() == 4
        page.screenshot(path=str(ARTIFACTS / "web-table-summary.png"))
        sheet = page.locator("#score-sheet")
        assert int(sheet.get_attribute("data-us") or -1) == match.score[0]  # seat 0: team 0
        assert int(sheet.get_attribute("data-them") or -1) == match.score[1]
        assert page.locator("#score-sheet tbody tr").count() == 1
        # Down to a phone: nothing wider than the screen.
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # Ready for the next deal: the summary closes and a new hand is dealt.
        page.click("#next-deal")
        page.wait_for_function("!document.querySelector('#summary[open]')", timeout=10_000)
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 10",
                               timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "web-table-phone.png"))
        assert not errors, errors


@pytest.mark.slow
def test_a_person_bids_at_a_five_player_italiana_table(browser: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.http + "/")
        page.fill("#name", "Ana")
        page.select_option("#preset", "italiana5")
        assert page.locator(".seat-row").count() == 5
        assert page.input_value("#target") == "10"  # the preset's target
        for row in range(1, 5):
            page.locator(".seat-row .level").nth(row).select_option("intermediate")
        page.click("#create-button")
        page.click("#my-seat")
        page.wait_for_selector("#hand .card")
        assert page.locator("#hand .card").count() == 8
        assert page.locator("#ring .ring-seat").count() == 5  # five seats round the cloth
        # Every player bids once, starting with the dealer: our turn comes.
        page.wait_for_selector("#pass-button", timeout=20_000)
        assert page.locator("#auction .bids li").count() == 5
        (room,) = server.app.state.rooms.rooms.values()
        state = room.table.state
        low = page.locator("#bid-input")
        if low.count():
            value = int(low.get_attribute("min") or 0)
            assert value == max([*state.bids, 60]) + 1
            page.fill("#bid-input", str(value))
            page.keyboard.press("Enter")  # the keyboard bids too
            page.wait_for_function(f"document.querySelector('#bids').textContent.includes('{value}')")
        else:
            value = 0
            page.click("#pass-button")
        page.wait_for_function("!document.querySelector('#pass-button')", timeout=10_000)
        order = bidding_order(state.rules, state.deal.dealer)
        assert room.table.state.bids[order.index(0)] == value  # the server has our bid
        # If we won the bidding we call a card from the picker (any of the 40 faces).
        page.wait_for_selector("#contract, .call-card", timeout=20_000)
        if page.locator(".call-card").count():
            assert page.locator(".call-card").count() == 40
            page.click('.call-card[data-call="AH"]')
        page.wait_for_selector("#contract", timeout=20_000)
        contract = room.table.state.contract
        assert contract is not None
        banner = page.locator("#contract").inner_text()
        assert str(contract.target) in banner
        page.screenshot(path=str(ARTIFACTS / "web-italiana5.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "web-italiana5-phone.png"))
        assert not errors, errors


@pytest.mark.slow
def test_a_person_revokes_and_the_other_side_cries_renuncia(tmp_path: Path) -> None:
    """Two people, each in a browser of their own (a seat's token lives in the page's storage),
    and two bots. Ana creates the table in the lobby with renúncia on and invites Bruno, her
    opponent; when she can she plays a card that does not follow suit. Nothing on Bruno's page
    tells him; he presses *Renúncia!*, and both pages (Portuguese and English) show the cry,
    its outcome and, in the deal's summary, the penalty. Screenshots at desktop and phone
    sizes."""
    from playwright.sync_api import sync_playwright

    from sueca.cards import card_suit

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    ARTIFACTS.mkdir(exist_ok=True)
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=LAUNCH_ARGS)
        try:
            ana = browser.new_context(viewport={"width": 1280, "height": 860},
                                      locale="pt-PT", bypass_csp=True).new_page()
            bruno = browser.new_context(viewport={"width": 1280, "height": 860},
                                        locale="en", bypass_csp=True).new_page()
            errors: list[str] = []
            for page in (ana, bruno):
                page.on("pageerror", lambda error: errors.append(str(error)))
            ana.goto(server.http + "/")
            ana.fill("#name", "Ana")
            ana.fill("#target", "10")
            ana.check("#renuncia")
            ana.select_option("#open_hands", "dealer_dummy")
            ana.select_option("#open_hands", "")  # offered; this table plays closed hands
            ana.locator(".seat-row .kind").nth(1).select_option("human")
            ana.click("#create-button")
            link = ana.locator(".invite input").first.input_value()
            ana.click("#my-seat")
            bruno.goto(link)
            for page in (ana, bruno):
                page.wait_for_selector("#hand .card")
            (room,) = server.app.state.rooms.rooms.values()
            assert room.table.rules.renuncia

            revoked = None
            while revoked is None:
                for page, seat in ((ana, 0), (bruno, 1)):
                    if page.locator("#summary[open] #next-deal").count():
                        page.click("#next-deal")  # a deal without a chance to revoke
                        continue
                    state = room.table.state
                    if state.to_play != seat or not page.locator("#hand .card.playable").count():
                        continue
                    # Not on a trump lead: the turned card is public while the dealer holds it,
                    # and a bot could prove the revoke at once, before Bruno's cry.
                    revokes = page.locator("#hand .card.revoke")
                    if seat == 0 and state.trick and card_suit(state.trick[0]) != state.trump \
                            and revokes.count():
                        card = revokes.first
                        revoked = card.get_attribute("data-card")
                    else:
                        card = page.locator("#hand .card.playable").first
                    before = page.locator("#hand .card").count()
                    card.click()
                    page.wait_for_function(
                        f"document.querySelectorAll('#hand .card').length < {before}",
                        timeout=10_000)
                page.wait_for_timeout(50)
            state = room.table.state
            assert state.revokes and state.proven is None
            # Bruno sees the card on the cloth and nothing else: no word of a revoke.
            bruno.wait_for_function(
                "[...document.querySelectorAll('#trick .slot')].length > 0", timeout=10_000)
            assert bruno.locator("#renuncia-panel .denunciation").count() == 0
            assert "revoke" not in bruno.locator("#felt").inner_text().lower()
            bruno.click("#denounce-button")
            for page in (ana, bruno):
                page.wait_for_selector("#summary[open]", timeout=10_000)
            assert room.table.match.score == [0, 4]  # Bruno's side, team 1: the penalty
            english = bruno.locator("#summary .denunciation").first.inner_text()
            assert "Revoke proven" in english and "4 games" in english, english
            portuguese = ana.locator("#summary .denunciation").first.inner_text()
            assert "Renúncia provada" in portuguese and "4 jogos" in portuguese, portuguese
            cry = ana.locator("#renuncia-panel .denunciation").first.inner_text()
            assert "Lugar 2" in cry and "com razão" in cry, cry  # (invited: no name given)
            assert ana.locator("#score-sheet").get_attribute("data-them") == "4"
            ana.screenshot(path=str(ARTIFACTS / "web-renuncia.png"))
            bruno.set_viewport_size({"width": 390, "height": 844})
            assert bruno.evaluate("document.documentElement.scrollWidth") <= 390
            bruno.screenshot(path=str(ARTIFACTS / "web-renuncia-phone.png"))
            assert not errors, errors
        finally:
            browser.close()


@pytest.mark.slow
def test_the_history_page_says_who_cried_renuncia(tmp_path: Path) -> None:
    """A person revokes among three bots, who prove it and cry renúncia! (by the deal's end at
    the latest); the finished match's replay says who cried it and that he was right."""
    import asyncio

    import httpx2
    from playwright.sync_api import sync_playwright
    from server_support import create_table, join, token_of

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = create_table(server.http, ["human", "bot", "bot", "bot"],
                             {"variant": "standard", "renuncia": True, "match_target": 1},
                             names=["Ana", "Bruno", "Carla", "Duarte"], level="heuristic")

        async def revoke_and_wait() -> None:
            ana = await join(server.ws, table["id"], token_of(table, 0), 0)
            revoked = False
            while True:
                view = ana.view
                assert view is not None
                if view["phase"] == "match_over":
                    break
                if view["phase"] == "deal_over":
                    await ana.send({"type": "next"})
                elif view["actor"] == 0 and view["legal"]:
                    revoke = view.get("revokes") if not revoked else None
                    revoked = revoked or bool(revoke)
                    await ana.send({"type": "play", "card": (revoke or view["legal"])[0]})
                    await ana.sync()
                    continue
                await ana.recv(20)
            assert revoked
            await ana.socket.close()

        asyncio.run(revoke_and_wait())
        mine = {"X-Sueca-Seats": f"{table['id']}:{token_of(table, 0)}"}  # a private table's
        (entry,) = httpx2.get(f"{server.http}/api/history", headers=mine).json()["matches"]
        report = httpx2.get(f"{server.http}/api/history/{entry['id']}",
                           headers=mine).json()["report"]
        index = next(i for i, deal in enumerate(report["deals"]) if deal.get("denunciations"))
        cry = report["deals"][index]["denunciations"][-1]
        assert cry["correct"] and cry["seat"] in (1, 3)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=LAUNCH_ARGS)
            try:
                page = browser.new_context(locale="pt-PT", bypass_csp=True).new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                # Ana's browser holds her seat's token (the table page keeps it): the history
                # of her private table is hers to see.
                page.goto(f"{server.http}/history")
                page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                              [f"sueca.token.{table['id']}", token_of(table, 0)])
                page.goto(f"{server.http}/history/{entry['id']}")
                page.wait_for_selector("#deal-select")
                page.select_option("#deal-select", str(index))
                facts = page.inner_text("#deal-facts")
                name = entry["seats"][cry["seat"]]
                assert f"{name} acusou renúncia — com razão" in facts, facts
                assert errors == []
            finally:
                browser.close()


@pytest.mark.slow
def test_the_match_over_dialog_offers_no_renuncia(browser: Any, tmp_path: Path) -> None:
    """A renúncia match to one game, Ana among three bots: once it is won the dialog offers a
    rematch and the history, never the cry (a won match stands), though the deal's rule alone
    would still let her cry."""
    import httpx2

    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        response = httpx2.post(f"{server.http}/api/tables", json={
            "rules": {"variant": "standard", "renuncia": True, "match_target": 1},
            "seats": [{"kind": "human", "name": "Ana"}] + [
                {"kind": "bot", "level": "heuristic"}] * 3})
        assert response.status_code == 201, response.text
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.http + response.json()["seats"][0]["link"])
        page.wait_for_selector("#hand .card")
        while not page.locator("#summary[open] #rematch").count():
            page.wait_for_function(
                "document.querySelector('#summary[open] #rematch') ||"
                " document.querySelector('#summary[open] #next-deal') ||"
                " document.querySelector('#hand .card.playable')", timeout=20_000)
            if page.locator("#summary[open] #next-deal").count():
                page.click("#next-deal")  # a tie: the match goes on
                page.wait_for_function("!document.querySelector('#summary[open]')",
                                       timeout=10_000)
                continue
            playable = page.locator("#hand .card.playable")
            if page.locator("#summary[open]").count() or not playable.count():
                continue
            before = page.locator("#hand .card").count()
            playable.first.click()
            page.wait_for_function(
                f"document.querySelectorAll('#hand .card').length < {before}", timeout=10_000)
        (room,) = server.app.state.rooms.rooms.values()
        assert room.table.phase == "match_over" and room.table.state.may_denounce(0)
        assert page.locator("#summary .denounce").count() == 0
        assert page.locator("#denounce-button").count() == 0
        assert not errors, errors
