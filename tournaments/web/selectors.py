"""Read helpers for the web pages: tables of results turned into what templates show.

What it does: loads matches, seats and current deal results, turns each table's match into
a ``standings.GameResult`` (big/small points from the engine's keepers) and runs the pure
functions of ``tournaments.standings`` for the tournament table, the club's all-time table,
the KlammernBoss history and a season's league table.

Tournament standings come from the ``StandingsSnapshot`` when it is up to date and holds
rows; otherwise they are computed here from the current results and cached per
``results_version`` (the Celery recompute fills the snapshot once it is wired). Club tables
(all-time, boss, league) are computed here until snapshot selectors for them exist.
It writes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games.models import DealVersion
from games.services import engine_module
from tournaments import standings
from tournaments.models import (
    Bye,
    Club,
    Match,
    Player,
    Round,
    Season,
    Seat,
    Team,
    Tournament,
)
from tournaments.selectors import standings_state

TIEBREAK_NAMES = {
    "match_points": standings.TieBreak.TOURNAMENT_POINTS,
    "tournament_points": standings.TieBreak.TOURNAMENT_POINTS,
    "games_won": standings.TieBreak.GAMES_WON,
    "point_difference": standings.TieBreak.POINT_DIFFERENCE,
    "points": standings.TieBreak.AUGEN,
    "augen": standings.TieBreak.AUGEN,
    "opponents_strength": standings.TieBreak.BUCHHOLZ,
    "buchholz": standings.TieBreak.BUCHHOLZ,
    "head_to_head": standings.TieBreak.HEAD_TO_HEAD,
}
FINISHED = (Match.Status.FINISHED, Match.Status.CONFIRMED)


@dataclass(frozen=True)
class MatchScore:
    """A table's match as the pages show it."""

    match: Match
    seats: tuple[int, int, int, int]
    big: tuple[int, int]
    small: tuple[int, int]
    match_points: tuple[int, int]
    deals: int

    def game(self, *, entrants: tuple[tuple[int, ...], tuple[int, ...]]) -> standings.GameResult:
        return standings.GameResult(
            round=self.match.round.number, table=self.match.table.number, teams=entrants,
            big=self.big, small=self.small, match_points=self.match_points,
        )  # fmt: skip


def _results_by_match(matches: Iterable[Match]) -> dict[int, list[dict[str, Any]]]:
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    versions = (
        DealVersion.objects.current()
        .filter(deal__match__in=list(matches))
        .order_by("deal__match_id", "deal__number")
        .values_list("deal__match_id", "result")
    )
    for match_id, result in versions:
        results[match_id].append(result)
    return results


def match_scores(matches: Iterable[Match]) -> list[MatchScore]:
    """Score of every given match that has at least one deal and four seats."""
    matches = list(matches)
    engine = engine_module()
    results = _results_by_match(matches)
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, player_id in Seat.objects.filter(
        table__in=[m.table_id for m in matches]
    ).values_list("table_id", "position", "player_id"):
        seats[table_id][position] = player_id
    out = []
    for match in matches:
        deal_results = results.get(match.pk, [])
        table_seats = seats.get(match.table_id, {})
        if not deal_results or len(table_seats) != 4:
            continue
        state = engine.score_small_big(deal_results)
        mp = (sum(r["match_points"][0] for r in deal_results),
              sum(r["match_points"][1] for r in deal_results))  # fmt: skip
        out.append(MatchScore(match, tuple(table_seats[p] for p in range(4)),  # type: ignore[arg-type]
                              state.big, state.small, mp, len(deal_results)))  # fmt: skip
    return out


def _matches(**filters: Any) -> Any:
    return Match.objects.filter(**filters).select_related("round__tournament", "table")


# --- tournament standings -------------------------------------------------------------


def _tiebreaks(tournament: Tournament) -> tuple[standings.TieBreak, ...]:
    chain = []
    for name in tournament.tiebreaks or []:
        criterion = TIEBREAK_NAMES.get(name)
        if criterion is not None and criterion not in chain:
            chain.append(criterion)
    if not chain or chain[0] in (standings.TieBreak.BUCHHOLZ, standings.TieBreak.HEAD_TO_HEAD):
        return standings.DEFAULT_TIEBREAKS
    return tuple(chain)


def _bye_score(tournament: Tournament) -> standings.ByeScore:
    if tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED:
        return standings.ByeScore.fixed(tournament.bye_fixed_points)
    return standings.ByeScore()


def _team_of_players(tournament: Tournament) -> dict[int, int]:
    return {
        player_id: team_id
        for team_id, player_id in Team.objects.filter(tournament=tournament).values_list(
            "id", "members__player_id"
        )
        if player_id is not None
    }


def _entrants(score: MatchScore, team_of: dict[int, int] | None) -> Any:
    s = score.seats
    if team_of is None:
        return ((s[0], s[2]), (s[1], s[3]))
    return ((team_of.get(s[0], -s[0]),), (team_of.get(s[1], -s[1]),))


def tournament_games(
    tournament: Tournament, *, up_to_round: int | None = None
) -> list[standings.GameResult]:
    """Every table's match with deals (live: unfinished matches count as they stand)."""
    matches = _matches(round__tournament=tournament).exclude(round__status=Round.Status.DRAFT)
    if up_to_round is not None:
        matches = matches.filter(round__number__lte=up_to_round)
    team_of = _team_of_players(tournament) if tournament.uses_teams else None
    return [s.game(entrants=_entrants(s, team_of)) for s in match_scores(matches)]


def compute_standings(
    tournament: Tournament, *, up_to_round: int | None = None
) -> list[dict[str, Any]]:
    games = tournament_games(tournament, up_to_round=up_to_round)
    byes = Bye.objects.filter(round__tournament=tournament).exclude(
        round__status=Round.Status.DRAFT
    )
    if up_to_round is not None:
        byes = byes.filter(round__number__lte=up_to_round)
    bye_rows = [standings.Bye(r, p) for r, p in byes.values_list("round__number", "player_id")]
    if tournament.uses_teams:
        bye_rows = []  # a pair's bye is not a player's; pairs are ranked on games only
    rows = standings.tournament_standings(
        games, byes=bye_rows, tiebreaks=_tiebreaks(tournament), bye_score=_bye_score(tournament)
    )
    return [row.to_dict() for row in rows]


def _snapshot_rows(state: dict[str, Any]) -> list[dict[str, Any]] | None:
    rows = state["data"].get("rows") if isinstance(state["data"], dict) else None
    if state["up_to_date"] and isinstance(rows, list) and all("entrant" in r for r in rows):
        return rows
    return None


def _names(tournament: Tournament, entrant_ids: Iterable[int]) -> dict[int, str]:
    ids = list(entrant_ids)
    model = Team if tournament.uses_teams else Player
    return dict(model.objects.filter(pk__in=ids).values_list("pk", "name"))


def standings_view(tournament: Tournament) -> dict[str, Any]:
    """Rows with names for the standings pages, plus where they came from."""
    state = standings_state(tournament)
    rows = _snapshot_rows(state)
    source = "snapshot"
    if rows is None:
        source = "live"
        key = f"web:standings:{tournament.pk}:{tournament.results_version}"
        rows = cache.get(key)
        if rows is None:
            rows = compute_standings(tournament)
            cache.set(key, rows, 300)
    names = _names(tournament, (r["entrant"] for r in rows))
    for row in rows:
        row["name"] = names.get(row["entrant"], "?")
    return {"rows": rows, "source": source, "version": tournament.results_version,
            "computed_at": state["computed_at"]}  # fmt: skip


# --- players --------------------------------------------------------------------------


def player_results(player: Player) -> list[dict[str, Any]]:
    """Every match the player sat in (public tournaments only), newest first."""
    seats = list(
        Seat.objects.filter(player=player, round__tournament__is_public=True)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("table__match", "round__tournament")
    )
    scores = {s.match.pk: s for s in match_scores(seat.table.match for seat in seats)}
    names = dict(Player.objects.filter(seats__table__in=[s.table for s in seats])
                 .values_list("pk", "name"))  # fmt: skip
    rows = []
    for seat in seats:
        score = scores.get(seat.table.match.pk)
        team = seat.position % 2
        row = {"tournament": seat.round.tournament, "round": seat.round.number,
               "table": seat.table.number, "team": team, "score": score, "outcome": None}  # fmt: skip
        if score is not None:
            partner = score.seats[(seat.position + 2) % 4]
            row["partner"] = names.get(partner, "")
            row["opponents"] = [names.get(score.seats[p], "") for p in (1 - team, 3 - team)]
            row["big"] = (score.big[team], score.big[1 - team])
            row["small"] = (score.small[team], score.small[1 - team])
            row["mp"] = (score.match_points[team], score.match_points[1 - team])
            game = score.game(entrants=((0,), (1,)))
            winner = game.winner()
            row["outcome"] = "draw" if winner is None else ("won" if winner == team else "lost")
        rows.append(row)
    rows.sort(key=lambda r: (-r["tournament"].pk, -r["round"]))
    return rows


def rank_history(tournament: Tournament, entrant: int) -> list[tuple[int, int, int]]:
    """(round, rank, field size) of an entrant after each closed or published round."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")
    out = []
    for round_ in rounds:
        rows = compute_standings(tournament, up_to_round=round_.number)
        for row in rows:
            if row["entrant"] == entrant:
                out.append((round_.number, row["rank"], len(rows)))
    return out


def rank_chart(points: list[tuple[int, int, int]], *, width: int = 320, height: int = 160) -> dict:
    """Coordinates for an inline SVG line chart of rank over rounds (rank 1 on top)."""
    if not points:
        return {}
    pad = 28
    rounds = max(p[0] for p in points)
    field = max(p[2] for p in points)
    def x(r: int) -> float:
        return pad + (width - 2 * pad) * ((r - 1) / max(rounds - 1, 1))
    def y(rank: int) -> float:
        return pad / 2 + (height - pad * 1.5) * ((rank - 1) / max(field - 1, 1))
    dots = [{"x": round(x(r), 1), "y": round(y(k), 1), "round": r, "rank": k}
            for r, k, _ in points]  # fmt: skip
    return {
        "width": width, "height": height, "dots": dots,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "x_labels": [{"x": round(x(r), 1), "label": r} for r in range(1, rounds + 1)],
        "y_labels": [{"y": round(y(k), 1), "label": k} for k in sorted({1, field})],
        "baseline": height - pad, "left": pad, "right": width - pad,
    }  # fmt: skip


# --- club tables ----------------------------------------------------------------------


def _evenings(club: Club) -> list[tuple[Tournament, list[standings.GameResult]]]:
    tournaments = list(club.tournaments.order_by("created", "pk"))
    matches = _matches(round__tournament__in=tournaments, status__in=FINISHED)
    by_tournament: dict[int, list[standings.GameResult]] = defaultdict(list)
    for s in match_scores(matches):
        by_tournament[s.match.round.tournament_id].append(s.game(entrants=_entrants(s, None)))
    return [(t, by_tournament.get(t.pk, [])) for t in tournaments]


def club_tables(club: Club) -> dict[str, Any]:
    """The all-time table, the KlammernBoss and the title's history."""
    evenings = _evenings(club)
    games = [g for _, gs in evenings for g in gs]
    table = [row.to_dict() for row in standings.all_time_table(games)]
    history = standings.boss_history(
        [standings.Evening(t.pk, tuple(gs)) for t, gs in evenings], window=club.boss_window
    )
    tournaments = {t.pk: t for t, _ in evenings}
    ids = {r["player"] for r in table} | {h.boss for h in history if h.boss is not None}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    for row in table:
        row["name"] = names.get(row["player"], "?")
    titles = []
    previous = None
    for entry in history:
        titles.append({"tournament": tournaments[entry.evening], "boss": entry.boss,
                       "name": names.get(entry.boss, ""), "decided_by": entry.decided_by.value,
                       "new": entry.boss is not None and entry.boss != previous})  # fmt: skip
        previous = entry.boss
    boss = history[-1].boss if history else None
    return {"all_time": table, "boss": boss, "boss_name": names.get(boss, ""),
            "titles": list(reversed(titles))}  # fmt: skip


def league_table(season: Season) -> list[dict[str, Any]]:
    """The season table from finished Liga-Partien between two teams."""
    engine = engine_module()
    matches = list(
        _matches(round__tournament__season=season, status__in=FINISHED,
                 home_team__isnull=False, away_team__isnull=False)
    )  # fmt: skip
    results = _results_by_match(matches)
    league_matches = []
    for m in matches:
        state = engine.score_liga(results.get(m.pk, []), target=m.target or 51)
        if state.winner is None:
            continue
        winner = m.home_team_id if state.winner == 0 else m.away_team_id
        league_matches.append(standings.LeagueMatch(
            m.home_team_id, m.away_team_id, state.points[0], state.points[1], winner))  # fmt: skip
    teams = Team.objects.filter(tournament__season=season)
    rows = [r.to_dict() for r in standings.league_table(league_matches,
                                                         teams=teams.values_list("pk", flat=True))]  # fmt: skip
    names = dict(teams.values_list("pk", "name"))
    for row in rows:
        row["name"] = names.get(row["team"], "?")
    return rows
