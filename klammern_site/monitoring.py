"""``/metrics``: the Prometheus text format, for a Prometheus inside the deployment.

What this container's processes counted (``klammern_site.metrics``), then what is read
when Prometheus asks: the Celery queues' lengths (redis-py's ``LLEN`` on the broker, in
one pipelined round trip), the par analysis backlog (one count of deal versions lacking
an analysis) and the age of the worker's oldest unanswered heartbeat
(``klammern_site.heartbeat``). ``docs/metrics.md`` says what each means.

Access: with ``METRICS_TOKEN`` set, only a request with ``Authorization: Bearer
<token>`` gets the metrics (401 otherwise); without it, the metrics are open while
``DEBUG`` is on (``make run``) and do not exist (404) in production, so that a site
never publishes them by accident. The proxy does not pass ``/metrics`` on either.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterator
from functools import lru_cache

import redis
from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.analysis_services import versions_lacking_analysis
from klammern_site import heartbeat, metrics

#: kombu's Redis transport keeps a queue's messages of priority 3, 6 and 9 in lists of
#: their own beside the queue's list (``{queue}\x06\x16{priority}``).
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = ("", "3", "6", "9")


def queue_names() -> list[str]:
    return [queue.name for queue in settings.CELERY_TASK_QUEUES]


@lru_cache(maxsize=4)
def broker_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)


def queue_lengths(url: str, queues: list[str]) -> dict[str, int]:
    """Messages waiting in each queue of a Redis broker (all priorities)."""
    pipe = broker_client(url).pipeline(transaction=False)
    for queue in queues:
        for step in PRIORITY_STEPS:
            pipe.llen(f"{queue}{PRIORITY_SEPARATOR}{step}" if step else queue)
    replies = iter(pipe.execute())
    return {queue: sum(int(next(replies)) for _ in PRIORITY_STEPS) for queue in queues}


class ScrapeTimeCollector(Collector):
    """The gauges read when Prometheus asks (see the module's docstring)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self.queues()
        yield from self.backlog()
        lag = GaugeMetricFamily(
            "klammern_worker_heartbeat_lag_seconds",
            "Seconds the oldest heartbeat sent by /readyz has waited for the worker (0: none).",
        )
        lag.add_metric([], heartbeat.unanswered_seconds(time.time()))
        yield lag

    def queues(self) -> Iterator[GaugeMetricFamily]:
        url = str(settings.CELERY_BROKER_URL)
        up = GaugeMetricFamily("klammern_broker_up", "1 while the Celery broker (Redis) answers.")
        if not url.startswith(("redis://", "rediss://", "unix://")):
            return  # in-process tasks (make run): no queue to measure
        try:
            lengths = queue_lengths(url, queue_names())
        except redis.RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        family = GaugeMetricFamily(
            "klammern_celery_queue_length", "Tasks waiting in a Celery queue.", labels=["queue"]
        )
        for queue, length in lengths.items():
            family.add_metric([queue], length)
        yield family

    def backlog(self) -> Iterator[GaugeMetricFamily]:
        try:
            count = versions_lacking_analysis().count()
        except DatabaseError:
            return
        yield GaugeMetricFamily(
            "klammern_analysis_backlog",
            "Deal versions whose par analysis is missing or from an older analysis version.",
            value=count,
        )


def authorised(request: HttpRequest) -> bool | None:
    """True/False for a request with/without the token; None: the metrics are off."""
    token = settings.METRICS_TOKEN
    if not token:
        return True if settings.DEBUG else None
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    allowed = authorised(request)
    if allowed is None:
        raise Http404("metrics are off")
    if not allowed:
        response = HttpResponse("a bearer token is required\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    scraped = CollectorRegistry()
    scraped.register(ScrapeTimeCollector())
    body = generate_latest(metrics.process_registry()) + generate_latest(scraped)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
