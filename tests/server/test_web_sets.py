"""Issue 17, "also": the web score sheet keeps the matches each side won across rematches."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_support import LiveServer, create_table, join, token_of
from web_support import chromium, open_page

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
    assert view["sets"]["won"] == [0, 0]  # counted when the rematch starts
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
