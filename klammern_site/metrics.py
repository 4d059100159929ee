"""The site's Prometheus metrics (``prometheus-client``): what is counted and timed in
the processes that do the work, and the registry a scrape reads.

Counted where it happens, each a few microseconds of memory writes and never a database
statement: requests by view name and status with their latency (``RequestMiddleware``
in ``klammern_site.observability``), deal entries and corrections (after the commit of
``tournaments.deals.services``), refusals by error code (the API's exception handler),
the time a Celery task waited in its queue (``klammern_site.celery``) and the time a
standings recompute took (``tournaments.results.snapshots``). What is read from Redis or
the database when Prometheus asks (queue lengths, the analysis backlog) is collected by
the ``/metrics`` view itself (``klammern_site.monitoring``).

With ``PROMETHEUS_MULTIPROC_DIR`` set (production: docker-compose.yml), each process
writes its values to files in that directory and a scrape adds up every process of the
container (gunicorn's workers, a Celery worker's pool); gunicorn empties the directory
when it starts and forgets a dead worker's live values (``klammern_site.gunicorn_conf``).
Without it (``make run``, the tests) the values live in the process's own registry.
This module imports nothing of the project.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, multiprocess

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROC_DIR:
    os.makedirs(MULTIPROC_DIR, exist_ok=True)

#: Latency buckets of a request: a deal entry takes 5-30 ms, a page 10-100 ms.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds a task waited between being due and starting (debounced recomputes are due
#: when their countdown ends).
LAG_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)
#: Seconds of one standings recompute (a club evening: 20-200 ms).
RECOMPUTE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Counter(
    "klammern_http_requests",
    "Requests answered, by resolved view name (never the path), method and status.",
    ["view", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "klammern_http_request_duration_seconds",
    "Seconds from the request reaching Django to its answer, by view name.",
    ["view"],
    buckets=REQUEST_BUCKETS,
)
DEALS = Counter(
    "klammern_deals",
    "Deals stored (committed): kind=entered for a new deal, corrected for a new version.",
    ["kind"],
)
REFUSALS = Counter(
    "klammern_api_refusals",
    "API requests refused with an error code (the body's code), by view name.",
    ["view", "code"],
)
TASK_LAG_SECONDS = Histogram(
    "klammern_celery_task_lag_seconds",
    "Seconds a Celery task waited in its queue after it was due, by task name.",
    ["task"],
    buckets=LAG_BUCKETS,
)
STANDINGS_SECONDS = Histogram(
    "klammern_standings_recompute_seconds",
    "Seconds one tournament's standings recompute took in the worker.",
    buckets=RECOMPUTE_BUCKETS,
)


#: The view label of a request no route matched (or that was answered before routing).
UNMATCHED = "unmatched"


def view_name(request: Any) -> str:
    """The resolved URL's name (``deal-detail``, ``admin:index``), never the raw path:
    one series per route, whatever ids the path holds."""
    match = getattr(request, "resolver_match", None)
    return (match.view_name if match is not None else "") or UNMATCHED


def count_request(*, view: str, method: str, status: int, seconds: float) -> None:
    REQUESTS.labels(view, method, str(status)).inc()
    REQUEST_SECONDS.labels(view).observe(seconds)


def count_deal(kind: str) -> None:
    """A deal entered or corrected (call it after the commit)."""
    DEALS.labels(kind).inc()


def count_refusal(*, view: str, code: str) -> None:
    REFUSALS.labels(view, code).inc()


def observe_task_lag(*, task: str, seconds: float) -> None:
    TASK_LAG_SECONDS.labels(task).observe(max(seconds, 0.0))


@contextmanager
def timing_standings() -> Iterator[None]:
    """Times the block as one standings recompute (also when it raises)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        STANDINGS_SECONDS.observe(time.perf_counter() - started)


def process_registry() -> CollectorRegistry:
    """What this container's processes counted: every process's files in multiprocess
    mode, else this process's own registry."""
    if not MULTIPROC_DIR:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=MULTIPROC_DIR)
    return registry


def forget_process(pid: int) -> None:
    """A process of the container ended: its live values are dropped (its counts stay,
    as counters must not go down)."""
    if MULTIPROC_DIR:
        multiprocess.mark_process_dead(pid, MULTIPROC_DIR)


def empty_multiproc_dir() -> None:
    """At the start of the container's first process: the last run's files removed."""
    if not MULTIPROC_DIR:
        return
    for name in os.listdir(MULTIPROC_DIR):
        if name.endswith(".db"):
            os.remove(os.path.join(MULTIPROC_DIR, name))
