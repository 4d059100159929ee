"""CSV files for spreadsheets, in the request's language: what people read, safely.

What it does: one delimiter and decimal mark per language (German spreadsheets read
``;`` with a decimal comma, English ones ``,`` with a point); numbers stay numbers (a
fraction with at most two decimals, rounded half up as the pages show it); words
instead of codes (contract, outcome, suit); and every text cell that a spreadsheet would
take for a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return,
also after leading blanks) gets a leading ``'`` as OWASP's "CSV Injection" page advises.
It does not choose columns or read the database: the console's views do.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.results.standings import shown_value

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_response(filename: str) -> tuple[HttpResponse, Any]:
    """An attachment with a BOM (Excel then reads UTF-8) and a writer for the language."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response, csv.writer(response, delimiter=delimiter())


def delimiter() -> str:
    """``,`` where the decimal mark is a point, else ``;`` (German: ``1,5;2``)."""
    return "," if number_format(0.5, decimal_pos=1, use_l10n=True) == "0.5" else ";"


def cell(value: Any) -> Any:
    """One value as a spreadsheet should show it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return value  # a negative number is a number, not a formula
    if isinstance(value, float | Decimal):
        shown = shown_value(value)  # at most 2 decimals, rounded half up
        if isinstance(shown, int):
            return shown
        return number_format(shown, use_l10n=True, force_grouping=False)
    return neutralise(str(value))


def neutralise(text: str) -> str:
    """Text that a spreadsheet would run as a formula, made plain text with ``'``."""
    if text.startswith(FORMULA_STARTS) or text.lstrip(" \t\r\n").startswith(FORMULA_STARTS):
        return "'" + text
    return text


def row(values: list[Any]) -> list[Any]:
    return [cell(value) for value in values]


def contract_word(kind: str, own: Mapping[str, Any]) -> str:
    """A contract in words: the game's own (``GameProfile.contract_words``), or one every
    game has (a thrown-in deal)."""
    if kind in own:
        return str(own[kind])
    return str(_("thrown in")) if kind == "thrown_in" else kind


def suit_word(suit: str) -> str:
    words = {
        "C": pgettext("suit", "Clubs"),
        "S": pgettext("suit", "Spades"),
        "H": pgettext("suit", "Hearts"),
        "D": pgettext("suit", "Diamonds"),
    }
    return words.get(suit, suit)


def outcome_word(outcome: str) -> str:
    return {
        "made": _("made"),
        "failed": _("failed"),
        "revoke": _("revoke"),
        "thrown_in": _("thrown in"),
        "march_won": _("March won"),
        "march_lost": _("March lost"),
    }.get(outcome, outcome)


def seat_number(seat: Any) -> int | str:
    """Seats 0–3 of the deal record as people count them: 1–4."""
    return seat + 1 if isinstance(seat, int) else ""
