"""The matches through the API: each table's match with its deals' current results
(``/api/matches/``, a match's confirmation by its table or an organiser) and the table
device's own table (``GET /api/device/``) with its running score. Beside the deal
endpoints (``api.py``): a match is listed only while its deals may be seen
(``visibility.unsealed``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs.permissions import IsOrganiser, organised_club_ids, require_organiser
from tournaments.deals import visibility
from tournaments.deals.selectors import running_score
from tournaments.events import services
from tournaments.events.filters import MatchFilter
from tournaments.events.models import Match, Round
from tournaments.events.permissions import NotADevice, device_of, visible_tournaments
from tournaments.events.serializers import ConfirmMatchSerializer, MatchSerializer


class DeviceOrOrganiser(permissions.BasePermission):
    message = "Only this table's device or an organiser may confirm its results."

    def has_permission(self, request: Request, view: Any) -> bool:
        return device_of(request) is not None or bool(request.user.is_authenticated)


class MatchViewSet(ParsedBody, viewsets.ReadOnlyModelViewSet):
    """Results: each table's match with its deals' current results."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    permission_classes = [NotADevice, IsOrganiser]

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.action == "confirm":
            return [DeviceOrOrganiser()]
        return super().get_permissions()

    def get_queryset(self) -> QuerySet[Match]:
        user = self.request.user
        matches = Match.objects.filter(round__tournament__in=visible_tournaments(user))
        if self.action == "confirm":  # the action itself checks device or organiser
            return Match.objects.select_related("round__tournament")
        mine = organised_club_ids(user) if user.is_authenticated else []
        shown = matches.exclude(round__status=Round.Status.DRAFT).filter(
            visibility.unsealed("round__")
        )
        matches = shown | matches.filter(round__tournament__club__in=mine)
        return (
            matches.distinct()
            .select_related("round", "table")
            .prefetch_related("table__seats__player", "confirmations")
            .order_by("round__tournament", "round__number", "table__number")
        )

    def club_id_of(self, obj: Match) -> int:
        return obj.round.tournament.club_id

    @extend_schema(request=ConfirmMatchSerializer, responses=MatchSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        """A team confirms the table's results (this table's device or an organiser)."""
        match = self.get_object()
        device = device_of(request)
        if device is not None and device.table_id != match.table_id:
            raise PermissionDenied(_("This device belongs to another table."))
        if device is None:
            require_organiser(request.user, match.round.tournament.club_id)
        data = ConfirmMatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.confirm_match(
            match=match,
            team=data.validated_data["team"],
            device=device,
            user=request.user if device is None else None,
        )
        return Response(MatchSerializer(match).data)


class IsDevice(permissions.BasePermission):
    message = "This endpoint is for table devices: send 'Authorization: Device <code>'."

    def has_permission(self, request: Request, view: Any) -> bool:
        return device_of(request) is not None


class DeviceTableView(ParsedBody, APIView):
    """The device's own table: round, seats, match and deals so far."""

    permission_classes = [IsDevice]
    throttle_scope = "device"

    @extend_schema(responses=MatchSerializer)
    def get(self, request: Request) -> Response:
        device = device_of(request)
        match = Match.objects.select_related("round__tournament", "table").get(
            table_id=device.table_id  # type: ignore[union-attr]
        )
        body = MatchSerializer(match).data
        body["round_status"] = match.round.status
        body["tournament_name"] = match.round.tournament.name
        body["expires_at"] = device.expires_at  # type: ignore[union-attr]
        body["running_score"] = running_score(match)
        return Response(body)
