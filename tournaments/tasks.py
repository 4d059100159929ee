"""Celery tasks: draw a round, recompute a tournament's standings or a club's leaderboards,
and re-queue whatever lags behind its results version.

Every task takes ids, fetches and calls one service; each is idempotent (a repeated or
redelivered run changes nothing or writes the same snapshot), so the settings
``acks_late`` + ``reject_on_worker_lost`` may safely run a task twice. Transient database
and broker errors are retried at most ``MAX_RETRIES`` times with jittered exponential
backoff; every task has a soft and a hard time limit.

Services queue these tasks and import them at module level; each task imports the
service it calls inside its body (the import-linter contract in ``.importlinter`` names
this one exception), so the two modules never import each other at load time.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from .models import Club, Round, Tournament

logger = logging.getLogger(__name__)

MAX_RETRIES = 5
RETRYING: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError, BrokerError, ConnectionError),
    "max_retries": MAX_RETRIES,
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "ignore_result": True,
}
#: A round still ``drawing`` this long after its request lost its draw task.
STALE_DRAW_SECONDS = 60


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def draw_round_task(round_id: int) -> None:
    """Seat a round in ``drawing`` and make it a draft (no-op for any other status)."""
    from .draw import seat_round

    if Round.objects.filter(pk=round_id).exists():
        seat_round(round_id=round_id)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def recompute_standings_task(tournament_id: int) -> None:
    """Full recompute of one tournament's standings into its snapshot.

    The queued flag is cleared first, before the version is read: a result entered while
    this runs queues exactly one follow-up recompute."""
    from .results import STANDINGS_FLAG
    from .snapshots import recompute_standings

    cache.delete(STANDINGS_FLAG.format(tournament_id))
    if Tournament.objects.filter(pk=tournament_id).exists():
        logger.info("Recomputing standings of tournament %s", tournament_id)
        recompute_standings(tournament_id=tournament_id)


@shared_task(soft_time_limit=120, time_limit=180, **RETRYING)
def recompute_club_leaderboards_task(club_id: int) -> None:
    """Full recompute of a club's all-time table, KlammernBoss history and league tables."""
    from .results import LEADERBOARDS_FLAG
    from .snapshots import recompute_club_leaderboards

    cache.delete(LEADERBOARDS_FLAG.format(club_id))
    if Club.objects.filter(pk=club_id).exists():
        recompute_club_leaderboards(club_id=club_id)


@shared_task(soft_time_limit=30, time_limit=60, **RETRYING)
def requeue_lagging_snapshots() -> dict[str, int]:
    """Beat task (every 30 s): queue a recompute for every tournament and club whose
    snapshot lags its results version and whose queued flag is absent or stale (a flushed
    Redis, a lost message, a killed worker), and a draw for rounds stuck in ``drawing``."""
    from .results import enqueue_leaderboards_recompute, enqueue_standings_recompute

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


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def rate_closed_round_task(round_id: int) -> None:
    """Rate a closed round for its clubs' ratings (one step; from scratch if out of order)."""
    from .rating_services import rate_closed_round

    if Round.objects.filter(pk=round_id).exists():
        rate_closed_round(round_id=round_id)


@shared_task(soft_time_limit=300, time_limit=360, **RETRYING)
def recompute_club_ratings_task(club_id: int) -> None:
    """Recompute a club's ratings from scratch: every closed round in closing order.

    The queued flag is cleared first: a correction committed while this runs queues a
    follow-up recompute."""
    from .rating_services import recompute_club_ratings
    from .results import RATINGS_FLAG

    cache.delete(RATINGS_FLAG.format(club_id))
    if Club.objects.filter(pk=club_id).exists():
        recompute_club_ratings(club_id=club_id)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def send_league_reminder_task(match_day_id: int, kind: str) -> None:
    """Send one league reminder (a match day and a kind) if it is still due and unsent."""
    from .league_reminders import send_reminder

    send_reminder(match_day_id=match_day_id, kind=kind)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def queue_league_reminders_task() -> int:
    """Beat: queue a task for every league reminder due now (captains the day before,
    results waiting 24 h for confirmation and 48 h for acceptance)."""
    from .league_reminders import due_reminders

    due = due_reminders()
    for match_day_id, kind in due:
        send_league_reminder_task.delay(match_day_id, kind)
    return len(due)
