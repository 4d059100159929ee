"""Input and output serializers for the tournament API. They validate and shape data;
writes happen in ``tournaments/events/services.py``.

Every related id a write accepts is looked up among the rows the requesting user (the
``request`` in the serializer's context) may use: players, teams and seasons of the
clubs they organise. Any other id is answered as one that does not exist, so a write
never reveals another club's rows. The club or tournament a write is about is looked up
among those the user may see, and one they do not organise is refused with 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.validators import UniqueTogetherValidator

from games.models import DealVersion
from klammern_site.serializers import ModelSerializer, Serializer
from tournaments import formats
from tournaments.clubs.models import Club, ClubMembership, Player, Season
from tournaments.clubs.permissions import IsOrganiser, organises_club
from tournaments.clubs.player_names import PlayerNameField
from tournaments.common.validators import TIEBREAK_NAMES, validate_name
from tournaments.events.models import (
    Bye,
    ForbiddenPairing,
    Match,
    Registration,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
)
from tournaments.events.permissions import visible_tournaments
from tournaments.events.services import MAX_FIXED_TABLE

Scope = Callable[[Any], QuerySet[Any]]


def organised_clubs(user: Any) -> QuerySet[Club]:
    return Club.objects.all() if user.is_superuser else Club.objects.filter(organisers=user)


def organised_players(user: Any) -> QuerySet[Player]:
    return Player.objects.filter(clubs__in=organised_clubs(user)).distinct()


def organised_teams(user: Any) -> QuerySet[Team]:
    return Team.objects.filter(tournament__in=Tournament.objects.organised_by(user))


def organised_seasons(user: Any) -> QuerySet[Season]:
    return Season.objects.filter(club__in=organised_clubs(user))


class ScopedPrimaryKeyField(serializers.PrimaryKeyRelatedField):
    """A related id among ``scope(user)`` for the requesting user; any other id is
    "Invalid pk" as if it did not exist. No signed-in user in the context: none."""

    def __init__(self, *, scope: Scope, **kwargs: Any) -> None:
        self.scope = scope
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet[Any]:
        user = getattr(self.context.get("request"), "user", None)
        if user is None or not user.is_authenticated:
            return self.queryset.none()  # type: ignore[union-attr]
        return self.scope(user)


class OrganisedTargetField(ScopedPrimaryKeyField):
    """The club or tournament a write is about: one the user may see, and 403 (before
    the other fields are looked at) unless they organise its club."""

    def __init__(self, *, scope: Scope, club_id_of: Callable[[Any], int], **kwargs: Any) -> None:
        self.club_id_of = club_id_of
        super().__init__(scope=scope, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        target = super().to_internal_value(data)
        if not organises_club(self.context["request"].user, self.club_id_of(target)):
            raise PermissionDenied(IsOrganiser.message)
        return target


def target_club() -> OrganisedTargetField:
    return OrganisedTargetField(
        queryset=Club.objects.none(),
        scope=lambda user: Club.objects.all(),
        club_id_of=lambda club: club.pk,
    )


def target_tournament() -> OrganisedTargetField:
    return OrganisedTargetField(
        queryset=Tournament.objects.none(),
        scope=visible_tournaments,
        club_id_of=lambda tournament: tournament.club_id,
    )


def organised_player() -> ScopedPrimaryKeyField:
    return ScopedPrimaryKeyField(queryset=Player.objects.none(), scope=organised_players)


class ClubSerializer(ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "suits", "boss_window", "created"]
        read_only_fields = ["id", "slug", "created"]


class PlayerSerializer(ModelSerializer):
    """A player of the caller's clubs (organisers only): the full name, and how the
    public sees it (``name_style``, set with the player's word)."""

    public_name = serializers.CharField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "household",
            "name_style",
            "public_name",
            "anonymised_at",
            "created",
        ]
        read_only_fields = ["id", "public_name", "anonymised_at", "created"]


class PlayerCreateSerializer(Serializer):
    club = target_club()
    name = serializers.CharField(max_length=200, validators=[validate_name])
    household = serializers.CharField(
        max_length=200, required=False, allow_blank=True, validators=[validate_name]
    )
    kind = serializers.ChoiceField(ClubMembership.Kind.choices, default=ClubMembership.Kind.MEMBER)


class TournamentSerializer(ModelSerializer):
    club = target_club()
    club_name = serializers.CharField(source="club.name", read_only=True)
    season = ScopedPrimaryKeyField(
        queryset=Season.objects.none(), scope=organised_seasons, required=False, allow_null=True
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "club_name",
            "season",
            "name",
            "slug",
            "format",
            "status",
            "is_public",
            "rules_preset",
            "rules_options",
            "suits",
            "rules_locked",
            "locked_at",
            "match_mode",
            "deals_per_match",
            "liga_target",
            "duplicate",
            "bye_score_mode",
            "bye_fixed_points",
            "tiebreaks",
            "avoid_same_club",
            "avoid_same_household",
            "home_and_away",
            "swiss",
            "round_robin",
            "seed_by_rating",
            "finals_seeding",
            "balance_by_rating",
            "planned_rounds",
            "results_version",
            "created",
        ]
        read_only_fields = [
            "id",
            "status",
            "rules_locked",
            "locked_at",
            "results_version",
            "created",
        ]

    def validate_tiebreaks(self, value: Any) -> list[str]:
        """A list of the tie-break names the standings know, each once."""
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            raise serializers.ValidationError(_("Give a list of tie-break names."), code="invalid")
        unknown = [name for name in value if name not in TIEBREAK_NAMES]
        if unknown:
            raise serializers.ValidationError(
                _("Unknown tie-breaks: %(names)s. Known are: %(known)s.")
                % {"names": ", ".join(unknown), "known": ", ".join(sorted(TIEBREAK_NAMES))},
                code="invalid_choice",
            )
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Name each tie-break once."), code="duplicate")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The rating options belong to a format: seeding to fixed pairs, balancing
        tables to the individual draw (docs/ratings.md)."""
        game_format = attrs.get("format", getattr(self.instance, "format", None))
        game_format = game_format or formats.INDIVIDUAL.format
        profile = formats.format_named(game_format)
        if attrs.get("balance_by_rating") and not profile.allows(formats.BALANCE_BY_RATING):
            raise serializers.ValidationError(
                {"balance_by_rating": _("Tables are balanced by rating in the individual draw.")},
                code="not_individual",
            )
        seeding = attrs.get("seed_by_rating") or (
            attrs.get("finals_seeding") == Tournament.FinalsSeeding.RATING
        )
        if seeding and not profile.allows(formats.SEED_BY_RATING):
            raise serializers.ValidationError(
                {"seed_by_rating": _("Seeding by rating is for tournaments of fixed pairs.")},
                code="not_pairs",
            )
        self._check_pairing(attrs, profile)
        return attrs

    def _check_pairing(self, attrs: dict[str, Any], profile: formats.FormatProfile) -> None:
        """The pairing of fixed pairs' rounds, as the console offers it: at random, Swiss,
        a round robin, or a round robin with home and away (``home_and_away`` of a
        league's fixture list needs no round robin)."""
        scheme = {
            name: attrs.get(name, getattr(self.instance, name, False))
            for name in ("swiss", "round_robin", "home_and_away")
        }
        if scheme["round_robin"] and not profile.allows(formats.ROUND_ROBIN):
            raise serializers.ValidationError(
                {"round_robin": _("A round robin is played by fixed pairs.")}, code="not_pairs"
            )
        if scheme["round_robin"] and scheme["swiss"]:
            raise serializers.ValidationError(
                {"round_robin": _("Pair the rounds either Swiss or as a round robin.")},
                code="two_schemes",
            )
        if (
            profile.allows(formats.ROUND_ROBIN)
            and scheme["home_and_away"]
            and not scheme["round_robin"]
        ):
            raise serializers.ValidationError(
                {
                    "home_and_away": _(
                        "Home and away is a round robin's: send round_robin true with it."
                    )
                },
                code="needs_round_robin",
            )


class TournamentUpdateSerializer(TournamentSerializer):
    """A tournament's changes; its club stays. DRF checks ``(club, slug)`` only when both
    are writable, so the slug is checked against the tournament's own club here."""

    club = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta(TournamentSerializer.Meta):
        read_only_fields = [*TournamentSerializer.Meta.read_only_fields, "club"]

    def validate_slug(self, slug: str) -> str:
        assert self.instance is not None, "an update serializer needs its tournament"
        others = Tournament.objects.filter(club_id=self.instance.club_id, slug=slug)
        if others.exclude(pk=self.instance.pk).exists():
            raise serializers.ValidationError(
                _("This club already has a tournament with this slug."), code="unique"
            )
        return slug


class RegistrationSerializer(ModelSerializer):
    player_name = PlayerNameField(source="player")

    class Meta:
        model = Registration
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "team",
            "status",
            "late",
            "checked_in_at",
            "withdrawn_at",
            "fixed_table",
            "created",
        ]
        read_only_fields = fields


class RegistrationCreateSerializer(Serializer):
    tournament = target_tournament()
    player = organised_player()
    team = ScopedPrimaryKeyField(
        queryset=Team.objects.none(), scope=organised_teams, required=False, allow_null=True
    )

    class Meta:
        validators = [
            UniqueTogetherValidator(
                queryset=Registration.objects.all(),
                fields=["tournament", "player"],
                message=_("This player is already registered for this tournament."),
            ),
        ]


class FixedTableSerializer(Serializer):
    """``table``: the table number the player always sits at from the next draw on;
    ``null`` clears it."""

    table = serializers.IntegerField(min_value=1, max_value=MAX_FIXED_TABLE, allow_null=True)


class ForbiddenPairingSerializer(ModelSerializer):
    player_a_name = PlayerNameField(source="player_a")
    player_b_name = PlayerNameField(source="player_b")

    class Meta:
        model = ForbiddenPairing
        fields = ["id", "tournament", "player_a", "player_a_name", "player_b", "player_b_name"]
        read_only_fields = fields


class ForbiddenPairingCreateSerializer(Serializer):
    """Two players registered in the tournament, in either order."""

    player_a = organised_player()
    player_b = organised_player()


class SeatSerializer(ModelSerializer):
    player_name = PlayerNameField(source="player")
    team = serializers.IntegerField(read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "team", "player", "player_name"]


class TableSerializer(ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    match = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = Table
        fields = ["id", "number", "match", "seats"]


class ByeSerializer(ModelSerializer):
    player_name = PlayerNameField(source="player")

    class Meta:
        model = Bye
        fields = ["player", "player_name", "points"]


class DrawRefusalSerializer(Serializer):
    """Why a draw seated nobody: a condition of the field, in the caller's language."""

    code = serializers.CharField()
    detail = serializers.CharField()


class RoundSerializer(ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)
    byes = ByeSerializer(many=True, read_only=True)
    draw_refusal = serializers.SerializerMethodField()

    @extend_schema_field(DrawRefusalSerializer(allow_null=True))
    def get_draw_refusal(self, round_: Round) -> dict[str, str] | None:
        refusal = round_.draw_refusal()
        return None if refusal is None else {"code": refusal.code, "detail": refusal.message}

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "status",
            "seed",
            "attempt",
            "cost",
            "draw_refusal",
            "published_at",
            "closed_at",
            "tables",
            "byes",
        ]


class DrawRoundSerializer(Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class CloseRoundSerializer(Serializer):
    force = serializers.BooleanField(default=False)


class DealResultSerializer(Serializer):
    """A deal's current result, as the public sees it."""

    number = serializers.IntegerField()
    version = serializers.IntegerField()
    outcome = serializers.CharField()
    winner_team = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField())
    small_points = serializers.ListField(child=serializers.IntegerField())
    match_points = serializers.ListField(child=serializers.IntegerField())


def deal_results(match: Match) -> list[dict[str, Any]]:
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


class MatchSerializer(ModelSerializer):
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
            "id",
            "tournament",
            "round",
            "round_number",
            "table",
            "table_number",
            "mode",
            "deals_planned",
            "target",
            "status",
            "finished_at",
            "home_team",
            "away_team",
            "seats",
            "confirmed_teams",
            "totals",
            "deals",
        ]

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


class ConfirmMatchSerializer(Serializer):
    team = serializers.ChoiceField(choices=[0, 1])


class TableProgressSerializer(Serializer):
    table = serializers.IntegerField()
    match = serializers.IntegerField()
    status = serializers.CharField()
    deals_entered = serializers.IntegerField(
        help_text="Played deals entered; a thrown-in deal is no planned deal (see deals_thrown_in)."
    )
    deals_thrown_in = serializers.IntegerField(
        help_text="Thrown-in deals entered: recorded, but not among the planned deals."
    )
    deals_expected = serializers.IntegerField(allow_null=True)
    target = serializers.IntegerField(allow_null=True)
    match_points = serializers.ListField(child=serializers.IntegerField())
    confirmed_teams = serializers.ListField(child=serializers.IntegerField())
    corrections = serializers.IntegerField()
    last_entry_at = serializers.DateTimeField(allow_null=True)
    device_active = serializers.BooleanField()


class DeviceCodeSerializer(Serializer):
    code = serializers.CharField()
    url = serializers.URLField()
    qr_svg = serializers.CharField()
    table = serializers.IntegerField()
    expires_at = serializers.DateTimeField()


class StandingsSerializer(Serializer):
    tournament = serializers.IntegerField()
    results_version = serializers.IntegerField()
    computed_version = serializers.IntegerField(allow_null=True)
    up_to_date = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    detail = serializers.CharField()
    data = serializers.JSONField()


class LeaderboardsSerializer(Serializer):
    club = serializers.IntegerField()
    results_version = serializers.IntegerField()
    computed_version = serializers.IntegerField(allow_null=True)
    up_to_date = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    data = serializers.JSONField()
