"""The Klammern rules engine: a pure standard-library package.

Checks deal records (``check``), generates random legal deals (``random_deal``) and
keeps score over a sequence of deals (``score_small_big``, ``score_liga``,
``score_hamburg``). It imports nothing outside the standard library and never touches
Django, a database, the clock or global random state.

When ``scripts/build_engine.py`` has compiled the engine with mypyc from exactly these
sources, the compiled modules are imported instead (see ``native``); set
``KLAMMERN_ENGINE=python`` to run the sources.
"""

from .native import native_path

if (_compiled := native_path()) is not None:
    __path__.insert(0, _compiled)

from .cards import CARD_BY_TEXT, CARD_TEXT, TABLES, Suit
from .errors import Code, EngineError, KeeperError, Problem, RulesError
from .keepers import (
    HamburgState,
    LigaState,
    SmallBigState,
    score_hamburg,
    score_liga,
    score_small_big,
)
from .native import running_native
from .play import legal_cards, trick_winner
from .randomdeal import random_deal
from .record import ENGINE_VERSION, check
from .rules import PRESETS, Options, resolve_rules

__all__ = [
    "CARD_BY_TEXT",
    "CARD_TEXT",
    "ENGINE_VERSION",
    "PRESETS",
    "TABLES",
    "Code",
    "EngineError",
    "HamburgState",
    "KeeperError",
    "LigaState",
    "Options",
    "Problem",
    "RulesError",
    "SmallBigState",
    "Suit",
    "check",
    "running_native",
    "legal_cards",
    "random_deal",
    "resolve_rules",
    "score_hamburg",
    "score_liga",
    "score_small_big",
    "trick_winner",
]
