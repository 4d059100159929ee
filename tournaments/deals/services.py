"""Entering and correcting deals, and replaying idempotent requests.

``submit_deal`` and ``correct_deal`` validate a deal record with the rules engine
(``games.engine.check``) under the tournament's rules before anything is written; the
database constraints on ``Deal`` and ``DealVersion`` are the final guard against
duplicates and double "current" versions. ``execute_idempotently`` stores the first
successful response to an ``Idempotency-Key`` in the same transaction as the write it
describes. Refusals are ``tournaments.common.errors`` with stable codes; nothing here knows
about HTTP.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.analysis_services import SWEEP_FLAG_TIMEOUT, SWEEP_QUEUED_FLAG, send_analysis_sweep
from games.models import HISTORY_DELETION_SETTING, Deal, DealVersion, IdempotencyRecord
from klammern_site import metrics
from tournaments.common.errors import (
    ApplicationError,
    Conflict,
    IdempotencyMismatch,
    InvalidRecord,
    NotFound,
    PreconditionFailed,
    Refused,
)
from tournaments.deals.selectors import current_results
from tournaments.events.models import DeviceCredential, Match, Round, Tournament
from tournaments.events.selectors import (
    tournament_board,
    tournament_options,
    tournament_profile,
)
from tournaments.events.versions import (
    QueuedWith,
    notify_results_changed,
    queue_ratings_recompute,
    results_changes_last,
)
from tournaments.formats import format_profile
from tournaments.formats.boards import board_mismatch
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import MatchDay

MAX_LIGA_DEALS = 40
ROUND_NOT_OPEN = _("This table's round is not open for results.")


@dataclass(frozen=True)
class ApiResult:
    """A response as it is stored for replay."""

    status_code: int
    body: dict[str, Any]
    etag: str = ""
    replayed: bool = field(default=False, compare=False)


# --- the record -----------------------------------------------------------------------


def _with_tournament_rules(record: dict[str, Any], match: Match) -> dict[str, Any]:
    """The record with the tournament's fixed rules; a record naming other rules is
    refused."""
    tournament = match.round.tournament
    rules: str | dict[str, Any] = tournament.rules_preset
    if tournament.rules_options:
        rules = {"preset": tournament.rules_preset, "options": tournament.rules_options}
    given = record.get("rules")
    if given is not None and given != rules and given != {"preset": rules, "options": {}}:
        raise InvalidRecord(
            "rules_mismatch",
            _("The record names other rules than this tournament plays."),
            errors=[{"code": "rules_mismatch", "message": f"This tournament plays {rules!r}."}],
        )
    return {**record, "rules": rules}


def check_record(record: dict[str, Any], *, match: Match) -> dict[str, Any]:
    """The engine's result for a valid record; raises ``InvalidRecord`` with the
    engine's errors otherwise: code ``unknown_field`` when the engine found a field the
    game's record does not have (each game's module lists its fields), else
    ``invalid_record``."""
    result = engine.check(_with_tournament_rules(record, match))
    if not result.get("valid"):
        errors = result.get("errors", [])
        if any(error.get("code") == engine.Code.UNKNOWN_FIELD for error in errors):
            code, message = (
                "unknown_field",
                _("The deal record has fields it cannot have; nothing was stored."),
            )
        else:
            code, message = "invalid_record", _("The deal record is not valid; nothing was stored.")
        raise InvalidRecord(
            code, message, errors=errors, preset=match.round.tournament.rules_preset
        )
    return result


# --- match state ----------------------------------------------------------------------


def _ensure_playable(match: Match, *, number: int, thrown_in: bool) -> None:
    """Deal ``number`` fits the match: a thrown-in deal is recorded but is not one of the
    planned deals (RULES.md), so each one lets the numbers run one further (not in a
    duplicate tournament: there it is a board played)."""
    if number < 1:
        raise Refused("bad_deal_number", _("Deals are numbered from 1."))
    planned = match.deals_planned or 0
    beyond = match.mode == Match.Mode.DEALS and number > planned
    if beyond and number > planned + _runs_further(match, thrown_in=thrown_in):
        raise Refused(
            "too_many_deals",
            _("This match has %(planned)s deals; deal %(number)s is too many."),
            params={"planned": match.deals_planned, "number": number},
        )
    if match.mode == Match.Mode.LIGA and number > MAX_LIGA_DEALS:
        raise Refused(
            "too_many_deals",
            _("A Liga-Partie has at most %(max)s deals."),
            params={"max": MAX_LIGA_DEALS},
        )


def _runs_further(match: Match, *, thrown_in: bool) -> int:
    """How far the deal numbers may run beyond the planned deals: one per thrown-in deal,
    this one included (none in a duplicate tournament)."""
    return _thrown_in(match) + (1 if thrown_in and _unplanned(match) else 0)


def _unplanned(match: Match) -> str:
    """The outcome of a deal that is not one of the match's planned deals: a thrown-in
    deal (RULES.md); none ("") in a duplicate tournament, where a thrown-in board is a
    board played (0 for both teams) and the next deal is the next board."""
    return (
        ""
        if format_profile(match.round.tournament).thrown_in_played
        else DealVersion.Outcome.THROWN_IN
    )


def _thrown_in(match: Match) -> int:
    """The match's thrown-in deals that let its numbers run further."""
    if not _unplanned(match):
        return 0
    return DealVersion.objects.current().filter(deal__match=match, outcome="thrown_in").count()


def _played(match: Match) -> int:
    """The match's deals that were played (thrown-in deals are not among them, except in
    a duplicate tournament)."""
    versions = DealVersion.objects.current().filter(deal__match=match)
    return versions.exclude(outcome=_unplanned(match)).count()


def _is_finished(match: Match, *, played: int | None = None) -> bool:
    """Whether the match is over, as its game's profile says (``MatchState.finished``):
    a match to a target when its keeper ends it (read from its deals), a match of a
    fixed number of deals once its planned deals are played. For the latter only their
    number counts (``played``, if the caller counted them; the format says whether a
    thrown-in deal is one, ``_unplanned``), so no deal is read."""
    tournament = match.round.tournament
    fixed = match.mode == Match.Mode.DEALS
    if fixed and played is None:
        played = _played(match)
    state = tournament_profile(tournament).match_state(
        () if fixed else current_results(match),
        tournament_options(tournament),
        mode=match.mode,
        target=match.target or 51,  # a Liga-Partie without a stored target: the rule book's
        planned=(match.deals_planned or 0) if fixed else None,
        played=played if fixed else None,
    )
    return state.finished


def _refresh_match_status(
    match: Match, *, always_save: bool = False, played: int | None = None
) -> None:
    """Open ↔ finished after deals changed; a confirmed match stays confirmed. Written
    only when it changed, unless ``always_save`` (a correction restarts ``finished_at``)."""
    if match.status == Match.Status.CONFIRMED:
        return
    finished = _is_finished(match, played=played)
    status = Match.Status.FINISHED if finished else Match.Status.OPEN
    if status == match.status and not always_save:
        return
    match.status = status
    match.finished_at = timezone.now() if finished else None
    match.save(update_fields=["status", "finished_at"])


def _lock_match(match: Match) -> tuple[Match, str]:
    """The match re-read under a row lock, and its round's status read after the lock
    was granted: ``close_round`` locks every match of the round before it closes it, so
    an entry either commits before the close or sees the round closed."""
    locked = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=match.pk)
    )
    status = Round.objects.values_list("status", flat=True).get(pk=locked.round_id)
    return locked, status


#: The match's columns an entry reads under its lock (``Model.from_db`` order).
ENTRY_MATCH_FIELDS = ("id", "round_id", "table_id", "mode", "deals_planned", "target", "status")


@lru_cache(maxsize=1)
def _entry_lock_sql() -> str:
    match, round_ = Match._meta.db_table, Round._meta.db_table
    tournament = Tournament._meta.db_table
    columns = ", ".join(f"m.{name}" for name in ENTRY_MATCH_FIELDS)
    return (
        f"SELECT {columns}, r.status, t.status FROM {match} m "
        f"JOIN {round_} r ON r.id = m.round_id JOIN {tournament} t ON t.id = r.tournament_id "
        "WHERE m.id = %s FOR UPDATE OF m"
    )


def _lock_match_for_entry(match: Match) -> tuple[Match, str]:
    """``_lock_match`` for a new deal, in one statement: the match locked and re-read, its
    round's and tournament's status read with it. A round changes its status while a
    match of it is locked only from published to closed (``close_round``), and both
    take entries; the tournament's status is read as in ``_lock_match``."""
    if connection.vendor != "postgresql":  # no FOR UPDATE OF (SQLite locks the database)
        return _lock_match(match)
    with connection.cursor() as cursor:
        cursor.execute(_entry_lock_sql(), [match.pk])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"Match {match.pk} does not exist.")
    locked = Match.from_db(connection.alias, ENTRY_MATCH_FIELDS, row[:-2])
    locked.round = match.round  # loaded with the device's credential, tournament too
    locked.round.tournament.status = row[-1]
    return locked, row[-2]


def _ensure_accepting(match: Match, round_status: str) -> None:
    """New deals go into published rounds, and into closed ones until the tournament is
    finished: a tablet that was offline at the close sends what was played before it,
    and the organiser enters a missing deal from the console."""
    if round_status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        raise Conflict("round_not_open", ROUND_NOT_OPEN)
    if match.round.tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", _("The tournament is finished."))


# --- deals ----------------------------------------------------------------------------


def _score_columns(result: dict[str, Any]) -> dict[str, Any]:
    points = result.get("points") or [0, 0]
    small = result.get("small_points") or [0, 0]
    match_points = result.get("match_points") or [0, 0]
    return {
        "points_0": points[0],
        "points_1": points[1],
        "small_0": small[0],
        "small_1": small[1],
        "match_points_0": match_points[0],
        "match_points_1": match_points[1],
        "outcome": result.get("outcome", ""),
        "winner_team": result.get("winner_team"),
    }


def _version_row(
    *,
    deal: Deal,
    version: int,
    record: dict[str, Any],
    result: dict[str, Any],
    user: Any,
    device: DeviceCredential | None,
    reason: str = "",
    created: Any = None,
) -> DealVersion:
    """A current version of ``deal`` as it will be stored, not yet saved."""
    row = DealVersion(
        deal=deal,
        version=version,
        record=record,
        result=result,
        engine_version=engine.ENGINE_VERSION,
        is_current=True,
        created_by_user=user if getattr(user, "is_authenticated", False) else None,
        created_by_device=device,
        reason=reason,
        **_score_columns(result),
    )
    if created is not None:
        row.created = created
    return row


def _new_version(
    *,
    deal: Deal,
    version: int,
    record: dict[str, Any],
    result: dict[str, Any],
    user: Any,
    device: DeviceCredential | None,
    reason: str = "",
) -> DealVersion:
    row = _version_row(
        deal=deal,
        version=version,
        record=record,
        result=result,
        user=user,
        device=device,
        reason=reason,
    )
    row.save(force_insert=True)
    return row


#: The columns of a new deal version, after ``deal_id`` (``_insert_first_version``).
VERSION_COLUMNS = (
    "version",
    "record",
    "result",
    "engine_version",
    "is_current",
    "created_by_user_id",
    "created_by_device_id",
    "reason",
    "created",
    "points_0",
    "points_1",
    "small_0",
    "small_1",
    "match_points_0",
    "match_points_1",
    "outcome",
    "winner_team",
)


@lru_cache(maxsize=1)
def _insert_first_version_sql() -> str:
    deal, version = Deal._meta.db_table, DealVersion._meta.db_table
    values = ", ".join("%s::jsonb" if c in ("record", "result") else "%s" for c in VERSION_COLUMNS)
    return (
        f"WITH d AS (INSERT INTO {deal} (match_id, number, created) VALUES (%s, %s, %s) "
        "RETURNING id), "
        f"v AS (INSERT INTO {version} (deal_id, {', '.join(VERSION_COLUMNS)}) "
        f"VALUES ((SELECT id FROM d), {values}) RETURNING id, deal_id), "
        f"t AS (SELECT MAX(number) AS top FROM {deal} WHERE match_id = %s) "
        "SELECT v.id, v.deal_id, CASE WHEN GREATEST(t.top, %s) >= %s "
        f"THEN (SELECT COUNT(*) FROM {version} cv JOIN {deal} cd ON cd.id = cv.deal_id "
        "WHERE cd.match_id = %s AND cv.is_current AND cv.outcome <> %s) END, t.top, "
        f"(SELECT pv.record->>'dealer' FROM {version} pv JOIN {deal} pd ON pd.id = pv.deal_id "
        "WHERE pd.match_id = %s AND pd.number = %s AND pv.is_current), "
        f"(SELECT pv.outcome FROM {version} pv JOIN {deal} pd ON pd.id = pv.deal_id "
        "WHERE pd.match_id = %s AND pd.number = %s AND pv.is_current) FROM v, t"
    )


@dataclass(frozen=True)
class DealsBefore:
    """What a new deal is judged against: the highest deal number the match had before
    it (0: none) and the dealer of the deal just before it and whether that one was
    thrown in (``previous`` None: that deal is not entered)."""

    top: int
    previous: tuple[int, bool] | None


def _deals_before(match: Match, number: int) -> DealsBefore:
    top = Deal.objects.filter(match=match).aggregate(top=Max("number"))["top"] or 0
    before = (
        DealVersion.objects.current()
        .filter(deal__match=match, deal__number=number - 1)
        .values_list("record", "outcome")
        .first()
    )
    return DealsBefore(top, _previous(before))


def _previous(row: tuple[Any, Any] | None) -> tuple[int, bool] | None:
    """(dealer, thrown in) of a deal's (record or its dealer, outcome), if it exists."""
    if row is None or row[0] is None:
        return None
    dealer = row[0]["dealer"] if isinstance(row[0], dict) else row[0]
    return int(dealer), row[1] == DealVersion.Outcome.THROWN_IN


def _insert_first_version(
    *,
    match: Match,
    number: int,
    record: dict[str, Any],
    result: dict[str, Any],
    user: Any,
    device: DeviceCredential | None,
) -> tuple[DealVersion, int, DealsBefore]:
    """Deal ``number`` and its version 1, written while the match is locked; the version
    (its deal and match attached), the match's played deals now and the deals before it
    (``DealsBefore``, judged by the caller, which rolls the write back on a refusal).
    On PostgreSQL one statement writes both rows and reads the rest (its snapshot is
    taken after the lock was granted, so every earlier entry of the match is seen; the
    reads do not see the rows the statement writes). The played deals are counted only
    when the match's highest deal number reaches its plan: below it (and in a Liga-Partie,
    which no count finishes) fewer deals than planned are played whatever the count, and
    that highest number, an upper bound, is returned instead (the count joins every deal
    of the match, the statement's costliest part)."""
    thrown_in = _unplanned(match)
    if connection.vendor != "postgresql":
        before = _deals_before(match, number)
        deal = Deal.objects.create(match=match, number=number)
        version = _new_version(
            deal=deal, version=1, record=record, result=result, user=user, device=device
        )
        return version, _played(match), before
    now = timezone.now()
    deal = Deal(match=match, number=number, created=now)
    version = _version_row(
        deal=deal, version=1, record=record, result=result, user=user, device=device, created=now
    )
    values = [getattr(version, column) for column in VERSION_COLUMNS]
    values[1:3] = [json.dumps(record), json.dumps(result)]
    previous = [match.pk, number - 1]
    counted = [match.pk, number, _deals_counted_from(match), match.pk, thrown_in]
    with connection.cursor() as cursor:
        cursor.execute(
            _insert_first_version_sql(),
            [match.pk, number, now, *values, *counted, *previous, *previous],
        )
        version.pk, deal.pk, played, top, dealer, outcome = cursor.fetchone()
    version.deal = deal  # its id is known now
    before = DealsBefore(top or 0, _previous((dealer, outcome)))
    if played is None:  # not counted: fewer than planned, at most the highest number
        return version, max(top or 0, number), before
    return version, played + (version.outcome != thrown_in), before


def _deals_counted_from(match: Match) -> int:
    """The highest deal number from which ``_insert_first_version`` counts the played
    deals: the planned deals of a fixed-length match; never for a Liga-Partie."""
    if match.mode == Match.Mode.LIGA:
        return 2**31 - 1
    return match.deals_planned or 0


def _ensure_in_order(match: Match, *, number: int, before: DealsBefore) -> None:
    """A new deal fills a gap among the match's deals or is the next after the last:
    deals are entered in the order they are played."""
    if number > before.top + 1:
        raise Conflict(
            "deal_not_next",
            _(
                "Deal %(number)s cannot be entered yet: the next deal of this table is "
                "deal %(next)s."
            ),
            params={"number": number, "next": before.top + 1},
        )


def expected_dealer(
    number: int, previous: tuple[int, bool] | None, options: engine.Options
) -> int | None:
    """The seat that must deal deal ``number`` after the deal before it (its dealer and
    whether it was thrown in): the first dealer for deal 1, None when the deal before is
    not entered (the deals of a gap may have been thrown in)."""
    if number == 1:
        return engine.FIRST_DEALER
    if previous is None:
        return None
    return engine.next_dealer(previous[0], thrown_in=previous[1], options=options)


def _ensure_dealer(
    match: Match, *, number: int, record: dict[str, Any], previous: tuple[int, bool] | None
) -> None:
    """The record's dealer is the one whose turn it is (``engine.next_dealer``)."""
    options = tournament_options(match.round.tournament)
    expected = expected_dealer(number, previous, options)
    dealer = record.get("dealer")
    if expected is None or dealer == expected:
        return
    raise Refused(
        "wrong_dealer",
        _(
            "Deal %(number)s is dealt by seat %(expected)s, whose turn it is; the record "
            "names seat %(dealer)s."
        ),
        params={"number": number, "expected": expected + 1, "dealer": int(dealer) + 1},
        errors=[
            {
                "code": "wrong_dealer",
                "message": f"seat {dealer} deals, but it is seat {expected}'s turn to deal",
                "field": "dealer",
                "params": {"seat": dealer, "expected": expected},
            }
        ],
    )


def _ensure_board(match: Match, *, number: int, record: dict[str, Any]) -> bool:
    """In a duplicate tournament deal ``number`` is board ``number``: a record whose
    dealer, upcard or hands differ from the board's is refused. True if the match plays
    boards (its dealer is then the board's, whatever was thrown in before)."""
    tournament = match.round.tournament
    board = tournament_board(tournament, round_number=match.round.number, number=number)
    if board is None:
        return False
    game, options = tournament_profile(tournament), tournament_options(tournament)
    if problems := board_mismatch(board, record, game=game, options=options):
        raise Refused(
            "board_mismatch",
            _(
                "Deal %(number)s is board %(number)s, and this record does not fit its "
                "cards: enter the deal as the board was dealt."
            ),
            params={"number": number},
            errors=problems,
        )
    return True


def _already_entered(number: int) -> Conflict:
    return Conflict(
        "deal_exists",
        _("Deal %(number)s of this table was already entered."),
        params={"number": number},
    )


def _notify(match: Match) -> None:
    """The match's results changed: the versions bumped; after the commit the recomputes
    queued, and with them the par analysis of the new version (``_queued_analysis``)."""
    tournament = match.round.tournament
    notify_results_changed(
        tournament_id=tournament.pk, club_id=tournament.club_id, also=_queued_analysis()
    )


# ``submit_deal`` and ``correct_deal`` are atomic without a savepoint of their own: their
# caller, ``execute_idempotently``, runs them in its transaction and rolls all of it back
# on any error. A caller that catches their errors inside its own atomic block must give
# them one.
@transaction.atomic(savepoint=False)
def submit_deal(
    *,
    match: Match,
    number: int,
    record: dict[str, Any],
    user: Any = None,
    device: DeviceCredential | None = None,
) -> DealVersion:
    """Enter deal ``number`` of a match: a gap among its deals or the next after the last,
    dealt by the seat whose turn it is. Entries of one match are serialised by the lock
    on its row; the unique constraint on (match, number) stays the final guard against a
    second entry of the same number. A refusal raised after the write rolls it back
    with the caller's transaction (see the note above). The record is stored with the
    tournament's rules, so that whatever reads it later (the analysis, the lines) reads
    the game it was played in."""
    record = _with_tournament_rules(record, match)
    result = check_record(record, match=match)
    plays_board = _ensure_board(match, number=number, record=record)
    match, round_status = _lock_match_for_entry(match)
    if round_status == Round.Status.CLOSED:
        # an archived league season's tables are all closed (its match days are final or
        # not played), so the tablets' hot path into open rounds asks nothing more
        league_selectors.ensure_match_season_open(match)
    _ensure_accepting(match, round_status)
    _ensure_playable(match, number=number, thrown_in=result.get("outcome") == "thrown_in")
    if match.status != Match.Status.OPEN:
        if Deal.objects.filter(match=match, number=number).exists():
            raise _already_entered(number)
        raise Conflict("match_finished", _("This match is finished; deals can only be corrected."))
    try:
        with transaction.atomic(savepoint=False):
            version, played, before = _insert_first_version(
                match=match, number=number, record=record, result=result, user=user, device=device
            )
    except IntegrityError as exc:
        raise _already_entered(number) from exc
    _ensure_in_order(match, number=number, before=before)
    if not plays_board:
        _ensure_dealer(match, number=number, record=record, previous=before.previous)
    _refresh_match_status(match, played=played)
    _notify(match)
    transaction.on_commit(partial(metrics.count_deal, "entered"), robust=True)
    return version


@transaction.atomic(savepoint=False)  # no savepoint: see submit_deal
def correct_deal(
    *,
    match: Match,
    number: int,
    expected_version: int,
    record: dict[str, Any],
    user: Any = None,
    device: DeviceCredential | None = None,
    reason: str = "",
) -> DealVersion:
    """Replace the current version of a deal with a new one. ``expected_version`` must be
    the current version (else 412). A record identical to the current one changes
    nothing and returns the current version. A correction keeps its deal's dealer or
    names the seat whose turn it is after the deal before (a correction of an earlier
    deal must not lock the later ones, which may then keep the dealer they were played
    with). Devices may only correct their open, unconfirmed match; organisers may
    correct any deal, even of a closed round (which queues a recompute of the ratings:
    its games are rated)."""
    deal = Deal.objects.select_for_update().filter(match=match, number=number).first()
    if deal is None:
        raise NotFound(
            "deal_missing",
            _("Deal %(number)s of this table has not been entered yet."),
            params={"number": number},
        )
    current = deal.versions.get(is_current=True)
    if current.version != expected_version:
        raise PreconditionFailed(
            "stale_version",
            _(
                "Deal %(number)s was changed meanwhile (now version %(version)s); "
                "reload it and correct the latest version."
            ),
            params={"number": number, "version": current.version},
        )
    match, round_status = _lock_match(match)
    league_selectors.ensure_match_season_open(match)
    if device is not None:
        _ensure_device_may_correct(match, round_status=round_status)
    record = _with_tournament_rules(record, match)
    result = check_record(record, match=match)
    if record == _with_tournament_rules(current.record, match):
        return current
    plays_board = _ensure_board(match, number=number, record=record)
    if not plays_board and record.get("dealer") != current.record.get("dealer"):
        _ensure_dealer(match, number=number, record=record, previous=_previous_deal(deal))
    DealVersion.objects.filter(pk=current.pk).update(is_current=False)
    deal.match = match
    version = _new_version(
        deal=deal,
        version=current.version + 1,
        record=record,
        result=result,
        user=user,
        device=device,
        reason=reason,
    )
    if match.status != Match.Status.CONFIRMED:
        match.confirmations.all().delete()  # a confirmation covers the results it saw
    _refresh_match_status(match, always_save=True)
    _restate_final_league_result(match)
    _notify(match)
    _queue_rerating(match, round_status=round_status)
    transaction.on_commit(partial(metrics.count_deal, "corrected"), robust=True)
    return version


def _restate_final_league_result(match: Match) -> None:
    """A corrected deal of a league match day whose result the league has accepted: the
    stored result (Partien and Augen, what the division table counts) is restated from
    the tables as they stand now, as the player ranking reads them, so both move with
    the correction; the match day stays final. A result not yet final is left alone:
    its confirmations and acceptance compare it with the tables (``result_changed``)."""
    day = (
        MatchDay.objects.select_for_update()
        .filter(
            tournament_id=match.round.tournament_id,
            status=MatchDay.Status.FINAL,
            forfeited_by__isnull=True,
        )
        .first()
    )
    if day is not None:
        columns = league_selectors.day_result(day).columns
        MatchDay.objects.filter(pk=day.pk).update(**columns)


def _previous_deal(deal: Deal) -> tuple[int, bool] | None:
    """(dealer, thrown in) of the deal before ``deal``, if it is entered."""
    row = (
        DealVersion.objects.current()
        .filter(deal__match_id=deal.match_id, deal__number=deal.number - 1)
        .values_list("record", "outcome")
        .first()
    )
    return _previous(row)


def _queue_rerating(match: Match, *, round_status: str) -> None:
    """A corrected deal of a closed round changes a rated game (ratings count closed
    rounds only): after the commit, the clubs' ratings are recomputed from scratch.
    A deal of an open round is rated when its round closes."""
    if round_status == Round.Status.CLOSED:
        queue_ratings_recompute(tournament_id=match.round.tournament_id)


def analysis_queued_on_entry() -> bool:
    """Whether an entered or corrected deal queues its par analysis: with
    ``ANALYSE_DEALS_ON_ENTRY`` on and a worker to run it. Tasks that run in this
    process (the embedded default: no broker, Celery eager) would analyse inside the
    tablet's request, and the interpreted solver holds the interpreter lock for
    seconds, so every other tablet's request waits: then nothing is queued, and
    ``manage.py analyse_deals`` (``make run`` runs it at start) or the worker's sweep
    analyses the version later; its hand record says the analysis is pending."""
    in_process = settings.CELERY_TASK_ALWAYS_EAGER  # the site's configuration of Celery
    return bool(settings.ANALYSE_DEALS_ON_ENTRY) and not in_process


#: A sweep of the versions lacking an analysis, queued with a result's recomputes.
ANALYSIS_SWEEP = QueuedWith(SWEEP_QUEUED_FLAG, send_analysis_sweep, SWEEP_FLAG_TIMEOUT)


def _queued_analysis() -> tuple[QueuedWith, ...]:
    """What a new version queues for its analysis once committed, when
    ``analysis_queued_on_entry``: a sweep unless one is queued already (one task per
    sweep, not per deal, its flag asked in the recomputes' round trip); otherwise the
    periodic ``analyse_missing_deals_task`` (or the ``analyse_deals`` command) analyses it
    later."""
    return (ANALYSIS_SWEEP,) if analysis_queued_on_entry() else ()


def device_correction_refusal(match: Match, *, round_status: str) -> Conflict | None:
    """Why the table's device may not correct a deal of ``match`` now (``None``: it may).
    The tablet shows this in words before anyone taps; ``correct_deal`` raises it."""
    if match.status == Match.Status.CONFIRMED:
        return Conflict(
            "match_confirmed",
            _("Both teams confirmed this match; only the organiser can change it now."),
        )
    if round_status != Round.Status.PUBLISHED:
        return Conflict("round_not_open", ROUND_NOT_OPEN)
    return None


def _ensure_device_may_correct(match: Match, *, round_status: str) -> None:
    if refusal := device_correction_refusal(match, round_status=round_status):
        raise refusal


# --- idempotency ----------------------------------------------------------------------


def request_fingerprint(*, method: str, path: str, body: Any, precondition: str = "") -> str:
    """A digest of everything that makes two requests the same request."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raw = "\n".join([method.upper(), path, precondition, canonical])
    return hashlib.sha256(raw.encode()).hexdigest()


def _replay(stored: IdempotencyRecord, *, request_hash: str) -> ApiResult:
    if stored.request_hash != request_hash:
        raise IdempotencyMismatch(
            "idempotency_key_reused",
            _(
                "This Idempotency-Key was already used for a different request; "
                "use a new key for a new request."
            ),
        )
    return ApiResult(stored.status_code, stored.response_body, stored.etag, replayed=True)


@lru_cache(maxsize=1)
def _store_response_sql() -> str:
    return (
        f"INSERT INTO {IdempotencyRecord._meta.db_table} (scope, key, request_hash, "
        "status_code, response_body, etag, created) VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s)"
    )


def _store_response(*, scope: str, key: str, request_hash: str, result: ApiResult) -> None:
    """The idempotency record of ``result``: on PostgreSQL one plain INSERT (the ORM's
    compiling cost more than the statement; the body is JSON-safe, it is sent as JSON)."""
    if connection.vendor != "postgresql":
        IdempotencyRecord.objects.create(
            scope=scope,
            key=key,
            request_hash=request_hash,
            status_code=result.status_code,
            response_body=result.body,
            etag=result.etag,
        )
        return
    body = json.dumps(result.body)
    with connection.cursor() as cursor:
        cursor.execute(
            _store_response_sql(),
            [scope, key, request_hash, result.status_code, body, result.etag, timezone.now()],
        )


def execute_idempotently(
    *, scope: str, key: str, request_hash: str, operation: Callable[[], ApiResult]
) -> ApiResult:
    """Run ``operation`` once per (scope, key).

    The operation's writes and the record of its response are one transaction: the
    unique (scope, key) index lets only one request with a key commit. A second one
    with the same key is refused on its way (it waits for the rows the first one
    locked, then finds its deal entered: 409, or changed: 412) or at the index (it waits
    there until the first commits); either way it is rolled back and replays the
    committed response. Only successful responses are stored; when the operation raises
    and nothing is stored for the key, the error is the answer, and a corrected retry
    with the same key is executed afresh.
    """
    try:
        # the results versions bumped last, after the answer is stored: the tournament's
        # row is locked from the bump to the commit, and every entry of it waits for it
        with transaction.atomic(), results_changes_last():
            result = operation()
            _store_response(scope=scope, key=key, request_hash=request_hash, result=result)
        return result
    except (IntegrityError, ApplicationError):
        stored = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if stored is None:
            raise
        return _replay(stored, request_hash=request_hash)


# --- deleting history -----------------------------------------------------------------


@contextmanager
def deleting_history() -> Iterator[None]:
    """A transaction in which deal versions may be deleted (and their authors unset) with
    the club or tournament they belong to; everywhere else PostgreSQL refuses it."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT set_config(%s, pg_current_xact_id()::text, true)",
                    [HISTORY_DELETION_SETTING],
                )
        yield
