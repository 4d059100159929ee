"""REST endpoints of the ratings: a club's rating list and a player's rating history.

Reads only, for everyone (table devices excepted), as the club leaderboards are: a club's
rating list is public. A player's history is served when the player's page is public
(a public tournament) or the caller organises one of the player's clubs; a round of a
tournament the caller may not see shows without its tournament. The ratings are written
by ``rating_services`` when rounds close.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import profiles
from klammern_site.parsers import ParsedBody
from klammern_site.serializers import Serializer
from tournaments.clubs.models import Club, Player
from tournaments.clubs.permissions import organises_club
from tournaments.clubs.player_names import name_for
from tournaments.common.errors import Refused
from tournaments.events.permissions import NotADevice, visible_tournaments
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import RatingList


class RatingRowSerializer(Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField(help_text="Shown rating: mu - 3 sigma, one decimal.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class ClubRatingsSerializer(Serializer):
    club = serializers.IntegerField()
    pool = serializers.CharField(help_text="The rating pool: the games whose tables count.")
    model = serializers.CharField()
    rounds = serializers.IntegerField(help_text="Closed rounds counted.")
    updated_at = serializers.DateTimeField(allow_null=True)
    rows = RatingRowSerializer(many=True)


class RatingStepSerializer(Serializer):
    sequence = serializers.IntegerField(help_text="The round's place in the club's closing order.")
    closed_at = serializers.DateTimeField(allow_null=True)
    tournament = serializers.IntegerField(allow_null=True, help_text="None if not visible.")
    tournament_name = serializers.CharField(allow_blank=True)
    round = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class ClubRatingHistorySerializer(Serializer):
    club = serializers.IntegerField()
    club_name = serializers.CharField()
    club_slug = serializers.CharField()
    pool = serializers.CharField(help_text="The rating pool of this history.")
    pool_label = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    history = RatingStepSerializer(many=True)


class PlayerRatingHistorySerializer(Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    clubs = ClubRatingHistorySerializer(many=True)


MODEL = "openskill Plackett-Luce (mu 25, sigma 25/3, beta 25/6, tau 25/300)"


def club_ratings_body(club: Club, pool: str = profiles.DEFAULT_RATING_POOL) -> dict[str, Any]:
    ledger = RatingList.objects.filter(club=club).first()
    return {
        "club": club.pk,
        "pool": pool,
        "model": MODEL,
        "rounds": rating_services.pool_view(club, pool)["pool_rounds"],
        "updated_at": ledger.updated_at if ledger else None,
        "rows": rating_services.club_rating_rows(club, pool),
    }


def requested_pool(request: Request) -> str:
    """The ``pool`` query parameter (the default game's pool when absent); an unknown
    pool is refused with ``unknown_rating_pool``."""
    pool = request.query_params.get("pool") or profiles.DEFAULT_RATING_POOL
    if pool not in profiles.rating_pools():
        raise Refused(
            "unknown_rating_pool",
            _("There is no rating pool %(pool)s; the pools are: %(known)s."),
            params={"pool": pool, "known": ", ".join(profiles.rating_pools())},
        )
    return pool


class ClubRatingsView(ParsedBody, APIView):
    """``GET /api/clubs/{id}/ratings/?pool=``: the club's rating list of a pool (each
    game's profile names the pool its tables count in), best first."""

    permission_classes = [NotADevice, AllowAny]

    @extend_schema(
        responses=ClubRatingsSerializer,
        operation_id="clubs_ratings",
        parameters=[
            OpenApiParameter(
                "pool", str, description="The rating pool (default: the Klammern pool)."
            )
        ],
    )
    def get(self, request: Request, pk: int) -> Response:
        club = get_object_or_404(Club, pk=pk)
        body = club_ratings_body(club, requested_pool(request))
        return Response(ClubRatingsSerializer(body).data)


def may_see_player(user: Any, player: Player) -> bool:
    if rating_services.player_is_public(player):
        return True
    return any(organises_club(user, club) for club in player.clubs.values_list("pk", flat=True))


def player_history_body(user: Any, player: Player) -> dict[str, Any]:
    visible = (
        visible_tournaments(user).filter(rounds__seats__player=player).values_list("pk", flat=True)
    )
    return {
        "player": player.pk,
        "name": name_for(user, player),
        "clubs": rating_services.player_rating_history(player, visible_tournaments=visible),
    }


class PlayerRatingHistoryView(ParsedBody, APIView):
    """``GET /api/players/{id}/rating-history/``: the player's rating at each club and
    after each round played there, in closing order (for a chart)."""

    permission_classes = [NotADevice, AllowAny]

    @extend_schema(responses=PlayerRatingHistorySerializer, operation_id="players_rating_history")
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        if not may_see_player(request.user, player):
            raise NotFound()
        body = player_history_body(request.user, player)
        return Response(PlayerRatingHistorySerializer(body).data)
