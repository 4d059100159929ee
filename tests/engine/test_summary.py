"""Summary records: the numbers of a score sheet checked for consistency."""

from __future__ import annotations

import pytest

from games.engine import check
from games.engine.summary import full_deal_feasible, full_deal_points_feasible, revoke_feasible
from tests.engine.helpers import codes, summary


def test_impossible_single_team_values() -> None:
    bad = [p for p in range(165) if not full_deal_points_feasible(p)]
    assert bad == [1, 163]


@pytest.mark.parametrize(
    ("tricks", "points", "ok"),
    [
        (0, 0, True),
        (0, 10, False),
        (0, 2, False),
        (8, 164, True),
        (8, 154, False),
        (8, 163, False),
        (1, 0, True),
        (1, 10, True),
        (1, 54, True),
        (1, 55, True),
        (1, 56, True),
        (1, 58, True),
        (1, 59, True),
        (1, 68, True),
        (1, 69, False),
        (1, 65, True),
        (7, 164, True),
        (7, 163, False),
        (7, 154, True),
        (7, 110, True),
    ],
)
def test_feasible_by_tricks(tricks: int, points: int, ok: bool) -> None:
    assert full_deal_feasible(tricks, points) == ok


def test_one_trick_maximum() -> None:
    # J22 + A11 + A11 + 9(Mie)14 = 58 is the best 4 cards, 68 with the last trick
    assert max(p for p in range(165) if full_deal_feasible(1, p)) == 68


@pytest.mark.parametrize(
    ("points", "tricks", "ok"),
    [
        ((0, 0), (0, 0), True),
        ((0, 0), None, True),
        ((1, 0), None, False),
        ((154, 0), (7, 0), True),
        ((154, 0), (6, 0), True),
        ((154, 0), (5, 0), False),
        ((100, 54), (4, 3), True),
        ((10, 0), (0, 1), False),
        ((60, 0), (5, 0), True),
        ((150, 5), None, False),
    ],
)
def test_revoke_feasible(points: tuple[int, int], tricks: tuple[int, int] | None, ok: bool) -> None:
    assert revoke_feasible(points, tricks, revoke_card_value=0) == ok


@pytest.mark.parametrize(
    ("points", "value", "ok"),
    [
        ((139, 4), 11, True),  # 154 - 11 = 143 still fits
        ((140, 4), 11, False),  # the revoked ace is in no trick
        ((150, 4), 11, False),
        ((110, 22), 22, True),  # 154 - 22 = 132
        ((120, 20), 22, False),  # a revoked Jappa takes its 2 + 20 out of the tricks
        ((154, 0), 0, True),  # a revoked blank leaves all the points
    ],
)
def test_revoke_card_is_in_no_trick(points: tuple[int, int], value: int, ok: bool) -> None:
    assert revoke_feasible(points, None, revoke_card_value=value) == ok


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"card_points": [100, 63]}, "impossible_points"),
        ({"card_points": [163, 1]}, "impossible_points"),
        ({"card_points": [154, 10], "tricks_won": [8, 0]}, "impossible_points"),
        ({"card_points": [10, 154], "tricks_won": [0, 8]}, "impossible_points"),
        ({"card_points": [82, 82], "tricks_won": [4, 3]}, "impossible_tricks"),
        ({"card_points": [82, 82], "tricks_won": [9, 0]}, "bad_format"),
        ({"card_points": [82, -1]}, "bad_format"),
        ({"card_points": [82]}, "bad_format"),
        ({"card_points": [100, 55], "revoke": {"seat": 0, "card": "7S"}}, "impossible_points"),
        (
            {"card_points": [82, 40], "tricks_won": [4, 4], "revoke": {"seat": 0, "card": "7S"}},
            "impossible_tricks",
        ),
        ({"melds": [{"seat": 0, "cards": ["7C", "8C", "TC"]}]}, "not_a_meld"),
        (
            {
                "melds": [
                    {"seat": 0, "cards": ["7C", "8C", "9C"]},
                    {"seat": 1, "cards": ["9C", "TC", "JC"]},
                ]
            },
            "duplicate_card",
        ),
        (
            {
                "melds": [
                    {"seat": 0, "cards": ["7C", "8C", "9C"]},
                    {"seat": 0, "cards": ["TC", "JC", "QC"]},
                ]
            },
            "meld_not_maximal",
        ),
        (
            {
                "melds": [
                    {"seat": 0, "cards": ["7C", "8C", "9C"]},
                    {"seat": 0, "cards": ["8C", "9C", "TC"]},
                ]
            },
            "duplicate_meld",
        ),
        ({"melds": [{"seat": 1, "cards": ["QH", "KH", "AH"]}], "bella": 3}, "duplicate_card"),
        ({"melds": [{"seat": 1, "cards": ["7H", "8H", "9H"]}]}, "duplicate_card"),  # upcard 8H
        ({"bella": 2, "upcard": "KH"}, "duplicate_card"),
        ({"revoke": {"seat": 1, "card": "8H"}, "card_points": [40, 40]}, "duplicate_card"),
        ({"hands": None}, "bad_format"),
        ({"plays": []}, "bad_format"),
    ],
)
def test_summary_errors(extra: dict[str, object], code: str) -> None:
    rec = summary([100, 64])
    rec.update(extra)
    if rec.get("hands", 1) is None:
        del rec["hands"]
        rec["plays"] = ["7S"]
    assert code in codes(check(rec))


def test_summary_with_tricks_valid() -> None:
    res = check(summary([0, 164], tricks_won=[0, 8]))
    assert res["valid"] and res["tricks_won"] == [0, 8] and "tricks" not in res


def test_summary_result_fields() -> None:
    res = check(summary([100, 64], declarer=2))
    assert res["mode"] == "summary" and res["trump"] == "H" and res["declarer"] == 2
    assert res["playing_team"] == 0 and res["outcome"] == "made"
