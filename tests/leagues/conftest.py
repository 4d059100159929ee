"""Personas of the league of clubs: a league organiser (of a third club), the organisers
of club A (home of team A) and club B, the captains of teams A and B, a stranger and an
anonymous visitor; a league with one division, teams A and B of four players each, and
its fixture list (A–B on Spieltag 1, B–A on Spieltag 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import client_for
from tests.factories import ClubFactory, UserFactory
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, Player
from tournaments.events import services
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay


@dataclass
class LeagueWorld:
    league: League
    division: Division
    team_a: LeagueTeam
    team_b: LeagueTeam
    players_a: list[Player]
    players_b: list[Player]
    club_c: Club
    users: dict[str, Any]

    @property
    def first_day(self) -> MatchDay:  # A at home
        return MatchDay.objects.get(home=self.team_a)

    def client(self, role: str) -> APIClient:
        return client_for(self.users.get(role))


ROLES = [
    "league_organiser",
    "organiser",
    "other_organiser",
    "captain_a",
    "captain_b",
    "stranger",
    "anonymous",
]


def roster(club: Club, n: int = 4) -> list[Player]:
    return [services.create_player(club=club, name=f"{club.name} {i}") for i in range(1, n + 1)]


@pytest.fixture
def world(club_a: Club, club_b: Club, organiser: Any, other_organiser: Any, stranger: Any) -> Any:
    club_c = ClubFactory(name="KC Eichel", slug="eichel")
    boss = UserFactory(username="league_boss")
    club_c.organisers.add(boss)
    captain_a, captain_b = UserFactory(username="captain_a"), UserFactory(username="captain_b")
    league = leagues.create_league(organiser=boss, name="Bodensee-Liga", slug="bodensee")
    division = leagues.create_division(league=league, name="Oberliga")
    players_a, players_b = roster(club_a), roster(club_b)
    team_a = leagues.enter_team(
        division=division,
        club_id=club_a.pk,
        name="Herzbube I",
        captain=captain_a,
        roster=players_a,
    )
    team_b = leagues.enter_team(
        division=division,
        club_id=club_b.pk,
        name="Schellen I",
        captain=captain_b,
        roster=players_b,
    )
    leagues.make_fixtures(division=division)
    users = {
        "league_organiser": boss,
        "organiser": organiser,
        "other_organiser": other_organiser,
        "captain_a": captain_a,
        "captain_b": captain_b,
        "stranger": stranger,
    }
    return LeagueWorld(league, division, team_a, team_b, players_a, players_b, club_c, users)


def pairs_body(world: LeagueWorld, *, home: LeagueTeam | None = None) -> dict[str, Any]:
    a = [p.pk for p in world.players_a]
    b = [p.pk for p in world.players_b]
    if home is not None and home.pk == world.team_b.pk:
        a, b = b, a
    return {"home_pairs": [a[:2], a[2:]], "away_pairs": [b[:2], b[2:]]}
