"""Paper for the organiser's table.

- Score sheets, the fallback when a tablet fails: one A4 page per table of a round with
  its players, the columns the game counts per deal (``GameProfile.paper_columns``: small
  and big points, points, roem and pit, announcements and belote, ...), one row for each
  of the match's deals, a total line and signature lines for both teams (or for each
  player at a table of single players).
- The finals bracket on one A4 page: its stages side by side, the pairs with their seeds,
  the scores so far and the placings."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games import profiles
from tournaments.events.models import Match, Table, Tournament
from tournaments.events.selectors import tournament_profile
from tournaments.pairs import finals

from .console import _round, _tournament, organiser_required
from .public import seating_tables

#: Rows of a match played to a target (its number of deals is not known in advance).
TARGET_ROWS = 24
#: More rows than this are printed smaller so that the page stays one A4 page.
ROOMY_ROWS = 20


def match_rows(tournament: Tournament, match: Match | None) -> int:
    """The rows a table's sheet needs: the match's deals, or ``TARGET_ROWS`` for a match
    played to a target."""
    mode = match.mode if match is not None else tournament.match_mode
    if mode == Match.Mode.LIGA:
        return TARGET_ROWS
    planned = match.deals_planned if match is not None else None
    return planned or tournament.deals_per_match


def sheet_sides(profile: profiles.GameProfile, names: list[str]) -> list[dict[str, str]]:
    """The table's sides as the sheet heads them: the seats ("1+3", "2") and the players."""
    return [
        {"heading": profile.side_heading(side), "names": name}
        for side, name in enumerate(profile.side_names(names))
    ]


def table_sheet(
    tournament: Tournament, profile: profiles.GameProfile, table: Table
) -> dict[str, Any]:
    """One table's sheet: its seats, sides, rows and the match's length in words."""
    seats = list(table.seats.all())
    names = [seat.player.name for seat in seats]
    match = getattr(table, "match", None)
    rows = match_rows(tournament, match)
    mode = match.mode if match is not None else tournament.match_mode
    target = (match.target if match is not None else None) or tournament.liga_target
    return {
        "table": table,
        "seats": seats,
        "sides": sheet_sides(profile, names) if len(names) == profile.players else [],
        "rows": range(1, rows + 1),
        "dense": rows > ROOMY_ROWS,
        "length": profile.match_description(mode=mode, target=target, deals=rows),
        "match": match,
    }


@organiser_required
def score_sheets(request: HttpRequest, pk: int) -> HttpResponse:
    """The round's paper score sheets, one A4 page per table (organisers only)."""
    round_ = _round(request, pk)
    tournament = round_.tournament
    profile = tournament_profile(tournament)
    sheets = [table_sheet(tournament, profile, table) for table in seating_tables(round_)]
    columns = [column.shown() for column in profile.paper_columns]
    return render(
        request,
        "console/print_score_sheets.html",
        {
            "round": round_,
            "tournament": tournament,
            "profile": profile,
            "columns": columns,
            "span": len(columns),
            "sheets": sheets,
        },
    )


@organiser_required
def bracket_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The finals bracket on one A4 page (drawn rounds included, as the console shows it)."""
    tournament = _tournament(request, pk)
    bracket = finals.bracket(tournament, include_drafts=True)
    if not bracket["stages"]:
        raise Http404("No finals yet.")
    return render(
        request,
        "console/print_bracket.html",
        {"tournament": tournament, "bracket": bracket, "stages": len(bracket["stages"])},
    )
