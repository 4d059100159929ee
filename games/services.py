"""Entering and correcting deals, and replaying idempotent requests.

``submit_deal`` and ``correct_deal`` validate a deal record with the rules engine
(``games.engine.check``) before anything is written; the database constraints on
``Deal`` and ``DealVersion`` are the final guard against duplicates and double
"current" versions. ``execute_idempotently`` stores the first successful response to an
``Idempotency-Key`` in the same transaction as the write it describes. Nothing here knows
about HTTP beyond the status codes carried by the exceptions.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from klammern_site.db import prepared_cursor
from tournaments.models import DeviceCredential, Match, Round
from tournaments.services import (
    Conflict,
    ServiceError,
    notify_results_changed,
    results_changes_last,
)

from .models import Deal, DealVersion, IdempotencyRecord

MAX_LIGA_DEALS = 40


class InvalidRecord(ServiceError):
    """The engine rejected the record; ``errors`` is the engine's list, verbatim."""

    def __init__(self, detail: str, *, errors: list[dict[str, Any]]) -> None:
        super().__init__(detail)
        self.errors = errors


class PreconditionFailed(ServiceError):
    status_code = 412


class IdempotencyMismatch(ServiceError):
    status_code = 422


class DealNotFound(ServiceError):
    status_code = 404


class EngineUnavailable(ServiceError):
    status_code = 503


@dataclass(frozen=True)
class ApiResult:
    """A response as it is stored for replay."""

    status_code: int
    body: dict[str, Any]
    etag: str = ""
    replayed: bool = field(default=False, compare=False)


# --- engine ---------------------------------------------------------------------------


def engine_module() -> Any:
    try:
        from games import engine
    except ImportError as exc:  # the engine ships separately; say so rather than crash
        raise EngineUnavailable("The rules engine is not available on this server.") from exc
    return engine


def _with_tournament_rules(record: dict[str, Any], match: Match) -> dict[str, Any]:
    """The record with the tournament's fixed rules; a record naming other rules is
    rejected."""
    tournament = match.round.tournament
    rules: str | dict[str, Any] = tournament.rules_preset
    if tournament.rules_options:
        rules = {"preset": tournament.rules_preset, "options": tournament.rules_options}
    given = record.get("rules")
    if given is not None and given != rules and given != {"preset": rules, "options": {}}:
        raise InvalidRecord(
            "The record names other rules than this tournament plays.",
            errors=[{"code": "rules_mismatch", "message": f"This tournament plays {rules!r}."}],
        )
    return {**record, "rules": rules}


def check_record(record: dict[str, Any], *, match: Match) -> tuple[dict[str, Any], str]:
    """The engine's result for a valid record and the engine version; raises
    ``InvalidRecord`` with the engine's errors otherwise."""
    engine = engine_module()
    result = engine.check(_with_tournament_rules(record, match))
    if not result.get("valid"):
        raise InvalidRecord(
            "The deal record is not valid; nothing was stored.", errors=result.get("errors", [])
        )
    return result, str(engine.ENGINE_VERSION)


# --- match state ----------------------------------------------------------------------


def _ensure_playable(match: Match, *, number: int) -> None:
    if number < 1:
        raise ServiceError("Deals are numbered from 1.")
    if match.round.status != Round.Status.PUBLISHED:
        raise Conflict("This table's round is not open for results.")
    if match.mode == Match.Mode.DEALS and number > (match.deals_planned or 0):
        raise ServiceError(
            f"This match has {match.deals_planned} deals; deal {number} is too many."
        )
    if match.mode == Match.Mode.LIGA and number > MAX_LIGA_DEALS:
        raise ServiceError(f"A Liga-Partie has at most {MAX_LIGA_DEALS} deals.")


def current_results(match: Match) -> list[dict[str, Any]]:
    """The engine results of a match's current deal versions, in deal order."""
    versions = DealVersion.objects.current().filter(deal__match=match).order_by("deal__number")
    return [v.result for v in versions]


def _liga_results(match: Match) -> list[dict[str, Any]]:
    """What the Liga keeper reads of each current deal, from the score columns and two
    keys of the stored result (not the whole record and result)."""
    rows = (
        DealVersion.objects.current()
        .filter(deal__match=match)
        .order_by("deal__number")
        .values_list("outcome", "match_points_0", "match_points_1", "winner_team",
                     "result__playing_team", "result__march")
    )  # fmt: skip
    return [
        {"valid": True, "outcome": outcome, "match_points": [mp0, mp1],
         "winner_team": winner, "playing_team": playing, "march": bool(march)}
        for outcome, mp0, mp1, winner, playing, march in rows
    ]  # fmt: skip


def _is_finished(match: Match, *, deals: int) -> bool:
    """A fixed-length match is finished when all its deals are in; a Liga-Partie when the
    keeper says so. ``deals`` is the number of deals entered (each has one current
    version)."""
    if match.mode != Match.Mode.LIGA:
        return deals >= (match.deals_planned or 0)
    engine = engine_module()
    try:
        return bool(engine.score_liga(_liga_results(match), target=match.target or 51).finished)
    except engine.KeeperError:  # a corrected deal ended the Partie before later deals
        return True


def _refresh_match_status(match: Match, *, deals: int, always_save: bool = False) -> None:
    """Open ↔ finished after deals changed; a confirmed match stays confirmed. Written
    only when it changed, unless ``always_save`` (a correction restarts ``finished_at``)."""
    if match.status == Match.Status.CONFIRMED:
        return
    finished = _is_finished(match, deals=deals)
    status = Match.Status.FINISHED if finished else Match.Status.OPEN
    if status == match.status and not always_save:
        return
    match.status = status
    match.finished_at = timezone.now() if finished else None
    match.save(update_fields=["status", "finished_at"])


def _lock_match(match: Match) -> tuple[Match, str]:
    """The match re-read under a row lock, with its round's status. On PostgreSQL the
    round row is share-locked: submissions to one round do not wait for each other, but
    closing the round (``SELECT ... FOR UPDATE``) waits for them and they for it."""
    if connection.vendor == "postgresql":  # plain SQL: ``raw()`` cost 10 % of a deal's CPU
        fields = Match._meta.concrete_fields
        with prepared_cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(f'm.{f.column}' for f in fields)}, r.status "
                f"FROM {Match._meta.db_table} m JOIN {Round._meta.db_table} r "
                "ON r.id = m.round_id WHERE m.id = %s FOR UPDATE OF m FOR SHARE OF r",
                [match.pk],
            )
            row = cursor.fetchone()
        if row is None:
            raise Match.DoesNotExist(f"Match {match.pk} does not exist.")
        # no converters: psycopg returns these columns (ints, text, timestamptz) as the
        # ORM would
        locked = Match.from_db(connection.alias, [f.attname for f in fields], row[:-1])
        round_status = row[-1]
    else:  # SQLite: a write transaction locks the whole database
        locked = Match.objects.select_related("round").get(pk=match.pk)
        round_status = locked.round.status
    if "round" in match._state.fields_cache:
        locked.round = match.round  # the tournament loaded with it, for the version bump
    return locked, round_status


# --- deals ----------------------------------------------------------------------------


def _score_columns(result: dict[str, Any]) -> dict[str, Any]:
    points = result.get("points") or [0, 0]
    small = result.get("small_points") or [0, 0]
    match_points = result.get("match_points") or [0, 0]
    return {
        "points_0": points[0], "points_1": points[1],
        "small_0": small[0], "small_1": small[1],
        "match_points_0": match_points[0], "match_points_1": match_points[1],
        "outcome": result.get("outcome", ""), "winner_team": result.get("winner_team"),
    }  # fmt: skip


def _new_version(
    *, deal: Deal, version: int, record: dict[str, Any], result: dict[str, Any],
    engine_version: str, user: Any, device: DeviceCredential | None, reason: str = "",
) -> DealVersion:  # fmt: skip
    return DealVersion.objects.create(
        deal=deal, version=version, record=record, result=result,
        engine_version=engine_version, is_current=True,
        created_by_user=user if getattr(user, "is_authenticated", False) else None,
        created_by_device=device, reason=reason, **_score_columns(result),
    )  # fmt: skip


def _deals_entered(match: Match, *, number: int) -> tuple[int, bool]:
    """How many deals the match has, and whether deal ``number`` is one of them."""
    with connection.cursor() as cursor:  # plain SQL: the ORM's compiling cost more than this
        cursor.execute(
            "SELECT COUNT(*), COUNT(CASE WHEN number = %s THEN 1 END) "
            f"FROM {Deal._meta.db_table} WHERE match_id = %s",
            [number, match.pk],
        )
        entered, taken = cursor.fetchone()
    return entered, bool(taken)


_VERSION_COLUMNS = (
    "deal_id", "version", "record", "result", "engine_version", "is_current",
    "created_by_user_id", "created_by_device_id", "reason", "created", "points_0", "points_1",
    "small_0", "small_1", "match_points_0", "match_points_1", "outcome", "winner_team",
)  # fmt: skip


def _insert_first_version(
    *, match: Match, number: int, record: dict[str, Any], result: dict[str, Any],
    engine_version: str, user: Any, device: DeviceCredential | None,
) -> tuple[DealVersion, int]:  # fmt: skip
    """Deal ``number`` and its version 1 written, with the match's lock held; the version
    (its deal and match attached) and how many deals the match has now. On PostgreSQL one
    plain statement writes both rows and counts the deals before them (its snapshot is
    taken after the lock, so every earlier entry of the match is committed and counted);
    the ORM's two INSERTs cost more CPU than the database spends on them."""
    if connection.vendor != "postgresql":
        entered, _ = _deals_entered(match, number=number)
        deal = Deal.objects.create(match=match, number=number)
        version = _new_version(deal=deal, version=1, record=record, result=result,
                               engine_version=engine_version, user=user, device=device)  # fmt: skip
        return version, entered + 1
    user = user if getattr(user, "is_authenticated", False) else None
    now = timezone.now()
    version = DealVersion(
        deal=Deal(match=match, number=number, created=now), version=1, record=record,
        result=result, engine_version=engine_version, is_current=True, created_by_user=user,
        created_by_device=device, reason="", created=now, **_score_columns(result),
    )  # fmt: skip
    values = [getattr(version, column) for column in _VERSION_COLUMNS[1:]]
    values[1:3] = [json.dumps(record), json.dumps(result)]  # JSON-safe: parsed and engine's
    placeholders = ", ".join("%s::jsonb" if c in ("record", "result") else "%s"
                             for c in _VERSION_COLUMNS[1:])  # fmt: skip
    with prepared_cursor() as cursor:  # VALUES: each value takes its column's type
        cursor.execute(
            f"WITH d AS (INSERT INTO {Deal._meta.db_table} (match_id, number, created) "
            "VALUES (%s, %s, %s) RETURNING id), "
            f"v AS (INSERT INTO {DealVersion._meta.db_table} ({', '.join(_VERSION_COLUMNS)}) "
            f"VALUES ((SELECT id FROM d), {placeholders}) RETURNING id, deal_id) "
            f"SELECT v.id, v.deal_id, (SELECT COUNT(*) FROM {Deal._meta.db_table} "
            "WHERE match_id = %s) FROM v",
            [match.pk, number, now, *values, match.pk],
        )
        version.pk, version.deal.pk, before = cursor.fetchone()
    version.deal = version.deal  # sets deal_id from the deal's new id
    version.deal._state.adding = version._state.adding = False
    return version, before + 1


def _is_deal_taken(exc: IntegrityError) -> bool:
    """Whether ``exc`` (from writing a new deal) says its number is taken. PostgreSQL
    names the violated constraint; SQLite names none, and there the deal's insert can
    break no other constraint, so any integrity error is the taken number."""
    diag = getattr(exc.__cause__, "diag", None)
    if diag is None:
        return connection.vendor != "postgresql"
    return getattr(diag, "constraint_name", None) == "unique_deal_number"


def _notify(match: Match) -> None:
    tournament = match.round.tournament
    notify_results_changed(tournament_id=tournament.pk, club_id=tournament.club_id)


# ``submit_deal`` and ``correct_deal`` are atomic without a savepoint of their own: their
# caller, ``execute_idempotently``, runs them in its transaction and rolls all of it back
# on any error, so a savepoint would be two more statements per deal for nothing. A caller
# that catches their errors inside its own atomic block must give them one.
@transaction.atomic(savepoint=False)
def submit_deal(
    *,
    match: Match,
    number: int,
    record: dict[str, Any],
    user: Any = None,
    device: DeviceCredential | None = None,
) -> DealVersion:
    """Enter deal ``number`` of a match. Entries of one match are serialised by the lock
    on its row; the unique constraint on (match, number) stays the final guard against a
    second entry of the same number."""
    _ensure_playable(match, number=number)
    result, engine_version = check_record(record, match=match)
    match, round_status = _lock_match(match)
    if round_status != Round.Status.PUBLISHED:
        raise Conflict("This table's round is not open for results.")
    if match.status != Match.Status.OPEN:
        if _deals_entered(match, number=number)[1]:
            raise Conflict(f"Deal {number} of this table was already entered.")
        raise Conflict("This match is finished; deals can only be corrected.")
    try:
        with transaction.atomic(savepoint=False):  # a failure rolls back submit_deal
            version, entered = _insert_first_version(
                match=match, number=number, record=record, result=result,
                engine_version=engine_version, user=user, device=device,
            )  # fmt: skip
    except IntegrityError as exc:
        if not _is_deal_taken(exc):
            raise
        raise Conflict(f"Deal {number} of this table was already entered.") from exc
    _refresh_match_status(match, deals=entered)
    _notify(match)  # last: the version rows stay locked only until the commit
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
    the current version (else 412). Devices may only correct their open, unconfirmed
    match; organisers may correct any deal, even of a closed round."""
    deal = Deal.objects.select_for_update().filter(match=match, number=number).first()
    if deal is None:
        raise DealNotFound(f"Deal {number} of this table has not been entered yet.")
    current = deal.versions.get(is_current=True)
    if current.version != expected_version:
        raise PreconditionFailed(
            f"Deal {number} was changed meanwhile (now version {current.version}); "
            "reload it and correct the latest version."
        )
    match, round_status = _lock_match(match)
    if device is not None:
        _ensure_device_may_correct(match, round_status=round_status)
    result, engine_version = check_record(record, match=match)
    DealVersion.objects.filter(pk=current.pk).update(is_current=False)
    deal.match = match
    version = _new_version(deal=deal, version=current.version + 1, record=record, result=result,
                           engine_version=engine_version, user=user, device=device,
                           reason=reason)  # fmt: skip
    if match.status != Match.Status.CONFIRMED:
        match.confirmations.all().delete()  # a confirmation covers the results it saw
    _refresh_match_status(match, deals=Deal.objects.filter(match=match).count(), always_save=True)
    _notify(match)
    return version


def _ensure_device_may_correct(match: Match, *, round_status: str) -> None:
    if match.status == Match.Status.CONFIRMED:
        raise Conflict("Both teams confirmed this match; only the organiser can change it now.")
    if round_status != Round.Status.PUBLISHED:
        raise Conflict("This table's round is not open for results.")


# --- idempotency ----------------------------------------------------------------------


def request_fingerprint(*, method: str, path: str, body: Any, precondition: str = "") -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    raw = "\n".join([method.upper(), path, precondition, canonical])
    return hashlib.sha256(raw.encode()).hexdigest()


def _replay(stored: IdempotencyRecord, *, request_hash: str) -> ApiResult:
    if stored.request_hash != request_hash:
        raise IdempotencyMismatch(
            "This Idempotency-Key was already used for a different request; "
            "use a new key for a new request."
        )
    return ApiResult(stored.status_code, stored.response_body, stored.etag, replayed=True)


def _store_response(*, scope: str, key: str, request_hash: str, result: ApiResult) -> None:
    """The idempotency record of ``result``; one plain INSERT on PostgreSQL (the body is
    JSON-safe: it is sent as JSON)."""
    if connection.vendor != "postgresql":
        IdempotencyRecord.objects.create(
            scope=scope, key=key, request_hash=request_hash, status_code=result.status_code,
            response_body=result.body, etag=result.etag,
        )  # fmt: skip
        return
    with prepared_cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {IdempotencyRecord._meta.db_table} (scope, key, request_hash, "
            "status_code, response_body, etag, created) VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s)",
            [scope, key, request_hash, result.status_code, json.dumps(result.body), result.etag,
             timezone.now()],
        )  # fmt: skip


def execute_idempotently(
    *, scope: str, key: str, request_hash: str, operation: Callable[[], ApiResult]
) -> ApiResult:
    """Run ``operation`` once per (scope, key).

    The operation's writes and the record of its response are one transaction, the
    record inserted after the operation's writes and before its results-version bumps,
    which ``results_changes_last`` holds back to the very end (they lock the hot
    tournament and club rows): the unique (scope, key) index lets only one request with
    a key commit. A second one with the same key is refused on its way (it waits for the rows
    the first one locked, then finds its deal entered: 409, or changed: 412) or at the
    index (it waits there until the first commits); either way it is rolled back and
    replays the committed response. A retry after the fact runs the same way. Only
    successful responses are stored; when the operation raises and nothing is stored
    for the key, the error is the answer, and a corrected retry with the same key is
    executed afresh.
    """
    try:
        with transaction.atomic(), results_changes_last():
            result = operation()
            _store_response(scope=scope, key=key, request_hash=request_hash, result=result)
            return result
    except (IntegrityError, ServiceError):
        stored = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if stored is None:
            raise
        return _replay(stored, request_hash=request_hash)
