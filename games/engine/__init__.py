"""The Klammern rules engine: a pure standard-library package.

Checks deal records (``check``), analyses full deals under perfect play
(``analyse``, ``deal_par``, ``perfect_line``), generates random legal deals (``random_deal``) and
keeps score over a sequence of deals (``score_small_big``, ``score_liga``,
``score_hamburg``; ``score_match`` for Klaverjas, Belote, Belote Contrée, the Schieber and
Klammern for 2 or 3 players; ``until_over`` stops any of them at the deal that ended the
match); ``next_dealer`` says who deals next. ``PRESETS`` names the first platform's rule
configurations, ``ENGINE_ONLY_PRESETS`` those the engine had before the platform's game
profiles (Belote, Belote Contrée and the 36-card Schieber; offered through those
profiles, see ``rules``), ``ALL_PRESETS`` both; ``deck_texts`` gives a preset's
card texts (36 for the Schieber, 32 for the rest); ``player_count`` says how many sit at
a table of a preset. It imports nothing outside the standard library and never touches
Django, a database, the clock or global random state.

When ``scripts/build_engine.py`` has compiled the engine with mypyc from exactly these
sources, the compiled modules are imported instead (see ``native``); set
``KLAMMERN_ENGINE=python`` to run the sources.
"""

from .native import native_path

if (_compiled := native_path()) is not None:
    __path__.insert(0, _compiled)

from .analysis import (
    ANALYSIS_VERSION,
    BAD_CARD,
    BAD_POSITION,
    GAME_NOT_ANALYSABLE,
    NOT_ANALYSABLE,
    analyse,
    deal_par,
    perfect_line,
)
from .cards import CARD_BY_TEXT, CARD_TEXT, TABLES, Suit
from .dispatch import check
from .errors import Code, EngineError, KeeperError, Problem, RulesError
from .jass import deck_texts
from .keepers import (
    HamburgMatchState,
    HamburgState,
    LigaState,
    PointsMatchState,
    SmallBigState,
    score_hamburg,
    score_hamburg_match,
    score_klaverjas_match,
    score_liga,
    score_match,
    score_small_big,
    score_solo_match,
    until_over,
)
from .native import running_native
from .play import legal_cards, trick_winner
from .randomdeal import random_deal
from .record import ENGINE_VERSION
from .rules import (
    ALL_PRESETS,
    ENGINE_ONLY_PRESETS,
    FIRST_DEALER,
    PRESETS,
    Options,
    is_team_game,
    next_dealer,
    player_count,
    resolve_rules,
    same_dealer_after_thrown_in,
)

__all__ = [
    "ALL_PRESETS",
    "ANALYSIS_VERSION",
    "BAD_CARD",
    "BAD_POSITION",
    "ENGINE_ONLY_PRESETS",
    "FIRST_DEALER",
    "GAME_NOT_ANALYSABLE",
    "NOT_ANALYSABLE",
    "CARD_BY_TEXT",
    "CARD_TEXT",
    "ENGINE_VERSION",
    "PRESETS",
    "TABLES",
    "Code",
    "EngineError",
    "HamburgMatchState",
    "HamburgState",
    "KeeperError",
    "LigaState",
    "PointsMatchState",
    "Options",
    "Problem",
    "RulesError",
    "SmallBigState",
    "Suit",
    "analyse",
    "check",
    "deal_par",
    "perfect_line",
    "deck_texts",
    "is_team_game",
    "player_count",
    "running_native",
    "legal_cards",
    "next_dealer",
    "random_deal",
    "resolve_rules",
    "same_dealer_after_thrown_in",
    "score_hamburg",
    "score_hamburg_match",
    "score_klaverjas_match",
    "score_liga",
    "score_match",
    "score_small_big",
    "score_solo_match",
    "trick_winner",
    "until_over",
]
