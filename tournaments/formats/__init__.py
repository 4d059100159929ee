"""The format profiles: one object per tournament format that the platform asks for
everything that differs between formats (``FormatProfile`` in ``base``; the formats in
``individual``, ``pairs``, ``duplicate``, ``finals``, ``league``). Outside this package,
the models and the migrations no module names a format.

The registry
- ``FORMATS``: every profile a tournament may have, in the order the registry asks them.
- ``format_profile(tournament)``: a tournament's profile (its ``format`` and its
  ``duplicate`` setting); ``round_profile(round_)`` a round's (a finals round's is
  ``FINALS``); ``format_named(game_format, duplicate=)`` the profile of a form's or the
  API's choice.
- ``sealed(round_)``, ``unsealed(prefix)``: whether a round's deals are hidden now, and
  the filter for the rows whose deals are not (``tournaments.deals.visibility`` asks).

Adding a format: a module here making its profile, an entry in ``FORMATS`` (see
docs/architecture.md, "How to add a format").
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from .base import (
    BALANCE_BY_RATING,
    CHANGING_PARTNERS,
    DRAWN_BY_ORGANISER,
    FINALS_SEEDING,
    FIXED_PAIRS,
    FORBIDDEN_PAIRINGS,
    LEAGUE_POINTS,
    MATCH_DAY,
    MATCH_POINTS,
    PAIRS_AND_FINALS,
    PERCENTAGE,
    RATE_DIRECTIONS,
    RATE_TABLES,
    ROUND_ROBIN,
    SEED_BY_RATING,
    SWISS,
    TABLE_RESULT,
    FormatProfile,
)
from .duplicate import DUPLICATE, DUPLICATE_PAIRS
from .finals import FINALS, KNOCKOUT
from .individual import INDIVIDUAL
from .league import LEAGUE
from .pairs import PAIRS

#: Every format a tournament may have, in the order the registry asks them.
FORMATS: tuple[FormatProfile, ...] = (INDIVIDUAL, PAIRS, LEAGUE, DUPLICATE, DUPLICATE_PAIRS)
#: The formats the new-tournament form offers (duplicate is a setting beside them).
CHOICES: tuple[FormatProfile, ...] = (INDIVIDUAL, PAIRS, LEAGUE)
#: The stage of a preliminary round (``Round.Stage.PRELIMINARY``); others are finals.
PRELIMINARY = "preliminary"


def format_named(game_format: str, *, duplicate: bool = False) -> FormatProfile:
    """The profile of a tournament format and duplicate setting (a form's or the API's
    choice; a format not played in duplicate answers as itself); ``LookupError`` for an
    unknown format."""
    for wanted in (duplicate, False):
        for profile in FORMATS:
            if profile.plays(game_format=game_format, duplicate=wanted):
                return profile
    raise LookupError(f"no format profile plays {game_format!r} (duplicate: {duplicate})")


def format_profile(tournament: Any) -> FormatProfile:
    """A tournament's format profile (read from its ``format`` and ``duplicate``: no
    query)."""
    return format_named(tournament.format, duplicate=bool(tournament.duplicate))


def round_profile(round_: Any) -> FormatProfile:
    """A round's format profile: ``FINALS`` for a finals round, else its tournament's."""
    if getattr(round_, "stage", PRELIMINARY) != PRELIMINARY:
        return FINALS
    return format_profile(round_.tournament)


def sealed(round_: Any) -> bool:
    """Whether a round's deals are hidden now from everyone but their table and the
    organisers (its tournament's format says when)."""
    return format_profile(round_.tournament).sealed(round_.status)


def unsealed(prefix: str = "") -> Q:
    """A filter for the rounds (or rows reached through ``prefix``, e.g. ``"round__"``)
    whose deals everyone who may see them may see now."""
    sealed_now: list[Q] = []
    for profile in FORMATS:
        rows = profile.sealed_rows(prefix)
        if rows is not None and rows not in sealed_now:
            sealed_now.append(rows)
    query = Q()
    for rows in sealed_now:
        query &= ~rows
    return query


def evening_formats() -> list[str]:
    """The ``Tournament.format`` values of club evenings (the club page, seasons)."""
    return sorted({p.format for p in FORMATS if p.evening})


def league_formats() -> list[str]:
    """The ``Tournament.format`` values whose tables count in league tables."""
    return sorted({p.format for p in FORMATS if p.standings == LEAGUE_POINTS})


def team_formats() -> list[str]:
    """The ``Tournament.format`` values whose entrants are teams."""
    return sorted({p.format for p in FORMATS if p.teams})


__all__ = [
    "BALANCE_BY_RATING",
    "CHANGING_PARTNERS",
    "CHOICES",
    "DRAWN_BY_ORGANISER",
    "DUPLICATE",
    "DUPLICATE_PAIRS",
    "FINALS",
    "FINALS_SEEDING",
    "FIXED_PAIRS",
    "FORBIDDEN_PAIRINGS",
    "FORMATS",
    "INDIVIDUAL",
    "KNOCKOUT",
    "LEAGUE",
    "LEAGUE_POINTS",
    "MATCH_DAY",
    "MATCH_POINTS",
    "PAIRS",
    "PAIRS_AND_FINALS",
    "PERCENTAGE",
    "RATE_DIRECTIONS",
    "RATE_TABLES",
    "ROUND_ROBIN",
    "SEED_BY_RATING",
    "SWISS",
    "TABLE_RESULT",
    "FormatProfile",
    "evening_formats",
    "format_named",
    "league_formats",
    "format_profile",
    "round_profile",
    "sealed",
    "team_formats",
    "unsealed",
]
