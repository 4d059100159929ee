"""Club leaderboards: the all-time table (ewige Tabelle), the KlammernBoss with the
title's history, and the league table of each season, recomputed into ``ClubSnapshot``.

What it does: loads the finished and confirmed table matches of all the club's
tournaments (one "evening" per tournament, in creation order; one "game" per table match,
RULES.md "KlammernBoss"), runs ``tournaments.standings`` and stores the JSON-ready result.
Pages and the API read the snapshot only (``selectors.club_leaderboards``).
What it does not do: no tournament standings (``services.compute_tournament_standings``),
no HTTP, no queueing (``services.enqueue_leaderboards_recompute`` and ``tasks``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from . import selectors, standings
from .models import Club, ClubSnapshot, Match, Player, Season, Team, Tournament
from .services import store_snapshot

COUNTED = (Match.Status.FINISHED, Match.Status.CONFIRMED)


def _game(match: selectors.ScoredMatch) -> standings.GameResult:
    s = match.seats
    return standings.GameResult(
        round=match.round, table=match.table, teams=((s[0], s[2]), (s[1], s[3])),
        big=match.big, small=match.small, match_points=match.match_points,
    )  # fmt: skip


def _boss(club: Club, evenings: list[Tournament], games: dict[int, list[Any]]) -> dict[str, Any]:
    history = standings.boss_history(
        [standings.Evening(t.pk, tuple(games.get(t.pk, ()))) for t in evenings],
        window=club.boss_window,
    )
    names = {t.pk: t.name for t in evenings}
    entries = [{**entry.to_dict(), "tournament_name": names[entry.evening]} for entry in history]
    return {
        "window": club.boss_window,
        "current": history[-1].boss if history else None,
        "history": entries,
    }


def _league_match(match: selectors.ScoredMatch) -> standings.LeagueMatch | None:
    if match.liga_winner is None or match.home_team is None or match.away_team is None:
        return None
    return standings.LeagueMatch(
        home=match.home_team, away=match.away_team,
        home_points=match.match_points[0], away_points=match.match_points[1],
        winner=match.home_team if match.liga_winner == 0 else match.away_team,
    )  # fmt: skip


def _leagues(club: Club, scored: list[selectors.ScoredMatch]) -> list[dict[str, Any]]:
    season_of = dict(
        Tournament.objects.filter(club=club, season__isnull=False).values_list("pk", "season_id")
    )
    by_season: dict[int, list[standings.LeagueMatch]] = defaultdict(list)
    for match in scored:
        league_match = _league_match(match)
        if league_match is not None and match.tournament in season_of:
            by_season[season_of[match.tournament]].append(league_match)
    out = []
    for season in Season.objects.filter(club=club).order_by("starts_on", "pk"):
        teams = Team.objects.filter(tournament__season=season, tournament__format="league")
        team_names = dict(teams.values_list("pk", "name"))
        rows = standings.league_table(by_season.get(season.pk, []), teams=list(team_names))
        table = [{**row.to_dict(), "name": team_names.get(row.team, "")} for row in rows]
        out.append({"season": season.pk, "name": season.name, "rows": table})
    return out


def compute_club_leaderboards(*, club_id: int) -> dict[str, Any]:
    """A full recompute of the club's leaderboards (reads only); ``results_version`` is
    the club's version read before the results."""
    club = Club.objects.get(pk=club_id)
    evenings = list(Tournament.objects.filter(club=club).order_by("created", "pk"))
    matches = Match.objects.filter(round__tournament__club=club, status__in=COUNTED)
    scored = selectors.scored_matches(matches)
    games: dict[int, list[standings.GameResult]] = defaultdict(list)
    for match in sorted(scored, key=lambda m: (m.round, m.table)):
        games[match.tournament].append(_game(match))
    all_time = standings.all_time_table(g for t in evenings for g in games.get(t.pk, ()))
    boss = _boss(club, evenings, games)
    ids = {row.player for row in all_time}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    boss["current_name"] = names.get(boss["current"], "")
    return {
        "results_version": club.results_version,
        "all_time": [{**row.to_dict(), "name": names.get(row.player, "")} for row in all_time],
        "boss": boss,
        "leagues": _leagues(club, scored),
    }


def recompute_club_leaderboards(*, club_id: int) -> bool:
    """Recompute and store the club's leaderboards unless the snapshot holds this or a
    newer version. True if stored."""
    data = compute_club_leaderboards(club_id=club_id)
    return store_snapshot(
        ClubSnapshot, owner={"club_id": club_id}, data=data, version=data["results_version"]
    )
