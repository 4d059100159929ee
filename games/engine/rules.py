"""The rules configuration: one frozen ``Options`` object and the named presets.

``resolve_rules`` turns the record's ``rules`` field (absent, a preset name, or
``{"preset": ..., "options": {...}}``) into ``(preset_name, Options)``. It does not
know how the options are applied; the play and scoring modules read them.

Presets: ``klammern`` and ``klammern-hamburg`` (4 players, the Klammern record),
``klaverjas-rotterdam`` and ``klaverjas-amsterdam`` (``game`` = ``"klaverjas"``),
``klammern-2`` / ``klammern-3`` (``players`` = 2 or 3), ``belote`` (``game`` =
``"belote"``), ``belote-contree`` (``game`` = ``"contree"``, Belote Contrée: an auction of
point contracts, coinche and surcoinche) and ``schieber`` (``game`` = ``"schieber"``, the
36-card Schieberjass, whose ``multipliers`` option scales a deal's points by its trump or
mode).

``PRESETS`` are the presets of the first platform (the Klammern, Klaverjas and
2/3-player presets); ``ENGINE_ONLY_PRESETS`` are the games added to the engine before
the platform had their game profiles: Belote, the Schieber and Belote Contrée. Belote
and the Schieber are offered for tournaments now, through their profiles
(``games/profiles``); Belote Contrée is offered once it has its profile. ``ALL_PRESETS``
is both. ``resolve_named_rules`` (the engine's own door: ``check``, ``random_deal``, the
keepers) knows all of them; ``resolve_rules``, the platform's door, refuses an
engine-only preset unless ``include_engine_only=True`` is passed, which the profiles'
registry does for a preset it has a profile of, so a tournament cannot be stored with
rules the platform does not know how to run. ``game`` and ``players`` are fixed by the
preset and cannot be set as options. The legal-move switches combine:
``overtrump_on_trump_lead``; ``no_undertrump`` (Klaverjas: a player who cannot follow
and cannot overtrump plays a side card if held; Klammern must undertrump);
``partner_exempt`` (a player who cannot follow while the partner heads the trick is
freed from the duty to trump and overtrump; together with ``no_undertrump`` the ban on
a lower trump stays, which is Amsterdam's rule); ``partner_exempt_trump_lead`` (Belote:
on a trump lead too, a player whose partner heads the trick need not go higher);
``free_when_outtrumped`` (Belote Contrée: a player who cannot follow and cannot beat the
trump heading the trick may play any card, a lower trump or a side card).
``trump_by`` (Klaverjas): ``turned`` (trump is the upcard's suit, the upcard may be
recorded) or ``forehand`` ("verplicht": forehand chooses, the record has no upcard).

An options object's ``to_dict`` lists the options that concern its game (for the two
Klammern presets exactly the eight of version 1.0, so their results are unchanged),
plus any other option that differs from its default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from .errors import RulesError

Scoring = Literal["klammern", "hamburg"]
Game = Literal["klammern", "klaverjas", "belote", "contree", "schieber"]
TrumpBy = Literal["turned", "forehand"]
MatchBy = Literal["deals", "target"]


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
    #: Klaverjas: no undertrumping unless holding nothing but trumps.
    no_undertrump: bool = False
    #: Fixed by the preset: the game's record and scoring, and the number of players.
    game: Game = "klammern"
    players: int = 4
    #: Klaverjas and 2/3 players: a match of ``deals_per_match`` deals or to
    #: ``target_points``, as ``match_by`` says.
    match_by: MatchBy = "deals"
    deals_per_match: int = 16
    target_points: int = 1500
    #: Klaverjas: trump is the upcard's suit (``turned``) or forehand's choice
    #: (``forehand``, "verplicht": the record has no upcard).
    trump_by: TrumpBy = "turned"
    #: Belote: on a trump lead a player whose partner heads the trick need not go higher.
    partner_exempt_trump_lead: bool = False
    #: Schieber: multiply a deal's points by its trump or mode (RULES.md, "on").
    multipliers: bool = False
    #: Belote Contrée: a player who cannot follow and cannot beat the trump heading the
    #: trick (no higher trump) may play any card instead of a lower trump.
    free_when_outtrumped: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The options of this game by name, plus any other that is not its default."""
        names = _GAME_FIELDS[self.game if self.players == 4 else "solo"]
        out = {name: getattr(self, name) for name in names}
        for name, default in _DEFAULTS.items():
            if name not in out and getattr(self, name) != default:
                out[name] = getattr(self, name)
        return out


_KLAMMERN_FIELDS: Final = (
    "overtrump_on_trump_lead",
    "partner_exempt",
    "meld_tie_by_suit",
    "revoke_clean_team_takes_all",
    "failed_game_gives_all",
    "liga_target",
    "hamburg_target",
    "scoring",
)
_MATCH_FIELDS: Final = ("match_by", "deals_per_match", "target_points")
_GAME_FIELDS: Final = {
    "klammern": _KLAMMERN_FIELDS,
    "klaverjas": (
        "game",
        "players",
        "overtrump_on_trump_lead",
        "partner_exempt",
        "no_undertrump",
        "trump_by",
        *_MATCH_FIELDS,
    ),
    "belote": (
        "game",
        "players",
        "overtrump_on_trump_lead",
        "partner_exempt",
        "partner_exempt_trump_lead",
        *_MATCH_FIELDS,
    ),
    "contree": (
        "game",
        "players",
        "overtrump_on_trump_lead",
        "partner_exempt",
        "partner_exempt_trump_lead",
        "free_when_outtrumped",
        *_MATCH_FIELDS,
    ),
    "schieber": ("game", "players", "multipliers", *_MATCH_FIELDS),
    "solo": (
        "game",
        "players",
        "overtrump_on_trump_lead",
        "no_undertrump",
        "meld_tie_by_suit",
        *_MATCH_FIELDS,
    ),
}
_DEFAULTS: Final = {f.name: f.default for f in dataclasses.fields(Options)}

DEFAULT_PRESET: Final = "klammern"
_KLAVERJAS: Final = Options(
    game="klaverjas",
    overtrump_on_trump_lead=True,
    no_undertrump=True,
    match_by="deals",
    deals_per_match=16,
    target_points=1500,
)
PRESETS: Final[dict[str, Options]] = {
    "klammern": Options(),
    "klammern-hamburg": Options(scoring="hamburg"),
    "klaverjas-rotterdam": _KLAVERJAS,
    "klaverjas-amsterdam": dataclasses.replace(_KLAVERJAS, partner_exempt=True),
    # 4 deals per player when a fixed number of deals is played (as Klaverjas's 16).
    "klammern-2": Options(
        players=2,
        overtrump_on_trump_lead=True,
        match_by="target",
        deals_per_match=8,
        target_points=500,
    ),
    "klammern-3": Options(
        players=3,
        overtrump_on_trump_lead=True,
        match_by="target",
        deals_per_match=12,
        target_points=500,
    ),
}
#: Presets the engine had before the platform's profiles; offered through those profiles
#: (``resolve_rules`` needs ``include_engine_only=True``; see the docstring).
ENGINE_ONLY_PRESETS: Final[dict[str, Options]] = {
    # RULES.md "Belote": partner heads the trick -> only follow suit (also on a trump
    # lead); otherwise trump, overtrump if able, else any trump (undertrumping is a duty).
    "belote": Options(
        game="belote",
        overtrump_on_trump_lead=True,
        partner_exempt=True,
        partner_exempt_trump_lead=True,
        match_by="deals",
        deals_per_match=12,
        target_points=1000,
    ),
    # RULES.md "Schieberjass": 36 cards, its own play rules (games.engine.jass); 12 deals
    # or to 2500 points (1000 short).
    "schieber": Options(game="schieber", match_by="deals", deals_per_match=12, target_points=2500),
    # RULES.md "Belote Contrée": partner heads the trick -> only follow suit (not on a
    # trump lead: there each must go higher if able); otherwise trump, overtrump if able,
    # else any card. 12 deals or to 2000 points.
    "belote-contree": Options(
        game="contree",
        overtrump_on_trump_lead=True,
        partner_exempt=True,
        free_when_outtrumped=True,
        match_by="deals",
        deals_per_match=12,
        target_points=2000,
    ),
}
ALL_PRESETS: Final[dict[str, Options]] = {**PRESETS, **ENGINE_ONLY_PRESETS}

_FIELDS: Final = {f.name: f for f in dataclasses.fields(Options)}
#: Fixed by the preset: a club picks the preset, not these.
_PRESET_ONLY: Final = ("game", "players")
_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "scoring": ("klammern", "hamburg"),
    "match_by": ("deals", "target"),
    "trump_by": ("turned", "forehand"),
}


def player_count(options: Options) -> int:
    """How many players sit at a table of this game (4, or 2/3 for ``klammern-2/3``)."""
    return options.players


def is_team_game(options: Options) -> bool:
    """True for the 4-player partnership games, False for Klammern for 2 or 3."""
    return options.players == 4


#: The seat that deals a match's first deal.
FIRST_DEALER: Final = 0


def same_dealer_after_thrown_in(options: Options) -> bool:
    """Whether a thrown-in deal is dealt again by the same dealer: Klammern for four
    (RULES.md, "Table, seats, teams"). In Belote and Klammern for 2 or 3 the next player
    deals; Klaverjas deals are never thrown in."""
    return options.game == "klammern" and options.players == 4


def next_dealer(dealer: int, *, thrown_in: bool, options: Options) -> int:
    """The seat that deals after ``dealer``'s deal: clockwise, except that a thrown-in
    deal of Klammern for four is dealt again by the same seat."""
    if thrown_in and same_dealer_after_thrown_in(options):
        return dealer % options.players
    return (dealer + 1) % options.players


def _check_value(name: str, value: object) -> None:
    default = getattr(PRESETS[DEFAULT_PRESET], name)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RulesError(f"option {name} must be true or false", option=name)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RulesError(f"option {name} must be a positive whole number", option=name)
    elif value not in _CHOICES[name]:
        allowed = " or ".join(repr(c) for c in _CHOICES[name])
        raise RulesError(f"option {name} must be {allowed}", option=name)


def _preset(name: object) -> Options:
    if not isinstance(name, str) or name not in ALL_PRESETS:
        raise RulesError(f"unknown rules preset {name!r}", preset=str(name))
    return ALL_PRESETS[name]


def resolve_rules(rules: object, *, include_engine_only: bool = False) -> Options:
    """The options for a record's ``rules`` field; raises ``RulesError`` when unknown.

    An engine-only preset (``ENGINE_ONLY_PRESETS``) is refused unless
    ``include_engine_only``:
    the platform resolves a tournament's rules here and must not store a game it cannot
    run yet."""
    name, options = resolve_named_rules(rules)
    if not include_engine_only and name in ENGINE_ONLY_PRESETS:
        raise RulesError(
            f"the rules preset {name!r} is not offered for tournaments yet", preset=name
        )
    return options


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
        if key in _PRESET_ONLY:
            raise RulesError(f"option {key} is fixed by the preset; choose a preset", option=key)
        _check_value(key, _on_off(key, value))
    options = {key: _on_off(key, value) for key, value in options.items()}
    return str(name), dataclasses.replace(base, **options)


def _on_off(key: str, value: object) -> object:
    """RULES.md words the Schieber's ``multipliers`` as off/on: accept those beside
    false/true."""
    if key == "multipliers" and value in ("on", "off"):
        return value == "on"
    return value


@lru_cache(maxsize=256)
def _options_items(options: Options) -> tuple[tuple[str, Any], ...]:
    return tuple(options.to_dict().items())


#: The presets' option dicts by object identity (hashing an Options costs more than
#: copying its dict); each entry keeps its Options alive, so its id stays its own.
_PRESET_DICTS: Final = {id(o): (o, o.to_dict()) for o in ALL_PRESETS.values()}


def rules_dict(preset: str, options: Options) -> dict[str, Any]:
    """The ``rules`` entry of a result (a fresh dict each time)."""
    known = _PRESET_DICTS.get(id(options))
    if known is not None and known[0] is options:
        return {"preset": preset, "options": known[1].copy()}
    return {"preset": preset, "options": dict(_options_items(options))}
