"""Standings and club leaderboards: computed from the stored results, kept as snapshots.

``compute_tournament_standings`` loads a tournament's games and byes (``selectors``) and
runs the pure ``standings`` algorithms with the tournament's tie-break chain;
``compute_club_leaderboards`` does the same for a club's all-time table, KlammernBoss with
the title's history, and league tables. ``recompute_*`` store the result as a snapshot
unless a newer one is stored already (``store_snapshot``: a snapshot never goes back).
Pages and the API read the snapshots only (``selectors``); the public standings are
served from a body stored per snapshot version (``standings_body``), named by
``stored_standings`` in one query. Queueing the recomputes is ``results``'s job; the
tasks call these.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from klammern_site import metrics
from tournaments import formats
from tournaments.clubs.models import Club, Player, Season
from tournaments.common import validators
from tournaments.deals import visibility
from tournaments.events import selectors
from tournaments.events import versions as results
from tournaments.events.models import Bye, Match, Round, Team, TeamMember, Tournament
from tournaments.formats import boards as duplicate
from tournaments.history.models import ImportedEvening, ImportedResult
from tournaments.results import standings
from tournaments.results.models import ClubSnapshot, StandingsSnapshot

logger = logging.getLogger(__name__)

#: The organiser's tie-break names (``validators.TIEBREAK_NAMES``) as criteria.
TIEBREAK_NAMES = {
    name: standings.TieBreak(criterion) for name, criterion in validators.TIEBREAK_NAMES.items()
}


def tiebreak_chain(tournament: Tournament) -> tuple[standings.TieBreak, ...]:
    """The tournament's chain of tie-breaks (organiser names mapped to criteria; unknown
    names and repeats dropped; the default chain if the first is not a score). A game
    whose profile fixes its chain (Klaverjas ranks as Dutch competitions do) ranks by
    that, whatever the tournament's list says."""
    fixed = selectors.tournament_profile(tournament).tiebreaks
    if fixed is not None:
        return tuple(standings.TieBreak(name) for name in fixed)
    chain: list[standings.TieBreak] = []
    for name in tournament.tiebreaks or []:
        criterion = TIEBREAK_NAMES.get(name)
        if criterion is not None and criterion not in chain:
            chain.append(criterion)
    if not chain or chain[0] in (standings.TieBreak.BUCHHOLZ, standings.TieBreak.HEAD_TO_HEAD):
        return standings.DEFAULT_TIEBREAKS
    return tuple(chain)


def bye_score(tournament: Tournament) -> standings.ByeScore:
    """A fixed bye scores ``bye_fixed_points`` tournament points; otherwise the round's
    average of every criterion."""
    if tournament.bye_score_mode == Tournament.ByeScoreMode.FIXED:
        return standings.ByeScore.fixed(tournament.bye_fixed_points)
    return standings.ByeScore()


def _table_result(match: selectors.ScoredMatch) -> standings.TableResult:
    """A table of 2 or 3 single players: each player's points of the match."""
    return standings.TableResult(
        round=match.round, table=match.table, players=match.seats, points=match.points
    )


def _tournament_game(
    match: selectors.ScoredMatch, team_of: dict[int, int] | None
) -> standings.AnyGame:
    if not match.profile.teams:
        return _table_result(match)
    s = match.seats
    if team_of is None:
        teams: tuple[tuple[int, ...], tuple[int, ...]] = ((s[0], s[2]), (s[1], s[3]))
    else:
        home = match.home_team or team_of.get(s[0], -s[0])
        away = match.away_team or team_of.get(s[1], -s[1])
        teams = ((home,), (away,))
    return standings.GameResult(
        round=match.round,
        table=match.table,
        teams=teams,
        big=selectors.game_big_points(match),
        small=match.small,
        match_points=match.match_points,
    )


def tournament_results(
    tournament: Tournament,
) -> tuple[list[standings.AnyGame], list[standings.Bye], list[int]]:
    """Games, byes and entrants of a tournament's published and closed rounds. Matches
    count live, as they stand (a table with one deal entered is a game).

    Only results bump ``results_version``: a registration, or a round's byes, show in the
    snapshot with the next result entered (or the round's close)."""
    rounds = tournament.rounds.counted().filter(stage=Round.Stage.PRELIMINARY)  # not finals
    matches = Match.objects.filter(round__in=rounds)
    team_of = None
    if tournament.uses_teams:
        team_of = dict(
            TeamMember.objects.filter(team__tournament=tournament).values_list(
                "player_id", "team_id"
            )
        )
    games = [_tournament_game(m, team_of) for m in selectors.scored_matches(matches)]
    bye_rows = set(Bye.objects.filter(round__in=rounds).values_list("round__number", "player_id"))
    if team_of is not None:  # a pair's bye, once per pair
        bye_rows = {(n, team_of[p]) for n, p in bye_rows if p in team_of}
        entrants = list(tournament.teams.values_list("id", flat=True))
    else:
        entrants = list(tournament.registrations.active().values_list("player_id", flat=True))
    byes = [standings.Bye(n, p) for n, p in sorted(bye_rows)]
    return games, byes, entrants


#: The criteria of a duplicate tournament's standings (``duplicate.DuplicateRow``).
DUPLICATE_CRITERIA = ["percentage", "duplicate_mp"]


def _duplicate_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The rounds a duplicate tournament's standings count: the closed ones (a round still
    played is sealed: ``visibility``)."""
    rounds = tournament.rounds.counted().filter(stage=Round.Stage.PRELIMINARY)
    return rounds.filter(visibility.unsealed())


def duplicate_results(tournament: Tournament) -> tuple[list[duplicate.ScoredPlay], list[int]]:
    """The scored boards of a duplicate tournament's counted rounds, and its entrants
    (pairs, or players)."""
    rounds = _duplicate_rounds(tournament)
    played = selectors.played_boards(tournament, Match.objects.filter(round__in=rounds))
    if tournament.uses_teams:
        entrants = list(tournament.teams.values_list("id", flat=True))
    else:
        entrants = list(tournament.registrations.active().values_list("player_id", flat=True))
    return duplicate.score_boards(board.play for board in played), entrants


def duplicate_byes(tournament: Tournament) -> dict[int, int]:
    """How many counted rounds each entrant (pair, or player) of a duplicate tournament
    sat out."""
    rows = Bye.objects.filter(round__in=_duplicate_rounds(tournament))
    sat_out = set(rows.values_list("round_id", "player_id"))
    if tournament.uses_teams:
        team_of = dict(
            TeamMember.objects.filter(team__tournament=tournament).values_list(
                "player_id", "team_id"
            )
        )
        sat_out = {(r, team_of[p]) for r, p in sat_out if p in team_of}
    return dict(Counter(entrant for _, entrant in sat_out))


def _duplicate_standings(tournament: Tournament) -> dict[str, Any]:
    """A duplicate tournament's standings: its entrants by percentage of match points."""
    scored, entrants = duplicate_results(tournament)
    ranked = duplicate.duplicate_standings(
        scored, entrants=entrants, byes=duplicate_byes(tournament)
    )
    rows = [row.to_dict() for row in ranked]
    return {
        "results_version": tournament.results_version,
        "entrant_kind": "team" if tournament.uses_teams else "player",
        "duplicate": True,
        "tiebreaks": DUPLICATE_CRITERIA,
        "games": len(scored),
        "rows": rows,
    }


def compute_tournament_standings(*, tournament_id: int) -> dict[str, Any]:
    """A full recompute of a tournament's standings from the stored deals (reads only).

    ``results_version`` is read first: the rows reflect at least that version (a change
    committed meanwhile may be in them too, and queues its own recompute)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if formats.format_profile(tournament).standings == formats.MATCH_POINTS:
        return _with_names(tournament, _duplicate_standings(tournament))
    chain = tiebreak_chain(tournament)
    games, byes, entrants = tournament_results(tournament)
    rows = [
        row.to_dict()
        for row in standings.tournament_standings(
            games, byes=byes, tiebreaks=chain, bye_score=bye_score(tournament), entrants=entrants
        )
    ]
    data = {
        "results_version": tournament.results_version,
        "entrant_kind": "team" if tournament.uses_teams else "player",
        "tiebreaks": [criterion.value for criterion in chain],
        "bye_score": {"mode": tournament.bye_score_mode, "fixed": tournament.bye_fixed_points},
        "games": len(games),
        "rows": rows,
    }
    return _with_names(tournament, data)


def _with_names(tournament: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    """The standings with each row's entrant named as the public sees them (a player as
    ``names.stored_name`` keeps it: an anonymised one with the pseudonym's number)."""
    ids = [r["entrant"] for r in data["rows"]]
    if tournament.uses_teams:
        teams = Team.objects.filter(pk__in=ids).values_list("pk", "name")
        names = {pk: {"name": name} for pk, name in teams}
    else:
        names = Player.objects.stored_names(ids)
    for row in data["rows"]:
        row.update(names.get(row["entrant"], {"name": ""}))
    return data


def recompute_standings(*, tournament_id: int) -> bool:
    """Recompute the standings and store them unless the snapshot already holds this or a
    newer version (a conditional UPDATE: the snapshot never goes backwards). True if
    stored; the snapshot's body for the API is stored with it (``standings_body``)."""
    data = compute_tournament_standings(tournament_id=tournament_id)
    version = data["results_version"]
    stored = store_snapshot(
        StandingsSnapshot, owner={"tournament_id": tournament_id}, data=data, version=version
    )
    if stored:
        cache.set(standings_body_key(tournament_id, version), as_json(data), BODY_SECONDS)
    return stored


# --- what the public reads are served from ---------------------------------------------

#: How long a snapshot's stored body is kept (a newer snapshot stores its own).
BODY_SECONDS = 24 * 3600


@dataclass(frozen=True)
class StoredStandings:
    """What names a tournament's public standings: enough for their ETag, to find their
    stored body and to say who may see them, read without the snapshot's data."""

    tournament: int
    club: int
    is_public: bool
    name: str
    status: str
    results_version: int
    computed_version: int | None
    computed_at: datetime | None
    #: the rounds shown (published or closed): their count and highest number
    rounds: tuple[int, int]

    @property
    def up_to_date(self) -> bool:
        return self.computed_version is not None and self.computed_version >= self.results_version

    @property
    def tag(self) -> str:
        """Changes with every result, a new snapshot and the tournament's status."""
        computed = "none" if self.computed_version is None else self.computed_version
        return f"{self.tournament}-{self.results_version}-{computed}-{self.status}"


@lru_cache(maxsize=1)
def _stored_standings_sql() -> str:
    tournaments, snapshots = Tournament._meta.db_table, StandingsSnapshot._meta.db_table
    rounds = f"FROM {Round._meta.db_table} r WHERE r.tournament_id = t.id AND r.status IN (%s, %s)"
    return (
        "SELECT t.id, t.club_id, t.is_public, t.name, t.status, t.results_version, "
        f"s.computed_version, s.computed_at, (SELECT COUNT(*) {rounds}), "
        f"(SELECT MAX(r.number) {rounds}) FROM {tournaments} t "
        f"LEFT JOIN {snapshots} s ON s.tournament_id = t.id WHERE t.id = %s"
    )


def stored_standings(pk: int) -> StoredStandings | None:
    """The standings' state of tournament ``pk`` (None if there is none): one plain
    statement (a public read's only one), without the snapshot's data. Who may see it
    is the caller's question (``is_public`` and ``club``)."""
    counted = [Round.Status.PUBLISHED, Round.Status.CLOSED]
    with connection.cursor() as cursor:
        cursor.execute(_stored_standings_sql(), [*counted, *counted, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    *fields, shown, last = row
    return StoredStandings(*fields, rounds=(shown, last or 0))


def standings_body_key(tournament_id: int, version: int | None) -> str:
    return f"standings-body:{tournament_id}:{version}"


def as_json(data: Any) -> str:
    """``data`` as DRF's JSON renderer writes it (compact, UTF-8, its encoder)."""
    return json.dumps(data, cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))


def standings_body(state: StoredStandings) -> str:
    """The JSON of the snapshot's standings (its ``data``) stored for ``state``'s
    version: kept when the snapshot is stored, read back from the snapshot once after
    the cache lost it, never serialised again per read."""
    key = standings_body_key(state.tournament, state.computed_version)
    body = cache.get(key)
    if body is None:
        row = (
            StandingsSnapshot.objects.filter(tournament_id=state.tournament)
            .values_list("computed_version", "data")
            .first()
        )
        version, data = row if row is not None else (None, {})
        body = as_json(data)
        if row is not None and version == state.computed_version:  # not one stored since
            cache.set(key, body, BODY_SECONDS)
    return str(body)


def store_snapshot(
    model: type[Model], *, owner: dict[str, int], data: dict[str, Any], version: int
) -> bool:
    """Write a snapshot row of ``version`` unless it holds this or a newer one already."""
    stored = model.objects.filter(**owner, computed_version__lt=version).update(
        computed_version=version, data=data, computed_at=timezone.now()
    )
    if stored:
        return True
    try:
        with transaction.atomic():
            model.objects.create(**owner, computed_version=version, data=data)
    except IntegrityError:
        return False  # a snapshot of this or a newer version exists
    return True


# --- club leaderboards ---------------------------------------------------------------

#: Matches that count in the club tables.
COUNTED = (Match.Status.FINISHED, Match.Status.CONFIRMED)


def _club_game(match: selectors.ScoredMatch) -> standings.AnyGame:
    if not match.profile.teams:
        return _table_result(match)
    s = match.seats
    return standings.GameResult(
        round=match.round,
        table=match.table,
        teams=((s[0], s[2]), (s[1], s[3])),
        big=match.big,
        small=match.small,
        match_points=match.match_points,
    )


@dataclass(frozen=True)
class ClubEvening:
    """A club evening as the club tables count it: a finished tournament or an imported
    evening (its id negated, so the two never share one), in the order they were played."""

    evening: standings.Evening
    name: str
    when: tuple[date, int, int]


def _played_evenings(evenings: list[Tournament], games: dict[int, list[Any]]) -> list[ClubEvening]:
    return [
        ClubEvening(
            standings.Evening(t.pk, tuple(games.get(t.pk, ()))),
            t.name,
            (timezone.localdate(t.created), 1, index),
        )
        for index, t in enumerate(evenings)
    ]


def _imported_evenings(club: Club) -> list[ClubEvening]:
    """The club's imported evenings, each player's line an ``ImportedTally``."""
    lines: dict[int, list[standings.ClubGame]] = defaultdict(list)
    results = ImportedResult.objects.filter(evening__club=club).order_by("evening", "rank", "pk")
    for evening_id, player, played, won, difference in results.values_list(
        "evening_id", "player_id", "played", "won", "point_difference"
    ):
        lines[evening_id].append(standings.ImportedTally(player, played, won, difference))
    return [
        ClubEvening(
            standings.Evening(-e.pk, tuple(lines.get(e.pk, ()))),
            imported_evening_name(e),
            (e.date, 0, e.pk),
        )
        for e in ImportedEvening.objects.filter(club=club).select_related("club_season")
    ]


def imported_evening_name(evening: ImportedEvening) -> str:
    """How the title history and the season table name an imported evening: its date,
    after its season's name (the club's season it counts in, else as the file has it)."""
    day = evening.date.isoformat()
    season = evening.club_season.name if evening.club_season else evening.season
    return f"{season} {day}" if season else day


def club_evenings(
    club: Club, evenings: list[Tournament], games: dict[int, list[Any]]
) -> list[ClubEvening]:
    """Played and imported evenings in one chronological order (by day; on one day an
    imported evening before a played one, played ones by creation as before). ``evenings``
    come ordered by creation.."""
    merged = _played_evenings(evenings, games) + _imported_evenings(club)
    return sorted(merged, key=lambda e: e.when)


def _boss(club: Club, evenings: list[ClubEvening]) -> dict[str, Any]:
    history = standings.boss_history([e.evening for e in evenings], window=club.boss_window)
    names = {e.evening.id: e.name for e in evenings}
    entries = [
        {**entry.to_dict(), "tournament_name": names[entry.evening], "imported": entry.evening < 0}
        for entry in history
    ]
    return {
        "window": club.boss_window,
        "current": history[-1].boss if history else None,
        "history": entries,
    }


def _league_match(match: selectors.ScoredMatch) -> standings.LeagueMatch | None:
    if match.liga_winner is None or match.home_team is None or match.away_team is None:
        return None
    return standings.LeagueMatch(
        home=match.home_team,
        away=match.away_team,
        home_points=match.match_points[0],
        away_points=match.match_points[1],
        winner=match.home_team if match.liga_winner == 0 else match.away_team,
    )


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
        teams = Team.objects.filter(
            tournament__season=season, tournament__format__in=formats.league_formats()
        )
        team_names = dict(teams.values_list("pk", "name"))
        rows = standings.league_table(by_season.get(season.pk, []), teams=list(team_names))
        table = [{**row.to_dict(), "name": team_names.get(row.team, "")} for row in rows]
        out.append({"season": season.pk, "name": season.name, "rows": table})
    return out


def _evening_matches(finished: QuerySet[Tournament]) -> list[selectors.ScoredMatch]:
    """The games of finished evenings (RULES.md, "KlammernBoss"): every table match of
    their rounds with at least one deal, a match closed before it was complete with the
    deals it has, as in the tournament's own table."""
    rounds = Round.objects.filter(tournament__in=finished).counted()
    return selectors.scored_matches(Match.objects.filter(round__in=rounds))


def compute_club_leaderboards(*, club_id: int) -> dict[str, Any]:
    """A full recompute of the club's leaderboards (reads only); ``results_version`` is
    the club's version read before the results."""
    club = Club.objects.get(pk=club_id)
    finished = Tournament.objects.filter(
        club=club,
        status=Tournament.Status.FINISHED,
        league_match_day__isnull=True,  # a league match day at the club is no club evening
    )
    evenings = list(finished.order_by("created", "pk"))
    games: dict[int, list[standings.AnyGame]] = defaultdict(list)
    for match in sorted(_evening_matches(finished), key=lambda m: (m.round, m.table)):
        games[match.tournament].append(_club_game(match))
    league_matches = Match.objects.filter(
        round__tournament__club=club,
        round__tournament__league_match_day__isnull=True,
        status__in=COUNTED,
    )
    scored = selectors.scored_matches(league_matches)
    merged = club_evenings(club, evenings, games)
    all_time = standings.all_time_table(g for e in merged for g in e.evening.games)
    boss = _boss(club, merged)
    ids = {row.player for row in all_time}
    names = Player.objects.stored_names(ids)
    boss["current_name"] = names.get(boss["current"], {}).get("name", "")
    return {
        "results_version": club.results_version,
        "all_time": [{**row.to_dict(), **names.get(row.player, {"name": ""})} for row in all_time],
        "boss": boss,
        "leagues": _leagues(club, scored),
    }


def recompute_queued_standings(*, tournament_id: int) -> None:
    """The queued standings recompute (the task's work): its flag cleared first, then
    the standings recomputed unless the tournament is gone."""
    results.clear_queued_flag(results.STANDINGS_FLAG, tournament_id)
    if Tournament.objects.filter(pk=tournament_id).exists():
        logger.info("Recomputing standings of tournament %s", tournament_id)
        with metrics.timing_standings():
            recompute_standings(tournament_id=tournament_id)


def recompute_queued_leaderboards(*, club_id: int) -> None:
    """The queued recompute of a club's all-time table, KlammernBoss history and league
    tables: its flag cleared first, then recomputed unless the club is gone."""
    results.clear_queued_flag(results.LEADERBOARDS_FLAG, club_id)
    if Club.objects.filter(pk=club_id).exists():
        recompute_club_leaderboards(club_id=club_id)


def recompute_club_leaderboards(*, club_id: int) -> bool:
    """Recompute and store the club's leaderboards unless the snapshot holds this or a
    newer version. True if stored."""
    data = compute_club_leaderboards(club_id=club_id)
    return store_snapshot(
        ClubSnapshot, owner={"club_id": club_id}, data=data, version=data["results_version"]
    )
