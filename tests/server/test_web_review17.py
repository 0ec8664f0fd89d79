"""Issue 17, an outside-in review of the web table: what still failed once each item was fixed.

Each test drives Debian's Chromium (``web_support.py``) at 1280×900 and 390×844 and asserts on
geometry (boxes inside the viewport, no two boxes overlapping) and on text, never on pixels;
the screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer
from web_support import (
    ARTIFACTS,
    DESKTOP,
    PACE,
    PHONE,
    chromium,
    new_table,
    open_page,
    screenshots,
    wait_my_card,
)

from sueca.bots.levels import BY_NAME
from sueca.server import Timing

__all__ = ["chromium"]  # the fixture, imported for the tests below

Box = dict[str, float]
LONG_NAME = "Alexandrina Sofia Barros"  # 24 characters, the longest name a seat takes
BOT = {"kind": "bot", "level": "intermediate"}


def box_of(locator: Any) -> Box:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not drawn"
    result: Box = box
    return result


def overlap(a: Box, b: Box) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def inside(inner: Box, outer: Box) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def on_screen(page: Any, box: Box) -> bool:
    size = page.viewport_size
    return inside(box, {"x": 0, "y": 0, "width": size["width"], "height": size["height"]})


def boxes(page: Any, selector: str) -> list[Box]:
    return [box_of(page.locator(selector).nth(i)) for i in range(page.locator(selector).count())]


def hand_on_screen(page: Any) -> None:
    for card in boxes(page, "#hand .card"):
        assert on_screen(page, card), (card, page.viewport_size)


def whole(page: Any, selector: str) -> None:
    """Each element ``selector`` shows its whole text: nothing cut, no ellipsis."""
    cut = page.evaluate(f"""[...document.querySelectorAll({selector!r})]
        .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
        .map(e => e.textContent)""")
    assert not cut, cut


@pytest.mark.slow
def test_the_invitations_fold_away_once_the_deal_starts_and_the_review_names_seats_in_pt(
    chromium: Any, tmp_path: Path
) -> None:
    """Findings 1, 4 and 9: while gathering at 1280×900 the hand is on the screen beside the
    invitations; once the first deal starts they fold into a "Convites" button (still one click
    away) and the cloth, the hand and the score sheet are all on the screen at both sizes; the
    stand-in's badge stays on the cloth; the review of the deal says "Lugar 2", never "Seat 2"."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                                        BOT, BOT], {"variant": "standard", "match_target": 1})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        invite = page.locator("#gather-panel .invite input")
        invite.wait_for()
        assert on_screen(page, box_of(invite))
        page.wait_for_selector("#hand .card")
        hand_on_screen(page)
        assert page.is_visible("#start-with-bots")
        screenshots(page, "web-review17-gathering")

        page.click("#start-with-bots")
        wait_my_card(page)
        page.wait_for_selector("#gather-panel summary")
        assert "Convites" in page.inner_text("#gather-panel summary")
        assert not invite.is_visible()  # folded
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.evaluate("window.scrollTo(0, 0)")
            felt = box_of(page.locator("#felt"))
            assert on_screen(page, felt), (size, felt)
            hand_on_screen(page)
            assert on_screen(page, box_of(page.locator("#score-sheet tfoot"))), size
            # The stand-in's badge ("Ausente — o robô joga") stays on the cloth.
            for badge in boxes(page, "#felt .plate .badge"):
                assert inside(badge, felt), (size, badge)
        screenshots(page, "web-review17-playing")
        page.click("#gather-panel summary")
        assert invite.is_visible()
        assert invite.input_value() == server.http + table["seats"][1]["link"]

        # The deal to its end, then its review: the unnamed seat is "Lugar 2" there too.
        while not page.locator("#summary[open]").count():
            wait_my_card(page, timeout=30_000)
            playable = page.locator("#hand .card.playable")
            if not page.locator("#summary[open]").count() and playable.count():
                playable.first.click()
                page.wait_for_timeout(60)
        with page.context.expect_page() as opened:
            page.click("#review-deal")
        review = opened.value
        review.wait_for_selector("#seat-select", timeout=90_000)
        seats = review.locator("#seat-select option").all_inner_texts()
        assert seats[1] == "Lugar 2", seats
        # The page's own labels: the seat chooser, the title and the hands round the cloth.
        # (The reasons' words come from the server: sueca/server/reviews.py names the seats.)
        labels = review.locator("#main h2, #position .name").all_inner_texts()
        assert "Lugar 2" in labels and not [x for x in labels if "Seat" in x], labels
        review.screenshot(path=str(ARTIFACTS / "web-review17-review.png"), full_page=True)
        assert not errors, errors


@pytest.mark.slow
def test_the_five_player_table_keeps_the_hand_names_and_corners_clear(
    chromium: Any, tmp_path: Path
) -> None:
    """Findings 2, 7 and 8 (five-player Italiana, English, 1280×900): no empty corner pills
    while bidding; while calling a card the grid is compact and the whole hand on the screen;
    a 24-character name is whole on its plate and in the bids; in play the tricks' corner lies
    over no plate; on a phone the own plate says the whole "(You)"."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": LONG_NAME}] + [
            {**BOT, "name": name} for name in ("Tomás", "Vasco", "Beatriz", "Inês")],
            {"variant": "italiana5"})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                 locale="en-GB")
        page.wait_for_selector("#bid-input", timeout=20_000)
        assert not page.locator("#trump-corner").is_visible()
        assert not page.locator("#tricks-corner").is_visible()
        page.fill("#bid-input", page.get_attribute("#bid-input", "max") or "120")
        page.click("#bid-button")
        page.wait_for_selector(".call-card", timeout=20_000)
        hand_on_screen(page)
        assert on_screen(page, box_of(page.locator(".call-picker")))
        assert LONG_NAME in page.inner_text('.plate[data-seat="0"] .name')
        whole(page, ".plate .name")
        whole(page, "#bids li")
        screenshots(page, "web-review17-calling")

        page.locator('.call-card[data-call="AS"]').click()
        page.wait_for_function("view && view.stage === 'play'", timeout=20_000)
        page.wait_for_selector("#tricks-corner:not(:empty)")
        corner = box_of(page.locator("#tricks-corner"))
        trump = box_of(page.locator("#trump-corner"))
        for plate in boxes(page, ".plate"):
            assert not overlap(corner, plate) and not overlap(trump, plate), (corner, plate)
        whole(page, ".plate .name")
        page.set_viewport_size(PHONE)
        whole(page, ".plate .name")
        felt = box_of(page.locator("#felt"))
        for plate in boxes(page, ".plate"):
            assert inside(plate, felt), plate
        assert page.inner_text('.plate[data-seat="0"] .name').endswith("(You)")
        screenshots(page, "web-review17-five-play")
        assert not errors, errors


FULL_TRICK = ["AS", "7S", "KS", "JS", "QS", "AH", "7H", "KH"]


def check_ring_cloth(page: Any) -> None:
    """An eight-seat cloth: every plate whole on the cloth, clear of the corners, of the other
    plates and of every trick card; no trick card over a seat's cards; the "to play" line
    over no plate and no cards."""
    felt = box_of(page.locator("#felt"))
    plates = boxes(page, ".plate")
    assert len(plates) == 8
    corners = [box_of(page.locator(f"#{c}")) for c in ("trump-corner", "tricks-corner")]
    slots = boxes(page, "#trick .slot")
    assert len(slots) == 8
    status = box_of(page.locator("#status"))
    for i, plate in enumerate(plates):
        assert inside(plate, felt), (page.viewport_size, plate, felt)
        for other in [*plates[i + 1:], *corners, *slots, status]:
            assert not overlap(plate, other), (page.viewport_size, plate, other)
    for cards in boxes(page, ".seat-cards"):
        for other in [*slots, status]:
            assert not overlap(other, cards), (page.viewport_size, other, cards)
    for tag in range(page.locator(".side-tag").count()):
        assert page.locator(".side-tag").nth(tag).is_visible()


@pytest.mark.slow
def test_spectators_see_every_plate_round_the_ring_and_the_turn_over_no_cards(
    chromium: Any, tmp_path: Path
) -> None:
    """Findings 3 and 6: a spectator of the eight-seat ring, with a whole trick on the cloth
    (one card from each seat), at 1280×900 and on a phone; and a spectator of a four-seat
    table on a phone, whose "X to play" line lies over none of the bottom seat's cards."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        eight = new_table(server.http, [{"kind": "human", "name": "Ana"}] + [BOT] * 7,
                          {"variant": "double8"})
        ana, errors = open_page(chromium, server.http + eight["seats"][0]["link"])
        ana.wait_for_selector("#hand .card.playable", timeout=20_000)  # the table waits for her
        for locale, size in (("en-GB", DESKTOP), ("pt-PT", PHONE)):
            watcher, watcher_errors = open_page(chromium, f"{server.http}/t/{eight['id']}",
                                                locale=locale, viewport=size)
            watcher.wait_for_function("view && view.hand_sizes && view.actor === 0")
            # Eight cards on the cloth at once (the table's state holds fewer while Ana
            # thinks): each slot drawn where its seat's card goes.
            watcher.evaluate(f"view.trick = {{cards: {FULL_TRICK!r}, leader: 0}}; render()")
            check_ring_cloth(watcher)
            watcher.screenshot(path=str(ARTIFACTS / f"web-review17-ring-{locale}.png"))
            assert not watcher_errors, watcher_errors
            watcher.context.close()
        for size in (DESKTOP, PHONE):  # and as Ana sees it, her hand below
            ana.set_viewport_size(size)
            ana.evaluate(f"view.trick = {{cards: {FULL_TRICK!r}, leader: 0}}; render()")
            check_ring_cloth(ana)
            hand_on_screen(ana)
        screenshots(ana, "web-review17-ring-player")

        four = new_table(server.http, [{"kind": "human", "name": "Ana"}] + [BOT] * 3)
        ana4, errors4 = open_page(chromium, server.http + four["seats"][0]["link"])
        ana4.wait_for_selector("#hand .card", timeout=20_000)
        watcher, watcher_errors = open_page(chromium, f"{server.http}/t/{four['id']}",
                                            viewport=PHONE)
        watcher.wait_for_selector("#status:not(:empty)")
        status = box_of(watcher.locator("#status"))
        for cards in boxes(watcher, ".seat-cards") + boxes(watcher, ".plate"):
            assert not overlap(status, cards), (status, cards)
        assert on_screen(watcher, status)
        screenshots(watcher, "web-review17-spectator")
        assert not errors and not errors4 and not watcher_errors


def test_pt_pages_say_seats_levels_and_bots_in_one_language(
    chromium: Any, tmp_path: Path
) -> None:
    """Findings 4, 5 and 9: the lobby's in-play score line says "Lugar 2"; the chosen bot
    level's line is the level's own (sueca.bots.levels), whole under its select, in every
    language; pt-PT says "robô" throughout, "Som: desligado", and no "por ele" for a seat."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        new_table(server.http, [{"kind": "human", "name": "Ana"}, {"kind": "human"}] + [BOT] * 3,
                  {"variant": "italiana5"}, open=True)
        page, errors = open_page(chromium, server.http + "/", viewport=PHONE)
        page.wait_for_selector("#tables .table-item")
        line = page.inner_text("#tables")
        assert "Lugar 2 0" in line and "Seat" not in line, line
        row = page.locator('.seat-row[data-seat="1"]')
        row.locator(".kind").select_option("bot")
        row.locator(".level").select_option("beginner")
        help_line = row.locator(".level-help")
        assert help_line.inner_text() == "conhece as regras e quer vazas: sai cedo com os reis, " \
                                         "esquece-se de cortar"
        options = row.locator(".level option").all_inner_texts()
        assert options == ["Iniciante", "Intermédio", "Forte", "Mestre"], options
        for lang in ("pt-BR", "en"):
            page.select_option("#lang", lang)
            row.locator(".level").select_option("expert")
            row.locator(".level-help").scroll_into_view_if_needed()
            box = box_of(row.locator(".level-help"))
            assert on_screen(page, box), box
            whole(page, ".seat-row .level-help")
        page.select_option("#lang", "en")
        row.locator(".level").select_option("beginner")
        assert row.locator(".level-help").inner_text() == BY_NAME["beginner"].description
        screenshots(page, "web-review17-lobby")

        strings = page.evaluate("STRINGS")
        for lang in ("pt-PT", "pt-BR"):
            bad = {k: v for k, v in strings[lang].items() if re.search(r"\b[Bb]ots?\b", v)}
            assert not bad, (lang, bad)
            assert strings[lang]["sound_off"] == "Som: desligado"
            assert strings[lang]["sound_on"] == "Som: ligado"
            for key in ("stand_in_waiting", "stand_in_away"):
                assert "por ele" not in strings[lang][key], strings[lang][key]
        assert not errors, errors


# ---- the second outside pass (issue 17, /tmp/rev17b) ----

@pytest.mark.slow
def test_gathering_keeps_the_hand_on_screen_and_says_the_table_waits(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, findings 1 and 7: with three invited seats free (pt-BR, 1280×900, the
    tallest invitation panel) the cloth keeps its height and the hand is on the screen; the
    status pill says the table waits for its guests, not whose turn it is; an unnamed seat's
    turn is "Vez do Lugar 2" (the article) in both Portuguese."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}] +
                          [{"kind": "human"}] * 3, {"variant": "standard"})
        for locale in ("pt-BR", "pt-PT"):
            page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                     locale=locale)
            page.wait_for_selector("#gather-panel .invite input")
            page.wait_for_selector("#hand .card")
            assert page.locator("#gather-panel .invite input").count() == 3
            hand_on_screen(page)
            felt, side = box_of(page.locator("#felt")), box_of(page.locator("#gather-panel"))
            assert on_screen(page, felt), felt
            assert side["height"] > felt["height"] / 2  # a tall panel, yet the cloth is not
            status = page.inner_text("#status")
            assert status == {"pt-BR": "Aguardando os convidados",
                              "pt-PT": "À espera dos convidados"}[locale], status
            assert page.evaluate("turnOf(1)") == "Vez do Lugar 2"
            assert page.evaluate("turnOf(0)") == "Vez de Ana"
            if locale == "pt-BR":
                page.screenshot(path=str(ARTIFACTS / "web-review17b-gathering3.png"))
            assert not errors, errors
            page.context.close()


def cloth_auction_and_hand(page: Any) -> None:
    """The plates whole on the cloth and apart; the auction box and the hand on the screen."""
    page.evaluate("window.scrollTo(0, 0)")
    felt = box_of(page.locator("#felt"))
    plates = boxes(page, ".plate")
    for i, plate in enumerate(plates):
        assert inside(plate, felt), (plate, felt)
        for other in plates[i + 1:]:
            assert not overlap(plate, other), (plate, other)
    assert on_screen(page, box_of(page.locator("#auction")))
    hand_on_screen(page)


@pytest.mark.slow
def test_a_five_player_phone_keeps_the_auction_and_the_hand_on_screen(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 2 (italiana5 at 390×844, en and pt-BR): while bidding and while
    calling the auction box and the whole hand are on the screen below a shorter cloth whose
    plates stay whole and apart; an invalid bid's message covers neither the box nor the hand."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        for locale in ("en-GB", "pt-BR"):
            table = new_table(server.http, [{"kind": "human", "name": LONG_NAME}] + [
                {**BOT, "name": name} for name in ("Tomás", "Vasco", "Beatriz", "Inês")],
                {"variant": "italiana5"})
            page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                     locale=locale, viewport=PHONE)
            page.wait_for_selector("#bid-input", timeout=20_000)
            cloth_auction_and_hand(page)
            page.fill("#bid-input", "121")  # over the most a bid may be: refused
            page.click("#bid-button")
            page.wait_for_selector("#toast:not([hidden])")
            toast = box_of(page.locator("#toast"))
            assert on_screen(page, toast)
            for other in [box_of(page.locator("#auction")), *boxes(page, "#hand .card")]:
                assert not overlap(toast, other), (toast, other)
            page.fill("#bid-input", "120")
            page.click("#bid-button")
            page.wait_for_selector(".call-card", timeout=20_000)
            cloth_auction_and_hand(page)
            screenshots(page, f"web-review17b-five-phone-calling-{locale}")
            assert not errors, errors
            page.context.close()


def inside_the_page(page: Any) -> None:
    """Nothing wider than the screen: the page does not scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.slow
def test_a_phone_shows_the_replays_hands_whole_and_the_review_within_the_screen(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 3 (390×844, pt-BR and en): the History replay's cloth holds every
    plate and every card of the four open hands; the review page is no wider than the phone."""
    alone = Timing(grace=0.0, bot_delay=0.0, trick_pause=0.0, deal_pause=0.0, invite_wait=0.0)
    with LiveServer(str(tmp_path / "sueca.db"), timing=alone) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, BOT, BOT, BOT],
                          {"variant": "standard", "match_target": 1}, open=True)
        deadline = time.monotonic() + 60
        while server.room(table["id"]).table.phase != "match_over":
            assert time.monotonic() < deadline, "the match did not end"
            time.sleep(0.05)
        for locale in ("pt-BR", "en-GB"):
            page, errors = open_page(chromium, server.http + "/history", locale=locale,
                                     viewport=PHONE)
            page.wait_for_selector("table.matches a.btn")
            page.locator("table.matches a.btn").first.click()
            page.wait_for_selector(".replay-felt .replay-hand .face")
            felt = box_of(page.locator(".replay-felt"))
            for selector in (".replay-felt .plate", ".replay-felt .replay-hand .face"):
                for item in boxes(page, selector):
                    assert inside(item, felt), (locale, selector, item, felt)
            inside_the_page(page)
            page.screenshot(path=str(ARTIFACTS / f"web-review17b-replay-{locale}.png"))
            for _ in range(3):  # a trick on the cloth too
                page.click("#next")
            page.goto(server.http + (page.get_attribute("#review-deal", "href") or ""))
            page.wait_for_selector(".review-cards", timeout=90_000)
            inside_the_page(page)
            felt = box_of(page.locator(".replay-felt"))
            for item in boxes(page, ".replay-felt .replay-hand .face"):
                assert inside(item, felt), (locale, item, felt)
            page.screenshot(path=str(ARTIFACTS / f"web-review17b-review-{locale}.png"),
                            full_page=True)
            assert not errors, errors
            page.context.close()


FOUR_TRICK = ["AS", "7S", "KS", "JS"]


@pytest.mark.slow
def test_a_four_seat_phone_lays_each_played_card_clear_of_the_plates_and_backs(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, findings 4 and 5 (390×844, pt-PT and pt-BR): with a whole trick on the
    cloth no played card lies over a plate or a seat's cards, the stand-in's wide badge
    included; the "Última vaza" button covers no plate."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, {"kind": "human"},
                                        BOT, BOT], {"variant": "standard"})
        for locale in ("pt-PT", "pt-BR"):
            page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                     locale=locale, viewport=PHONE)
            if locale == "pt-PT":
                page.click("#start-with-bots")
            wait_my_card(page)
            page.evaluate(f"view.trick = {{cards: {FOUR_TRICK!r}, leader: 0}}; render()")
            page.evaluate("window.scrollTo(0, 0)")
            slots = boxes(page, "#trick .slot")
            assert len(slots) == 4
            badges = page.locator("#felt .plate .badge").all_inner_texts()
            assert any("robô" in badge for badge in badges), badges
            plates = boxes(page, "#felt .plate")
            for slot in slots:
                for other in plates + boxes(page, "#felt .seat-cards"):
                    assert not overlap(slot, other), (locale, slot, other)
            page.evaluate("$('peek-button').hidden = false")
            peek = box_of(page.locator("#peek-button"))
            for other in [*plates, *slots, box_of(page.locator("#status"))]:
                assert not overlap(peek, other), (locale, peek, other)
            page.screenshot(path=str(ARTIFACTS / f"web-review17b-four-phone-{locale}.png"))
            assert not errors, errors
            page.context.close()


@pytest.mark.slow
def test_the_sheet_counts_a_match_as_soon_as_it_is_won_and_once(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 6: the matches-won tally shows the match just won on the sheet at
    once (not only when a rematch starts); a restart on the same store keeps it, and the
    rematch does not count it again."""
    db = str(tmp_path / "sueca.db")
    with LiveServer(db, timing=PACE) as server:
        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, BOT, BOT, BOT],
                          {"variant": "standard", "match_target": 1})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        page.wait_for_function("typeof view !== 'undefined' && view !== null")
        while page.evaluate("view.phase") != "match_over":
            page.wait_for_function(
                "view.phase === 'match_over' || view.phase === 'deal_over' ||"
                " document.querySelector('#hand .card.playable')", timeout=30_000)
            if page.evaluate("view.phase") == "deal_over":
                page.evaluate("send({type: 'next'})")
                page.wait_for_function("view.phase !== 'deal_over'", timeout=30_000)
            elif page.evaluate("view.phase") == "playing":
                page.locator("#hand .card.playable").first.click()
                page.wait_for_timeout(60)
        winner = page.evaluate("view.score.winner")
        page.wait_for_selector("#sets-tally")
        won = [int(winner == 0), int(winner == 1)]
        assert page.text_content('#sets-tally [data-team="us"]') == str(won[0])
        assert page.text_content('#sets-tally [data-team="them"]') == str(won[1])
        assert not errors, errors
        page.context.close()
    with LiveServer(db, timing=PACE) as again:
        room = again.room(table["id"])
        assert room is not None and room.table.sets == won
        page, errors = open_page(chromium, again.http + table["seats"][0]["link"])
        page.wait_for_selector("#rematch")
        page.click("#rematch")
        page.wait_for_function("view.score.number === 2", timeout=20_000)
        assert page.text_content('#sets-tally [data-team="us"]') == str(won[0])
        assert page.text_content('#sets-tally [data-team="them"]') == str(won[1])
        assert room.table.sets == won
        assert not errors, errors


def test_the_review_error_and_the_tournaments_titles_speak_the_pages_language(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 8: a refused review says why in the page's own words (pt-PT,
    pt-BR), never the server's English reason; the tournaments pages' titles follow the
    page's language."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        for locale, words in (("pt-PT", "A análise falhou: esta partida não existe"),
                              ("pt-BR", "A análise falhou: esta partida não existe"),
                              ("en-GB", "The review failed: no such match")):
            page, errors = open_page(chromium, server.http + "/review?match=999&deal=0&seat=0",
                                     locale=locale)
            page.wait_for_selector("#main [role=alert]")
            assert page.inner_text("#main [role=alert]") == words
            page.goto(server.http + "/tournaments")
            page.wait_for_function("document.title !== ''")
            assert page.title() == {"pt-PT": "Sueca — Torneios", "pt-BR": "Sueca — Torneios",
                                    "en-GB": "Sueca — Tournaments"}[locale], page.title()
            page.goto(server.http + "/tournaments/nosuch")
            page.wait_for_selector("#lang option", state="attached")
            assert page.title() == {"pt-PT": "Sueca — Torneio", "pt-BR": "Sueca — Torneio",
                                    "en-GB": "Sueca — Tournament"}[locale], page.title()
            assert not errors, errors
            page.context.close()


def ribbon_uncovered(page: Any) -> None:
    """The turned card's ribbon is whole and on top: at its ends and its middle the point
    belongs to the ribbon, not to the next card in the hand."""
    box = box_of(page.locator("#hand .trump-ribbon"))
    assert page.inner_text("#hand .trump-ribbon").upper() in ("TRUNFO", "TRUMP")
    # (The ribbon lets clicks through to its card; hit-testing needs it to take them.)
    page.evaluate("document.querySelector('#hand .trump-ribbon').style.pointerEvents = 'auto'")
    for fx, fy in ((0.5, 0.08), (0.5, 0.5), (0.5, 0.92)):
        x, y = box["x"] + box["width"] * fx, box["y"] + box["height"] * fy
        hit = page.evaluate(f"document.elementFromPoint({x}, {y}).className")
        assert hit == "trump-ribbon", (page.viewport_size, box, fx, fy, hit)
    card = box_of(page.locator("#hand .card.trump-mark"))
    assert inside(box, card), (box, card)


@pytest.mark.slow
def test_ones_own_turned_card_says_trump_whole_in_a_tight_hand(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 9: the dealer's turned card, in the middle of the hand, shows its
    whole "TRUNFO" mark beside the next card: four seats on a phone, six (13 cards) at
    1280×900."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        for variant, size in (("standard", PHONE), ("double6", DESKTOP)):
            seats = 6 if variant == "double6" else 4
            table = new_table(server.http, [{"kind": "human", "name": "Ana"}] +
                              [BOT] * (seats - 1), {"variant": variant})
            page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                     viewport=size)
            wait_my_card(page)  # the table waits for her: no news redraws the page
            # Ana deals and holds the turned card: one from the middle of her hand.
            page.evaluate("""view.dealer = view.you; view.trump_held = true;
                view.trump_card = sortHand(view.hand)[4]; render()""")
            ribbon_uncovered(page)
            page.screenshot(path=str(ARTIFACTS / f"web-review17b-trump-{variant}.png"))
            assert not errors, errors
            page.context.close()


def test_a_phone_shows_whole_headings_whole_rule_names_and_the_summarys_title(
    chromium: Any, tmp_path: Path
) -> None:
    """Second pass, finding 10 (390×844): the tournaments table's headings break at no
    letter; the lobby's rules select shows its whole choice; the match's summary opens at
    its title, not scrolled to its button."""
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        for locale in ("en-GB", "pt-BR", "pt-PT"):
            page, errors = open_page(chromium, server.http + "/tournaments", locale=locale,
                                     viewport=PHONE)
            page.wait_for_selector("#list th:not(:empty)")
            for heading in page.locator("#list th").all():
                words = len(heading.inner_text().split())
                # A line box per line of the heading's text: a word cut in two makes one more.
                lines = heading.evaluate(
                    "e => { const r = document.createRange(); r.selectNodeContents(e);"
                    " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }")
                assert lines <= max(words, 1), (locale, heading.inner_text(), lines)
            inside_the_page(page)
            page.goto(server.http + "/")
            page.wait_for_selector("#preset option:not(:empty)", state="attached")
            for preset in page.locator("#preset option").all():
                page.select_option("#preset", preset.get_attribute("value") or "")
                fits = page.evaluate("""() => { const s = document.querySelector('#preset');
                    const c = document.createElement('canvas').getContext('2d');
                    c.font = getComputedStyle(s).font;
                    const text = c.measureText(s.selectedOptions[0].text).width;
                    return text + 24 <= s.clientWidth; }""")
                assert fits, (locale, preset.inner_text())
            assert not errors, errors
            page.context.close()

        table = new_table(server.http, [{"kind": "human", "name": "Ana"}, BOT, BOT, BOT],
                          {"variant": "standard", "match_target": 1})
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"],
                                 viewport=PHONE)
        while not page.locator("#summary[open]").count():
            wait_my_card(page, timeout=30_000)
            playable = page.locator("#hand .card.playable")
            if not page.locator("#summary[open]").count() and playable.count():
                playable.first.click()
                page.wait_for_timeout(60)
        page.wait_for_selector("#summary-title")
        assert page.evaluate("document.querySelector('#summary').scrollTop") == 0
        title, dialog = box_of(page.locator("#summary-title")), box_of(page.locator("#summary"))
        assert inside(title, dialog) and on_screen(page, title), (title, dialog)
        assert not errors, errors
