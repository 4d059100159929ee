"""django-filter FilterSets for the list endpoints."""

import django_filters

from .models import Match, Player, Registration, Round, Tournament


class TournamentFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(field_name="club_id")
    club_slug = django_filters.CharFilter(field_name="club__slug")
    season = django_filters.NumberFilter(field_name="season_id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Tournament
        fields = ["club", "club_slug", "season", "status", "format", "name"]


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(field_name="clubs__id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class RegistrationFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="tournament_id")

    class Meta:
        model = Registration
        fields = ["tournament", "status", "late"]


class RoundFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="tournament_id")

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class MatchFilter(django_filters.FilterSet):
    tournament = django_filters.NumberFilter(field_name="round__tournament_id")
    round = django_filters.NumberFilter(field_name="round_id")
    round_number = django_filters.NumberFilter(field_name="round__number")
    table = django_filters.NumberFilter(field_name="table__number")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round_number", "table", "status"]
