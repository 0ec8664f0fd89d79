"""Reviews per client address (sueca/server/reviews.py): one address has at most one review
waiting or running, so nobody alone fills the server's queue, and asks for reviews at a
bounded rate (429 past it); another address is served meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2
import pytest
from server_support import LiveServer, create_table

from sueca.record import read
from sueca.server.limits import Limits
from sueca.server.reviews import Busy, ReviewService

FIXTURE = Path(__file__).parents[1] / "fixtures" / "review_mistake.json"


def test_one_address_has_one_review_pending_and_another_address_is_served() -> None:
    record = read(str(FIXTURE))
    service = ReviewService(None, max_pending=4)
    try:
        first = service.request((1, 0, 1), record, asker="10.0.0.1")
        assert service.request((1, 0, 1), record, asker="10.0.0.1") is first  # the same one
        with pytest.raises(Busy, match="this address"):
            service.request((1, 0, 3), record, asker="10.0.0.1")
        other = service.request((1, 0, 3), record, asker="10.0.0.2")
        assert other is not first and other.status in ("queued", "running", "done")
        deadline = time.monotonic() + 120
        while first.status != "done":
            assert time.monotonic() < deadline and first.status != "failed", first.error
            time.sleep(0.1)
        # Its review done, the address may ask for the next.
        assert service.request((1, 0, 2), record, asker="10.0.0.1").key == (1, 0, 2)
    finally:
        service.close()


def test_an_address_asking_too_many_reviews_gets_429(tmp_path: Path) -> None:
    limits = Limits(reviews_per_minute=1, review_burst=2)
    with LiveServer(str(tmp_path / "sueca.db"), limits=limits) as server:
        create_table(server.http, ["bot"] * 4, rules={"variant": "standard", "match_target": 1})
        deadline = time.monotonic() + 60
        while not (matches := httpx2.get(f"{server.http}/api/history").json()["matches"]):
            assert time.monotonic() < deadline, "the bots' match did not finish"
            time.sleep(0.1)
        body = {"match": matches[0]["id"], "deal": 0, "seat": 0}
        answers = [httpx2.post(f"{server.http}/api/reviews", json=body) for _ in range(3)]
        assert [a.status_code in (200, 202) for a in answers[:2]] == [True, True]
        assert answers[2].status_code == 429 and answers[2].json()["error"] == "rate_limited"
        # A malformed request is refused for what it is, before the rate counts.
        assert httpx2.post(f"{server.http}/api/reviews", json=[1]).status_code == 400
