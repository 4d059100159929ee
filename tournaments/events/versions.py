"""The results version of tournaments and clubs, and the recomputes it queues.

Every change that alters a table (a deal entered or corrected, a round closed, a player
renamed, a registration withdrawn) calls ``notify_results_changed``: it bumps the
tournament's and its club's ``results_version`` and, after the commit, queues one
standings and one leaderboards recompute unless one is queued already, and whatever else
the change asked to queue with them (``QueuedWith``: a deal's par analysis), all flags
in one round trip to the cache. A flag in the cache marks a queued task, so a burst of
results coalesces into one; a flag older than ``FLAG_STALE_SECONDS`` is presumed lost
and the beat task replaces it (``tasks.requeue_lagging_snapshots``).

The ratings are queued here too (``queue_round_rating`` when a round closes,
``queue_ratings_recompute`` when a rated result changes): the services that change
results sit below the ratings and only queue their work; ``ratings/services.py`` rates.

This module does not compute standings (``snapshots``) and knows nothing of HTTP.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from redis.exceptions import RedisError

from tournaments.clubs.models import Club
from tournaments.events.models import Round, Tournament
from tournaments.tasks import (
    draw_round_task,
    rate_closed_round_task,
    recompute_club_leaderboards_task,
    recompute_club_ratings_task,
    recompute_standings_task,
)

logger = logging.getLogger(__name__)

STANDINGS_FLAG = "standings-queued:{}"
LEADERBOARDS_FLAG = "leaderboards-queued:{}"
RATINGS_FLAG = "ratings-queued:{}"
#: A queued flag older than this is presumed lost (killed worker, flushed queue).
FLAG_STALE_SECONDS = 120
FLAG_TIMEOUT = FLAG_STALE_SECONDS * 10
#: A round still ``drawing`` this long after its request lost its draw task.
STALE_DRAW_SECONDS = 60


@dataclass(frozen=True)
class QueuedWith:
    """A task queued after a result's commit together with its recomputes, unless
    ``flag`` (set for ``timeout`` seconds) says that one is queued already. ``send``
    queues it; when it fails, the flag is cleared and the error raised."""

    flag: str
    send: Callable[[], object]
    timeout: int


#: The notifications held back by ``results_changes_last`` (None: none is being held),
#: by (tournament, club), with what each asked to queue.
_held_back: ContextVar[dict[tuple[int, int | None], list[QueuedWith]] | None] = ContextVar(
    "held_back", default=None
)


@contextmanager
def results_changes_last() -> Iterator[None]:
    """Inside an atomic block: ``notify_results_changed`` calls are held back and made, in
    order, when the block ends without an error, so that their version bumps are the
    transaction's last statements. A caller that writes more after the service (the
    idempotency record, and the answer it stores) keeps the tournament's and club's rows
    locked only for the bump and the commit that follows: every result of the tournament
    takes them in turn."""
    if _held_back.get() is not None:  # nested: the outermost one makes them
        yield
        return
    calls: dict[tuple[int, int | None], list[QueuedWith]] = {}
    token = _held_back.set(calls)
    try:
        yield
    finally:
        _held_back.reset(token)
    for (tournament_id, club_id), also in calls.items():  # not reached on an error
        notify_results_changed(tournament_id=tournament_id, club_id=club_id, also=also)


def notify_results_changed(
    *, tournament_id: int, club_id: int | None = None, also: Sequence[QueuedWith] = ()
) -> None:
    """Bump the tournament's and its club's results version; after commit, queue their
    recomputes (coalesced) and ``also``. Call it last in a write: the two rows stay
    locked until the commit, and every result of the tournament takes them in turn
    (within ``results_changes_last`` it is made when that block ends)."""
    held = _held_back.get()
    if held is not None:
        queued = held.setdefault((tournament_id, club_id), [])
        queued.extend(item for item in also if item not in queued)
        return
    owner = bump_results_versions(tournament_id=tournament_id, club_id=club_id)
    transaction.on_commit(
        lambda: enqueue_result_recomputes(
            tournament_id=tournament_id, club_id=owner, also=tuple(also)
        ),
        robust=True,
    )


def bump_results_versions(*, tournament_id: int, club_id: int | None = None) -> int:
    """Both results versions raised; the club's id. On PostgreSQL one statement (the
    tournament's UPDATE names the club to the club's)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_bump_sql(), [tournament_id])
            row = cursor.fetchone()
        if row is not None:
            return int(row[0])
        if club_id is None:
            raise Tournament.DoesNotExist(f"Tournament {tournament_id} does not exist.")
        return club_id
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)
    if club_id is None:
        club_id = Tournament.objects.values_list("club_id", flat=True).get(pk=tournament_id)
    Club.objects.filter(pk=club_id).update(results_version=F("results_version") + 1)
    return club_id


@lru_cache(maxsize=1)
def _bump_sql() -> str:
    tournaments, clubs = Tournament._meta.db_table, Club._meta.db_table
    return (
        f"WITH t AS (UPDATE {tournaments} SET results_version = results_version + 1 "
        "WHERE id = %s RETURNING club_id) "
        f"UPDATE {clubs} SET results_version = results_version + 1 "
        "WHERE id = (SELECT club_id FROM t) RETURNING id"
    )


def notify_club_changed(*, club_id: int) -> None:
    """A club setting that the club's tables depend on changed (the KlammernBoss window):
    bump the club's results version; after commit, queue its leaderboards recompute."""
    Club.objects.filter(pk=club_id).update(results_version=F("results_version") + 1)
    transaction.on_commit(lambda: enqueue_leaderboards_recompute(club_id=club_id), robust=True)


def enqueue_result_recomputes(
    *, tournament_id: int, club_id: int, also: Sequence[QueuedWith] = ()
) -> None:
    """What a new result queues: a standings and a leaderboards recompute and ``also``,
    each unless one is queued already (all flags asked in one round trip: every deal
    entry asks). A broker error is raised after every one was tried."""
    queued = [
        QueuedWith(
            STANDINGS_FLAG.format(tournament_id),
            lambda: _send_recompute(recompute_standings_task, tournament_id),
            FLAG_TIMEOUT,
        ),
        QueuedWith(
            LEADERBOARDS_FLAG.format(club_id),
            lambda: _send_recompute(recompute_club_leaderboards_task, club_id),
            FLAG_TIMEOUT,
        ),
        *also,
    ]
    added = add_flags([(item.flag, item.timeout) for item in queued], time.time())
    failure: Exception | None = None
    for item, was_added in zip(queued, added, strict=True):
        if not was_added:
            continue
        try:
            item.send()
        except Exception as exc:  # noqa: BLE001 - the others are still tried
            cache.delete(item.flag)  # the beat task retries later
            failure = failure or exc
    if failure is not None:
        raise failure


def add_flags(flags: Sequence[tuple[str, int]], value: float) -> list[bool]:
    """``cache.add`` of each (flag, timeout in seconds), whether it was added; on Redis
    (django-redis) in one pipelined round trip, the value encoded as the cache encodes
    it. While Redis is down none is added (as ``cache.add`` answers with
    ``IGNORE_EXCEPTIONS``)."""
    client = getattr(cache, "client", None)
    if not hasattr(client, "get_client"):  # another cache backend (local memory)
        return [bool(cache.add(flag, value, timeout=timeout)) for flag, timeout in flags]
    try:
        pipe = client.get_client(write=True).pipeline(transaction=False)
        encoded = client.encode(value)
        for flag, timeout in flags:
            pipe.set(cache.make_key(flag), encoded, ex=timeout, nx=True)
        return [bool(reply) for reply in pipe.execute()]
    except RedisError as exc:
        logger.warning("cache unreachable, no recompute queued: %s", exc)
        return [False] * len(flags)


def enqueue_standings_recompute(*, tournament_id: int, force: bool = False) -> bool:
    """Queue a standings recompute unless one is queued; True if one was sent."""
    return _enqueue_once(
        STANDINGS_FLAG.format(tournament_id),
        lambda: _send_recompute(recompute_standings_task, tournament_id),
        force=force,
    )


def enqueue_leaderboards_recompute(*, club_id: int, force: bool = False) -> bool:
    """Queue a club leaderboards recompute unless one is queued; True if one was sent."""
    return _enqueue_once(
        LEADERBOARDS_FLAG.format(club_id),
        lambda: _send_recompute(recompute_club_leaderboards_task, club_id),
        force=force,
    )


def enqueue_ratings_recompute(*, club_id: int) -> bool:
    """Queue a recompute of the club's ratings from scratch unless one was queued less
    than ``FLAG_STALE_SECONDS`` ago (a burst of corrections is rated once; a lost flag
    is replaced, as there is no version for the beat task to compare). True if sent."""
    return _enqueue_once(
        RATINGS_FLAG.format(club_id),
        lambda: _send_recompute(recompute_club_ratings_task, club_id),
        force=True,
    )


def queue_round_rating(*, round_id: int) -> None:
    """After the commit, rate the closed round (``close_round`` calls this)."""
    transaction.on_commit(lambda: rate_closed_round_task.delay(round_id), robust=True)


def queue_ratings_recompute(*, tournament_id: int) -> None:
    """After the commit, recompute the ratings of the tournament's clubs from scratch
    (``finish_tournament`` calls this: deals entered into closed rounds count now; and
    ``correct_deal`` for a deal of a closed, i.e. rated, round). Coalesced per club."""
    tournament = Tournament.objects.select_related("league_match_day__away").get(pk=tournament_id)
    for club_id in clubs_of(tournament):
        transaction.on_commit(
            lambda club_id=club_id: enqueue_ratings_recompute(club_id=club_id), robust=True
        )


def clubs_of(tournament: Tournament) -> list[int]:
    """The clubs whose ratings the tournament's games count for: its own, and the away
    club of a league match day (a hidden tournament of the home club)."""
    clubs = [tournament.club_id]
    match_day = getattr(tournament, "league_match_day", None)
    if match_day is not None and match_day.away.club_id not in clubs:
        clubs.append(match_day.away.club_id)
    return clubs


def _enqueue_once(flag: str, send: Callable[[], None], *, force: bool = False) -> bool:
    """Send unless ``flag`` marks a queued task; ``force`` replaces a stale flag."""
    now = time.time()
    if not cache.add(flag, now, timeout=FLAG_TIMEOUT):
        if not force:
            return False
        queued_at = cache.get(flag)
        if queued_at is not None and now - float(queued_at) < FLAG_STALE_SECONDS:
            return False
        cache.set(flag, now, timeout=FLAG_TIMEOUT)
    try:
        send()
    except Exception:
        cache.delete(flag)  # the beat task retries later
        raise
    return True


def _send_recompute(task: Any, owner_id: int) -> None:
    """Queue a recompute; with ``RECOMPUTE_DEBOUNCE_SECONDS`` it starts that much later,
    so that a burst of results (the flag stays set until the task starts) is counted by
    one recompute instead of one per deal."""
    delay = settings.RECOMPUTE_DEBOUNCE_SECONDS
    if delay > 0:
        task.apply_async((owner_id,), countdown=delay)
    else:
        task.delay(owner_id)


def clear_queued_flag(flag: str, owner_id: int) -> None:
    """A queued recompute starts: its flag is cleared before it reads the results
    version, so a result entered while it runs queues exactly one follow-up."""
    cache.delete(flag.format(owner_id))


def requeue_lagging_work() -> dict[str, int]:
    """Queue a recompute for every tournament and club whose snapshot lags its results
    version and whose queued flag is absent or stale (a flushed Redis, a lost message, a
    killed worker), and a draw for rounds stuck in ``drawing``; how many of each."""
    tournaments = Tournament.objects.filter(
        Q(standings_snapshot__isnull=True, results_version__gt=0)
        | Q(standings_snapshot__computed_version__lt=F("results_version"))
    ).values_list("pk", flat=True)
    clubs = Club.objects.filter(
        Q(snapshot__isnull=True, results_version__gt=0)
        | Q(snapshot__computed_version__lt=F("results_version"))
    ).values_list("pk", flat=True)
    queued = {
        "standings": sum(
            enqueue_standings_recompute(tournament_id=pk, force=True) for pk in tournaments
        ),
        "leaderboards": sum(enqueue_leaderboards_recompute(club_id=pk, force=True) for pk in clubs),
        "draws": 0,
    }
    stale = timezone.now() - timedelta(seconds=STALE_DRAW_SECONDS)
    for round_id in Round.objects.filter(
        status=Round.Status.DRAWING, created__lt=stale
    ).values_list("pk", flat=True):
        draw_round_task.delay(round_id)
        queued["draws"] += 1
    if any(queued.values()):
        logger.info("re-queued lagging work: %s", queued)
    return queued
