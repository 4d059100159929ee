"""Public pages of the league of clubs: the leagues, a league's tables and fixtures per
division, team pages, the fixtures as an iCalendar feed (RFC 5545, written by the
``icalendar`` package) and CSV exports of the tables and fixtures (``csv_export``: the
language's delimiter, names that look like formulas neutralised). Private leagues are
there for their organisers only. Only final results count in the tables; provisional
ones are shown marked."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import League, LeagueTeam, MatchDay

from . import csv_export

#: How long a match day lasts in the calendar.
MATCH_DAY_HOURS = 4


def _league(request: HttpRequest, slug: str) -> League:
    return get_object_or_404(league_selectors.visible_leagues(request.user), slug=slug)


def _day_row(day: MatchDay) -> dict[str, Any]:
    """A fixture with the result to show: final, or provisional (confirmed numbers, or
    the tables as they stand) marked so."""
    result = league_selectors.stored_result(day)
    if day.status == MatchDay.Status.OPEN:
        live = league_selectors.day_result(day)
        result = live.columns if live.partien else None
    return {
        "day": day,
        "result": result,
        "final": day.status == MatchDay.Status.FINAL,
        "map_url": map_url(day.venue),
    }


#: OpenStreetMap's search: the venue's name and address as the query.
OSM_SEARCH = "https://www.openstreetmap.org/search?"


def map_url(venue: str) -> str:
    """A link to the venue on OpenStreetMap (empty without a venue)."""
    return OSM_SEARCH + urlencode({"query": venue}) if venue else ""


def _day_state(day: MatchDay) -> str:
    """The state of a match day as the fixtures CSV writes it: its status, or
    ``forfeit`` (the team that did not appear is the one with 0 Partien)."""
    return "forfeit" if day.forfeited_by_id is not None else day.status


def league_list(request: HttpRequest) -> HttpResponse:
    """The current seasons, and the past ones (a next season was made of them) as the
    archive."""
    leagues = league_selectors.visible_leagues(request.user).order_by("-created")
    current = leagues.filter(next_season__isnull=True)
    archive = leagues.filter(next_season__isnull=False)
    return render(request, "league/list.html", {"leagues": current, "archive": archive})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    visible = league_selectors.visible_leagues(request.user)
    seasons = {
        "previous": visible.filter(next_season=league).first(),
        "next": visible.filter(previous=league).first(),
    }
    divisions = [
        {
            "division": division,
            "table": league_selectors.division_table(division),
            "days": [_day_row(d) for d in league_selectors.match_days(division)],
        }
        for division in league.divisions.all()
    ]
    context = {
        "league": league,
        "divisions": divisions,
        "ranking": league_selectors.player_ranking(league),
        **seasons,
    }
    return render(request, "league/league.html", context)


def team_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    team = get_object_or_404(
        LeagueTeam.objects.select_related("club", "division", "captain"),
        pk=pk,
        division__league=league,
    )
    days = [_day_row(d) for d in league_selectors.fixtures_of_team(team)]
    return render(
        request,
        "league/team.html",
        {
            "league": league,
            "team": team,
            "roster": team.roster.order_by("name"),
            "days": days,
        },
    )


# --- iCalendar ------------------------------------------------------------------------------

#: The domain part of every event's UID: fixed, so that a feed reached under another host
#: name (or behind a proxy) never duplicates the events in a subscriber's calendar.
UID_DOMAIN = "klammern"


def ics_calendar(name: str, days: list[MatchDay]) -> bytes:
    """The match days with a date as an iCalendar feed (the ``icalendar`` package writes
    it: every text escaped and folded per RFC 5545, so a name cannot add properties)."""
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//Klammern//Liga//DE")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    now = timezone.now().astimezone(UTC)
    for day in days:
        if day.starts_at is None:
            continue
        event = Event()
        event.add("uid", f"match-day-{day.pk}@{UID_DOMAIN}")
        event.add("dtstamp", now)
        event.add("dtstart", day.starts_at.astimezone(UTC))
        event.add("dtend", (day.starts_at + timedelta(hours=MATCH_DAY_HOURS)).astimezone(UTC))
        event.add("summary", f"{day.home.name} – {day.away.name} ({_('Match day')} {day.round})")
        event.add("location", day.venue)
        if day.forfeited_by_id is not None or day.status == MatchDay.Status.NOT_PLAYED:
            event.add("status", "CANCELLED")  # nobody meets: forfeited or not played
        calendar.add_component(event)
    return calendar.to_ical()


def _ics_response(name: str, days: list[MatchDay]) -> HttpResponse:
    response = HttpResponse(ics_calendar(name, days), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="liga.ics"'
    return response


def league_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    days = MatchDay.objects.filter(division__league=league).select_related("home", "away")
    return _ics_response(str(league), list(days.order_by("starts_at", "pk")))


def team_calendar(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    team = get_object_or_404(LeagueTeam, pk=pk, division__league=league)
    return _ics_response(f"{league} · {team.name}", league_selectors.fixtures_of_team(team))


# --- CSV ------------------------------------------------------------------------------------


def table_csv(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _league(request, slug)
    division = get_object_or_404(league.divisions, pk=pk)
    response, writer = csv_export.csv_response(f"{league.slug}-{division.pk}-table.csv")
    writer.writerow(
        [
            _("Rank"),
            _("Team"),
            _("Club"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            _("Points"),
            _("Partien won"),
            _("Partien lost"),
            _("Augen for"),
            _("Augen against"),
            _("Withdrawn"),
        ]
    )
    for r in league_selectors.division_table(division):
        writer.writerow(
            csv_export.row(
                [
                    r["rank"],
                    r["name"],
                    r["club"],
                    r["played"],
                    r["won"],
                    r["drawn"],
                    r["lost"],
                    r["points"],
                    r["partien_won"],
                    r["partien_lost"],
                    r["augen_for"],
                    r["augen_against"],
                    r["withdrawn"],
                ]
            )
        )
    return response


def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The player ranking (Einzelwertung) of the season."""
    league = _league(request, slug)
    response, writer = csv_export.csv_response(f"{league.slug}-ranking.csv")
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            _("Team"),
            _("Club"),
            _("Partien"),
            _("Won"),
            _("Lost"),
            _("Augen for"),
            _("Augen against"),
            _("Augen difference"),
        ]
    )
    for r in league_selectors.player_ranking(league):
        writer.writerow(
            csv_export.row(
                [
                    r["rank"],
                    r["name"],
                    r["team"],
                    r["club"],
                    r["partien"],
                    r["won"],
                    r["lost"],
                    r["augen_for"],
                    r["augen_against"],
                    r["augen_difference"],
                ]
            )
        )
    return response


def fixtures_csv(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    response, writer = csv_export.csv_response(f"{league.slug}-fixtures.csv")
    writer.writerow(
        [
            _("Division"),
            _("Match day"),
            _("Date"),
            _("Venue"),
            _("Home"),
            _("Away"),
            _("Status"),
            _("Partien"),
            _("Augen"),
        ]
    )
    days = MatchDay.objects.filter(division__league=league).select_related(
        "division", "home", "away", "forfeited_by"
    )
    for day in days.order_by("division__order", "division", *league_selectors.IN_DATE_ORDER):
        result = league_selectors.stored_result(day)
        writer.writerow(
            csv_export.row(
                [
                    day.division.name,
                    day.round,
                    timezone.localtime(day.starts_at).strftime("%Y-%m-%d %H:%M")
                    if day.starts_at
                    else "",
                    day.venue,
                    day.home.name,
                    day.away.name,
                    _day_state(day),
                    f"{result['home_partien']}:{result['away_partien']}" if result else "",
                    f"{result['home_augen']}:{result['away_augen']}" if result else "",
                ]
            )
        )
    return response
