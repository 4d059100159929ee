"""How a player's name is shown to the public: the one rule, as pure functions.

A player chooses (or the organiser sets, with the player's word) one of three styles:
the full name, the first name and the last name's initial ("Anna M."), or initials only
("A. M."). An anonymised player has no name any more, only a stable pseudonym number,
shown as "Spieler 17" / "Player 17" / "Joueur 17" / "Speler 17" in the reader's
language. Everything the public sees (pages, public CSV, feeds, embeds, share pictures,
anonymous API answers) is named through ``shown_name``; the organiser's console keeps the
full name. Loading the rows is ``tournaments.clubs.models.public_names``'s job.

A stored table (standings snapshots, the club's leaderboards, season tables) is computed
once, in whatever language the request or task that computed it had, and read in every
language: it keeps each player's name as ``stored_name`` makes it (with an anonymised
player's pseudonym number), and its readers name the rows with ``in_reader_language``, so
that the pseudonym is in the reader's language on every page, however often it is cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy


class NameStyle(models.TextChoices):
    FULL = "full", gettext_lazy("Full name")
    FIRST_INITIAL = "first_initial", gettext_lazy("First name and initial (Anna M.)")
    INITIALS = "initials", pgettext_lazy("name style", "Initials only (A. M.)")


def _initial(word: str) -> str:
    return word[0].upper() + "." if word else ""


def styled_name(name: str, style: str) -> str:
    """``name`` in ``style``: "Anna Maria Müller" as "Anna M." or "A. M. M."; a name of one
    word keeps it with the first name and initial ("Anna")."""
    words = name.split()
    if style == NameStyle.FIRST_INITIAL and len(words) > 1:
        return f"{words[0]} {_initial(words[-1])}"
    if style == NameStyle.INITIALS and words:
        return " ".join(_initial(word) for word in words)
    return name


def pseudonym(number: int) -> str:
    """An anonymised player's name in the active language."""
    return gettext("Player %(number)d") % {"number": number}


def shown_name(name: str, style: str, pseudonym_number: int | None = None) -> str:
    """What the public sees of a player: the pseudonym once anonymised, else the name in
    the player's chosen style."""
    if pseudonym_number is not None:
        return pseudonym(pseudonym_number)
    return styled_name(name, style)


def stored_name(name: str, style: str, pseudonym_number: int | None = None) -> dict[str, Any]:
    """A player's name as a stored table keeps it: ``name``, the public name (a pseudonym
    in the language the table was computed in) and, once anonymised, ``pseudonym``, its
    number, from which ``in_reader_language`` names the player for each reader."""
    fields: dict[str, Any] = {"name": shown_name(name, style, pseudonym_number)}
    if pseudonym_number is not None:
        fields["pseudonym"] = pseudonym_number
    return fields


def in_reader_language(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copies of a stored table's rows, each anonymised player's ``name`` the pseudonym in
    the active language."""
    return [
        {**row, "name": pseudonym(row["pseudonym"])}
        if row.get("pseudonym") is not None
        else dict(row)
        for row in rows
    ]
