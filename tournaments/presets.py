"""The platform's knowledge of the engine's rules presets (RULES.md, "Presets for related
games"): which game a tournament plays, how many sit at a table, how long a table's match
is and how its standings rank.

What it does
- ``tournament_rules`` resolves a tournament's ``rules_preset`` and ``rules_options``
  through the engine (``RulesError`` for an unknown preset or option); the services call
  it before a tournament is stored, so no tournament can exist whose every deal the
  engine would refuse.
- ``game_of`` tells the three kinds apart: ``klammern`` (the Klammern presets: small/big
  points or Liga-Partie, the platform's long-standing behaviour), ``klaverjas`` (two
  teams, a points match of 16 deals or to a target, ranked by match points then total
  points) and ``solo`` (``klammern-2``/``klammern-3``: tables of 2 or 3 single players).
- ``match_plan`` is the length of a points match as the engine's options say
  (``match_by``, ``deals_per_match``, ``target_points``).

What it does not do
- No Django, no I/O: values in, values out (the engine's ``Options``). Labels for people
  are the web layer's (they need translation).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games import engine

#: The presets a tournament may play, in the order the console offers them.
PRESET_NAMES: tuple[str, ...] = tuple(engine.PRESETS)


class Game(StrEnum):
    KLAMMERN = "klammern"
    KLAVERJAS = "klaverjas"
    SOLO = "solo"


@dataclass(frozen=True)
class MatchPlan:
    """A points match: ``deals`` deals when ``by_deals``, else to ``target`` points."""

    by_deals: bool
    deals: int
    target: int


def tournament_rules(preset: str, options: Mapping[str, Any] | None) -> engine.Options:
    """The engine's options for a tournament's preset and options; ``engine.RulesError``
    names the unknown preset or option (or the bad value)."""
    if not isinstance(preset, str):
        raise engine.RulesError("the rules preset must be a name")
    if options is not None and not isinstance(options, Mapping):
        raise engine.RulesError("rules options must be an object")
    return engine.resolve_rules({"preset": preset, "options": dict(options or {})})


def game_of(options: engine.Options) -> Game:
    if not engine.is_team_game(options):
        return Game.SOLO
    return Game.KLAVERJAS if options.game == "klaverjas" else Game.KLAMMERN


def is_points_game(options: engine.Options) -> bool:
    """Klaverjas and 2/3 players: a match of summed deal points (``engine.score_match``)."""
    return game_of(options) is not Game.KLAMMERN


def seats_per_table(options: engine.Options) -> int:
    return engine.player_count(options)


def match_plan(options: engine.Options) -> MatchPlan:
    return MatchPlan(
        by_deals=options.match_by == "deals",
        deals=options.deals_per_match,
        target=options.target_points,
    )
