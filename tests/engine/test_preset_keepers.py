"""Points-match keepers of the new presets, and the command line's random deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    PRESETS,
    KeeperError,
    score_klaverjas_match,
    score_match,
    score_solo_match,
)

ROOT = Path(__file__).resolve().parents[2]


def deal(*points: int, outcome: str = "made") -> dict[str, Any]:
    return {"valid": True, "outcome": outcome, "points": list(points)}


def test_klaverjas_16_deals_higher_total_wins() -> None:
    results = [deal(100, 62)] * 15
    state = score_klaverjas_match(results)
    assert not state.finished and state.deals == 15
    state = score_klaverjas_match([*results, deal(0, 262)])
    assert state.finished and state.winner == 0 and state.match_points == (2, 0)
    assert state.points == (1500, 930 + 262)


def test_klaverjas_thrown_in_not_counted_and_draw() -> None:
    results = [deal(81, 81), {"valid": True, "outcome": "thrown_in", "points": [0, 0]}]
    state = score_klaverjas_match(results * 8, deals_per_match=8)
    assert state.finished and state.winner is None and state.match_points == (1, 1)


def test_klaverjas_target_and_game_over() -> None:
    state = score_klaverjas_match([deal(400, 0)] * 3, deals_per_match=None, target=1500)
    assert not state.finished
    more = [deal(400, 0)] * 3 + [deal(400, 200)]
    state = score_klaverjas_match(more, deals_per_match=None, target=1500)
    assert state.finished and state.winner == 0
    with pytest.raises(KeeperError):
        score_klaverjas_match([deal(800, 0)] * 3, deals_per_match=None, target=1500)


def test_solo_to_500_most_points_wins() -> None:
    state = score_solo_match([deal(200, 100, 0)] * 2, players=3)
    assert not state.finished
    state = score_solo_match([deal(200, 100, 0)] * 3, players=3)
    assert state.finished and state.winner == 0 and state.points == (600, 300, 0)
    with pytest.raises(KeeperError):
        score_solo_match([deal(1, 2)], players=3)


def test_score_match_follows_the_preset() -> None:
    state = score_match([deal(300, 0)] * 2, PRESETS["klammern-2"])
    assert state.finished and state.sides == 2 and state.target == 500
    state = score_match([deal(10, 0)] * 16, PRESETS["klaverjas-amsterdam"])
    assert state.finished and state.deals_per_match == 16
    with pytest.raises(KeeperError):
        score_match([], PRESETS["klammern"])


@pytest.mark.parametrize(
    "preset", ["klaverjas-rotterdam", "klaverjas-amsterdam", "klammern-2", "klammern-3"]
)
def test_cli_random_deals_are_accepted(preset: str) -> None:
    run = [sys.executable, "-m", "games.engine"]
    records = subprocess.run(
        [*run, "random", "--seed", "4", "--count", "40", "--rules", preset],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    checked = subprocess.run(
        [*run, "check", "--jsonl", "-"], input=records, capture_output=True, text=True, cwd=ROOT
    )
    assert checked.returncode == 0, checked.stdout[-500:]
    lines = [json.loads(line) for line in checked.stdout.splitlines()]
    assert len(lines) == 40 and all(r["rules"]["preset"] == preset for r in lines)
