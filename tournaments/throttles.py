"""Rate limits that count table devices one by one: tablets in a venue share one public
IP address, so a device is keyed by its credential, never by its address.

Who is counted by what: anonymous visitors by IP (``anon``), signed-in users by user id
(``user``), table devices by credential (``device``), and every caller of a view with a
``throttle_scope`` (e.g. ``deals``) by the same identity within that scope. The counts
live in the cache; when Redis is down the cache answers empty and requests go through
(see ``klammern_site.cache``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from .permissions import device_of


class AnonymousThrottle(AnonRateThrottle):
    """Anonymous visitors by IP; devices are limited by ``DeviceThrottle``."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class UserThrottle(SimpleRateThrottle):
    """Signed-in users by user id (DRF's own would count devices by IP)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class DeviceThrottle(SimpleRateThrottle):
    """Table devices by credential."""

    scope = "device"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": device.pk}


class DeviceAwareScopedThrottle(ScopedRateThrottle):
    """A view's ``throttle_scope``, with devices counted by credential."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
