"""The league of clubs through the API: who may create, enter, schedule, open, confirm
and accept, each refused role answered 403 or 404 with nothing changed; a match day
played on the home club's tablets from the opening of its tables to the final result."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import client_for
from tests.factories import summary_record
from tests.leagues.conftest import ROLES, LeagueWorld, pairs_body
from tests.support.clients import APIClient
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayConfirmation

pytestmark = pytest.mark.django_db


def others(*allowed: str) -> list[str]:
    return [role for role in ROLES if role not in allowed]


# --- leagues and divisions ------------------------------------------------------------------


@pytest.mark.parametrize("role", ["stranger", "anonymous", "captain_a"])
def test_only_a_club_organiser_creates_a_league(world: LeagueWorld, role: str) -> None:
    body = {"name": "Hegau-Liga", "slug": "hegau"}
    reply = world.client(role).post("/api/leagues/", body, format="json")
    assert reply.status_code in (401, 403)
    assert not League.objects.filter(slug="hegau").exists()


def test_a_club_organiser_creates_a_league_and_runs_it(world: LeagueWorld) -> None:
    reply = world.client("organiser").post(
        "/api/leagues/", {"name": "Hegau-Liga", "slug": "hegau", "season": "2025/26"}, format="json"
    )
    assert reply.status_code == 201, reply.data
    assert reply.data["organisers"] == ["organiser"]
    league = League.objects.get(slug="hegau")
    assert list(league.organisers.values_list("username", flat=True)) == ["organiser"]
    duplicate = world.client("other_organiser").post(
        "/api/leagues/", {"name": "X", "slug": "hegau"}, format="json"
    )
    assert duplicate.status_code in (400, 409)


@pytest.mark.parametrize("role", others("league_organiser"))
def test_others_cannot_change_the_league_or_add_divisions(world: LeagueWorld, role: str) -> None:
    client = world.client(role)
    reply = client.patch(f"/api/leagues/{world.league.pk}/", {"name": "Mine"}, format="json")
    assert reply.status_code in (401, 403)
    reply = client.post(
        "/api/divisions/", {"league": world.league.pk, "name": "Kreisliga"}, format="json"
    )
    assert reply.status_code in (401, 403)
    reply = client.post(f"/api/divisions/{world.division.pk}/fixtures/", {}, format="json")
    assert reply.status_code in (401, 403)
    world.league.refresh_from_db()
    assert world.league.name == "Bodensee-Liga"
    assert Division.objects.count() == 1
    assert MatchDay.objects.count() == 2


def test_the_league_organiser_adds_a_division(world: LeagueWorld) -> None:
    client = world.client("league_organiser")
    reply = client.post(
        "/api/divisions/",
        {"league": world.league.pk, "name": "Kreisliga", "order": 2},
        format="json",
    )
    assert reply.status_code == 201, reply.data
    assert Division.objects.filter(league=world.league, name="Kreisliga").exists()
    again = client.post(f"/api/divisions/{world.division.pk}/fixtures/", {}, format="json")
    assert again.status_code == 409
    assert again.data["code"] == "fixtures_made"


def test_a_private_league_is_not_there_for_others(world: LeagueWorld) -> None:
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    for role in ("stranger", "anonymous", "organiser"):
        client = world.client(role)
        assert client.get(f"/api/leagues/{world.league.pk}/").status_code == 404
        assert client.get(f"/api/divisions/{world.division.pk}/table/").status_code == 404
        assert client.get(f"/api/match-days/{world.first_day.pk}/").status_code == 404
    boss = world.client("league_organiser")
    assert boss.get(f"/api/leagues/{world.league.pk}/").status_code == 200


# --- teams ----------------------------------------------------------------------------------


def test_a_club_enters_a_team_of_its_players(world: LeagueWorld, club_a: Any) -> None:
    division = Division.objects.create(league=world.league, name="Kreisliga", order=2)
    # the players of team A play for no other team of the league (RULES.md, "Eligibility")
    second = [services.create_player(club=club_a, name=f"Reserve {i}") for i in (1, 2)]
    body = {
        "division": division.pk,
        "club": club_a.pk,
        "name": "Herzbube II",
        "captain": "captain_a",
        "roster": [p.pk for p in second],
    }
    refused = world.client("organiser").post(
        "/api/league-teams/", {**body, "roster": [world.players_b[0].pk]}, format="json"
    )
    assert refused.status_code == 400
    assert refused.data["code"] == "not_a_member"
    for role in others("organiser"):
        assert world.client(role).post("/api/league-teams/", body, format="json").status_code in (
            401,
            403,
        )
    assert not LeagueTeam.objects.filter(name="Herzbube II").exists()
    reply = world.client("organiser").post("/api/league-teams/", body, format="json")
    assert reply.status_code == 201, reply.data
    assert reply.data["roster_names"] == [p.name for p in second]


def test_no_team_enters_after_the_fixtures_are_made(world: LeagueWorld, club_a: Any) -> None:
    body = {"division": world.division.pk, "club": club_a.pk, "name": "Herzbube II"}
    reply = world.client("organiser").post("/api/league-teams/", body, format="json")
    assert reply.status_code == 409
    assert reply.data["code"] == "fixtures_made"


@pytest.mark.parametrize("role", others("organiser"))
def test_only_the_teams_club_changes_it(world: LeagueWorld, role: str) -> None:
    reply = world.client(role).patch(
        f"/api/league-teams/{world.team_a.pk}/",
        {"name": "Gekapert", "captain": "stranger"},
        format="json",
    )
    assert reply.status_code in (401, 403)
    world.team_a.refresh_from_db()
    assert (world.team_a.name, world.team_a.captain.username) == ("Herzbube I", "captain_a")


def test_the_club_changes_its_roster_within_the_club(world: LeagueWorld) -> None:
    client = world.client("organiser")
    url = f"/api/league-teams/{world.team_a.pk}/"
    reply = client.patch(url, {"roster": [p.pk for p in world.players_a[:3]]}, format="json")
    assert reply.status_code == 200
    assert world.team_a.roster.count() == 3
    reply = client.patch(url, {"roster": [world.players_b[0].pk]}, format="json")
    assert reply.status_code == 400
    assert world.team_a.roster.count() == 3


# --- the fixture list -----------------------------------------------------------------------


def test_fixtures_are_a_double_round_robin_at_the_home_clubs(world: LeagueWorld) -> None:
    reply = world.client("anonymous").get(f"/api/match-days/?division={world.division.pk}")
    assert reply.status_code == 200
    days = reply.data["results"]
    assert [(d["round"], d["home"]["name"], d["away"]["name"], d["venue"]) for d in days] == [
        (1, "Herzbube I", "Schellen I", "KC Herzbube"),
        (2, "Schellen I", "Herzbube I", "KC Schellen"),
    ]


@pytest.mark.parametrize("role", others("league_organiser"))
def test_only_the_league_moves_a_match_day(world: LeagueWorld, role: str) -> None:
    day = world.first_day
    reply = world.client(role).patch(
        f"/api/match-days/{day.pk}/", {"venue": "Anderswo"}, format="json"
    )
    assert reply.status_code in (401, 403)
    day.refresh_from_db()
    assert day.venue == "KC Herzbube"


def test_the_league_moves_a_match_day(world: LeagueWorld) -> None:
    day = world.first_day
    reply = world.client("league_organiser").patch(
        f"/api/match-days/{day.pk}/",
        {"venue": "Gasthaus Krone, Konstanz", "starts_at": "2025-10-04T19:00:00+02:00"},
        format="json",
    )
    assert reply.status_code == 200, reply.data
    day.refresh_from_db()
    assert day.venue == "Gasthaus Krone, Konstanz"
    assert day.starts_at is not None


# --- a match day at the home venue ----------------------------------------------------------


@pytest.mark.parametrize("role", others("organiser"))
def test_only_the_home_club_opens_the_tables(world: LeagueWorld, role: str) -> None:
    day = world.first_day
    reply = world.client(role).post(
        f"/api/match-days/{day.pk}/open/", pairs_body(world, home=day.home), format="json"
    )
    assert reply.status_code in (401, 403)
    day.refresh_from_db()
    assert day.status == MatchDay.Status.SCHEDULED
    assert Tournament.objects.count() == 0


def test_pairs_come_from_the_rosters(world: LeagueWorld) -> None:
    day = world.first_day
    body = pairs_body(world, home=day.home)
    body["away_pairs"][0][0] = world.players_a[0].pk
    reply = world.client("organiser").post(f"/api/match-days/{day.pk}/open/", body, format="json")
    assert reply.status_code == 400
    assert reply.data["code"] == "not_on_roster"
    body = pairs_body(world, home=day.home)
    body["home_pairs"][1][0] = body["home_pairs"][0][0]
    reply = world.client("organiser").post(f"/api/match-days/{day.pk}/open/", body, format="json")
    assert reply.data["code"] == "bad_pairs"
    assert Tournament.objects.count() == 0


def open_day(world: LeagueWorld, day: MatchDay) -> dict[str, Any]:
    home_organiser = client_for(day.home.club.organisers.first())
    reply = home_organiser.post(
        f"/api/match-days/{day.pk}/open/", pairs_body(world, home=day.home), format="json"
    )
    assert reply.status_code == 200, reply.data
    return reply.data


def device_codes(client: APIClient, body: dict[str, Any]) -> dict[int, str]:
    """Per match id of the open sitting, the code the home organiser issued for its table."""
    codes = {}
    sitting = max(p["sitting"] for p in body["live"]["partien"])
    for partie in [p for p in body["live"]["partien"] if p["sitting"] == sitting]:
        reply = client.post(f"/api/tables/{partie['table_id']}/device-credential/")
        assert reply.status_code == 201, reply.data
        codes[partie["match"]] = reply.data["code"]
    return codes


def play(match: int, code: str, *, home_wins: bool) -> None:
    """A Liga-Partie of summary records: the away team declares every deal; it fails
    (home takes all 164: 16 Augen) or makes it (144:20, 14:2) four times: 64 or 56."""
    tablet = client_for(device_code=code)
    for number in range(1, 5):
        points = 100 if home_wins else 20
        record = summary_record(dealer=number - 1, declarer=1, team0_points=points)
        reply = tablet.post(
            f"/api/matches/{match}/deals/{number}/",
            record,
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert reply.status_code == 201, reply.data
    assert Match.objects.get(pk=match).status == Match.Status.FINISHED


def play_day(world: LeagueWorld, day: MatchDay, home_wins: tuple[bool, ...]) -> dict[str, Any]:
    """Open the match day, play sitting 1 (Partien 1, 2), start sitting 2, play it."""
    home_organiser = client_for(day.home.club.organisers.first())
    body = open_day(world, day)
    for sitting in (1, 2):
        if sitting == 2:
            reply = home_organiser.post(f"/api/match-days/{day.pk}/second-sitting/")
            assert reply.status_code == 200, reply.data
            body = reply.data
        codes = device_codes(home_organiser, body)
        for partie in body["live"]["partien"]:
            if partie["sitting"] == sitting:
                play(
                    partie["match"],
                    codes[partie["match"]],
                    home_wins=home_wins[partie["number"] - 1],
                )
    return body


def test_a_match_day_from_the_tables_to_the_final_result(world: LeagueWorld) -> None:
    day = world.first_day
    body = open_day(world, day)
    assert body["status"] == "open"
    a, b = [p.name for p in world.players_a], [p.name for p in world.players_b]
    assert [(p["home_pair"], p["away_pair"]) for p in body["live"]["partien"]] == [
        (a[:2], b[:2]),
        (a[2:], b[2:]),
    ]
    tournament = Tournament.objects.get(pk=body["tournament"])
    assert (tournament.club_id, tournament.is_public, tournament.liga_target) == (
        world.team_a.club_id,
        False,
        51,
    )
    other_club = client_for(world.users["other_organiser"])
    table_id = body["live"]["partien"][0]["table_id"]
    assert other_club.post(f"/api/tables/{table_id}/device-credential/").status_code == 404
    url = f"/api/match-days/{day.pk}/"
    for role in others("organiser"):
        assert world.client(role).post(url + "second-sitting/").status_code in (401, 403)
    assert world.client("organiser").post(url + "second-sitting/").status_code == 409
    early = world.client("captain_a").post(url + "confirm/", {"side": "home"}, format="json")
    assert early.status_code == 409
    assert early.data["code"] == "match_day_unfinished"
    Tournament.objects.filter(pk=tournament.pk).delete()  # start again, played in full
    MatchDay.objects.filter(pk=day.pk).update(status=MatchDay.Status.SCHEDULED, pairs={})
    day.refresh_from_db()

    body = play_day(world, day, (True, True, False, True))
    assert [(p["home_pair"], p["away_pair"]) for p in body["live"]["partien"]] == [
        (a[:2], b[:2]),
        (a[2:], b[2:]),
        (a[:2], b[2:]),
        (a[2:], b[:2]),
    ]
    tournament = Tournament.objects.get(pk=body["tournament"])
    live = world.client("anonymous").get(f"/api/match-days/{day.pk}/").data["live"]
    assert (live["complete"], live["home_partien"], live["away_partien"]) == (True, 3, 1)
    assert (live["home_augen"], live["away_augen"]) == (3 * 64 + 8, 56)

    for role, side in (
        ("captain_b", "home"),
        ("captain_a", "away"),
        ("stranger", "home"),
        ("other_organiser", "venue"),
        ("league_organiser", "venue"),
        ("anonymous", "home"),
    ):
        reply = world.client(role).post(url + "confirm/", {"side": side}, format="json")
        assert reply.status_code in (401, 403), (role, side)
    assert MatchDayConfirmation.objects.count() == 0
    reply = world.client("captain_a").post(url + "confirm/", {"side": "home"}, format="json")
    assert reply.status_code == 200
    assert (reply.data["status"], reply.data["confirmations"]) == ("open", ["home"])
    assert world.client("league_organiser").post(url + "accept/").status_code == 409
    reply = world.client("captain_b").post(url + "confirm/", {"side": "away"}, format="json")
    assert reply.data["status"] == "confirmed"
    assert reply.data["result"] == {
        "home_partien": 3,
        "away_partien": 1,
        "home_augen": 200,
        "away_augen": 56,
    }

    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [row["played"] for row in table] == [0, 0]  # only final results count
    for role in others("league_organiser"):
        assert world.client(role).post(url + "accept/").status_code in (401, 403)
    assert world.client("league_organiser").post(url + "accept/").status_code == 200
    day.refresh_from_db()
    assert day.status == MatchDay.Status.FINAL
    assert set(Round.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        Round.Status.CLOSED
    }
    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [
        (r["name"], r["points"], r["partien_difference"], r["augen_difference"]) for r in table
    ] == [("Herzbube I", 2, 2, 144), ("Schellen I", 0, -2, -144)]
    late = world.client("league_organiser").patch(url, {"venue": "X"}, format="json")
    assert late.status_code == 409


def test_the_venue_confirms_for_both_and_a_correction_needs_new_confirmations(
    world: LeagueWorld,
) -> None:
    day = world.first_day
    body = play_day(world, day, (True,) * 4)
    url = f"/api/match-days/{day.pk}/"
    reply = world.client("organiser").post(url + "confirm/", {"side": "venue"}, format="json")
    assert reply.data["status"] == "confirmed"
    # the organiser corrects deal 4 of table 1: home now fails it, the Partie is not won yet
    match = body["live"]["partien"][0]["match"]
    correction = world.client("organiser").put(
        f"/api/matches/{match}/deals/4/",
        summary_record(dealer=3, declarer=1, team0_points=20),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_IF_MATCH='"1"',
    )
    assert correction.status_code == 200, correction.data
    reply = world.client("league_organiser").post(url + "accept/")
    assert reply.status_code == 409
    assert reply.data["code"] == "result_changed"
    assert MatchDay.objects.get(pk=day.pk).status == MatchDay.Status.CONFIRMED


def test_the_league_organiser_sends_a_confirmed_result_back_with_a_reason(
    world: LeagueWorld,
) -> None:
    day = world.first_day
    play_day(world, day, (True,) * 4)
    url = f"/api/match-days/{day.pk}/"
    reason = {"reason": "Tisch 2, Spiel 5: Bella fehlt"}
    too_early = world.client("league_organiser").post(url + "send-back/", reason, format="json")
    assert (too_early.status_code, too_early.data["code"]) == (409, "match_day_unconfirmed")
    world.client("organiser").post(url + "confirm/", {"side": "venue"}, format="json")

    for role in others("league_organiser"):
        reply = world.client(role).post(url + "send-back/", reason, format="json")
        assert reply.status_code in (401, 403), role
    for bad in ({}, {"reason": "   "}, {"reason": "Bella\u202efehlt"}, {"reason": "x" * 501}):
        reply = world.client("league_organiser").post(url + "send-back/", bad, format="json")
        assert reply.status_code == 400, bad
        assert reply.data["code"] in ("invalid", "reason_missing"), reply.data
    day.refresh_from_db()
    assert (day.status, day.sent_back_reason) == (MatchDay.Status.CONFIRMED, "")
    assert MatchDayConfirmation.objects.filter(match_day=day).count() == 1

    reply = world.client("league_organiser").post(url + "send-back/", reason, format="json")
    assert reply.status_code == 200, reply.data
    assert (reply.data["status"], reply.data["confirmations"]) == ("open", [])
    assert reply.data["sent_back_reason"] == reason["reason"]
    assert reply.data["sent_back_at"]
    refused = world.client("league_organiser").post(url + "accept/")
    assert (refused.status_code, refused.data["code"]) == (409, "match_day_unconfirmed")
    again = world.client("league_organiser").post(url + "send-back/", reason, format="json")
    assert (again.status_code, again.data["code"]) == (409, "match_day_unconfirmed")
    public = world.client("anonymous").get(url).data
    assert (public["status"], public["sent_back_reason"]) == ("open", reason["reason"])

    world.client("captain_a").post(url + "confirm/", {"side": "home"}, format="json")
    reply = world.client("captain_b").post(url + "confirm/", {"side": "away"}, format="json")
    assert reply.data["status"] == "confirmed"
    reply = world.client("league_organiser").post(url + "accept/")
    assert reply.status_code == 200
    assert (reply.data["status"], reply.data["sent_back_reason"]) == ("final", "")
    late = world.client("league_organiser").post(url + "send-back/", reason, format="json")
    assert (late.status_code, late.data["code"]) == (409, "match_day_final")
