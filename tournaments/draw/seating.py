"""Fair seating for Klammern tournaments: the one entry to the draw methods.

What it does
- Names every draw method (``METHODS``, as Tabbycat's ``DrawGenerator`` names its
  generators) and hands a round to the method asked for (``draw``). Each method lives in
  its own module of ``tournaments.draw.methods``:
  - ``individual``: ``draw_individual`` seats the active entrants of one round at tables of
    four (partners opposite: seats 0 & 2 against 1 & 3, seat 0 deals first) and hands out
    the byes;
  - ``small_tables``: ``draw_small_tables``, the same for tables of two or three;
  - ``pairs``: ``draw_pairs`` sets fixed pairs against each other (two pairs a table),
    optionally Swiss-style by standing;
  - ``league_fixtures``, a season's (or a round-robin pairs tournament's) fixture list
    by the circle method (single or home and away); a schedule, not a round's draw, so
    it is called directly. It lives with the leagues (``tournaments/leagues/fixtures.py``:
    the league services schedule a season below the draw) and is offered here too.
- Re-exports the inputs and outputs callers build and read (``Entrant``,
  ``SeatingHistory``, ``history_from_tables``, ``Draw``...), so callers import this module
  only.

What it does not do
- No Django, no I/O, no clock, no global random state. Everything is a pure function of its
  arguments: the same entrants, history, seed, round number and attempt always give the
  same draw. The platform loads rows, calls these functions and saves the result.
- It does not score byes; ``tournaments.results.standings`` does (a tournament setting).
- It does not know about late arrivals or withdrawals: the caller passes the set of
  entrants active in this round plus the history of earlier rounds.

How to add a draw method: a module in ``tournaments/draw/methods/`` with a pure function
``(entrants, history, *, round_number, seed, attempt, ...) -> DrawnRound`` built on
``methods.base``, its name in ``METHODS``, and its tests in ``tests/algorithms/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.draw.methods.base import (
    CostBreakdown,
    DrawnRound,
    Entrant,
    Pair,
    SeatingHistory,
    SeatingOptions,
    Table,
)
from tournaments.draw.methods.individual import (
    Draw,
    draw_individual,
    history_from_tables,
    rating_cost,
    rating_gap,
)
from tournaments.draw.methods.pairs import (
    PairCostBreakdown,
    PairDraw,
    PairHistory,
    draw_pairs,
    pair_history_from_tables,
    round_robin,
    swiss_seeding,
)
from tournaments.draw.methods.small_tables import (
    SMALL_TABLE_SIZES,
    SmallTable,
    SmallTableDraw,
    draw_small_tables,
    small_table_history,
)
from tournaments.leagues.fixtures import LeagueRound, league_fixtures

__all__ = [
    "METHODS",
    "SMALL_TABLE_SIZES",
    "CostBreakdown",
    "Draw",
    "DrawnRound",
    "Entrant",
    "LeagueRound",
    "Pair",
    "PairCostBreakdown",
    "PairDraw",
    "PairHistory",
    "SeatingHistory",
    "SeatingOptions",
    "SmallTable",
    "SmallTableDraw",
    "Table",
    "draw",
    "draw_individual",
    "draw_pairs",
    "round_robin",
    "swiss_seeding",
    "draw_small_tables",
    "history_from_tables",
    "league_fixtures",
    "pair_history_from_tables",
    "rating_cost",
    "rating_gap",
    "small_table_history",
]

#: Every round's draw method by name: ``(entrants, history, *, round_number, seed,
#: attempt, ...)`` to the round's tables, byes and cost report.
METHODS: Mapping[str, Callable[..., DrawnRound]] = {
    "individual": draw_individual,
    "small_tables": draw_small_tables,
    "pairs": draw_pairs,
}


def draw(method: str, entrants: Any, history: Any, **options: Any) -> DrawnRound:
    """Draw one round by the method named ``method`` (a key of ``METHODS``); ``options``
    are that method's keyword arguments. Raises ``ValueError`` for an unknown method and
    whatever the method raises for inputs it cannot draw."""
    try:
        method_function = METHODS[method]
    except KeyError:
        raise ValueError(f"no draw method {method!r} (known: {', '.join(METHODS)})") from None
    return method_function(entrants, history, **options)
