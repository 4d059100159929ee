"""``/healthz``: is this web process able to serve? For load balancers and the compose
healthcheck. It asks the database one trivial question and reports the cache's state;
it does not check Celery (a stopped worker delays standings, it does not stop tablets).

``/readyz``: is the site as a whole doing its work? The same database question, the
cache answering, and the worker answering its heartbeat in time
(``klammern_site.heartbeat``): 503 with a JSON ``reason`` when it does not, while
``/healthz`` stays 200 (the web service itself is fine; restarting it would not help).
For monitoring and a deployment's rollout checks, not for a load balancer's liveness.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from klammern_site import heartbeat
from tournaments.tasks import worker_heartbeat_task


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


def _cache_answers() -> bool:
    cache.set("healthz", "ok", 10)
    return cache.get("healthz") == "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 while the database answers (the cache may be degraded), else 503."""
    database = _database_answers()
    body = {
        "database": "ok" if database else "down",
        "cache": "ok" if _cache_answers() else "degraded",
    }
    return JsonResponse(body, status=200 if database else 503)


def _send_heartbeat(sent_at: float) -> None:
    worker_heartbeat_task.delay(sent_at)


def _worker_lag() -> tuple[float | None, str]:
    """Seconds the oldest unanswered heartbeat waited (None: it could not be sent) and
    why the worker is not ready ("" when it is)."""
    try:
        lag = heartbeat.probe(
            now=time.time(), every=settings.READY_HEARTBEAT_SECONDS, send=_send_heartbeat
        )
    except Exception as exc:  # noqa: BLE001 - any broker failure means "not ready"
        return None, f"the task queue is unreachable: {type(exc).__name__}"
    limit = settings.READY_WORKER_LAG_SECONDS
    if lag > limit:
        return lag, (
            f"the worker has not answered for {lag:.0f} s (limit {limit:.0f} s): it is "
            "stopped or far behind, and the public standings lag"
        )
    return lag, ""


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """200 while the database and cache answer and the worker keeps up, else 503 with
    the first ``reason``."""
    database, cache_ok = _database_answers(), _cache_answers()
    lag, worker_problem = _worker_lag()
    reasons = [
        *([] if database else ["the database does not answer"]),
        *([] if cache_ok else ["the cache (Redis) does not answer"]),
        *([worker_problem] if worker_problem else []),
    ]
    body: dict[str, object] = {
        "database": "ok" if database else "down",
        "cache": "ok" if cache_ok else "down",
        "worker": "lagging" if worker_problem else "ok",
        "worker_lag_seconds": None if lag is None else round(lag, 1),
    }
    if reasons:
        body["reason"] = "; ".join(reasons)
    return JsonResponse(body, status=503 if reasons else 200)
