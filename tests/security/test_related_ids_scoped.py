"""An organiser's writes accept only related ids of rows they may use: another club's
player, team, season or private tournament is answered as an id that does not exist
(400, nothing stored, no name in the answer); a public tournament or a club they do not
organise is 403 as before."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.factories import PlayerFactory, TournamentFactory
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, Season
from tournaments.events.models import ForbiddenPairing, Registration, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_tournament(club_a: Club, organiser: Any) -> Tournament:
    return TournamentFactory(club=club_a, slug="eigen")


@pytest.fixture
def foreign_player(club_b: Club) -> Any:
    player = PlayerFactory(name="Fremde Spielerin Zora")
    player.clubs.add(club_b)
    return player


def invalid_pk(response: Any, field: str) -> None:
    """Refused as DRF refuses an id that does not exist ("Invalid pk", translated)."""
    assert response.status_code == 400, response.content
    assert " pk " in response.json()[field][0]
    assert "Zora" not in response.content.decode()


def test_another_clubs_player_cannot_be_registered(
    organiser_client: APIClient, own_tournament: Tournament, foreign_player: Any
) -> None:
    body = {"tournament": own_tournament.pk, "player": foreign_player.pk}
    invalid_pk(organiser_client.post("/api/registrations/", body), "player")
    assert not Registration.objects.filter(player=foreign_player).exists()


def test_own_clubs_player_is_registered(
    organiser_client: APIClient, own_tournament: Tournament, club_a: Club
) -> None:
    player = PlayerFactory()
    player.clubs.add(club_a)
    body = {"tournament": own_tournament.pk, "player": player.pk}
    response = organiser_client.post("/api/registrations/", body)
    assert response.status_code == 201 and response.json()["player"] == player.pk
    assert Registration.objects.filter(tournament=own_tournament, player=player).exists()


def test_another_clubs_team_cannot_be_used(
    organiser_client: APIClient, own_tournament: Tournament, club_a: Club, club_b: Club
) -> None:
    team = Team.objects.create(tournament=TournamentFactory(club=club_b), name="Zora & Co")
    player = PlayerFactory()
    player.clubs.add(club_a)
    body = {"tournament": own_tournament.pk, "player": player.pk, "team": team.pk}
    invalid_pk(organiser_client.post("/api/registrations/", body, format="json"), "team")
    assert not Registration.objects.filter(player=player).exists()


def test_another_clubs_private_tournament_does_not_exist(
    organiser_client: APIClient, club_a: Club, club_b: Club
) -> None:
    hidden = TournamentFactory(club=club_b, is_public=False)
    player = PlayerFactory()
    player.clubs.add(club_a)
    body = {"tournament": hidden.pk, "player": player.pk}
    invalid_pk(organiser_client.post("/api/registrations/", body), "tournament")


def test_another_clubs_public_tournament_is_403(
    organiser_client: APIClient, club_b: Club, foreign_player: Any
) -> None:
    public = TournamentFactory(club=club_b, is_public=True)
    body = {"tournament": public.pk, "player": foreign_player.pk}
    response = organiser_client.post("/api/registrations/", body)
    assert response.status_code == 403 and "Zora" not in response.content.decode()
    assert not Registration.objects.exists()


def test_another_clubs_season_cannot_be_used(
    organiser_client: APIClient, own_tournament: Tournament, club_b: Club
) -> None:
    season = Season.objects.create(
        club=club_b, name="Zora-Saison", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    patched = organiser_client.patch(
        f"/api/tournaments/{own_tournament.pk}/", {"season": season.pk}, format="json"
    )
    invalid_pk(patched, "season")
    own_tournament.refresh_from_db()
    assert own_tournament.season_id is None
    body = {"club": own_tournament.club_id, "name": "Neu", "slug": "neu", "season": season.pk}
    invalid_pk(organiser_client.post("/api/tournaments/", body, format="json"), "season")
    assert not Tournament.objects.filter(slug="neu").exists()


def test_another_clubs_player_cannot_be_kept_apart(
    organiser_client: APIClient, own_tournament: Tournament, club_a: Club, foreign_player: Any
) -> None:
    own = PlayerFactory()
    own.clubs.add(club_a)
    body = {"player_a": own.pk, "player_b": foreign_player.pk}
    response = organiser_client.post(
        f"/api/tournaments/{own_tournament.pk}/forbidden-pairings/", body
    )
    invalid_pk(response, "player_b")
    assert not ForbiddenPairing.objects.exists()


def test_a_player_cannot_be_created_in_another_club(
    organiser_client: APIClient, club_b: Club
) -> None:
    response = organiser_client.post("/api/players/", {"club": club_b.pk, "name": "Neu"})
    assert response.status_code == 403
    assert not club_b.players.filter(name="Neu").exists()
