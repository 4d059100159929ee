"""Each game's tables count in its own rating pool (``GameProfile.rating_pool``): a
Klaverjas evening at a club does not move its players' Klammern ratings, the ratings of
each pool are kept apart (incrementally and from scratch alike), and the ratings page
and API say which game's pool they show."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tests.factories import PlayerFactory
from tests.support.clients import Client, committed
from tests.web.test_browser_presets import klaverjas_deal
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Tournament
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import PlayerRating, RatedRound

from .conftest import OUTCOMES, evening, play_round

pytestmark = pytest.mark.django_db


def klaverjas_evening(club: Club, players: list[Any]) -> Tournament:
    tournament = services.create_tournament(
        club=club,
        name="Klaverjasavond",
        slug="klaverjas",
        rules_preset="klaverjas-rotterdam",
        rules_options={"deals_per_match": 2},
        is_public=True,
    )
    for player in players:
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    services.publish_round(round_=round_)
    for match in Match.objects.filter(round=round_):
        for number in (1, 2):
            submit_deal(match=match, number=number, record=klaverjas_deal(number, 1))
    with committed():
        services.close_round(round_=round_, force=True)
    return tournament


@pytest.fixture
def two_games(club_a: Club) -> dict[str, Any]:
    players = [PlayerFactory() for _ in range(8)]
    klammern = evening(club_a, players=players)
    for i, points in enumerate(OUTCOMES):
        play_round(klammern, points, seed=i + 1)
    before = {
        r.player_id: (r.mu, r.sigma, r.games)
        for r in PlayerRating.objects.filter(club=club_a, pool="klammern")
    }
    klaverjas_evening(club_a, players)
    return {"players": players, "klammern_before": before}


def ratings(club: Club, pool: str) -> dict[int, tuple[float, float, int]]:
    rows = PlayerRating.objects.filter(club=club, pool=pool)
    return {r.player_id: (r.mu, r.sigma, r.games) for r in rows}


def test_a_klaverjas_evening_rates_in_its_own_pool(club_a: Club, two_games: Any) -> None:
    klammern, klaverjas = ratings(club_a, "klammern"), ratings(club_a, "klaverjas")
    assert klammern == two_games["klammern_before"]  # untouched by the Klaverjas tables
    assert set(klaverjas) == {p.pk for p in two_games["players"]}
    assert {games for _, _, games in klaverjas.values()} == {1}  # one table each
    assert list(RatedRound.objects.filter(club=club_a).values_list("pool", flat=True)) == [
        "klammern",
        "klammern",
        "klammern",
        "klaverjas",
    ]


def test_from_scratch_keeps_the_pools_apart(club_a: Club, two_games: Any) -> None:
    kept = {pool: ratings(club_a, pool) for pool in ("klammern", "klaverjas")}
    assert rating_services.recompute_club_ratings(club_id=club_a.pk) == 4
    assert {pool: ratings(club_a, pool) for pool in ("klammern", "klaverjas")} == kept


def test_the_ratings_page_says_whose_pool_it_shows(
    club_a: Club, two_games: Any, client: Client
) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    body = client.get(f"/clubs/{club_a.slug}/ratings/").content.decode()
    assert "<h1>Ratings: Klammern</h1>" in body
    assert "Klammern (kleine en grote punten)" in body  # the games counted in it
    assert '<a href="?pool=klaverjas">Klaverjas</a>' in body
    body = client.get(f"/clubs/{club_a.slug}/ratings/?pool=klaverjas").content.decode()
    assert "<h1>Ratings: Klaverjas</h1>" in body and "Rotterdam" in body
    assert "Uit elke partij van 1 afgesloten ronde," in body  # the pool's rounds
    assert client.get(f"/clubs/{club_a.slug}/ratings/?pool=poker").status_code == 404


def test_the_ratings_api_takes_a_pool(club_a: Club, two_games: Any, client: Client) -> None:
    body = client.get(f"/api/clubs/{club_a.pk}/ratings/?pool=klaverjas").json()
    assert body["pool"] == "klaverjas" and body["rounds"] == 1
    assert {row["player"] for row in body["rows"]} == {p.pk for p in two_games["players"]}
    assert client.get(f"/api/clubs/{club_a.pk}/ratings/").json()["rounds"] == 3
    refused = client.get(f"/api/clubs/{club_a.pk}/ratings/?pool=poker")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_rating_pool"
