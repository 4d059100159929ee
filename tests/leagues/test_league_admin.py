"""The league admin: a league's organiser (staff) sees only their league's rows; a club's
organiser who runs no league sees none."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.leagues.conftest import LeagueWorld
from tests.support.clients import Client
from tournaments.leagues import services as leagues

pytestmark = pytest.mark.django_db


def test_league_organisers_see_their_leagues_only(world: LeagueWorld) -> None:
    boss = world.users["league_organiser"]
    boss.is_staff = True
    boss.save()
    other = UserFactory(username="other_boss", is_staff=True)
    leagues.create_league(organiser=other, name="Hegau-Liga", slug="hegau")
    client = Client()
    client.force_login(boss)
    page = client.get("/admin/tournaments/league/")
    assert page.status_code == 200
    assert "Bodensee-Liga" in page.content.decode()
    assert "Hegau-Liga" not in page.content.decode()
    assert client.get("/admin/tournaments/matchday/").status_code == 200
    organiser = world.users["organiser"]
    client.force_login(organiser)
    assert client.get("/admin/tournaments/league/").status_code == 403
