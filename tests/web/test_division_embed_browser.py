"""The league division's embed in headless Chromium: dark, French, on a phone-wide frame
it fits without sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leagues.conftest import LeagueWorld, world  # noqa: F401 - the league fixture
from tests.leagues.test_division_embed import url
from tests.web.conftest import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dark_embed_fits_a_phone(
    live_server: Any,
    page: Any,
    world: LeagueWorld,  # noqa: F811
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + url(world, world.team_a.club) + "?theme=dark&lang=fr")
    assert page.locator("table.embed-division tbody tr").count() == 2
    assert_fits(page, 390)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    page.screenshot(path="artifacts/screenshots/division-embed-dark.png", full_page=True)
