"""Fixed pairs and finals through the API (organisers of the tournament's club write;
table devices are refused):

- ``GET|POST /api/tournaments/{id}/pairs/``: the pairs; form one of two registered players
- ``POST /api/tournaments/{id}/pairs/draw/``: pair the checked-in players (random or cards)
- ``PATCH|DELETE /api/pairs/{id}/``: rename; dissolve (before it is seated)
- ``POST /api/tournaments/{id}/finals/`` ``{"size": 4}``: draw the first finals round
- ``POST /api/tournaments/{id}/finals/next/``: the next finals round
- ``GET /api/tournaments/{id}/bracket/``: the bracket (public as the tournament is)
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs.permissions import organised_club_ids, organises_club, require_organiser
from tournaments.events import api
from tournaments.events.models import Team, Tournament
from tournaments.events.permissions import NotADevice, visible_tournaments
from tournaments.events.serializers import RoundSerializer
from tournaments.pairs import finals
from tournaments.pairs import services as pairs
from tournaments.pairs.serializers import (
    BracketSerializer,
    FinalsStartSerializer,
    PairCreateSerializer,
    PairDrawResultSerializer,
    PairDrawSerializer,
    PairRenameSerializer,
    PairSerializer,
)

WRITERS = [NotADevice, permissions.IsAuthenticatedOrReadOnly]


def _tournament(request: Request, pk: int, *, organiser: bool) -> Tournament:
    """A tournament the caller may see (404 otherwise); ``organiser``: and organises
    (403 otherwise)."""
    tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
    if organiser:
        require_organiser(request.user, tournament.club_id)
    return tournament


def _pairs(tournament: Tournament) -> QuerySet[Team]:
    return pairs.pairs_of(tournament)


class TournamentPairsView(ParsedBody, APIView):
    permission_classes = WRITERS

    @extend_schema(
        operation_id="tournaments_pairs_list", responses=PairSerializer(many=True), tags=["pairs"]
    )
    def get(self, request: Request, pk: int) -> Response:
        """The tournament's pairs and their players (as public as the tournament)."""
        tournament = _tournament(request, pk, organiser=False)
        return Response(PairSerializer(_pairs(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_pairs_create",
        request=PairCreateSerializer,
        responses={201: PairSerializer},
        tags=["pairs"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Form a pair of two registered players not in a pair yet; ``name`` defaults to
        "A / B"."""
        tournament = _tournament(request, pk, organiser=True)
        data = PairCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = pairs.create_pair(tournament=tournament, **data.validated_data)
        return Response(PairSerializer(team).data, status=status.HTTP_201_CREATED)


class TournamentPairDrawView(ParsedBody, APIView):
    permission_classes = WRITERS

    @extend_schema(
        operation_id="tournaments_pairs_draw",
        request=PairDrawSerializer,
        responses={201: PairDrawResultSerializer},
        tags=["pairs"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Pair every checked-in player without a pair: ``random`` or ``cards`` (each
        draws a card, the highest plays with the lowest; ``cards`` says who drew what)."""
        tournament = _tournament(request, pk, organiser=True)
        data = PairDrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seed = data.validated_data.get("seed")
        teams, drawn = pairs.draw_pairs(
            tournament=tournament, method=data.validated_data["method"], seed=seed
        )
        body = {
            "seed": seed,
            "method": data.validated_data["method"],
            "pairs": PairSerializer(
                _pairs(tournament).filter(pk__in=[t.pk for t in teams]), many=True
            ).data,
            "left_over": drawn.left_over,
            "cards": {str(player): card for player, card in drawn.cards.items()},
        }
        return Response(body, status=status.HTTP_201_CREATED)


class PairDetailView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    def _pair(self, request: Request, pk: int) -> Team:
        clubs = organised_club_ids(request.user)
        return get_object_or_404(Team.objects.filter(tournament__club__in=clubs), pk=pk)

    @extend_schema(
        operation_id="pairs_rename",
        request=PairRenameSerializer,
        responses=PairSerializer,
        tags=["pairs"],
    )
    def patch(self, request: Request, pk: int) -> Response:
        data = PairRenameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = pairs.rename_pair(team=self._pair(request, pk), name=data.validated_data["name"])
        return Response(PairSerializer(team).data)

    @extend_schema(
        operation_id="pairs_dissolve", request=None, responses={204: None}, tags=["pairs"]
    )
    def delete(self, request: Request, pk: int) -> Response:
        """Part a pair that has not been seated yet (409 once it has)."""
        pairs.dissolve_pair(team=self._pair(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FinalsView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_finals_start",
        request=FinalsStartSerializer,
        responses={201: RoundSerializer},
        tags=["finals"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """Seed the best 4 (or 8) pairs of the standings and draw the semi-finals (or
        quarter-finals) as a draft round; publish and close it as any round."""
        tournament = _tournament(request, pk, organiser=True)
        data = FinalsStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = finals.start_finals(tournament=tournament, size=data.validated_data["size"])
        return Response(api.round_body(round_.pk), status=status.HTTP_201_CREATED)


class FinalsNextView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_finals_next",
        request=None,
        responses={201: RoundSerializer},
        tags=["finals"],
    )
    def post(self, request: Request, pk: int) -> Response:
        """After a closed finals round: the semi-finals, or the final and the match for
        third place (409 while a round is open or after the final)."""
        tournament = _tournament(request, pk, organiser=True)
        round_ = finals.advance_finals(tournament=tournament)
        return Response(api.round_body(round_.pk), status=status.HTTP_201_CREATED)


class BracketView(ParsedBody, APIView):
    permission_classes = [NotADevice]

    @extend_schema(operation_id="tournaments_bracket", responses=BracketSerializer, tags=["finals"])
    def get(self, request: Request, pk: int) -> Response:
        """The finals bracket: stages, matches with seeds and score, winners of closed
        rounds, placings after the final. Draft rounds for organisers only."""
        tournament = _tournament(request, pk, organiser=False)
        drafts = organises_club(request.user, tournament.club_id)
        return Response(finals.bracket(tournament, include_drafts=drafts))
