"""Validation of the names people type (players, clubs, tournaments, teams, seasons):
no control characters (Unicode category Cc: ESC, BEL, NUL, newlines, tabs) and no
bidirectional overrides, embeddings, isolates or marks, which let a name display as
something else than it is (U+202E turns "Anna" + "txt.exe" around) or garble the page,
the table cards and the CSV exports around it.

Used by the models (so the admin, model forms and model serializers check it) and by
the plain serializers and forms that take names. It does not limit length or letters.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # embeddings and overrides
    + [chr(c) for c in range(0x2066, 0x206A)]  # isolates
    + ["\u200e", "\u200f", "\u061c"]  # left-to-right, right-to-left and Arabic letter marks
)


def is_forbidden(char: str) -> bool:
    return char in BIDI_CONTROLS or unicodedata.category(char) == "Cc"


def validate_name(value: str) -> None:
    forbidden = sorted({f"U+{ord(c):04X}" for c in value if is_forbidden(c)})
    if forbidden:
        raise ValidationError(
            _("Names may not contain control or text-direction characters (%(chars)s)."),
            code="forbidden_characters",
            params={"chars": ", ".join(forbidden)},
        )
