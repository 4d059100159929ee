"""Embeds in a real browser (headless Chromium): a small page on another origin frames the
club's table. From a web site the club named it shows; from any other the browser refuses
it (``Content-Security-Policy: frame-ancestors``)."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import client_for, make_event
from tests.factories import UserFactory, summary_record
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club, Player, Season
from tournaments.results.models import ClubSnapshot

from .test_publishing import play_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALLOWED_PORT, OTHER_PORT = 18801, 18802
SHOTS = SCREENSHOTS / "publishing-browser"


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


PLAYERS = 30


def big_club(club: Club) -> list[Player]:
    """A club of 30 players with a long title history, as its stored leaderboards."""
    players = [Player.objects.create(name=f"Spielerin Nummer {i:02}") for i in range(PLAYERS)]
    rows = [
        {
            "player": p.pk,
            "rank": i + 1,
            "played": 120 - i,
            "won": 80 - i,
            "point_difference": 900 - 40 * i,
            "name": p.name,
        }
        for i, p in enumerate(players)
    ]
    ranking = [
        {"player": p.pk, "won": 9 - i // 4, "point_difference": 300 - 9 * i, "all_time_rank": i + 1}
        for i, p in enumerate(players)
    ]
    history = [
        {
            "evening": 1000 + n,
            "boss": players[n % 5].pk,
            "decided_by": "won",
            "ranking": ranking,
            "tournament_name": f"Klubabend {n + 1}",
        }
        for n in range(20)
    ]
    boss = {"window": 3, "current": history[-1]["boss"], "current_name": "", "history": history}
    ClubSnapshot.objects.create(
        club=club,
        computed_version=club.results_version,
        data={
            "results_version": club.results_version,
            "all_time": rows,
            "boss": boss,
            "leagues": [],
        },
    )
    return players


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_each_printable_table_fills_exactly_one_a4_page(
    live_server: Any, page: Any, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = big_club(club)
    season = Season.objects.create(
        club=club, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    season_rows = [
        {
            "rank": i + 1,
            "player": p.pk,
            "name": p.name,
            "evenings": 12,
            "total": 300 - i,
            "best": 40,
        }
        for i, p in enumerate(players)
    ]
    monkeypatch.setattr(
        "tournaments.results.seasons.season_table",
        lambda season: {"rows": season_rows, "evenings": list(range(12))},
    )
    sheets = {
        "boss": f"/clubs/{club.slug}/print/boss/",
        "table": f"/clubs/{club.slug}/print/table/",
        "season": f"/clubs/{club.slug}/seasons/{season.pk}/print/",
    }
    page.emulate_media(media="print")  # what page.pdf() uses; the screenshots too
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    for name, path in sheets.items():
        page.goto(live_server.url + path)
        # every sheet holds the whole ranking (the Boss's in two columns beyond 25)
        expect(page.locator(".sheet table.data tbody tr")).to_have_count(PLAYERS)
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        (SHOTS / f"print-{name}.pdf").write_bytes(pdf)
        page.screenshot(path=str(SHOTS / f"print-{name}.png"), full_page=True)
        assert pdf_pages(pdf) == 1, f"{name}: {pdf_pages(pdf)} pages"


RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def test_embedded_standings_update_by_themselves_under_the_strict_policy(
    live_server: Any, context: Any, club: Club
) -> None:
    event = make_event(club=club)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(f"{live_server.url}/embed/tournaments/{event.tournament.pk}/standings/?lang=de")
    expect(page.locator("#standings .empty")).to_contain_text("Noch keine Ergebnisse")
    device = client_for(device_code=event.code1)
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(dealer=0, team0_points=64),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201, response.content
    expect(page.locator("#standings .empty")).to_have_count(0, timeout=20_000)
    expect(page.locator("#standings table.data")).to_be_visible()
    assert page.evaluate("window.__csp") == []
    assert page.context.cookies() == [], "the embed set a cookie"


def test_the_season_page_of_club_evenings_and_the_dutch_embed(
    live_server: Any, context: Any, club: Club
) -> None:
    """A season of two finished evenings shows their table on its page (phone and
    desktop); the Dutch embed of an evening's standings names Klammern's Augen in Dutch."""
    season = Season.objects.create(
        club=club, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    events = [make_event(club=club, seed=seed) for seed in (7, 8)]
    for event, points in zip(events, (64, 0), strict=True):
        event.tournament.season = season
        event.tournament.save(update_fields=["season"])
        play_evening(event, team0_points=points)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": "de"})
    for name, size in (("phone", {"width": 390, "height": 844}), ("desktop", None)):
        if size:
            page.set_viewport_size(size)
        else:
            page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/")
        expect(page.locator("h1")).to_have_text("Saison · Saison 2026")
        expect(page.locator("#evenings table.season-table tbody tr")).to_have_count(16)
        expect(page.locator("#evenings")).to_contain_text("2 Abende gespielt")
        expect(page.locator("#league")).to_have_count(0)
        page.screenshot(path=str(SHOTS / f"season-evenings-{name}.png"), full_page=True)
    page.goto(f"{live_server.url}/embed/tournaments/{events[1].tournament.pk}/standings/?lang=nl")
    expect(page.locator("#standings thead")).to_contain_text("Matchpunten")
    assert "Augen" not in page.locator("body").inner_text()
    page.screenshot(path=str(SHOTS / "embed-standings-nl.png"), full_page=True)
