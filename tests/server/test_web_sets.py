"""Issue 17, "also": the web score sheet keeps the matches each side won across rematches."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer, create_table, join, token_of
from web_support import chromium, open_page

from sueca.rules import Rules
from sueca.server.storage import SQLiteStorage
from sueca.server.tables import SeatConfig, Table

__all__ = ["chromium"]  # the fixture, imported for the test below


async def play_match_and_rematch(server: LiveServer, table: dict[str, Any]) -> dict[str, Any]:
    ana = await join(server.ws, table["id"], token_of(table, 0), 0)
    while True:
        view = ana.view
        assert view is not None
        if view["phase"] == "match_over":
            break
        if view["phase"] == "deal_over":
            await ana.send({"type": "next"})
        elif view["actor"] == 0 and view["legal"]:
            await ana.send({"type": "play", "card": view["legal"][0]})
            await ana.sync()
            continue
        await ana.recv(20)
    winner = view["score"]["winner"]
    # counted as soon as the match is won (issue 17, second pass), once: the rematch keeps it
    assert view["sets"]["won"] == [int(winner == 0), int(winner == 1)]
    await ana.send({"type": "rematch"})
    while ana.view is None or ana.view["score"]["number"] != 2:
        await ana.recv(20)
    assert ana.view["sets"] == {"won": [int(winner == 0), int(winner == 1)],
                                "last": [{"winner": winner, "score": view["score"]["match"]}]}
    await ana.socket.close()
    return ana.view


@pytest.mark.slow
def test_the_sheet_tallies_the_matches_won_across_rematches(chromium: Any, tmp_path: Path
                                                            ) -> None:
    with LiveServer(str(tmp_path / "sueca.db")) as server:
        table = create_table(server.http, ["human", "bot", "bot", "bot"],
                             {"variant": "standard", "match_target": 1}, level="heuristic")
        # (In a thread of its own: Playwright's sync API holds this thread's event loop.)
        with ThreadPoolExecutor(1) as pool:
            view = pool.submit(asyncio.run, play_match_and_rematch(server, table)).result()
        page, errors = open_page(chromium, server.http + table["seats"][0]["link"])
        page.wait_for_selector("#sets-tally")
        won = view["sets"]["won"]
        assert page.text_content('#sets-tally [data-team="us"]') == str(won[0])
        assert page.text_content('#sets-tally [data-team="them"]') == str(won[1])
        assert "Partidas ganhas" in page.inner_text("#sets-tally")
        assert not errors, errors


@pytest.mark.slow
def test_the_tally_survives_a_restart(chromium: Any, tmp_path: Path) -> None:
    """The tally is stored with the table's settings when the rematch starts: a server
    started again on the same store shows it, and counts on from it."""
    db = str(tmp_path / "sueca.db")
    with LiveServer(db) as server:
        table = create_table(server.http, ["human", "bot", "bot", "bot"],
                             {"variant": "standard", "match_target": 1}, level="heuristic")
        with ThreadPoolExecutor(1) as pool:
            view = pool.submit(asyncio.run, play_match_and_rematch(server, table)).result()
    won = view["sets"]["won"]
    with LiveServer(db) as again:
        room = again.room(table["id"])
        assert room is not None, "the table in play was restored"
        assert room.table.sets == won
        assert [[w, list(s)] for w, s in room.table.set_results] == [
            [r["winner"], r["score"]] for r in view["sets"]["last"]]
        page, errors = open_page(chromium, again.http + table["seats"][0]["link"])
        page.wait_for_selector("#sets-tally")
        assert page.text_content('#sets-tally [data-team="us"]') == str(won[0])
        assert page.text_content('#sets-tally [data-team="them"]') == str(won[1])
        assert not errors, errors


@pytest.mark.parametrize("stored", [
    "3", {"won": [1]}, {"won": [1, -2], "last": []}, {"won": [1, 0], "last": [[5, [1, 0]]]},
    {"won": [1, 0], "last": "x"}, {"won": [True, 0], "last": []}])
def test_a_stored_tally_that_does_not_read_starts_again(stored: Any) -> None:
    storage = SQLiteStorage(":memory:")
    seats = [SeatConfig("bot", "", "heuristic") for _ in range(4)]
    table = Table.create("t1", Rules.from_dict({"variant": "standard"}), seats, storage,
                         random.Random(1))
    storage.save_settings("t1", {**table.settings(), "sets": stored})
    loaded = storage.load_table("t1")
    assert loaded is not None
    again = Table.restore(loaded, storage, random.Random(1))
    assert again.sets == [0, 0] and not again.set_results


def test_a_stored_tally_reads_back() -> None:
    storage = SQLiteStorage(":memory:")
    seats = [SeatConfig("bot", "", "heuristic") for _ in range(4)]
    table = Table.create("t1", Rules.from_dict({"variant": "standard"}), seats, storage,
                         random.Random(1))
    tally = {"won": [2, 1], "last": [[0, [1, 0]], [1, [0, 1]], [0, [4, 0]]]}
    storage.save_settings("t1", {**table.settings(), "sets": tally})
    loaded = storage.load_table("t1")
    assert loaded is not None
    again = Table.restore(loaded, storage, random.Random(1))
    assert again.sets == [2, 1]
    assert list(again.set_results) == [(0, (1, 0)), (1, (0, 1)), (0, (4, 0))]
    assert again.settings()["sets"] == tally
