"""The embed of a league division (issue 25 leftover): the division's table only, for
the site of a club with a team in it, framed only by that club's web sites, light or
dark, in the asked language, setting no cookie and running no script; a private league
or a club without a team there is not found; the club's console shows the code to copy."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leagues.conftest import LeagueWorld
from tests.support.clients import Client
from tests.web.test_publishing import directives

pytestmark = pytest.mark.django_db


def url(world: LeagueWorld, club: Any) -> str:
    return f"/embed/clubs/{club.slug}/divisions/{world.division.pk}/"


def test_the_division_table_framed_only_by_the_clubs_sites(world: LeagueWorld) -> None:
    club = world.team_a.club
    club.embed_origins = ["https://www.herzbube.de"]
    club.save(update_fields=["embed_origins"])
    response = Client().get(url(world, club) + "?theme=dark&lang=nl")
    assert response.status_code == 200
    body = response.content.decode()
    assert directives(response)["frame-ancestors"] == "https://www.herzbube.de"
    assert "X-Frame-Options" not in response and not response.cookies
    assert "<script" not in body and 'class="embed theme-dark"' in body
    assert response["Content-Language"] == "nl" and "Gespeeld" in body
    assert body.count('<td class="rank">') == 2
    assert world.team_a.name in body and world.team_b.name in body
    assert "<nav" not in body  # the table only
    # the other club's embed of the same division: its own sites (none named: nobody)
    other = Client().get(url(world, world.team_b.club))
    assert directives(other)["frame-ancestors"] == "'none'"


def test_no_embed_of_a_private_league_or_for_a_club_without_a_team(world: LeagueWorld) -> None:
    assert Client().get(url(world, world.club_c)).status_code == 404
    world.league.is_public = False
    world.league.save(update_fields=["is_public"])
    assert Client().get(url(world, world.team_a.club)).status_code == 404


def test_the_console_shows_the_division_code(world: LeagueWorld) -> None:
    club = world.team_a.club
    club.embed_origins = ["https://www.herzbube.de"]
    club.save(update_fields=["embed_origins"])
    web = Client()
    web.force_login(world.users["organiser"])
    page = web.get(f"/console/clubs/{club.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"/embed/clubs/{club.slug}/divisions/{world.division.pk}/" in page
    assert f"Bodensee-Liga: Tabelle der {world.division.name}" in page
