"""In headless Chromium on a phone, in German and in English: an evening's best play and
most expensive slip lead to their hand records; a player's points lost against par per
evening and deal by deal (each deal a link), over two evenings; the club's par leaders.
No serious or critical axe violation on the three pages. Screenshots go to
artifacts/screenshots/ (par-*)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import make_event
from tests.support.hand_records import COSTLY_PLAY
from tests.support.par_evenings import play_evening, second_evening
from tournaments.clubs.models import Club
from tournaments.deals import par_selectors
from tournaments.events import services as tournament_services

from .conftest import SCREENSHOTS, assert_fits, screenshot
from .test_accessibility_browser import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEAT = COSTLY_PLAY[1]
PROJECTOR = {"width": 1920, "height": 1080}


def test_an_evening_and_a_season_at_the_cards(
    live_server: Any, contexts: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(par_selectors, "MIN_DEALS", 4)
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = play_evening(make_event(club=club, deals=4))
    tournament_services.close_round(round_=event.round, force=True)
    second_evening(club, event)
    player = event.table1.seats.get(position=SEAT).player  # the first evening's 4 deals
    url = live_server.url

    page = contexts(language="de").new_page()
    page.goto(f"{url}/tournaments/{event.tournament.pk}/")
    highlights = page.locator("#par-highlights")
    expect(highlights).to_contain_text("Der Abend an den Karten")
    expect(highlights.locator('[data-highlight="slip"]')).to_contain_text("kostete 26 Punkte")
    expect(highlights.locator('[data-highlight="best"]')).to_contain_text(
        "die einzige Karte, die Par hielt"
    )
    highlights.scroll_into_view_if_needed()
    screenshot(page, "par-evening-de")
    problems = violations(page, "evening")
    highlights.locator('[data-highlight="slip"] a.par-deal-link').click()
    expect(page.locator("h1")).to_have_text("Spielbericht")
    expect(page.locator(".costly-plays li").first).to_contain_text("kostete 26 Punkte")

    page.goto(f"{url}/players/{player.pk}/")
    par = page.locator("#par")
    expect(par.locator(".dot-link")).to_have_count(2)  # two evenings
    expect(par.locator(".par-evening-table tr.par-evening")).to_have_count(2)
    par.locator("details.par-deals summary").last.click()  # the older evening's deals
    deals = par.locator("details.par-deals").last.locator(".par-deal-list a")
    expect(deals).to_have_count(4)
    par.scroll_into_view_if_needed()
    screenshot(page, "par-player-de")
    problems += violations(page, "player")
    deals.nth(2).click()
    expect(page.locator("h1")).to_have_text("Spielbericht")
    assert page.url.endswith(f"/matches/{event.match1.pk}/deals/3/hand/")

    page.goto(f"{url}/clubs/{club.slug}/")
    leaders = page.locator("#par-leaders")
    expect(leaders).to_contain_text("Am nächsten am perfekten Spiel")
    # table 1's players have 5 deals (season: none set, so the all-time table only)
    expect(leaders.locator("tbody tr")).to_have_count(4)
    leaders.scroll_into_view_if_needed()
    screenshot(page, "par-club-de")
    problems += violations(page, "club")
    assert not problems, "\n".join(problems)

    english = contexts(language="en").new_page()
    english.goto(f"{url}/players/{player.pk}/")
    expect(english.locator("#par h2")).to_have_text("Points lost against par")
    expect(english.locator("#par")).to_contain_text("per deal")
    screenshot(english, "par-player-en")
    english.goto(f"{url}/tournaments/{event.tournament.pk}/")
    expect(english.locator("#par-highlights")).to_contain_text("Most expensive slip")
    screenshot(english, "par-evening-en")
    english.goto(f"{url}/clubs/{club.slug}/")
    expect(english.locator("#par-leaders")).to_contain_text("Closest to perfect play")
    screenshot(english, "par-club-en")
    english.set_viewport_size(PROJECTOR)
    english.goto(f"{url}/players/{player.pk}/")
    assert_fits(english, PROJECTOR["width"])
    english.screenshot(path=str(SCREENSHOTS / "par-player-en-1920.png"), full_page=True)
