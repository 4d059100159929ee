"""In headless Chromium: the table's tablet opens the hand record of a deal in which
one play was a clear mistake and finds that costly play, with the cards that were
better; then the round's print page. Screenshots go to
artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.conftest import make_event
from tests.support.hand_records import COSTLY_DEAL
from tournaments.clubs.models import Club
from tournaments.deals import services
from tournaments.events import services as tournament_services

from .conftest import SCREENSHOTS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_record_shows_the_costly_play(live_server: Any, page: Any) -> None:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = make_event(club=club, deals=4)
    services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    seat2 = event.table1.seats.get(position=1).player.name

    page.goto(f"{live_server.url}/t/{event.code1}/")
    page.locator("#table-state .deal-list a.hand-link").first.click()
    expect(page.locator("h1")).to_have_text("Spielbericht")
    costly = page.locator(".costly-plays li")
    expect(costly).to_have_count(1)
    expect(costly.first).to_contain_text(f"Sitz 2 ({seat2}): A♣ kostete 26 Punkte")
    expect(costly.first).to_contain_text("besser K♣, B♣")
    expect(page.locator(".trick-card.is-costly")).to_have_count(1)
    expect(page.locator(".par-row")).to_contain_text("Par (perfektes Spiel)")
    screenshot(page, "hand-record-tablet")

    tournament_services.close_round(round_=event.round, force=True)
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/rounds/1/hand-records/")
    expect(page.locator(".hand-record")).to_have_count(1)
    screenshot(page, "hand-records-round")
    page.emulate_media(media="print")  # A4 is about 794 CSS pixels wide
    page.set_viewport_size({"width": 794, "height": 1123})
    page.screenshot(path=str(SCREENSHOTS / "hand-records-print.png"), full_page=True)
    page.pdf(path=str(SCREENSHOTS / "hand-records-round.pdf"), format="A4")
