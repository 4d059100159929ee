"""Names people type refuse control characters (ESC, BEL, ...) and text-direction
overrides (U+202E, isolates, marks): in the API, the console's forms and the models."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from tests.factories import PlayerFactory, TournamentFactory
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import Club, Player
from tournaments.common.validators import validate_name
from tournaments.events.models import Team, Tournament
from tournaments.web.forms import RegisterPlayerForm

BAD = ["Anna\u202etxt.exe", "Esc\x1b[31mape", "Bell\x07", "Iso\u2066late\u2069", "L\u200fRM"]
GOOD = ["Anna-Lena Müller", "Zoë O'Brien", "محمد", "李雷", "Jörg (Gast)"]


@pytest.mark.parametrize("name", BAD)
def test_validator_refuses(name: str) -> None:
    with pytest.raises(ValidationError) as refused:
        validate_name(name)
    assert refused.value.code == "forbidden_characters"


@pytest.mark.parametrize("name", GOOD)
def test_validator_accepts(name: str) -> None:
    validate_name(name)


@pytest.mark.django_db
@pytest.mark.parametrize("name", BAD)
def test_api_refuses_a_new_player(organiser_client: APIClient, club_a: Club, name: str) -> None:
    response = organiser_client.post(
        "/api/players/", {"club": club_a.pk, "name": name}, format="json"
    )
    assert response.status_code == 400
    assert "control or text-direction characters" in response.json()["name"][0]
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_api_refuses_renaming_a_player_and_a_tournament(
    organiser_client: APIClient, club_a: Club
) -> None:
    player = PlayerFactory(name="Anna")
    player.clubs.add(club_a)
    tournament = TournamentFactory(club=club_a, name="Herbst")
    patched = organiser_client.patch(
        f"/api/players/{player.pk}/", {"household": "Hof\u202e"}, format="json"
    )
    assert patched.status_code == 400 and "household" in patched.json()
    renamed = organiser_client.patch(
        f"/api/tournaments/{tournament.pk}/", {"name": "Herbst\x1b"}, format="json"
    )
    assert renamed.status_code == 400 and "name" in renamed.json()
    player.refresh_from_db()
    tournament.refresh_from_db()
    assert (player.household, tournament.name) == ("", "Herbst")


@pytest.mark.django_db
def test_api_refuses_a_new_tournament(organiser_client: APIClient, club_a: Club) -> None:
    body = {"club": club_a.pk, "name": "Cup\u202e", "slug": "cup"}
    response = organiser_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400 and "name" in response.json()
    assert not Tournament.objects.filter(slug="cup").exists()


@pytest.mark.django_db
def test_models_refuse_in_full_clean(club_a: Club) -> None:
    team = Team(tournament=TournamentFactory(club=club_a), name="Team\x07")
    with pytest.raises(ValidationError) as refused:
        team.full_clean()
    assert "name" in refused.value.message_dict
    club_a.name = "Club\u202d"
    with pytest.raises(ValidationError):
        club_a.full_clean()


def test_console_form_refuses() -> None:
    form = RegisterPlayerForm({"name": "Anna\u202e", "household": "Hof\x1b"})
    assert not form.is_valid()
    assert set(form.errors) == {"name", "household"}


@pytest.mark.django_db
def test_console_registration_creates_no_player(organiser: Any, club_a: Club) -> None:
    tournament = TournamentFactory(club=club_a)
    client = Client()
    client.force_login(organiser)
    client.post(f"/console/tournaments/{tournament.pk}/register/", {"name": "Anna\u202e"})
    assert not Player.objects.exists()
