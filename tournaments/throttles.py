"""Rate limits that count table devices one by one: tablets in a venue share one public
IP address, so a device is keyed by its credential, not by its address."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle

from .permissions import device_of


class AnonymousThrottle(AnonRateThrottle):
    """Anonymous visitors by IP; devices are limited by ``DeviceAwareScopedThrottle``."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if device_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class DeviceAwareScopedThrottle(ScopedRateThrottle):
    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = device_of(request)
        if device is None:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device.pk}"}
