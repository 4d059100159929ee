"""The Redis cache answers as an empty cache while Redis is unreachable, and works as
Django's own while it is up."""

from __future__ import annotations

import os
import socket

import pytest

from klammern_site.cache import ResilientRedisCache


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def dead_cache() -> ResilientRedisCache:
    return ResilientRedisCache(f"redis://127.0.0.1:{_closed_port()}/0",
                               {"OPTIONS": {"socket_connect_timeout": 0.2}})  # fmt: skip


def test_unreachable_redis_reads_miss_and_writes_are_dropped(
    dead_cache: ResilientRedisCache, caplog: pytest.LogCaptureFixture
) -> None:
    assert dead_cache.get("throttle_anon_1", []) == []
    assert dead_cache.add("standings-queued:1", 1) is False
    assert dead_cache.set("page", "html") is None
    assert dead_cache.get_many(["a", "b"]) == {}
    assert dead_cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert dead_cache.delete("a") is False
    assert dead_cache.has_key("a") is False
    assert "cache unreachable in get" in caplog.text


def test_reachable_redis_behaves_as_a_cache() -> None:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    cache = ResilientRedisCache(url, {"KEY_PREFIX": "test-resilient"})
    cache.delete("k")
    assert cache.add("k", 1) is True
    assert cache.add("k", 2) is False
    assert cache.get("k") == 1
    cache.delete("k")


def test_one_redis_client_is_reused_for_every_operation() -> None:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    cache = ResilientRedisCache(url, {"KEY_PREFIX": "test-resilient"})
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client
    cache.set("k", 1)
    assert cache.get("k") == 1 and cache._cache.get_client("k") is client
    cache.delete("k")
