"""Duplicate (RULES.md, "Duplicate tournaments"): every table of a round plays the same
boards, each team in the same direction; a board's result is compared with the other
tables' for match points, an evening is the match points as a percentage. Its words
are boards, board results and match points, never small or big points or a match won
at a table; the table's own result moves no rating (the round counts once per
direction, ranked by match points); a round's deals stay sealed until it is closed; the
results offer a traveller export (board, pairs, contract, result, board result, match
points). Played by single players with changing partners or by fixed pairs."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .base import (
    BALANCE_BY_RATING,
    CHANGING_PARTNERS,
    FIXED_PAIRS,
    FORBIDDEN_PAIRINGS,
    MATCH_POINTS,
    PAIRS_AND_FINALS,
    PERCENTAGE,
    RATE_DIRECTIONS,
    ROUND_ROBIN,
    SEED_BY_RATING,
    SWISS,
    FormatProfile,
)

#: The duplicate profiles' common answers.
_DUPLICATE = {
    "standings": MATCH_POINTS,
    "standings_words": _(
        "Every table plays the same boards; each board's result is compared with the "
        "other tables' for match points, and the evening ranks by their percentage."
    ),
    "boards": True,
    "thrown_in_played": True,
    "score_template": "tablet/_score_boards.html",
    "points_score_template": "tablet/_score_boards.html",
    "terms_template": "duplicate/_score_terms.html",
    "player_template": "public/_player_board_result.html",
    "player_heading": _("Match points"),
    "outcome": PERCENTAGE,
    "rating": RATE_DIRECTIONS,
    "exports": (("duplicate-traveller-csv", _("Travellers (CSV)")),),
    "seals_until_closed": True,
    "duplicate": True,
}


class DuplicateProfile(FormatProfile):
    """Duplicate: its rounds are sealed until closed, whatever the entrants' format."""

    def rows(self, prefix: str = "") -> Q:
        return Q(**{f"{prefix}tournament__duplicate": True})


DUPLICATE = DuplicateProfile(
    key="duplicate",
    format="individual",
    label=_("Duplicate, changing partners"),
    teams=False,
    seating=CHANGING_PARTNERS,
    settings=frozenset({BALANCE_BY_RATING, FORBIDDEN_PAIRINGS}),
    **_DUPLICATE,  # type: ignore[arg-type]
)

DUPLICATE_PAIRS = DuplicateProfile(
    key="duplicate_pairs",
    format="pairs",
    label=_("Duplicate, fixed pairs"),
    teams=True,
    seating=FIXED_PAIRS,
    team_size=2,
    settings=frozenset({SEED_BY_RATING, ROUND_ROBIN, SWISS, PAIRS_AND_FINALS}),
    **_DUPLICATE,  # type: ignore[arg-type]
)
