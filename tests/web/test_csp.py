"""The Content-Security-Policy (``SECURE_CSP``) is sent with every page, and the pages
work under it in headless Chromium without a single violation: the tablet (entering a
deal), the login page, the organisers' console (a round, a print page and its button),
the public standings (with an htmx refresh) and projector, the admin and ``/api/docs/``
(Swagger UI from drf-spectacular-sidecar, no CDN)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import DealVersion
from tests.conftest import make_event
from tests.factories import UserFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club

from .test_browser import enter_deal, login, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
window.print = () => { window.__printed = true; };
"""


@pytest.fixture
def watched(context: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page recording the CSP violations its documents report (``window.__csp``), and
    the console's CSP errors."""
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security" in m.text else None)
    yield page, console


def assert_no_violation(page: Any, console: list[str]) -> None:
    assert page.evaluate("window.__csp") == []
    assert console == []


@pytest.mark.django_db
def test_the_policy_is_sent() -> None:
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
    docs = Client().get("/api/docs/")
    assert "Content-Security-Policy" in docs
    assert b"cdn.jsdelivr.net" not in docs.content and b"<script>" not in docs.content
    assert b"/static/drf_spectacular_sidecar/swagger-ui-dist/" in docs.content


def test_pages_work_without_violations(live_server: Any, watched: Any) -> None:
    page, console = watched
    base = live_server.url
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = make_event(club=club, deals=4)
    user = UserFactory(username="orga", is_staff=True, is_superuser=True)
    club.organisers.add(user)

    page.goto(f"{base}/t/{event.code1}/")
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")
    enter_deal(page, declarer=1, points0=64)
    wait_until(page, lambda: DealVersion.objects.filter(deal__match=event.match1).count() == 1)
    expect(page.locator("#table-state .deal-list li")).to_have_count(1)
    assert_no_violation(page, console)

    page.goto(f"{base}/tournaments/{event.tournament.pk}/standings/")
    expect(page.locator("#standings")).to_be_visible()
    page.wait_for_timeout(3500)  # one htmx refresh of the live table
    assert_no_violation(page, console)
    page.goto(f"{base}/tournaments/{event.tournament.pk}/projector/")
    page.wait_for_timeout(1000)
    assert_no_violation(page, console)

    login(page, base, "orga")
    page.goto(f"{base}/console/tournaments/{event.tournament.pk}/")
    expect(page.locator("h1")).to_have_text(event.tournament.name)
    page.goto(f"{base}/console/rounds/{event.round.pk}/")
    expect(page.locator("h1")).to_be_visible()
    page.goto(f"{base}/console/rounds/{event.round.pk}/seating/")
    page.locator("[data-action=print]").first.click()
    assert page.evaluate("window.__printed === true")
    assert_no_violation(page, console)

    page.goto(f"{base}/admin/")
    expect(page.locator("#site-name")).to_be_visible()
    page.goto(f"{base}/admin/tournaments/tournament/{event.tournament.pk}/change/")
    expect(page.locator("#tournament_form")).to_be_visible()
    assert_no_violation(page, console)

    page.goto(f"{base}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Klammern tournaments API")
    expect(page.locator(".opblock").first).to_be_visible()
    assert_no_violation(page, console)
