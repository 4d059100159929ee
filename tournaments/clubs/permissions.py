"""Who may act on a club: its organisers (users in ``Club.organisers``; superusers count as
organisers everywhere). The devices' and the tournaments' side is
``tournaments/events/permissions.py``, a league match day's ``leagues/permissions.py``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.clubs.models import Club

ORGANISER_ONLY = "Only an organiser of this club may do this."


def organises_club(user: Any, club_id: int) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or user.organised_clubs.filter(pk=club_id).exists()


def require_organiser(user: Any, club_id: int) -> None:
    """Refuse (403) unless ``user`` organises the club."""
    if not organises_club(user, club_id):
        raise PermissionDenied(ORGANISER_ONLY)


def organised_club_ids(user: Any) -> QuerySet[Club]:
    """The ids of the clubs ``user`` organises (all clubs for a superuser)."""
    if getattr(user, "is_superuser", False):
        return Club.objects.values_list("pk", flat=True)
    return Club.objects.filter(organisers=user).values_list("pk", flat=True)


class IsOrganiser(BasePermission):
    """Writes need an organiser; ``club_id_of(obj)`` on the view names the object's club."""

    message = ORGANISER_ONLY

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS") and not getattr(
            view, "read_needs_organiser", False
        ):
            return True
        return organises_club(request.user, view.club_id_of(obj))
