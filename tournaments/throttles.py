"""Rate limits on DRF's own throttles, with table devices counted one by one.

Tablets in a venue share one public IP address, so a device is keyed by its credential,
never by its address. Anonymous visitors are counted by address (``anon``, DRF's
``get_ident``: the socket's address, or the one the declared proxies name), signed-in
users by user id (``user``), table devices by credential (``device``), and every caller
of a view with a ``throttle_scope`` (e.g. ``deals``) by the same identity within that
scope. The counts live in the default cache, one counter per identity and fixed window,
raised with the cache's atomic ``incr`` by django-ratelimit (DRF's own throttles read a
history list and write it back, so concurrent requests overwrite each other's entries and
slip past the rate). While Redis is down the cache answers as an empty one (django-redis
``IGNORE_EXCEPTIONS``) and requests go through.
"""

from __future__ import annotations

from typing import Any

from django_ratelimit.core import get_usage
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from .permissions import device_of


class CountingThrottle(SimpleRateThrottle):
    """DRF's rate throttle, counted by django-ratelimit in fixed windows of the rate's
    duration: at most ``num_requests`` per window, however many requests arrive at once."""

    time_left: int

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        usage = get_usage(
            request,
            group=f"throttle:{self.scope}",
            key=lambda group, request: self.key,
            rate=self.rate,
            increment=True,
        )
        if usage is None:  # the cache is unreachable: let the request through
            return True
        self.time_left = usage["time_left"]
        return not usage["should_limit"]

    def wait(self) -> float:
        return float(max(1, self.time_left))


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

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
