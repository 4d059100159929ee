"""REST endpoints for clubs, players, tournaments, registrations, rounds, tables, matches
and the table device. Each command is an ``@action`` that calls one service function;
reads are scoped by ``permissions.visible_tournaments`` and organiser checks."""

from __future__ import annotations

import json
from typing import Any

import qrcode
import qrcode.image.svg
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs.models import Club, Player
from tournaments.clubs.permissions import (
    IsOrganiser,
    organised_club_ids,
    organises_club,
    require_organiser,
)
from tournaments.deals import visibility
from tournaments.deals.selectors import running_score
from tournaments.draw import services as draw
from tournaments.events import selectors, services
from tournaments.events.filters import (
    MatchFilter,
    PlayerFilter,
    RegistrationFilter,
    RoundFilter,
    TournamentFilter,
)
from tournaments.events.models import Match, Registration, Round, Table, Tournament
from tournaments.events.permissions import NotADevice, device_of, visible_tournaments
from tournaments.events.serializers import (
    CloseRoundSerializer,
    ClubSerializer,
    ConfirmMatchSerializer,
    DeviceCodeSerializer,
    DrawRoundSerializer,
    LeaderboardsSerializer,
    MatchSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
    RoundSerializer,
    StandingsSerializer,
    TableProgressSerializer,
    TableSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)
from tournaments.results import snapshots


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
        return Response(round_body(round_.pk), status=status.HTTP_202_ACCEPTED)

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

    @extend_schema(request=None, responses={202: RoundSerializer})
    @action(detail=True, methods=["post"])
    def redraw(self, request: Request, pk: str) -> Response:
        """Throw away the draft's seating and draw again (next attempt): 202, as a draw."""
        round_ = self.get_object()
        require_organiser(request.user, round_.tournament.club_id)
        draw.request_redraw(round_=round_)
        return Response(round_body(round_.pk), status=status.HTTP_202_ACCEPTED)

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
