"""REST endpoints of the league of clubs: leagues, divisions (with their table and the
fixture list), the teams clubs enter, and match days (date and venue, opening the tables
at the home venue, confirming, accepting or sending back the result).

Reads: everything of a public league for everyone; a private league for its organisers.
Writes, each checked here and refused with 403 (or 404 when the caller cannot see the
league): a league's organisers change the league, its divisions and match days and
accept results or send them back; a club's organisers enter and change their club's
teams; the home club's organisers open a match day's tables and may confirm its result
for both teams; each team's captain confirms for the team. The match day's tables are an
ordinary round of the home club: device codes come from
``POST /api/tables/{id}/device-credential/`` and deals from
``POST /api/matches/{id}/deals/{n}/``.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from klammern_site.parsers import ParsedBody
from tournaments.events.filters import FilterSet, IntegerFilter
from tournaments.events.permissions import NotADevice
from tournaments.leagues import season as league_season
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues import services as leagues
from tournaments.leagues.models import (
    Division,
    League,
    LeagueTeam,
    MatchDay,
    MatchDayConfirmation,
    MatchDayPostponement,
)
from tournaments.leagues.serializers import (
    AnswerSerializer,
    ConfirmMatchDaySerializer,
    DecideSerializer,
    DivisionSerializer,
    DivisionUpdateSerializer,
    FixturesRequestSerializer,
    ForfeitSerializer,
    LeagueSerializer,
    LeagueTeamSerializer,
    LeagueTeamUpdateSerializer,
    LeagueUpdateSerializer,
    MatchDayDetailSerializer,
    MatchDaySerializer,
    MatchDayUpdateSerializer,
    NextSeasonSerializer,
    OpenMatchDaySerializer,
    PostponementSerializer,
    RankingRowSerializer,
    SendBackMatchDaySerializer,
    TableRowSerializer,
)

LEAGUE_ORGANISERS_ONLY = "Only an organiser of this league may do this."
CLUB_ORGANISERS_ONLY = "Only an organiser of the team's club may do this."


def require_league_organiser(user: Any, league_id: int) -> None:
    if not league_selectors.organises_league(user, league_id):
        raise PermissionDenied(LEAGUE_ORGANISERS_ONLY)


def require_club_organiser(user: Any, club_id: int) -> None:
    if not league_selectors.organises_club_id(user, club_id):
        raise PermissionDenied(CLUB_ORGANISERS_ONLY)


class ReadWriteViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    permission_classes = [NotADevice, IsAuthenticatedOrReadOnly]  # anonymous writes: 401

    def visible(self) -> QuerySet[League]:
        return league_selectors.visible_leagues(self.request.user)

    def require_visible(self, league_id: int) -> None:
        """404 for a league the caller may not see: a private league's existence does not
        show through a 403."""
        if not self.visible().filter(pk=league_id).exists():
            raise NotFound(_("No such league."))

    def authenticated(self) -> None:
        if not self.request.user.is_authenticated:
            raise PermissionDenied(_("Log in first."))


# --- leagues ----------------------------------------------------------------------------


class LeagueViewSet(ReadWriteViewSet):
    """Leagues of clubs. Any club's organiser may create one and becomes its organiser."""

    serializer_class = LeagueSerializer
    filterset_fields = ["slug"]

    def get_queryset(self) -> QuerySet[League]:
        return self.visible().prefetch_related("organisers").order_by("-created", "pk")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not league_selectors.organises_any_club(request.user):
            raise PermissionDenied(_("Only a club's organiser may create a league."))
        data = LeagueSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = leagues.create_league(organiser=request.user, **data.validated_data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LeagueUpdateSerializer, responses=LeagueSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = self.get_object()
        require_league_organiser(request.user, league.pk)
        data = LeagueUpdateSerializer(league, data=request.data, partial=kwargs.get("partial"))
        data.is_valid(raise_exception=True)
        league = leagues.update_league(league=league, changes=dict(data.validated_data))
        return Response(LeagueSerializer(league).data)

    @extend_schema(responses=RankingRowSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def ranking(self, request: Request, pk: str) -> Response:
        """The player ranking (Einzelwertung): each player's Partien, won, Augen and
        Augen difference over the season's final match days."""
        return Response(league_selectors.player_ranking(self.get_object()))

    @extend_schema(request=None, responses=MatchDaySerializer(many=True))
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def settle(self, request: Request, pk: str) -> Response:
        """After the season's last date: each match day not played is forfeited by the
        team that asked for its postponement, or counts as not played (the league's
        organisers)."""
        league = self.get_object()
        require_league_organiser(request.user, league.pk)
        days = league_season.settle_season(league=league, user=request.user)
        return Response(MatchDaySerializer(days, many=True).data)

    @extend_schema(request=NextSeasonSerializer, responses={201: LeagueSerializer})
    @action(detail=True, methods=["post"], url_path="next-season")
    def next_season(self, request: Request, pk: str) -> Response:
        """Create the next season from the final tables: promotion and relegation, the
        teams carried over with their rosters to confirm (the league's organisers)."""
        league = self.get_object()
        require_league_organiser(request.user, league.pk)
        data = NextSeasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        new = league_season.next_season(league=league, user=request.user, **data.validated_data)
        return Response(LeagueSerializer(new).data, status=status.HTTP_201_CREATED)


# --- divisions --------------------------------------------------------------------------


class DivisionViewSet(ReadWriteViewSet):
    """A league's divisions, each with its teams, fixture list and table."""

    serializer_class = DivisionSerializer
    filterset_fields = ["league"]

    def get_queryset(self) -> QuerySet[Division]:
        return Division.objects.filter(league__in=self.visible()).order_by("league", "order", "pk")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = DivisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = data.validated_data.pop("league")
        self.require_visible(league.pk)
        require_league_organiser(request.user, league.pk)
        division = leagues.create_division(league=league, **data.validated_data)
        return Response(DivisionSerializer(division).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DivisionUpdateSerializer, responses=DivisionSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        division = self.get_object()
        require_league_organiser(request.user, division.league_id)
        data = DivisionUpdateSerializer(division, data=request.data, partial=kwargs.get("partial"))
        data.is_valid(raise_exception=True)
        division = leagues.update_division(division=division, changes=dict(data.validated_data))
        return Response(DivisionSerializer(division).data)

    @extend_schema(responses=TableRowSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def table(self, request: Request, pk: str) -> Response:
        """The division's table from the final results (RULES.md: 2/1/0 points, then
        Partien difference, Augen difference, the points among the tied teams)."""
        return Response(league_selectors.division_table(self.get_object()))

    @extend_schema(
        methods=["POST"],
        request=FixturesRequestSerializer,
        responses={201: MatchDaySerializer(many=True)},
    )
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(detail=True, methods=["post", "delete"], pagination_class=None, filter_backends=[])
    def fixtures(self, request: Request, pk: str) -> Response:
        """Make the fixture list: a double round robin, each match day at the home club
        (``remake: true`` replaces one of which no match day has been played); DELETE
        withdraws it while no match day has been played, so teams may change again
        (409 ``fixtures_played`` once one has)."""
        division = self.get_object()
        require_league_organiser(request.user, division.league_id)
        if request.method == "DELETE":
            leagues.remove_fixtures(division=division)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = FixturesRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        leagues.make_fixtures(division=division, **data.validated_data)
        days = league_selectors.match_days(division)
        return Response(MatchDaySerializer(days, many=True).data, status=status.HTTP_201_CREATED)


# --- teams ------------------------------------------------------------------------------


class LeagueTeamFilter(FilterSet):
    league = IntegerFilter(field_name="division__league_id")

    class Meta:
        model = LeagueTeam
        fields = ["division", "club", "league"]


class LeagueTeamViewSet(mixins.DestroyModelMixin, ReadWriteViewSet):
    """Teams entered by clubs: a club's organisers enter and change their own, and take
    one back (as may the league's organisers) while its division has no fixture list."""

    serializer_class = LeagueTeamSerializer
    filterset_class = LeagueTeamFilter

    def get_queryset(self) -> QuerySet[LeagueTeam]:
        teams = LeagueTeam.objects.filter(division__league__in=self.visible())
        return teams.select_related("club").prefetch_related("roster").order_by("division", "name")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = LeagueTeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        club, division = fields.pop("club"), fields.pop("division")
        self.require_visible(division.league_id)
        require_club_organiser(request.user, club.pk)
        team = leagues.enter_team(division=division, club_id=club.pk, **fields)
        return Response(LeagueTeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LeagueTeamUpdateSerializer, responses=LeagueTeamSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        team = self.get_object()
        require_club_organiser(request.user, team.club_id)
        data = LeagueTeamUpdateSerializer(team, data=request.data, partial=kwargs.get("partial"))
        data.is_valid(raise_exception=True)
        team = leagues.update_team(team=team, changes=dict(data.validated_data))
        return Response(LeagueTeamSerializer(team).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Remove a team entered by mistake (409 ``fixtures_made`` once its division has a
        fixture list: withdraw the list first)."""
        team = self.get_object()
        if not league_selectors.organises_league(request.user, team.division.league_id):
            require_club_organiser(request.user, team.club_id)
        leagues.remove_team(team=team)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=LeagueTeamSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str) -> Response:
        """The team withdraws during the season (the league's organisers): less than half
        its match days played, its results are struck; otherwise the rest are forfeits."""
        team = self.get_object()
        require_league_organiser(request.user, team.division.league_id)
        team = league_season.withdraw_team(team=team, user=request.user)
        return Response(LeagueTeamSerializer(team).data)

    @extend_schema(request=None, responses=LeagueTeamSerializer)
    @action(detail=True, methods=["post"], url_path="confirm-roster")
    def confirm_roster(self, request: Request, pk: str) -> Response:
        """Confirm the roster of a team carried over into a new season (its club)."""
        team = self.get_object()
        require_club_organiser(request.user, team.club_id)
        return Response(LeagueTeamSerializer(league_season.confirm_roster(team=team)).data)


# --- match days -------------------------------------------------------------------------


class MatchDayFilter(FilterSet):
    league = IntegerFilter(field_name="division__league_id")
    team = IntegerFilter(method="filter_team")
    status = django_filters.ChoiceFilter(choices=MatchDay.Status.choices)

    class Meta:
        model = MatchDay
        fields = ["division", "league", "round", "status", "team"]

    def filter_team(self, queryset: QuerySet[MatchDay], name: str, value: int) -> Any:
        return queryset.filter(home_id=value) | queryset.filter(away_id=value)


class MatchDayViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """The fixture list. The home club's organisers open a match day's tables; the
    captains (or the venue) confirm its result; the league's organisers accept it."""

    permission_classes = [NotADevice, IsAuthenticatedOrReadOnly]  # anonymous writes: 401
    serializer_class = MatchDaySerializer
    filterset_class = MatchDayFilter

    def get_queryset(self) -> QuerySet[MatchDay]:
        visible = league_selectors.visible_leagues(self.request.user)
        return (
            MatchDay.objects.filter(division__league__in=visible)
            .select_related("division__league", "home__club", "away__club")
            .prefetch_related("confirmations")
            .order_by("division", *league_selectors.IN_DATE_ORDER)
        )

    def get_serializer_class(self) -> Any:
        return MatchDaySerializer if self.action == "list" else MatchDayDetailSerializer

    def respond(self, day: MatchDay) -> Response:
        day = self.get_queryset().get(pk=day.pk)
        return Response(MatchDayDetailSerializer(day).data)

    @extend_schema(request=MatchDayUpdateSerializer, responses=MatchDayDetailSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Move the match day: date and time, venue (the league's organisers)."""
        day = self.get_object()
        require_league_organiser(request.user, day.division.league_id)
        data = MatchDayUpdateSerializer(day, data=request.data, partial=kwargs.get("partial"))
        data.is_valid(raise_exception=True)
        return self.respond(leagues.update_match_day(match_day=day, changes=data.validated_data))

    @extend_schema(request=OpenMatchDaySerializer, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"], url_path="open")
    def open_tables(self, request: Request, pk: str) -> Response:
        """Open the first sitting's two tables at the home venue with each team's two
        pairs (player ids from the rosters); then issue each table's device code."""
        day = self.get_object()
        require_club_organiser(request.user, day.home.club_id)
        data = OpenMatchDaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self.respond(leagues.open_match_day(match_day=day, **data.validated_data))

    @extend_schema(request=None, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"], url_path="second-sitting")
    def second_sitting(self, request: Request, pk: str) -> Response:
        """Close the first sitting (both Partien finished) and seat the second: each home
        pair meets the other away pair (the home club's organisers); then issue the new
        tables' device codes."""
        day = self.get_object()
        require_club_organiser(request.user, day.home.club_id)
        return self.respond(leagues.start_second_sitting(match_day=day))

    @extend_schema(request=ConfirmMatchDaySerializer, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        """Confirm the result the tables show: ``home``/``away`` by that team's captain,
        ``venue`` by an organiser of the home club (for both teams)."""
        day = self.get_object()
        data = ConfirmMatchDaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        side = data.validated_data["side"]
        if side == MatchDayConfirmation.Side.VENUE:
            require_club_organiser(request.user, day.home.club_id)
        elif not league_selectors.captains(request.user, day.home if side == "home" else day.away):
            raise PermissionDenied(_("Only the team's captain may confirm for the team."))
        return self.respond(leagues.confirm_match_day(match_day=day, side=side, user=request.user))

    @extend_schema(request=None, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str) -> Response:
        """Make the confirmed result final (the league's organisers)."""
        day = self.get_object()
        require_league_organiser(request.user, day.division.league_id)
        return self.respond(leagues.accept_match_day(match_day=day, user=request.user))

    @extend_schema(request=SendBackMatchDaySerializer, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"], url_path="send-back")
    def send_back(self, request: Request, pk: str) -> Response:
        """Refuse the confirmed result with a reason (the league's organisers): the
        confirmations are dropped and the match day is open again, so the home club
        corrects its deals and the captains confirm anew."""
        day = self.get_object()
        require_league_organiser(request.user, day.division.league_id)
        data = SendBackMatchDaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self.respond(
            leagues.send_back_match_day(match_day=day, reason=data.validated_data["reason"])
        )

    @extend_schema(request=ForfeitSerializer, responses=MatchDayDetailSerializer)
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str) -> Response:
        """Record that a team did not appear (nicht angetreten), with a reason (the
        league's organisers): each Partie counts the Liga target to 0 Augen for the other
        team, and the result is final."""
        day = self.get_object()
        require_league_organiser(request.user, day.division.league_id)
        data = ForfeitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self.respond(
            league_season.record_forfeit(match_day=day, user=request.user, **data.validated_data)
        )


# --- postponements ----------------------------------------------------------------------


class PostponementViewSet(
    ParsedBody,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Postponements: a team's captain or club asks for another date, the other team's
    captain or club consents or refuses, the league's organisers grant or decline."""

    permission_classes = [NotADevice, IsAuthenticatedOrReadOnly]
    serializer_class = PostponementSerializer
    filterset_fields = ["match_day", "status"]

    def get_queryset(self) -> QuerySet[MatchDayPostponement]:
        visible = league_selectors.visible_leagues(self.request.user)
        return (
            MatchDayPostponement.objects.filter(match_day__division__league__in=visible)
            .select_related("match_day__home", "match_day__away", "match_day__division")
            .order_by("-created", "pk")
        )

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = PostponementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        day, team = data.validated_data["match_day"], data.validated_data["asked_by"]
        if (
            not league_selectors.visible_leagues(request.user)
            .filter(pk=day.division.league_id)
            .exists()
        ):
            raise NotFound(_("No such league."))
        if not league_selectors.acts_for_team(request.user, team):
            raise PermissionDenied(_("Only the team's captain or its club may ask for it."))
        postponement = league_season.ask_postponement(
            match_day=day,
            team=team,
            starts_at=data.validated_data["starts_at"],
            reason=data.validated_data["reason"],
        )
        return Response(PostponementSerializer(postponement).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=AnswerSerializer, responses=PostponementSerializer)
    @action(detail=True, methods=["post"])
    def answer(self, request: Request, pk: str) -> Response:
        """The other team's captain or club consents or refuses."""
        postponement = self.get_object()
        if not league_selectors.acts_for_team(request.user, league_season.other_team(postponement)):
            raise PermissionDenied(_("Only the other team's captain or its club may answer."))
        data = AnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        postponement = league_season.answer_postponement(
            postponement=postponement, consent=data.validated_data["consent"]
        )
        return Response(PostponementSerializer(postponement).data)

    @extend_schema(request=DecideSerializer, responses=PostponementSerializer)
    @action(detail=True, methods=["post"])
    def decide(self, request: Request, pk: str) -> Response:
        """The league's organisers grant (the match day moves) or decline."""
        postponement = self.get_object()
        require_league_organiser(request.user, postponement.match_day.division.league_id)
        data = DecideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        postponement = league_season.decide_postponement(
            postponement=postponement, grant=data.validated_data["grant"]
        )
        return Response(PostponementSerializer(postponement).data)
