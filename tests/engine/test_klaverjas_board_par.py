"""A Klaverjas board's par from its dealt hands (a duplicate board entered as a summary):
the same as ``analyse_klaverjas`` gives the full record of those hands in that trump."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine.cards import CARD_BY_TEXT, SUIT_BY_TEXT
from games.engine.klaverjas_analysis import board_par


@pytest.mark.parametrize("preset", ["klaverjas-rotterdam", "klaverjas-amsterdam"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_par_is_the_full_records_par(preset: str, seed: int) -> None:
    record = engine.random_deal(random.Random(seed), dealer=seed % 4, rules=preset)
    assert "revoke" not in record  # these seeds play every card
    analysis = engine.analyse(record, best_cards=False)
    assert analysis["analysed"] is True
    hands = [sum(1 << CARD_BY_TEXT[c] for c in hand) for hand in record["hands"]]
    scored = board_par(
        hands,
        trump=SUIT_BY_TEXT[record["contract"]["trump"]],
        forehand=(record["dealer"] + 1) % 4,
        options=engine.resolve_rules(preset),
    )
    assert scored["points"] == analysis["par"]
    assert scored["outcome"] == analysis["par_outcome"]
