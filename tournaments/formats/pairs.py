"""Fixed pairs (RULES.md): pairs drawn or formed once, then seated Swiss (pairs close in
the standings meet) or round robin (every pair meets every other, twice with home and
away); a pair's evening sums its tables, and the best pairs may play finals
(``finals``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .base import (
    FINALS_SEEDING,
    FIXED_PAIRS,
    PAIRS_AND_FINALS,
    ROUND_ROBIN,
    SEED_BY_RATING,
    SWISS,
    FormatProfile,
)

PAIRS = FormatProfile(
    key="pairs",
    format="pairs",
    label=_("Fixed pairs"),
    teams=True,
    seating=FIXED_PAIRS,
    team_size=2,
    settings=frozenset({SEED_BY_RATING, FINALS_SEEDING, ROUND_ROBIN, SWISS, PAIRS_AND_FINALS}),
)
