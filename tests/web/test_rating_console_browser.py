"""In headless Chromium: an organiser ticks "balance the tables by rating" in the console's
new-tournament form, eight rated players (one without a rating) check in, the organiser
starts and draws round 1, and the draft's cost table shows the rating gap with its
explanation, in German and in English. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.factories import PlayerFactory, UserFactory
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Round, Tournament
from tournaments.ratings.models import PlayerRating

from .conftest import SCREENSHOTS, screenshot
from .test_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_balances_tables_by_rating(live_server: Any, page: Any, club_a: Club) -> None:
    club = club_a
    club.organisers.add(UserFactory(username="orga"))
    base = live_server.url
    login(page, base, "orga")
    page.fill("#id_name", "Ratingabend")
    page.fill("#id_deals_per_match", "2")
    page.locator("#id_balance_by_rating").check()
    expect(page.locator("#id_balance_by_rating").locator("xpath=../..")).to_contain_text(
        "Startwert der Rating-Bibliothek, mu 25"
    )
    page.get_by_role("button", name="Turnier anlegen").click()
    expect(page.locator("h1")).to_have_text("Ratingabend")
    tournament = Tournament.objects.get(name="Ratingabend")
    assert tournament.balance_by_rating

    for n, mu in enumerate([40.0, 35.0, 30.0, 25.0, 20.0, 15.0, 10.0, None]):
        player = PlayerFactory(name=f"Spieler {n + 1}")
        if mu is not None:
            PlayerRating.objects.create(club=club, player=player, mu=mu, sigma=4.0, rating=mu - 12)
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    page.reload()
    expect(page.locator("#balance_by_rating")).to_be_checked()
    page.locator("#draw-settings").scroll_into_view_if_needed()
    screenshot(page, "rating-draw-settings-de")
    page.locator("#draw-settings").screenshot(path=str(SCREENSHOTS / "rating-draw-card-de.png"))

    page.get_by_role("button", name="Starten und Runde 1 auslosen").click()
    expect(page.locator("h1")).to_have_text("Runde 1")
    row = page.locator("#cost tr", has_text="Rating-Unterschied der Teams")
    expect(row).to_have_count(1)
    expect(row.locator("td.num")).to_have_text("0,0")  # German decimal comma
    expect(page.locator("#rating-explanation")).to_contain_text("mu 25")
    assert Round.objects.get(tournament=tournament).cost["rating_gap"] == 0.0
    screenshot(page, "rating-cost-table-de")

    page.goto(f"{base}/lang/en/?next=/console/rounds/{tournament.rounds.get().pk}/")
    expect(page.locator("h1")).to_have_text("Round 1")
    expect(page.locator("#cost")).to_contain_text("Rating gap between the teams")
    expect(page.locator("#rating-explanation")).to_contain_text("start value, mu 25")
    screenshot(page, "rating-cost-table-en")
