"""This turn's rule-book decisions for the existing presets (RULES.md, "Presets for
related games"): Klaverjas ``trump_by``, Amsterdam's all-trumps hand, the Klaverjas
summary's ``tricks_won``/pit/roem, and Klammern for 2 or 3 players' melds and revoke.

Table-driven; each case says which sentence of the rule book it holds the engine to.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARD_BY_TEXT, check, legal_cards, random_deal, resolve_rules

F = "klammern-deal/1"
ROT, AMS, K2, K3 = "klaverjas-rotterdam", "klaverjas-amsterdam", "klammern-2", "klammern-3"
VERPLICHT = {"preset": ROT, "options": {"trump_by": "forehand"}}


def mask(texts: str) -> int:
    return sum(1 << CARD_BY_TEXT[t] for t in texts.split())


def cards(texts: str) -> list[int]:
    return [CARD_BY_TEXT[t] for t in texts.split()]


def codes(result: dict[str, Any]) -> list[str]:
    return sorted({e["code"] for e in result["errors"]})


# ----- Amsterdam: nothing but trumps under the partner's trick (trump Hearts) -------------

PLAY_CASES = [
    # (preset, trick so far, hand, legal, why)
    (AMS, "AC 9H 8C", "7H JH", "7H JH", "Amsterdam: only trumps, partner wins: any, 7H too"),
    (ROT, "AC 9H 8C", "7H JH", "JH", "Rotterdam still demands the higher trump"),
    (AMS, "AC 9H 8C", "7H JH KS", "JH KS", "Amsterdam with a side card: no lower trump"),
    (AMS, "AC 9H", "7H JH", "JH", "opponent heads with 9H: overtrump"),
    (AMS, "8H 9H 7H", "JH TH", "JH", "Amsterdam, trump led, partner heads: go higher"),
    (AMS, "8H 9H 7H", "TH AH", "TH AH", "trump led, nothing higher: any trump"),
]


@pytest.mark.parametrize(("preset", "trick", "hand", "legal", "why"), PLAY_CASES)
def test_amsterdam_all_trumps(preset: str, trick: str, hand: str, legal: str, why: str) -> None:
    got = legal_cards(mask(hand), cards(trick), 2, resolve_rules(preset))
    assert got == mask(legal), why


# ----- Klaverjas trump_by ------------------------------------------------------------------


def klaverjas_summary(rules: object, **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": rules, "dealer": 3}
    rec["contract"] = {"kind": "klaverjas", "declarer": 0, "trump": "H"}
    rec.update(fields)
    return rec


TRUMP_BY_CASES = [
    # (rules, extra fields, expected codes or None for valid, why)
    (ROT, {"upcard": "7H"}, None, "turned (default): the upcard sets trump"),
    (ROT, {}, None, "turned: the upcard may be left out"),
    (ROT, {"upcard": "7S"}, ["contract_mismatch"], "turned: trump must be the upcard's suit"),
    (VERPLICHT, {}, None, "forehand chooses: no upcard"),
    (VERPLICHT, {"upcard": "7H"}, ["bad_format"], "forehand: an upcard is a bad_format"),
    (
        {"preset": AMS, "options": {"trump_by": "forehand"}},
        {"upcard": "7S"},
        ["bad_format"],
        "forehand, Amsterdam: an upcard is a bad_format whatever its suit",
    ),
    (
        VERPLICHT,
        {"contract": {"kind": "klaverjas", "declarer": 1, "trump": "S"}},
        ["contract_mismatch"],
        "forehand plays: any other declarer is a contract_mismatch",
    ),
    (
        VERPLICHT,
        {"contract": {"kind": "orgi", "declarer": 0, "trump": "S"}},
        ["contract_mismatch"],
        "the contract's kind is klaverjas",
    ),
]


@pytest.mark.parametrize(("rules", "fields", "want", "why"), TRUMP_BY_CASES)
def test_trump_by(rules: object, fields: dict[str, Any], want: list[str] | None, why: str) -> None:
    record = klaverjas_summary(rules, card_points=[100, 62], tricks_won=[5, 3], **fields)
    result = check(record)
    if want is None:
        assert result["valid"], (why, result["errors"])
        assert result["declarer"] == 0 and result["kind"] == "klaverjas"
    else:
        assert codes(result) == want, (why, result["errors"])


def test_trump_by_option_values() -> None:
    assert resolve_rules(ROT).trump_by == "turned"
    assert resolve_rules(VERPLICHT).trump_by == "forehand"
    result = check(klaverjas_summary(VERPLICHT, card_points=[100, 62]))
    assert result["rules"]["options"]["trump_by"] == "forehand"
    bad = check(klaverjas_summary({"preset": ROT, "options": {"trump_by": "dealer"}}))
    assert codes(bad) == ["unknown_rules"]
    assert "turned" in bad["errors"][0]["message"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.sampled_from([ROT, AMS]))
def test_random_verplicht_deals_have_no_upcard(seed: int, dealer: int, preset: str) -> None:
    rules = {"preset": preset, "options": {"trump_by": "forehand"}}
    record = random_deal(random.Random(seed), dealer=dealer, rules=rules)
    assert "upcard" not in record
    result = check(record)
    assert result["valid"], result["errors"]


# ----- Klaverjas summaries: tricks_won, pit, roem -------------------------------------------

SUMMARY_CASES = [
    # (fields, expected (codes) or result values, why)
    ({"card_points": [162, 0]}, ["missing_field"], "162:0 without tricks: ask all 8 tricks?"),
    ({"card_points": [0, 162]}, ["missing_field"], "0:162 too"),
    (
        {"card_points": [162, 0], "tricks_won": [8, 0]},
        {"pit": 0, "roem": [100, 0], "points": [262, 0]},
        "8:0 tricks: the pit",
    ),
    (
        {"card_points": [162, 0], "tricks_won": [7, 1]},
        {"pit": None, "roem": [0, 0], "points": [162, 0]},
        "7:1 tricks (a trick of blank cards): no pit",
    ),
    (
        {"card_points": [150, 12], "tricks_won": [8, 0]},
        ["impossible_points"],
        "pit only with all 162 card points",
    ),
    ({"card_points": [100, 62]}, {"roem": [0, 0], "points": [100, 62]}, "roem absent is 0:0"),
    (
        {"card_points": [100, 62], "roem": [20, 50]},
        {"roem": [20, 50], "points": [120, 112]},
        "roem in 20 and 50",
    ),
    ({"card_points": [100, 62], "roem": [15, 0]}, ["impossible_points"], "multiples of 10"),
    ({"card_points": [100, 62], "roem": [10, 0]}, ["impossible_points"], "10: no trick holds it"),
    ({"card_points": [100, 62], "roem": [30, 0]}, ["impossible_points"], "30: no trick holds it"),
    (
        {"card_points": [162, 0], "roem": [0, 20], "tricks_won": [8, 0]},
        ["impossible_points"],
        "no trick, no roem",
    ),
]


@pytest.mark.parametrize("preset", [ROT, AMS])
@pytest.mark.parametrize(("fields", "want", "why"), SUMMARY_CASES)
def test_klaverjas_summary_decisions(
    preset: str, fields: dict[str, Any], want: object, why: str
) -> None:
    result = check(klaverjas_summary(preset, **fields))
    if isinstance(want, list):
        assert codes(result) == want, (why, result["errors"])
        return
    assert result["valid"], (why, result["errors"])
    assert isinstance(want, dict)
    for key, value in want.items():
        assert result[key] == value, (why, key, result)


def test_missing_tricks_message_asks_for_the_tricks() -> None:
    error = check(klaverjas_summary(ROT, card_points=[0, 162]))["errors"][0]
    assert error["field"] == "tricks_won" and error["params"]["team"] == 1
    assert "all 8 tricks" in error["message"]


# ----- Klammern for 2 or 3 players: melds and the revoke -----------------------------------


def solo_summary(rules: str, **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": rules, "dealer": 0, "turned": "7D"}
    rec["contract"] = {"kind": "take", "declarer": 1, "trump": "H"}
    rec.update(fields)
    return rec


FIFTY_0 = {"seat": 0, "cards": ["7C", "8C", "9C", "TC"]}
TERZ_1 = {"seat": 1, "cards": ["QS", "KS", "AS"]}
TERZ_2 = {"seat": 2, "cards": ["7D", "8D", "9D"]}

SOLO_CASES = [
    # (name, rules, fields, expected points, melds winner (seat or None), outcome)
    (
        "only_the_best_meld_scores",
        K3,
        {"card_points": [30, 80, 54], "tricks_won": [2, 4, 3], "melds": [FIFTY_0, TERZ_1]},
        [30 + 50 + 40, 0, 54 + 40],  # declarer's 80 not more than seat 0's 80: halves
        0,
        "failed",
    ),
    (
        "best_holder_without_trick_nobody_scores",
        K3,
        {"card_points": [0, 100, 64], "tricks_won": [0, 5, 4], "melds": [FIFTY_0, TERZ_2]},
        [0, 100, 64],
        None,
        "made",
    ),
    (
        "next_best_does_not_move_up_2",
        K2,
        {
            "card_points": [0, 110],
            "tricks_won": [0, 9],
            "melds": [FIFTY_0, {"seat": 1, "cards": ["QS", "KS", "AS"]}],
        },
        [0, 110],
        None,
        "made",
    ),
    (
        "revoke_others_score_tricks_bella_and_best_meld",
        K3,
        {
            "card_points": [30, 20, 11],
            "tricks_won": [1, 1, 1],
            "revoke": {"seat": 2, "card": "8S"},
            "bella": 1,
            "melds": [FIFTY_0, TERZ_1],
        },
        [30 + 50, 20 + 20, 0],
        0,
        "revoke",
    ),
    (
        "revoke_by_the_best_melds_holder_nobody_scores_melds",
        K3,
        {
            "card_points": [30, 20, 11],
            "tricks_won": [1, 1, 1],
            "revoke": {"seat": 0, "card": "8S"},
            "melds": [FIFTY_0, TERZ_1],
        },
        [0, 20, 11],
        None,
        "revoke",
    ),
    (
        "revoke_no_made_or_failed_declarer_keeps_its_points",
        K2,
        {
            "card_points": [10, 40],
            "tricks_won": [1, 2],
            "revoke": {"seat": 0, "card": "8S"},
        },
        [0, 40],
        None,
        "revoke",
    ),
]


@pytest.mark.parametrize(
    ("name", "rules", "fields", "points", "meld_winner", "outcome"),
    SOLO_CASES,
    ids=[c[0] for c in SOLO_CASES],
)
def test_solo_melds_and_revoke(
    name: str,
    rules: str,
    fields: dict[str, Any],
    points: list[int],
    meld_winner: int | None,
    outcome: str,
) -> None:
    result = check(solo_summary(rules, **fields))
    assert result["valid"], (name, result["errors"])
    assert result["points"] == points, name
    assert result["melds"]["winning_team"] == meld_winner, name
    assert result["outcome"] == outcome, name
    assert {m["seat"] for m in result["melds"]["scored"]} <= {meld_winner}


@pytest.mark.parametrize("rules", [K2, K3])
def test_full_solo_record_needs_the_turned_card(rules: str) -> None:
    record = random_deal(random.Random(7), dealer=0, rules=rules)
    assert check(record)["valid"]
    del record["turned"]
    result = check(record)
    assert codes(result) == ["bad_format"]
    assert result["errors"][0]["field"] == "turned"
