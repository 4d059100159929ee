"""Who may do what: organisers act on their own clubs, devices on their own table.

``request.auth`` is a ``DeviceCredential`` for table devices (see ``authentication.py``);
organisers are users in ``Club.organisers`` (superusers count as organisers everywhere).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.clubs.models import Club
from tournaments.events.models import DeviceCredential, Tournament
from tournaments.leagues.models import MatchDay

ORGANISER_ONLY = "Only an organiser of this club may do this."


def device_of(request: Request) -> DeviceCredential | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, DeviceCredential) else None


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


def visible_tournaments(user: Any) -> Any:
    """Public tournaments, plus every tournament of the clubs the user organises."""
    public = Tournament.objects.public()
    if not getattr(user, "is_authenticated", False):
        return public
    return (public | Tournament.objects.organised_by(user)).distinct()


def reads_league_match_day(user: Any, tournament_id: int) -> bool:
    """Whether ``user`` may read the deals of the (hidden) tournament of a league match
    day without organising its club: a captain of either team, who confirms its result,
    and the league's organisers, who accept it (the home club's organisers organise the
    tournament anyway)."""
    if not getattr(user, "is_authenticated", False):
        return False
    sides = Q(home__captain=user) | Q(away__captain=user) | Q(division__league__organisers=user)
    return MatchDay.objects.filter(sides, tournament_id=tournament_id).exists()


class NotADevice(BasePermission):
    """Table devices may use only the device endpoints."""

    message = "A table device may only read its own table and enter its deals."

    def has_permission(self, request: Request, view: Any) -> bool:
        return device_of(request) is None


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
