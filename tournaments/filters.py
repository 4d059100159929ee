"""django-filter FilterSets for the list endpoints, on a base that refuses a blank value
for a filter that is not text (``?status=``, ``?club=``): the schema lists those values,
and a blank one is neither a listed value nor an absent filter."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as drf_filters

from .models import Match, Player, Registration, Round, Tournament

BLANK_VALUE = _("Give a value or leave this filter out.")


class NoBlankValues(forms.Form):
    """A filter form that refuses a present but empty value for every non-text field."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name, field in self.fields.items():
            if not isinstance(field, forms.CharField) and self.data.get(name) == "":
                self.add_error(name, forms.ValidationError(BLANK_VALUE, code="blank"))
        return cleaned


class FilterSet(drf_filters.FilterSet):
    """The API's FilterSet: django-filter's, with ``NoBlankValues``."""

    def get_form_class(self) -> type[forms.Form]:
        form = super().get_form_class()
        return type(form.__name__, (NoBlankValues, form), {})


class FilterBackend(drf_filters.DjangoFilterBackend):
    """django-filter's backend; the filter sets it makes from ``filterset_fields`` use
    ``FilterSet`` too."""

    filterset_base = FilterSet


class TournamentFilter(FilterSet):
    club = django_filters.NumberFilter(field_name="club_id")
    club_slug = django_filters.CharFilter(field_name="club__slug")
    season = django_filters.NumberFilter(field_name="season_id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Tournament
        fields = ["club", "club_slug", "season", "status", "format", "name"]


class PlayerFilter(FilterSet):
    club = django_filters.NumberFilter(field_name="clubs__id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class RegistrationFilter(FilterSet):
    tournament = django_filters.NumberFilter(field_name="tournament_id")

    class Meta:
        model = Registration
        fields = ["tournament", "status", "late"]


class RoundFilter(FilterSet):
    tournament = django_filters.NumberFilter(field_name="tournament_id")

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class MatchFilter(FilterSet):
    tournament = django_filters.NumberFilter(field_name="round__tournament_id")
    round = django_filters.NumberFilter(field_name="round_id")
    round_number = django_filters.NumberFilter(field_name="round__number")
    table = django_filters.NumberFilter(field_name="table__number")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round_number", "table", "status"]
