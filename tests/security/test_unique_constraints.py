"""A write that would break a unique constraint is a 400 with the field's error, on
every method (POST, PUT, PATCH), before the database is asked: never a 500."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory, TournamentFactory
from tests.support.clients import APIClient
from tournaments.clubs.models import Club
from tournaments.events.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tournaments(club_a: Club, organiser: Any) -> tuple[Tournament, Tournament]:
    return (
        TournamentFactory(club=club_a, name="Frühling", slug="fruehling"),
        TournamentFactory(club=club_a, name="Herbst", slug="herbst"),
    )


def test_patch_to_a_taken_slug_is_400(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament]
) -> None:
    spring, autumn = two_tournaments
    response = organiser_client.patch(f"/api/tournaments/{autumn.pk}/", {"slug": "fruehling"})
    assert response.status_code == 400
    assert response.json()["slug"] == ["This club already has a tournament with this slug."]
    autumn.refresh_from_db()
    assert autumn.slug == "herbst"


def test_put_with_a_taken_slug_is_400(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament]
) -> None:
    spring, autumn = two_tournaments
    body = {"name": "Herbst", "slug": "fruehling", "club": autumn.club_id}
    response = organiser_client.put(f"/api/tournaments/{autumn.pk}/", body, format="json")
    assert response.status_code == 400 and "slug" in response.json()
    assert Tournament.objects.filter(slug="fruehling").count() == 1


def test_patch_keeping_its_own_slug_is_fine(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament]
) -> None:
    _, autumn = two_tournaments
    response = organiser_client.patch(
        f"/api/tournaments/{autumn.pk}/", {"slug": "herbst", "name": "Herbst 2026"}
    )
    assert response.status_code == 200 and response.json()["name"] == "Herbst 2026"


def test_same_slug_in_another_club_is_fine(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament], club_b: Club
) -> None:
    TournamentFactory(club=club_b, slug="winter")
    _, autumn = two_tournaments
    response = organiser_client.patch(f"/api/tournaments/{autumn.pk}/", {"slug": "winter"})
    assert response.status_code == 200 and response.json()["slug"] == "winter"


def test_post_with_a_taken_slug_is_400(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament]
) -> None:
    spring, _ = two_tournaments
    body = {"name": "Noch einmal", "slug": "fruehling", "club": spring.club_id}
    response = organiser_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert Tournament.objects.filter(slug="fruehling").count() == 1


def test_registering_a_player_twice_is_400(
    organiser_client: APIClient, two_tournaments: tuple[Tournament, Tournament], club_a: Club
) -> None:
    spring, _ = two_tournaments
    player = PlayerFactory()
    player.clubs.add(club_a)
    body = {"tournament": spring.pk, "player": player.pk}
    assert organiser_client.post("/api/registrations/", body).status_code == 201
    again = organiser_client.post("/api/registrations/", body)
    assert again.status_code == 400
    assert again.json()["non_field_errors"] == [
        "This player is already registered for this tournament."
    ]
    assert Registration.objects.filter(tournament=spring, player=player).count() == 1
