"""The API's rate limits hold under concurrent requests: requests arriving at once from
one client are counted one by one in Redis (``tournaments.access.throttles``), so exactly the
rate passes and the rest is refused with a wait until the window ends."""

from __future__ import annotations

import os
import threading
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from tournaments.access.throttles import AnonymousThrottle

RATE = 20
THREADS = 8
PER_THREAD = 10


class TwentyADay(AnonymousThrottle):
    rate = f"{RATE}/day"  # one window for the whole test, whenever it runs


@pytest.fixture
def redis_cache(settings: Any) -> None:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"test-throttle-{uuid.uuid4()}",
        }
    }


def test_concurrent_requests_pass_exactly_the_rate(redis_cache: None) -> None:
    request = Request(APIRequestFactory().get("/api/clubs/", REMOTE_ADDR="192.0.2.77"))
    request.user, request.auth = AnonymousUser(), None
    start = threading.Barrier(THREADS)
    answers: list[bool] = []
    waits: list[float] = []
    lock = threading.Lock()

    def client() -> None:
        start.wait()
        for _ in range(PER_THREAD):
            throttle = TwentyADay()
            allowed = throttle.allow_request(request, view=None)
            with lock:
                answers.append(allowed)
                if not allowed:
                    waits.append(throttle.wait())
        connections.close_all()

    threads = [threading.Thread(target=client) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert answers.count(True) == RATE
    assert len(waits) == THREADS * PER_THREAD - RATE
    assert all(1 <= wait <= 24 * 3600 for wait in waits)
