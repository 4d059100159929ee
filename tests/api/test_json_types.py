"""A JSON body must carry each field in the type the schema states: a number for a text,
a text for an id or a word for a boolean is refused with the field named (400, code
``invalid``), in the client's language, and nothing is stored. Query filters take whole
numbers for integers and ``true``/``false`` for booleans."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import Event
from tests.support.clients import APIClient
from tournaments.clubs.models import Player
from tournaments.events.models import Registration, Tournament
from tournaments.leagues.models import League

pytestmark = pytest.mark.django_db


def refused(response: Any, field: str) -> list[str]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and body["detail"]
    return list(body[field])


def test_a_number_for_a_text_is_refused_at_sign_up(anonymous: APIClient) -> None:
    body = {"username": 891, "email": "neu@example.org", "password": "ein-gutes-Passwort-1"}
    assert refused(anonymous.post("/api/auth/signup/", body, format="json"), "username") == [
        "Must be text."
    ]
    assert not get_user_model().objects.filter(username="891").exists()


def test_a_text_for_an_id_is_refused(event: Event, organiser_client: APIClient) -> None:
    player = Player.objects.filter(memberships__club=event.club).first()
    assert player is not None
    before = Registration.objects.count()
    body = {"tournament": str(event.tournament.pk), "player": player.pk}
    response = organiser_client.post("/api/registrations/", body, format="json")
    assert refused(response, "tournament") == ["Must be a whole number."]
    assert Registration.objects.count() == before


def test_a_word_for_a_boolean_is_refused_in_german(
    event: Event, organiser_client: APIClient
) -> None:
    response = organiser_client.patch(
        f"/api/tournaments/{event.tournament.pk}/",
        {"is_public": "yes"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert refused(response, "is_public") == ["Muss true oder false sein."]
    event.tournament.refresh_from_db()
    assert event.tournament.is_public


def test_right_types_still_pass(event: Event, organiser_client: APIClient) -> None:
    response = organiser_client.patch(
        f"/api/tournaments/{event.tournament.pk}/", {"name": "Wintercup"}, format="json"
    )
    assert response.status_code == 200 and response.json()["name"] == "Wintercup"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("/api/matches/?table=1.5", "table"),
        ("/api/matches/?round=0.0&round_number=0.0", "round"),
        ("/api/matches/?tournament=-9e-232", "tournament"),
        ("/api/rounds/?number=2.5", "number"),
        ("/api/registrations/?late=1e308", "late"),
        ("/api/registrations/?late=yes", "late"),
    ],
)
def test_filters_refuse_values_of_another_type(
    event: Event, organiser_client: APIClient, query: str, field: str
) -> None:
    response = organiser_client.get(query)
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_filters_take_their_own_types(event: Event, organiser_client: APIClient) -> None:
    assert organiser_client.get("/api/matches/?table=1").json()["count"] == 1
    assert organiser_client.get("/api/registrations/?late=false").status_code == 200
    assert organiser_client.get("/api/registrations/?late=true").json()["count"] == 0


@pytest.mark.parametrize("value", ["", "yes", "2"])
def test_fresh_standings_take_a_boolean(
    event: Event, organiser_client: APIClient, value: str
) -> None:
    url = f"/api/tournaments/{event.tournament.pk}/standings/?fresh={value}"
    response = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert response.json()["fresh"] == ["Muss true oder false (1 oder 0) sein."]
    assert organiser_client.get(url.replace(f"={value}", "=1")).json()["fresh"] is True


@pytest.mark.parametrize("field", ["deals_per_match", "liga_target"])
def test_a_match_of_no_deals_or_points_is_refused(
    event: Event, organiser_client: APIClient, field: str
) -> None:
    body = {"club": event.club.pk, "name": "Leer", "slug": "leer", field: 0}
    response = organiser_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Tournament.objects.filter(slug="leer").exists()


def test_a_league_to_no_points_is_refused(organiser_client: APIClient) -> None:
    body = {"name": "Bodensee-Liga", "slug": "bodensee", "liga_target": 0}
    response = organiser_client.post("/api/leagues/", body, format="json")
    assert response.status_code == 400 and "liga_target" in response.json()
    body["liga_target"] = 51
    league = organiser_client.post("/api/leagues/", body, format="json").json()
    response = organiser_client.patch(f"/api/leagues/{league['id']}/", {"liga_target": 0})
    assert response.status_code == 400 and "liga_target" in response.json()
    assert League.objects.get(pk=league["id"]).liga_target == 51


def test_a_nul_character_is_refused_where_a_name_is_looked_up(
    event: Event, organiser_client: APIClient
) -> None:
    league = organiser_client.post(
        "/api/leagues/", {"name": "Seeliga", "slug": "seeliga"}, format="json"
    ).json()
    division = organiser_client.post(
        "/api/divisions/", {"league": league["id"], "name": "A"}, format="json"
    ).json()
    body = {"division": division["id"], "club": event.club.pk, "name": "KC 1", "captain": "a\x00"}
    response = organiser_client.post("/api/league-teams/", body, format="json")
    assert refused(response, "captain") == ["Must not contain a NUL character."]
