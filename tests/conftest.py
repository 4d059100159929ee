"""Personas for API tests: an organiser of club A, an organiser of club B, a logged-in
stranger, an anonymous visitor, and the devices of tables 1 and 2 of a running round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Club, Match, Round, Table, Tournament


@dataclass
class Event:
    """A running individual tournament of club A with round 1 published: 2 tables."""

    club: Club
    tournament: Tournament
    round: Round
    table1: Table
    table2: Table
    code1: str
    code2: str

    @property
    def match1(self) -> Match:
        return self.table1.match

    @property
    def match2(self) -> Match:
        return self.table2.match


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club_a(db: Any) -> Club:
    return ClubFactory(name="KC Herzbube", slug="herzbube")


@pytest.fixture
def club_b(db: Any) -> Club:
    return ClubFactory(name="KC Schellen", slug="schellen")


@pytest.fixture
def organiser(club_a: Club) -> Any:
    user = UserFactory(username="organiser", is_staff=True)
    club_a.organisers.add(user)
    return user


@pytest.fixture
def other_organiser(club_b: Club) -> Any:
    user = UserFactory(username="other_organiser", is_staff=True)
    club_b.organisers.add(user)
    return user


@pytest.fixture
def stranger(db: Any) -> Any:
    return UserFactory(username="stranger")


def make_event(
    *, club: Club, players: int = 8, deals: int = 4, seed: int = 7, liga: bool = False
) -> Event:
    mode = Tournament.MatchMode.LIGA if liga else Tournament.MatchMode.DEALS
    tournament = services.create_tournament(
        club=club, name="Herbstturnier", slug=f"herbst-{seed}", deals_per_match=deals,
        match_mode=mode,
    )  # fmt: skip
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.draw_round(tournament=tournament, seed=seed)
    services.publish_round(round_=round_)
    tables = list(round_.tables.order_by("number"))
    _, code1 = services.issue_device_code(table=tables[0])
    _, code2 = services.issue_device_code(table=tables[1])
    return Event(club, tournament, round_, tables[0], tables[1], code1, code2)


@pytest.fixture
def event(club_a: Club, organiser: Any) -> Event:
    return make_event(club=club_a)


def client_for(user: Any = None, *, device_code: str | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    if device_code is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Device {device_code}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def organiser_client(organiser: Any) -> APIClient:
    return client_for(organiser)


@pytest.fixture
def other_organiser_client(other_organiser: Any) -> APIClient:
    return client_for(other_organiser)


@pytest.fixture
def stranger_client(stranger: Any) -> APIClient:
    return client_for(stranger)


@pytest.fixture
def device(event: Event) -> APIClient:
    return client_for(device_code=event.code1)


@pytest.fixture
def other_device(event: Event) -> APIClient:
    return client_for(device_code=event.code2)


ROLES = ["organiser", "other_organiser", "stranger", "anonymous", "device", "other_device"]


@pytest.fixture
def clients(
    event: Event,
    organiser_client: APIClient,
    other_organiser_client: APIClient,
    stranger_client: APIClient,
    anonymous: APIClient,
    device: APIClient,
    other_device: APIClient,
) -> dict[str, APIClient]:
    """Every persona's client, keyed by role name, around the running ``event``."""
    return {
        "organiser": organiser_client,
        "other_organiser": other_organiser_client,
        "stranger": stranger_client,
        "anonymous": anonymous,
        "device": device,
        "other_device": other_device,
    }
