"""The project's Celery app as the worker tests start it (``celery -A
tests.support.celery_app worker``), with one test hook that production code does not have:
``KLAMMERN_TEST_RECOMPUTE_DELAY`` seconds of sleep between computing a tournament's
standings and storing them, so that a test can kill the worker in the middle of a
recompute. The hook is installed before the worker's first task runs."""

from __future__ import annotations

import os
import time
from typing import Any

from celery.signals import task_prerun

from klammern_site.celery import app

__all__ = ["app"]


@task_prerun.connect
def _slow_recomputes(**kwargs: Any) -> None:
    delay = float(os.environ.get("KLAMMERN_TEST_RECOMPUTE_DELAY") or 0)
    from tournaments.results import snapshots  # Django is set up once a task runs

    compute = snapshots.compute_tournament_standings
    if delay <= 0 or getattr(compute, "slowed", False):
        return

    def slowed(**arguments: Any) -> dict[str, Any]:
        data = compute(**arguments)
        time.sleep(delay)
        return data

    slowed.slowed = True  # type: ignore[attr-defined]
    snapshots.compute_tournament_standings = slowed
