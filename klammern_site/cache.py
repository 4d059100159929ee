"""A Redis cache that degrades instead of failing when Redis is unreachable.

The cache holds only what can be rebuilt: throttle histories, rendered pages, the
"recompute already queued" flags. Losing Redis must not stop a table from entering a
deal, so every operation here logs the error and answers as an empty cache would
(reads miss, writes are dropped, ``add`` reports "not added"). It does not retry and
does not hide errors of any other kind.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
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


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis is unreachable."""

    get = _degrades_to(_default)(RedisCache.get)
    set = _degrades_to(_nothing)(RedisCache.set)
    add = _degrades_to(_false)(RedisCache.add)
    touch = _degrades_to(_false)(RedisCache.touch)
    delete = _degrades_to(_false)(RedisCache.delete)
    has_key = _degrades_to(_false)(RedisCache.has_key)
    get_many = _degrades_to(_empty)(RedisCache.get_many)
    set_many = _degrades_to(_all_failed)(RedisCache.set_many)
    delete_many = _degrades_to(_nothing)(RedisCache.delete_many)
