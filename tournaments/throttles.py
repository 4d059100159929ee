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
fixed window lets a client send at most twice its rate across a window boundary. Views
with ``CountsInOneRoundTrip`` (the deal endpoints) bump all their throttles' counters in
one round trip together.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from klammern_site.cache import UNREACHABLE

from .permissions import device_of

logger = logging.getLogger(__name__)


def count_hits(counters: Sequence[tuple[str, int]]) -> list[int]:
    """Add one to each ``(key, seconds)`` counter, which lives ``seconds``; the new counts,
    all in one Redis round trip. 0 while the cache is unreachable: the request goes
    through, as with an empty cache."""
    cache = caches["default"]
    if not counters:
        return []
    if not isinstance(cache, RedisCache):
        return [_count_in(cache, key, seconds) for key, seconds in counters]
    try:
        keys = [cache.make_and_validate_key(key) for key, _ in counters]
        pipe = cache._cache.get_client(keys[0], write=True).pipeline(transaction=False)
        for full_key, (_, seconds) in zip(keys, counters, strict=True):
            pipe.incr(full_key)
            pipe.expire(full_key, seconds, nx=True)
        return [int(count) for count in pipe.execute()[::2]]
    except UNREACHABLE as exc:
        logger.warning("cache unreachable in throttle: %s", exc)
        return [0] * len(counters)


def count_hit(key: str, seconds: int) -> int:
    return count_hits([(key, seconds)])[0]


def _count_in(cache: Any, key: str, seconds: int) -> int:
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

    def window(self, request: Request, view: Any) -> str | None:
        """The counter of the request's window (``now`` and ``window_end`` set), or None
        when this throttle does not count the request."""
        if self.rate is None:
            return None
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return None
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        return f"{self.key}:w{window}"

    def allow_request(self, request: Request, view: Any) -> bool:
        counter = self.window(request, view)
        return counter is None or count_hit(counter, self.duration + 1) <= self.num_requests

    def wait(self) -> float:
        return max(1, math.ceil(self.window_end - self.now))


def throttle_waits(throttles: Sequence[FixedWindow], request: Any, view: Any) -> list[float]:
    """What DRF's ``check_throttles`` collects (the waits of the throttles refusing the
    request), with every throttle's counter bumped in one Redis round trip."""
    counted = [(t, counter) for t in throttles if (counter := t.window(request, view))]
    counts = count_hits([(counter, t.duration + 1) for t, counter in counted])
    return [
        t.wait() for (t, _), count in zip(counted, counts, strict=True) if count > t.num_requests
    ]


class CountsInOneRoundTrip:
    """A DRF view mixin: its throttles (all ``FixedWindow``) are counted in one Redis
    round trip instead of one per throttle; the decision and the answer are DRF's."""

    def check_throttles(self, request: Request) -> None:
        throttles = self.get_throttles()  # type: ignore[attr-defined]
        if not all(isinstance(t, FixedWindow) for t in throttles):
            super().check_throttles(request)  # type: ignore[misc]
        elif waits := throttle_waits(throttles, request, self):
            self.throttled(request, max(waits))  # type: ignore[attr-defined]


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

    allow_request = FixedWindow.allow_request  # the scope is found by ``window``

    def window(self, request: Request, view: Any) -> str | None:
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return None
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().window(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
