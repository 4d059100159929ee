"""Issue 23, a whole league season through the API (RULES.md, "League decisions for a
whole season"): eligibility by who has played, substitutes named at the table, forfeits,
postponements asked, answered and decided, the season settled after its last date, a
team's withdrawal (struck or the rest forfeited), the player ranking and the next season
with promotion and relegation."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from django.utils import timezone

from tests.leagues.conftest import LeagueWorld, pairs_body
from tests.leagues.test_league_api import open_day, play_day
from tournaments.clubs.models import ClubMembership
from tournaments.events import services
from tournaments.events.models import Round
from tournaments.leagues import league_table
from tournaments.leagues import season as league_season
from tournaments.leagues import services as leagues
from tournaments.leagues.league_ranking import PartiePlayed, player_ranking
from tournaments.leagues.models import League, LeagueTeam, MatchDay, MatchDayPostponement

pytestmark = pytest.mark.django_db


def at(day: int, hour: int = 19, month: int = 10) -> datetime:
    return timezone.make_aware(datetime(2026, month, day, hour, 0))


def finish(world: LeagueWorld, day: MatchDay, home_wins: tuple[bool, ...]) -> None:
    """Play the match day in full, the venue confirms, the league accepts."""
    play_day(world, day, home_wins)
    url = f"/api/match-days/{day.pk}/"
    assert (
        world.client("organiser" if day.home_id == world.team_a.pk else "other_organiser")
        .post(url + "confirm/", {"side": "venue"}, format="json")
        .data["status"]
        == "confirmed"
    )
    assert world.client("league_organiser").post(url + "accept/").status_code == 200


def second_day(world: LeagueWorld) -> MatchDay:
    return MatchDay.objects.get(home=world.team_b)


# --- 1. eligibility -----------------------------------------------------------------------


def test_a_player_who_has_played_may_not_join_another_team(world: LeagueWorld) -> None:
    open_day(world, world.first_day)
    mover = world.players_a[0]
    leagues.update_team(team=world.team_a, changes={"roster": world.players_a[1:]})
    ClubMembership.objects.create(club=world.team_b.club, player=mover)  # joins club B too
    reply = world.client("other_organiser").patch(
        f"/api/league-teams/{world.team_b.pk}/",
        {"roster": [p.pk for p in [*world.players_b, mover]]},
        format="json",
    )
    assert reply.status_code == 409
    assert reply.data["code"] == "player_played_for_other_team"
    assert f"{mover.name} has played for Herzbube I" in reply.data["detail"]
    assert mover not in world.team_b.roster.all()


def test_a_club_player_on_no_roster_may_be_fielded_and_joins_the_roster(
    world: LeagueWorld,
) -> None:
    day = world.first_day
    substitute = services.create_player(club=world.team_a.club, name="Ersatz Eins")
    body = pairs_body(world, home=day.home)
    body["home_pairs"][1][1] = substitute.pk
    reply = world.client("organiser").post(f"/api/match-days/{day.pk}/open/", body, format="json")
    assert reply.status_code == 200, reply.data
    assert substitute in world.team_a.roster.all()


def test_a_player_of_another_teams_roster_is_refused_at_the_table(world: LeagueWorld) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    other = services.create_player(club=world.team_a.club, name="Zweite Mannschaft")
    leagues.enter_team(
        division=division, club_id=world.team_a.club_id, name="Herzbube II", roster=[other]
    )
    day = world.first_day
    body = pairs_body(world, home=day.home)
    body["home_pairs"][0][0] = other.pk
    reply = world.client("organiser").post(f"/api/match-days/{day.pk}/open/", body, format="json")
    assert reply.status_code == 409
    assert reply.data["code"] == "player_on_other_team"
    assert "Zweite Mannschaft already plays for Herzbube II" in reply.data["detail"]
    day.refresh_from_db()
    assert day.status == MatchDay.Status.SCHEDULED


# --- 2. forfeit ---------------------------------------------------------------------------


def test_the_league_organiser_records_a_forfeit_with_a_reason(world: LeagueWorld) -> None:
    day = world.first_day
    url = f"/api/match-days/{day.pk}/forfeit/"
    body = {"team": world.team_b.pk, "reason": "Nicht angetreten: Bus ausgefallen"}
    for role in ("organiser", "captain_a", "stranger"):
        assert world.client(role).post(url, body, format="json").status_code == 403
    empty = world.client("league_organiser").post(url, {**body, "reason": "  "}, format="json")
    assert empty.status_code == 400
    reply = world.client("league_organiser").post(url, body, format="json")
    assert reply.status_code == 200, reply.data
    assert reply.data["status"] == "final"
    assert reply.data["forfeited_by"] == world.team_b.pk
    assert reply.data["result"] == {
        "home_partien": 4,
        "away_partien": 0,
        "home_augen": 204,
        "away_augen": 0,
    }
    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [(r["name"], r["points"], r["augen_difference"]) for r in table] == [
        ("Herzbube I", 2, 204),
        ("Schellen I", 0, -204),
    ]
    again = world.client("league_organiser").post(url, body, format="json")
    assert again.status_code == 409 and again.data["code"] == "match_day_settled"


def test_a_forfeit_is_not_for_a_team_of_another_match_day(world: LeagueWorld) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    stranger_team = leagues.enter_team(division=division, club_id=world.club_c.pk, name="Eichel I")
    reply = world.client("league_organiser").post(
        f"/api/match-days/{world.first_day.pk}/forfeit/",
        {"team": stranger_team.pk, "reason": "x"},
        format="json",
    )
    assert reply.status_code == 400 and reply.data["code"] == "not_a_team_of_the_match_day"


# --- 3. postponement ----------------------------------------------------------------------


def test_a_postponement_is_asked_consented_and_granted(world: LeagueWorld) -> None:
    day = world.first_day
    leagues.update_match_day(match_day=day, changes={"starts_at": at(3)})
    body = {
        "match_day": day.pk,
        "asked_by": world.team_b.pk,
        "starts_at": at(17).isoformat(),
        "reason": "Hochzeit",
    }
    assert (
        world.client("captain_a").post("/api/postponements/", body, format="json").status_code
        == 403
    )
    reply = world.client("captain_b").post("/api/postponements/", body, format="json")
    assert reply.status_code == 201, reply.data
    pk = reply.data["id"]
    twice = world.client("captain_b").post("/api/postponements/", body, format="json")
    assert twice.status_code == 409 and twice.data["code"] == "postponement_pending"
    decide = f"/api/postponements/{pk}/decide/"
    early = world.client("league_organiser").post(decide, {"grant": True}, format="json")
    assert early.status_code == 409 and early.data["code"] == "postponement_not_consented"
    assert "Herzbube I has not consented" in early.data["detail"]
    answer = f"/api/postponements/{pk}/answer/"
    assert (
        world.client("captain_b").post(answer, {"consent": True}, format="json").status_code == 403
    )
    reply = world.client("captain_a").post(answer, {"consent": True}, format="json")
    assert reply.data["status"] == "consented"
    assert world.client("captain_a").post(decide, {"grant": True}, format="json").status_code == 403
    reply = world.client("league_organiser").post(decide, {"grant": True}, format="json")
    assert reply.status_code == 200 and reply.data["status"] == "granted"
    day.refresh_from_db()
    assert (timezone.localtime(day.starts_at).day, day.postponed_by_id) == (17, world.team_b.pk)


def test_a_postponement_onto_a_clash_is_refused_in_words(world: LeagueWorld) -> None:
    first, second = world.first_day, second_day(world)
    leagues.update_match_day(match_day=second, changes={"starts_at": at(10)})
    body = {
        "match_day": first.pk,
        "asked_by": world.team_a.pk,
        "starts_at": at(10, 11).isoformat(),
        "reason": "Saal belegt",
    }
    reply = world.client("organiser").post("/api/postponements/", body, format="json")
    assert reply.status_code == 409 and reply.data["code"] == "team_clash"
    assert "already plays on" in reply.data["detail"]
    world.league.last_day = date(2026, 12, 31)
    world.league.save()
    late = {**body, "starts_at": at(5, 19, 12).isoformat().replace("2026-12", "2027-01")}
    reply = world.client("organiser").post("/api/postponements/", late, format="json")
    assert reply.status_code == 400 and reply.data["code"] == "after_last_day"
    assert not MatchDayPostponement.objects.exists()


def test_a_refused_postponement_is_declined(world: LeagueWorld) -> None:
    day = world.first_day
    asked = league_season.ask_postponement(
        match_day=day, team=world.team_a, starts_at=at(20), reason="Kirmes"
    )
    reply = world.client("other_organiser").post(
        f"/api/postponements/{asked.pk}/answer/", {"consent": False}, format="json"
    )
    assert reply.data["status"] == "refused"
    reply = world.client("league_organiser").post(
        f"/api/postponements/{asked.pk}/decide/", {"grant": False}, format="json"
    )
    assert reply.data["status"] == "declined"
    day.refresh_from_db()
    assert (day.starts_at, day.postponed_by_id) == (None, None)


def test_the_season_is_settled_after_its_last_date(world: LeagueWorld) -> None:
    first, second = world.first_day, second_day(world)
    asked = league_season.ask_postponement(
        match_day=first, team=world.team_b, starts_at=at(20), reason="Urlaub"
    )
    league_season.answer_postponement(postponement=asked, consent=True)
    league_season.decide_postponement(postponement=asked, grant=True)
    url = f"/api/leagues/{world.league.pk}/settle/"
    reply = world.client("league_organiser").post(url)
    assert reply.status_code == 409 and reply.data["code"] == "no_last_day"
    world.league.last_day = timezone.localdate() + timezone.timedelta(days=1)
    world.league.save()
    reply = world.client("league_organiser").post(url)
    assert reply.status_code == 409 and reply.data["code"] == "season_not_over"
    assert world.client("organiser").post(url).status_code == 403
    world.league.last_day = date(2026, 10, 31)
    world.league.save()
    settled = league_season.settle_season(
        league=world.league, user=world.users["league_organiser"], today=date(2026, 11, 1)
    )
    assert {d.pk for d in settled} == {first.pk, second.pk}
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.forfeited_by_id) == ("final", world.team_b.pk)
    assert "Schellen I had asked for the postponement" in first.forfeit_reason
    assert (second.status, second.forfeited_by_id) == ("not_played", None)
    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [(r["name"], r["played"], r["points"]) for r in table] == [
        ("Herzbube I", 1, 2),
        ("Schellen I", 1, 0),
    ]


# --- 4. withdrawal ------------------------------------------------------------------------


def test_a_team_withdrawn_before_half_its_match_days_is_struck(world: LeagueWorld) -> None:
    url = f"/api/league-teams/{world.team_b.pk}/withdraw/"
    for role in ("organiser", "other_organiser", "captain_b"):
        assert world.client(role).post(url).status_code == 403
    reply = world.client("league_organiser").post(url)
    assert reply.status_code == 200, reply.data
    assert reply.data["results_struck"] is True and reply.data["withdrawn_at"]
    assert set(MatchDay.objects.values_list("status", flat=True)) == {"not_played"}
    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [(r["name"], r["withdrawn"], r["struck"], r["played"]) for r in table] == [
        ("Herzbube I", False, False, 0),
        ("Schellen I", True, True, 0),
    ]
    again = world.client("league_organiser").post(url)
    assert again.status_code == 409 and again.data["code"] == "team_withdrawn"


def test_a_team_withdrawn_after_half_forfeits_the_rest(world: LeagueWorld) -> None:
    finish(world, world.first_day, (False, False, False, True))  # Schellen I wins 3:1
    team = league_season.withdraw_team(team=world.team_b, user=world.users["league_organiser"])
    assert not team.results_struck
    second = second_day(world)
    assert (second.status, second.forfeited_by_id) == ("final", world.team_b.pk)
    assert "Schellen I withdrew" in second.forfeit_reason
    table = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    # Schellen I has more points (2 against 2, better Partien) but is last: withdrawn
    assert [(r["name"], r["points"], r["withdrawn"]) for r in table] == [
        ("Herzbube I", 2, False),
        ("Schellen I", 2, True),
    ]


# --- 5. the player ranking ----------------------------------------------------------------


def test_the_player_ranking_counts_the_partien_played(world: LeagueWorld) -> None:
    finish(world, world.first_day, (True, True, False, True))
    league_season.record_forfeit(
        match_day=second_day(world),
        team=world.team_a,
        reason="nicht angetreten",
        user=world.users["league_organiser"],
    )
    rows = world.client("anonymous").get(f"/api/leagues/{world.league.pk}/ranking/").data
    by_name = {r["name"]: r for r in rows}
    a, b = world.players_a, world.players_b
    assert len(rows) == 8  # the forfeit has no players
    # home pair 1 (a0, a1) won Partie 1 and lost Partie 3 to away pair 2 (b2, b3)
    assert (by_name[a[0].name]["partien"], by_name[a[0].name]["won"]) == (2, 1)
    assert (by_name[a[2].name]["partien"], by_name[a[2].name]["won"]) == (2, 2)
    assert by_name[b[0].name]["won"] == 0 and by_name[b[2].name]["won"] == 1
    assert rows[0]["name"] in (a[2].name, a[3].name) and rows[0]["rank"] == 1
    total_for = sum(r["augen_for"] for r in rows)
    assert total_for == 2 * (200 + 56)  # every Augen counted for both players of a pair
    assert all(r["augen_difference"] == r["augen_for"] - r["augen_against"] for r in rows)


def test_the_ranking_function_shares_ranks_and_orders_by_name() -> None:
    rows = player_ranking(
        [
            PartiePlayed((1, 2), (3, 4), (51, 20), True),
            PartiePlayed((3, 4), (1, 2), (51, 20), True),
        ],
        names={1: "Anna", 2: "Bert", 3: "Carl", 4: "Dora"},
    )
    assert [(r.rank, r.player, r.won, r.augen_difference) for r in rows] == [
        (1, 1, 1, 0),
        (1, 2, 1, 0),
        (1, 3, 1, 0),
        (1, 4, 1, 0),
    ]


# --- 6. promotion and relegation ----------------------------------------------------------


def test_promotion_and_relegation_places_the_teams() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]]
    placed = league_table.promotion_and_relegation(
        tables, promoted=[1, 2, 1], relegated=[1, 1, 1], withdrawn={2}
    )
    assert placed == [[1, 3, 5, 6], [2, 4, 7, 9], [8, 10, 11]]


def test_the_next_season_is_made_from_the_final_tables(world: LeagueWorld) -> None:
    lower = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    leagues.enter_team(division=lower, club_id=world.club_c.pk, name="Eichel I")
    c2 = leagues.enter_team(division=lower, club_id=world.club_c.pk, name="Eichel II")
    leagues.make_fixtures(division=lower)
    boss = world.users["league_organiser"]
    url = f"/api/leagues/{world.league.pk}/next-season/"
    body = {"season": "2027/28", "slug": "bodensee-2027"}
    early = world.client("league_organiser").post(url, body, format="json")
    assert early.status_code == 409 and early.data["code"] == "season_unfinished"
    for day in MatchDay.objects.filter(division=world.division):
        league_season.record_forfeit(match_day=day, team=world.team_b, reason="x", user=boss)
    for day in MatchDay.objects.filter(division=lower):
        league_season.record_forfeit(match_day=day, team=c2, reason="x", user=boss)
    assert world.client("organiser").post(url, body, format="json").status_code == 403
    reply = world.client("league_organiser").post(url, body, format="json")
    assert reply.status_code == 201, reply.data
    new = League.objects.get(slug="bodensee-2027")
    assert (new.previous_id, new.season, new.name) == (world.league.pk, "2027/28", "Bodensee-Liga")
    placed = {
        d.name: sorted(t.name for t in d.teams.all()) for d in new.divisions.order_by("order")
    }
    assert placed == {
        "Oberliga": ["Eichel I", "Herzbube I"],
        "Kreisliga": ["Eichel II", "Schellen I"],
    }
    carried = LeagueTeam.objects.get(division__league=new, name="Herzbube I")
    assert not carried.roster_confirmed
    assert set(carried.roster.all()) == set(world.players_a)
    assert carried.captain == world.users["captain_a"]
    oberliga = new.divisions.get(name="Oberliga")
    reply = world.client("league_organiser").post(
        f"/api/divisions/{oberliga.pk}/fixtures/", {}, format="json"
    )
    assert reply.status_code == 409 and reply.data["code"] == "roster_unconfirmed"
    assert "Eichel I, Herzbube I" in reply.data["detail"]
    assert (
        world.client("stranger").post(f"/api/league-teams/{carried.pk}/confirm-roster/").status_code
        == 403
    )
    assert (
        world.client("organiser")
        .post(f"/api/league-teams/{carried.pk}/confirm-roster/")
        .data["roster_confirmed"]
    )
    eichel = LeagueTeam.objects.get(division=oberliga, name="Eichel I")
    leagues.update_team(team=eichel, changes={"roster": []})  # a roster change confirms too
    reply = world.client("league_organiser").post(
        f"/api/divisions/{oberliga.pk}/fixtures/", {}, format="json"
    )
    assert reply.status_code == 201, reply.data
    twice = world.client("league_organiser").post(url, {**body, "slug": "x"}, format="json")
    assert twice.status_code == 409 and twice.data["code"] == "next_season_exists"
    # the old season stays readable
    old = world.client("anonymous").get(f"/api/divisions/{world.division.pk}/table/").data
    assert [r["name"] for r in old] == ["Herzbube I", "Schellen I"]


def test_a_withdrawal_ends_the_tables_of_an_open_match_day(world: LeagueWorld) -> None:
    open_day(world, world.first_day)
    finish_second = second_day(world)
    league_season.record_forfeit(
        match_day=finish_second, team=world.team_a, reason="x", user=world.users["league_organiser"]
    )
    team = league_season.withdraw_team(team=world.team_a, user=world.users["league_organiser"])
    assert not team.results_struck  # one of two match days final: not less than half
    day = MatchDay.objects.get(pk=world.first_day.pk)
    assert (day.status, day.forfeited_by_id) == ("final", world.team_a.pk)
    assert set(
        Round.objects.filter(tournament=day.tournament).values_list("status", flat=True)
    ) == {Round.Status.CLOSED}


def test_a_postponement_to_a_full_venue_is_refused(world: LeagueWorld) -> None:
    division = leagues.create_division(league=world.league, name="Kreisliga", order=2)
    for name, club in (("Herzbube II", world.team_a.club), ("Eichel I", world.club_c)):
        leagues.enter_team(division=division, club_id=club.pk, name=name)
    leagues.make_fixtures(division=division)
    club = world.team_a.club
    club.venue_tables = 1
    club.save(update_fields=["venue_tables"])
    hosted = MatchDay.objects.get(division=division, home__club=club)
    leagues.update_match_day(match_day=hosted, changes={"starts_at": at(24)})
    reply = world.client("captain_a").post(
        "/api/postponements/",
        {
            "match_day": world.first_day.pk,
            "asked_by": world.team_a.pk,
            "starts_at": at(24, 15).isoformat(),
            "reason": "Kirmes",
        },
        format="json",
    )
    assert reply.status_code == 409 and reply.data["code"] == "venue_full"
    assert club.name in reply.data["detail"]


def test_a_match_day_settled_as_not_played_is_not_moved(world: LeagueWorld) -> None:
    league_season.withdraw_team(team=world.team_b, user=world.users["league_organiser"])
    reply = world.client("league_organiser").patch(
        f"/api/match-days/{world.first_day.pk}/", {"starts_at": at(9).isoformat()}, format="json"
    )
    assert reply.status_code == 409 and reply.data["code"] == "match_day_not_played"
    assert "settled as not played" in reply.data["detail"]
