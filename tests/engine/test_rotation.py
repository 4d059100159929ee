"""Who deals next, and a match kept only up to the deal that ended it: one function each
in the engine (``next_dealer``, ``until_over``), table-driven, no database."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from games import engine
from games.engine.rules import PRESETS, resolve_named_rules

BELOTE = resolve_named_rules("belote")[1]


@pytest.mark.parametrize(
    ("preset", "dealer", "thrown_in", "expected"),
    [
        ("klammern", 0, False, 1),
        ("klammern", 3, False, 0),
        ("klammern", 2, True, 2),  # Klammern for four: the same dealer deals again
        ("klammern-hamburg", 1, True, 1),
        ("klaverjas-rotterdam", 3, False, 0),
        ("klammern-3", 2, False, 0),
        ("klammern-3", 1, True, 2),  # 2 or 3 players: the next player deals
        ("klammern-2", 1, False, 0),
        ("klammern-2", 0, True, 1),
    ],
)
def test_the_deal_passes_clockwise_by_the_rules(
    preset: str, dealer: int, thrown_in: bool, expected: int
) -> None:
    assert engine.next_dealer(dealer, thrown_in=thrown_in, options=PRESETS[preset]) == expected


def test_belote_passes_the_deal_after_a_thrown_in_one() -> None:
    assert not engine.same_dealer_after_thrown_in(BELOTE)
    assert engine.next_dealer(3, thrown_in=True, options=BELOTE) == 0
    assert engine.same_dealer_after_thrown_in(PRESETS["klammern"])
    assert engine.FIRST_DEALER == 0


def test_belote_contree_passes_the_deal_after_a_thrown_in_one() -> None:
    contree = resolve_named_rules("belote-contree")[1]
    assert not engine.same_dealer_after_thrown_in(contree)
    assert engine.next_dealer(1, thrown_in=True, options=contree) == 2


def liga_deal(points: tuple[int, int], *, winner: int = 0, march: bool = False) -> dict[str, Any]:
    return {
        "valid": True,
        "outcome": "made",
        "match_points": list(points),
        "winner_team": winner,
        "playing_team": winner,
        "march": march,
    }


def test_a_march_corrected_in_ends_the_partie_before_the_later_deals() -> None:
    results = [liga_deal((10, 6)), liga_deal((17, 0), march=True), liga_deal((9, 7))]
    with pytest.raises(engine.KeeperError):
        engine.score_liga(results, target=51)
    state = engine.until_over(partial(engine.score_liga, target=51), results)
    assert state.finished and state.winner == 0 and state.points == (27, 6)
    assert len(state.history) == 2


def test_a_match_not_over_counts_every_deal_and_other_errors_are_raised() -> None:
    results = [liga_deal((10, 6)), liga_deal((9, 7))]
    assert engine.until_over(partial(engine.score_liga, target=51), results).points == (19, 13)
    with pytest.raises(engine.KeeperError, match="not a valid deal result"):
        engine.until_over(partial(engine.score_liga, target=51), [{"valid": False}])
