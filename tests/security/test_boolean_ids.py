"""A JSON ``true`` or ``false`` is no id: Python takes ``True == 1``, so DRF would look up
the row with the primary key 1 (and a read-only ``club`` sent as ``true`` would pass for
the club 1). Every related-id and whole-number field of every serializer of the API, read-
only ones included, in lists of ids and in lists of pairs of ids too, refuses them (400
``invalid``, "Must be a whole number.", the field named)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.urls import get_resolver
from rest_framework import serializers
from rest_framework.relations import ManyRelatedField, PrimaryKeyRelatedField

from klammern_site.serializers import NOT_INTEGER, StrictJSONTypes
from tests.support.clients import APIClient
from tournaments.clubs.models import Club, Season

#: The API's answer (in English: the request asks for no other language).
WHOLE_NUMBER = "Must be a whole number."


def api_serializers() -> list[type[Any]]:
    """Every serializer class of the API (the URL conf imports every API module)."""
    get_resolver().url_patterns  # noqa: B018 - importing the URL conf imports them all
    found: list[type[Any]] = []
    pending = list(StrictJSONTypes.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith(("tournaments.", "games.")):  # not the bases
            found.append(cls)
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def boolean_in_shape(field: serializers.Field, value: bool) -> Any:
    """``value`` where ``field`` takes an id: itself, or inside as many lists as the field
    nests (``[true]`` for a list of ids, ``[[true]]`` for a list of pairs); None for a
    field that takes no id."""
    if isinstance(field, PrimaryKeyRelatedField | serializers.IntegerField):
        return value
    if isinstance(field, ManyRelatedField):
        inner = boolean_in_shape(field.child_relation, value)
    elif isinstance(field, serializers.ListField):
        inner = boolean_in_shape(field.child, value)
    else:
        return None
    return None if inner is None else [inner]


def id_fields() -> list[tuple[type[Any], str, Any]]:
    cases = []
    for cls in api_serializers():
        for name, field in cls(context={}).fields.items():
            if boolean_in_shape(field, True) is not None:
                cases.append((cls, name, field))
    return cases


CASES = id_fields()


def test_the_api_has_id_fields_to_check() -> None:
    names = {(cls.__name__, name) for cls, name, _field in CASES}
    assert ("SeasonUpdateSerializer", "club") in names  # read-only
    assert ("LeagueTeamSerializer", "roster") in names  # a list of ids
    assert ("OpenMatchDaySerializer", "home_pairs") in names  # a list of pairs of ids
    assert ("TournamentSerializer", "club") in names  # a scoped id
    assert len(CASES) > 40


@pytest.mark.django_db
@pytest.mark.parametrize("value", [True, False])
@pytest.mark.parametrize(
    ("cls", "name", "field"), CASES, ids=[f"{c.__name__}.{n}" for c, n, _f in CASES]
)
def test_a_boolean_is_no_id(cls: type[Any], name: str, field: Any, value: bool) -> None:
    body = {name: boolean_in_shape(field, value)}
    serializer = cls(data=body, partial=True, context={})
    assert not serializer.is_valid()
    assert serializer.errors.get(name) == [str(NOT_INTEGER)], serializer.errors


@pytest.mark.django_db
def test_a_season_keeps_its_club_when_sent_true(
    organiser_client: APIClient, club_a: Club, club_b: Club
) -> None:
    """The probe's case: ``true`` was taken as the club 1 (unchanged), and answered 200."""
    season = Season.objects.create(
        club=club_a, name="Winter", starts_on=date(2026, 10, 1), ends_on=date(2027, 3, 31)
    )
    for value in (True, False):
        response = organiser_client.patch(
            f"/api/seasons/{season.pk}/", {"club": value, "name": "Sommer"}, format="json"
        )
        assert response.status_code == 400, response.content
        body = response.json()
        assert body["code"] == "invalid" and body["club"] == [WHOLE_NUMBER]
    season.refresh_from_db()
    assert season.name == "Winter" and season.club_id == club_a.pk
    same = organiser_client.patch(
        f"/api/seasons/{season.pk}/", {"club": club_a.pk, "name": "Sommer"}, format="json"
    )
    assert same.status_code == 200, same.content


@pytest.mark.django_db
def test_a_roster_of_true_is_refused(organiser_client: APIClient, club_a: Club) -> None:
    """A list of ids: ``[true]`` would be the player 1."""
    response = organiser_client.post(
        "/api/league-teams/", {"name": "X", "roster": [True]}, format="json"
    )
    assert response.status_code == 400 and response.json()["roster"] == [WHOLE_NUMBER]
