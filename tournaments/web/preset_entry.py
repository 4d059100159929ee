"""What the tablet's score sheets share beyond a game's own (``GameProfile.sheet`` names
the templates, script and error texts of each game's sheet): the texts the points
sheets' scripts show, the assets the service worker precaches, and the rows of a points
match's deals.

It only shapes what the pages show; the records are checked and scored by the engine.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import profiles


def sheet_assets() -> tuple[str, ...]:
    """Every game's own sheet script and stylesheet: precached by the tablet's service
    worker."""
    names = {
        name
        for profile in profiles.PROFILES.values()
        for name in (profile.sheet.entry_script, profile.sheet.stylesheet)
        if name
    }
    return tuple(sorted(names))


def sheet_strings() -> dict[str, str]:
    """Texts the preset sheets' JavaScript shows on its own."""
    return {
        "pickTrumpK": _("Choose trump."),
        "pickPointsK": _("Enter the points of one team."),
        "pickRoem": _("Roem goes in steps of 10."),
        "pickAllTricks": _("Did this team take all 8 tricks? Choose one."),
        "pickPlayerPoints": _("Enter every player's points."),
        "nat": _("nat: the other team scores everything"),
        "pit": _("pit: all tricks, 100 roem more"),
        "made": _("made"),
        "plays": _("plays"),
    }


def deal_rows(
    deals: list[dict[str, Any]], seat_names: list[str], profile: profiles.GameProfile
) -> list[dict[str, Any]]:
    """Each deal of a points match for the tablet's list, newest first, with the game's
    marks (nat, dedans, capot, ...) and note (roem, announcements) from its profile."""
    rows = []
    for deal in reversed(deals):
        result = deal["result"] or {}
        contract = deal["record"].get("contract") or {}
        declarer = contract.get("declarer")
        rows.append(
            {
                "number": deal["number"],
                "outcome": result.get("outcome", ""),
                "trump": contract.get("trump"),
                "declarer": seat_names[declarer] if isinstance(declarer, int) else "",
                "points": result.get("points") or [],
                "marks": profile.deal_marks(result),
                "note": profile.deal_note(result),
            }
        )
    return rows
