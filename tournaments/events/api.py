"""REST endpoints for clubs (read), players, tournaments, registrations, rounds and tables.
Each command is an ``@action`` that calls one service function; reads are scoped by
``permissions.visible_tournaments`` and organiser checks. The packages above extend these
views with what is theirs: the standings (``results/api.py``), the draw
(``draw/api.py``), the matches and the device's table (``deals/api_matches.py``), a
club's creation and its organisers' invitations (``access/onboarding.py``); the routes
register the extended views."""

from __future__ import annotations

from typing import Any

import qrcode
import qrcode.image.svg
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from klammern_site.parsers import ParsedBody
from tournaments.clubs.models import Club, Player
from tournaments.clubs.permissions import (
    IsOrganiser,
    organised_club_ids,
    require_organiser,
)
from tournaments.events import selectors, services
from tournaments.events.filters import (
    PlayerFilter,
    RegistrationFilter,
    RoundFilter,
    TournamentFilter,
)
from tournaments.events.models import Registration, Round, Table, Tournament
from tournaments.events.permissions import NotADevice, visible_tournaments
from tournaments.events.serializers import (
    CloseRoundSerializer,
    ClubSerializer,
    DeviceCodeSerializer,
    LeaderboardsSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
    RoundSerializer,
    TableProgressSerializer,
    TableSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)


class ClubViewSet(ParsedBody, viewsets.ReadOnlyModelViewSet):
    """Clubs, public."""

    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    filterset_fields = ["slug"]

    @extend_schema(responses=LeaderboardsSerializer)
    @action(detail=True, methods=["get"])
    def leaderboards(self, request: Request, pk: str) -> Response:
        """The club's stored all-time table, KlammernBoss (with the title's history) and
        league tables per season; ``up_to_date`` as for standings."""
        club = Club.objects.select_related("snapshot").get(pk=self.get_object().pk)
        return Response(selectors.club_leaderboards(club))


def round_body(round_id: int) -> dict[str, Any]:
    """The round as it stands now (after an eager draw task: seated)."""
    related = ["tables__seats__player", "byes__player", "tables__match"]
    return RoundSerializer(Round.objects.prefetch_related(*related).get(pk=round_id)).data


class PlayerViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Players of the clubs the caller organises (members and guests)."""

    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    def get_queryset(self) -> QuerySet[Player]:
        if getattr(self, "swagger_fake_view", False):
            return Player.objects.none()
        clubs = organised_club_ids(self.request.user)
        return Player.objects.filter(clubs__in=clubs).distinct().order_by("name", "id")

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = PlayerCreateSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        club = data.validated_data.pop("club")
        require_organiser(request.user, club.pk)
        player = services.create_player(club=club, **data.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        data = PlayerSerializer(player, data=request.data, partial=kwargs.get("partial", False))
        data.is_valid(raise_exception=True)
        player = services.update_player(player=player, changes=dict(data.validated_data))
        return Response(PlayerSerializer(player).data)


class TournamentViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Public tournaments for everyone; organisers also see and run their own."""

    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    permission_classes = [NotADevice, IsOrganiser]

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).select_related("club").order_by("-created")

    def club_id_of(self, obj: Tournament) -> int:
        return obj.club_id

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = TournamentSerializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        club = fields.pop("club")
        require_organiser(request.user, club.pk)
        tournament = services.create_tournament(club=club, **fields)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentUpdateSerializer, responses=TournamentSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        data = TournamentUpdateSerializer(
            tournament,
            data=request.data,
            partial=kwargs.get("partial", False),
            context=self.get_serializer_context(),
        )
        data.is_valid(raise_exception=True)
        tournament = services.update_tournament(
            tournament=tournament, changes=dict(data.validated_data)
        )
        return Response(TournamentSerializer(tournament).data)

    def _command(self, service: Any) -> Response:
        tournament = self.get_object()
        require_organiser(self.request.user, tournament.club_id)
        return Response(TournamentSerializer(service(tournament=tournament)).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        """Start the tournament; its rules preset and options are fixed from now on."""
        return self._command(services.start_tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str) -> Response:
        return self._command(services.finish_tournament)


class RegistrationViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Registrations of the caller's clubs' tournaments (organisers only)."""

    serializer_class = RegistrationSerializer
    filterset_class = RegistrationFilter
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    def get_queryset(self) -> QuerySet[Registration]:
        if getattr(self, "swagger_fake_view", False):
            return Registration.objects.none()
        clubs = organised_club_ids(self.request.user)
        return Registration.objects.filter(tournament__club__in=clubs).select_related("player")

    @extend_schema(request=RegistrationCreateSerializer, responses={201: RegistrationSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = RegistrationCreateSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        data.is_valid(raise_exception=True)
        tournament = data.validated_data["tournament"]
        require_organiser(request.user, tournament.club_id)
        registration = services.register_player(**data.validated_data)
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        registration = services.check_in_registration(registration=self.get_object())
        return Response(RegistrationSerializer(registration).data)

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        registration = services.withdraw_registration(registration=self.get_object())
        return Response(RegistrationSerializer(registration).data)


class RoundViewSet(ParsedBody, viewsets.ReadOnlyModelViewSet):
    """Rounds with their seating. Drafts are visible to the organisers only."""

    serializer_class = RoundSerializer
    filterset_class = RoundFilter
    permission_classes = [NotADevice, IsOrganiser]

    def get_queryset(self) -> QuerySet[Round]:
        user = self.request.user
        rounds = Round.objects.filter(tournament__in=visible_tournaments(user))
        drafts_of = organised_club_ids(user) if user.is_authenticated else []
        hidden = [Round.Status.DRAFT, Round.Status.DRAWING]
        rounds = rounds.exclude(status__in=hidden) | rounds.filter(tournament__club__in=drafts_of)
        related = ["tables__seats__player", "byes__player", "tables__match"]
        return rounds.distinct().prefetch_related(*related).order_by("tournament", "number")

    def club_id_of(self, obj: Round) -> int:
        return obj.tournament.club_id

    def _command(self, service: Any, **kwargs: Any) -> Response:
        round_ = self.get_object()
        require_organiser(self.request.user, round_.tournament.club_id)
        service(round_=round_, **kwargs)
        return Response(round_body(round_.pk))  # prefetched: no query per table and seat

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        return self._command(services.publish_round)

    @extend_schema(request=CloseRoundSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        """Close the round; unfinished tables block it unless ``force`` is true."""
        data = CloseRoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._command(services.close_round, force=data.validated_data["force"])

    @extend_schema(
        responses=TableProgressSerializer(many=True), extensions={"x-permissions": ["organiser"]}
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def progress(self, request: Request, pk: str) -> Response:
        """Every table's progress (organisers only)."""
        round_ = self.get_object()
        require_organiser(request.user, round_.tournament.club_id)
        return Response(selectors.round_progress(round_))


def qr_svg(url: str) -> str:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")


class TableViewSet(ParsedBody, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tables of the caller's clubs; device codes are issued and revoked here."""

    serializer_class = TableSerializer
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    def get_queryset(self) -> QuerySet[Table]:
        if getattr(self, "swagger_fake_view", False):
            return Table.objects.none()
        clubs = organised_club_ids(self.request.user)
        return Table.objects.filter(round__tournament__club__in=clubs).select_related("round")

    @extend_schema(request=None, responses={201: DeviceCodeSerializer})
    @action(detail=True, methods=["post"], url_path="device-credential")
    def device_credential(self, request: Request, pk: str) -> Response:
        """Issue a new device code for this table (earlier codes stop working). The code
        is shown once; it expires with the round."""
        table = self.get_object()
        credential, code = services.issue_device_code(table=table)
        url = request.build_absolute_uri(f"/t/{code}/")
        body = {
            "code": code,
            "url": url,
            "qr_svg": qr_svg(url),
            "table": table.number,
            "expires_at": credential.expires_at,
        }
        return Response(DeviceCodeSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, pk: str) -> Response:
        """Revoke every device code of this table."""
        services.revoke_device_credentials(table=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
