"""A Redis cache that degrades instead of failing when Redis is unreachable.

The cache holds only what can be rebuilt: throttle histories, rendered pages, the
"recompute already queued" flags. Losing Redis must not stop a table from entering a
deal, so every operation here logs the error and answers as an empty cache would
(reads miss, writes are dropped, ``add`` reports "not added"). It does not retry and
does not hide errors of any other kind.

It also keeps one ``redis.Redis`` client per connection pool: Django's own builds a new
one for every operation, and building one (with its table of reply parsers) costs more
CPU than the round trip it serves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
T = TypeVar("T")


def _degrades_to(fallback: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the cache operation; when Redis is unreachable, log and return ``fallback(...)``."""

    def decorate(operation: Callable[..., T]) -> Callable[..., T]:
        @wraps(operation)
        def guarded(self: RedisCache, *args: Any, **kwargs: Any) -> T:
            try:
                return operation(self, *args, **kwargs)
            except UNREACHABLE as exc:
                logger.warning("cache unreachable in %s: %s", operation.__name__, exc)
                return fallback(*args, **kwargs)  # type: ignore[no-any-return]

        return guarded

    return decorate


def _default(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _empty(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {}


def _all_failed(data: dict[str, Any], *args: Any, **kwargs: Any) -> list[str]:
    return list(data)


def _none_added(keys: list[str], *args: Any, **kwargs: Any) -> list[bool]:
    return [False] * len(keys)


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, handing out one ``redis.Redis`` per connection pool
    (clients are thread-safe: each command borrows a connection from the pool)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is unreachable."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    get = _degrades_to(_default)(RedisCache.get)
    set = _degrades_to(_nothing)(RedisCache.set)
    add = _degrades_to(_false)(RedisCache.add)
    touch = _degrades_to(_false)(RedisCache.touch)
    delete = _degrades_to(_false)(RedisCache.delete)
    has_key = _degrades_to(_false)(RedisCache.has_key)
    get_many = _degrades_to(_empty)(RedisCache.get_many)
    set_many = _degrades_to(_all_failed)(RedisCache.set_many)
    delete_many = _degrades_to(_nothing)(RedisCache.delete_many)

    @_degrades_to(_none_added)
    def add_each(self, keys: list[str], value: Any, timeout: float) -> list[bool]:
        """``add(key, value, timeout)`` for each key, in one pipelined round trip: whether
        each was added (stored as ``add`` stores it)."""
        made = [self.make_and_validate_key(key) for key in keys]
        stored = self._cache._serializer.dumps(value)
        pipe = self._cache.get_client(made[0], write=True).pipeline(transaction=False)
        for key in made:
            pipe.set(key, stored, nx=True, ex=int(timeout))
        return [bool(added) for added in pipe.execute()]
