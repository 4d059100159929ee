"""Belote Contrée (preset ``belote-contree``, RULES.md "Belote Contrée"): play rules, the
auction and its refusals, made or failed, rounding, coinche and surcoinche, capot,
revoke, thrown-in deals, summaries, the match, and the engine against the plain
reference in ``contree_reference`` on thousands of random deals."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_PRESETS,
    CARD_BY_TEXT,
    ENGINE_ONLY_PRESETS,
    PRESETS,
    Code,
    RulesError,
    check,
    legal_cards,
    random_deal,
    resolve_rules,
    score_match,
)
from games.engine import errors as engine_errors
from games.engine.contree import CONTREE_CODES, round_to_ten, run_auction

from . import contree_reference as ref

F = "klammern-deal/1"
CONTREE = ALL_PRESETS["belote-contree"]


def mask(texts: str) -> int:
    return sum(1 << CARD_BY_TEXT[t] for t in texts.split())


def cards(texts: str) -> list[int]:
    return [CARD_BY_TEXT[t] for t in texts.split()]


def codes(result: dict[str, Any]) -> list[str]:
    return sorted({e["code"] for e in result["errors"]})


# ----- play rules (trump Hearts) -----------------------------------------------------------

PLAY_CASES = [
    # (trick so far, hand, legal, why)
    ("", "7H AS KC", "7H AS KC", "the leader plays any card"),
    ("AC", "KC 7H", "KC", "follow suit"),
    ("AC", "KC 7C JH", "KC 7C", "follow suit, even holding the trump Jack"),
    ("7C AC", "7H KS", "7H", "opponent heads, no trump in the trick: must trump"),
    ("7C AC", "7H 8H KS", "7H 8H", "any trump heads a trick without trumps"),
    ("AC 7H", "8H 9H KS", "8H 9H", "opponent heads with a trump: overtrump"),
    ("AC JH", "7H 8S 9D", "7H 8S 9D", "cannot overtrump: any card (no undertrumping duty)"),
    ("AC 9H", "7H 8H", "7H 8H", "only lower trumps: any of them"),
    ("AC JH", "8S 9D", "8S 9D", "no trump: any card"),
    ("7C AC 8C", "7H KS", "7H KS", "partner heads: no duty beyond following suit"),
    ("AC 9H 8C", "7H JH KS", "7H JH KS", "partner heads with a trump: any card"),
    ("7C AC 8C", "KC 7H", "KC", "partner heads, but the player can follow"),
    ("7C AC 9H", "JH 8H KS", "JH", "opponent overtrumped the partner: beat it"),
    ("8H", "7H JH AS", "JH", "trump led: a higher trump if able"),
    ("8H", "7H AS", "7H", "trump led, nothing higher: any trump"),
    ("8H", "AS KS", "AS KS", "trump led, no trump: any card"),
    ("8H 9H", "JH TH", "JH", "trump led, opponent heads: go higher"),
    ("8H 9H 7H", "JH TH", "JH", "trump led, partner heads: still go higher"),
    ("9H 8H", "JH TH", "JH", "trump led, partner (the leader) heads: still go higher"),
]


@pytest.mark.parametrize(("trick", "hand", "legal", "why"), PLAY_CASES)
def test_play_rules(trick: str, hand: str, legal: str, why: str) -> None:
    got = legal_cards(mask(hand), cards(trick), 2, CONTREE)
    assert got == mask(legal), why
    reference = ref.legal(hand.split(), trick.split(), "H")
    assert sorted(reference) == sorted(legal.split()), why


# ----- the auction (dealer 3: forehand is seat 0) ------------------------------------------


def bid(value: Any, trump: str = "H") -> dict[str, Any]:
    return {"value": value, "trump": trump}


AUCTIONS: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("four_passes", ["pass"] * 4, {"kind": "thrown_in"}),
    (
        "three_passes_end_it",
        [bid(80), "pass", "pass", "pass"],
        {"kind": "contree", "declarer": 0, "trump": "H", "value": 80, "doubling": 0},
    ),
    (
        "a_late_bid",
        ["pass", "pass", "pass", bid(100, "S"), "pass", "pass", "pass"],
        {"kind": "contree", "declarer": 3, "trump": "S", "value": 100, "doubling": 0},
    ),
    (
        "outbidding_the_partner",
        [bid(80), "pass", bid(120, "C"), "pass", "pass", "pass"],
        {"kind": "contree", "declarer": 2, "trump": "C", "value": 120, "doubling": 0},
    ),
    (
        "capot_above_160",
        [bid(160), bid("capot", "D"), "pass", "pass", "pass"],
        {"kind": "contree", "declarer": 1, "trump": "D", "value": "capot", "doubling": 0},
    ),
    (
        "coinche_ends_it",
        [bid(120), "coinche"],
        {"kind": "contree", "declarer": 0, "trump": "H", "value": 120, "doubling": 1},
    ),
    (
        "coinche_by_the_later_defender",
        [bid(90), "pass", "pass", "coinche"],
        {"kind": "contree", "declarer": 0, "trump": "H", "value": 90, "doubling": 1},
    ),
    (
        "surcoinche",
        [bid(90), bid(100, "C"), "coinche", "surcoinche"],
        {"kind": "contree", "declarer": 1, "trump": "C", "value": 100, "doubling": 2},
    ),
]


@pytest.mark.parametrize(("name", "calls", "want"), AUCTIONS, ids=[a[0] for a in AUCTIONS])
def test_auction_outcome(name: str, calls: list[Any], want: dict[str, Any]) -> None:
    outcome = run_auction(calls, 0)
    assert not isinstance(outcome, engine_errors.Problem), outcome
    assert (outcome is None and want == {"kind": "thrown_in"}) or (
        outcome is not None and outcome.to_json() == want
    ), name
    assert ref.auction(calls, 0) == want


AUCTION_REFUSALS: list[tuple[str, list[Any], str, int]] = [
    # (name, calls from forehand seat 0, code, index of the broken call)
    ("not_higher", [bid(100), bid(90, "S")], "bid_not_higher", 1),
    ("equal_is_not_higher", [bid(100), bid(100, "S")], "bid_not_higher", 1),
    ("capot_over_capot", [bid("capot"), bid("capot", "S")], "bid_not_higher", 1),
    ("value_85", [bid(85)], "bid_value_not_allowed", 0),
    ("value_170", [bid(170)], "bid_value_not_allowed", 0),
    ("value_70", ["pass", bid(70)], "bid_value_not_allowed", 1),
    ("value_text", [bid("Capot")], "bid_value_not_allowed", 0),
    ("value_true", [bid(True)], "bid_value_not_allowed", 0),
    ("coinche_without_a_bid", ["pass", "coinche"], "coinche_not_allowed", 1),
    ("coinche_own_side", [bid(80), "pass", "coinche"], "coinche_not_allowed", 2),
    ("coinche_twice", [bid(80), "coinche", "coinche"], "bidding_mismatch", 2),
    ("surcoinche_without_coinche", [bid(80), "pass", "surcoinche"], "surcoinche_not_allowed", 2),
    ("surcoinche_by_defenders", [bid(80), "surcoinche"], "surcoinche_not_allowed", 1),
    ("surcoinche_first", ["surcoinche"], "surcoinche_not_allowed", 0),
    ("pass_after_coinche", [bid(80), "coinche", "pass"], "bidding_mismatch", 2),
    ("bid_after_coinche", [bid(80), "coinche", bid(90)], "bidding_mismatch", 2),
    ("after_three_passes", [bid(80), "pass", "pass", "pass", "pass"], "bidding_mismatch", 4),
    ("after_surcoinche", [bid(80), "coinche", "surcoinche", "pass"], "bidding_mismatch", 3),
    ("after_four_passes", ["pass"] * 5, "bidding_mismatch", 4),
    ("not_over", [bid(80), "pass", "pass"], "bidding_mismatch", 3),
    ("empty", [], "bidding_mismatch", 0),
    ("no_call", [bid(80), "double"], "bad_format", 1),
    ("bid_without_trump", [{"value": 80}], "bad_format", 0),
    ("bid_bad_trump", [bid(80, "X")], "bad_format", 0),
]


def contract(value: Any = 80, declarer: int = 0, trump: str = "H", doubling: int = 0) -> Any:
    return {
        "kind": "contree",
        "declarer": declarer,
        "trump": trump,
        "value": value,
        "doubling": doubling,
    }


@pytest.mark.parametrize(
    ("name", "calls", "code", "index"), AUCTION_REFUSALS, ids=[a[0] for a in AUCTION_REFUSALS]
)
def test_auction_refusals(name: str, calls: list[Any], code: str, index: int) -> None:
    record = full(bids=calls)
    result = check(record)
    assert not result["valid"], name
    assert [e["code"] for e in result["errors"]] == [code], (name, result["errors"])
    error = result["errors"][0]
    if code != "bidding_mismatch" or index < len(calls):
        assert error["field"] == f"bids[{index}]" and error["params"]["call"] == index
        assert error["params"]["seat"] == index % 4
        assert f"seat {index % 4}" in error["message"] or code == "bad_format"
    if code != "bad_format":
        assert ref.auction(calls, 0) == {"error": code, "call": index}, name


def test_auction_refusal_words() -> None:
    error = check(full(bids=[bid(100), bid(90, "S")]))["errors"][0]
    assert error["message"] == (
        "seat 1 bids 90 in Spades, which is not higher than 100 in Hearts by seat 0"
    )
    assert error["params"] == {
        "call": 1,
        "seat": 1,
        "value": 90,
        "trump": "S",
        "last_value": 100,
        "last_seat": 0,
    }
    error = check(full(bids=[bid(80), "pass", "coinche"]))["errors"][0]
    assert error["params"]["reason"] == "bidding_side" and "own side" in error["message"]
    error = check(full(bids=["coinche"]))["errors"][0]
    assert error["params"]["reason"] == "no_bid"
    error = check(full(bids=[bid(80), "surcoinche"]))["errors"][0]
    assert error["params"]["reason"] == "defending_side"
    error = check(full(bids=[bid(80), "pass", "surcoinche"]))["errors"][0]
    assert error["params"]["reason"] == "no_coinche"


CONTRACT_MISMATCHES: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("declarer", [bid(80), "pass", "pass", "pass"], contract(declarer=2)),
    ("trump", [bid(80), "pass", "pass", "pass"], contract(trump="S")),
    ("value", [bid(80), "pass", "pass", "pass"], contract(value=90)),
    ("doubling", [bid(80), "coinche"], contract()),
    ("surcoinche", [bid(80), "coinche", "surcoinche"], contract(doubling=1)),
    ("played_but_thrown_in", ["pass"] * 4, contract()),
    ("thrown_in_but_played", [bid(80), "pass", "pass", "pass"], {"kind": "thrown_in"}),
]


@pytest.mark.parametrize(
    ("name", "calls", "said"), CONTRACT_MISMATCHES, ids=[c[0] for c in CONTRACT_MISMATCHES]
)
def test_contract_must_be_the_auctions_outcome(
    name: str, calls: list[Any], said: dict[str, Any]
) -> None:
    record = full(bids=calls, contract=said)
    if said["kind"] == "thrown_in":
        del record["plays"]
    result = check(record)
    assert codes(result) == ["contract_mismatch"], (name, result["errors"])
    error = next(e for e in result["errors"] if e["code"] == "contract_mismatch")
    assert error["field"] == "contract"
    assert error["params"]["auction"] == ref.auction(calls, 0)
    assert "the auction leads to" in error["message"]


# ----- summary records (dealer 3: forehand seat 0; takers team 0 unless said) --------------


def summary(**fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": "belote-contree", "dealer": 3}
    rec["contract"] = contract()
    rec.update(fields)
    return rec


SUMMARY_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # RULES.md: the defenders' points made to the nearest ten, the takers the rest of 160
    (
        "made_100_hearts",
        {"contract": contract(100), "card_points": [104, 58]},
        {"outcome": "made", "points": [100, 60], "winner_team": 0},
    ),
    (
        "a_5_rounds_up",
        {"contract": contract(100), "card_points": [107, 55]},
        {"outcome": "made", "points": [100, 60]},
    ),
    (
        "a_4_rounds_down",
        {"contract": contract(100), "card_points": [108, 54]},
        {"outcome": "made", "points": [110, 50]},
    ),
    (
        "exactly_the_value_is_made",
        {"contract": contract(110), "card_points": [110, 52]},
        {"outcome": "made", "points": [110, 50]},
    ),
    (
        "one_short_fails",
        {"contract": contract(110), "card_points": [109, 53]},
        {"outcome": "failed", "points": [0, 160], "winner_team": 1},
    ),
    (
        "made_82_80",
        {"contract": contract(80), "card_points": [82, 80]},
        {"outcome": "made", "points": [80, 80]},
    ),
    (
        "takers_team_1",
        {"contract": contract(90, declarer=3), "card_points": [64, 98]},
        {"outcome": "made", "points": [60, 100], "winner_team": 1, "playing_team": 1},
    ),
    (
        "failed_120_coinched",
        {"contract": contract(120, doubling=1), "card_points": [100, 62]},
        {"outcome": "failed", "points": [0, 320], "winner_team": 1},
    ),
    (
        "made_coinched",
        {"contract": contract(120, doubling=1), "card_points": [130, 32]},
        {"outcome": "made", "points": [320, 0], "winner_team": 0},
    ),
    (
        "made_surcoinched",
        {"contract": contract(90, declarer=1, doubling=2), "card_points": [50, 112]},
        {"outcome": "made", "points": [0, 640]},
    ),
    (
        "failed_surcoinched",
        {"contract": contract(90, declarer=1, doubling=2), "card_points": [80, 82]},
        {"outcome": "failed", "points": [640, 0]},
    ),
    (
        "all_tricks_without_a_capot_contract",
        {"contract": contract(160), "card_points": [162, 0], "tricks_won": [8, 0]},
        {"outcome": "made", "points": [250, 0], "capot": 0, "points_made": [252, 0]},
    ),
    (
        "all_points_7_tricks",
        {"contract": contract(160), "card_points": [162, 0], "tricks_won": [7, 1]},
        {"outcome": "made", "points": [160, 0], "capot": None, "points_made": [162, 0]},
    ),
    (
        "capot_bid_and_made",
        {"contract": contract("capot"), "card_points": [162, 0], "tricks_won": [8, 0]},
        {"outcome": "made", "points": [250, 0], "capot": 0, "value": "capot"},
    ),
    (
        "capot_bid_7_tricks_fails",
        {"contract": contract("capot"), "card_points": [162, 0], "tricks_won": [7, 1]},
        {"outcome": "failed", "points": [0, 250]},
    ),
    (
        "capot_bid_coinched_and_made",
        {"contract": contract("capot", doubling=1), "card_points": [162, 0], "tricks_won": [8, 0]},
        {"outcome": "made", "points": [500, 0]},
    ),
    (
        "capot_bid_surcoinched_fails",
        {"contract": contract("capot", doubling=2), "card_points": [140, 22]},
        {"outcome": "failed", "points": [0, 1000]},
    ),
    (
        "coinched_all_tricks_is_the_game_value",
        {"contract": contract(80, doubling=1), "card_points": [162, 0], "tricks_won": [8, 0]},
        {"outcome": "made", "points": [320, 0], "capot": 0},
    ),
    (
        "defenders_take_all_tricks",
        {"contract": contract(80), "card_points": [0, 162], "tricks_won": [0, 8]},
        {"outcome": "failed", "points": [0, 160], "capot": 1, "points_made": [0, 252]},
    ),
    (
        "revoke_by_takers",
        {
            "contract": contract(100),
            "card_points": [30, 40],
            "tricks_won": [2, 2],
            "revoke": {"seat": 2, "card": "7C"},
        },
        {"outcome": "revoke", "points": [0, 160], "winner_team": 1, "capot": None},
    ),
    (
        "revoke_by_defenders_coinched",
        {
            "contract": contract(100, doubling=1),
            "card_points": [30, 40],
            "revoke": {"seat": 1, "card": "7C"},
        },
        {"outcome": "revoke", "points": [320, 0], "winner_team": 0},
    ),
    (
        "revoke_capot_contract_surcoinched",
        {
            "contract": contract("capot", doubling=2),
            "card_points": [0, 0],
            "revoke": {"seat": 0, "card": "7C"},
        },
        {"outcome": "revoke", "points": [0, 1000]},
    ),
    (
        "thrown_in",
        {"contract": {"kind": "thrown_in"}},
        {"outcome": "thrown_in", "points": [0, 0], "winner_team": None, "kind": "thrown_in"},
    ),
]


@pytest.mark.parametrize(
    ("name", "fields", "expect"), SUMMARY_CASES, ids=[c[0] for c in SUMMARY_CASES]
)
def test_summary(name: str, fields: dict[str, Any], expect: dict[str, Any]) -> None:
    record = summary(**fields)
    result = check(record)
    assert result["valid"], (name, result["errors"])
    for key, value in expect.items():
        assert result[key] == value, (name, key, result)
    assert result["total"] == sum(result["points"])
    if result["outcome"] != "thrown_in":
        revoke = record.get("revoke")
        tricks = record.get("tricks_won")
        want = ref.score_numbers(
            record["contract"],
            record["card_points"],
            tricks,
            None if revoke is None else revoke["seat"],
        )
        assert (result["points"], result["outcome"]) == (want["points"], want["outcome"])


REFUSALS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("all_points_need_tricks", {"card_points": [162, 0]}, ["missing_field"]),
    ("all_points_need_tricks_1", {"card_points": [0, 162]}, ["missing_field"]),
    ("sum_not_162", {"card_points": [100, 64]}, ["impossible_points"]),
    ("tricks_not_8", {"card_points": [100, 62], "tricks_won": [4, 3]}, ["impossible_tricks"]),
    (
        "all_tricks_need_all_points",
        {"card_points": [150, 12], "tricks_won": [8, 0]},
        ["impossible_points"],
    ),
    ("one_point", {"card_points": [1, 161]}, ["impossible_points"]),
    ("no_card_points", {}, ["bad_format"]),
    ("value_85", {"card_points": [100, 62], "contract": contract(85)}, ["bid_value_not_allowed"]),
    (
        "value_capot_text",
        {"card_points": [100, 62], "contract": contract("CAPOT")},
        ["bid_value_not_allowed"],
    ),
    ("doubling_3", {"card_points": [100, 62], "contract": contract(doubling=3)}, ["bad_format"]),
    (
        "doubling_missing",
        {
            "card_points": [100, 62],
            "contract": {"kind": "contree", "declarer": 0, "trump": "H", "value": 80},
        },
        ["bad_format"],
    ),
    (
        "kind_belote",
        {
            "card_points": [100, 62],
            "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 1},
        },
        ["contract_mismatch"],
    ),
    ("declarer_4", {"card_points": [100, 62], "contract": contract(declarer=4)}, ["bad_format"]),
    ("trump_x", {"card_points": [100, 62], "contract": contract(trump="X")}, ["bad_format"]),
    ("bids_in_a_summary", {"card_points": [100, 62], "bids": ["pass"]}, ["bad_format"]),
    ("no_upcard_field", {"card_points": [100, 62], "upcard": "7H"}, ["unknown_field"]),
    ("no_melds", {"card_points": [100, 62], "melds": []}, ["unknown_field"]),
    ("no_bella", {"card_points": [100, 62], "bella": 0}, ["unknown_field"]),
    ("no_bidding", {"card_points": [100, 62], "bidding": []}, ["unknown_field"]),
    ("no_doubling_field", {"card_points": [100, 62], "doubling": "kontra"}, ["unknown_field"]),
    (
        "thrown_in_has_no_points",
        {"contract": {"kind": "thrown_in"}, "card_points": [100, 62]},
        ["thrown_in_not_empty"],
    ),
    (
        "thrown_in_has_no_revoke",
        {"contract": {"kind": "thrown_in"}, "revoke": {"seat": 0, "card": "7C"}},
        ["thrown_in_not_empty"],
    ),
    (
        "thrown_in_with_a_declarer",
        {"contract": {"kind": "thrown_in", "declarer": 0}},
        ["bad_format"],
    ),
    ("bad_dealer", {"card_points": [100, 62], "dealer": 4}, ["bad_format"]),
]


@pytest.mark.parametrize(("name", "fields", "want"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_refusals(name: str, fields: dict[str, Any], want: list[str]) -> None:
    result = check(summary(**fields))
    assert not result["valid"], name
    assert codes(result) == want, (name, result["errors"])
    for error in result["errors"]:
        assert error["message"] and "Error" not in error["message"]


def test_contract_value_refusal_names_it() -> None:
    error = check(summary(card_points=[100, 62], contract=contract(85)))["errors"][0]
    assert error["field"] == "contract.value" and error["params"] == {"value": "85"}
    assert "85" in error["message"] and "capot" in error["message"]


# ----- full records ------------------------------------------------------------------------

SUITED = [
    ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
]
ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]


def full(**extra: Any) -> dict[str, Any]:
    """Seat 0 (all Hearts, trump) bids capot and wins every trick."""
    rec: dict[str, Any] = {
        "format": F,
        "rules": "belote-contree",
        "dealer": 3,
        "hands": copy.deepcopy(SUITED),
        "bids": [bid("capot"), "pass", "pass", "pass"],
        "contract": contract("capot"),
        "plays": [r + s for r in ORDER for s in "HCSD"],
    }
    rec.update(extra)
    return rec


def test_full_capot_bid_and_made() -> None:
    result = check(full())
    assert result["valid"], result["errors"]
    assert result["tricks_won"] == [8, 0] and result["capot"] == 0
    assert result["card_points"] == [162, 0] and result["points_made"] == [252, 0]
    assert result["points"] == [250, 0] and result["total"] == 250
    assert (result["outcome"], result["winner_team"]) == ("made", 0)
    assert (result["kind"], result["value"], result["doubling"]) == ("contree", "capot", 0)
    assert (result["declarer"], result["playing_team"], result["trump"]) == (0, 0, "H")
    assert (
        len(result["tricks"]) == 8 and result["tricks"][7]["points"] == 10
    )  # four 7s and the last trick
    assert result["rules"]["preset"] == "belote-contree" and result["revoke"] is None


def test_full_surcoinched_capot_by_the_other_side() -> None:
    calls = [bid(80), bid("capot", "C"), "coinche", "surcoinche"]
    # Clubs trump: seat 0's Hearts lead, seat 1 must trump (no Hearts) and takes them all
    plays = ["AH", "7C", "AS", "AD"]
    for r in ["A", "T", "K", "Q", "J", "9", "8"]:
        plays += [r + "C", r + "S" if r != "A" else "7S", r + "D" if r != "A" else "7D"]
        plays.append(r + "H" if r != "A" else "7H")
    record = full(bids=calls, contract=contract("capot", declarer=1, trump="C", doubling=2))
    result = check({**record, "plays": plays})
    assert result["valid"], result["errors"]
    assert result["tricks_won"] == [0, 8]
    assert result["points"] == [0, 1000] and result["outcome"] == "made"


FULL_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("incomplete", {"plays": ["AH", "AC"]}, "incomplete_play"),
    ("summary_fields", {"card_points": [162, 0]}, "bad_format"),
    ("no_bids", {"bids": None}, "bad_format"),
    ("no_plays", {"plays": None}, "bad_format"),
    ("bids_not_a_list", {"bids": "pass"}, "bad_format"),
    ("seven_cards", {"hands": [h[:7] for h in SUITED]}, "wrong_card_count"),
    ("dealt_twice", {"hands": [SUITED[0], SUITED[0], SUITED[2], SUITED[3]]}, "duplicate_card"),
    ("not_held", {"plays": ["AC"]}, "card_not_in_hand"),
    ("too_many", {"plays": [r + s for r in ORDER for s in "HCSD"] + ["AH"]}, "too_many_plays"),
    (
        "revoke_not_illegal",
        {"plays": ["AH"], "revoke": {"seat": 1, "card": "AC"}},
        "revoke_not_illegal",
    ),
    (
        "revoke_wrong_seat",
        {"plays": ["AH"], "revoke": {"seat": 2, "card": "AS"}},
        "revoke_wrong_seat",
    ),
    ("revoke_after_the_end", {"revoke": {"seat": 0, "card": "AH"}}, "too_many_plays"),
]


@pytest.mark.parametrize(
    ("name", "fields", "code"), FULL_REFUSALS, ids=[c[0] for c in FULL_REFUSALS]
)
def test_full_refusals(name: str, fields: dict[str, Any], code: str) -> None:
    record = full(**fields)
    for key in [k for k, v in record.items() if v is None]:
        del record[key]
    result = check(record)
    assert codes(result) == [code], (name, result["errors"])


def test_illegal_play_names_trick_seat_and_card() -> None:
    hands = copy.deepcopy(SUITED)
    hands[0][0], hands[1][0] = "7C", "7H"  # seat 1 holds one trump, and Clubs
    calls = [bid(90), "pass", "pass", "pass"]
    record = full(hands=hands, bids=calls, contract=contract(90), plays=["AH", "AC"])
    error = check(record)["errors"][0]
    assert error["code"] == "illegal_play" and error["play"] == 1
    assert error["params"]["seat"] == 1 and error["params"]["card"] == "AC"
    assert error["params"]["trick"] == 1 and error["params"]["legal"] == ["7H"]
    assert "seat 1" in error["message"] and "7H" in error["message"]
    record["plays"] = ["AH"]
    record["revoke"] = {"seat": 1, "card": "AC"}
    revoked = check(record)
    assert revoked["valid"], revoked["errors"]
    assert revoked["outcome"] == "revoke" and revoked["points"] == [160, 0]
    assert revoked["revoke"] == {"seat": 1, "card": "AC"}
    record["bids"] = [bid(90), "coinche"]
    record["contract"] = contract(90, doubling=1)
    assert check(record)["points"] == [320, 0]


def test_an_outtrumped_player_may_discard() -> None:
    """RULES.md: unable to beat the trump in the trick, any card (Belote would make seat 3
    play its lower trump)."""
    hands = [
        ["AC", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        ["JH", "AS", "7D", "8D", "9D", "TD", "JD", "QD"],
        ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "KD"],
        ["7H", "8H", "9H", "TH", "QH", "KH", "AH", "AD"],
    ]
    calls = [bid(80, "H"), "pass", "pass", "pass"]
    start = {"hands": hands, "bids": calls, "contract": contract(80)}
    record = full(**start, plays=["AC", "JH", "KC", "AD"])
    result = check(record)
    assert codes(result) == ["incomplete_play"]  # AD was legal: the play went on
    with_trump = check(full(**start, plays=["AC", "JH", "KC", "7H"]))
    assert codes(with_trump) == ["incomplete_play"]  # so was a lower trump


def test_thrown_in_full_record() -> None:
    record = full(bids=["pass"] * 4, contract={"kind": "thrown_in"})
    del record["plays"]
    result = check(record)
    assert result["valid"], result["errors"]
    assert (result["outcome"], result["winner_team"], result["points"]) == (
        "thrown_in",
        None,
        [0, 0],
    )
    assert (result["kind"], result["declarer"], result["value"]) == ("thrown_in", None, None)
    record["plays"] = []
    assert check(record)["valid"]
    record["plays"] = ["AH"]
    assert codes(check(record)) == ["thrown_in_not_empty"]
    record["plays"] = []
    record["hands"] = [h[:5] for h in SUITED]
    assert codes(check(record)) == ["wrong_card_count"]


def test_every_problem_is_listed_at_once() -> None:
    record = full(bids=[bid(85)], note="x")
    record["plays"] = record["plays"][:3]
    assert [e["code"] for e in check(record)["errors"]] == [
        "unknown_field",
        "bid_value_not_allowed",
    ]


# ----- the codes, the preset, the match ------------------------------------------------------


def test_new_codes_are_stable_and_documented() -> None:
    assert [str(c) for c in CONTREE_CODES] == [
        "bid_not_higher",
        "bid_value_not_allowed",
        "coinche_not_allowed",
        "surcoinche_not_allowed",
    ]
    documented = (Path(__file__).parents[2] / "games" / "engine" / "errors.py").read_text()
    for code in CONTREE_CODES:
        assert Code(str(code)) is code
        assert f"- ``{code}``: Belote Contrée" in documented  # the module docstring


def test_contree_is_engine_only() -> None:
    assert "belote-contree" in ALL_PRESETS and "belote-contree" in ENGINE_ONLY_PRESETS
    assert "belote-contree" not in PRESETS
    with pytest.raises(RulesError) as caught:
        resolve_rules("belote-contree")
    assert caught.value.code == "unknown_rules"
    assert resolve_rules("belote-contree", include_engine_only=True) is CONTREE
    assert (CONTREE.game, CONTREE.players) == ("contree", 4)
    assert (CONTREE.deals_per_match, CONTREE.target_points, CONTREE.match_by) == (
        12,
        2000,
        "deals",
    )
    rules = check(summary(card_points=[100, 62]))["rules"]
    assert rules == {
        "preset": "belote-contree",
        "options": {
            "game": "contree",
            "players": 4,
            "overtrump_on_trump_lead": True,
            "partner_exempt": True,
            "partner_exempt_trump_lead": False,
            "free_when_outtrumped": True,
            "match_by": "deals",
            "deals_per_match": 12,
            "target_points": 2000,
        },
    }


def _result(points: list[int]) -> dict[str, Any]:
    return {"valid": True, "outcome": "made", "points": points}


def test_match_of_12_deals_or_to_2000() -> None:
    thrown = {"valid": True, "outcome": "thrown_in", "points": [0, 0]}
    state = score_match([_result([100, 60]), thrown] + [_result([0, 160])] * 11, CONTREE)
    assert state.finished and state.deals == 12
    assert state.points == (100, 60 + 1760) and state.winner == 1
    to_2000 = resolve_rules(
        {"preset": "belote-contree", "options": {"match_by": "target"}}, include_engine_only=True
    )
    deals = [_result([320, 0])] * 6 + [_result([0, 160])]
    state = score_match(deals, to_2000)
    assert not state.finished and state.points == (1920, 160)
    state = score_match([*deals, _result([110, 50])], to_2000)
    assert state.finished and state.points == (2030, 210) and state.winner == 0


def test_round_to_ten() -> None:
    assert [round_to_ten(p) for p in (0, 4, 5, 14, 15, 75, 82)] == [0, 0, 10, 10, 20, 80, 80]


# ----- the engine against the plain reference ----------------------------------------------


def _compare(record: dict[str, Any]) -> dict[str, Any]:
    result = check(record)
    assert result["valid"], (record, result["errors"])
    want = ref.score(record)
    assert result["points"] == want["points"], record
    assert result["outcome"] == want["outcome"], record
    assert result["capot"] == want["capot"], record
    if result["outcome"] != "thrown_in":
        assert result["card_points"] == want["card_points"], record
        assert result["tricks_won"] == want["tricks_won"], record
    return want


def _as_summary(record: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    rec = {k: v for k, v in record.items() if k not in ("hands", "plays", "bids")}
    rec["card_points"] = want["card_points"]
    rec["tricks_won"] = want["tricks_won"]
    return rec


def test_engine_matches_reference_on_random_deals() -> None:
    rng = random.Random(20261206)
    seen: dict[str, int] = {}
    for n in range(3000):
        record = ref.deal(rng, dealer=n % 4)
        want = _compare(record)
        contract = record["contract"]
        key = want["outcome"] + (
            "" if contract["kind"] == "thrown_in" else str(contract["doubling"])
        )
        seen[key] = seen.get(key, 0) + 1
        if contract["kind"] == "thrown_in":
            continue
        summary_result = check(_as_summary(record, want))
        assert summary_result["valid"], summary_result["errors"]
        assert summary_result["points"] == want["points"], record
        if "revoke" in record:
            # the same card without a declared revoke is an illegal play there
            bad = dict(record, plays=[*record["plays"], record["revoke"]["card"]])
            del bad["revoke"]
            error = check(bad)["errors"][0]
            assert (error["code"], error["play"]) == ("illegal_play", len(record["plays"]))
    # every kind of deal came up often
    for key in ("made0", "failed0", "made1", "failed1", "made2", "failed2", "revoke0"):
        assert seen.get(key, 0) > 20, seen
    assert seen.get("thrown_in", 0) > 50, seen


def test_engine_refuses_broken_auctions_as_the_reference() -> None:
    rng = random.Random(38)
    refused = 0
    for n in range(3000):
        calls = ref.random_calls(rng, broken=True)
        forehand = (n + 1) % 4
        want = ref.auction(calls, forehand)
        record = full(dealer=n % 4, bids=calls)
        if "error" not in want:
            record["contract"] = want
            if want["kind"] == "thrown_in":
                del record["plays"]
            result = check(record)
            assert "bidding_mismatch" not in codes(result), (calls, result["errors"])
            assert not {str(c) for c in CONTREE_CODES} & set(codes(result)), calls
            continue
        refused += 1
        error = check(record)["errors"][0]
        assert error["code"] == want["error"], (calls, error)
        if want["call"] < len(calls):
            assert error["field"] == f"bids[{want['call']}]", (calls, error)
            assert error["params"]["seat"] == (forehand + want["call"]) % 4
    assert refused > 2000


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_engine_random_deals_agree_with_reference(seed: int, dealer: int) -> None:
    record = random_deal(random.Random(seed), dealer=dealer, rules="belote-contree")
    _compare(record)
    assert ref.auction(record["bids"], (dealer + 1) % 4) == record["contract"]
    if record["contract"]["kind"] == "thrown_in":
        return
    trump = record["contract"]["trump"]
    hands = copy.deepcopy(record["hands"])
    seat, trick = (dealer + 1) % 4, []
    for card in record["plays"]:
        assert card in ref.legal(hands[seat], trick, trump), (record, card)
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            seat, trick = (seat + 1 + ref.heading(trick, trump)) % 4, []
        else:
            seat = (seat + 1) % 4
