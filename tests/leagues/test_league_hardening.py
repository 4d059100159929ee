"""The league's findings of the outside probe (issue 20): names that look like formulas
are neutralised in its CSV exports, a club cannot inject calendar properties through a
name or venue, renaming to a sibling's name is a 400 with a code, and a private league's
existence does not show through a 403."""

from __future__ import annotations

import csv
import io

import pytest
from icalendar import Calendar

from tests.leagues.conftest import LeagueWorld
from tests.support.clients import Client
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example","x")'


def csv_rows(response: object) -> list[list[str]]:
    text = response.content.decode("utf-8-sig")  # type: ignore[attr-defined]
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_csv_exports_neutralise_formulas(world: LeagueWorld) -> None:
    LeagueTeam.objects.filter(pk=world.team_a.pk).update(name=FORMULA)
    MatchDay.objects.filter(home=world.team_a).update(venue="@SUM(1+1)")
    Division.objects.filter(pk=world.division.pk).update(name="+Oberliga")
    slug = world.league.slug
    table = csv_rows(Client().get(f"/leagues/{slug}/divisions/{world.division.pk}/table.csv"))
    assert "'" + FORMULA in [row[1] for row in table[1:]]
    fixtures = csv_rows(Client().get(f"/leagues/{slug}/fixtures.csv"))
    cells = [cell for row in fixtures[1:] for cell in row]
    assert "'@SUM(1+1)" in cells and "'+Oberliga" in cells and "'" + FORMULA in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


def test_the_calendar_escapes_what_a_club_typed(world: LeagueWorld) -> None:
    """Rows written before the validator (or by raw SQL) still cannot add properties."""
    day = world.first_day
    MatchDay.objects.filter(pk=day.pk).update(
        starts_at="2025-10-04T17:00:00Z", venue="Krone\rATTENDEE:mailto:x@evil.example"
    )
    LeagueTeam.objects.filter(pk=world.team_a.pk).update(name="Herz\nURL:http://evil.example")
    reply = Client().get(f"/leagues/{world.league.slug}/calendar.ics")
    text = reply.content.decode()
    lines = text.split("\r\n")
    assert not any(line.startswith(("ATTENDEE", "URL")) for line in lines)
    assert "\r" not in text.replace("\r\n", "")
    event = next(iter(Calendar.from_ical(reply.content).walk("VEVENT")))
    assert str(event["LOCATION"]) == "Krone\nATTENDEE:mailto:x@evil.example"
    assert str(event["UID"]) == f"match-day-{day.pk}@klammern"  # not the host asked for


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/match-days/{day}/", {"venue": "Krone\r\nX: 1"}),
        ("/api/divisions/{division}/", {"name": "Ober\x1bliga"}),
        ("/api/leagues/{league}/", {"season": "2025\u202e26"}),
    ],
)
def test_league_texts_refuse_control_characters(
    world: LeagueWorld, url: str, body: dict[str, str]
) -> None:
    target = url.format(day=world.first_day.pk, division=world.division.pk, league=world.league.pk)
    response = world.client("league_organiser").patch(target, body, format="json")
    assert response.status_code == 400, response.content
    assert next(iter(body)) in response.json()


def test_team_name_refuses_control_and_look_alike_characters(world: LeagueWorld) -> None:
    client = world.client("organiser")
    for name in ("Herz\rbube", "Herzbub\u0435"):
        response = client.patch(f"/api/league-teams/{world.team_a.pk}/", {"name": name})
        assert response.status_code == 400 and "name" in response.json()
    assert LeagueTeam.objects.get(pk=world.team_a.pk).name == "Herzbube I"


def test_renaming_a_team_to_a_siblings_name_is_400(world: LeagueWorld) -> None:
    LeagueTeam.objects.create(division=world.division, club=world.team_a.club, name="Herzbube II")
    response = world.client("organiser").patch(
        f"/api/league-teams/{world.team_a.pk}/", {"name": "Herzbube II"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "team_name_taken"
    assert LeagueTeam.objects.get(pk=world.team_a.pk).name == "Herzbube I"


def test_renaming_a_division_to_a_siblings_name_is_400(world: LeagueWorld) -> None:
    Division.objects.create(league=world.league, name="Unterliga", order=2)
    response = world.client("league_organiser").patch(
        f"/api/divisions/{world.division.pk}/", {"name": "Unterliga"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "division_exists"
    assert Division.objects.get(pk=world.division.pk).name == "Oberliga"


def test_a_private_league_is_not_found_not_forbidden(world: LeagueWorld) -> None:
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    stranger = world.client("stranger")
    division = stranger.post(
        "/api/divisions/", {"league": world.league.pk, "name": "Kreisliga"}, format="json"
    )
    assert division.status_code == 404 and division.json()["code"] == "not_found"
    team = world.client("other_organiser").post(
        "/api/league-teams/",
        {"division": world.division.pk, "club": world.team_b.club_id, "name": "Schellen II"},
        format="json",
    )
    assert team.status_code == 404
    assert stranger.get(f"/api/leagues/{world.league.pk}/").status_code == 404
    assert not Division.objects.filter(name="Kreisliga").exists()
    assert not LeagueTeam.objects.filter(name="Schellen II").exists()
    own = world.client("league_organiser").post(
        "/api/divisions/", {"league": world.league.pk, "name": "Kreisliga"}, format="json"
    )
    assert own.status_code == 201
