"""Storing the engine's par analysis of deal versions (``games.engine.analyse``).

``analyse_deal_version`` analyses one version and stores the result in its own
``DealAnalysis`` row (the version itself is never changed: versions are append-only);
``analyse_missing_deals`` does the same for every version without an analysis under the
engine's current ``ANALYSIS_VERSION`` (existing data, lost tasks, a new engine).
Deal entry and correction (``tournaments/deals/services.py``) queue a sweep after their
commit, with the results' recomputes (``SWEEP_QUEUED_FLAG``, ``send_analysis_sweep``): one
sweep (``analyse_queued_deals_task``) is queued unless one is queued already, so a busy
evening publishes one task per sweep instead of one per deal (publishing a Celery
message cost about as much CPU in the site as the entry itself). Summary records are
stored as not analysed, with the engine's ``summary_not_analysable`` answer, so nothing
is skipped silently.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from games import engine
from games.engine.analysis import ANALYSIS_VERSION
from games.tasks import SWEEP_BATCH, analyse_queued_deals_task

from .models import DealAnalysis, DealVersion

logger = logging.getLogger(__name__)

#: Set in the cache while a sweep queued by entries waits to start: entries queue no other.
SWEEP_QUEUED_FLAG = "analysis-sweep-queued"
#: A flag older than this is presumed lost (a killed worker); the beat's sweep covers it.
SWEEP_FLAG_TIMEOUT = 600


def seat_costs(analysis: dict[str, Any]) -> list[int]:
    """The deal points each seat's plays lost against par (four numbers), or ``[]``
    when the deal was not analysed."""
    if not analysis.get("analysed"):
        return []
    costs = [0, 0, 0, 0]
    for play in analysis.get("plays", []):
        costs[play["seat"]] += play["cost"]
    return costs


@transaction.atomic
def analyse_deal_version(*, version_id: int) -> DealAnalysis | None:
    """Analyse one deal version and store it (again, if an older engine analysed it).
    ``None`` if the version is gone (its tournament was deleted meanwhile)."""
    version = DealVersion.objects.filter(pk=version_id).first()
    if version is None:
        return None
    analysis = engine.analyse(version.record)
    if not analysis.get("valid", False):
        logger.error("deal version %s could not be analysed: %s", version_id, analysis)
    stored, _ = DealAnalysis.objects.update_or_create(
        version=version,
        defaults={
            "analysis": analysis,
            "analysis_version": analysis.get("analysis_version", ANALYSIS_VERSION),
            "engine_version": analysis.get("engine_version", engine.ENGINE_VERSION),
            "analysed": bool(analysis.get("analysed")),
            "costs": seat_costs(analysis),
        },
    )
    return stored


def versions_lacking_analysis() -> Any:
    """Versions with no analysis, or one by another ``ANALYSIS_VERSION``, oldest first."""
    lacking = Q(analysis__isnull=True) | ~Q(analysis__analysis_version=ANALYSIS_VERSION)
    return DealVersion.objects.filter(lacking).order_by("pk").values_list("pk", flat=True)


def analyse_missing_deals(*, limit: int | None = None) -> int:
    """Analyse (in this process) the versions lacking an analysis; how many were done."""
    ids = list(versions_lacking_analysis()[:limit] if limit else versions_lacking_analysis())
    for pk in ids:
        analyse_deal_version(version_id=pk)
    if ids:
        logger.info("analysed %s deal versions that lacked an analysis", len(ids))
    return len(ids)


def send_analysis_sweep() -> None:
    """Publish one sweep (``analyse_queued_deals_task``); its flag is the caller's."""
    analyse_queued_deals_task.delay()


def queue_analysis_sweep() -> bool:
    """Queue one sweep of the versions lacking an analysis unless one is queued already
    (a flag in the cache); True if one was sent. A broker error clears the flag again
    and is raised (the beat's sweep analyses the versions later)."""
    if not cache.add(SWEEP_QUEUED_FLAG, time.time(), timeout=SWEEP_FLAG_TIMEOUT):
        return False
    try:
        send_analysis_sweep()
    except Exception:
        cache.delete(SWEEP_QUEUED_FLAG)
        raise
    return True


def analyse_queued_deals(*, limit: int = SWEEP_BATCH) -> int:
    """The sweep that entries queue: its flag cleared first, so that a deal entered while
    it runs queues the next one; then up to ``limit`` versions analysed, and the next
    sweep queued when that many were done (more may be waiting)."""
    cache.delete(SWEEP_QUEUED_FLAG)
    done = analyse_missing_deals(limit=limit)
    if done >= limit:
        queue_analysis_sweep()
    return done
