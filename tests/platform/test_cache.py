"""The Redis cache (django-redis, ``IGNORE_EXCEPTIONS``) answers as an empty cache while
Redis is unreachable, and works as a cache while it is up."""

from __future__ import annotations

import os
import socket

import pytest
from django_redis.cache import RedisCache


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cache(url: str, **options: object) -> RedisCache:
    return RedisCache(
        url,
        {"KEY_PREFIX": "test-resilient", "OPTIONS": {"IGNORE_EXCEPTIONS": True, **options}},
    )


@pytest.fixture
def dead_cache() -> RedisCache:
    return _cache(f"redis://127.0.0.1:{_closed_port()}/0", SOCKET_CONNECT_TIMEOUT=0.2)


def test_unreachable_redis_reads_miss_and_writes_are_dropped(dead_cache: RedisCache) -> None:
    assert dead_cache.get("throttle_anon_1", []) == []
    assert not dead_cache.add("standings-queued:1", 1)
    assert dead_cache.set("page", "html") is None
    assert dead_cache.get_many(["a", "b"]) == {}
    assert not dead_cache.delete("a")
    assert not dead_cache.has_key("a")


def test_reachable_redis_behaves_as_a_cache() -> None:
    cache = _cache(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    cache.delete("k")
    assert cache.add("k", 1) is True
    assert cache.add("k", 2) is False
    assert cache.get("k") == 1
    cache.delete("k")


def test_production_settings_use_django_redis_that_degrades(settings: object) -> None:
    from django.conf import settings as live

    del settings  # the tests' own cache is a local one: read the module as production has it
    from klammern_site import settings as module

    if not module.REDIS_URL:
        pytest.skip("the Redis cache is configured only with REDIS_URL")
    assert module.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    assert module.CACHES["default"]["OPTIONS"]["IGNORE_EXCEPTIONS"] is True
    assert live.SECRET_KEY  # the live settings are these
