"""Klammern for 2 or 3 players (RULES.md, "Klammern for two or three"): single players,
a points match to 500 (or a number of deals), individual tournaments only; ranked by
tournament points then total points; not rated; analysed with perfect play, the
declarer against the others (``games/engine/solo_analysis.py``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .base import Column, DealColumn, EntrySheet, per_side
from .klammern import MELD_ERRORS
from .points import PointsProfile

SHEET = EntrySheet(
    entry_template="tablet/_entry_solo.html",
    state_template="tablet/_state_points.html",
    entry_script="tournaments/entry_solo.js",
    entry_class="SoloEntry",
    stylesheet="tournaments/presets.css",
    error_templates={
        **MELD_ERRORS,
        "bad_format.card_points": _(
            "Enter each player's card points (cards, Jappa/Mie and last trick) as a "
            "whole number from 0 to 164."
        ),
    },
    strings={"pickPlayerPoints": _("Enter every player's points.")},
)
STANDINGS_COLUMNS = {
    "games_won": Column("games_won", _("Tables won"), _("Tables won (most points at the table)")),
    "augen": Column("augen", _("Points"), _("Points of all tables")),
    "point_difference": Column(
        "point_difference", _("Margin"), _("Points minus the best other player's")
    ),
}
#: RULES.md, "ranking": tournament points (2 for a table won, 1 each for a first place
#: shared), then total points, Buchholz, head-to-head; no point difference, which has
#: no meaning with three players.
TIEBREAKS = ("tournament_points", "augen", "buchholz", "head_to_head")
DEAL_COLUMNS = (DealColumn(_("Points seat %(side)s"), per_side("points")),)


def solo_profile(*, key: str, label: Any, players: int) -> PointsProfile:
    return PointsProfile(
        key=key,
        label=label,
        players=players,
        teams=False,
        points_match=True,
        sheet=SHEET,
        rating_pool="",
        rating_pool_label="",
        analysable=True,
        individual_only=True,
        names_declarer=True,
        tiebreaks=TIEBREAKS,
        standings_columns=STANDINGS_COLUMNS,
        deal_columns=DEAL_COLUMNS,
        contract_words={"take": pgettext_lazy("contract", "taken")},
        game="klammern",
    )


TWO = solo_profile(key="klammern-2", label=_("Klammern for two players"), players=2)
THREE = solo_profile(key="klammern-3", label=_("Klammern for three players"), players=3)
