"""Reads for the history import: the club's players and seasons by name, the dates of its
evenings, its imports."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, QuerySet
from django.utils import timezone

from tournaments.clubs.models import Club, Player, Season
from tournaments.events.models import Tournament
from tournaments.history.models import HistoryImport, ImportedEvening
from tournaments.history.parsing import name_key


def known_players(club: Club) -> dict[str, tuple[int, str]]:
    """``name_key`` -> (id, name) of the club's players (two of one name: the older)."""
    known: dict[str, tuple[int, str]] = {}
    for pk, name in Player.objects.filter(clubs=club).order_by("pk").values_list("pk", "name"):
        known.setdefault(name_key(name), (pk, name))
    return known


def known_seasons(club: Club) -> dict[str, tuple[int, str]]:
    """``name_key`` -> (id, name) of the club's seasons (two of one name: the older)."""
    known: dict[str, tuple[int, str]] = {}
    for pk, name in Season.objects.filter(club=club).order_by("pk").values_list("pk", "name"):
        known.setdefault(name_key(name), (pk, name))
    return known


def evening_dates(club: Club) -> set[date]:
    """The days the club already has an evening: imported, or a club tournament (a
    league match day hosted is no club evening) created that day."""
    dates = set(ImportedEvening.objects.filter(club=club).values_list("date", flat=True))
    created = Tournament.objects.filter(club=club, league_match_day__isnull=True).values_list(
        "created", flat=True
    )
    return dates | {timezone.localdate(moment) for moment in created}


def club_imports(club: Club) -> QuerySet[HistoryImport]:
    """The club's imports, newest first, with their number of evenings and lines and the
    seasons they created."""
    return (
        HistoryImport.objects.filter(club=club)
        .annotate(
            evening_count=Count("evenings", distinct=True),
            line_count=Count("evenings__results", distinct=True),
        )
        .select_related("created_by")
        .prefetch_related("created_seasons")
        .order_by("-created", "-pk")
    )
