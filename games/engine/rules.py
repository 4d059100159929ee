"""The rules configuration: one frozen ``Options`` object and the named presets.

``resolve_rules`` turns the record's ``rules`` field (absent, a preset name, or
``{"preset": ..., "options": {...}}``) into ``(preset_name, Options)``. It does not
know how the options are applied; the play and scoring modules read them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from .errors import RulesError

Scoring = Literal["klammern", "hamburg"]


@dataclass(frozen=True)
class Options:
    """Every rule switch of RULES.md; the defaults are the `klammern` preset."""

    overtrump_on_trump_lead: bool = False
    partner_exempt: bool = False
    meld_tie_by_suit: bool = False
    revoke_clean_team_takes_all: bool = False
    failed_game_gives_all: bool = True
    liga_target: int = 51
    hamburg_target: int = 6
    scoring: Scoring = "klammern"

    def to_dict(self) -> dict[str, Any]:
        """All options by name."""
        return dataclasses.asdict(self)


DEFAULT_PRESET: Final = "klammern"
PRESETS: Final[dict[str, Options]] = {
    "klammern": Options(),
    "klammern-hamburg": Options(scoring="hamburg"),
}

_FIELDS: Final = {f.name: f for f in dataclasses.fields(Options)}


def _check_value(name: str, value: object) -> None:
    default = getattr(PRESETS[DEFAULT_PRESET], name)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RulesError(f"option {name} must be true or false", option=name)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RulesError(f"option {name} must be a positive whole number", option=name)
    elif value not in ("klammern", "hamburg"):
        raise RulesError(f"option {name} must be 'klammern' or 'hamburg'", option=name)


def _preset(name: object) -> Options:
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError(f"unknown rules preset {name!r}", preset=str(name))
    return PRESETS[name]


def resolve_rules(rules: object) -> Options:
    """The options for a record's ``rules`` field; raises ``RulesError`` when unknown."""
    return resolve_named_rules(rules)[1]


def resolve_named_rules(rules: object) -> tuple[str, Options]:
    """Like ``resolve_rules`` but also returns the preset name."""
    if rules is None:
        return DEFAULT_PRESET, PRESETS[DEFAULT_PRESET]
    if isinstance(rules, str):
        return rules, _preset(rules)
    if not isinstance(rules, dict):
        raise RulesError("rules must be a preset name or an object")
    unknown = set(rules) - {"preset", "options"}
    if unknown:
        raise RulesError(f"unknown rules field {sorted(unknown)[0]!r}", field=sorted(unknown)[0])
    name = rules.get("preset", DEFAULT_PRESET)
    base = _preset(name)
    options = rules.get("options", {})
    if not isinstance(options, dict):
        raise RulesError("rules options must be an object")
    for key, value in options.items():
        if key not in _FIELDS:
            raise RulesError(f"unknown rules option {key!r}", option=str(key))
        _check_value(key, value)
    return str(name), dataclasses.replace(base, **options)


@lru_cache(maxsize=256)
def _options_items(options: Options) -> tuple[tuple[str, Any], ...]:
    return tuple(options.to_dict().items())


#: The presets' option dicts by object identity (hashing an Options costs more than
#: copying its dict); each entry keeps its Options alive, so its id stays its own.
_PRESET_DICTS: Final = {id(o): (o, o.to_dict()) for o in PRESETS.values()}


def rules_dict(preset: str, options: Options) -> dict[str, Any]:
    """The ``rules`` entry of a result (a fresh dict each time)."""
    known = _PRESET_DICTS.get(id(options))
    if known is not None and known[0] is options:
        return {"preset": preset, "options": known[1].copy()}
    return {"preset": preset, "options": dict(_options_items(options))}
