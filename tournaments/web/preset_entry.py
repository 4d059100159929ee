"""The tablet's score sheets for the presets other than Klammern: Klaverjas (points and
roem per team; nat and pit as the engine's result says) and Klammern for 2 or 3 players
(one points entry per player). ``tablet.py`` asks ``sheet_for`` which templates and
script a table uses; Klammern keeps its own sheet (``tablet/_entry_form.html``).

It only shapes what the pages show; the records are checked and scored by the engine.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments import presets

SHEETS = {
    presets.Game.KLAVERJAS: {
        "entry_template": "tablet/_entry_klaverjas.html",
        "state_template": "tablet/_state_points.html",
        "entry_script": "tournaments/entry_klaverjas.js",
        "entry_class": "KlaverjasEntry",
    },
    presets.Game.SOLO: {
        "entry_template": "tablet/_entry_solo.html",
        "state_template": "tablet/_state_points.html",
        "entry_script": "tournaments/entry_solo.js",
        "entry_class": "SoloEntry",
    },
}
#: The preset sheets' scripts: precached by the tablet's service worker.
SCRIPTS = tuple(sheet["entry_script"] for sheet in SHEETS.values())
STYLESHEET = "tournaments/presets.css"


def sheet_for(game: presets.Game) -> dict[str, str]:
    """Templates and script of the game's score sheet; empty for Klammern (its own)."""
    return dict(SHEETS.get(game, {}))


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


def sheet_error_templates(game: presets.Game) -> dict[str, str]:
    """Error templates that name the game's own numbers where Klammern's (164 card points,
    Jappa and Mie, melds and Bella) would mislead; the other codes keep the common ones."""
    if game is presets.Game.KLAVERJAS:
        return {
            "bad_format.card_points": _(
                "A Klaverjas deal has 162 card points in all (roem is entered on its own): "
                "enter a whole number from 0 to 162 for one team."
            ),
        }
    if game is presets.Game.SOLO:
        return {
            "bad_format.card_points": _(
                "Enter each player's card points (cards, Jappa/Mie and last trick) as a "
                "whole number from 0 to 164."
            ),
        }
    return {}


def deal_rows(deals: list[dict[str, Any]], seat_names: list[str]) -> list[dict[str, Any]]:
    """Each deal of a points match for the tablet's list, newest first."""
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
                "roem": result.get("roem"),
                "pit": result.get("pit"),
            }
        )
    return rows
