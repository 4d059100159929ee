"""Read helpers for the web pages: stored standings and leaderboards shaped for templates.

What it does: tournament standings come from the ``StandingsSnapshot`` when it holds the
current ``results_version``; a club's all-time table, KlammernBoss history and league
tables from the ``ClubSnapshot`` likewise. When a snapshot is missing or behind (the
Celery recompute has not run yet), the same platform computation runs here, read-only,
cached per results version (tournament standings through ``selectors.cached_standings``),
so a page never shows older results than were entered.
It also builds a player's results and the rank-over-rounds chart.
It writes nothing; the recompute services and tasks own the snapshots.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from tournaments import leaderboards, selectors, services, standings
from tournaments.models import Club, Match, Player, Season, Seat, Team, Tournament

COUNTED = ("published", "closed")  # rounds whose seats and results are public
CRITERIA = {
    "tournament_points": (_("Pts"), _("Tournament points: 2 per win, 1 per draw")),
    "games_won": (_("Won"), _("Games won")),
    "point_difference": (_("Diff"), _("Point difference")),
    "augen": (_("Augen"), _("Match points (Augen) scored")),
    "buchholz": (_("Buchholz"), _("Opponents' strength (Buchholz)")),
    "head_to_head": (_("H2H"), _("Head-to-head among the tied")),
}
CLUB_CACHE_SECONDS = 300


# --- tournament standings -------------------------------------------------------------


def standings_view(tournament: Tournament) -> dict[str, Any]:
    """Rows with names for the standings pages, plus where they came from."""
    state = selectors.standings_state(tournament)
    data = state["data"] if isinstance(state["data"], dict) else {}
    source = "snapshot"
    if not (state["up_to_date"] and isinstance(data.get("rows"), list)):
        source = "live"
        data = selectors.cached_standings(
            tournament, "live",
            lambda: services.compute_tournament_standings(tournament_id=tournament.pk),
        )  # fmt: skip
    rows = [dict(row) for row in data.get("rows", [])]
    missing = [r["entrant"] for r in rows if not r.get("name")]
    if missing:
        model = Team if tournament.uses_teams else Player
        names = dict(model.objects.filter(pk__in=missing).values_list("pk", "name"))
        for row in rows:
            row.setdefault("name", names.get(row["entrant"], "?"))
            row["name"] = row["name"] or names.get(row["entrant"], "?")
    played = any(row.get("played") for row in rows)
    chain = data.get("tiebreaks") or [c.value for c in services.tiebreak_chain(tournament)]
    for row in rows:
        row["cells"] = _criterion_cells(row, chain)
    return {"rows": rows, "source": source, "version": tournament.results_version,
            "columns": [_criterion_column(key) for key in chain],
            "has_games": played or bool(data.get("games"))}  # fmt: skip


def _criterion_column(key: str) -> dict[str, str]:
    label, title = CRITERIA.get(key, (key, key))
    return {"key": key, "label": str(label), "title": str(title)}


def _criterion_cells(row: dict[str, Any], chain: list[str]) -> list[dict[str, Any]]:
    """The row's value for each criterion of the chain, marking the one that decided its
    place against the next row."""
    return [{"value": _plain(row.get(key)), "decides": key == row.get("decided_by")}
            for key in chain]  # fmt: skip


def _plain(value: Any) -> Any:
    """Whole numbers without a trailing .0 (a round-average bye can give fractions)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return "–" if value is None else value


def rank_history(tournament: Tournament, entrant: int) -> list[tuple[int, int, int]]:
    """(round, rank, field size) of an entrant after each published or closed round."""
    games, byes, entrants = services.tournament_results(tournament)
    chain, bye_score = services.tiebreak_chain(tournament), services.bye_score(tournament)
    out = []
    for number in sorted({g.round for g in games} | {b.round for b in byes}):
        rows = standings.tournament_standings(
            [g for g in games if g.round <= number], byes=[b for b in byes if b.round <= number],
            tiebreaks=chain, bye_score=bye_score, entrants=entrants,
        )  # fmt: skip
        for row in rows:
            if row.entrant == entrant:
                out.append((number, row.rank, len(rows)))
    return out


def rank_chart(points: list[tuple[int, int, int]], *, width: int = 320,
               height: int = 160) -> dict[str, Any]:  # fmt: skip
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


# --- players --------------------------------------------------------------------------


def player_results(player: Player) -> list[dict[str, Any]]:
    """Every table the player sat at in public tournaments' published or closed rounds,
    newest first, with the match as it stands."""
    seats = list(
        Seat.objects.filter(player=player, round__tournament__is_public=True,
                            round__status__in=COUNTED)
        .select_related("table__match", "round__tournament")
        .order_by("-round__tournament__created", "-round__number")
    )  # fmt: skip
    scored = {s.match: s for s in selectors.scored_matches(
        Match.objects.filter(table__in=[seat.table_id for seat in seats]))}  # fmt: skip
    ids = {p for s in scored.values() for p in s.seats}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    return [_result_row(seat, scored.get(seat.table.match.pk), names) for seat in seats]


def _result_row(seat: Seat, score: Any, names: dict[int, str]) -> dict[str, Any]:
    team = seat.position % 2
    row: dict[str, Any] = {"tournament": seat.round.tournament, "round": seat.round.number,
                           "table": seat.table.number, "score": score}  # fmt: skip
    if score is None:
        return row
    pick = lambda pair: (pair[team], pair[1 - team])  # noqa: E731 - own side first
    game = standings.GameResult(0, 0, ((0,), (1,)), score.big, score.small, score.match_points)
    winner = game.winner()
    row.update({
        "partner": names.get(score.seats[(seat.position + 2) % 4], ""),
        "opponents": [names.get(score.seats[p], "") for p in (1 - team, 3 - team)],
        "big": pick(score.big), "small": pick(score.small), "mp": pick(score.match_points),
        "outcome": "draw" if winner is None else ("won" if winner == team else "lost"),
    })  # fmt: skip
    return row


# --- club leaderboards ----------------------------------------------------------------


def club_view(club: Club) -> dict[str, Any]:
    """The all-time table, the KlammernBoss with the title's history, league tables."""
    state = selectors.club_leaderboards(club)
    data = state["data"] if isinstance(state["data"], dict) else {}
    if not (state["up_to_date"] and "all_time" in data):
        data = cache.get_or_set(
            f"web:club:{club.pk}:{club.results_version}",
            lambda: leaderboards.compute_club_leaderboards(club_id=club.pk),
            CLUB_CACHE_SECONDS,
        )
    names = {row["player"]: row.get("name", "") for row in data.get("all_time", [])}
    boss = data.get("boss") or {}
    titles, previous = [], None
    for entry in boss.get("history", []):
        titles.append(
            {
                "tournament_name": entry.get("tournament_name", ""),
                "boss": entry.get("boss"),
                "name": names.get(entry.get("boss"), ""),
                "new": entry.get("boss") is not None and entry.get("boss") != previous,
            }
        )
        previous = entry.get("boss")
    return {
        "all_time": data.get("all_time", []),
        "boss": boss.get("current"),
        "boss_name": boss.get("current_name") or names.get(boss.get("current"), ""),
        "titles": list(reversed(titles)),
        "leagues": {league["season"]: league["rows"] for league in data.get("leagues", [])},
    }


def league_rows(season: Season) -> list[dict[str, Any]]:
    return club_view(season.club)["leagues"].get(season.pk, [])
