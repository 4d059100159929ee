"""Read helpers for the web pages: stored standings and leaderboards shaped for templates.

What it does: tournament standings come from the ``StandingsSnapshot`` when it holds the
current ``results_version``; a club's all-time table, KlammernBoss history and league
tables from the ``ClubSnapshot`` likewise. When a snapshot is missing or behind (the
Celery recompute has not run yet), the same platform computation runs here, read-only,
cached per results version (tournament standings through ``selectors.cached_standings``),
so a page never shows older results than were entered. Rows of stored tables are named
in the reader's language (``names.in_reader_language``: an anonymised player's
pseudonym), as each page is rendered once per snapshot and language.
It also builds a player's results and the rank-over-rounds chart.
It writes nothing; the recompute services and tasks own the snapshots.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments import formats
from tournaments.clubs.models import Club, Player, Season
from tournaments.clubs.names import in_reader_language
from tournaments.deals import travellers, visibility
from tournaments.events import selectors
from tournaments.events.models import Match, Seat, Team, Tournament
from tournaments.formats import PERCENTAGE, format_profile
from tournaments.results import seasons, snapshots, standings

COUNTED = ("published", "closed")  # rounds whose seats and results are public
CRITERIA = {
    "tournament_points": (_("Pts"), _("Tournament points: 2 per win, 1 per draw")),
    "games_won": (_("Won"), _("Games won")),
    "point_difference": (_("Diff"), _("Point difference")),
    # every game names its match points in its own words (its profile's columns)
    "augen": (_("Points"), _("Points of all matches")),
    "buchholz": (_("Buchholz"), _("Opponents' strength (Buchholz)")),
    "head_to_head": (_("H2H"), _("Head-to-head among the tied")),
    "percentage": ("%", _("Match points as a percentage of the maximum")),
    "duplicate_mp": (
        _("MP"),
        _(
            "Match points: 2 for each team of the same direction that scored less on a "
            "board, 1 for each that scored the same"
        ),
    ),
}
CLUB_CACHE_SECONDS = 300
# A tablet counts as connected while it has opened its table page or polled the score
# (every 20 s) within this time: two polls and some slack, so a tablet that went offline
# stops showing as connected within a minute.
TABLET_SEEN_SECONDS = 50


def tablet_state(row: dict[str, Any], *, recent: Any) -> str:
    """What the console says of a table's tablet: ``connected`` (seen recently),
    ``done`` (the match is over and the tablet holds nothing: it may well be closed),
    ``offline`` (seen before, not lately, while the match is open or the tablet held
    entries: it may hold entries not sent yet), ``not_opened`` (a code, never used) or
    ``no_code``."""
    if not row["device_active"]:
        return "no_code"
    if not row["last_contact"]:
        return "not_opened"
    if row["last_contact"] > recent:
        return "connected"
    if row["status"] != Match.Status.OPEN and not row["queued_entries"]:
        return "done"
    return "offline"


def with_tablet_presence(progress: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Round progress rows with ``tablet_state`` (see ``tablet_state``) and
    ``tablet_seen``: a tablet really has this table open right now, not merely a code
    issued for it (``device_active``) or opened some time ago."""
    recent = timezone.now() - timedelta(seconds=TABLET_SEEN_SECONDS)
    rows = []
    for row in progress:
        state = tablet_state(row, recent=recent)
        rows.append({**row, "tablet_state": state, "tablet_seen": state == "connected"})
    return rows


def close_blockers(progress: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables that keep a round from closing cleanly, as the close form lists them
    (the same three reasons as ``services.round_blockers``), with the tablet's last
    contact and the entries it still holds; ``maybe_waiting`` where the tablet went
    offline on an unfinished match (rows of ``with_tablet_presence``)."""
    rows = []
    for row in progress:
        reasons = {
            "unfinished": row["status"] == Match.Status.OPEN,
            "unconfirmed": row["status"] == Match.Status.FINISHED,
            "waiting": row["queued_entries"] > 0,
        }
        if any(reasons.values()):
            # a tablet gone quiet on an open match may hold entries it could not send
            offline = reasons["unfinished"] and row.get("tablet_state") == "offline"
            rows.append({**row, **reasons, "maybe_waiting": offline and not reasons["waiting"]})
    return rows


def tables_holding_entries(blockers: list[dict[str, Any]]) -> list[int]:
    """Tables whose tablet said it holds entries, or went offline before its match was
    finished (so it may hold some): a forced close takes them afterwards."""
    return [row["table"] for row in blockers if row["waiting"] or row["maybe_waiting"]]


# --- tournament standings -------------------------------------------------------------


def standings_view(tournament: Tournament, *, live: bool = True) -> dict[str, Any]:
    """Rows with names for the standings pages, plus where they came from. ``live``: a
    snapshot behind the results is replaced by a fresh computation; otherwise the last
    snapshot is shown as it is stored (``version``: its results version), and the
    standings are computed here only while none is stored."""
    state = selectors.standings_state(tournament)
    data = state["data"] if isinstance(state["data"], dict) else {}
    source = "snapshot"
    stored = state["up_to_date"] or (not live and state["computed_version"] is not None)
    if not (stored and isinstance(data.get("rows"), list)):
        source = "live"
        data = selectors.cached_standings(
            tournament,
            "live",
            lambda: snapshots.compute_tournament_standings(tournament_id=tournament.pk),
        )
    version = state["computed_version"] if source == "snapshot" else tournament.results_version
    rows = in_reader_language(data.get("rows", []))
    missing = [r["entrant"] for r in rows if not r.get("name")]
    if missing:
        if tournament.uses_teams:
            names = dict(Team.objects.filter(pk__in=missing).values_list("pk", "name"))
        else:
            names = Player.objects.public_names(missing)
        for row in rows:
            row.setdefault("name", names.get(row["entrant"], "?"))
            row["name"] = row["name"] or names.get(row["entrant"], "?")
    played = any(row.get("played") for row in rows)
    chain = data.get("tiebreaks") or [c.value for c in snapshots.tiebreak_chain(tournament)]
    for row in rows:
        row["cells"] = _criterion_cells(row, chain)
    profile = selectors.tournament_profile(tournament)
    return {
        "rows": rows,
        "source": source,
        "version": version,
        "columns": [_criterion_column(key, profile) for key in chain],
        "has_games": played or bool(data.get("games")),
        "duplicate": bool(data.get("duplicate")),
    }


def _criterion_column(key: str, profile: profiles.GameProfile) -> dict[str, str]:
    """A criterion's column, named in the game's own words where its profile has them
    (``own``: the game's; the CSV then heads it with the long title)."""
    own = profile.standings_columns.get(key)
    if own is not None:
        return {**own.shown(), "own": "1"}
    label, title = CRITERIA.get(key, (key, key))
    return {"key": key, "label": str(label), "title": str(title), "own": ""}


def _criterion_cells(row: dict[str, Any], chain: list[str]) -> list[dict[str, Any]]:
    """The row's value for each criterion of the chain, marking the one that decided its
    place against the next row."""
    return [
        {"value": _plain(row.get(key)), "decides": key == row.get("decided_by")} for key in chain
    ]


def _plain(value: Any) -> Any:
    """Whole numbers without a trailing .0; fractions (a round-average bye) with at most
    two decimals, rounded half up (``standings.shown_value``)."""
    if isinstance(value, float):
        return standings.shown_value(value)
    return "–" if value is None else value


def with_full_names(tournament: Tournament, view: dict[str, Any]) -> dict[str, Any]:
    """The organiser's copy of a standings view: its players named in full (the stored
    standings name them as the public sees them)."""
    if tournament.uses_teams:
        return view
    ids = [row["entrant"] for row in view["rows"]]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    rows = [{**row, "name": names.get(row["entrant"], row["name"])} for row in view["rows"]]
    return {**view, "rows": rows}


def rank_history(tournament: Tournament, entrant: int) -> list[tuple[int, int, int]]:
    """(round, rank, field size) of an entrant after each published or closed round."""
    games, byes, entrants = snapshots.tournament_results(tournament)
    chain, bye_score = snapshots.tiebreak_chain(tournament), snapshots.bye_score(tournament)
    out = []
    for number in sorted({g.round for g in games} | {b.round for b in byes}):
        rows = standings.tournament_standings(
            [g for g in games if g.round <= number],
            byes=[b for b in byes if b.round <= number],
            tiebreaks=chain,
            bye_score=bye_score,
            entrants=entrants,
        )
        for row in rows:
            if row.entrant == entrant:
                out.append((number, row.rank, len(rows)))
    return out


def rank_chart(
    points: list[tuple[int, int, int]], *, width: int = 320, height: int = 160
) -> dict[str, Any]:
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

    dots = [{"x": _svg(x(r)), "y": _svg(y(k)), "round": r, "rank": k} for r, k, _ in points]
    return {
        "width": _svg(width),
        "height": _svg(height),
        "dots": dots,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "x_labels": [{"x": _svg(x(r)), "label": r} for r in range(1, rounds + 1)],
        "y_labels": [{"y": _svg(y(k)), "label": k} for k in sorted({1, field})],
        "baseline": _svg(height - pad),
        "left": _svg(pad),
        "right": _svg(width - pad),
    }


def _svg(value: float) -> str:
    """An SVG coordinate as text with a decimal point: templates localize numbers (German
    writes ``28,0``, which no browser reads as a coordinate), strings they leave alone."""
    return f"{value:.1f}"


# --- players --------------------------------------------------------------------------


def player_results(player: Player) -> list[dict[str, Any]]:
    """Every table the player sat at in public tournaments' published or closed rounds
    whose deals everyone may see (``visibility``), newest first, with the match as it
    stands."""
    seats = list(
        Seat.objects.filter(
            visibility.unsealed("round__"),
            player=player,
            round__tournament__is_public=True,
            round__status__in=COUNTED,
        )
        .select_related("table__match", "round__tournament")
        .order_by("-round__tournament__created", "-round__number")
    )
    scored = {
        s.match: s
        for s in selectors.scored_matches(
            Match.objects.filter(table__in=[seat.table_id for seat in seats])
        )
    }
    ids = {p for s in scored.values() for p in s.seats}
    names = Player.objects.public_names(ids)
    return _with_board_results(
        seats, [_result_row(seat, scored.get(seat.table.match.pk), names) for seat in seats]
    )


def tournament_results(player: Player, tournament: Tournament) -> list[dict[str, Any]]:
    """The player's tables in one tournament's published or closed rounds (public or
    not: the personal page shows them to the player), newest round first."""
    seats = list(
        Seat.objects.filter(player=player, round__tournament=tournament, round__status__in=COUNTED)
        .select_related("table__match", "round__tournament")
        .order_by("-round__number")
    )
    scored = {
        s.match: s
        for s in selectors.scored_matches(
            Match.objects.filter(table__in=[seat.table_id for seat in seats])
        )
    }
    ids = {p for s in scored.values() for p in s.seats}
    names = Player.objects.public_names(ids)
    return _with_board_results(
        seats, [_result_row(seat, scored.get(seat.table.match.pk), names) for seat in seats]
    )


def current_seat(player: Player, tournament: Tournament) -> dict[str, Any] | None:
    """Where the player sits in the tournament's newest published round: table, seat
    (1-4), partner and opponents; or their bye. None before a round is published."""
    round_ = tournament.rounds.filter(status="published").order_by("-number").first()
    if round_ is None:
        return None
    seat = round_.seats.filter(player=player).select_related("table").first()
    if seat is None:
        return {"round": round_, "bye": round_.byes.filter(player=player).exists()}
    seated = dict(round_.seats.filter(table=seat.table).values_list("position", "player_id"))
    names = Player.objects.public_names(seated.values())
    others = {position: names[player] for position, player in seated.items()}
    return {
        "round": round_,
        "table": seat.table.number,
        "seat": seat.position + 1,
        **_partner_and_opponents(selectors.tournament_profile(tournament), seat.position, others),
    }


def _with_board_results(seats: list[Seat], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of rounds whose format ranks by match points (duplicate) with the
    seat's direction's match points of the round as a percentage, and no table won or
    lost; while a round is sealed its percentage is None (the other tables' results are
    not out)."""
    tables: dict[int, dict[int, dict[str, Any]]] = {}
    for seat, row in zip(seats, rows, strict=True):
        fmt = format_profile(seat.round.tournament)
        if fmt.outcome != PERCENTAGE or row["score"] is None:
            continue
        row.update(board_game=True, outcome="", percentage=None, boards=0, match_points=(0, 0))
        if fmt.sealed(seat.round.status):
            continue
        if seat.round_id not in tables:
            tables[seat.round_id] = travellers.table_scores(seat.round)
        table = tables[seat.round_id].get(seat.table.number)
        if table is not None:
            direction = seat.position % 2
            row["boards"] = table["boards"]
            row["percentage"] = table["percentage"][direction]
            row["match_points"] = (table["match_points"][direction], table["maximum"][direction])
    return rows


def _partner_and_opponents(
    profile: profiles.GameProfile, position: int, names: dict[int, str]
) -> dict[str, Any]:
    """The partner (none at a game of single players) and the opponents of a seat."""
    if not profile.teams:
        opponents = [names.get(p, "") for p in range(profile.players) if p != position]
        return {"partner": "", "opponents": opponents}
    team = position % 2
    return {
        "partner": names.get((position + 2) % 4, ""),
        "opponents": [names.get(p, "") for p in (1 - team, 3 - team)],
    }


def _result_row(seat: Seat, score: Any, names: dict[int, str]) -> dict[str, Any]:
    team = seat.position % 2
    row: dict[str, Any] = {
        "tournament": seat.round.tournament,
        "round": seat.round.number,
        "table": seat.table.number,
        "score": score,
    }
    if score is None:
        return row
    at_table = {i: names.get(player, "") for i, player in enumerate(score.seats)}
    row.update(_partner_and_opponents(score.profile, seat.position, at_table))
    if score.profile.points_match:
        return {**row, **_points_row(seat, score)}
    pick = lambda pair: (pair[team], pair[1 - team])  # noqa: E731 - own side first
    winner = standings.game_winner(score.big, score.small, score.match_points)
    row.update(
        {
            "big": pick(score.big),
            "small": pick(score.small),
            "mp": pick(score.match_points),
            "outcome": "draw" if winner is None else ("won" if winner == team else "lost"),
        }
    )
    return row


def _points_row(seat: Seat, score: Any) -> dict[str, Any]:
    """A points match: a team's points against the other's, or a single player's points
    against the best other player's; the winner as the standings count it."""
    if not score.profile.teams:
        own = score.points[seat.position]
        others = [p for i, p in enumerate(score.points) if i != seat.position]
        leaders = score.points.count(max(score.points))
        won = own == max(score.points)
        outcome = "lost" if not won else ("draw" if leaders > 1 else "won")
        return {"points_game": True, "points": (own, max(others)), "outcome": outcome}
    team = seat.position % 2
    own, other = score.points[team], score.points[1 - team]
    return {
        "points_game": True,
        "points": (own, other),
        "outcome": "draw" if own == other else ("won" if own > other else "lost"),
    }


# --- club leaderboards ----------------------------------------------------------------


def club_view(club: Club) -> dict[str, Any]:
    """The all-time table, the KlammernBoss with the title's history, league tables."""
    state = selectors.club_leaderboards(club)
    data = state["data"] if isinstance(state["data"], dict) else {}
    if not (state["up_to_date"] and "all_time" in data):
        data = cache.get_or_set(
            f"web:club:{club.pk}:{club.results_version}",
            lambda: snapshots.compute_club_leaderboards(club_id=club.pk),
            CLUB_CACHE_SECONDS,
        )
    all_time = in_reader_language(data.get("all_time", []))
    names = {row["player"]: row.get("name", "") for row in all_time}
    boss = data.get("boss") or {}
    titles, previous = [], None
    for entry in boss.get("history", []):
        titles.append(
            {
                "tournament_name": entry.get("tournament_name", ""),
                "evening": entry.get("evening"),
                "imported": bool(entry.get("imported")),
                "boss": entry.get("boss"),
                "name": names.get(entry.get("boss"), ""),
                "new": entry.get("boss") is not None and entry.get("boss") != previous,
                "previous_name": names.get(previous, "") if previous is not None else "",
            }
        )
        previous = entry.get("boss")
    return {
        "all_time": all_time,
        "boss": boss.get("current"),
        "boss_name": names.get(boss.get("current")) or boss.get("current_name", ""),
        "titles": list(reversed(titles)),
        "ranking": [
            {**row, "name": names.get(row.get("player"), "")}
            for row in (boss.get("history") or [{}])[-1].get("ranking", [])
        ],
        "leagues": {league["season"]: league["rows"] for league in data.get("leagues", [])},
    }


def league_rows(season: Season) -> list[dict[str, Any]]:
    return club_view(season.club)["leagues"].get(season.pk, [])


def season_view(season: Season) -> dict[str, Any]:
    """What a season's page and its picture show: the season table of its club evenings
    (``season_table``, None for a season of league matches only) and its league table
    (``league_rows``, None for a season without league matches). A season with nothing
    played yet is one of club evenings, the club's usual season."""
    played = set(season.tournaments.values_list("format", flat=True))
    league = league_rows(season)
    has_league = bool(league) or bool(played.intersection(formats.league_formats()))
    has_evenings = bool(played.intersection(formats.evening_formats())) or not has_league
    return {
        "season_table": seasons.season_table(season) if has_evenings else None,
        "league_rows": league if has_league else None,
    }
