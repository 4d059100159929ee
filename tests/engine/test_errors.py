"""Bad input never raises; every error code is produced with play/field/params."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import pytest

from games.engine import check
from games.engine.errors import Code
from tests.engine.helpers import MIXED_HANDS, SUITED_HANDS, TIE_RECORD, codes, full


def tie(**changes: Any) -> dict[str, Any]:
    rec = copy.deepcopy(TIE_RECORD)
    rec.update(changes)
    return rec


@pytest.mark.parametrize(
    "record",
    [
        None,
        5,
        "x",
        [],
        [1, 2],
        {},
        {"format": "klammern-deal/1"},
        {"format": "klammern-deal/2", "dealer": 0},
        tie(dealer=4),
        tie(dealer=True),
        tie(dealer="0"),
        tie(upcard="1H"),
        tie(upcard=None),
        tie(contract=None),
        tie(contract={"kind": "solo"}),
        tie(contract={"kind": "orgi"}),
        tie(hands="x"),
        tie(hands=[[]] * 4),
        tie(hands=[["JH"] * 8] * 4),
        tie(plays="x"),
        tie(plays=[None] * 32),
        tie(plays=[["JH"]]),
        tie(melds="x"),
        tie(melds=[1]),
        tie(melds=[{"seat": 9, "cards": []}]),
        tie(bella="0"),
        tie(march="yes"),
        tie(doubling="triple"),
        tie(doubling=["kontra"]),
        tie(doubling={}),
        tie(doubling=None),
        tie(revoke=[]),
        tie(revoke={"seat": 1}),
        tie(bidding="x"),
        tie(bidding=[{"seat": 1, "call": "maybe"}]),
        tie(rules=5),
        tie(rules="skat"),
        tie(rules={"preset": "klammern", "options": {"nope": True}}),
        tie(rules={"options": {"liga_target": "51"}}),
        tie(card_points=[82, 82]),
        tie(tricks_won=[4, 4]),
    ],
)
def test_bad_input_never_raises(record: Any) -> None:
    res = check(record)
    assert res["valid"] is False
    assert res["errors"]
    for error in res["errors"]:
        assert error["code"] in {c.value for c in Code} - {"internal_error"}
        assert isinstance(error["message"], str) and error["message"]
        assert isinstance(error["params"], dict)


@pytest.mark.parametrize(
    ("record", "code", "play", "field"),
    [
        (tie(hands=[h[:7] for h in TIE_RECORD["hands"]]), "wrong_card_count", None, "hands[0]"),
        (
            tie(hands=[TIE_RECORD["hands"][0], TIE_RECORD["hands"][0], *TIE_RECORD["hands"][2:]]),
            "duplicate_card",
            None,
            "hands[1]",
        ),
        (tie(upcard="AD"), "card_not_in_hand", None, "upcard"),
        (tie(plays=TIE_RECORD["plays"][:20]), "incomplete_play", 20, "plays"),
        (tie(plays=[*TIE_RECORD["plays"], "7S"]), "too_many_plays", 32, "plays[32]"),
        (tie(plays=["9D", "AD"]), "card_not_in_hand", 1, "plays[1]"),
        (tie(plays=["9D", "9D"]), "card_not_in_hand", 1, "plays[1]"),
        (tie(plays=["9D", "QD", "8S"]), "illegal_play", 2, "plays[2]"),
        (tie(plays=["9D", "ZZ"]), "bad_format", 1, "plays[1]"),
        (tie(bella=1), "bella_not_held", None, "bella"),
        (tie(rules="skat"), "unknown_rules", None, "rules"),
    ],
)
def test_error_location(record: dict[str, Any], code: str, play: int | None, field: str) -> None:
    res = check(record)
    error = next(e for e in res["errors"] if e["code"] == code)
    assert error.get("play") == play
    assert error["field"] == field


def test_card_not_in_hand_messages() -> None:
    res = check(tie(plays=["9D", "AD"]))
    assert res["errors"][0]["message"] == "seat 3 plays AD, which seat 0 holds"
    res = check(
        tie(
            plays=[
                "9D",
                "QD",
                "AD",
                "TD",
                "8S",
                "9S",
                "QS",
                "KS",
                "JH",
                "TH",
                "AH",
                "9H",
                "8C",
                "9C",
                "KC",
                "QC",
                "9C",
            ]
        )
    )
    assert res["errors"][0]["message"] == "seat 2 plays 9C a second time"


def test_error_message_names_trick_cards() -> None:
    res = check(tie(plays=["9D", "QD", "8S"]))
    error = res["errors"][0]
    assert error["message"] == "seat 0 must follow Diamonds (AD, KD, 8D) but played 8S"
    assert error["params"] == {
        "seat": 0,
        "card": "8S",
        "rule": "follow_suit",
        "led_suit": "D",
        "legal": ["AD", "KD", "8D"],
        "trick": 1,
    }


def test_several_independent_problems_are_all_reported() -> None:
    rec = full(
        MIXED_HANDS,
        upcard="8H",
        kind="orgi",
        trump="S",
        bella=1,
        melds=[{"seat": 0, "cards": ["QC", "KC", "AC"]}],
    )
    assert set(codes(rec and check(rec))) >= {
        "contract_mismatch",
        "meld_not_held",
        "bella_not_held",
    }


def test_lowercase_card_rejected() -> None:
    hands = copy.deepcopy(SUITED_HANDS)
    hands[0][0] = "7h"
    rec = full(SUITED_HANDS, upcard="8H")
    rec["hands"] = hands
    assert "bad_format" in codes(check(rec))


def test_10_notation_accepted_everywhere() -> None:
    hands = copy.deepcopy(SUITED_HANDS)
    hands[2][3] = "10S"
    rec = full(SUITED_HANDS, upcard="8H", declarer=0)
    rec["hands"] = hands
    rec["plays"] = ["10S" if p == "TS" else p for p in rec["plays"]]
    res = check(rec)
    assert res["valid"], res["errors"]
    assert "TS" in [c for t in res["tricks"] for c in t["cards"]]


def test_every_code_is_documented() -> None:
    # read from the source: a module compiled by mypyc keeps no docstring
    source = (Path(__file__).parents[2] / "games" / "engine" / "errors.py").read_text()
    doc = ast.get_docstring(ast.parse(source))
    assert doc is not None
    for code in Code:
        assert f"``{code.value}``" in doc
