"""A game's profile decides whether its hand records wait for a perfect-play analysis
(``analysable``); the engine's ``analyse`` must then analyse its full records, and answer
``game_not_analysable`` for every other game's (docs/analysis.md)."""

from __future__ import annotations

import random

import pytest

from games import engine, profiles


def _played(preset: str) -> dict[str, object]:
    """A full record of the preset in which cards were played."""
    rng = random.Random(7)
    for dealer in range(40):
        record = engine.random_deal(rng, dealer=dealer % 4, rules=preset)
        if record.get("plays"):
            return record
    raise AssertionError(f"no played deal of {preset} among 40")


@pytest.mark.parametrize("preset", profiles.PRESET_NAMES)
def test_the_profile_says_whether_the_engine_analyses_its_deals(preset: str) -> None:
    record = _played(preset)
    assert engine.check(record)["valid"]
    out = engine.analyse(record, best_cards=False)
    assert out["valid"]
    assert out["analysed"] is profiles.profile_for(preset).analysable, out["errors"]
    if not out["analysed"]:
        assert [e["code"] for e in out["errors"]] == [engine.GAME_NOT_ANALYSABLE]
