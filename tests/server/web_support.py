"""Helpers for the browser tests: Debian's Chromium driven by Playwright, at desktop and
phone sizes, and a table's page opened from its invitation link.

Uses the system browser (``/usr/bin/chromium``, which ``.ci/run`` installs with apt-get), never
a browser downloaded by Playwright. Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from sueca.server import Timing

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PACE = Timing(grace=60.0, bot_delay=0.03, trick_pause=0.05, deal_pause=60.0)
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")


@pytest.fixture
def chromium() -> Iterator[Any]:
    """A headless Chromium; each test opens contexts (one per person: a seat's token lives
    in its context's storage)."""
    from playwright.sync_api import sync_playwright

    need_chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_context(browser: Any, *, locale: str = "pt-PT",
                viewport: dict[str, int] | None = None) -> Any:
    """A fresh context of ``browser`` (one person: his storage, his seat tokens), at desktop
    size unless told."""
    # bypass_csp: the tests' own expressions (wait_for_function, evaluate) are evaluated as
    # strings, which the pages' Content-Security-Policy rightly forbids to any other script.
    return browser.new_context(viewport=viewport or DESKTOP, locale=locale, bypass_csp=True)


@pytest.fixture
def english_browser(chromium: Any) -> Iterator[Any]:
    """One person's browser context, in English at desktop size."""
    context = new_context(chromium, locale="en-GB")
    try:
        yield context
    finally:
        context.close()


def open_page(browser: Any, url: str, *, locale: str = "pt-PT",
              viewport: dict[str, int] | None = None) -> tuple[Any, list[str]]:
    """A page of a fresh context at ``url``, and the list its script errors go to."""
    page = new_context(browser, locale=locale, viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, errors


def new_table(base: str, seats: list[dict[str, Any]],
              rules: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """``POST /api/tables``: the answer (links, host) of a new table."""
    response = httpx2.post(f"{base}/api/tables", json={
        "rules": rules or {"variant": "standard"}, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_my_card(page: Any, timeout: float = 20_000) -> None:
    """Until the page offers a card to play (or the deal's summary is open)."""
    page.wait_for_function(
        "document.querySelector('#summary[open]') ||"
        " document.querySelector('#hand .card.playable')", timeout=timeout)


def play_first_card(page: Any) -> None:
    """Click the first playable card and wait until the hand has one card fewer."""
    before = page.locator("#hand .card").count()
    page.locator("#hand .card.playable").first.click()
    page.wait_for_function(
        f"document.querySelectorAll('#hand .card').length < {before}", timeout=10_000)


def screenshots(page: Any, name: str) -> None:
    """``name``-desktop.png at 1280×900 and ``name``-phone.png at 390×844, checking that
    nothing is wider than the phone's screen."""
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / f"{name}-desktop.png"))
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / f"{name}-phone.png"))
    page.set_viewport_size(DESKTOP)
