"""Input and output serializers of the league of clubs' API (``league_api``). They
validate and shape data; writes happen in ``tournaments/leagues/services.py``."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from klammern_site.serializers import ModelSerializer, Serializer
from tournaments.clubs.models import Player
from tournaments.clubs.player_names import PlayerNameField
from tournaments.common.validators import validate_name, validate_slug
from tournaments.leagues import selectors as league_selectors
from tournaments.leagues.models import (
    Division,
    League,
    LeagueTeam,
    MatchDay,
    MatchDayConfirmation,
    MatchDayPostponement,
)


class LeagueSerializer(ModelSerializer):
    organisers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "slug",
            "season",
            "organisers",
            "is_public",
            "rules_preset",
            "rules_options",
            "liga_target",
            "last_day",
            "previous",
            "created",
        ]
        read_only_fields = ["id", "organisers", "previous", "created"]


class LeagueUpdateSerializer(LeagueSerializer):
    class Meta(LeagueSerializer.Meta):
        read_only_fields = ["id", "slug", "organisers", "previous", "created"]


class DivisionSerializer(ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "league", "name", "order", "promoted", "relegated"]
        read_only_fields = ["id"]


class DivisionUpdateSerializer(DivisionSerializer):
    class Meta(DivisionSerializer.Meta):
        read_only_fields = ["id", "league"]


class FixturesRequestSerializer(Serializer):
    first_day = serializers.DateTimeField(required=False, allow_null=True)
    days_between = serializers.IntegerField(min_value=1, max_value=365, default=14)
    remake = serializers.BooleanField(
        default=False,
        help_text="Replace the fixture list (only while no match day of it has been played)",
    )


class TableRowSerializer(Serializer):
    rank = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    points = serializers.IntegerField()
    partien_won = serializers.IntegerField()
    partien_lost = serializers.IntegerField()
    partien_difference = serializers.IntegerField()
    augen_for = serializers.IntegerField()
    augen_against = serializers.IntegerField()
    augen_difference = serializers.IntegerField()
    head_to_head = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    struck = serializers.BooleanField(help_text="Withdrawn early: its results are struck")


class RankingRowSerializer(Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.CharField()
    club = serializers.CharField()
    partien = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    augen_for = serializers.IntegerField()
    augen_against = serializers.IntegerField()
    augen_difference = serializers.IntegerField()


class LeagueTeamSerializer(ModelSerializer):
    club_name = serializers.CharField(source="club.name", read_only=True)
    captain = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        allow_null=True,
        required=False,
    )
    roster = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, required=False
    )
    roster_names = serializers.ListField(
        child=PlayerNameField(), source="roster.all", read_only=True
    )

    class Meta:
        model = LeagueTeam
        fields = [
            "id",
            "division",
            "club",
            "club_name",
            "name",
            "captain",
            "roster",
            "roster_names",
            "roster_confirmed",
            "withdrawn_at",
            "results_struck",
            "created",
        ]
        read_only_fields = [
            "id",
            "roster_confirmed",
            "withdrawn_at",
            "results_struck",
            "created",
        ]


class LeagueTeamUpdateSerializer(LeagueTeamSerializer):
    class Meta(LeagueTeamSerializer.Meta):
        read_only_fields = [
            "id",
            "division",
            "club",
            "roster_confirmed",
            "withdrawn_at",
            "results_struck",
            "created",
        ]


class SideSerializer(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()


def _side(team: LeagueTeam) -> dict[str, Any]:
    return {"id": team.pk, "name": team.name, "club": team.club.name}


class MatchDaySerializer(ModelSerializer):
    """A fixture with its stored result (the numbers confirmed, or final)."""

    home = serializers.SerializerMethodField()
    away = serializers.SerializerMethodField()
    status = serializers.CharField(
        read_only=True, help_text="scheduled, open (tables open), confirmed or final"
    )
    result = serializers.SerializerMethodField()
    confirmations = serializers.SerializerMethodField()

    class Meta:
        model = MatchDay
        fields = [
            "id",
            "division",
            "round",
            "home",
            "away",
            "starts_at",
            "venue",
            "status",
            "pairs",
            "result",
            "confirmations",
            "tournament",
            "accepted_at",
            "sent_back_reason",
            "sent_back_at",
            "forfeited_by",
            "forfeit_reason",
            "postponed_by",
        ]
        read_only_fields = fields

    @extend_schema_field(SideSerializer)
    def get_home(self, day: MatchDay) -> dict[str, Any]:
        return _side(day.home)

    @extend_schema_field(SideSerializer)
    def get_away(self, day: MatchDay) -> dict[str, Any]:
        return _side(day.away)

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField(), allow_null=True))
    def get_result(self, day: MatchDay) -> dict[str, int] | None:
        return league_selectors.stored_result(day)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_confirmations(self, day: MatchDay) -> list[str]:
        return league_selectors.confirmed_sides(day)


class PartieSerializer(Serializer):
    number = serializers.IntegerField()
    sitting = serializers.IntegerField()
    table = serializers.IntegerField()
    table_id = serializers.IntegerField()
    match = serializers.IntegerField()
    status = serializers.CharField()
    home_pair = serializers.ListField(child=serializers.CharField())
    away_pair = serializers.ListField(child=serializers.CharField())
    augen = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)


class LiveResultSerializer(Serializer):
    complete = serializers.BooleanField()
    home_partien = serializers.IntegerField()
    away_partien = serializers.IntegerField()
    home_augen = serializers.IntegerField()
    away_augen = serializers.IntegerField()
    partien = PartieSerializer(many=True)


class MatchDayDetailSerializer(MatchDaySerializer):
    """With the live (provisional) result of its four tables."""

    live = serializers.SerializerMethodField()

    class Meta(MatchDaySerializer.Meta):
        fields = [*MatchDaySerializer.Meta.fields, "live"]
        read_only_fields = fields

    @extend_schema_field(LiveResultSerializer)
    def get_live(self, day: MatchDay) -> dict[str, Any]:
        result = league_selectors.day_result(day)
        live = {
            **result.columns,
            "complete": result.complete,
            "partien": [asdict(p) for p in result.partien],
        }
        return dict(LiveResultSerializer(live).data)


class MatchDayUpdateSerializer(ModelSerializer):
    class Meta:
        model = MatchDay
        fields = ["starts_at", "venue"]


def _pairs() -> serializers.ListField:
    """Two pairs of player ids (a field instance per use: DRF binds each once)."""
    pair = serializers.ListField(
        child=serializers.PrimaryKeyRelatedField(queryset=Player.objects.all()),
        min_length=2,
        max_length=2,
    )
    return serializers.ListField(child=pair, min_length=2, max_length=2)


class OpenMatchDaySerializer(Serializer):
    home_pairs = _pairs()
    away_pairs = _pairs()


class ConfirmMatchDaySerializer(Serializer):
    side = serializers.ChoiceField(MatchDayConfirmation.Side.choices)


class SendBackMatchDaySerializer(Serializer):
    reason = serializers.CharField(
        max_length=500,
        validators=[validate_name],
        help_text="Why the result is refused; the captains and the venue see it",
    )


class ForfeitSerializer(Serializer):
    team = serializers.PrimaryKeyRelatedField(
        queryset=LeagueTeam.objects.all(), help_text="The team that did not appear"
    )
    reason = serializers.CharField(max_length=500, validators=[validate_name])


class PostponementSerializer(ModelSerializer):
    class Meta:
        model = MatchDayPostponement
        fields = [
            "id",
            "match_day",
            "asked_by",
            "starts_at",
            "reason",
            "status",
            "created",
            "answered_at",
            "decided_at",
        ]
        read_only_fields = ["id", "status", "created", "answered_at", "decided_at"]


class AnswerSerializer(Serializer):
    consent = serializers.BooleanField(help_text="true: the other team agrees to the date")


class DecideSerializer(Serializer):
    grant = serializers.BooleanField(help_text="true: the match day moves to the date")


class NextSeasonSerializer(Serializer):
    season = serializers.CharField(max_length=100, validators=[validate_name])
    slug = serializers.SlugField(max_length=100, validators=[validate_slug])
