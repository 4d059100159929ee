"""The public league pages: the table (final results only, provisional ones marked), the
fixtures, team pages, the iCalendar feeds and the CSV exports; a private league is not
there for others."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.leagues.conftest import LeagueWorld
from tests.support.clients import Client
from tournaments.leagues.models import League, MatchDay

pytestmark = pytest.mark.django_db


def finish(day: MatchDay, *, home: int, away: int, augen: tuple[int, int], final: bool) -> None:
    MatchDay.objects.filter(pk=day.pk).update(
        home_partien=home,
        away_partien=away,
        home_augen=augen[0],
        away_augen=augen[1],
        status=MatchDay.Status.FINAL if final else MatchDay.Status.CONFIRMED,
    )


def test_the_league_page_counts_only_final_results(world: LeagueWorld) -> None:
    first, second = MatchDay.objects.order_by("round")
    finish(first, home=3, away=1, augen=(230, 150), final=True)
    finish(second, home=4, away=0, augen=(240, 90), final=False)
    page = Client().get(f"/leagues/{world.league.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Bodensee-Liga" in html and "Oberliga" in html
    assert "3:1" in html and "4:0" in html
    assert html.count("vorläufig") == 1  # the second match day, German by default
    table = page.context["divisions"][0]["table"]
    assert [(r["name"], r["points"], r["played"]) for r in table] == [
        ("Herzbube I", 2, 1),
        ("Schellen I", 0, 1),
    ]


def test_team_page_shows_roster_and_fixtures(world: LeagueWorld) -> None:
    page = Client().get(f"/leagues/{world.league.slug}/teams/{world.team_b.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert all(p.name in html for p in world.players_b)
    assert "Herzbube I" in html


def test_private_league_pages_are_not_found(world: LeagueWorld) -> None:
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    slug = world.league.slug
    team = world.team_a.pk
    for url in (
        f"/leagues/{slug}/",
        f"/leagues/{slug}/calendar.ics",
        f"/leagues/{slug}/fixtures.csv",
        f"/leagues/{slug}/teams/{team}/",
    ):
        assert Client().get(url).status_code == 404
    assert "Bodensee" not in Client().get("/leagues/").content.decode()


def test_calendar_feeds(world: LeagueWorld) -> None:
    berlin = ZoneInfo("Europe/Berlin")
    MatchDay.objects.filter(round=1).update(
        starts_at=datetime(2025, 10, 4, 19, 0, tzinfo=berlin), venue="Krone; Saal 2, Konstanz"
    )
    reply = Client().get(f"/leagues/{world.league.slug}/calendar.ics")
    assert reply.status_code == 200
    assert reply["Content-Type"].startswith("text/calendar")
    text = reply.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert text.endswith("END:VCALENDAR\r\n")
    assert text.count("BEGIN:VEVENT") == 1  # the second match day has no date yet
    assert "DTSTART:20251004T170000Z\r\n" in text
    assert "LOCATION:Krone\\; Saal 2\\, Konstanz\r\n" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    team = Client().get(f"/leagues/{world.league.slug}/teams/{world.team_b.pk}/calendar.ics")
    assert "Herzbube I – Schellen I" in team.content.decode()


def test_csv_exports(world: LeagueWorld) -> None:
    finish(MatchDay.objects.get(round=1), home=2, away=2, augen=(200, 190), final=True)
    table = Client().get(f"/leagues/{world.league.slug}/divisions/{world.division.pk}/table.csv")
    rows = list(csv.reader(io.StringIO(table.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Rang", "Team", "Club"]
    assert [r[1] for r in rows[1:]] == ["Herzbube I", "Schellen I"]
    assert [r[7] for r in rows[1:]] == ["1", "1"]
    fixtures = Client().get(f"/leagues/{world.league.slug}/fixtures.csv")
    rows = list(csv.reader(io.StringIO(fixtures.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 3
    assert rows[1][4:] == ["Herzbube I", "Schellen I", "final", "2:2", "200:190"]
