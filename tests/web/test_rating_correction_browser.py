"""In headless Chromium: a finished club evening's deal is corrected by the organiser in
the console, which flips the winner of a rated game; the public rating list moves with
it, as a fresh recompute from scratch would (issue 20: no rating moved). Then the rating
list and a player's rating chart in German and English; screenshots go to
artifacts/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import DealVersion
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.conftest import OUTCOMES, evening, play_round
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import PlayerRating

from .conftest import DESKTOP, screenshot
from .test_browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown_ratings(page: Any) -> dict[str, str]:
    rows = page.locator("table.data tbody tr")
    return {
        rows.nth(i).locator("td").nth(1).inner_text(): rows.nth(i).locator("td").nth(2).inner_text()
        for i in range(rows.count())
    }


def stored_ratings(club: Club) -> dict[str, str]:
    return {
        r.player.name: f"{r.rating:.1f}".replace(".", ",")
        for r in PlayerRating.objects.filter(club=club).select_related("player")
    }


def corrected(match: Match, number: int) -> bool:
    return DealVersion.objects.current().get(deal__match=match, deal__number=number).version == 2


def test_a_correction_after_the_finish_moves_the_rating_list(
    live_server: Any, contexts: Any, club_a: Club
) -> None:
    club_a.organisers.add(UserFactory(username="orga"))
    players = [PlayerFactory(name=f"Spielerin {n}") for n in range(1, 9)]
    tournament = evening(club_a, players=players)
    rounds = [play_round(tournament, points, seed=i + 1) for i, points in enumerate(OUTCOMES)]
    services.finish_tournament(tournament=tournament)
    base = live_server.url

    public = contexts(DESKTOP, "de").new_page()
    public.goto(f"{base}/clubs/{club_a.slug}/ratings/")
    expect(public.locator("table.data tbody tr")).to_have_count(8)
    before = shown_ratings(public)
    assert before == stored_ratings(club_a)

    console = contexts(DESKTOP, "de").new_page()
    login(console, base, "orga")
    match = Match.objects.get(round=rounds[0], table__number=1)
    for number in (1, 2):  # team 0 won both deals with 100 card points; it had 64
        console.goto(f"{base}/console/matches/{match.pk}/deals/{number}/")
        expect(console.locator("#points0")).to_have_value("100")
        console.fill("#points0", "64")
        console.fill("#reason", "Punkte vertauscht")
        console.click("#entry button[type=submit]")
        expect(console.locator("#toast")).to_be_visible()  # the answer: all committed
        assert corrected(match, number)

    public.reload()
    after = shown_ratings(public)
    assert after != before and after == stored_ratings(club_a)
    fresh = dict(stored_ratings(club_a))
    rating_services.recompute_club_ratings(club_id=club_a.pk)
    assert stored_ratings(club_a) == fresh  # the stored ratings are a fresh recompute's
    screenshot(public, "ratings-after-correction-de")

    player = players[0]
    public.goto(f"{base}/players/{player.pk}/")
    chart = public.locator("section.chart", has_text=re.compile(r"Wertung \S+: -?\d"))
    expect(chart.locator("text.x-title")).to_have_text("Gespielte Runden")
    expect(chart.locator("polygon.band")).to_have_count(1)
    screenshot(public, "rating-chart-de")
    english = contexts(DESKTOP, "en").new_page()
    english.goto(f"{base}/lang/en/?next=/players/{player.pk}/")
    chart = english.locator("section.chart", has_text=re.compile(r"Rating \S+: -?\d"))
    expect(chart.locator("text.x-title")).to_have_text("Rounds played")
    screenshot(english, "rating-chart-en")
    english.goto(f"{base}/clubs/{club_a.slug}/ratings/")
    expect(english.locator("#rating-legend")).to_contain_text("how unsure the estimate")
    screenshot(english, "ratings-en")
