"""Read-only queries that several views and services share: round progress, the stored
standings and club leaderboards (snapshots only), and the scores of table matches loaded
from the current deal versions' score columns (for the recompute services)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Model, Q, QuerySet, Sum

from .models import Club, DeviceCredential, Match, Round, Seat, StandingsSnapshot, Tournament


def _version_stats(round_: Round) -> dict[int, dict[str, Any]]:
    from games.models import DealVersion

    current = Q(is_current=True)
    rows = (
        DealVersion.objects.filter(deal__match__round=round_)
        .values("deal__match")
        .annotate(
            entered=Count("id", filter=current),
            corrections=Count("id", filter=Q(version__gt=1)),
            last_entry_at=Max("created"),
            mp0=Sum("match_points_0", filter=current),
            mp1=Sum("match_points_1", filter=current),
        )
    )
    return {row.pop("deal__match"): row for row in rows}


def round_progress(round_: Round) -> list[dict[str, Any]]:
    """Per table: deals entered and expected, status, confirmations, corrections."""
    stats = _version_stats(round_)
    with_device = set(
        DeviceCredential.objects.usable()
        .filter(table__round=round_)
        .values_list("table_id", flat=True)
    )
    matches = round_.matches.select_related("table").prefetch_related("confirmations")
    progress = []
    for m in matches.order_by("table__number"):
        row = stats.get(m.pk, {})
        progress.append({
            "table": m.table.number,
            "match": m.pk,
            "status": m.status,
            "deals_entered": row.get("entered", 0),
            "deals_expected": m.deals_planned,
            "target": m.target,
            "match_points": [row.get("mp0") or 0, row.get("mp1") or 0],
            "confirmed_teams": sorted(c.team for c in m.confirmations.all()),
            "corrections": row.get("corrections", 0),
            "last_entry_at": row.get("last_entry_at"),
            "device_active": m.table_id in with_device,
        })  # fmt: skip
    return progress


def standings_state(tournament: Tournament) -> dict[str, Any]:
    snapshot = getattr(tournament, "standings_snapshot", None)
    computed = snapshot.computed_version if snapshot else None
    up_to_date = computed is not None and computed >= tournament.results_version
    if snapshot is None:
        detail = "Standings have not been computed yet."
    elif up_to_date:
        detail = "Standings are up to date."
    else:
        detail = "Newer results are being counted; these standings may be behind."
    return {
        "tournament": tournament.pk,
        "results_version": tournament.results_version,
        "computed_version": computed,
        "up_to_date": up_to_date,
        "computed_at": snapshot.computed_at if snapshot else None,
        "detail": detail,
        "data": snapshot.data if snapshot else {},
    }


def with_standings_versions(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments loaded with their snapshot's version, not its data: enough to name
    the standings (``standings_tag``) and to find them in the cache."""
    return tournaments.select_related("standings_snapshot").defer("standings_snapshot__data")


def public_standings_versions(pk: int) -> Tournament | None:
    """``with_standings_versions(Tournament.objects.public()).filter(pk=pk).first()`` for
    the anonymous hot paths, in one plain query: the tournament with its name and
    ``results_version``, its snapshot's version and time (or None) and, as
    ``counted_rounds``, the numbers of its published and closed rounds in order. Its other
    fields are deferred. Compiling the ORM's query costs several times the query."""
    sql = _public_standings_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [Round.Status.PUBLISHED, Round.Status.CLOSED, pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    values = iter(rows[0])
    tournament = plain_instance(Tournament, ("id", "name", "results_version"), values)
    snapshot = plain_instance(StandingsSnapshot, SNAPSHOT_VERSION_FIELDS, values)
    if snapshot.pk is None:
        snapshot = None
    Tournament.standings_snapshot.related.set_cached_value(tournament, snapshot)
    tournament.counted_rounds = [row[-1] for row in rows if row[-1] is not None]
    return tournament


SNAPSHOT_VERSION_FIELDS = ("id", "tournament_id", "computed_version", "computed_at")


@lru_cache(maxsize=1)
def _public_standings_sql() -> str:
    t, s, r = Tournament._meta.db_table, StandingsSnapshot._meta.db_table, Round._meta.db_table
    return (
        f"SELECT t.id, t.name, t.results_version, s.id, s.tournament_id, s.computed_version, "
        f"s.computed_at, r.number FROM {t} t LEFT JOIN {s} s ON s.tournament_id = t.id "
        f"LEFT JOIN {r} r ON r.tournament_id = t.id AND r.status IN (%s, %s) "
        "WHERE t.id = %s AND t.is_public ORDER BY r.number"
    )


def plain_instance[M: Model](model: type[M], fields: Sequence[str], values: Iterator[Any]) -> M:
    """A ``model`` instance from the next values of a plain SQL row, one per field named
    in ``fields`` (attnames, in the model's field order), converted as the ORM converts
    them; its other fields are deferred (loaded if read)."""
    names, columns = _plain_columns(model, tuple(fields), connection.vendor)
    row = []
    for column, converters in columns:
        value = next(values)
        for convert in converters:
            value = convert(value, column, connection)
        row.append(value)
    return model.from_db(connection.alias, names, row)


@lru_cache(maxsize=64)
def _plain_columns(
    model: type[Model], fields: tuple[str, ...], vendor: str
) -> tuple[list[str], list[tuple[Any, list[Any]]]]:
    """The attnames ``plain_instance`` reads and each one's column and converters, worked
    out once per model, fields and database vendor (the fast paths' rows are small: this
    was most of their conversion cost)."""
    chosen = [f for f in model._meta.concrete_fields if f.attname in fields]
    columns = []
    for field in chosen:
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        columns.append((column, converters))
    return [f.attname for f in chosen], columns


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
    """A table match with at least one current deal: seats and totals so far.

    ``big``/``small`` follow RULES.md (5 small points make a big point, a Kalte 2, then
    0:0); ``liga_winner`` is the Liga-Partie's winner (0/1) once decided, else None."""

    match: int
    tournament: int
    round: int
    table: int
    mode: str
    home_team: int | None
    away_team: int | None
    seats: tuple[int, ...]
    big: tuple[int, int]
    small: tuple[int, int]
    match_points: tuple[int, int]
    deals: int
    liga_winner: int | None


def small_big(
    small_points: Iterable[tuple[int, int]], *, hamburg_target: int | None = None
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(big, small) after deals with these small points, as the engine's keepers count
    them (thrown-in deals carry 0:0 and change nothing).

    Klammern (``engine.score_small_big``): 5 small points make a big point, a Kalte 2,
    then 0:0. Hamburg (``engine.score_hamburg``, ``hamburg_target`` set): the small
    columns hold Hamburg points; the first team to the target wins the round (one big
    point), and a new round starts at 0:0.
    """
    small, big = [0, 0], [0, 0]
    for gained in small_points:
        small[0] += gained[0]
        small[1] += gained[1]
        for team in (0, 1):
            if hamburg_target is not None and small[team] >= hamburg_target:
                big[team] += 1
                small = [0, 0]
                break
            if hamburg_target is None and small[team] >= 5:
                big[team] += 2 if small[1 - team] == 0 else 1
                small = [0, 0]
                break
    return (big[0], big[1]), (small[0], small[1])


def hamburg_targets(tournament_ids: Iterable[int]) -> dict[int, int | None]:
    """Per tournament: the Hamburg target when it scores the Hamburg way, else None."""
    from games.services import engine_module

    engine = engine_module()
    targets: dict[int, int | None] = {}
    for pk, preset, options in Tournament.objects.filter(pk__in=set(tournament_ids)).values_list(
        "pk", "rules_preset", "rules_options"
    ):
        rules = engine.resolve_rules({"preset": preset, "options": options or {}})
        targets[pk] = rules.hamburg_target if rules.scoring == "hamburg" else None
    return targets


def _liga_winners(matches: QuerySet[Match], targets: dict[int, int]) -> dict[int, int | None]:
    """The Liga-Partie winner per Liga match, from the engine's keeper over the results
    (only Liga matches load the result JSON: the keeper needs ``playing_team``)."""
    from games.models import DealVersion
    from games.services import engine_module

    engine = engine_module()
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        DealVersion.objects.filter(is_current=True, deal__match__in=matches.filter(mode="liga"))
        .order_by("deal__match_id", "deal__number")
        .values_list("deal__match_id", "result")
    )
    for match_id, result in rows:
        results[match_id].append(result)
    winners: dict[int, int | None] = {}
    for match_id, deal_results in results.items():
        for count in range(len(deal_results), 0, -1):  # a corrected deal may end it early
            try:
                state = engine.score_liga(deal_results[:count], target=targets[match_id])
                winners[match_id] = state.winner
                break
            except engine.KeeperError:
                continue
    return winners


def scored_matches(matches: QuerySet[Match]) -> list[ScoredMatch]:
    """Score every match of ``matches`` that has deals: four queries whatever the size."""
    from games.models import DealVersion

    meta = {
        row[0]: row
        for row in matches.values_list(
            "pk", "round__tournament_id", "round__number", "table__number", "mode",
            "home_team_id", "away_team_id", "target",
        )
    }  # fmt: skip
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for match_id, position, player in Seat.objects.filter(table__match__in=matches).values_list(
        "table__match", "position", "player_id"
    ):
        seats[match_id][position] = player
    deals: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    rows = (
        DealVersion.objects.filter(is_current=True, deal__match__in=matches)
        .order_by("deal__match_id", "deal__number")
        .values_list("deal__match_id", "small_0", "small_1", "match_points_0", "match_points_1")
    )
    for match_id, s0, s1, m0, m1 in rows:
        deals[match_id].append((s0, s1, m0, m1))
    targets = {m[0]: m[7] or 51 for m in meta.values() if m[4] == Match.Mode.LIGA}
    liga = _liga_winners(matches, targets) if targets else {}
    hamburg = hamburg_targets(m[1] for m in meta.values())
    return [
        _scored(
            meta[match_id],
            seats[match_id],
            match_deals,
            liga.get(match_id),
            hamburg_target=hamburg.get(meta[match_id][1]),
        )  # fmt: skip
        for match_id, match_deals in deals.items()
        if match_id in meta
    ]


def _scored(
    meta: Sequence[Any], seats: Sequence[int], deals: Sequence[tuple[int, int, int, int]],
    liga_winner: int | None, *, hamburg_target: int | None = None,
) -> ScoredMatch:  # fmt: skip
    big, small = small_big(((d[0], d[1]) for d in deals), hamburg_target=hamburg_target)
    points = (sum(d[2] for d in deals), sum(d[3] for d in deals))
    return ScoredMatch(
        match=meta[0], tournament=meta[1], round=meta[2], table=meta[3], mode=meta[4],
        home_team=meta[5], away_team=meta[6], seats=tuple(seats), big=big, small=small,
        match_points=points, deals=len(deals), liga_winner=liga_winner,
    )  # fmt: skip
