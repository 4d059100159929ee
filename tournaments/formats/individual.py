"""Individual evenings with changing partners (RULES.md): every round draws new tables
of single players; a player's evening sums the tables they sat at (big and small points,
or the game's points), and each table moves the club rating."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .base import (
    BALANCE_BY_RATING,
    CHANGING_PARTNERS,
    FORBIDDEN_PAIRINGS,
    FormatProfile,
)

INDIVIDUAL = FormatProfile(
    key="individual",
    format="individual",
    label=_("Individual"),
    choice_label=_("Individual (new partners each round)"),
    teams=False,
    seating=CHANGING_PARTNERS,
    settings=frozenset({BALANCE_BY_RATING, FORBIDDEN_PAIRINGS}),
)
