"""Scorekeepers over deal results: small/big with Kalte and Laube, Liga, Hamburg."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    KeeperError,
    check,
    score_hamburg,
    score_hamburg_match,
    score_liga,
    score_small_big,
)
from tests.engine.helpers import summary

THROWN: dict[str, Any] = check(
    {"format": "klammern-deal/1", "dealer": 0, "upcard": "8H", "contract": {"kind": "thrown_in"}}
)


def made(team: int, *, points: int = 100, **extra: Any) -> dict[str, Any]:
    """A made deal for ``team`` (declarer seat = team)."""
    pts = [points, 164 - points] if team == 0 else [164 - points, points]
    res = check(summary(pts, declarer=team, **extra))
    assert res["valid"] and res["outcome"] == "made", res
    return res


def failed(team: int, *, points: int = 60, **extra: Any) -> dict[str, Any]:
    """A deal the playing ``team`` fails."""
    pts = [points, 164 - points] if team == 0 else [164 - points, points]
    res = check(summary(pts, declarer=team, **extra))
    assert res["valid"] and res["outcome"] == "failed", res
    return res


def test_small_points_to_big_point() -> None:
    state = score_small_big([made(0), made(1), made(0), made(0), made(0)])
    assert state.small == (4, 1) and state.laube == (True, False) and not state.finished
    state = score_small_big([made(0), made(1), made(0), made(0), made(0), made(0)])
    assert state.big == (1, 0) and state.small == (0, 0) and state.finished
    assert state.winner == 0 and not state.kalte


def test_kalte_counts_two() -> None:
    state = score_small_big([failed(1), failed(1), made(0)])  # 2 + 2 + 1 = 5 : 0
    assert state.big == (2, 0) and state.kalte and state.rounds[0].kalte


def test_surplus_dropped() -> None:
    state = score_small_big([made(1), failed(1), failed(1), failed(1, doubling="kontra")])
    assert state.big == (1, 0) and state.small == (0, 0)  # 8:1 restarts at 0:0
    assert state.rounds[0].small == (8, 1)


def test_thrown_in_ignored_and_history() -> None:
    state = score_small_big([THROWN, made(0), THROWN])
    assert state.small == (1, 0) and len(state.history) == 1
    assert state.to_dict()["small"] == (1, 0)


def test_invalid_result_raises() -> None:
    with pytest.raises(KeeperError):
        score_small_big([{"valid": False}])


def test_liga_to_target() -> None:
    deals = [made(0, points=120)] * 4  # 12 : 4 each
    state = score_liga(deals)
    assert state.points == (48, 16) and not state.finished
    state = score_liga([*deals, made(1, points=130)])  # team 0 gets 34 -> 3
    assert state.points == (51, 29) and state.finished and state.winner == 0
    assert state.ended_by == "target"


def test_liga_target_option_and_both_reach() -> None:
    state = score_liga([made(1, points=84)], target=8)  # 8:8, team 1 played -> team 0
    assert state.points == (8, 8) and state.winner == 0
    state = score_liga([made(0, points=94)], target=7)  # 9:7
    assert state.winner == 0


def test_liga_ended_by_march() -> None:
    march = check(summary([164, 0], declarer=0, march=True))
    state = score_liga([failed(0), march])
    assert state.finished and state.winner == 0 and state.ended_by == "march"
    lost = check(summary([154, 10], declarer=0, march=True))
    state = score_liga([lost])
    assert state.finished and state.winner == 1 and state.ended_by == "march"
    with pytest.raises(KeeperError):
        score_liga([lost, made(0)])


def test_hamburg_to_six() -> None:
    orgi = made(0)  # orgi made: +2
    assert score_hamburg([orgi, orgi]).points == (4, 0)
    state = score_hamburg([orgi, orgi, orgi])
    assert state.finished and state.winner == 0
    fail = failed(0)  # orgi failed: +4 to team 1
    assert score_hamburg([fail]).points == (0, 4)
    kl = check(summary([100, 64], declarer=0, kind="kleines", trump="S"))
    assert score_hamburg([kl]).points == (1, 0)
    kontra = failed(1, kind="kleines", trump="S", doubling="kontra")
    assert score_hamburg([kontra]).points == (4, 0)


@pytest.mark.parametrize(
    ("deals", "rounds", "points"),
    [
        ([], (0, 0), (0, 0)),
        (["orgi0", "orgi0"], (0, 0), (4, 0)),
        (["orgi0"] * 3, (1, 0), (0, 0)),  # 6: the round is won, the next starts at 0:0
        (["orgi0"] * 3 + ["fail0"], (1, 0), (0, 4)),
        (["orgi0", "orgi0", "fail0", "fail0"], (0, 1), (0, 0)),  # 4:8, surplus dropped
        (["orgi0"] * 6 + ["thrown"], (2, 0), (0, 0)),
    ],
)
def test_hamburg_match_of_several_rounds(
    deals: list[str], rounds: tuple[int, int], points: tuple[int, int]
) -> None:
    by_name = {"orgi0": made(0), "fail0": failed(0), "thrown": THROWN}
    state = score_hamburg_match([by_name[d] for d in deals], target=6)
    assert (state.rounds, state.points) == (rounds, points)
