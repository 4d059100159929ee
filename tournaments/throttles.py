"""Rate limits on DRF's own throttles, with table devices counted one by one.

Tablets in a venue share one public IP address, so a device is keyed by its credential,
never by its address. Anonymous visitors are counted by address (``anon``, DRF's
``get_ident``: the socket's address, or the one the declared proxies name), signed-in
users by user id (``user``), table devices by credential (``device``), and every caller
of a view with a ``throttle_scope`` (e.g. ``deals``) by the same identity within that
scope. The counts live in the default cache; while Redis is down the cache answers as an
empty one (django-redis ``IGNORE_EXCEPTIONS``) and requests go through.
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

from .permissions import device_of


class AnonymousThrottle(AnonRateThrottle):
    """Anonymous visitors by address; devices are limited by ``DeviceThrottle``."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class UserThrottle(SimpleRateThrottle):
    """Signed-in users by user id (DRF's own would count devices by address)."""

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
