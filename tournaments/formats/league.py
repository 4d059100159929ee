"""A league match day (docs/leagues.md): two club teams meet at their tables; the
match day's result becomes league points in the division's table
(``leagues.league_table``), not an evening's standings, and it is no club evening."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .base import DRAWN_BY_ORGANISER, LEAGUE_POINTS, MATCH_DAY, FormatProfile

LEAGUE = FormatProfile(
    key="league",
    format="league",
    label=_("League"),
    teams=True,
    seating=MATCH_DAY,
    standings=LEAGUE_POINTS,
    evening=False,
    default_match_mode="liga",
    deletable=False,
    settings=frozenset({DRAWN_BY_ORGANISER}),
)
