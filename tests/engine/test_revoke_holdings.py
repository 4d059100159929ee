"""Belote and Schieber revokes: the clean team's belote / Stöck is its King and Queen of
trumps held in one hand at the deal's start, played before the revoke or not; the
revoking team's is lost (RULES.md "Belote" and "Schieberjass", Revoke, Decision). A
summary cannot show the holdings: its ``bella`` / ``stoeck`` seat counts when it is of
the clean team (spec: the seat of belote-rebelote, the seat holding King and Queen)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine import check

F = "klammern-deal/1"
BELOTE_SUITED = [[r + s for r in "789TJQKA"] for s in "HCSD"]  # seat 0 Hearts, 1 Clubs ...
SCHIEBER_SUITED = [[r + s for r in "6789TJQKA"] for s in "HCSD"]


def swapped(hands: list[list[str]], swaps: list[tuple[str, str]]) -> list[list[str]]:
    """The hands with each pair of cards exchanged between their holders."""
    out = copy.deepcopy(hands)
    for a, b in swaps:
        sa = next(s for s in range(4) if a in out[s])
        sb = next(s for s in range(4) if b in out[s])
        out[sa][out[sa].index(a)], out[sb][out[sb].index(b)] = b, a
    return out


# Belote: seat 0 takes Hearts in the second round (upcard 7C, in its hand) and leads;
# seat 1 holds the 7 and 8 of Hearts, so it must follow a Hearts lead.
BELOTE_BASE = [("7H", "7C"), ("8H", "8C")]


def belote(
    swaps: list[tuple[str, str]], plays: list[str], revoke: tuple[int, str], **extra: Any
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": F,
        "rules": "belote",
        "dealer": 3,
        "upcard": "7C",
        "hands": swapped(BELOTE_SUITED, BELOTE_BASE + swaps),
        "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 2},
        "plays": plays,
        "revoke": {"seat": revoke[0], "card": revoke[1]},
    }
    record.update(extra)
    return record


BELOTE_CASES: list[tuple[str, dict[str, Any], list[int], int | None]] = [
    (
        "clean_holder_k_and_q_not_yet_played",
        belote([], ["AH"], (1, "AC")),
        [182, 0],
        0,
    ),
    (
        "clean_holder_announced_before_playing",
        belote([], ["AH"], (1, "AC"), bella=0),
        [182, 0],
        0,
    ),
    ("clean_holder_king_played", belote([], ["KH"], (1, "AC")), [182, 0], 0),
    (
        "clean_holder_both_played",
        belote([], ["KH", "8H", "AS", "AD", "QH"], (1, "AC"), bella=0),
        [182, 0],
        0,
    ),
    (
        "king_and_queen_split_in_the_clean_team",
        belote([("QH", "7S")], ["AH"], (1, "AC")),
        [162, 0],
        None,
    ),
    (
        "revoking_team_holds_them_and_announced",
        belote([("KH", "9C"), ("QH", "TC")], ["AH"], (1, "AC"), bella=1),
        [162, 0],
        None,
    ),
    (
        "taker_team_revokes_the_defenders_hold_them",
        # seat 1 (clean) holds K and Q; seat 2 holds the 9 of Hearts and discards a Spade
        belote([("KH", "9C"), ("QH", "TC"), ("9H", "7S")], ["AH", "7H"], (2, "AS")),
        [0, 182],
        1,
    ),
]


@pytest.mark.parametrize(
    ("name", "record", "points", "seat"), BELOTE_CASES, ids=[c[0] for c in BELOTE_CASES]
)
def test_belote_revoke_full(
    name: str, record: dict[str, Any], points: list[int], seat: int | None
) -> None:
    result = check(record)
    assert result["valid"], (name, result["errors"])
    assert result["outcome"] == "revoke"
    assert result["points"] == points, name
    assert result["bella"] == (None if seat is None else {"seat": seat, "points": 20}), name


# Schieber: seat 0 chooses Hearts and leads; seat 1 holds the 6 and 7 of Hearts.
SCHIEBER_BASE = [("6H", "6C"), ("7H", "7C")]
HEARTS = {"kind": "schieber", "chooser": 0, "mode": "trump", "trump": "H", "pushed": False}
OBENABE = {"kind": "schieber", "chooser": 0, "mode": "obenabe", "pushed": False}


def schieber(
    swaps: list[tuple[str, str]], plays: list[str], revoke: tuple[int, str], **extra: Any
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": F,
        "rules": "schieber",
        "dealer": 3,
        "hands": swapped(SCHIEBER_SUITED, SCHIEBER_BASE + swaps),
        "contract": HEARTS,
        "plays": plays,
        "revoke": {"seat": revoke[0], "card": revoke[1]},
    }
    record.update(extra)
    return record


SCHIEBER_CASES: list[tuple[str, dict[str, Any], list[int], int | None]] = [
    (
        "clean_holder_k_and_q_not_yet_played",
        schieber([], ["AH"], (1, "AC")),
        [177, 0],
        0,
    ),
    (
        "clean_holder_recorded",
        schieber([], ["AH"], (1, "AC"), stoeck=0),
        [177, 0],
        0,
    ),
    (
        "clean_holder_both_played",
        schieber([], ["KH", "7H", "AS", "AD", "QH"], (1, "AC"), stoeck=0),
        [177, 0],
        0,
    ),
    (
        "king_and_queen_split_in_the_clean_team",
        schieber([("QH", "6S")], ["AH"], (1, "AC")),
        [157, 0],
        None,
    ),
    (
        "revoking_team_holds_them_and_recorded",
        schieber([("KH", "8C"), ("QH", "9C")], ["AH"], (1, "AC"), stoeck=1),
        [157, 0],
        None,
    ),
    (
        "obenabe_has_no_stoeck",
        schieber([], ["AH"], (1, "AC"), contract=OBENABE),
        [157, 0],
        None,
    ),
    (
        "with_multipliers_hearts_doubles_it",
        schieber(
            [], ["AH"], (1, "AC"), rules={"preset": "schieber", "options": {"multipliers": True}}
        ),
        [354, 0],
        0,
    ),
]


@pytest.mark.parametrize(
    ("name", "record", "points", "seat"), SCHIEBER_CASES, ids=[c[0] for c in SCHIEBER_CASES]
)
def test_schieber_revoke_full(
    name: str, record: dict[str, Any], points: list[int], seat: int | None
) -> None:
    result = check(record)
    assert result["valid"], (name, result["errors"])
    assert result["outcome"] == "revoke"
    assert result["points"] == points, name
    assert result["stoeck"] == (None if seat is None else {"seat": seat, "points": 20}), name


SUMMARY_CASES: list[tuple[str, dict[str, Any], list[int], str, int | None]] = [
    (
        "belote_clean_seat",
        {
            "rules": "belote",
            "upcard": "7H",
            "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 1},
            "bella": 2,
        },
        [182, 0],
        "bella",
        2,
    ),
    (
        "belote_revoking_seat",
        {
            "rules": "belote",
            "upcard": "7H",
            "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 1},
            "bella": 1,
        },
        [162, 0],
        "bella",
        None,
    ),
    (
        "schieber_clean_seat",
        {"rules": "schieber", "contract": HEARTS, "stoeck": 0},
        [177, 0],
        "stoeck",
        0,
    ),
    (
        "schieber_revoking_seat",
        {"rules": "schieber", "contract": HEARTS, "stoeck": 3},
        [157, 0],
        "stoeck",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "fields", "points", "key", "seat"), SUMMARY_CASES, ids=[c[0] for c in SUMMARY_CASES]
)
def test_revoke_summary_counts_the_recorded_seat_of_the_clean_team(
    name: str, fields: dict[str, Any], points: list[int], key: str, seat: int | None
) -> None:
    record = {
        "format": F,
        "dealer": 3,
        "card_points": [0, 0],
        "tricks_won": [0, 0],
        "revoke": {"seat": 1, "card": "AC"},
        **fields,
    }
    result = check(record)
    assert result["valid"], (name, result["errors"])
    assert result["outcome"] == "revoke" and result["points"] == points, name
    assert result[key] == (None if seat is None else {"seat": seat, "points": 20}), name


def test_without_a_revoke_an_unannounced_belote_does_not_count() -> None:
    # the holding counts only after a revoke; a played deal needs the announcement
    record = {
        "format": F,
        "rules": "belote",
        "dealer": 3,
        "upcard": "7H",
        "hands": copy.deepcopy(BELOTE_SUITED),
        "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 1},
        "plays": [r + s for r in "ATKQJ987" for s in "HCSD"],
    }
    result = check(record)
    assert result["valid"], result["errors"]
    assert result["bella"] is None and result["points"] == [252, 0]
    announced = check({**record, "bella": 0})
    assert announced["bella"] == {"seat": 0, "points": 20} and announced["points"] == [272, 0]
