"""Serializers of onboarding (sign-up, clubs, invitations) and seasons. They validate and
shape data; writes happen in ``tournaments/clubs/services.py``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from klammern_site.serializers import NOT_TEXT, ModelSerializer, Serializer
from tournaments.clubs.models import Club, Season
from tournaments.common.validators import validate_name, validate_slug


class SignUpSerializer(Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(write_only=True, max_length=128)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Django's password rules, with the new user's name and address to compare
        against (a password equal to the username is refused, as the sign-up form does)."""
        user = get_user_model()(username=attrs["username"], email=attrs["email"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class SignedUpSerializer(Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField(help_text="For ``Authorization: Token <token>``.")


class ClubCreateSerializer(Serializer):
    name = serializers.CharField(max_length=200, validators=[validate_name])
    slug = serializers.SlugField(
        max_length=100, required=False, allow_blank=True, validators=[validate_slug]
    )
    city = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", validators=[validate_name]
    )

    def to_internal_value(self, data: Any) -> Any:
        """Text fields take text only (DRF would turn a number into its digits)."""
        if isinstance(data, dict):
            wrong = {k: NOT_TEXT for k in ("name", "slug", "city") if k in data}
            wrong = {k: v for k, v in wrong.items() if not isinstance(data[k], str)}
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["slug"] = attrs.get("slug") or slugify(attrs["name"])[:100]
        if not attrs["slug"]:
            raise serializers.ValidationError(
                {"slug": _("Enter an address of letters and digits.")}
            )
        return attrs


class ClubDetailSerializer(ModelSerializer):
    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "city",
            "suits",
            "boss_window",
            "venue_tables",
            "venue_street",
            "venue_town",
            "embed_origins",
            "created",
        ]
        read_only_fields = fields


class ClubUpdateSerializer(ModelSerializer):
    """What an organiser changes of a club: name, city, its suits, the KlammernBoss window, how many
    league match days its venue hosts at once (RULES.md, "Clashes") and the web sites that
    may embed its tables."""

    class Meta:
        model = Club
        fields = [
            "name",
            "city",
            "suits",
            "boss_window",
            "venue_tables",
            "venue_street",
            "venue_town",
            "embed_origins",
        ]


class InvitationSerializer(Serializer):
    club = serializers.IntegerField()
    token = serializers.CharField()
    url = serializers.URLField()
    expires_at = serializers.DateTimeField()


class InvitationAcceptSerializer(Serializer):
    token = serializers.CharField(max_length=100)


class SeasonSerializer(ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on", "best_of", "min_evenings"]
        read_only_fields = ["id"]
        extra_kwargs = {"best_of": {"min_value": 1}, "min_evenings": {"min_value": 1}}


class SeasonUpdateSerializer(SeasonSerializer):
    class Meta(SeasonSerializer.Meta):
        read_only_fields = ["id", "club"]


class SeasonRowSerializer(Serializer):
    rank = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField()
    name = serializers.CharField()
    evenings = serializers.IntegerField()
    counted = serializers.ListField(child=serializers.IntegerField())
    total = serializers.FloatField()
    best = serializers.FloatField()


class SeasonTableSerializer(Serializer):
    season = serializers.IntegerField()
    name = serializers.CharField()
    best_of = serializers.IntegerField(allow_null=True)
    min_evenings = serializers.IntegerField()
    evenings = serializers.ListField(child=serializers.DictField())
    imported = serializers.IntegerField(help_text="How many of the evenings are imported.")
    rows = SeasonRowSerializer(many=True)
