"""Issue 20, the league's corrections in Chromium, as the organisers and a captain do
them in the console: a club's organiser removes a team entered by mistake; the league's
organiser makes the fixture list, remakes it, sees a clash refused in words and a moved
match day take its place by date, in a fixture table that fits its card at 1280 px and
scrolls within it on a phone (in German); a captain reads the deals of his match day (in
English). Screenshots
go to artifacts/screenshots/."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import client_for
from tests.factories import summary_record
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS, assert_fits
from tests.web.test_league_console_browser import PASSWORD, log_in
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match, Round
from tournaments.leagues import services as leagues
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "league-issue20-browser"

#: The fixture table's scroll box is no wider than its content needs (nothing cut off).
FITS_ITS_CARD = """(selector) => {
  const wrap = document.querySelector(selector).closest('.table-wrap');
  return wrap.scrollWidth <= wrap.clientWidth + 1;
}"""


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def season() -> dict[str, Any]:
    """KC Eichel runs the league; KC Herzbube and KC Schellen have entered a team each,
    and Herzbube by mistake a second one; two captains."""
    users = get_user_model().objects
    boss = users.create_user("liga", password=PASSWORD)
    clubs = {}
    for key, name in (("liga", "KC Eichel"), ("heim", "KC Herzbube"), ("gast", "KC Schellen")):
        club = Club.objects.create(name=name, slug=name.split()[1].lower())
        club.organisers.add(boss if key == "liga" else users.create_user(key, password=PASSWORD))
        clubs[key] = club
    captains = {k: users.create_user(f"kapitaen_{k}", password=PASSWORD) for k in ("heim", "gast")}
    league = leagues.create_league(organiser=boss, name="Bodensee-Liga", slug="bodensee")
    division = leagues.create_division(league=league, name="Oberliga")
    teams = {}
    for key, name in (("heim", "Herzbube I"), ("gast", "Schellen I"), ("fehler", "Herzbube X")):
        club = clubs["heim" if key == "fehler" else key]
        players = [
            services.create_player(club=club, name=f"{name} Spieler {n}") for n in range(1, 5)
        ]
        teams[key] = leagues.enter_team(
            division=division,
            club_id=club.pk,
            name=name,
            captain=captains.get(key),
            roster=players,
        )
    return {"league": league, "division": division, "teams": teams, "clubs": clubs}


def fixture_rows(page: Any) -> list[str]:
    return [row.get_attribute("id") for row in page.locator("table.fixtures tbody tr").all()]


def test_the_league_is_corrected_in_the_console(
    live_server: Any, contexts: Any, season: dict[str, Any]
) -> None:
    base = live_server.url
    league: League = season["league"]
    division: Division = season["division"]
    mistake: LeagueTeam = season["teams"]["fehler"]

    heim = log_in(contexts, base, "heim")
    heim.goto(f"{base}/console/leagues/{league.pk}/")
    row = heim.locator(".teams li", has_text="Herzbube X")
    row.locator("summary", has_text="Mannschaft entfernen").click()
    shoot(heim, "league-remove-team-de")
    row.locator("input[name=confirm]").check()
    row.locator("button", has_text="Mannschaft entfernen").click()
    expect(heim.locator(".message")).to_contain_text("Herzbube X ist entfernt")
    expect(heim.locator(".teams li")).to_have_count(2)
    assert not LeagueTeam.objects.filter(pk=mistake.pk).exists()

    liga = log_in(contexts, base, "liga")
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    liga.fill("input[name$='-first_day']", "2026-09-12T19:30")
    liga.locator(".fixtures-form button").click()
    expect(liga.locator("table.fixtures tbody tr")).to_have_count(2)
    first, second = MatchDay.objects.filter(division=division).order_by("round")
    assert fixture_rows(liga) == [f"day-{first.pk}", f"day-{second.pk}"]

    changes = liga.locator(f"#change-fixtures-{division.pk}")
    changes.locator("summary").click()
    changes.locator("input[name$='-first_day']").fill("2026-09-19T19:00")
    changes.locator("input[name$='-days_between']").fill("21")
    changes.locator("input[name$='-confirm']").check()
    shoot(liga, "league-remake-fixtures-de")
    changes.locator(".remake-form button").click()
    expect(liga.locator(".message")).to_contain_text("Spielplan ist neu erstellt")
    first, second = MatchDay.objects.filter(division=division).order_by("round")
    assert first.starts_at.day == 19 and second.starts_at.day == 10  # 10 October

    liga.goto(f"{base}/console/match-days/{second.pk}/")
    liga.fill("input[name=starts_at]", "2026-09-19T11:00")
    liga.locator("#date-venue button").click()
    expect(liga.locator(".message.is-error")).to_contain_text("spielt am")
    expect(liga.locator(".message.is-error")).to_contain_text("höchstens einen Spieltag")
    shoot(liga, "league-clash-de")
    liga.fill("input[name=starts_at]", "2026-09-05T19:00")
    liga.locator("#date-venue button").click()
    expect(liga.locator(".message.is-success, .message:not(.is-error)").first).to_be_visible()

    # long names and a provisional result, as a real season has them
    long_names = {
        first.home_id: "SG Herzbube Wollmatingen-Allmannsdorf I",
        first.away_id: "Schellen-Unter Reichenau-Mittelzell I",
    }
    for team_id, name in long_names.items():
        LeagueTeam.objects.filter(pk=team_id).update(name=name)
    MatchDay.objects.filter(pk=first.pk).update(
        status=MatchDay.Status.CONFIRMED,
        home_partien=3,
        away_partien=1,
        home_augen=230,
        away_augen=150,
    )
    liga.goto(f"{base}/console/leagues/{league.pk}/")
    assert fixture_rows(liga) == [f"day-{second.pk}", f"day-{first.pk}"]  # by date
    waiting = liga.locator("table.fixtures th", has_text="Wartet auf")
    expect(waiting).to_be_visible()
    assert liga.evaluate(FITS_ITS_CARD, "table.fixtures"), "the fixture table is cut off"
    shoot(liga, "league-fixtures-1280-de")
    liga.set_viewport_size(PHONE)
    assert_fits(liga, PHONE["width"])  # the table scrolls inside its card, the page does not
    shoot(liga, "league-fixtures-phone-de")
    liga.set_viewport_size(DESKTOP)


def test_a_captain_reads_the_deals_of_his_match_day(
    live_server: Any, contexts: Any, season: dict[str, Any]
) -> None:
    base = live_server.url
    division: Division = season["division"]
    LeagueTeam.objects.filter(pk=season["teams"]["fehler"].pk).delete()
    leagues.make_fixtures(division=division)
    day = MatchDay.objects.get(division=division, round=1)
    home, away = (list(team.roster.order_by("pk")) for team in (day.home, day.away))
    leagues.open_match_day(
        match_day=day, home_pairs=[home[:2], home[2:]], away_pairs=[away[:2], away[2:]]
    )
    day.refresh_from_db()
    for match in Match.objects.filter(round__tournament=day.tournament):
        _, code = services.issue_device_code(table=match.table)
        tablet = client_for(device_code=code)
        for number in (1, 2):
            reply = tablet.post(
                f"/api/matches/{match.pk}/deals/{number}/",
                summary_record(dealer=number - 1, declarer=1, team0_points=100),
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert reply.status_code == 201, reply.content
    assert Round.objects.filter(tournament=day.tournament).count() == 1

    captain = log_in(contexts, base, "kapitaen_gast", language="en")
    captain.goto(f"{base}/console/match-days/{day.pk}/")
    captain.locator("#read-deals").click()
    expect(captain.locator("h1")).to_have_text("Deals of the match day")
    expect(captain.locator(".partie-deals")).to_have_count(2)
    expect(captain.locator(".partie-deals").first.locator("tbody tr")).to_have_count(2)
    shoot(captain, "league-captain-deals-en")
    captain.set_viewport_size(PHONE)
    assert_fits(captain, PHONE["width"])
    shoot(captain, "league-captain-deals-phone-en")
