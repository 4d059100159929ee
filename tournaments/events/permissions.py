"""Who is asking, as far as the tournaments are concerned: ``request.auth`` is a
``DeviceCredential`` for a table device (``tournaments/access/authentication.py``), which
may use only the device endpoints; every caller reads the public tournaments, organisers
also their clubs' (``tournaments/clubs/permissions.py``)."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.events.models import DeviceCredential, Tournament


def device_of(request: Request) -> DeviceCredential | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, DeviceCredential) else None


def visible_tournaments(user: Any) -> Any:
    """Public tournaments, plus every tournament of the clubs the user organises."""
    public = Tournament.objects.public()
    if not getattr(user, "is_authenticated", False):
        return public
    return (public | Tournament.objects.organised_by(user)).distinct()


class NotADevice(BasePermission):
    """Table devices may use only the device endpoints."""

    message = "A table device may only read its own table and enter its deals."

    def has_permission(self, request: Request, view: Any) -> bool:
        return device_of(request) is None
