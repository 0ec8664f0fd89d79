"""The edge's checks on a live server: cross-site requests and sockets refused (nothing
changes), same-site and browserless ones allowed, the global table limits, and the security
headers on every answer — with a real browser loading every page under the CSP."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from server_support import FAST, LiveServer, create_table, token_of
from web_support import CHROMIUM, LAUNCH_ARGS, need_chromium
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from sueca.server import create_app
from sueca.server.guard import CONTENT_SECURITY_POLICY, Guard
from sueca.server.limits import Limits

SEATS = [{"kind": "human", "name": "Ana"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
BODY = {"rules": {"variant": "standard"}, "seats": SEATS}


class GuardedServer(LiveServer):
    """The live server of the other tests, with a guard and limits of the test's choosing."""

    def __init__(self, db_path: str, guard: Guard | None = None,
                 limits: Limits | None = None) -> None:
        super().__init__(db_path, limits=limits)
        import uvicorn

        self.app = create_app(db_path, timing=FAST, seed=7, limits=limits, guard=guard)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[GuardedServer]:
    guard = Guard(allowed_origins=("https://cards.example",))
    with GuardedServer(str(tmp_path / "sueca.db"), guard=guard) as live:
        yield live


def tables(server: LiveServer) -> int:
    return len(httpx2.get(f"{server.http}/api/tables").json()["tables"])


def post(server: LiveServer, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(f"{server.http}/api/tables", json=BODY, headers=headers)


def test_a_cross_site_post_is_refused_and_creates_nothing(guarded: GuardedServer) -> None:
    for headers in ({"Origin": "https://evil.example"},
                    {"Origin": "http://127.0.0.1.evil.example"},
                    {"Origin": f"http://127.0.0.1:{guarded.port + 1}"},  # another port
                    {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is not this site
                    {"Referer": "https://evil.example/page"},
                    {"Origin": "null"}):
        response = post(guarded, headers)
        assert response.status_code == 403, headers
        error = response.json()
        assert error["error"] == "cross_site" and error["message"], headers
    assert tables(guarded) == 0
    assert "evil.example" in post(guarded, {"Origin": "https://evil.example"}).json()["message"]


def test_same_site_and_browserless_posts_are_allowed(guarded: GuardedServer) -> None:
    origin = f"http://127.0.0.1:{guarded.port}"
    for headers in ({},  # curl, a bot program, the benchmarks
                    {"Origin": origin},
                    {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Site": "none"},
                    {"Referer": f"{origin}/"},
                    {"Origin": "https://cards.example"}):  # allowed by the operator
        assert post(guarded, headers).status_code == 201, headers
    assert tables(guarded) == 7


def test_taking_a_seat_from_another_site_is_refused(guarded: GuardedServer) -> None:
    response = httpx2.post(f"{guarded.http}/api/tables", json={
        "rules": {"variant": "standard"}, "open": True,
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}, {"kind": "bot"},
                  {"kind": "bot"}]})
    table = response.json()["id"]
    url = f"{guarded.http}/api/tables/{table}/seats/1"
    refused = httpx2.post(url, json={"name": "Eve"}, headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    listed = httpx2.get(f"{guarded.http}/api/tables").json()["tables"][0]
    assert listed["seats"][1]["free"] is True
    assert httpx2.post(url, json={"name": "Rui"}).status_code == 200


def test_a_cross_site_socket_is_refused_at_the_handshake(guarded: GuardedServer) -> None:
    table = create_table(guarded.http, ["human", "bot", "bot", "bot"])
    token = token_of(table, 0)

    async def run() -> None:
        for path in (f"/ws/{table['id']}", "/ws/lobby"):
            with pytest.raises(InvalidStatus) as refused:
                async with connect(guarded.ws + path, origin="https://evil.example"):
                    pass
            assert refused.value.response.status_code == 403
        origin = f"http://127.0.0.1:{guarded.port}"
        async with connect(f"{guarded.ws}/ws/{table['id']}", origin=origin) as socket:
            await socket.send(f'{{"type": "join", "token": "{token}"}}')
            while '"joined"' not in await asyncio.wait_for(socket.recv(), 10):
                pass
        async with connect(f"{guarded.ws}/ws/{table['id']}"):  # no Origin: no browser
            pass

    asyncio.run(run())
    room = guarded.room(table["id"])
    assert room is not None and room.table.seats[0].claimed  # only the same-site socket sat


def test_a_forwarded_host_counts_only_when_the_server_is_told(tmp_path: Path) -> None:
    headers = {"Origin": "https://sueca.example", "X-Forwarded-Host": "sueca.example"}
    with GuardedServer(str(tmp_path / "a.db")) as plain:
        assert post(plain, headers).status_code == 403
    with GuardedServer(str(tmp_path / "b.db"), guard=Guard(forwarded_host=True)) as proxied:
        assert post(proxied, headers).status_code == 201
        assert post(proxied, {**headers, "X-Forwarded-Host": "evil.example"}).status_code == 403


def test_a_guard_refuses_an_allowed_origin_that_is_no_origin() -> None:
    with pytest.raises(ValueError, match="not an origin"):
        Guard(allowed_origins=("cards.example",))


def test_every_answer_carries_the_security_headers(guarded: GuardedServer) -> None:
    table = create_table(guarded.http, ["human", "bot", "bot", "bot"])
    for path in ("/", f"/t/{table['id']}", "/history", "/static/lobby.js", "/api/tables",
                 "/api/bots", "/no/such/page"):
        headers = httpx2.get(guarded.http + path).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cross-origin-opener-policy"] == "same-origin"
    refused = post(guarded, {"Origin": "https://evil.example"})
    assert refused.headers["x-frame-options"] == "DENY"


def test_the_server_wide_table_limit_and_the_cap_on_tables_in_play(tmp_path: Path) -> None:
    # Many addresses together share the server's budget; here one address stands for them
    # (its own budget set high).
    limits = Limits(tables_per_minute=1000, table_burst=1000, server_tables_per_minute=1,
                    server_table_burst=3, max_tables_in_play=100)
    with GuardedServer(str(tmp_path / "a.db"), limits=limits) as live:
        assert [post(live, {}).status_code for _ in range(3)] == [201] * 3
        refused = post(live, {})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert "on this server" in refused.json()["message"]
        assert tables(live) == 3
    with GuardedServer(str(tmp_path / "b.db"), limits=Limits(max_tables_in_play=2)) as live:
        assert [post(live, {}).status_code for _ in range(2)] == [201] * 2
        full = post(live, {})
        assert full.status_code == 503
        assert full.json()["error"] == "server_full" and "2" in full.json()["message"]
        assert tables(live) == 2
    with GuardedServer(str(tmp_path / "c.db"), limits=Limits(max_tables_in_play=1)) as live:
        # A finished match no longer counts: four quick bots play a one-game match out.
        quick = {"rules": {"variant": "standard", "match_target": 1},
                 "seats": [{"kind": "bot", "level": "random"}] * 4}
        assert httpx2.post(f"{live.http}/api/tables", json=quick).status_code == 201
        for _ in range(200):
            if tables(live) == 0:  # over, nobody sitting: off the list and out of play
                break
            time.sleep(0.05)
        assert post(live, {}).status_code == 201


@pytest.mark.slow
def test_the_pages_load_under_the_csp_without_a_violation(guarded: GuardedServer) -> None:
    """Chromium reports every CSP violation as a console error and a
    securitypolicyviolation event: neither happens on any page, doing what each page does."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    table = create_table(guarded.http, ["human", "bot", "bot", "bot"])
    # Six seats sit round an oval: the page places them with style attributes.
    ring = create_table(guarded.http, ["human"] + ["bot"] * 5, rules={"variant": "double6"},
                        names=["Ana", "B", "C", "D", "E", "F"])
    watch = ("window.__csp = []; document.addEventListener('securitypolicyviolation',"
             " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=LAUNCH_ARGS)
        try:
            for path in ("/", table["seats"][0]["link"], ring["seats"][0]["link"], "/history"):
                context = browser.new_context()
                context.add_init_script(watch)
                page = context.new_page()
                console: list[str] = []
                page.on("console", lambda m, out=console: out.append(m.text)
                        if m.type == "error" else None)
                errors: list[str] = []
                page.on("pageerror", lambda e, out=errors: out.append(str(e)))
                page.goto(guarded.http + path)
                page.wait_for_load_state("networkidle")
                if path == "/":  # the lobby creates a table through its own POST
                    page.locator("#create-button").click()
                    page.wait_for_selector("#invites:not([hidden])", timeout=10_000)
                    page.wait_for_selector("#tables .table-item", timeout=10_000)
                else:  # the table's socket opens and draws a view; the history its list
                    page.wait_for_timeout(800)
                assert page.evaluate("window.__csp") == [], path
                refused = [c for c in console if "Content Security Policy" in c or "Refused" in c]
                assert refused == [], (path, refused)
                assert errors == [], (path, errors)
                context.close()
        finally:
            browser.close()


def test_sueca_serve_refuses_a_bad_origin_or_cap_before_listening() -> None:
    from typer.testing import CliRunner

    from sueca.cli import app

    runner = CliRunner()
    bad_origin = runner.invoke(app, ["serve", "--allow-origin", "cards.example"])
    assert bad_origin.exit_code == 2
    assert "--allow-origin" in bad_origin.output and "not an origin" in bad_origin.output
    bad_cap = runner.invoke(app, ["serve", "--max-per-address", "-1"])
    assert bad_cap.exit_code == 2 and "--max-per-address" in bad_cap.output
    assert "Sueca web table on" not in bad_cap.output  # nothing started
