"""The history import's refusals in words a club's organiser understands: one text per
stable code of ``parsing`` (a whole file refused, or one row), in the active language.
Programs decide by the code, people read the text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

FILE_MESSAGES: Mapping[str, Promise] = {
    "empty_file": _("The file is empty: it holds no rows of evenings."),
    "file_too_large": _("The file is too large: at most %(limit)s MB."),
    "binary_file": _("This is not a spreadsheet: save it as CSV or as an Excel workbook (.xlsx)."),
    "wrong_encoding": _(
        "The file is not written in UTF-8 (byte %(position)s): save it from your "
        "spreadsheet program as “CSV UTF-8”."
    ),
    "too_many_rows": _("The file has more than %(limit)s rows: split it into several files."),
    "too_many_columns": _("The sheet has more than %(limit)s columns."),
    "formula_cell": _(
        "Cell %(cell)s holds a formula: copy the sheet, paste it as values only and upload "
        "it again."
    ),
    "unreadable_file": _("The file cannot be read as CSV or as an Excel workbook (.xlsx)."),
    "wrong_columns": _(
        "Unknown column “%(column)s”: the columns are date, player, household, status, "
        "played, won, difference, rank and season."
    ),
    "repeated_column": _("The column “%(column)s” is in the file twice."),
    "missing_columns": _("Columns missing: %(columns)s."),
}

ROW_MESSAGES: Mapping[str, Promise] = {
    "bad_date": _("“%(value)s” is no date of a past evening (write 2024-03-12 or 12.03.2024)."),
    "bad_number": _("“%(value)s” in the column %(column)s is no whole number that fits there."),
    "missing_value": _("The player's name is missing."),
    "bad_name": _("The text in the column %(column)s is too long or holds characters not allowed."),
    "bad_status": _("“%(value)s” is neither member nor guest."),
    "totals_do_not_add_up": _("The totals do not add up: more games won than played."),
    "unknown_player": _("“%(value)s” is no player of the club, and new players are not created."),
    "duplicate_evening": _("The club already has an evening on %(value)s."),
    "duplicate_evening_in_file": _(
        "The evening of %(value)s is in the file twice: a player is in it twice."
    ),
    "rank_does_not_match": _(
        "The ranks of the evening of %(value)s do not follow its games won and point differences."
    ),
}


def row_text(code: str, params: Mapping[str, Any]) -> str:
    """A refused row's reason in the active language."""
    return str(ROW_MESSAGES[code]) % {"value": "", "column": "", **params}
