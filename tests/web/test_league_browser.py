"""The public league page in headless Chromium: the table and the fixtures with a final
and a provisional result, at phone and desktop width (screenshots in artifacts/screenshots/,
or $LEAGUE_SHOTS)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.leagues.conftest import LeagueWorld, world  # noqa: F401 - the league fixture
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS, assert_fits
from tournaments.leagues.models import MatchDay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("LEAGUE_SHOTS", str(SCREENSHOTS / "league-browser")))


def test_the_public_league_page(live_server: Any, world: LeagueWorld, page: Any) -> None:  # noqa: F811
    first, second = MatchDay.objects.order_by("round")
    MatchDay.objects.filter(pk=first.pk).update(
        status=MatchDay.Status.FINAL,
        home_partien=3,
        away_partien=1,
        home_augen=231,
        away_augen=168,
    )
    MatchDay.objects.filter(pk=second.pk).update(
        status=MatchDay.Status.CONFIRMED,
        home_partien=2,
        away_partien=2,
        home_augen=199,
        away_augen=204,
    )
    page.goto(f"{live_server.url}/leagues/{world.league.slug}/")
    expect(page.locator("h1")).to_have_text("Bodensee-Liga")
    rows = page.locator("table.league-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Herzbube I")
    expect(rows.nth(0)).to_contain_text("3:1")
    expect(page.get_by_text("vorläufig")).to_have_count(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        assert_fits(page, size["width"])
        page.screenshot(path=str(SHOTS / f"league-{label}.png"), full_page=True)
    page.get_by_role("link", name="Schellen I").first.click()
    expect(page.locator("h1")).to_have_text("Schellen I")
    page.screenshot(path=str(SHOTS / "league-team-desktop.png"), full_page=True)
