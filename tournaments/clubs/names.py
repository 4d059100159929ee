"""How a player's name is shown to the public: the one rule, as pure functions.

A player chooses (or the organiser sets, with the player's word) one of three styles:
the full name, the first name and the last name's initial ("Anna M."), or initials only
("A. M."). An anonymised player has no name any more, only a stable pseudonym number,
shown as "Spieler 17" / "Player 17" / "Joueur 17" / "Speler 17" in the reader's
language. Everything the public sees (pages, public CSV, feeds, embeds, share pictures,
anonymous API answers) is named through ``shown_name``; the organiser's console keeps the
full name. Loading the rows is ``tournaments.clubs.models.public_names``'s job.
"""

from __future__ import annotations

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
