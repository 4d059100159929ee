"""The draw through the API: ``POST /api/tournaments/{id}/rounds/`` requests the next
round's draw (on top of the tournament API with its standings, ``results/api.py``),
``POST /api/rounds/{id}/redraw/`` draws a draft again (on top of the rounds' API)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.clubs.permissions import require_organiser
from tournaments.draw import services as draw
from tournaments.events import api as events_api
from tournaments.events.serializers import DrawRoundSerializer, RoundSerializer
from tournaments.results import api


class TournamentViewSet(api.TournamentViewSet):
    """The tournament API with its standings and the draw of its rounds: the one the
    routes register."""

    @extend_schema(request=DrawRoundSerializer, responses={202: RoundSerializer})
    @action(detail=True, methods=["post"], url_path="rounds")
    def draw_round(self, request: Request, pk: str) -> Response:
        """Request the next round's draw from the checked-in players: 202 with the round
        in status ``drawing``; poll ``GET /api/rounds/{id}/`` until it is ``draft``."""
        tournament = self.get_object()
        require_organiser(request.user, tournament.club_id)
        data = DrawRoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = draw.request_round_draw(
            tournament=tournament, seed=data.validated_data.get("seed")
        )
        return Response(events_api.round_body(round_.pk), status=status.HTTP_202_ACCEPTED)


class RoundViewSet(events_api.RoundViewSet):
    """The rounds' API with a draft's redraw: the one the routes register."""

    @extend_schema(request=None, responses={202: RoundSerializer})
    @action(detail=True, methods=["post"])
    def redraw(self, request: Request, pk: str) -> Response:
        """Throw away the draft's seating and draw again (next attempt): 202, as a draw."""
        round_ = self.get_object()
        require_organiser(request.user, round_.tournament.club_id)
        draw.request_redraw(round_=round_)
        return Response(events_api.round_body(round_.pk), status=status.HTTP_202_ACCEPTED)
