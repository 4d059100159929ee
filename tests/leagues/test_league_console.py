"""The league pages of the organiser console: who may do what (as the API allows it:
403 for a role that may not, 404 for a league one cannot see, and no row changed), bad
input (400 with the form's errors, or the service's refusal as a message), CSRF and
escaping, and one match day from opening its tables to the final result."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from tests.conftest import client_for
from tests.leagues.conftest import LeagueWorld, roster
from tests.leagues.test_league_api import device_codes, play
from tests.support.clients import Client
from tournaments.events.models import Tournament
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayConfirmation

pytestmark = pytest.mark.django_db

ROLES = ["league_organiser", "organiser", "other_organiser", "captain_a", "captain_b", "stranger"]


def browser(world: LeagueWorld, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def others(*allowed: str) -> list[str]:
    return [role for role in ROLES if role not in allowed]


def texts(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def open_division(world: LeagueWorld) -> Division:
    return leagues.create_division(league=world.league, name="Unterliga", order=2)


# --- reading ----------------------------------------------------------------------------


def test_the_console_home_and_the_club_page_link_to_the_league(world: LeagueWorld) -> None:
    client = browser(world, "organiser")
    home = client.get("/console/").content.decode()
    assert f"/console/leagues/{world.league.pk}/" in home and "/console/leagues/" in home
    club = client.get(f"/console/clubs/{world.team_a.club_id}/").content.decode()
    assert f"/console/leagues/{world.league.pk}/" in club


@pytest.mark.parametrize("role", ROLES)
def test_everyone_logged_in_sees_a_public_league(world: LeagueWorld, role: str) -> None:
    page = browser(world, role).get(f"/console/leagues/{world.league.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Herzbube I" in html and "Schellen I" in html
    assert f"/leagues/{world.league.slug}/" in html  # the public page
    may_add = f'action="/console/leagues/{world.league.pk}/division/"' in html
    assert may_add == (role == "league_organiser")


def test_the_anonymous_visitor_is_sent_to_log_in(world: LeagueWorld) -> None:
    for url in (
        f"/console/leagues/{world.league.pk}/",
        f"/console/match-days/{world.first_day.pk}/",
    ):
        page = Client().get(url)
        assert page.status_code == 302 and "/accounts/login/" in page["Location"]


def test_a_private_league_is_not_found_for_others(world: LeagueWorld) -> None:
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    for role in others("league_organiser"):
        client = browser(world, role)
        assert client.get(f"/console/leagues/{world.league.pk}/").status_code == 404
        assert client.get(f"/console/match-days/{world.first_day.pk}/").status_code == 404
    own = browser(world, "league_organiser").get(f"/console/leagues/{world.league.pk}/")
    assert own.status_code == 200


def test_the_fixture_list_says_what_each_match_day_waits_for(world: LeagueWorld) -> None:
    page = browser(world, "stranger").get(f"/console/leagues/{world.league.pk}/")
    rows = page.context["divisions"][0]["days"]
    assert [r["waiting_for"] for r in rows] == [
        f"{world.team_a.club.name} öffnet die Tische",
        f"{world.team_b.club.name} öffnet die Tische",
    ]


# --- creating a league --------------------------------------------------------------------


def test_a_club_organiser_creates_a_league(world: LeagueWorld) -> None:
    client = browser(world, "other_organiser")
    reply = client.post(
        "/console/leagues/",
        {"name": "Allgäu-Liga", "season": "2026/27", "rules_preset": "klammern", "liga_target": 41},
    )
    league = League.objects.get(name="Allgäu-Liga")
    assert reply.status_code == 302 and reply["Location"] == f"/console/leagues/{league.pk}/"
    assert (league.slug, league.season, league.liga_target, league.is_public) == (
        "allgau-liga-202627",
        "2026/27",
        41,
        False,  # an unticked box
    )
    assert league_selectors.organises_league(world.users["other_organiser"], league)


@pytest.mark.parametrize("role", ["captain_a", "stranger"])
def test_only_a_club_organiser_creates_a_league(world: LeagueWorld, role: str) -> None:
    body = {"name": "Schwarzliga", "rules_preset": "klammern", "liga_target": 51}
    assert browser(world, role).post("/console/leagues/", body).status_code == 403
    assert not League.objects.filter(name="Schwarzliga").exists()


@pytest.mark.parametrize(
    "body",
    [
        {"name": "", "rules_preset": "klammern", "liga_target": 51},
        {"name": "X-Liga", "rules_preset": "skat", "liga_target": 51},
        {"name": "X-Liga", "rules_preset": "klammern", "liga_target": "viele"},
        {"name": "X-Liga", "rules_preset": "klammern", "liga_target": 0},
        {"name": "X-Liga", "slug": "nicht erlaubt!", "rules_preset": "klammern", "liga_target": 5},
    ],
)
def test_bad_input_to_a_new_league_is_shown_on_the_form(
    world: LeagueWorld, body: dict[str, Any]
) -> None:
    reply = browser(world, "organiser").post("/console/leagues/", body)
    assert reply.status_code == 200 and reply.context["form"].errors
    assert League.objects.count() == 1


def test_a_slug_taken_is_the_services_message(world: LeagueWorld) -> None:
    body = {"name": "Y", "slug": world.league.slug, "rules_preset": "klammern", "liga_target": 51}
    reply = browser(world, "organiser").post("/console/leagues/", body)
    assert reply.status_code == 200
    assert texts(reply) == [f"Eine Liga mit dem Kürzel '{world.league.slug}' gibt es schon."]
    assert League.objects.count() == 1


def settings_body(**changes: Any) -> dict[str, Any]:
    body = {"name": "Bodensee-Liga", "season": "", "rules_preset": "klammern", "liga_target": 51}
    body.update(changes)
    body["is_public"] = "on"
    return {f"settings-{k}": v for k, v in body.items()}


@pytest.mark.parametrize("role", others("league_organiser"))
def test_only_the_league_changes_its_settings(world: LeagueWorld, role: str) -> None:
    url = f"/console/leagues/{world.league.pk}/settings/"
    assert browser(world, role).post(url, settings_body(season="1999")).status_code == 403
    assert League.objects.get(pk=world.league.pk).season == ""


def test_the_league_changes_its_settings_until_the_rules_are_fixed(world: LeagueWorld) -> None:
    client = browser(world, "league_organiser")
    url = f"/console/leagues/{world.league.pk}/settings/"
    assert client.post(url, settings_body(liga_target="-3")).status_code == 400
    assert client.post(url, settings_body(season="2026/27", liga_target=41)).status_code == 302
    league = League.objects.get(pk=world.league.pk)
    assert (league.season, league.liga_target, league.slug) == ("2026/27", 41, "bodensee")
    leagues.open_match_day(
        match_day=world.first_day,
        home_pairs=[world.players_a[:2], world.players_a[2:]],
        away_pairs=[world.players_b[:2], world.players_b[2:]],
    )
    renamed = client.post(url, settings_body(name="Seeliga", season="2026/27", liga_target=41))
    assert texts(renamed)[-1] == "Die Liga ist gespeichert."
    locked = client.post(url, settings_body(name="Seeliga", season="2026/27", liga_target=61))
    assert texts(locked)[-1] == "Die Regeln stehen fest, seit der erste Spieltag eröffnet wurde."
    league.refresh_from_db()
    assert (league.name, league.liga_target) == ("Seeliga", 41)


# --- divisions and teams ------------------------------------------------------------------


@pytest.mark.parametrize("role", others("league_organiser"))
def test_only_the_league_adds_a_division(world: LeagueWorld, role: str) -> None:
    url = f"/console/leagues/{world.league.pk}/division/"
    assert browser(world, role).post(url, {"division-name": "Kreisliga"}).status_code == 403
    assert Division.objects.count() == 1


def test_the_league_adds_a_division_and_bad_input_stays_on_the_page(world: LeagueWorld) -> None:
    client = browser(world, "league_organiser")
    url = f"/console/leagues/{world.league.pk}/division/"
    bad = client.post(url, {"division-name": "", "division-order": "x"})
    assert bad.status_code == 400 and bad.context["division_form"].errors
    assert client.post(url, {"division-name": "Kreisliga", "division-order": 2}).status_code == 302
    again = client.post(url, {"division-name": "Kreisliga", "division-order": 3})
    assert texts(again)[-1] == "Die Liga hat schon eine Staffel 'Kreisliga'."
    assert list(world.league.divisions.values_list("name", flat=True)) == ["Oberliga", "Kreisliga"]


def team_body(club_id: int, division: Division, players: list[Any], **extra: Any) -> dict[str, Any]:
    prefix = f"team-{club_id}"
    return {
        "club": club_id,
        f"{prefix}-division": division.pk,
        f"{prefix}-name": extra.get("name", "Herzbube II"),
        f"{prefix}-captain": extra.get("captain", "captain_a"),
        f"{prefix}-roster": [p.pk for p in players],
    }


def test_a_club_organiser_enters_a_team_of_the_clubs_players(world: LeagueWorld) -> None:
    division = open_division(world)
    club = world.team_a.club
    fresh = roster(club, 2)
    body = team_body(club.pk, division, fresh)
    reply = browser(world, "organiser").post(f"/console/leagues/{world.league.pk}/team/", body)
    assert reply.status_code == 302
    team = LeagueTeam.objects.get(division=division)
    assert (team.name, team.club_id, team.captain.username) == ("Herzbube II", club.pk, "captain_a")
    assert set(team.roster.all()) == set(fresh)


@pytest.mark.parametrize("role", ["other_organiser", "league_organiser", "captain_a", "stranger"])
def test_no_one_else_enters_a_clubs_team(world: LeagueWorld, role: str) -> None:
    division = open_division(world)
    body = team_body(world.team_a.club_id, division, world.players_a)
    reply = browser(world, role).post(f"/console/leagues/{world.league.pk}/team/", body)
    assert reply.status_code == 403
    assert not LeagueTeam.objects.filter(division=division).exists()


@pytest.mark.parametrize(
    "change",
    [
        {"roster": "other club"},
        {"captain": "niemand"},
        {"name": ""},
        {"division": "fixtures made"},
        {"club": "x"},
    ],
)
def test_bad_team_input_changes_nothing(world: LeagueWorld, change: dict[str, str]) -> None:
    division = open_division(world)
    club_id = world.team_a.club_id
    body = team_body(club_id, division, world.players_a)
    if "roster" in change:
        body[f"team-{club_id}-roster"] = [world.players_b[0].pk]
    if "captain" in change:
        body[f"team-{club_id}-captain"] = "niemand"
    if "name" in change:
        body[f"team-{club_id}-name"] = ""
    if "division" in change:
        body[f"team-{club_id}-division"] = world.division.pk
    if "club" in change:
        body["club"] = "x"
    reply = browser(world, "organiser").post(f"/console/leagues/{world.league.pk}/team/", body)
    assert reply.status_code == (403 if "club" in change else 400)
    assert LeagueTeam.objects.count() == 2


def test_team_names_are_escaped(world: LeagueWorld) -> None:
    division = open_division(world)
    body = team_body(world.team_a.club_id, division, [], name="<b>Bube</b>", captain="")
    browser(world, "organiser").post(f"/console/leagues/{world.league.pk}/team/", body)
    html = browser(world, "stranger").get(f"/console/leagues/{world.league.pk}/").content.decode()
    assert "&lt;b&gt;Bube&lt;/b&gt;" in html and "<b>Bube</b>" not in html


@pytest.mark.parametrize("role", others("organiser"))
def test_only_the_clubs_organisers_change_its_team(world: LeagueWorld, role: str) -> None:
    url = f"/console/league-teams/{world.team_a.pk}/"
    assert browser(world, role).get(url).status_code == 403
    assert browser(world, role).post(url, {"name": "Gekapert"}).status_code == 403
    assert LeagueTeam.objects.get(pk=world.team_a.pk).name == "Herzbube I"


def test_the_club_changes_its_team(world: LeagueWorld) -> None:
    client = browser(world, "organiser")
    url = f"/console/league-teams/{world.team_a.pk}/"
    assert client.get(url).status_code == 200
    keep = world.players_a[:3]
    bad = client.post(url, {"name": "Herzbube Eins", "roster": [world.players_b[0].pk]})
    assert bad.status_code == 400
    body = {"name": "Herzbube Eins", "captain": "captain_b", "roster": [p.pk for p in keep]}
    assert client.post(url, body).status_code == 302
    team = LeagueTeam.objects.get(pk=world.team_a.pk)
    assert (team.name, team.captain.username, set(team.roster.all())) == (
        "Herzbube Eins",
        "captain_b",
        set(keep),
    )


# --- the fixture list ---------------------------------------------------------------------


def division_with_teams(world: LeagueWorld) -> Division:
    division = open_division(world)
    for club, name in ((world.team_a.club, "A2"), (world.team_b.club, "B2")):
        leagues.enter_team(division=division, club_id=club.pk, name=name)
    return division


@pytest.mark.parametrize("role", others("league_organiser"))
def test_only_the_league_makes_the_fixtures(world: LeagueWorld, role: str) -> None:
    division = division_with_teams(world)
    body = {"division": division.pk, f"fixtures-{division.pk}-days_between": 14}
    reply = browser(world, role).post(f"/console/leagues/{world.league.pk}/fixtures/", body)
    assert reply.status_code == 403
    assert not division.match_days.exists()


def test_the_league_makes_the_fixtures_with_dates(world: LeagueWorld) -> None:
    division = division_with_teams(world)
    client = browser(world, "league_organiser")
    url = f"/console/leagues/{world.league.pk}/fixtures/"
    prefix = f"fixtures-{division.pk}"
    bad = client.post(url, {"division": division.pk, f"{prefix}-days_between": "0"})
    assert bad.status_code == 400
    assert client.post(url, {"division": "zwei"}).status_code == 404
    body = {
        "division": division.pk,
        f"{prefix}-first_day": "2026-09-05T19:30",
        f"{prefix}-days_between": 7,
    }
    assert client.post(url, body).status_code == 302
    days = list(division.match_days.order_by("round"))
    assert [(d.round, d.home.name, d.away.name) for d in days] == [(1, "A2", "B2"), (2, "B2", "A2")]
    assert (days[1].starts_at - days[0].starts_at).days == 7
    again = client.post(url, body)
    assert "Ihre Mannschaften stehen fest" in texts(again)[-1]


def test_too_few_teams_is_the_services_message(world: LeagueWorld) -> None:
    division = open_division(world)
    body = {"division": division.pk, f"fixtures-{division.pk}-days_between": 14}
    client = browser(world, "league_organiser")
    reply = client.post(f"/console/leagues/{world.league.pk}/fixtures/", body)
    assert texts(reply) == ["Eine Staffel braucht mindestens zwei Mannschaften."]


# --- a match day --------------------------------------------------------------------------


def open_body(world: LeagueWorld, **swap: int) -> dict[str, Any]:
    body = {}
    for side, players in (("home", world.players_a), ("away", world.players_b)):
        for slot, player in zip(("1a", "1b", "2a", "2b"), players, strict=True):
            body[f"{side}_{slot}"] = player.pk
    body.update(swap)
    return body


@pytest.mark.parametrize("role", others("league_organiser"))
def test_only_the_league_moves_a_match_day(world: LeagueWorld, role: str) -> None:
    url = f"/console/match-days/{world.first_day.pk}/update/"
    assert browser(world, role).post(url, {"venue": "Woanders"}).status_code == 403
    assert MatchDay.objects.get(pk=world.first_day.pk).venue == world.team_a.club.name


def test_the_league_moves_a_match_day(world: LeagueWorld) -> None:
    client = browser(world, "league_organiser")
    url = f"/console/match-days/{world.first_day.pk}/update/"
    assert client.post(url, {"starts_at": "morgen"}).status_code == 400
    body = {"starts_at": "2026-10-03T18:00", "venue": "Gasthaus Krone"}
    assert client.post(url, body).status_code == 302
    day = MatchDay.objects.get(pk=world.first_day.pk)
    assert (day.venue, timezone.localtime(day.starts_at).hour) == ("Gasthaus Krone", 18)


@pytest.mark.parametrize("role", others("organiser"))
def test_only_the_home_club_opens_the_tables(world: LeagueWorld, role: str) -> None:
    reply = browser(world, role).post(
        f"/console/match-days/{world.first_day.pk}/open/", open_body(world)
    )
    assert reply.status_code == 403
    assert Tournament.objects.count() == 0


def test_the_home_club_chooses_the_pairs_from_the_rosters(world: LeagueWorld) -> None:
    page = browser(world, "organiser").get(f"/console/match-days/{world.first_day.pk}/")
    html = page.content.decode()
    assert html.count("<select") == 8 and 'id="open-form"' in html
    assert html.count(f'value="{world.players_b[3].pk}"') == 4  # an away pair slot each
    for role in others("organiser"):
        html = browser(world, role).get(f"/console/match-days/{world.first_day.pk}/")
        assert 'id="open-form"' not in html.content.decode()


def test_bad_pairs_open_nothing(world: LeagueWorld) -> None:
    client = browser(world, "organiser")
    url = f"/console/match-days/{world.first_day.pk}/open/"
    twice = open_body(world, home_1b=world.players_a[0].pk)
    assert texts(client.post(url, twice)) == [
        "Jede Mannschaft stellt zwei Paare aus vier verschiedenen Spielern."
    ]
    stranger_in = open_body(world, away_2b=world.players_a[3].pk)
    assert client.post(url, stranger_in).status_code == 400
    assert client.post(url, open_body(world, home_1a="x")).status_code == 400
    assert Tournament.objects.count() == 0
    assert MatchDay.objects.get(pk=world.first_day.pk).status == MatchDay.Status.SCHEDULED


def test_a_post_without_its_csrf_token_is_refused(world: LeagueWorld) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["organiser"])
    reply = client.post(f"/console/match-days/{world.first_day.pk}/open/", open_body(world))
    assert reply.status_code == 403
    assert Tournament.objects.count() == 0
    page = client.get(f"/console/match-days/{world.first_day.pk}/").content.decode()
    assert page.count("csrfmiddlewaretoken") == page.count("<form")


def play_sitting(world: LeagueWorld, day: MatchDay, *, home_wins: bool) -> None:
    """The open sitting's two Partien, entered by the tablets with the home club's codes."""
    body = client_for(world.users["organiser"]).get(f"/api/match-days/{day.pk}/").data
    codes = device_codes(client_for(world.users["organiser"]), body)
    for match, code in codes.items():
        play(match, code, home_wins=home_wins)


def test_a_match_day_from_the_console_to_the_final_result(world: LeagueWorld) -> None:
    day = world.first_day
    url = f"/console/match-days/{day.pk}/"
    home = browser(world, "organiser")
    assert home.post(url + "open/", open_body(world)).status_code == 302
    page = home.get(url)
    sitting = page.context["sittings"][0]
    assert f"/console/rounds/{sitting.pk}/table-cards/" in page.content.decode()
    cards = home.get(f"/console/rounds/{sitting.pk}/table-cards/")
    assert cards.status_code == 200 and len(cards.context["cards"]) == 2
    assert (
        browser(world, "other_organiser").get(f"/console/rounds/{sitting.pk}/").status_code == 404
    )

    play_sitting(world, day, home_wins=True)
    for role in others("organiser"):
        assert browser(world, role).post(url + "second-sitting/").status_code == 403
    assert home.post(url + "second-sitting/").status_code == 302
    early = browser(world, "captain_a").post(url + "confirm/", {"side": "home"})
    assert texts(early) == ["Noch sind nicht alle Partien dieses Spieltags entschieden."]
    play_sitting(world, day, home_wins=False)

    for role, side in (
        ("captain_b", "home"),
        ("captain_a", "away"),
        ("other_organiser", "venue"),
        ("league_organiser", "venue"),
        ("stranger", "home"),
    ):
        assert browser(world, role).post(url + "confirm/", {"side": side}).status_code == 403
    assert "Wähle" in texts(browser(world, "captain_a").post(url + "confirm/", {"side": "x"}))[-1]
    assert MatchDayConfirmation.objects.count() == 0

    browser(world, "captain_a").post(url + "confirm/", {"side": "home"})
    waiting = browser(world, "league_organiser").get(url).context["row"]["waiting_for"]
    assert (
        waiting == "Bestätigung durch den Mannschaftsführer von Schellen I oder durch KC Herzbube"
    )
    for role in others("league_organiser"):
        assert browser(world, role).post(url + "accept/").status_code == 403
    not_yet = browser(world, "league_organiser").post(url + "accept/")
    assert "beide Mannschaftsführer" in texts(not_yet)[0]
    browser(world, "captain_b").post(url + "confirm/", {"side": "away"})
    assert MatchDay.objects.get(pk=day.pk).status == MatchDay.Status.CONFIRMED
    assert browser(world, "league_organiser").post(url + "accept/").status_code == 302
    day.refresh_from_db()
    assert (day.status, day.home_partien, day.away_partien) == ("final", 2, 2)
    table = browser(world, "stranger").get(f"/console/leagues/{world.league.pk}/").context
    first_row = table["divisions"][0]["days"][0]
    assert (first_row["day"].pk, first_row["waiting_for"]) == (
        day.pk,
        "Nichts: Das Ergebnis ist endgültig",
    )
    rows = table["divisions"][0]["table"]
    assert [(r["played"], r["points"]) for r in rows] == [(1, 1), (1, 1)]


def test_the_league_organiser_sends_a_result_back_and_the_captains_read_why(
    world: LeagueWorld,
) -> None:
    day = world.first_day
    url = f"/console/match-days/{day.pk}/"
    home = browser(world, "organiser")
    home.post(url + "open/", open_body(world))
    play_sitting(world, day, home_wins=True)
    home.post(url + "second-sitting/")
    play_sitting(world, day, home_wins=False)
    home.post(url + "confirm/", {"side": "venue"})
    organiser = browser(world, "league_organiser")
    page = organiser.get(url).content.decode()
    assert 'id="send-back-form"' in page and "Ergebnis zurückgeben" in page
    assert 'id="send-back-form"' not in browser(world, "captain_a").get(url).content.decode()

    reason = "Tisch 1, Spiel 3: <b>Bella</b> fehlt"
    for role in others("league_organiser"):
        assert browser(world, role).post(url + "send-back/", {"reason": reason}).status_code == 403
    empty = organiser.post(url + "send-back/", {"reason": ""})
    assert empty.status_code == 400
    assert empty.context["send_back_form"].errors["reason"]
    assert MatchDay.objects.get(pk=day.pk).status == MatchDay.Status.CONFIRMED

    sent = organiser.post(url + "send-back/", {"reason": reason})
    assert sent.status_code == 302
    assert texts(sent) == [
        "Das Ergebnis ist zurückgegeben: Die Mannschaftsführer bestätigen erneut."
    ]
    day.refresh_from_db()
    assert (day.status, day.sent_back_reason) == (MatchDay.Status.OPEN, reason)
    assert not MatchDayConfirmation.objects.filter(match_day=day).exists()
    captain = browser(world, "captain_a").get(url).content.decode()
    assert "Von der Ligaleitung zurückgegeben am" in captain
    assert "Tisch 1, Spiel 3: &lt;b&gt;Bella&lt;/b&gt; fehlt" in captain
    assert "Für Herzbube I bestätigen" in captain  # and confirms again
