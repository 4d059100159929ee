"""The season table of club evenings (RULES.md, "Season of club evenings"): reads only.

The evenings are the finished tournaments of the season (as for the club tables, a
running evening enters when it is finished). An evening's score is a player's
tournament points in its standings; in a pairs tournament both players of a pair score
the pair's points. ``season_ranking.season_table`` ranks by the best N evenings among players
with at least M. Each row also keeps the player's points of every evening (``scores``, in
the order of ``evenings``; None where they did not play) for the CSV. Computed on demand
from the standings (stored snapshots when they are current), cached per club results
version.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from tournaments.clubs.models import Player, Season
from tournaments.events.models import TeamMember, Tournament
from tournaments.results import season_ranking, snapshots
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


def compute_season_table(season: Season) -> dict[str, Any]:
    evenings = season_evenings(season)
    points = [(t.pk, evening_points(t)) for t in evenings]
    rows = season_ranking.season_table(
        points,
        best_of=season.best_of,
        min_evenings=season.min_evenings,
    )
    names = Player.objects.public_names([r.player for r in rows])
    return {
        "season": season.pk,
        "name": season.name,
        "best_of": season.best_of,
        "min_evenings": season.min_evenings,
        "evenings": [{"tournament": t.pk, "name": t.name} for t in evenings],
        "rows": [
            {
                **row.to_dict(),
                "name": names.get(row.player, ""),
                "scores": [scores.get(row.player) for _, scores in points],
            }
            for row in rows
        ],
    }


def season_table(season: Season) -> dict[str, Any]:
    """The season table, cached until a result of the club or the season changes."""
    key = (
        f"season-table-v2:{season.pk}:{season.club.results_version}:{season.best_of}:"
        f"{season.min_evenings}:{season.tournaments.filter(status='finished').count()}"
    )
    table = cache.get(key)
    if table is None:
        table = compute_season_table(season)
        cache.set(key, table, CACHE_SECONDS)
    return table  # type: ignore[no-any-return]
