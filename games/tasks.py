"""Celery tasks of deals: the par analysis of one deal version (``analyse_deals``), the
sweep that deal entries queue (one at a time) and the periodic sweep, both analysing
versions still lacking an analysis (see ``games/analysis_services.py``).

Each task takes ids and calls one service, imported inside its body (the import-linter
contract names this exception), with the retry policy and time limits of
``tournaments/tasks.py``; both are idempotent (an analysis is stored per version).
"""

from __future__ import annotations

from celery import shared_task

from games.retry import RETRYING

#: Deal versions the sweep analyses per run (about 0.25 s each, compiled engine).
SWEEP_BATCH = 200


@shared_task(soft_time_limit=30, time_limit=60, **RETRYING)
def analyse_deal_task(version_id: int) -> None:
    """Analyse one deal version and store the analysis."""
    from .analysis_services import analyse_deal_version

    analyse_deal_version(version_id=version_id)


@shared_task(soft_time_limit=240, time_limit=300, **RETRYING)
def analyse_queued_deals_task() -> int:
    """Queued after entries (one at a time): analyse up to ``SWEEP_BATCH`` versions that
    lack an analysis, and queue the next batch if that many were done."""
    from .analysis_services import analyse_queued_deals

    return analyse_queued_deals(limit=SWEEP_BATCH)


@shared_task(soft_time_limit=240, time_limit=300, **RETRYING)
def analyse_missing_deals_task() -> int:
    """Beat task: analyse up to ``SWEEP_BATCH`` versions that lack an analysis."""
    from .analysis_services import analyse_missing_deals

    return analyse_missing_deals(limit=SWEEP_BATCH)
