"""Embeds in a real browser (headless Chromium): a small page on another origin frames the
club's table. From a web site the club named it shows; from any other the browser refuses
it (``Content-Security-Policy: frame-ancestors``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import make_event
from tests.factories import UserFactory
from tournaments.models import Club

from .test_publishing import play_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALLOWED_PORT, OTHER_PORT = 18801, 18802
SHOTS = Path("/tmp/shots-h8")


class ParentPage(BaseHTTPRequestHandler):
    """A club's own web site: one page with an iframe of ``frame_src``."""

    frame_src = ""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = (
            "<!doctype html><html><head><title>Unser Verein</title></head><body>"
            "<h1>Unser Verein</h1>"
            f'<iframe id="table" src="{self.frame_src}" width="380" height="600"></iframe>'
            "</body></html>"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass


def serve(port: int, frame_src: str) -> ThreadingHTTPServer:
    handler = type("Parent", (ParentPage,), {"frame_src": frame_src})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def club() -> Iterator[Club]:
    club = Club.objects.create(
        name="KC Herzbube", slug="herzbube", embed_origins=[f"http://127.0.0.1:{ALLOWED_PORT}"]
    )
    club.organisers.add(UserFactory())
    yield club


def test_the_clubs_site_shows_the_table_and_another_site_cannot(
    live_server: Any, context: Any, club: Club
) -> None:
    winners = play_evening(make_event(club=club), team0_points=64)
    src = f"{live_server.url}/embed/clubs/{club.slug}/?lang=de"
    allowed = serve(ALLOWED_PORT, src)
    other = serve(OTHER_PORT, src + "&theme=dark")
    try:
        SHOTS.mkdir(exist_ok=True)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{ALLOWED_PORT}/")
        frame = page.frame_locator("#table")
        expect(frame.locator("table.data")).to_be_visible()
        expect(frame.locator("h2")).to_have_text("Ewige Tabelle")
        expect(frame.locator(".boss b")).to_be_visible()
        assert frame.locator(".boss b").inner_text() in winners
        page.screenshot(path=str(SHOTS / "embed-allowed.png"), full_page=True)

        refused: list[str] = []
        blocked = context.new_page()
        blocked.on("console", lambda m: refused.append(m.text))
        with blocked.expect_event("console", predicate=lambda m: "frame-ancestors" in m.text):
            blocked.goto(f"http://127.0.0.1:{OTHER_PORT}/")
        assert any(
            f'"frame-ancestors http://127.0.0.1:{ALLOWED_PORT}"' in text and "blocked" in text
            for text in refused
        ), refused
        expect(blocked.frame_locator("#table").locator("table.data")).to_have_count(0)
        assert blocked.frame_locator("#table").locator("text=Ewige Tabelle").count() == 0
        blocked.screenshot(path=str(SHOTS / "embed-refused.png"), full_page=True)

        direct = context.new_page()
        direct.goto(src + "&theme=dark")
        expect(direct.locator("body.theme-dark table.data")).to_be_visible()
        direct.screenshot(path=str(SHOTS / "embed-dark.png"), full_page=True)
    finally:
        for server in (allowed, other):
            server.shutdown()
            server.server_close()
