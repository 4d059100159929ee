"""The results through the API: the seasons of club evenings and their tables
(``GET|POST /api/seasons/``, ``GET|PATCH /api/seasons/{id}/``,
``GET /api/seasons/{id}/table/``), and a tournament's standings
(``GET /api/tournaments/{id}/standings/``, on top of the tournament API of
``tournaments/events/api.py``)."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from klammern_site.parsers import ParsedBody
from tournaments.clubs import services as clubs
from tournaments.clubs.models import Club, Season
from tournaments.clubs.permissions import organises_club, require_organiser
from tournaments.clubs.serializers import (
    SeasonSerializer,
    SeasonTableSerializer,
    SeasonUpdateSerializer,
)
from tournaments.events import api, selectors
from tournaments.events.models import Tournament
from tournaments.events.serializers import StandingsSerializer
from tournaments.results import seasons, snapshots


class SeasonViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Seasons of club evenings, public; organisers create and change their club's."""

    serializer_class = SeasonSerializer
    filterset_fields = ["club"]

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.select_related("club").order_by("club", "-starts_on")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = SeasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        club: Club = fields.pop("club")
        require_organiser(request.user, club.pk)
        season = clubs.create_season(club=club, **fields)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SeasonUpdateSerializer, responses=SeasonSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.get_object()
        require_organiser(request.user, season.club_id)
        data = SeasonUpdateSerializer(
            season, data=request.data, partial=kwargs.get("partial", False)
        )
        data.is_valid(raise_exception=True)
        season = clubs.update_season(season=season, changes=dict(data.validated_data))
        return Response(SeasonSerializer(season).data)

    @extend_schema(responses=SeasonTableSerializer)
    @action(detail=True, methods=["get"])
    def table(self, request: Request, pk: str) -> Response:
        """The season table: the sum of each player's best N evenings' tournament points
        among players with at least M evenings (finished evenings, and those imported from
        the club's spreadsheet into the season)."""
        return Response(seasons.season_table(self.get_object()))


def fresh_standings(tournament: Tournament) -> dict[str, Any]:
    fresh = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    stored = selectors.standings_state(tournament)
    fresh = json.loads(json.dumps(fresh))  # as the snapshot's JSON column would hold it
    return {
        **stored,
        "data": fresh,
        "fresh": True,
        "snapshot_version": stored["computed_version"],
        "equals_snapshot": stored["data"] == fresh,
    }


STANDINGS_MAX_AGE = 5  # seconds an anonymous reader's browser or proxy may reuse them


def _standings_of(request: Request, pk: str) -> snapshots.StoredStandings:
    """The standings' state of a tournament the caller may see (404 otherwise), read once
    per request: the ETag and the body both need it."""
    if not hasattr(request, "stored_standings"):
        state = snapshots.stored_standings(int(pk)) if pk.isdigit() else None
        if state is None or not (state.is_public or organises_club(request.user, state.club)):
            raise Http404  # as for the tournament itself: what one may not see is not there
        request.stored_standings = state  # type: ignore[attr-defined]
    return request.stored_standings  # type: ignore[attr-defined,no-any-return]


def standings_etag(request: Request, pk: str) -> str:
    """Names the stored standings answer: results and snapshot versions, the tournament's
    status and the language of its ``detail``."""
    return f'"standings-{_standings_of(request, pk).tag}-{get_language()}"'


def standings_response(request: Request, pk: str) -> HttpResponse:
    """The stored standings: the snapshot's body stored per version
    (``snapshots.standings_body``) in its envelope of versions and ``detail``, never
    serialised again per read; a conditional GET with a matching ETag is 304 (Django's
    ``condition`` around the action)."""
    state = _standings_of(request, pk)
    envelope = {
        "tournament": state.tournament,
        "results_version": state.results_version,
        "computed_version": state.computed_version,
        "up_to_date": state.up_to_date,
        "computed_at": state.computed_at,
        "detail": selectors.standings_detail(
            computed=state.computed_version is not None, up_to_date=state.up_to_date
        ),
    }
    head = snapshots.as_json(envelope)
    body = f'{head[:-1]},"data":{snapshots.standings_body(state)}}}'
    return HttpResponse(body.encode(), content_type="application/json")


def standings_caching(request: Request, response: HttpResponseBase) -> HttpResponseBase:
    """A short public lifetime for anonymous readers; the answer varies with the
    language (``detail``) and, as every API answer, with ``Accept``."""
    patch_vary_headers(response, ["Accept"])
    if not request.user.is_authenticated:
        patch_cache_control(response, max_age=STANDINGS_MAX_AGE)
    return response


class TournamentViewSet(api.TournamentViewSet):
    """The tournament API (``events/api.py``) with the tournament's standings."""

    @extend_schema(
        responses={200: StandingsSerializer, 304: None},
        parameters=[
            OpenApiParameter("fresh", bool, description="Organisers: recompute now."),
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The `ETag` of standings already held: 304 without a body "
                "while they are unchanged.",
            ),
        ],
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str) -> Response:
        """The stored standings; ``up_to_date`` says whether they include every result
        entered so far. ``?fresh=1`` (organisers only): a full recompute, not stored,
        with ``equals_snapshot``."""
        fresh = request.query_params.get("fresh")
        if fresh not in (None, "0", "false", "1", "true"):
            raise ValidationError({"fresh": [_("Must be true or false (1 or 0).")]})
        if fresh in ("1", "true"):
            tournament = self.get_object()
            require_organiser(request.user, tournament.club_id)
            return Response(fresh_standings(tournament))
        return standings_caching(request, self.stored_standings(request, pk))

    @method_decorator(condition(etag_func=standings_etag))
    def stored_standings(self, request: Request, pk: str) -> HttpResponseBase:
        return standings_response(request, pk)
