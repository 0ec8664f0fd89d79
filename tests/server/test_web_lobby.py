"""Issue 17, item 11: abandoned tables leave the lobby's list. A table whose every person's
seat is played by a stand-in (each left, or never came, past his wait) is not listed; it is
listed again when one of them comes back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, join, token_of
from web_support import chromium, new_table, open_page

from sueca.server import Timing
from sueca.server.lobby import abandoned

__all__ = ["chromium"]  # the fixture, imported for the browser test below

# A person missing for a moment is stood in for; the bots play slowly enough that the match
# is still on while the test looks.
SHORT_WAITS = Timing(grace=0.5, bot_delay=0.3, trick_pause=0.0, deal_pause=30.0,
                     invite_wait=3.0)
ANA_AND_BOTS = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "heuristic"}] * 3


def listed(server: LiveServer) -> set[str]:
    return {table["id"] for table in httpx2.get(f"{server.http}/api/tables").json()["tables"]}


def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_abandoned_means_every_persons_seat_stood_in_for() -> None:
    assert abandoned(["stand_in", "bot", "stand_in", "bot"])
    assert abandoned(["stand_in", "dummy", "bot", "bot"])
    assert not abandoned(["stand_in", "present", "bot", "bot"])
    assert not abandoned(["stand_in", "away", "bot", "bot"])  # still within his grace
    assert not abandoned(["waiting", "bot", "bot", "bot"])  # the invitation is still fresh
    assert not abandoned(["bot"] * 4)  # a table of bots is nobody's to abandon: watched


async def come_and_go(server: LiveServer, table: dict[str, Any]) -> None:
    ana = await join(server.ws, table["id"], token_of(table, 0), 0)
    await ana.sync()
    assert table["id"] in listed(server)
    await ana.socket.close()


def test_a_table_nobody_came_to_or_everyone_left_is_not_listed(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=SHORT_WAITS) as server:
        bots = new_table(server.http, [{"kind": "bot", "level": "heuristic"}] * 4)
        never = new_table(server.http, ANA_AND_BOTS)
        left = new_table(server.http, ANA_AND_BOTS)
        assert {bots["id"], never["id"], left["id"]} <= listed(server)  # invitations fresh
        asyncio.run(come_and_go(server, left))
        # Past the waits: nobody came to one, Ana left the other; both are stand-ins' now.
        wait_until(lambda: never["id"] not in listed(server) and left["id"] not in listed(server),
                   timeout=20)
        assert bots["id"] in listed(server)
        assert server.room(never["id"]).table.phase == "playing"  # in play, just not listed
        assert httpx2.get(f"{server.http}/api/tables").json()["total"] == 1

        async def come_back() -> None:
            ana = await join(server.ws, left["id"], token_of(left, 0), 0)
            await ana.sync()
            assert left["id"] in listed(server)  # back: listed again
            await ana.socket.close()

        asyncio.run(come_back())


@pytest.mark.slow
def test_the_lobby_page_leaves_out_an_abandoned_table(chromium: Any, tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "sueca.db"), timing=SHORT_WAITS) as server:
        bots = new_table(server.http, [{"kind": "bot", "level": "heuristic"}] * 4)
        page, errors = open_page(chromium, server.http + "/")
        page.wait_for_selector(f'#tables a[href="/t/{bots["id"]}"]')
        never = new_table(server.http, ANA_AND_BOTS)
        page.wait_for_selector(f'#tables a[href="/t/{never["id"]}"]')
        # Pushed to the page once the invitation's wait is over and a stand-in plays.
        page.wait_for_selector(f'#tables a[href="/t/{never["id"]}"]', state="detached",
                               timeout=10_000)
        assert page.locator(f'#tables a[href="/t/{bots["id"]}"]').count() == 1
        # Ana opens her link: the table is hers again, and listed.
        _ana, ana_errors = open_page(chromium, server.http + never["seats"][0]["link"])
        page.wait_for_selector(f'#tables a[href="/t/{never["id"]}"]', timeout=10_000)
        assert not errors and not ana_errors, errors + ana_errors
