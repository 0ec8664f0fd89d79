"""Reviews on the web (sueca/server/reviews.py, docs/review.md): a finished deal reviewed in a
worker process with its progress polled, kept beside the database; a deal in play refused to
everyone; bad requests refused with a reason. The browser opens the review after a deal and
from a History match."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from server_support import LiveServer, create_table
from web_support import ARTIFACTS, PACE, chromium, english_browser

from sueca.server.reviews import ReviewService

__all__ = ["chromium", "english_browser"]  # the fixtures, imported for pytest


def wait_for(predicate: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def finished_match(base: str) -> dict[str, Any]:
    """A match of four bots to one game: over after its first deal (seed 7: no tie)."""
    create_table(base, ["bot"] * 4, rules={"variant": "standard", "match_target": 1})
    matches = wait_for(lambda: httpx2.get(f"{base}/api/history").json()["matches"])
    match: dict[str, Any] = matches[0]
    return match


def review(base: str, **asked: Any) -> dict[str, Any]:
    """Ask for a review and poll it until done, checking the progress on the way."""
    response = httpx2.post(f"{base}/api/reviews", json=asked)
    assert response.status_code in (200, 202), response.text
    job = response.json()
    seen = {job["status"]}
    url = f"{base}/api/reviews/{job['match']}/{job['deal']}/{job['seat']}?lang=en"
    while job["status"] not in ("done", "failed"):
        time.sleep(0.1)
        job = httpx2.get(url).json()
        seen.add(job["status"])
        assert 0 <= job["done"] <= max(job["total"], 10)
    assert job["status"] == "done", job
    assert seen <= {"queued", "running", "done"}
    return job


@pytest.mark.slow
def test_a_finished_deal_is_reviewed_in_a_worker_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "sueca.db"
    with LiveServer(str(db)) as server:
        match = finished_match(server.http)
        job = review(server.http, match=match["id"], deal=0, seat=1)
        entry = job["review"]
        assert entry["seat"] == 1 and len(entry["cards"]) == 10
        for card in entry["cards"]:
            assert isinstance(card["lost"], float | int) and card["reason"]
        assert job["svg"].startswith("<svg") and job["svg"].count('class="card-point"') == 10
        assert job["names"] == ["Ana", "Bruno", "Carla", "Duarte"]
        # Kept: asked again, it is there at once; in another language, other words.
        again = httpx2.post(f"{server.http}/api/reviews?lang=pt",
                           json={"match": match["id"], "deal": 0, "seat": 1})
        assert again.status_code == 200 and again.json()["status"] == "done"
        assert again.json()["review"]["cards"] == [
            {**c, "reason": again.json()["review"]["cards"][i]["reason"]}
            for i, c in enumerate(entry["cards"])]
    files = list((tmp_path / "sueca.db.reviews").glob("*.json"))
    assert [f.name for f in files] == [f"m{match['id']}-d0-s1.json"]
    # A restarted server finds it on disk, without a worker.
    with LiveServer(str(db)) as server:
        again = httpx2.post(f"{server.http}/api/reviews",
                           json={"match": match["id"], "deal": 0, "seat": 1})
        assert again.status_code == 200 and again.json()["status"] == "done"


@pytest.mark.slow
def test_a_deal_in_play_is_never_reviewed_and_bad_requests_are_refused(
        server: LiveServer) -> None:
    base = server.http
    made = create_table(base, ["human", "bot", "bot", "bot"])
    table = made["id"]
    room = wait_for(lambda: server.room(table))
    wait_for(lambda: room.table.match_id >= 0)
    # The deal in play (waiting on the person at seat 0): nobody may review it.
    for seat in range(4):
        refused = httpx2.post(f"{base}/api/reviews", json={"table": table, "deal": 0,
                                                          "seat": seat})
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] == "not_reviewable"
        assert "still in play" in refused.json()["message"]
    cases = [
        ({"table": table, "deal": 3, "seat": 0}, 409, "not_reviewable"),
        ({"table": table, "deal": -1, "seat": 0}, 400, "malformed"),
        ({"table": table, "deal": 0, "seat": "x"}, 400, "malformed"),
        ({"table": "nosuchtable", "deal": 0, "seat": 0}, 404, "no_table"),
        ({"match": 999999, "deal": 0, "seat": 0}, 404, "no_match"),
        ({"deal": 0, "seat": 0}, 400, "malformed"),
        ([1, 2], 400, "malformed"),
    ]
    for body, status, code in cases:
        answer = httpx2.post(f"{base}/api/reviews", json=body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), body
    huge = httpx2.post(f"{base}/api/reviews", content=b"{" + b" " * 5000 + b"}")
    assert huge.status_code == 400 and huge.json()["error"] == "too_large"
    assert httpx2.get(f"{base}/api/reviews/1/0/0").status_code == 404


def test_the_queue_is_bounded(tmp_path: Path) -> None:
    from sueca.record import read
    from sueca.server.reviews import Busy

    record = read(str(Path(__file__).parents[1] / "fixtures" / "review_mistake.json"))
    service = ReviewService(None, max_pending=1)
    try:
        first = service.request((1, 0, 1), record)
        assert first.status in ("queued", "running")
        assert service.request((1, 0, 1), record) is first  # the same review: one job
        with pytest.raises(Busy):
            service.request((1, 0, 2), record)
        wait_for(lambda: first.status == "done", 120)
        assert first.result is not None and len(first.result["cards"]) == 10
        assert service.lookup((1, 0, 1)) is first
    finally:
        service.close()


def check_review_page(page: Any, errors: list[str]) -> None:
    page.wait_for_selector("#graph svg", timeout=90_000)
    assert page.locator("#graph .card-point").count() == 10
    assert page.locator(".review-cards .card-row").count() == 10
    # A point of the graph jumps to its card: that row selected, its position on the cloth.
    point = page.locator("#graph .card-point").nth(4)
    index = point.get_attribute("data-index")
    point.click()
    selected = page.locator(".card-row.selected")
    assert selected.get_attribute("data-index") == index
    assert page.locator("#position .felt").count() == 1
    assert page.locator("#position [data-mark~='played']").count() == 1
    assert page.locator("#position [data-mark~='best']").count() == 1
    assert page.inner_text("#reason").startswith("Why:")
    assert not errors, errors


@pytest.mark.slow
def test_the_review_opens_after_a_deal_and_from_a_history_match(
        english_browser: Any, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    with LiveServer(str(tmp_path / "history.db")) as server:
        # From the History: a finished match's deal.
        match = finished_match(server.http)
        history = english_browser.new_page()
        history.on("pageerror", lambda error: errors.append(str(error)))
        history.goto(f"{server.http}/history/{match['id']}")
        history.click("#review-deal")
        check_review_page(history, errors)
        assert "/review?match=" in history.url
    with LiveServer(str(tmp_path / "sueca.db"), timing=PACE) as server:
        made = create_table(server.http, ["human", "bot", "bot", "bot"],
                            rules={"variant": "standard", "match_target": 10})
        page = english_browser.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.http + made["seats"][0]["link"])
        # The person plays the first legal card each time, to the deal's end.
        while not page.locator("#summary[open]").count():
            page.wait_for_function(
                "document.querySelector('#summary[open]') ||"
                " document.querySelector('#hand .card.playable')", timeout=30_000)
            playable = page.locator("#hand .card.playable")
            if not page.locator("#summary[open]").count() and playable.count():
                playable.first.click()
                page.wait_for_timeout(60)
        button = page.locator("#review-deal")
        assert button.inner_text() == "Review"
        with page.context.expect_page() as opened:
            button.click()
        review_page = opened.value
        review_page.on("pageerror", lambda error: errors.append(str(error)))
        check_review_page(review_page, errors)
        review_page.screenshot(path=str(ARTIFACTS / "web-review.png"), full_page=True)


@pytest.mark.slow
def test_a_worker_that_dies_fails_its_review_and_the_next_request_starts_afresh() -> None:
    import os
    import signal

    from sueca.record import read

    record = read(str(Path(__file__).parents[1] / "fixtures" / "review_blunder.json"))
    service = ReviewService(None)
    try:
        job = service.request((1, 0, 1), record)
        executor = service._executor
        assert executor is not None
        # The worker, once it runs: killed outright, as the system might.
        wait_for(lambda: executor._processes, 30)  # the executor's own: the one way in
        for pid in list(executor._processes):
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: job.status == "failed", 60)
        assert job.error == "the review failed; try again"
        again = service.request((1, 0, 1), record)
        assert again is not job
        wait_for(lambda: again.status == "done", 120)
        assert again.result is not None and len(again.result["cards"]) == 10
    finally:
        service.close()
