"""Web fixtures: the organisers' logged-in test clients; Debian's Chromium driven by
Playwright against pytest-django's live server, and a helper that saves screenshots to
``artifacts/screenshots/``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.clients import Client

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture
def web(organiser: Any) -> Client:
    """The organiser's browser."""
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def rival(other_organiser: Any) -> Client:
    """Another club's organiser's browser."""
    client = Client()
    client.force_login(other_organiser)
    return client


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the live server's ORM calls
    # from the test body are still synchronous. Only for as long as a browser runs.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


#: The browser locale of each site language.
LOCALES = {"de": "de-DE", "en": "en-GB", "fr": "fr-FR", "nl": "nl-NL"}


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """Opens browser contexts (one person's device each) in a viewport and a language;
    all are closed after the test."""
    opened: list[Any] = []

    def open_(viewport: dict[str, int] = PHONE, language: str = "de") -> Any:
        context = browser.new_context(viewport=viewport, locale=LOCALES[language])
        context.set_default_timeout(15_000)
        opened.append(context)
        return context

    yield open_
    for context in opened:
        context.close()


def screenshot(page: Any, name: str) -> None:
    """Save the page at phone and desktop width (full page), then restore the size."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")  # sticky headers stay on top
        page.wait_for_timeout(150)
        assert_fits(page, size["width"])
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(before)


WIDER_THAN_VIEWPORT = """width => Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > width + 1 && !e.closest('.table-wrap'))
  .slice(0, 5)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def assert_fits(page: Any, width: int) -> None:
    """Nothing but scrollable tables may stick out sideways on a phone."""
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, page.evaluate(WIDER_THAN_VIEWPORT, width)
