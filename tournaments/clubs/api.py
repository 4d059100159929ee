"""Onboarding and seasons through the API.

- ``POST /api/auth/signup/``: a new account (anonymous), answered with an API token
- ``POST /api/clubs/``: a new club; the caller organises it
- ``PUT|PATCH /api/clubs/{id}/``: its organisers change its name, city, KlammernBoss window
- ``POST /api/clubs/{id}/invitations/``: a single-use link that makes another user an organiser
- ``POST /api/invitations/accept/``: accept one (logged in)
- ``GET|POST /api/seasons/``, ``GET|PATCH /api/seasons/{id}/``, ``GET /api/seasons/{id}/table/``

Table devices are refused everywhere (``NotADevice``, the default).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs import services as clubs
from tournaments.clubs.models import Club, Season
from tournaments.common.permissions import NotADevice, require_organiser
from tournaments.events import api
from tournaments.pairs.serializers import (
    ClubCreateSerializer,
    ClubDetailSerializer,
    ClubUpdateSerializer,
    InvitationAcceptSerializer,
    InvitationSerializer,
    SeasonSerializer,
    SeasonTableSerializer,
    SeasonUpdateSerializer,
    SignedUpSerializer,
    SignUpSerializer,
)
from tournaments.results import seasons


class SignUpView(ParsedBody, APIView):
    permission_classes = [NotADevice]
    throttle_scope = "signup"  # accounts per address (THROTTLE_SIGNUP)

    @extend_schema(
        operation_id="auth_signup",
        request=SignUpSerializer,
        responses={201: SignedUpSerializer, 409: OpenApiTypes.OBJECT},
        tags=["auth"],
        extensions={"x-permissions": ["anonymous"]},
    )
    def post(self, request: Request) -> Response:
        """Create an account (username, email, password, Django's password rules) and
        answer with its API token. A username that differs from a taken one only in case
        or in its Unicode form (full-width letters) is taken (409); a word mixing
        look-alike alphabets or an invisible character is refused (400). At most
        ``THROTTLE_SIGNUP`` sign-ups per address (429)."""
        data = SignUpSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = clubs.sign_up(**data.validated_data)
        _token, key = clubs.issue_api_token(user=user)
        body = {"id": user.pk, "username": user.username, "token": key}
        return Response(body, status=status.HTTP_201_CREATED)


class ClubViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, api.ClubViewSet):
    """Clubs, public; a logged-in user creates a club and organises it; its organisers
    change its name, city and KlammernBoss window."""

    @extend_schema(request=ClubCreateSerializer, responses={201: ClubDetailSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = ClubCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = clubs.create_club(user=request.user, **data.validated_data)
        return Response(ClubDetailSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ClubUpdateSerializer, responses=ClubDetailSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self.get_object()
        require_organiser(request.user, club.pk)
        data = ClubUpdateSerializer(club, data=request.data, partial=kwargs.get("partial", False))
        data.is_valid(raise_exception=True)
        club = clubs.update_club(club=club, changes=dict(data.validated_data))
        return Response(ClubDetailSerializer(club).data)

    @extend_schema(request=ClubUpdateSerializer(partial=True), responses=ClubDetailSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(request=None, responses={201: InvitationSerializer})
    @action(detail=True, methods=["post"])
    def invitations(self, request: Request, pk: str) -> Response:
        """A single-use link (7 days) that makes whoever accepts it an organiser of the
        club. The token is shown once."""
        club = self.get_object()
        require_organiser(request.user, club.pk)
        invitation, token = clubs.invite_organiser(club=club, invited_by=request.user)
        url = request.build_absolute_uri(reverse("console-invitation", args=[token]))
        body = {"club": club.pk, "token": token, "url": url, "expires_at": invitation.expires_at}
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationAcceptView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    @extend_schema(
        operation_id="invitations_accept",
        request=InvitationAcceptSerializer,
        responses={200: ClubDetailSerializer, 404: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        tags=["invitations"],
    )
    def post(self, request: Request) -> Response:
        """Become an organiser of the invitation's club (404 unknown, 409 used or
        expired)."""
        data = InvitationAcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = clubs.accept_invitation(token=data.validated_data["token"], user=request.user)
        return Response(ClubDetailSerializer(club).data)


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
