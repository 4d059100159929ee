"""``/healthz``: is this web process able to serve? For load balancers and the compose
healthcheck. It asks the database one trivial question and reports the cache's state;
it does not check Celery (a stopped worker delays standings, it does not stop tablets)."""

from __future__ import annotations

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


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
