"""Celery tasks: draw a round, recompute a tournament's standings or a club's leaderboards,
and re-queue whatever lags behind its results version.

Every task takes ids, fetches and calls one service; each is idempotent (a repeated or
redelivered run changes nothing or writes the same snapshot), so the settings
``acks_late`` + ``reject_on_worker_lost`` may safely run a task twice. Transient database
and broker errors are retried at most ``MAX_RETRIES`` times with jittered exponential
backoff; every task has a soft and a hard time limit.

Services queue these tasks and import them at module level; each task imports the
service it calls inside its body (the layers contract of import-linter, in
``pyproject.toml`` under ``[tool.importlinter]``, lists these service-to-task imports in
its ``ignore_imports``), so the two modules never import each other at load time.
"""

from __future__ import annotations

from celery import shared_task

from games.retry import RETRYING


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def draw_round_task(round_id: int) -> None:
    """Seat a round in ``drawing`` and make it a draft (no-op for any other status).
    A bug in the draw fails the task, which logs it as an error."""
    from tournaments.draw.services import seat_queued_round

    seat_queued_round(round_id=round_id)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def recompute_standings_task(tournament_id: int) -> None:
    """Full recompute of one tournament's standings into its snapshot."""
    from tournaments.results.snapshots import recompute_queued_standings

    recompute_queued_standings(tournament_id=tournament_id)


@shared_task(soft_time_limit=120, time_limit=180, **RETRYING)
def recompute_club_leaderboards_task(club_id: int) -> None:
    """Full recompute of a club's all-time table, KlammernBoss history and league tables."""
    from tournaments.results.snapshots import recompute_queued_leaderboards

    recompute_queued_leaderboards(club_id=club_id)


@shared_task(soft_time_limit=30, time_limit=60, **RETRYING)
def requeue_lagging_snapshots() -> dict[str, int]:
    """Beat task (every 30 s): re-queue lagging recomputes and lost draws."""
    from tournaments.events.versions import requeue_lagging_work

    return requeue_lagging_work()


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def rate_closed_round_task(round_id: int) -> None:
    """Rate a closed round for its clubs' ratings (one step; from scratch if out of order)."""
    from tournaments.ratings.services import rate_closed_round

    rate_closed_round(round_id=round_id)


@shared_task(soft_time_limit=300, time_limit=360, **RETRYING)
def recompute_club_ratings_task(club_id: int) -> None:
    """Recompute a club's ratings from scratch: every closed round in closing order."""
    from tournaments.ratings.services import recompute_queued_club_ratings

    recompute_queued_club_ratings(club_id=club_id)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def send_league_reminder_task(match_day_id: int, kind: str) -> None:
    """Send one league reminder (a match day and a kind) if it is still due and unsent."""
    from tournaments.leagues.reminders import send_reminder

    send_reminder(match_day_id=match_day_id, kind=kind)


@shared_task(soft_time_limit=60, time_limit=90, **RETRYING)
def queue_league_reminders_task() -> int:
    """Beat: queue a task for every league reminder due now (captains the day before,
    results waiting 24 h for confirmation and 48 h for acceptance)."""
    from tournaments.leagues.reminders import queue_due_reminders

    return queue_due_reminders()


@shared_task(soft_time_limit=300, time_limit=360, **RETRYING)
def purge_expired_data_task() -> dict[str, int]:
    """Beat (daily): remove what is past its retention period (docs/privacy.md)."""
    from tournaments.members.retention import purge_expired

    return purge_expired()


@shared_task(soft_time_limit=10, time_limit=20)
def worker_heartbeat_task(sent_at: float) -> None:
    """Answer a heartbeat of ``/readyz`` (sent at ``sent_at``): this queue is processed."""
    from klammern_site.heartbeat import record_heartbeat

    record_heartbeat(sent_at=sent_at)
