"""Issue 20, the league's season decisions (RULES.md, "League decisions for a whole
season") and the corrections an organiser needs without the admin: a team entered by
mistake is removed, a fixture list is withdrawn or remade while no match day has been
played, a player plays for one team of a league season only, a match day is not moved
onto a date on which one of its teams already plays or its venue is full, and the
fixture list is in date order after a move. API and console alike."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from tests.leagues.conftest import LeagueWorld
from tests.leagues.test_league_api import device_codes, open_day, play
from tests.support.clients import Client
from tournaments.clubs.models import Player
from tournaments.events import services
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, LeagueTeam, MatchDay

pytestmark = pytest.mark.django_db


def browser(world: LeagueWorld, role: str) -> Client:
    client = Client()
    client.force_login(world.users[role])
    return client


def texts(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def reserves(world: LeagueWorld, n: int = 2) -> list[Player]:
    club = world.team_a.club
    return [services.create_player(club=club, name=f"Reserve {i}") for i in range(1, n + 1)]


def second_division(world: LeagueWorld) -> tuple[Division, LeagueTeam]:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    team = leagues.enter_team(
        division=division, club_id=world.team_a.club_id, name="Herzbube II", roster=reserves(world)
    )
    return division, team


def at(day: int, hour: int = 19) -> datetime:
    return timezone.make_aware(datetime(2026, 10, day, hour, 0))


# --- 1. removing a team, withdrawing and remaking the fixture list -----------------------


def test_a_team_entered_by_mistake_is_removed_through_the_api(world: LeagueWorld) -> None:
    division, team = second_division(world)
    for role in ("other_organiser", "captain_a", "stranger"):
        reply = world.client(role).delete(f"/api/league-teams/{team.pk}/")
        assert reply.status_code == 403, role
    assert LeagueTeam.objects.filter(pk=team.pk).exists()
    reply = world.client("organiser").delete(f"/api/league-teams/{team.pk}/")
    assert reply.status_code == 204
    assert not LeagueTeam.objects.filter(pk=team.pk).exists()
    assert division.teams.count() == 0


def test_a_team_with_a_fixture_list_stays_until_the_list_is_withdrawn(world: LeagueWorld) -> None:
    client = world.client("league_organiser")
    reply = client.delete(f"/api/league-teams/{world.team_b.pk}/")
    assert reply.status_code == 409 and reply.data["code"] == "fixtures_made"
    assert "Oberliga" in reply.data["detail"]
    assert client.delete(f"/api/divisions/{world.division.pk}/fixtures/").status_code == 204
    assert not MatchDay.objects.exists()
    assert client.delete(f"/api/league-teams/{world.team_b.pk}/").status_code == 204
    assert list(world.division.teams.all()) == [world.team_a]


def test_the_fixture_list_is_remade_while_nothing_is_played(world: LeagueWorld) -> None:
    client = world.client("league_organiser")
    old = set(MatchDay.objects.values_list("pk", flat=True))
    body = {"remake": True, "first_day": "2026-10-02T19:00:00+02:00", "days_between": 7}
    reply = client.post(f"/api/divisions/{world.division.pk}/fixtures/", body, format="json")
    assert reply.status_code == 201, reply.data
    assert [d["round"] for d in reply.data] == [1, 2]
    days = MatchDay.objects.order_by("round")
    assert not old & {d.pk for d in days}
    assert [timezone.localtime(d.starts_at).day for d in days] == [2, 9]
    again = client.post(f"/api/divisions/{world.division.pk}/fixtures/", {}, format="json")
    assert again.status_code == 409 and again.data["code"] == "fixtures_made"


def test_a_played_match_day_fixes_the_fixture_list_in_words(world: LeagueWorld) -> None:
    open_day(world, world.first_day)
    client = world.client("league_organiser")
    url = f"/api/divisions/{world.division.pk}/fixtures/"
    for reply in (client.post(url, {"remake": True}, format="json"), client.delete(url)):
        assert reply.status_code == 409
        assert reply.data["code"] == "fixtures_played"
        assert "Herzbube I – Schellen I" in reply.data["detail"]
    assert MatchDay.objects.count() == 2
    assert MatchDay.objects.filter(status=MatchDay.Status.OPEN).count() == 1


def test_others_cannot_withdraw_or_remake_the_fixture_list(world: LeagueWorld) -> None:
    url = f"/api/divisions/{world.division.pk}/fixtures/"
    for role in ("organiser", "captain_a", "stranger"):
        client = world.client(role)
        assert client.delete(url).status_code == 403
        assert client.post(url, {"remake": True}, format="json").status_code == 403
    assert MatchDay.objects.count() == 2


def test_the_console_removes_a_team_after_the_box_is_ticked(world: LeagueWorld) -> None:
    division, team = second_division(world)
    client = browser(world, "organiser")
    page = client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert f"/console/league-teams/{team.pk}/remove/" in page
    assert f"/console/league-teams/{world.team_a.pk}/remove/" not in page  # it has fixtures
    url = f"/console/league-teams/{team.pk}/remove/"
    unticked = client.post(url)
    assert unticked.status_code == 302 and LeagueTeam.objects.filter(pk=team.pk).exists()
    assert "Setzen Sie das Häkchen" in " ".join(texts(unticked))
    assert browser(world, "other_organiser").post(url, {"confirm": "on"}).status_code == 403
    reply = client.post(url, {"confirm": "on"})
    assert reply.status_code == 302
    assert not LeagueTeam.objects.filter(pk=team.pk).exists()
    assert "Herzbube II" in " ".join(texts(reply))


def test_the_console_withdraws_and_remakes_the_fixture_list(world: LeagueWorld) -> None:
    client = browser(world, "league_organiser")
    page = client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert "remake-fixtures" in page and "remove-fixtures" in page
    prefix = f"remake-{world.division.pk}"
    body = {
        "division": world.division.pk,
        f"{prefix}-first_day": "2026-11-06T19:30",
        f"{prefix}-days_between": 21,
    }
    url = f"/console/leagues/{world.league.pk}/remake-fixtures/"
    assert client.post(url, body).status_code == 400  # the box is not ticked
    assert MatchDay.objects.filter(starts_at__isnull=True).count() == 2
    assert client.post(url, {**body, f"{prefix}-confirm": "on"}).status_code == 302
    days = MatchDay.objects.order_by("round")
    assert [timezone.localtime(d.starts_at).day for d in days] == [6, 27]
    url = f"/console/leagues/{world.league.pk}/remove-fixtures/"
    assert client.post(url, {"division": world.division.pk, "confirm": "on"}).status_code == 302
    assert not MatchDay.objects.exists()


def test_the_console_says_why_a_played_fixture_list_stays(world: LeagueWorld) -> None:
    open_day(world, world.first_day)
    client = browser(world, "league_organiser")
    page = client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert "remake-fixtures" not in page
    assert "ist gespielt: Der Spielplan kann nicht mehr neu erstellt werden" in page
    url = f"/console/leagues/{world.league.pk}/remove-fixtures/"
    reply = client.post(url, {"division": world.division.pk, "confirm": "on"})
    assert "Spieltag 1 (Herzbube I – Schellen I) ist gespielt" in " ".join(texts(reply))
    assert MatchDay.objects.count() == 2


# --- 2. one team per player in a league season --------------------------------------------


def test_a_player_plays_for_one_team_of_the_league(world: LeagueWorld) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    body = {
        "division": division.pk,
        "club": world.team_a.club_id,
        "name": "Herzbube II",
        "roster": [p.pk for p in [*reserves(world), world.players_a[1]]],
    }
    reply = world.client("organiser").post("/api/league-teams/", body, format="json")
    assert reply.status_code == 409
    assert reply.data["code"] == "player_on_other_team"
    assert world.players_a[1].name in reply.data["detail"]
    assert "Herzbube I" in reply.data["detail"]
    assert not LeagueTeam.objects.filter(name="Herzbube II").exists()


def test_a_roster_change_may_not_take_a_player_of_another_team(world: LeagueWorld) -> None:
    division, team = second_division(world)
    roster = [*team.roster.all(), world.players_a[0]]
    reply = world.client("organiser").patch(
        f"/api/league-teams/{team.pk}/", {"roster": [p.pk for p in roster]}, format="json"
    )
    assert reply.status_code == 409 and reply.data["code"] == "player_on_other_team"
    assert world.players_a[0] not in team.roster.all()
    own = world.client("organiser").patch(
        f"/api/league-teams/{world.team_a.pk}/",
        {"roster": [p.pk for p in world.players_a[:3]]},
        format="json",
    )
    assert own.status_code == 200, own.data  # a team's own players are no clash


def test_another_league_may_field_the_same_player(world: LeagueWorld) -> None:
    other = leagues.create_league(organiser=world.users["organiser"], name="Pokal", slug="pokal")
    division = leagues.create_division(league=other, name="Runde 1")
    team = leagues.enter_team(
        division=division, club_id=world.team_a.club_id, name="Herzbube", roster=world.players_a
    )
    assert set(team.roster.all()) == set(world.players_a)


def test_the_console_names_the_player_and_the_other_team(world: LeagueWorld) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    page = browser(world, "organiser").get(f"/console/leagues/{world.league.pk}/")
    html = page.content.decode()
    assert f"{world.players_a[2].name} (spielt für Herzbube I)" in html  # in the roster boxes
    team_page = browser(world, "organiser").get(f"/console/league-teams/{world.team_a.pk}/")
    assert "spielt für" not in team_page.content.decode()  # its own players are free
    club_id = world.team_a.club_id
    prefix = f"team-{club_id}"
    body = {
        "club": club_id,
        f"{prefix}-division": division.pk,
        f"{prefix}-name": "Herzbube II",
        f"{prefix}-roster": [world.players_a[2].pk],
    }
    reply = browser(world, "organiser").post(f"/console/leagues/{world.league.pk}/team/", body)
    message = " ".join(texts(reply))
    assert f"{world.players_a[2].name} spielt in dieser Liga schon für Herzbube I" in message
    assert not LeagueTeam.objects.filter(name="Herzbube II").exists()


# --- 4. clashes ---------------------------------------------------------------------------


def test_a_team_plays_one_match_day_a_date(world: LeagueWorld) -> None:
    client = world.client("league_organiser")
    first, second = MatchDay.objects.order_by("round")
    assert (
        client.patch(
            f"/api/match-days/{first.pk}/", {"starts_at": at(3).isoformat()}, format="json"
        ).status_code
        == 200
    )
    reply = client.patch(
        f"/api/match-days/{second.pk}/", {"starts_at": at(3, 11).isoformat()}, format="json"
    )
    assert reply.status_code == 409
    assert reply.data["code"] == "team_clash"
    assert "already plays on" in reply.data["detail"] and "match day 1" in reply.data["detail"]
    second.refresh_from_db()
    assert second.starts_at is None
    moved = client.patch(
        f"/api/match-days/{second.pk}/", {"starts_at": at(4).isoformat()}, format="json"
    )
    assert moved.status_code == 200


def test_a_venue_hosts_as_many_match_days_as_it_has_tables_for(world: LeagueWorld) -> None:
    division, _team = second_division(world)
    leagues.enter_team(
        division=division,
        club_id=world.club_c.pk,
        name="Eichel I",
        roster=[services.create_player(club=world.club_c, name=f"Eichel {i}") for i in (1, 2)],
    )
    leagues.make_fixtures(division=division)
    club = world.team_a.club
    club.venue_tables = 1
    club.save(update_fields=["venue_tables"])
    home_a = MatchDay.objects.get(division=world.division, home=world.team_a)
    home_a2 = MatchDay.objects.get(division=division, home__club=club)
    client = world.client("league_organiser")
    body = {"starts_at": at(10).isoformat()}
    assert client.patch(f"/api/match-days/{home_a.pk}/", body, format="json").status_code == 200
    reply = client.patch(f"/api/match-days/{home_a2.pk}/", body, format="json")
    assert reply.status_code == 409 and reply.data["code"] == "venue_full"
    assert club.name in reply.data["detail"]
    elsewhere = {**body, "venue": "Gasthaus Krone"}
    moved = client.patch(f"/api/match-days/{home_a2.pk}/", elsewhere, format="json")
    assert moved.status_code == 200
    club.venue_tables = 2  # the default
    club.save(update_fields=["venue_tables"])
    back = {**body, "venue": club.name}
    assert client.patch(f"/api/match-days/{home_a2.pk}/", back, format="json").status_code == 200


def test_a_venue_full_with_two_divisions_is_refused_as_full_not_as_a_team_clash(
    world: LeagueWorld,
) -> None:
    """Club A's venue (two match days at once, the default) hosts a match day of each
    division on the 10th; the other match day of the first division, moved to the 10th at
    that venue, is refused as ``venue_full`` although its teams also play that date;
    moved to the 10th at its own venue, as ``team_clash``."""
    division, _team = second_division(world)
    leagues.enter_team(
        division=division,
        club_id=world.club_c.pk,
        name="Eichel I",
        roster=[services.create_player(club=world.club_c, name=f"Eichel {i}") for i in (1, 2)],
    )
    leagues.make_fixtures(division=division)
    club = world.team_a.club
    assert club.venue_tables == 2
    client = world.client("league_organiser")
    body = {"starts_at": at(10).isoformat()}
    for day in (
        MatchDay.objects.get(division=world.division, home=world.team_a),
        MatchDay.objects.get(division=division, home__club=club),
    ):
        assert client.patch(f"/api/match-days/{day.pk}/", body, format="json").status_code == 200
    hosted = MatchDay.objects.filter(starts_at__date=at(10).date(), venue__iexact=club.name)
    assert sorted(hosted.values_list("division_id", flat=True)) == sorted(
        [world.division.pk, division.pk]
    )
    other = MatchDay.objects.get(division=world.division, home=world.team_b)
    at_a = {**body, "venue": club.name}
    reply = client.patch(f"/api/match-days/{other.pk}/", at_a, format="json")
    assert (reply.status_code, reply.data["code"]) == (409, "venue_full")
    assert reply.data["detail"] == (
        f"{club.name} already hosts 2 match days on 10/10/2026 and has tables for 2 at once."
    )
    at_home = client.patch(f"/api/match-days/{other.pk}/", body, format="json")
    assert (at_home.status_code, at_home.data["code"]) == (409, "team_clash")
    other.refresh_from_db()
    assert other.starts_at is None and other.venue != club.name


def test_the_console_refuses_a_clash_in_words(world: LeagueWorld) -> None:
    first, second = MatchDay.objects.order_by("round")
    leagues.update_match_day(match_day=first, changes={"starts_at": at(3)})
    client = browser(world, "league_organiser")
    reply = client.post(
        f"/console/match-days/{second.pk}/update/", {"starts_at": "2026-10-03T11:00", "venue": "X"}
    )
    assert reply.status_code == 302
    assert "Schellen I spielt am 03.10.2026 schon" in " ".join(texts(reply))
    second.refresh_from_db()
    assert (second.starts_at, second.venue) == (None, world.team_b.club.name)


# --- 5. the fixture list in date order ----------------------------------------------------


def test_a_moved_match_day_takes_its_place_by_date_everywhere(world: LeagueWorld) -> None:
    first, second = MatchDay.objects.order_by("round")
    leagues.update_match_day(match_day=first, changes={"starts_at": at(20)})
    leagues.update_match_day(match_day=second, changes={"starts_at": at(6)})  # moved forward
    api = world.client("stranger").get(f"/api/match-days/?division={world.division.pk}")
    rows = api.data["results"] if isinstance(api.data, dict) else api.data
    assert [row["round"] for row in rows] == [2, 1]
    client = browser(world, "league_organiser")
    page = client.get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert page.index(f'id="day-{second.pk}"') < page.index(f'id="day-{first.pk}"')
    public = client.get(f"/leagues/{world.league.slug}/").content.decode()
    link = f'<td><a href="/leagues/{world.league.slug}/teams/%s/">%s</a></td>'
    a, b = link % (world.team_a.pk, "Herzbube I"), link % (world.team_b.pk, "Schellen I")
    assert public.index(f"{b}\n    {a}") < public.index(f"{a}\n    {b}")
    body = client.get(f"/leagues/{world.league.slug}/fixtures.csv").content.decode("utf-8-sig")
    rounds = [row[1] for row in csv.reader(io.StringIO(body), delimiter=";")][1:]  # German CSV
    assert rounds == ["2", "1"]


# --- 7. the captains read the deals of their match days ------------------------------------


def played_first_sitting(world: LeagueWorld) -> list[int]:
    """The first match day with its first sitting played (four deals a table)."""
    body = open_day(world, world.first_day)
    codes = device_codes(world.client("organiser"), body)
    for match, code in codes.items():
        play(match, code, home_wins=True)
    return sorted(codes)


def test_the_captains_read_the_deals_they_confirm(world: LeagueWorld) -> None:
    matches = played_first_sitting(world)
    for role in ("captain_a", "captain_b", "league_organiser", "organiser"):
        reply = world.client(role).get(f"/api/matches/{matches[0]}/deals/")
        assert reply.status_code == 200, role
        rows = reply.data["results"] if isinstance(reply.data, dict) else reply.data
        assert [row["number"] for row in rows] == [1, 2, 3, 4]
        one = world.client(role).get(f"/api/matches/{matches[0]}/deals/1/")
        assert one.status_code == 200, role
    for role in ("stranger", "other_organiser", "anonymous"):
        assert world.client(role).get(f"/api/matches/{matches[0]}/deals/").status_code == 404
        assert world.client(role).get(f"/api/matches/{matches[0]}/deals/1/").status_code == 404


def test_the_captains_read_the_deals_on_the_match_days_page(world: LeagueWorld) -> None:
    played_first_sitting(world)
    url = f"/console/match-days/{world.first_day.pk}/deals/"
    for role in ("captain_a", "captain_b", "league_organiser", "organiser"):
        client = browser(world, role)
        day_page = client.get(f"/console/match-days/{world.first_day.pk}/").content.decode()
        assert url in day_page, role
        page = client.get(url)
        assert page.status_code == 200, role
        html = page.content.decode()
        assert html.count('class="card partie-deals"') == 2
        assert html.count('<td class="rank">') == 8  # four deals at each of the two tables
        assert world.players_a[0].name in html
    assert browser(world, "stranger").get(url).status_code == 403
    day_page = browser(world, "stranger").get(f"/console/match-days/{world.first_day.pk}/")
    assert url not in day_page.content.decode()
