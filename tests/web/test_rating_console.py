"""The rating options in the organiser console: the tournament form, the individual draw
card and the pairs scheme store them; with balance by rating in force the round's cost
table shows the rating gap and explains it (German, the default, and English); off,
neither shows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Tournament
from tournaments.ratings.models import PlayerRating

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def new_tournament(web: Client, club: Club, **fields: str) -> Tournament:
    form = {
        "club": club.pk,
        "name": "Ratingabend",
        "rules_preset": "klammern",
        "format": "individual",
        "match_mode": "deals",
        "deals_per_match": 2,
        "liga_target": 51,
        **fields,
    }
    response = web.post("/console/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Tournament.objects.get(club=club, name="Ratingabend")


def check_in_eight(tournament: Tournament, club: Club) -> None:
    for n, mu in enumerate([40.0, 35.0, 30.0, 25.0, 20.0, 15.0, 10.0, None]):
        player = PlayerFactory(name=f"Spieler {n}")
        if mu is not None:
            PlayerRating.objects.create(club=club, player=player, mu=mu, sigma=4.0, rating=mu - 12)
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)


def test_the_form_stores_the_option_and_the_cost_table_shows_the_rating_gap(
    web: Client, club_a: Club
) -> None:
    tournament = new_tournament(web, club_a, balance_by_rating="on")
    assert tournament.balance_by_rating
    page = text(web.get(f"/console/tournaments/{tournament.pk}/"))
    assert 'id="draw-settings"' in page and 'name="balance_by_rating"' in page
    assert 'id="balance_by_rating" checked' in page
    assert "Startwert der Rating-Bibliothek, mu 25" in page  # players without a rating

    check_in_eight(tournament, club_a)
    response = web.post(f"/console/tournaments/{tournament.pk}/draw/")
    assert response.status_code == 302
    round_ = tournament.rounds.get()
    assert response["Location"] == f"/console/rounds/{round_.pk}/"
    page = text(web.get(response["Location"]))
    assert "Rating-Unterschied der Teams (Punkte, alle Tische)" in page
    assert 'id="rating-explanation"' in page
    web.get("/lang/en/", {"next": "/"})
    english = text(web.get(response["Location"]))
    assert "Rating gap between the teams (points, all tables)" in english
    assert "start value, mu 25" in english
    # mu 40, 35, ..., 10 and 25 for the unrated: {40, 10 | 35, 15}, {30, 20 | 25, 25}
    assert round_.cost["rating_gap"] == 0.0


def test_the_draw_card_turns_the_option_off_and_the_criterion_leaves_the_cost_table(
    web: Client, club_a: Club
) -> None:
    tournament = new_tournament(web, club_a, balance_by_rating="on")
    response = web.post(f"/console/tournaments/{tournament.pk}/draw-settings/", {})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert not tournament.balance_by_rating
    check_in_eight(tournament, club_a)
    web.post(f"/console/tournaments/{tournament.pk}/draw/")
    round_ = tournament.rounds.get()
    page = text(web.get(f"/console/rounds/{round_.pk}/"))
    assert "Rating-Unterschied" not in page and 'id="rating-explanation"' not in page
    assert "rating_gap" not in round_.cost

    web.post(f"/console/tournaments/{tournament.pk}/draw-settings/", {"balance_by_rating": "on"})
    tournament.refresh_from_db()
    assert tournament.balance_by_rating


def test_the_form_refuses_balancing_for_fixed_pairs(web: Client, club_a: Club) -> None:
    form = {
        "club": club_a.pk,
        "name": "Paare",
        "format": "pairs",
        "match_mode": "deals",
        "deals_per_match": 2,
        "liga_target": 51,
        "balance_by_rating": "on",
    }
    page = text(web.post("/console/", form))
    assert "nur in der Einzel-Auslosung" in page
    assert not Tournament.objects.filter(name="Paare").exists()


def test_the_pairs_scheme_stores_seeding_by_rating(web: Client, club_a: Club) -> None:
    tournament = new_tournament(web, club_a, format="pairs")
    page = text(web.get(f"/console/tournaments/{tournament.pk}/pairs/"))
    assert 'name="seed_by_rating"' in page and 'name="finals_seeding"' in page
    web.post(
        f"/console/tournaments/{tournament.pk}/pairs/scheme/",
        {"scheme": "swiss", "seed_by_rating": "on", "finals_seeding": "rating"},
    )
    tournament.refresh_from_db()
    assert tournament.swiss and tournament.seed_by_rating
    assert tournament.finals_seeding == Tournament.FinalsSeeding.RATING
    web.post(f"/console/tournaments/{tournament.pk}/pairs/scheme/", {"scheme": "swiss"})
    tournament.refresh_from_db()
    assert not tournament.seed_by_rating and tournament.finals_seeding == "standings"
