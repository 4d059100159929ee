"""Rate limits on DRF's own throttles, with table devices counted one by one.

Tablets in a venue share one public IP address, so a device is keyed by its credential,
never by its address. Anonymous visitors are counted by address (``anon``, DRF's
``get_ident``: the socket's address, or the one the declared proxies name), signed-in
users by user id (``user``), table devices by credential (``device``), and every caller
of a view with a ``throttle_scope`` (e.g. ``deals``) by the same identity within that
scope.

The counts live in the default cache: one counter per identity and fixed window of the
rate's duration (staggered per identity, as django-ratelimit's are), raised atomically
(DRF's own throttles read a history list and write it back, so concurrent requests
overwrite each other's entries and slip past the rate). On Redis (django-redis) every
counter a request raises goes in one pipelined round trip (``CountedTogether`` asks all
of a view's throttles at once); while Redis is down the counters answer 0 and requests
go through, as the cache does (``IGNORE_EXCEPTIONS``).
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django_redis import get_redis_connection
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from tournaments.events.permissions import device_of

logger = logging.getLogger(__name__)


def count_hits(counters: Sequence[tuple[str, int]]) -> list[int]:
    """Add one to each ``(key, seconds)`` counter of the default cache, created to live
    ``seconds``; the new counts. One round trip on Redis; 0 for each while the cache
    cannot count (the request goes through)."""
    if not counters:
        return []
    try:
        client = get_redis_connection("default")
    except NotImplementedError:  # another cache backend (local memory in development)
        return [_count_in_cache(key, seconds) for key, seconds in counters]
    pipe = client.pipeline(transaction=False)
    for key, seconds in counters:
        full_key = cache.make_key(key)
        pipe.set(full_key, 0, ex=seconds, nx=True)
        pipe.incr(full_key)
    try:
        replies = pipe.execute()
    except RedisError as exc:
        logger.warning("cache unreachable in throttle: %s", exc)
        return [0] * len(counters)
    return [int(count) for count in replies[1::2]]


def _count_in_cache(key: str, seconds: int) -> int:
    cache.add(key, 0, seconds)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, seconds)
        return 1


class CountingThrottle(SimpleRateThrottle):
    """DRF's rate throttle, counted in fixed windows of the rate's duration: at most
    ``num_requests`` per window, however many requests arrive at once."""

    window_end: float

    def counter(self, request: Request, view: Any) -> tuple[str, int] | None:
        """The counter of the request's window and how long it lives (``now`` and
        ``window_end`` set), or None when this throttle does not count the request."""
        if self.rate is None:
            return None
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return None
        self.now = self.timer()
        offset = zlib.crc32(self.key.encode()) % self.duration
        window = int(self.now - offset) // self.duration
        self.window_end = (window + 1) * self.duration + offset
        return f"{self.key}:w{window}", self.duration + 1

    def allow_request(self, request: Request, view: Any) -> bool:
        return not throttle_waits([self], request, view)

    def wait(self) -> float:
        return float(max(1, round(self.window_end - self.now)))


def throttle_waits(
    throttles: Sequence[SimpleRateThrottle], request: Request, view: Any
) -> list[float]:
    """What DRF's ``check_throttles`` collects, the waits of the throttles refusing the
    request, with the counters of all ``CountingThrottle`` counted in one round trip."""
    counting = [t for t in throttles if isinstance(t, CountingThrottle)]
    others = [t for t in throttles if not isinstance(t, CountingThrottle)]
    waits = [t.wait() for t in others if not t.allow_request(request, view)]
    counted = [(t, counter) for t in counting if (counter := t.counter(request, view))]
    counts = count_hits([counter for _, counter in counted])
    waits += [
        t.wait() for (t, _), count in zip(counted, counts, strict=True) if count > t.num_requests
    ]
    return [wait for wait in waits if wait is not None]


class CountedTogether:
    """A DRF view mixin: all its throttles' counters raised in one round trip instead of
    one (or two) per throttle; the decision and the answer are DRF's ``throttled``."""

    def check_throttles(self, request: Request) -> None:
        throttles = self.get_throttles()  # type: ignore[attr-defined]
        if waits := throttle_waits(throttles, request, self):
            self.throttled(request, max(waits))  # type: ignore[attr-defined]


class AnonymousThrottle(AnonRateThrottle, CountingThrottle):
    """Anonymous visitors by address; devices are limited by ``DeviceThrottle``."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class UserThrottle(CountingThrottle):
    """Signed-in users by user id (DRF's own would count devices by address)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class DeviceThrottle(CountingThrottle):
    """Table devices by credential."""

    scope = "device"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": device.pk}


class DeviceAwareScopedThrottle(ScopedRateThrottle, CountingThrottle):
    """A view's ``throttle_scope``, with devices counted by credential."""

    allow_request = CountingThrottle.allow_request  # the scope is found by ``counter``

    def counter(self, request: Request, view: Any) -> tuple[str, int] | None:
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return None
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().counter(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
