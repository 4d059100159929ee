"""Serializers of fixed pairs and the finals bracket. They validate and shape data; writes
happen in ``pairs`` and ``finals``. Onboarding's and the seasons' are
``tournaments/clubs/serializers.py``."""

from __future__ import annotations

from rest_framework import serializers

from klammern_site.serializers import ModelSerializer, Serializer
from tournaments.clubs.models import Player
from tournaments.clubs.player_names import PlayerNameField
from tournaments.common.validators import validate_name
from tournaments.events.models import Team


class PairMemberSerializer(ModelSerializer):
    name = PlayerNameField(source="*")

    class Meta:
        model = Player
        fields = ["id", "name"]


class PairSerializer(ModelSerializer):
    players = PairMemberSerializer(
        many=True,
        read_only=True,
        source="pair_players",
        help_text="In the order of the pair's name, as the console lists them",
    )

    class Meta:
        model = Team
        fields = ["id", "tournament", "name", "players"]
        read_only_fields = ["id", "tournament", "players"]


class PairCreateSerializer(Serializer):
    players = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), many=True)
    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", validators=[validate_name]
    )


class PairRenameSerializer(Serializer):
    name = serializers.CharField(max_length=200, validators=[validate_name])


class PairDrawSerializer(Serializer):
    method = serializers.ChoiceField(["random", "cards"], default="random")
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class PairDrawResultSerializer(Serializer):
    seed = serializers.IntegerField()
    method = serializers.CharField()
    pairs = PairSerializer(many=True)
    left_over = serializers.IntegerField(allow_null=True)
    cards = serializers.DictField(child=serializers.CharField(), help_text="player id → card")


class FinalsStartSerializer(Serializer):
    size = serializers.ChoiceField([4, 8], default=4)


class BracketSideSerializer(Serializer):
    team = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


class BracketMatchSerializer(Serializer):
    match = serializers.IntegerField()
    slot = serializers.CharField()
    label = serializers.CharField()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    table = serializers.IntegerField()
    home = BracketSideSerializer()
    away = BracketSideSerializer()
    big = serializers.ListField(child=serializers.IntegerField())
    match_points = serializers.ListField(child=serializers.IntegerField())
    score = serializers.ListField(
        child=serializers.CharField(), help_text="As shown: big (small) points, or Liga points"
    )
    deals = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True, help_text="0 home, 1 away; once closed")


class BracketStageSerializer(Serializer):
    stage = serializers.CharField()
    label = serializers.CharField()
    matches = BracketMatchSerializer(many=True)


class PlacingSerializer(Serializer):
    place = serializers.IntegerField()
    team = serializers.IntegerField()
    name = serializers.CharField()


class BracketSerializer(Serializer):
    stages = BracketStageSerializer(many=True)
    placings = PlacingSerializer(many=True)
