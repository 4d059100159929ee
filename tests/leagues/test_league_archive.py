"""Past league seasons are locked (issue 23: "past seasons stay readable"): once the next
season has been created from a season, its results (deals, confirmations, forfeits),
rosters and fixtures are refused with the stable code ``season_archived`` and words, in
the API and in the console; the new season stays open."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages

from tests.leagues.conftest import LeagueWorld
from tests.leagues.test_league_season_api import finish, second_day
from tests.support.clients import Client
from tournaments.common.errors import Conflict
from tournaments.events.models import Match
from tournaments.leagues import season as league_season
from tournaments.leagues import services as leagues
from tournaments.leagues.models import League

pytestmark = pytest.mark.django_db


@pytest.fixture
def archived(world: LeagueWorld) -> League:
    """The season played (day 1 at the tables, day 2 forfeited), then the next one made."""
    boss = world.users["league_organiser"]
    finish(world, world.first_day, (True, True, False, True))
    league_season.record_forfeit(
        match_day=second_day(world), team=world.team_b, reason="x", user=boss
    )
    return league_season.next_season(league=world.league, season="2027/28", slug="b27", user=boss)


def test_the_api_refuses_a_roster_change_of_a_past_season(
    world: LeagueWorld, archived: League
) -> None:
    before = set(world.team_a.roster.all())
    reply = world.client("organiser").patch(
        f"/api/league-teams/{world.team_a.pk}/",
        {"roster": [p.pk for p in world.players_a[1:]]},
        format="json",
    )
    assert reply.status_code == 409
    assert reply.data["code"] == "season_archived"
    assert "archived" in reply.data["detail"]
    assert set(world.team_a.roster.all()) == before


def test_a_deal_of_a_past_season_cannot_be_corrected(world: LeagueWorld, archived: League) -> None:
    world.first_day.refresh_from_db()
    match = Match.objects.filter(round__tournament=world.first_day.tournament).first()
    assert match is not None
    deal = match.deals.get(number=1)
    current = deal.versions.get(is_current=True)
    reply = world.client("organiser").put(
        f"/api/matches/{match.pk}/deals/1/",
        current.record,
        format="json",
        HTTP_IF_MATCH=f'"{current.version}"',
        HTTP_IDEMPOTENCY_KEY="archived-1",
    )
    assert reply.status_code == 409, reply.data
    assert reply.data["code"] == "season_archived"


def test_fixtures_and_the_season_end_are_refused(world: LeagueWorld, archived: League) -> None:
    for change in (
        lambda: leagues.make_fixtures(division=world.division, remake=True),
        lambda: leagues.remove_team(team=world.team_b),
        lambda: leagues.create_division(league=world.league, name="Kreisliga"),
        lambda: league_season.settle_season(league=world.league, user=None),
        lambda: league_season.withdraw_team(team=world.team_b, user=None),
    ):
        with pytest.raises(Conflict) as refused:
            change()
        assert refused.value.code == "season_archived"
    assert world.division.match_days.count() == 2


def test_the_console_says_so_and_the_new_season_stays_open(
    world: LeagueWorld, archived: League
) -> None:
    client = Client()
    client.force_login(world.users["league_organiser"])
    page = client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert 'id="season-archived"' in page and "archiviert" in page
    assert f'href="/console/leagues/{archived.pk}/"' in page
    organiser = Client()
    organiser.force_login(world.users["organiser"])
    body = {
        "name": "Herzbube neu",
        "captain": "captain_a",
        "roster": [p.pk for p in world.players_a],
    }
    reply = organiser.post(f"/console/league-teams/{world.team_a.pk}/", body)
    words = " ".join(str(m) for m in get_messages(reply.wsgi_request))
    assert "archiviert" in words or "archiviert" in reply.content.decode()
    world.team_a.refresh_from_db()
    assert world.team_a.name != "Herzbube neu"
    carried = archived.divisions.get().teams.get(name=world.team_a.name)
    leagues.update_team(team=carried, changes={"name": "Herzbube neu"})
    carried.refresh_from_db()
    assert carried.name == "Herzbube neu"


def test_no_missing_deal_is_entered_into_a_past_season(
    world: LeagueWorld, archived: League
) -> None:
    match = Match.objects.filter(round__tournament=world.first_day.tournament).first()
    assert match is not None
    last = match.deals.order_by("-number").first()
    assert last is not None
    record = last.versions.get(is_current=True).record
    reply = world.client("organiser").post(
        f"/api/matches/{match.pk}/deals/{last.number + 1}/",
        {**record, "dealer": (record["dealer"] + 1) % 4},
        format="json",
        HTTP_IDEMPOTENCY_KEY="archived-2",
    )
    assert reply.status_code == 409, reply.data
    assert reply.data["code"] == "season_archived"
