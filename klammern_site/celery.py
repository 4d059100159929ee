"""The Celery application.

Configuration comes from Django settings named ``CELERY_*``; tasks are discovered in each
installed app's ``tasks.py``. Without ``REDIS_URL`` settings make tasks run in-process.

Metrics (``klammern_site.metrics``, docs/metrics.md): each task message carries the time
it was published (header ``published_at``), and a worker observes how long each task
waited after it was due (published, or its countdown's end). A worker started with
``METRICS_PORT`` serves its container's metrics on that port (the pool's processes added
up with ``PROMETHEUS_MULTIPROC_DIR``).
"""

import os
import time
from datetime import datetime
from typing import Any

from celery import Celery
from celery.signals import (
    before_task_publish,
    task_prerun,
    worker_process_shutdown,
    worker_ready,
)
from prometheus_client import start_http_server

from klammern_site import metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klammern_site.settings")

app = Celery("klammern_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

PUBLISHED_AT = "published_at"


@before_task_publish.connect
def stamp_publication(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if headers is not None:
        headers[PUBLISHED_AT] = time.time()


def due_time(request: Any) -> float | None:
    """When a task became due: its countdown's end, else its publication (None: sent
    without the stamp, or run in-process)."""
    published = request.get(PUBLISHED_AT)
    if published is None:
        return None
    eta = request.get("eta")
    if eta:
        eta_time = eta if isinstance(eta, datetime) else datetime.fromisoformat(str(eta))
        return max(float(published), eta_time.timestamp())
    return float(published)


@task_prerun.connect
def observe_lag(task: Any = None, **kwargs: Any) -> None:
    if task is None or task.request.is_eager:
        return
    due = due_time(task.request)
    if due is not None:
        metrics.observe_task_lag(task=task.name, seconds=time.time() - due)


@worker_ready.connect
def serve_metrics(**kwargs: Any) -> None:
    port = os.environ.get("METRICS_PORT", "")
    if port:
        start_http_server(int(port), registry=metrics.process_registry())


@worker_process_shutdown.connect
def forget_pool_process(pid: int | None = None, **kwargs: Any) -> None:
    metrics.forget_process(pid or os.getpid())
