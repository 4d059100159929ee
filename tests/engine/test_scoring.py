"""Counting a deal, made/failed, small points, Kontra/Re, March, Liga match points and
Hamburg points, on full and summary records."""

from __future__ import annotations

import copy

import pytest

from games.engine import check
from games.engine.scoring import match_points
from tests.engine.helpers import SUITED_HANDS, TIE_RECORD, full, summary

ALL_MELDS = [{"seat": s, "cards": cards} for s, cards in enumerate(SUITED_HANDS)]


def test_tie_82_82_full_record_fails() -> None:
    res = check(copy.deepcopy(TIE_RECORD))
    assert res["valid"], res["errors"]
    assert [t["points"] for t in res["tricks"]] == [24, 7, 23, 21, 37, 12, 6, 34]
    assert [t["winner"] for t in res["tricks"]] == [0, 3, 1, 2, 2, 1, 3, 3]
    assert res["points"] == [82, 82] and res["total"] == 164 and res["beet"] == 82
    assert res["outcome"] == "failed" and res["winner_team"] == 0
    assert res["small_points"] == [2, 0]
    assert res["match_points"] == [16, 0]


def test_tie_without_failed_game_gives_all() -> None:
    rec = {
        **copy.deepcopy(TIE_RECORD),
        "rules": {"preset": "klammern", "options": {"failed_game_gives_all": False}},
    }
    res = check(rec)
    assert res["match_points"] == [8, 8]
    assert res["rules"]["options"]["failed_game_gives_all"] is False


def test_no_melds_is_164_never_162() -> None:
    res = check(full(SUITED_HANDS, upcard="8H", declarer=0))
    assert res["points"] == [164, 0] and res["total"] == 164
    assert res["tricks"][-1]["cards"] == ["AH", "AC", "AS", "AD"]
    assert res["tricks"][-1]["points"] == 4 * 11 + 10
    assert res["tricks"][0]["points"] == 0
    assert res["outcome"] == "made" and res["small_points"] == [1, 0]


def test_melds_bella_and_march_won() -> None:
    res = check(full(SUITED_HANDS, upcard="8H", declarer=0, melds=ALL_MELDS, bella=0, march=True))
    assert res["valid"], res["errors"]
    # four Fünfzigen topped by an Ace: the trump one (seat 0) wins; team 0 scores 100
    assert res["melds"]["winning_team"] == 0
    assert res["bella"] == {"seat": 0, "points": 20}
    assert res["points"] == [284, 0] and res["total"] == 284 and res["beet"] == 142
    assert res["outcome"] == "march_won" and res["winner_team"] == 0
    assert res["small_points"] == [1, 0] and res["match_points"] == [28, 0]


def test_march_lost() -> None:
    res = check(full(SUITED_HANDS, upcard="8H", declarer=1, march=True))
    assert res["outcome"] == "march_lost" and res["winner_team"] == 0
    assert res["small_points"] == [2, 0] and res["match_points"] == [16, 0]


def test_march_lost_even_with_more_points() -> None:
    res = check(summary([154, 10], declarer=0, march=True, tricks_won=[7, 1]))
    assert res["valid"], res["errors"]
    assert res["outcome"] == "march_lost" and res["winner_team"] == 1


def test_march_in_summary_without_tricks() -> None:
    assert check(summary([164, 0], declarer=0, march=True))["outcome"] == "march_won"
    assert check(summary([154, 10], declarer=0, march=True))["outcome"] == "march_lost"


@pytest.mark.parametrize(
    ("doubling", "declarer", "small"),
    [
        (None, 0, [1, 0]),
        ("kontra", 0, [2, 0]),
        ("re", 0, [4, 0]),
        (None, 1, [2, 0]),
        ("kontra", 1, [4, 0]),
        ("re", 1, [8, 0]),
    ],
)
def test_kontra_re_multiplier(doubling: str | None, declarer: int, small: list[int]) -> None:
    extra = {"doubling": doubling} if doubling else {}
    res = check(full(SUITED_HANDS, upcard="8H", declarer=declarer, **extra))
    assert res["small_points"] == small
    assert res["multiplier"] == {None: 1, "kontra": 2, "re": 4}[doubling]


@pytest.mark.parametrize(
    ("points", "declarer", "outcome", "small"),
    [
        ([82, 82], 0, "failed", [0, 2]),
        ([82, 82], 1, "failed", [2, 0]),
        ([83, 81], 0, "made", [1, 0]),
        ([81, 83], 1, "made", [0, 1]),
        ([0, 164], 0, "failed", [0, 2]),
    ],
)
def test_made_or_failed(points: list[int], declarer: int, outcome: str, small: list[int]) -> None:
    res = check(summary(points, declarer=declarer))
    assert res["valid"], res["errors"]
    assert res["outcome"] == outcome and res["small_points"] == small
    assert res["total"] == 164 and res["beet"] == 82


def test_melds_raise_the_beet() -> None:
    melds = [{"seat": 1, "cards": ["7S", "8S", "9S", "TS"]}]
    res = check(summary([80, 84], declarer=1, melds=melds))
    assert res["total"] == 214 and res["beet"] == 107
    assert res["points"] == [80, 134] and res["outcome"] == "made"


def test_bella_scores_for_its_team_whatever_the_melds() -> None:
    melds = [{"seat": 1, "cards": ["7S", "8S", "9S", "TS"]}]
    res = check(summary([90, 74], declarer=0, melds=melds, bella=2))
    assert res["points"] == [110, 124] and res["total"] == 234 and res["beet"] == 117
    assert res["outcome"] == "failed"


def test_playing_team_needs_more_than_beet_with_melds() -> None:
    melds = [{"seat": 0, "cards": ["7S", "8S", "9S"]}]
    res = check(summary([82, 82], declarer=0, melds=melds))
    assert res["points"] == [102, 82] and res["beet"] == 92 and res["outcome"] == "made"


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (0, 0),
        (4, 0),
        (5, 1),
        (50, 5),
        (55, 6),
        (64, 6),
        (65, 7),
        (110, 11),
        (115, 12),
        (164, 16),
        (284, 28),
        (285, 29),
    ],
)
def test_match_point_rounding(points: int, expected: int) -> None:
    assert match_points(points) == expected


def test_match_points_made_each_team_converts() -> None:
    assert check(summary([95, 69], declarer=0))["match_points"] == [10, 7]


def test_match_points_failed_defenders_take_all() -> None:
    res = check(summary([95, 69], declarer=1))
    assert res["match_points"] == [16, 0]
    opts = {"preset": "klammern", "options": {"failed_game_gives_all": False}}
    assert check(summary([95, 69], declarer=1, rules=opts))["match_points"] == [10, 7]


@pytest.mark.parametrize(
    ("kind", "declarer", "doubling", "small"),
    [
        ("orgi", 0, None, [2, 0]),
        ("orgi", 1, None, [4, 0]),
        ("orgi", 1, "kontra", [8, 0]),
        ("kleines", 0, None, [1, 0]),
        ("kleines", 1, None, [2, 0]),
        ("kleines", 0, "re", [4, 0]),
        ("besser", 0, None, [1, 0]),
        ("besser", 1, "kontra", [4, 0]),
    ],
)
def test_hamburg_points(kind: str, declarer: int, doubling: str | None, small: list[int]) -> None:
    trump = {"orgi": "H", "kleines": "S", "besser": "C"}[kind]
    extra = {"doubling": doubling} if doubling else {}
    res = check(
        summary(
            [100, 64], kind=kind, trump=trump, declarer=declarer, rules="klammern-hamburg", **extra
        )
    )
    assert res["valid"], res["errors"]
    assert res["small_points"] == small
    assert res["rules"]["preset"] == "klammern-hamburg"
    assert res["rules"]["options"]["scoring"] == "hamburg"


def test_result_carries_rules_and_version() -> None:
    res = check(summary([100, 64]))
    assert res["rules"]["preset"] == "klammern"
    assert set(res["rules"]["options"]) >= {
        "overtrump_on_trump_lead",
        "partner_exempt",
        "meld_tie_by_suit",
        "revoke_clean_team_takes_all",
        "failed_game_gives_all",
        "liga_target",
        "scoring",
    }
    assert isinstance(res["engine_version"], str)


def test_thrown_in() -> None:
    rec = summary([0, 0], kind="thrown_in")
    del rec["card_points"]
    rec["contract"] = {"kind": "thrown_in"}
    res = check(rec)
    assert res["valid"], res["errors"]
    assert res["outcome"] == "thrown_in" and res["winner_team"] is None
    assert res["small_points"] == [0, 0] and res["match_points"] == [0, 0]
