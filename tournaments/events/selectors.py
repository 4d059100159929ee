"""Read-only queries that several views and services share: round progress, the stored
standings and club leaderboards (snapshots only), and the scores of table matches from
their current deal results, kept by the rules engine's scorekeepers (for the recompute
services). Nothing here writes."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from games import engine, profiles
from games.models import DealVersion
from tournaments.clubs.models import Club
from tournaments.events.models import (
    DeviceCredential,
    Match,
    Round,
    Seat,
    TeamMember,
    Tournament,
)
from tournaments.formats import boards as duplicate
from tournaments.formats import format_profile


def _version_stats(round_: Round) -> dict[int, dict[str, Any]]:
    current = Q(is_current=True)
    rows = (
        DealVersion.objects.filter(deal__match__round=round_)
        .values("deal__match")
        .annotate(
            entered=Count("id", filter=current & ~Q(outcome="thrown_in")),
            thrown_in=Count("id", filter=current & Q(outcome="thrown_in")),
            corrections=Count("id", filter=Q(version__gt=1)),
            last_entry_at=Max("created"),
            mp0=Sum("match_points_0", filter=current),
            mp1=Sum("match_points_1", filter=current),
        )
    )
    return {row.pop("deal__match"): row for row in rows}


def round_progress(round_: Round) -> list[dict[str, Any]]:
    """Per table: deals entered (played ones; thrown-in deals are counted apart) and
    expected, the score in the match's own terms, status, confirmations, corrections,
    and the tablet's last contact and the entries it said it still holds."""
    stats = _version_stats(round_)
    devices = _devices_by_table(round_)
    scores = match_scores(round_.matches.all())
    matches = round_.matches.select_related("table").prefetch_related("confirmations")
    return [
        _progress_row(m, stats.get(m.pk, {}), devices.get(m.table_id), scores.get(m.pk))
        for m in matches.order_by("table__number")
    ]


def _devices_by_table(round_: Round) -> dict[int, DeviceCredential]:
    credentials = DeviceCredential.objects.usable().filter(table__round=round_)
    return {c.table_id: c for c in credentials.order_by("created")}


def _progress_row(
    match: Match,
    stats: dict[str, Any],
    device: DeviceCredential | None,
    score: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "table": match.table.number,
        "match": match.pk,
        "status": match.status,
        # a thrown-in deal is recorded but is no planned deal (RULES.md): it is counted
        # apart, so "entered / expected" reaches the plan exactly when the match does
        "deals_entered": stats.get("entered", 0),
        "deals_thrown_in": stats.get("thrown_in", 0),
        "deals_expected": match.deals_planned,
        "target": match.target,
        "match_points": [stats.get("mp0") or 0, stats.get("mp1") or 0],
        "score": score or {},
        "confirmed_teams": sorted(c.team for c in match.confirmations.all()),
        "corrections": stats.get("corrections", 0),
        "last_entry_at": stats.get("last_entry_at"),
        "device_active": device is not None,
        "last_contact": device.last_seen_at if device else None,
        "queued_entries": device.queued_entries if device else 0,
    }


def match_scores(matches: QuerySet[Match]) -> dict[int, dict[str, Any]]:
    """Each match's score in its own terms: big and small points with Laube and Kalte,
    the Hamburg rounds and points, or a Liga-Partie's Augen."""
    return {scored.match: score_terms(scored) for scored in scored_matches(matches)}


def score_terms(scored: ScoredMatch) -> dict[str, Any]:
    """The match's score in its game's terms (``GameProfile.score_terms``): e.g.
    ``{"kind": "points", "points", "finished", "winner"}``, ``{"kind": "liga", "augen"}``,
    ``{"kind": "hamburg", "rounds", "points"}`` or ``{"kind": "small_big", "big", "small",
    "laube", "kalte"}``, with whether the Augen decide it."""
    decided = scored.status not in ("", Match.Status.OPEN)
    return scored.profile.score_terms(scored.state, decided=decided)


def standings_state(tournament: Tournament) -> dict[str, Any]:
    snapshot = getattr(tournament, "standings_snapshot", None)
    computed = snapshot.computed_version if snapshot else None
    up_to_date = computed is not None and computed >= tournament.results_version
    return {
        "tournament": tournament.pk,
        "results_version": tournament.results_version,
        "computed_version": computed,
        "up_to_date": up_to_date,
        "computed_at": snapshot.computed_at if snapshot else None,
        "detail": standings_detail(computed=computed is not None, up_to_date=up_to_date),
        "data": snapshot.data if snapshot else {},
    }


def standings_detail(*, computed: bool, up_to_date: bool) -> str:
    """What the standings' ``detail`` says, in the reader's language."""
    if not computed:
        return _("Standings have not been computed yet.")
    if up_to_date:
        return _("Standings are up to date.")
    return _("Newer results are being counted; these standings may be behind.")


def with_standings_versions(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments loaded with their snapshot's version, not its data: enough to name
    the standings (``standings_tag``) and to find them in the cache."""
    return tournaments.select_related("standings_snapshot").defer("standings_snapshot__data")


def standings_tag(tournament: Tournament) -> str:
    """Names the standings body: it changes with the results and the snapshot versions."""
    snapshot = getattr(tournament, "standings_snapshot", None)
    computed = snapshot.computed_version if snapshot else "none"
    return f"{tournament.pk}-{tournament.results_version}-{computed}"


STANDINGS_CACHE_SECONDS = 60


def standings_cache_key(tournament: Tournament, key: str) -> str:
    return f"standings:{key}:{standings_tag(tournament)}"


def cached_standings(tournament: Tournament, key: str, build: Callable[[], Any]) -> Any:
    """``build()`` (the standings in some shape), cached under ``key`` and the standings
    tag: the snapshot's data is read and shaped once per version, not per reader."""
    cache_key = standings_cache_key(tournament, key)
    value = cache.get(cache_key)
    if value is None:
        value = build()
        cache.set(cache_key, value, STANDINGS_CACHE_SECONDS)
    return value


def club_leaderboards(club: Club) -> dict[str, Any]:
    """The club's stored leaderboards (all-time table, KlammernBoss and its history, league
    tables per season) with whether they include every result entered so far."""
    snapshot = getattr(club, "snapshot", None)
    computed = snapshot.computed_version if snapshot else None
    return {
        "club": club.pk,
        "results_version": club.results_version,
        "computed_version": computed,
        "up_to_date": computed is not None and computed >= club.results_version,
        "computed_at": snapshot.computed_at if snapshot else None,
        "data": snapshot.data if snapshot else {},
    }


# --- match scores from the score columns ------------------------------------------------


@dataclass(frozen=True)
class ScoredMatch:
    """A table match with at least one current deal: its seats and its score in the one
    shape every game's profile keeps (``state``, see ``profiles.MatchState``).

    ``seats`` has the table's players (4, 3 or 2, as the profile seats them)."""

    match: int
    tournament: int
    round: int
    table: int
    mode: str
    home_team: int | None
    away_team: int | None
    seats: tuple[int, ...]
    profile: profiles.GameProfile
    state: profiles.MatchState
    #: The match's status (open, finished, confirmed); "" where it was not read.
    status: str = ""

    @property
    def big(self) -> tuple[int, int]:
        return self.state.big

    @property
    def small(self) -> tuple[int, int]:
        return self.state.small

    @property
    def match_points(self) -> tuple[int, int]:
        return self.state.match_points

    @property
    def points(self) -> tuple[int, ...]:
        return self.state.points

    @property
    def liga_winner(self) -> int | None:
        return self.state.liga_winner

    @property
    def deals(self) -> int:
        return self.state.deals


def tournament_options(tournament: Tournament) -> engine.Options:
    """The engine's options of the tournament's (validated) rules."""
    options = json.dumps(tournament.rules_options or {}, sort_keys=True)
    return _resolved_options(tournament.rules_preset, options)


@lru_cache(maxsize=256)
def _resolved_options(preset: str, options: str) -> engine.Options:
    """Rules resolved once per preset and options (``Options`` is frozen): every deal
    entry asks for them."""
    return profiles.tournament_rules(preset, json.loads(options))


def tournament_profile(tournament: Tournament) -> profiles.GameProfile:
    """The game the tournament plays."""
    options = json.dumps(tournament.rules_options or {}, sort_keys=True)
    return _profile(tournament.rules_preset, options)


@lru_cache(maxsize=256)
def _profile(preset: str, options: str) -> profiles.GameProfile:
    """A preset's and options' profile, found once (every deal entry asks whether its
    match is over)."""
    return profiles.profile_for(preset, json.loads(options))


def tournament_board(
    tournament: Tournament, *, round_number: int, number: int
) -> duplicate.Board | None:
    """Board ``number`` of a round of a duplicate tournament (None for any other)."""
    if not format_profile(tournament).boards:
        return None
    return duplicate.deal_board(
        tournament_profile(tournament),
        seed=tournament.board_seed,
        round_number=round_number,
        number=number,
    )


def round_boards(round_: Round) -> list[duplicate.Board]:
    """The boards of a round of a duplicate tournament (as many as a table's deals),
    [] for any other tournament."""
    tournament = round_.tournament
    if not format_profile(tournament).boards:
        return []
    return duplicate.round_boards(
        tournament_profile(tournament),
        seed=tournament.board_seed,
        round_number=round_.number,
        count=tournament.deals_per_match,
    )


def tournament_suits(tournament: Tournament) -> str:
    """The suit style the tournament's sheets and pages show: its own setting, else its
    club's, if its game offers that style (French suits otherwise)."""
    wanted = tournament.suits or tournament.club.suits
    return profiles.suit_style(tournament_profile(tournament).suit_styles, wanted)


def game_big_points(scored: ScoredMatch) -> tuple[int, int]:
    """The big points a match counts with as a game (``standings.game_winner``): a
    Liga-Partie is one game its winner takes once decided (1:0), level until then;
    any other match counts its big points."""
    if scored.mode != Match.Mode.LIGA:
        return scored.big
    winner = scored.liga_winner
    return (0, 0) if winner is None else ((1, 0) if winner == 0 else (0, 1))


def scored_matches(matches: QuerySet[Match]) -> list[ScoredMatch]:
    """Score every match of ``matches`` that has deals: four queries whatever the size."""
    meta = {
        row[0]: row
        for row in matches.values_list(
            "pk",
            "round__tournament_id",
            "round__number",
            "table__number",
            "mode",
            "home_team_id",
            "away_team_id",
            "target",
            "status",
        )
    }
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match_id, position, player in Seat.objects.filter(table__match__in=matches).values_list(
        "table__match", "position", "player_id"
    ):
        seats[match_id][position] = player
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        DealVersion.objects.filter(is_current=True, deal__match__in=matches)
        .order_by("deal__match_id", "deal__number")
        .values_list("deal__match_id", "result")
    )
    for match_id, result in rows:
        results[match_id].append(result)
    tournaments = Tournament.objects.filter(pk__in={m[1] for m in meta.values()})
    games = {t.pk: (tournament_profile(t), tournament_options(t)) for t in tournaments}
    return [
        _scored(meta[match_id], seats[match_id], deal_results, *games[meta[match_id][1]])
        for match_id, deal_results in results.items()
        if match_id in meta
    ]


@dataclass(frozen=True)
class PlayedBoard:
    """One table's deal of a duplicate round as entered: the board's play (its sides and
    each direction's result), the match, the players by seat, the record, the engine's
    result and the version's id (its par analysis is stored under it)."""

    play: duplicate.BoardPlay
    match: int
    seats: tuple[int, ...]
    record: dict[str, Any]
    result: dict[str, Any]
    version: int


def played_boards(tournament: Tournament, matches: QuerySet[Match]) -> list[PlayedBoard]:
    """Every current deal of ``matches`` as a board's play, in order of round, board and
    table: each direction's entrants (the table's pair, or the team's two players) and
    its result as the game's profile reads it (``board_result``). Four queries."""
    profile = tournament_profile(tournament)
    meta = {
        row[0]: row
        for row in matches.values_list(
            "pk", "round__number", "table__number", "home_team_id", "away_team_id"
        )
    }
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match_id, position, player in Seat.objects.filter(table__match__in=matches).values_list(
        "table__match", "position", "player_id"
    ):
        seats[match_id][position] = player
    team_of = _team_of(tournament)
    rows = (
        DealVersion.objects.filter(is_current=True, deal__match__in=matches)
        .order_by("deal__match__round__number", "deal__number", "deal__match__table__number")
        .values_list("pk", "deal__match_id", "deal__number", "record", "result")
    )
    return [
        PlayedBoard(
            duplicate.BoardPlay(
                round=meta[match_id][1],
                board=number,
                table=meta[match_id][2],
                sides=_board_sides(meta[match_id][3:], seats[match_id], team_of),
                points=profile.board_result(result),
            ),
            match_id,
            tuple(seats[match_id]),
            record,
            result,
            pk,
        )
        for pk, match_id, number, record, result in rows
    ]


def _team_of(tournament: Tournament) -> dict[int, int] | None:
    """Each player's pair in a tournament of pairs (None for single players)."""
    if not tournament.uses_teams:
        return None
    members = TeamMember.objects.filter(team__tournament=tournament)
    return dict(members.values_list("player_id", "team_id"))


def _board_sides(
    teams: tuple[int | None, int | None], seats: list[int], team_of: dict[int, int] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """North-South (seats 0+2) and East-West (1+3): a pair's id each, or the players."""
    if team_of is None:
        return ((seats[0], seats[2]), (seats[1], seats[3]))
    home = teams[0] or team_of.get(seats[0], -seats[0])
    away = teams[1] or team_of.get(seats[1], -seats[1])
    return ((home,), (away,))


def _scored(
    meta: Sequence[Any],
    seats: Sequence[int],
    results: Sequence[dict[str, Any]],
    profile: profiles.GameProfile,
    options: engine.Options,
) -> ScoredMatch:
    """A match scored by its game's profile (``mode``/``target``: the match's own)."""
    target = meta[7] or 51  # a Liga-Partie without a stored target: the rule book's 51
    return ScoredMatch(
        match=meta[0],
        tournament=meta[1],
        round=meta[2],
        table=meta[3],
        mode=meta[4],
        home_team=meta[5],
        away_team=meta[6],
        seats=tuple(seats[: profile.players]),
        profile=profile,
        state=profile.match_state(results, options, mode=meta[4], target=target),
        status=meta[8],
    )
