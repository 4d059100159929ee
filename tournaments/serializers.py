"""Input and output serializers for the tournament API. They validate and shape data;
writes happen in ``tournaments/services.py``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import (
    Bye,
    Club,
    ClubMembership,
    ForbiddenPairing,
    Match,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
)
from .services import MAX_FIXED_TABLE


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "boss_window", "created"]
        read_only_fields = ["id", "slug", "created"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "household", "created"]
        read_only_fields = ["id", "created"]


class PlayerCreateSerializer(serializers.Serializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=200)
    household = serializers.CharField(max_length=200, required=False, allow_blank=True)
    kind = serializers.ChoiceField(ClubMembership.Kind.choices, default=ClubMembership.Kind.MEMBER)


class TournamentSerializer(serializers.ModelSerializer):
    club_name = serializers.CharField(source="club.name", read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id", "club", "club_name", "season", "name", "slug", "format", "status",
            "is_public", "rules_preset", "rules_options", "rules_locked", "locked_at",
            "match_mode", "deals_per_match", "liga_target", "bye_score_mode",
            "bye_fixed_points", "tiebreaks", "avoid_same_club", "avoid_same_household",
            "home_and_away", "swiss", "planned_rounds", "results_version", "created",
        ]  # fmt: skip
        read_only_fields = [
            "id", "status", "rules_locked", "locked_at", "results_version", "created",
        ]  # fmt: skip


class TournamentUpdateSerializer(TournamentSerializer):
    class Meta(TournamentSerializer.Meta):
        read_only_fields = [*TournamentSerializer.Meta.read_only_fields, "club"]


class RegistrationSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id", "tournament", "player", "player_name", "team", "status", "late",
            "checked_in_at", "withdrawn_at", "fixed_table", "created",
        ]  # fmt: skip
        read_only_fields = fields


class RegistrationCreateSerializer(serializers.Serializer):
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    team = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.all(), required=False, allow_null=True
    )


class FixedTableSerializer(serializers.Serializer):
    """``table``: the table number the player always sits at from the next draw on;
    ``null`` clears it."""

    table = serializers.IntegerField(min_value=1, max_value=MAX_FIXED_TABLE, allow_null=True)


class ForbiddenPairingSerializer(serializers.ModelSerializer):
    player_a_name = serializers.CharField(source="player_a.name", read_only=True)
    player_b_name = serializers.CharField(source="player_b.name", read_only=True)

    class Meta:
        model = ForbiddenPairing
        fields = ["id", "tournament", "player_a", "player_a_name", "player_b", "player_b_name"]
        read_only_fields = fields


class ForbiddenPairingCreateSerializer(serializers.Serializer):
    """Two players registered in the tournament, in either order."""

    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class SeatSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    team = serializers.IntegerField(read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "team", "player", "player_name"]


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    match = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = Table
        fields = ["id", "number", "match", "seats"]


class ByeSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Bye
        fields = ["player", "player_name", "points"]


class RoundSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)
    byes = ByeSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id", "tournament", "number", "status", "seed", "attempt", "cost",
            "published_at", "closed_at", "tables", "byes",
        ]  # fmt: skip


class DrawRoundSerializer(serializers.Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class CloseRoundSerializer(serializers.Serializer):
    force = serializers.BooleanField(default=False)


class DealResultSerializer(serializers.Serializer):
    """A deal's current result, as the public sees it."""

    number = serializers.IntegerField()
    version = serializers.IntegerField()
    outcome = serializers.CharField()
    winner_team = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    small_points = serializers.ListField(child=serializers.IntegerField())
    match_points = serializers.ListField(child=serializers.IntegerField())


def deal_results(match: Match) -> list[dict[str, Any]]:
    from games.models import DealVersion

    versions = DealVersion.objects.current().filter(deal__match=match).select_related("deal")
    return [
        {
            "number": v.deal.number,
            "version": v.version,
            "outcome": v.outcome,
            "winner_team": v.winner_team,
            "points": [v.points_0, v.points_1],
            "small_points": [v.small_0, v.small_1],
            "match_points": [v.match_points_0, v.match_points_1],
        }
        for v in versions.order_by("deal__number")
    ]


class MatchSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    seats = SeatSerializer(source="table.seats", many=True, read_only=True)
    confirmed_teams = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    deals = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id", "tournament", "round", "round_number", "table", "table_number", "mode",
            "deals_planned", "target", "status", "finished_at", "home_team", "away_team",
            "seats", "confirmed_teams", "totals", "deals",
        ]  # fmt: skip

    def get_confirmed_teams(self, match: Match) -> list[int]:
        return sorted(c.team for c in match.confirmations.all())

    _deals_of: Match | None = None
    _deals: list[dict[str, Any]]

    def _deal_results(self, match: Match) -> list[dict[str, Any]]:
        # ``totals`` and ``deals`` read the same rows: load them once per match.
        if self._deals_of is not match:
            self._deals_of, self._deals = match, deal_results(match)
        return self._deals

    @extend_schema_field(serializers.DictField(child=serializers.ListField()))
    def get_totals(self, match: Match) -> dict[str, list[int]]:
        deals = self._deal_results(match)
        return {
            key: [sum(d[key][0] for d in deals), sum(d[key][1] for d in deals)]
            for key in ("points", "small_points", "match_points")
        }

    @extend_schema_field(DealResultSerializer(many=True))
    def get_deals(self, match: Match) -> list[dict[str, Any]]:
        return self._deal_results(match)


class ConfirmMatchSerializer(serializers.Serializer):
    team = serializers.ChoiceField(choices=[0, 1])


class TableProgressSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    match = serializers.IntegerField()
    status = serializers.CharField()
    deals_entered = serializers.IntegerField()
    deals_expected = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    match_points = serializers.ListField(child=serializers.IntegerField())
    confirmed_teams = serializers.ListField(child=serializers.IntegerField())
    corrections = serializers.IntegerField()
    last_entry_at = serializers.DateTimeField(allow_null=True)
    device_active = serializers.BooleanField()


class DeviceCodeSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.URLField()
    qr_svg = serializers.CharField()
    table = serializers.IntegerField()
    expires_at = serializers.DateTimeField()


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    results_version = serializers.IntegerField()
    computed_version = serializers.IntegerField(allow_null=True)
    up_to_date = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    detail = serializers.CharField()
    data = serializers.JSONField()


class LeaderboardsSerializer(serializers.Serializer):
    club = serializers.IntegerField()
    results_version = serializers.IntegerField()
    computed_version = serializers.IntegerField(allow_null=True)
    up_to_date = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    data = serializers.JSONField()
