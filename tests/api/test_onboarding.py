"""Onboarding and seasons through the API: signing up, creating a club (the creator
organises it), inviting an organiser by a single-use link and accepting it, seasons and
their table. Every write is refused to outsiders with no row changed."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.conftest import client_for, make_event
from tests.factories import PlayerFactory, UserFactory
from tests.support.clients import APIClient
from tournaments.clubs import services as clubs
from tournaments.clubs.models import Club, OrganiserInvitation, Season
from tournaments.events import services

pytestmark = pytest.mark.django_db


def test_sign_up_then_create_a_club_and_organise_it() -> None:
    anonymous = APIClient()
    response = anonymous.post(
        "/api/auth/signup/",
        {"username": "neu", "email": "neu@example.org", "password": "Kreuz-Bube-77"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    token = response.json()["token"]
    weak = anonymous.post(
        "/api/auth/signup/",
        {"username": "neu2", "email": "x@example.org", "password": "123"},
        format="json",
    )
    assert weak.status_code == 400 and "password" in weak.json()
    taken = anonymous.post(
        "/api/auth/signup/",
        {"username": "NEU", "email": "y@example.org", "password": "Kreuz-Bube-77"},
        format="json",
    )
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/clubs/", {"name": "KC Eichel Ulm", "city": "Ulm"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["slug"] == "kc-eichel-ulm" and created.json()["city"] == "Ulm"
    club = Club.objects.get(slug="kc-eichel-ulm")
    assert list(club.organisers.values_list("username", flat=True)) == ["neu"]
    duplicate = client.post("/api/clubs/", {"name": "KC Eichel Ulm"}, format="json")
    assert duplicate.status_code == 409 and duplicate.json()["code"] == "club_slug_taken"


def test_invitation_makes_an_organiser_once(club_a: Any, organiser: Any, stranger: Any) -> None:
    response = client_for(organiser).post(f"/api/clubs/{club_a.pk}/invitations/")
    assert response.status_code == 201, response.json()
    token = response.json()["token"]
    assert token in response.json()["url"]
    assert not OrganiserInvitation.objects.filter(token_hash=token).exists()  # only the hash

    accepted = client_for(stranger).post(
        "/api/invitations/accept/", {"token": token}, format="json"
    )
    assert accepted.status_code == 200 and accepted.json()["id"] == club_a.pk
    assert club_a.organisers.filter(pk=stranger.pk).exists()
    late = client_for(UserFactory()).post(
        "/api/invitations/accept/", {"token": token}, format="json"
    )
    assert late.status_code == 409 and late.json()["code"] == "invitation_used"
    unknown = client_for(stranger).post(
        "/api/invitations/accept/", {"token": "nope"}, format="json"
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "invitation_unknown"


def test_an_expired_invitation_is_refused(club_a: Any, organiser: Any, stranger: Any) -> None:
    invitation, token = clubs.invite_organiser(club=club_a, invited_by=organiser)
    OrganiserInvitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    response = client_for(stranger).post(
        "/api/invitations/accept/", {"token": token}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "invitation_expired"
    assert not club_a.organisers.filter(pk=stranger.pk).exists()


@pytest.fixture
def device_code(club_b: Any) -> str:
    return make_event(club=club_b).code1


@pytest.mark.parametrize("role", ["other_organiser", "stranger", "anonymous", "device"])
def test_club_and_season_writes_refused_to_outsiders(
    club_a: Any,
    organiser: Any,
    other_organiser: Any,
    stranger: Any,
    device_code: str,
    role: str,
) -> None:
    client = {
        "other_organiser": client_for(other_organiser),
        "stranger": client_for(stranger),
        "anonymous": APIClient(),
        "device": client_for(device_code=device_code),
    }[role]
    season = clubs.create_season(
        club=club_a, name="2025", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31)
    )
    _, token = clubs.invite_organiser(club=club_a, invited_by=organiser)
    before = (
        OrganiserInvitation.objects.count(),
        Season.objects.count(),
        club_a.organisers.count(),
        Club.objects.count(),
    )
    answers = [
        client.post(f"/api/clubs/{club_a.pk}/invitations/"),
        client.post(
            "/api/seasons/",
            {"club": club_a.pk, "name": "X", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
            format="json",
        ),
        client.patch(f"/api/seasons/{season.pk}/", {"best_of": 3}, format="json"),
    ]
    if role in ("anonymous", "device"):
        answers.append(client.post("/api/clubs/", {"name": "Neu"}, format="json"))
        answers.append(client.post("/api/invitations/accept/", {"token": token}, format="json"))
    statuses = [r.status_code for r in answers]
    assert all(s in (401, 403, 404) for s in statuses), statuses
    after = (
        OrganiserInvitation.objects.count(),
        Season.objects.count(),
        club_a.organisers.count(),
        Club.objects.count(),
    )
    assert after == before
    assert Season.objects.get(pk=season.pk).best_of is None
    table = client.get(f"/api/seasons/{season.pk}/table/")
    assert table.status_code == (403 if role == "device" else 200)


def test_season_table_through_the_api(club_a: Any, organiser: Any) -> None:
    client = client_for(organiser)
    response = client.post(
        "/api/seasons/",
        {
            "club": club_a.pk,
            "name": "Saison 2025",
            "starts_on": "2025-01-01",
            "ends_on": "2025-12-31",
            "best_of": 1,
            "min_evenings": 1,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    season = Season.objects.get(pk=response.json()["id"])
    bad = client.post(
        "/api/seasons/",
        {"club": club_a.pk, "name": "X", "starts_on": "2025-02-01", "ends_on": "2025-01-01"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "season_dates"
    tournament = services.create_tournament(club=club_a, name="Abend", slug="abend", season=season)
    for _ in range(4):
        services.register_player(tournament=tournament, player=PlayerFactory())
    services.start_tournament(tournament=tournament)
    services.finish_tournament(tournament=tournament)
    table = client.get(f"/api/seasons/{season.pk}/table/").json()
    assert table["evenings"] == [
        {"evening": tournament.pk, "tournament": tournament.pk, "name": "Abend", "imported": False}
    ]
    assert table["imported"] == 0
    assert len(table["rows"]) == 4 and {r["total"] for r in table["rows"]} == {0}


def test_assigning_another_clubs_season_is_refused(club_a: Any, club_b: Any) -> None:
    season = clubs.create_season(
        club=club_b, name="B", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31)
    )
    tournament = services.create_tournament(club=club_a, name="A", slug="a")
    with pytest.raises(Exception) as refused:
        services.assign_season(tournament=tournament, season=season)
    assert getattr(refused.value, "code", "") == "season_elsewhere"
    assert get_user_model().objects.count() == 0
