"""django-filter FilterSets for the list endpoints, on a base that takes the values the
schema states and refuses the rest with a 400 naming the filter: integers as whole numbers
(``?table=1.5`` is refused, not rounded), booleans as ``true`` or ``false``, and no blank
value for a filter that is not text (``?status=``, ``?club=``), which is neither a listed
value nor an absent filter."""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as drf_filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from klammern_site.serializers import NOT_BOOLEAN
from tournaments.clubs.models import Player
from tournaments.events.models import Match, Registration, Round, Tournament

WHOLE_NUMBER = re.compile(r"\s*[-+]?[0-9]+\s*")
BLANK_VALUE = _("Give a value or leave this filter out.")


class WholeNumberField(forms.IntegerField):
    """Django's integer form field without its leniency for ``5.0``."""

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value.strip() and not WHOLE_NUMBER.fullmatch(value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


@extend_schema_field(OpenApiTypes.INT)
class IntegerFilter(django_filters.NumberFilter):
    """A number filter that takes whole numbers only."""

    field_class = WholeNumberField


class NoBlankValues(forms.Form):
    """A filter form that refuses a present but empty value for every non-text field, and
    a boolean other than ``true`` or ``false``."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name, field in self.fields.items():
            value = self.data.get(name)
            if value == "" and not isinstance(field, forms.CharField):
                self.add_error(name, forms.ValidationError(BLANK_VALUE, code="blank"))
            elif isinstance(field, forms.NullBooleanField) and value not in (None, "true", "false"):
                self.add_error(name, forms.ValidationError(NOT_BOOLEAN, code="invalid"))
        return cleaned


INTEGER_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.IntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.SmallIntegerField,
    models.BigIntegerField,
)


class FilterSet(drf_filters.FilterSet):
    """The API's FilterSet: django-filter's, with ``NoBlankValues`` and whole-number
    filters for the models' integer fields."""

    FILTER_DEFAULTS = {
        **drf_filters.FilterSet.FILTER_DEFAULTS,
        **{field: {"filter_class": IntegerFilter} for field in INTEGER_FIELDS},
    }

    def get_form_class(self) -> type[forms.Form]:
        form = super().get_form_class()
        return type(form.__name__, (NoBlankValues, form), {})


class FilterBackend(drf_filters.DjangoFilterBackend):
    """django-filter's backend; the filter sets it makes from ``filterset_fields`` use
    ``FilterSet`` too."""

    filterset_base = FilterSet


class TournamentFilter(FilterSet):
    club = IntegerFilter(field_name="club_id")
    club_slug = django_filters.CharFilter(field_name="club__slug")
    season = IntegerFilter(field_name="season_id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Tournament
        fields = ["club", "club_slug", "season", "status", "format", "name"]


class PlayerFilter(FilterSet):
    club = IntegerFilter(field_name="clubs__id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class RegistrationFilter(FilterSet):
    tournament = IntegerFilter(field_name="tournament_id")

    class Meta:
        model = Registration
        fields = ["tournament", "status", "late"]


class RoundFilter(FilterSet):
    tournament = IntegerFilter(field_name="tournament_id")

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class MatchFilter(FilterSet):
    tournament = IntegerFilter(field_name="round__tournament_id")
    round = IntegerFilter(field_name="round_id")
    round_number = IntegerFilter(field_name="round__number")
    table = IntegerFilter(field_name="table__number")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round_number", "table", "status"]
