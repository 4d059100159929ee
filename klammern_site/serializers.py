"""The API's serializer bases: DRF's, refusing a JSON value of the wrong type.

DRF coerces what it can: ``"5"`` for an integer, ``891`` for a string, ``"yes"`` for a
boolean, ``true`` for the id 1. The schema states each field's JSON type, so a body that
breaks it is refused with the field named (400, code ``invalid``) instead of being quietly
converted: in every field the body names, read-only ones included (``{"club": true}`` is
no club id, even where the club cannot be changed), and in the items of its lists and
objects (``[true]`` is no list of ids); a text with a NUL character, which no PostgreSQL
text column holds, is refused too. A key of the body that names no field, or a read-only
field with another value than the object has, is refused with 400 ``unknown_fields``
naming the keys. Query strings are text by nature and are left to DRF's own conversion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.relations import ManyRelatedField, PrimaryKeyRelatedField, SlugRelatedField

from tournaments.common.errors import Refused

NOT_TEXT = _("Must be text.")
NOT_INTEGER = _("Must be a whole number.")
NOT_NUMBER = _("Must be a number.")
NOT_BOOLEAN = _("Must be true or false.")
NOT_LIST = _("Must be a list.")
NOT_OBJECT = _("Must be an object.")
NUL_IN_TEXT = _("Must not contain a NUL character.")


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: (field classes, the JSON type check, the message); the first match decides.
CHECKS: tuple[tuple[tuple[type, ...], Any, Any], ...] = (
    ((serializers.BooleanField,), lambda v: isinstance(v, bool), NOT_BOOLEAN),
    ((serializers.IntegerField, PrimaryKeyRelatedField), _is_integer, NOT_INTEGER),
    ((serializers.FloatField,), _is_number, NOT_NUMBER),
    ((serializers.CharField, SlugRelatedField), lambda v: isinstance(v, str), NOT_TEXT),
    (
        (serializers.ListField, serializers.ListSerializer, ManyRelatedField),
        lambda v: isinstance(v, list),
        NOT_LIST,
    ),
    (
        (serializers.Serializer, serializers.DictField),
        lambda v: isinstance(v, Mapping),
        NOT_OBJECT,
    ),
)


def json_type_problem(field: serializers.Field, value: Any) -> Any:
    """The message for ``value`` if its JSON type is not the one ``field`` takes, else None
    (``null`` is left to the field's ``allow_null``). The items of a list or object field
    are checked against its child: ``[true]`` is no list of ids."""
    if value is None:
        return None
    if isinstance(value, str) and "\x00" in value:  # no text column can hold it
        return NUL_IN_TEXT
    for classes, fits, message in CHECKS:
        if isinstance(field, classes):
            return message if not fits(value) else item_problem(field, value)
    return None


def item_problem(field: serializers.Field, value: Any) -> Any:
    """The first problem of the items of a list or object ``value`` with their field's
    child (a list of ids, a list of pairs of ids, an object of numbers), else None."""
    child = getattr(field, "child_relation", None) or getattr(field, "child", None)
    if child is None or isinstance(field, serializers.ListSerializer):
        return None  # a nested serializer checks its own fields
    items = value.values() if isinstance(value, Mapping) else value
    return next((p for item in items if (p := json_type_problem(child, item)) is not None), None)


def refuse_unknown_fields(names: list[str]) -> None:
    raise Refused(
        "unknown_fields",
        _("These fields are unknown or cannot be changed here: %(fields)s."),
        params={"fields": ", ".join(names)},
        errors=[{"field": name} for name in names],
    )


class StrictJSONTypes:
    """Refuses a JSON body whose values have another type than their fields take, and
    (for the body itself, not nested objects) keys that are no field it may change: a
    typo, or a read-only field with a value other than the object's, is refused (400
    ``unknown_fields`` naming them), not ignored while the answer looks like a success."""

    fields: Any
    parent: Any
    instance: Any
    #: False for a body whose unknown keys are passed on to be judged elsewhere.
    refuse_unknown_fields = True

    def unknown_fields(self, data: Mapping[Any, Any]) -> list[str]:
        """Keys that are no field, and read-only fields sent with another value than the
        object has (sending back what a GET answered, unchanged, is fine)."""
        unknown = sorted(str(k) for k in data if k not in self.fields)
        read_only = [k for k in data if k in self.fields and self.fields[k].read_only]
        if read_only:
            current = {} if self.instance is None else self.to_representation(self.instance)
            unknown += sorted(k for k in read_only if k not in current or current[k] != data[k])
        return unknown

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping) and not isinstance(data, QueryDict):
            errors = {
                name: [problem]
                for name, field in self.fields.items()
                if name in data and (problem := json_type_problem(field, data[name])) is not None
            }
            if errors:
                raise serializers.ValidationError(errors, code="invalid")
            top = self.refuse_unknown_fields and self.parent is None
            if top and (unknown := self.unknown_fields(data)):
                refuse_unknown_fields(unknown)
        return super().to_internal_value(data)  # type: ignore[misc]


class Serializer(StrictJSONTypes, serializers.Serializer):  # type: ignore[type-arg]
    """DRF's ``Serializer`` with ``StrictJSONTypes``."""


class ModelSerializer(StrictJSONTypes, serializers.ModelSerializer):  # type: ignore[type-arg]
    """DRF's ``ModelSerializer`` with ``StrictJSONTypes``."""
