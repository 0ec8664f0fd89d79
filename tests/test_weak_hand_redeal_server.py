"""The redeal on a weak hand at the web server's table: the question goes to the seat that
decides, an ask stores the annulled deal and the same dealer deals again, refusals change
nothing, the views show the ask to everyone and no card, and a restart resumes."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from sueca.cards import card_name, parse_card
from sueca.record import check
from sueca.rules import preset
from sueca.server import views
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import Table, TableError, parse_seats
from sueca.state import IllegalMoveError

sys.path.insert(0, str(Path(__file__).parent / "server"))
from server_support import LiveServer, create_table, join, token_of

GENEROUS = preset("brazil").replace(weak_hand_redeal=True, weak_hand_limits=(15, 15))


def human_table(store: SQLiteStorage, seed: int = 3) -> Table:
    """A table of four people whose first deal has a seat that may ask (from ``seed`` on)."""
    seats = parse_seats([{"kind": "human", "name": n} for n in "ABCD"], GENEROUS)
    while True:
        probe = Table.create("t1", GENEROUS, seats, SQLiteStorage(":memory:"),
                             random.Random(seed))
        if probe.state and any(probe.state.may_ask_redeal(s) for s in range(4)):
            return Table.create("t1", GENEROUS, seats, store, random.Random(seed))
        seed += 1


def ask_somewhere(table: Table) -> int:
    """Answer the redeal question seat by seat, keeping until a seat may ask: it asks."""
    while True:
        assert table.stage == "redeal"
        seat = table.actor()
        assert seat is not None
        if table.state is not None and table.state.may_ask_redeal(table.state.to_play):
            table.redeal(seat, True)
            return seat
        table.redeal(seat, False)


def test_an_ask_stores_the_annulled_deal_and_the_same_dealer_deals_again() -> None:
    store = SQLiteStorage(":memory:")
    table = human_table(store)
    dealer = table.state.deal.dealer if table.state else -1
    first = table.state.deal if table.state else None
    asker = ask_somewhere(table)
    state = table.state
    assert state is not None and state.phase == "redeal" and state.deal != first
    assert state.deal.dealer == dealer and table.redeals() == [asker]
    assert table.match.annulled[0].asked_by == asker and table.match.score == [0, 0]
    # Every view shows who asked; nobody sees a card of the annulled deal or another hand.
    spectator = views.public_view(table, ["here"] * 4, set())
    assert spectator["redeals"] == [asker] and spectator["stage"] == "redeal"
    actor = table.actor()
    assert actor is not None
    mine = views.seat_view(table, actor, ["here"] * 4, set())
    assert mine["redeal"]["may_ask"] == state.may_ask_redeal(actor)
    assert mine["redeal"]["limit"] == 15 and mine["legal"] == []
    other = views.seat_view(table, (actor + 1) % 4, ["here"] * 4, set())
    assert "redeal" not in other
    # Keep everywhere, then play the deal out: the stored record holds the redeal and checks.
    while table.stage == "redeal":
        seat = table.actor()
        assert seat is not None
        table.redeal(seat, False)
    while table.phase == "playing":
        seat = table.actor()
        assert seat is not None and table.state is not None
        table.play(seat, table.state.legal_moves()[0])
    stored = store.load_match(table.match_id)
    assert stored is not None
    redeals = stored.record.deals[0].redeals
    assert redeals is not None and [r.asked_by for r in redeals] == [asker]
    report = check(stored.record)
    assert report["valid"], report["error"]
    assert report["deals"][0]["redeals"][0]["asked_by"] == asker


def test_refusals_change_nothing() -> None:
    store = SQLiteStorage(":memory:")
    table = human_table(store)
    seat = table.actor()
    assert seat is not None and table.state is not None
    version = table.version
    with pytest.raises(TableError) as wrong_seat:
        table.redeal((seat + 1) % 4, False)
    assert wrong_seat.value.code == "not_your_turn"
    with pytest.raises(TableError) as no_card:
        table.play(seat, table.state.legal_mask().bit_length())  # no card before the answers
    assert no_card.value.code == "not_now"
    strong = GENEROUS.replace(weak_hand_limits=(0, 0))
    table.state.rules = strong  # nobody may ask at these limits
    with pytest.raises(IllegalMoveError) as too_strong:
        table.redeal(seat, True)
    assert too_strong.value.reason == "bad_redeal"
    assert table.version == version and table.state.redeal_answers == []


def test_a_table_stopped_right_after_an_ask_resumes_with_a_fresh_deal(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    store = SQLiteStorage(db)
    table = human_table(store)
    asker = ask_somewhere(table)
    dealt = table.state.deal if table.state else None
    store.close()
    store = SQLiteStorage(db)
    (stored,) = store.open_tables()
    assert stored.match is not None
    restored = Table.restore(stored, store, random.Random(9))
    assert restored.state is not None and restored.state.deal == dealt
    assert restored.redeals() == [asker] and restored.stage == "redeal"
    store.close()


def test_a_table_stopped_during_the_question_keeps_the_keeps(tmp_path: Path) -> None:
    """The store holds the keeps, each an action with its seat (a record cannot: a deal played
    means every seat kept), so a seat that kept cannot ask instead after a restart."""
    db = tmp_path / "s.db"
    store = SQLiteStorage(db)
    table = human_table(store)
    kept = []
    for _ in range(2):
        seat = table.actor()
        assert seat is not None and table.stage == "redeal"
        table.redeal(seat, False)
        kept.append(seat)
    state = table.state
    assert state is not None
    answers, dealt, to_answer = list(state.redeal_answers), state.deal, table.actor()
    store.close()
    store = SQLiteStorage(db)
    (stored,) = store.open_tables()
    assert stored.match is not None
    keep = {"type": "redeal", "ask": False}
    assert stored.match.deals[-1].actions == [(kept[0], keep), (kept[1], keep)]
    restored = Table.restore(stored, store, random.Random(9))
    assert restored.state is not None and restored.state.deal == dealt
    assert restored.state.redeal_answers == answers == [False, False]
    assert restored.stage == "redeal" and restored.actor() == to_answer not in kept
    with pytest.raises(TableError):
        restored.redeal(kept[0], True)  # its turn is over: it kept
    store.close()


def test_over_the_socket_every_person_is_asked_and_the_others_hear_the_ask(tmp_path: Path
                                                                          ) -> None:
    # Seed 1: the first deal's questions go to seats 2, 3, 0, 1, and only seat 1 (the last)
    # holds fewer than 15 points. Every person is asked all the same, in turn: were a hand
    # that may only keep kept at once, everyone would see who holds the weak one.
    with LiveServer(str(tmp_path / "sueca.db"), seed=1) as server:
        created = create_table(server.http, ["human"] * 4,
                               {"variant": "brazil", "weak_hand_redeal": True,
                                "weak_hand_limits": [15, 15]})

        async def scenario() -> tuple[int, list[dict[str, Any]]]:
            players = [await join(server.ws, created["id"], token_of(created, s), s)
                       for s in range(4)]
            spectator = await join(server.ws, created["id"], None, None)
            for turn, seat in enumerate((2, 3, 0)):
                views = [await player.sync() for player in players]
                public = await spectator.sync()
                for view in [*views, public]:
                    assert view["stage"] == "redeal" and view["actor"] == seat
                    assert view["redeal_answers"] == [False] * turn
                # Only the seat asked sees its hand's worth: its own, and it may not ask.
                assert views[seat]["redeal"] == {"may_ask": False, "limit": 15,
                                                 "points": views[seat]["redeal"]["points"]}
                assert views[seat]["redeal"]["points"] >= 15
                assert all("redeal" not in v for v in views if v["you"] != seat)
                assert "redeal" not in public
                await players[seat].send({"type": "redeal", "ask": True})
                refused = await players[seat].recv_until("error")
                assert refused["code"] == "bad_redeal"
                await players[seat].send({"type": "redeal", "ask": False})
            mine = await players[1].sync()
            assert mine["actor"] == 1 and mine["redeal"]["may_ask"]
            assert mine["redeal"]["points"] < 15 and mine["legal"] == []
            await players[1].send({"type": "redeal", "ask": "yes"})
            refused = await players[1].recv_until("error")
            assert refused["code"] == "malformed"
            await players[1].send({"type": "redeal", "ask": True})
            return 1, [await player.sync() for player in players]

        asker, seen = asyncio.run(scenario())
    for view in seen:
        # The fresh deal's question: it waits for its first seat, whatever its hand.
        assert view["redeals"] == [asker] and view["stage"] == "redeal"
        assert view["redeal_answers"] == []
        hand = {card_name(parse_card(c)) for c in view["hand"]}
        known = {c for seat, cards in enumerate(view["known"]) if seat != view["you"]
                 for c in cards}
        assert known <= {view["trump_card"]} and len(hand) == 10


@pytest.mark.slow
def test_in_the_browser_a_person_asks_for_a_new_deal(tmp_path: Path) -> None:
    """Debian's Chromium (as test_server_browser): the lobby offers the option (not at a
    bidding table, which refuses it), the player with a weak hand gets the keep / new-deal
    buttons, after the ask sees who asked, and with a strong hand is asked all the same: the
    new-deal button is disabled, and his view alone says why."""
    from playwright.sync_api import sync_playwright
    from test_server_browser import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, PACE

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    ARTIFACTS.mkdir(exist_ok=True)
    # Seed 13: the first deal's bots keep and the player (seat 0) holds fewer than 15 points;
    # in the deal dealt after his ask he holds 22 (and the bots, again, keep).
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE, seed=13) as server, \
            sync_playwright() as playwright:
        # bypass_csp: the CSP forbids the test's own evaluated expressions (not the pages').
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
            args=LAUNCH_ARGS, viewport={"width": 1280, "height": 860}, locale="pt-PT",
            bypass_csp=True)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.http + "/")
            assert page.locator("#weak_hand_redeal").is_visible()
            page.select_option("#preset", "italiana5")
            assert not page.locator("#weak_hand_redeal").is_visible()
            page.select_option("#preset", "brazil")
            assert page.locator("#weak_hand_redeal").is_visible()
            created = create_table(server.http, ["human", "bot", "bot", "bot"],
                                   {"variant": "brazil", "weak_hand_redeal": True,
                                    "weak_hand_limits": [15, 15]}, level="random")
            page.goto(server.http + created["seats"][0]["link"])
            page.wait_for_selector("#redeal-button:not([disabled])", timeout=20_000)
            page.screenshot(path=str(ARTIFACTS / "web-redeal-question.png"))
            (room,) = server.app.state.rooms.rooms.values()
            dealer = room.table.state.deal.dealer
            page.click("#redeal-button")
            page.wait_for_function(
                "[...document.querySelectorAll('#auction .contract')]"
                ".some((p) => p.textContent.includes('pediu nova mão'))", timeout=20_000)
            assert room.table.match.annulled and room.table.state.deal.dealer == dealer
            page.wait_for_selector("#redeal-button[disabled]", timeout=20_000)
            reason = page.locator("#redeal-reason").inner_text()
            assert "22 pontos" in reason and "menos de 15" in reason, reason
            page.screenshot(path=str(ARTIFACTS / "web-redeal-asked.png"))
            page.click("#keep-button")
            page.wait_for_function("!document.querySelector('#keep-button')", timeout=20_000)
            assert room.table.state.redeal_answers[:2] == [False, False]
            assert errors == []
        finally:
            browser.close()


@pytest.mark.slow
def test_the_history_page_says_who_asked_before_a_deal(tmp_path: Path) -> None:
    """Four bots play a match with the redeal on; the finished match's replay shows, on a
    deal that followed an annulled one, who asked and with how many points."""
    import httpx2
    from playwright.sync_api import sync_playwright
    from test_server_browser import CHROMIUM, LAUNCH_ARGS

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    with LiveServer(str(tmp_path / "sueca.db"), seed=3) as server:
        table = create_table(server.http, ["bot"] * 4,
                             {"variant": "brazil", "weak_hand_redeal": True,
                              "weak_hand_limits": [15, 15], "match_target": 2},
                             level="heuristic")

        async def finish() -> None:
            spectator = await join(server.ws, table["id"], None, None)
            while spectator.view is None or spectator.view["phase"] != "match_over":
                await spectator.recv()
            await spectator.socket.close()

        asyncio.run(finish())
        (entry,) = [m for m in httpx2.get(f"{server.http}/api/history").json()["matches"]
                    if m["table"] == table["id"]]
        report = httpx2.get(f"{server.http}/api/history/{entry['id']}").json()["report"]
        index = next(i for i, deal in enumerate(report["deals"]) if deal.get("redeals"))
        asked = report["deals"][index]["redeals"][0]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True,
                args=LAUNCH_ARGS, locale="en", bypass_csp=True)
            try:
                page = browser.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(f"{server.http}/history/{entry['id']}")
                page.wait_for_selector("#deal-select")
                page.select_option("#deal-select", str(index))
                facts = page.inner_text("#deal-facts")
                name = entry["seats"][asked["asked_by"]]
                assert f"{name} asked for a new one ({asked['points']} points)" in facts
                assert errors == []
            finally:
                browser.close()
