"""Seating constraints for organisers: a player's fixed table and pairs of players who
must not meet. Both take effect from the next draw (see ``services.fix_player_table``).

- ``POST /api/registrations/{id}/fixed-table/`` ``{"table": 2}`` or ``{"table": null}``
- ``GET|POST /api/tournaments/{id}/forbidden-pairings/``
- ``DELETE /api/forbidden-pairings/{id}/``

Organisers of the tournament's club only; table devices are refused (``NotADevice``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs.permissions import organised_club_ids, require_organiser
from tournaments.events import services
from tournaments.events.models import ForbiddenPairing, Registration, Tournament
from tournaments.events.permissions import NotADevice, visible_tournaments
from tournaments.events.serializers import (
    FixedTableSerializer,
    ForbiddenPairingCreateSerializer,
    ForbiddenPairingSerializer,
    RegistrationSerializer,
)

PERMISSIONS = [NotADevice, permissions.IsAuthenticated]


def _organised_tournament(request: Request, pk: int) -> Tournament:
    """A tournament the caller may see (404 otherwise) and organises (403 otherwise)."""
    tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
    require_organiser(request.user, tournament.club_id)
    return tournament


class RegistrationFixedTableView(ParsedBody, APIView):
    permission_classes = PERMISSIONS

    @extend_schema(
        operation_id="registrations_fixed_table",
        request=FixedTableSerializer,
        responses=RegistrationSerializer,
        tags=["registrations"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Fix the player to a table (1-based) for the draws from now on, or clear it
        with ``null``. A table the field does not fill in a round is ignored then; at
        most four players can be fixed to one table. Individual tournaments only."""
        registration = get_object_or_404(
            Registration.objects.filter(tournament__club__in=organised_club_ids(request.user)),
            pk=pk,
        )
        data = FixedTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration = services.fix_player_table(
            registration=registration, table_number=data.validated_data["table"]
        )
        return Response(RegistrationSerializer(registration).data)


class TournamentForbiddenPairingsView(ParsedBody, APIView):
    permission_classes = PERMISSIONS

    @extend_schema(
        operation_id="tournaments_forbidden_pairings_list",
        responses=ForbiddenPairingSerializer(many=True),
        tags=["tournaments"],
    )
    def get(self, request: Request, pk: int) -> Response:
        """The tournament's forbidden pairings: these players never share a table."""
        tournament = _organised_tournament(request, pk)
        pairings = tournament.forbidden_pairings.select_related("player_a", "player_b")
        return Response(ForbiddenPairingSerializer(pairings.order_by("id"), many=True).data)

    @extend_schema(
        operation_id="tournaments_forbidden_pairings_create",
        request=ForbiddenPairingCreateSerializer,
        responses={201: ForbiddenPairingSerializer},
        tags=["tournaments"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Keep two registered players apart from the next draw on (409 if they are
        already). Stored with the lower player id as ``player_a``."""
        tournament = _organised_tournament(request, pk)
        data = ForbiddenPairingCreateSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        pairing = services.forbid_pairing(tournament=tournament, **data.validated_data)
        return Response(ForbiddenPairingSerializer(pairing).data, status=status.HTTP_201_CREATED)


class ForbiddenPairingDetailView(ParsedBody, APIView):
    permission_classes = PERMISSIONS

    @extend_schema(
        operation_id="forbidden_pairings_destroy",
        request=None,
        responses={204: None},
        tags=["forbidden-pairings"],
    )
    def delete(self, request: Request, pk: int) -> Response:
        """Allow the two players to meet again from the next draw on."""
        pairing = get_object_or_404(
            ForbiddenPairing.objects.filter(tournament__club__in=organised_club_ids(request.user)),
            pk=pk,
        )
        services.allow_pairing(pairing=pairing)
        return Response(status=status.HTTP_204_NO_CONTENT)
