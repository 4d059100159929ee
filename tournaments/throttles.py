"""Rate limits that count table devices one by one: tablets in a venue share one public
IP address, so a device is keyed by its credential, never by its address.

Who is counted by what: anonymous visitors by IP (``anon``), signed-in users by user id
(``user``), table devices by credential (``device``), and every caller of a view with a
``throttle_scope`` (e.g. ``deals``) by the same identity within that scope. The counts
live in the cache; when Redis is down the cache answers empty and requests go through
(see ``klammern_site.cache``).

The counting is a fixed window (``FixedWindow``): one counter per identity, scope and
window of the rate's duration, bumped with a single INCR (and its expiry) in one Redis
round trip. DRF's own sliding window reads and rewrites the whole list of request times
on every request (two round trips and a pickled list of up to the rate's length); the
fixed window lets a client send at most twice its rate across a window boundary.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from klammern_site.cache import UNREACHABLE

from .permissions import device_of

logger = logging.getLogger(__name__)


def count_hit(key: str, seconds: int) -> int:
    """Add one to ``key``'s counter, which lives ``seconds``; the new count. 0 while the
    cache is unreachable: the request goes through, as with an empty cache."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        try:
            full_key = cache.make_and_validate_key(key)
            client = cache._cache.get_client(full_key, write=True)
            pipe = client.pipeline(transaction=False)
            pipe.incr(full_key)
            pipe.expire(full_key, seconds, nx=True)
            count, _ = pipe.execute()
            return int(count)
        except UNREACHABLE as exc:
            logger.warning("cache unreachable in throttle: %s", exc)
            return 0
    if cache.add(key, 1, seconds):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, seconds)
        return 1


class FixedWindow(SimpleRateThrottle):
    """Counts requests per fixed window of the rate's duration (see the module)."""

    window_end: float

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        count = count_hit(f"{self.key}:w{window}", self.duration + 1)
        return count <= self.num_requests

    def wait(self) -> float | None:
        return max(1, math.ceil(self.window_end - self.now))


class AnonymousThrottle(FixedWindow, AnonRateThrottle):
    """Anonymous visitors by IP; devices are limited by ``DeviceThrottle``."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class UserThrottle(FixedWindow):
    """Signed-in users by user id (DRF's own would count devices by IP)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class DeviceThrottle(FixedWindow):
    """Table devices by credential."""

    scope = "device"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": device.pk}


class DeviceAwareScopedThrottle(ScopedRateThrottle, FixedWindow):
    """A view's ``throttle_scope``, with devices counted by credential."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
