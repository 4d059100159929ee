"""The game profiles: one object per game that the platform asks for everything that
differs between games (``GameProfile`` in ``base``; the games in ``klammern``,
``klaverjas``, ``solo``, ``belote``, ``contree``, ``schieber``). Outside this package and
the engine no module names a game.

The registry
- ``PROFILES``: every profile by key (the engine preset it starts from), in the order the
  console offers them; ``PRESET_NAMES`` those keys.
- ``profile_of(options)``: the profile of resolved rules (the first whose ``plays``
  accepts them: ``klammern`` with the option ``scoring: hamburg`` is Hamburg; Amsterdam's
  options find Rotterdam's profile, which differs only in its label).
- ``profile_for(preset, options)``: the profile of a tournament's ``rules_preset`` and
  ``rules_options``; ``tournament_rules`` the engine's options for them
  (``engine.RulesError`` names an unknown preset or option).
- ``rating_pools()``: the rating pools with their labels.

Adding a game: a module here making its profile(s), an entry in ``PROFILES``
(see docs/architecture.md, "How to add a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import engine

from .base import (
    FRENCH,
    SUIT_NAMES,
    SUIT_STYLES,
    SWISS,
    Column,
    DealColumn,
    EntrySheet,
    GameProfile,
    Label,
    MatchState,
    suit_style,
)
from .belote import BELOTE
from .contree import CONTREE
from .klammern import HAMBURG, KLAMMERN
from .klaverjas import AMSTERDAM, ROTTERDAM
from .schieber import SCHIEBER
from .solo import THREE, TWO

#: Every game the platform offers, by key, in the order the console lists them.
PROFILES: dict[str, GameProfile] = {
    profile.key: profile
    for profile in (KLAMMERN, HAMBURG, ROTTERDAM, AMSTERDAM, TWO, THREE, BELOTE, CONTREE, SCHIEBER)
}
#: The presets a tournament may play.
PRESET_NAMES: tuple[str, ...] = tuple(PROFILES)
#: The game a tournament or league plays unless the organiser picks another.
DEFAULT_PRESET: str = KLAMMERN.key
#: The rating pool shown unless another is asked for (the default game's).
DEFAULT_RATING_POOL: str = KLAMMERN.rating_pool


def tournament_rules(preset: str, options: Mapping[str, Any] | None) -> engine.Options:
    """The engine's options for a tournament's preset and options; ``engine.RulesError``
    names the unknown preset or option (or the bad value)."""
    if not isinstance(preset, str):
        raise engine.RulesError("the rules preset must be a name")
    if options is not None and not isinstance(options, Mapping):
        raise engine.RulesError("rules options must be an object")
    include = preset in PROFILES
    return engine.resolve_rules(
        {"preset": preset, "options": dict(options or {})}, include_engine_only=include
    )


def profile_of(options: engine.Options) -> GameProfile:
    """The profile of resolved rules; ``LookupError`` if no profile plays them."""
    for profile in PROFILES.values():
        if profile.plays(options):
            return profile
    raise LookupError(f"no game profile plays {options!r}")


def profile_for(preset: str, options: Mapping[str, Any] | None = None) -> GameProfile:
    """The profile of a tournament's rules preset and options: the preset's own unless
    its options make it another game (``klammern`` scoring the Hamburg way)."""
    rules = tournament_rules(preset, options)
    named = PROFILES.get(preset)
    return named if named is not None and named.plays(rules) else profile_of(rules)


def preset_label(preset: str) -> str:
    """The game of a preset in words ("Klaverjas, Rotterdam rules"); the name itself
    for a preset no profile knows."""
    profile = PROFILES.get(preset)
    return preset if profile is None else str(profile.label)


def pool_games(pool: str) -> list[Label]:
    """The games whose tables count in a rating pool, in words."""
    return [p.label for p in PROFILES.values() if p.rating_pool == pool]


def rating_pools() -> dict[str, Label]:
    """The rating pools the games count in, with their labels, in the profiles' order."""
    pools: dict[str, Label] = {}
    for profile in PROFILES.values():
        if profile.rating_pool:
            pools.setdefault(profile.rating_pool, profile.rating_pool_label)
    return pools


__all__ = [
    "DEFAULT_PRESET",
    "DEFAULT_RATING_POOL",
    "FRENCH",
    "PRESET_NAMES",
    "PROFILES",
    "SUIT_NAMES",
    "SUIT_STYLES",
    "SWISS",
    "Column",
    "DealColumn",
    "EntrySheet",
    "GameProfile",
    "Label",
    "MatchState",
    "preset_label",
    "profile_for",
    "profile_of",
    "pool_games",
    "rating_pools",
    "suit_style",
    "tournament_rules",
]
