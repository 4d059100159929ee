"""The projector at 1920x1080, German and English (issue 20): the columns of the cycling
standings stay where they are from page to page (a long name on one page moved them),
and the order of ranking under the table is at least 20 px high, legible from the back
of the room (it was about 13 px). Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import make_event
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club, Player
from tournaments.events.models import Seat

from .test_evening_browser import PROJECTOR
from .test_evening_browser import open_page as open_page  # the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "projector-layout-browser"
COLUMNS = """() => Array.from(document.querySelectorAll('#standings thead th'))
  .map(th => { const r = th.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.width)]; })"""
LONG_NAME_SHOWN = """() => Array.from(document.querySelectorAll('#standings td.name'))
  .some(c => c.textContent.includes('Heijden') && c.getBoundingClientRect().height > 0)"""
CELLS = """() => { const row = Array.from(document.querySelectorAll('#standings tbody tr'))
  .find(r => r.getBoundingClientRect().height > 0);
  return Array.from(row.cells).map(c => Math.round(c.getBoundingClientRect().left)); }"""


#: The order of ranking's font size, read once the line is in the page (the projector
#: swaps its pages in and out, so an element found a moment ago may be gone).
FONT_SIZE = """() => {
  const line = document.querySelector('.tiebreak-order');
  return (line && line.isConnected && getComputedStyle(line).fontSize) || null;
}"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_projector_keeps_its_columns_and_a_legible_tiebreak_line(
    live_server: Any,
    open_page: Any,
    language: str,  # noqa: F811
) -> None:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = make_event(club=club, players=24)
    # one long name, on one of the two pages
    last = Seat.objects.filter(round=event.round).order_by("-player__name").first()
    Player.objects.filter(pk=last.player_id).update(
        name="Zoë Annemarie Wilhelmina van der Heijden-Oberholzer"
    )
    page = open_page(PROJECTOR, language)
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/projector/?seconds=3")
    word = {"de": "Rangliste · Seite", "en": "Standings · page"}[language]
    label = page.locator("#proj-label")
    layouts, shown = [], []
    for number in (1, 2):
        expect(label).to_have_text(f"{word} {number}/2", timeout=8_000)
        layouts.append((page.evaluate(COLUMNS), page.evaluate(CELLS)))
        shown.append(page.evaluate(LONG_NAME_SHOWN))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"projector-page-{number}-{language}.png"))
    assert layouts[0] == layouts[1]
    assert sorted(shown) == [False, True]  # the long name is on one page only
    line = page.locator(".tiebreak-order")
    expect(line).to_be_visible()
    size = float(page.wait_for_function(FONT_SIZE).json_value().removesuffix("px"))
    assert size >= 20, size
