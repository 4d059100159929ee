"""Finals (RULES.md, "Fixed pairs"): after the preliminary rounds the best pairs play a
knockout (quarter-finals, semi-finals, the final and the match for third place). A
finals table's result decides its bracket slot, not the standings; the public page and
the projector show the bracket; each table moves the club rating as any other."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .base import FIXED_PAIRS, FormatProfile

#: The standings of a finals round: none (the bracket decides).
KNOCKOUT = "knockout"

FINALS = FormatProfile(
    key="finals",
    format="pairs",
    label=_("Finals"),
    teams=True,
    seating=FIXED_PAIRS,
    standings=KNOCKOUT,
)
