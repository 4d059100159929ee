"""The season table of club evenings (RULES.md, "Season of club evenings"): reads only.

The evenings are the finished tournaments of the season (as for the club tables, a
running evening enters when it is finished) and the evenings imported into it from the
club's spreadsheet (``history``), in the order they were played (by day; on one day an
imported evening first). An evening's score is a player's tournament points in its
standings; in a pairs tournament both players of a pair score the pair's points. An
imported evening's score is the player's games won times ``standings.WIN_POINTS``
(``ImportedTally.tournament_points``: the file has no draws); its id is its own negated,
as in the club tables, and it is marked ``imported``. ``season_ranking.season_table`` ranks
by the best N evenings among players with at least M. Each row also keeps the player's
points of every evening (``scores``, in the order of ``evenings``; None where they did
not play) for the CSV. Computed on demand from the standings (stored snapshots when they
are current), cached per club results version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from tournaments.clubs.models import Player, Season
from tournaments.clubs.names import in_reader_language
from tournaments.events.models import TeamMember, Tournament
from tournaments.history.models import ImportedEvening
from tournaments.results import season_ranking, snapshots, standings
from tournaments.results.models import StandingsSnapshot

CACHE_SECONDS = 300


def _evening_rows(tournament: Tournament) -> list[dict[str, Any]]:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    if snapshot and snapshot.computed_version >= tournament.results_version:
        return list(snapshot.data.get("rows", []))
    return snapshots.compute_tournament_standings(tournament_id=tournament.pk)["rows"]


def _evening_score(row: dict[str, Any]) -> Any:
    """An evening's score of one row: its tournament points, or a duplicate evening's
    percentage (which ranks it; its rows have no tournament points)."""
    if "tournament_points" in row:
        return row["tournament_points"]
    return row.get("percentage") or 0


def evening_points(tournament: Tournament) -> dict[int, Any]:
    """Player → tournament points of one evening (a pair's points for both players; a
    duplicate evening's percentage)."""
    rows = _evening_rows(tournament)
    if not tournament.uses_teams:
        return {row["entrant"]: _evening_score(row) for row in rows}
    members: dict[int, list[int]] = {}
    for team, player in TeamMember.objects.filter(team__tournament=tournament).values_list(
        "team_id", "player_id"
    ):
        members.setdefault(team, []).append(player)
    return {
        player: _evening_score(row) for row in rows for player in members.get(row["entrant"], [])
    }


def season_evenings(season: Season) -> list[Tournament]:
    return list(
        season.tournaments.filter(status=Tournament.Status.FINISHED).order_by("created", "pk")
    )


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of a season table: its id (a tournament's, or an imported evening's
    negated), name, player → score, and when it was played (for the order)."""

    id: int
    name: str
    points: dict[int, Any]
    when: tuple[date, int, int]
    imported: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "evening": self.id,
            "tournament": None if self.imported else self.id,
            "name": self.name,
            "imported": self.imported,
        }


def _played(season: Season) -> list[SeasonEvening]:
    return [
        SeasonEvening(t.pk, t.name, evening_points(t), (timezone.localdate(t.created), 1, i))
        for i, t in enumerate(season_evenings(season))
    ]


def _imported(season: Season) -> list[SeasonEvening]:
    evenings = (
        ImportedEvening.objects.filter(club_season=season)
        .select_related("club_season")
        .prefetch_related("results")
    )
    return [
        SeasonEvening(
            -e.pk,
            snapshots.imported_evening_name(e),
            {
                r.player_id: standings.ImportedTally(
                    r.player_id, r.played, r.won, r.point_difference
                ).tournament_points
                for r in e.results.all()
            },
            (e.date, 0, e.pk),
            imported=True,
        )
        for e in evenings
    ]


def compute_season_table(season: Season) -> dict[str, Any]:
    evenings = sorted(_played(season) + _imported(season), key=lambda e: e.when)
    rows = season_ranking.season_table(
        [(e.id, e.points) for e in evenings],
        best_of=season.best_of,
        min_evenings=season.min_evenings,
    )
    names = Player.objects.stored_names([r.player for r in rows])
    return {
        "season": season.pk,
        "name": season.name,
        "best_of": season.best_of,
        "min_evenings": season.min_evenings,
        "evenings": [e.to_dict() for e in evenings],
        "imported": sum(e.imported for e in evenings),
        "rows": [
            {
                **row.to_dict(),
                **names.get(row.player, {"name": ""}),
                "scores": [e.points.get(row.player) for e in evenings],
            }
            for row in rows
        ],
    }


def season_table(season: Season) -> dict[str, Any]:
    """The season table, cached until a result of the club or the season changes, its
    players named in the reader's language (``names.in_reader_language``)."""
    key = (
        f"season-table-v2:{season.pk}:{season.club.results_version}:{season.best_of}:"
        f"{season.min_evenings}:{season.tournaments.filter(status='finished').count()}"
    )
    table = cache.get(key)
    if table is None:
        table = compute_season_table(season)
        cache.set(key, table, CACHE_SECONDS)
    return {**table, "rows": in_reader_language(table["rows"])}
