"""Belote (preset ``belote``, RULES.md "Belote"): play rules, melds, belote-rebelote,
made or dedans, capot, revoke, summaries, refusals, the match, and the engine against
the plain reference in ``belote_reference`` on thousands of random deals."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_PRESETS,
    CARD_BY_TEXT,
    ENGINE_ONLY_PRESETS,
    PRESETS,
    RulesError,
    analyse,
    check,
    legal_cards,
    random_deal,
    resolve_rules,
    score_match,
)
from games.engine.belote import meld_contest, meld_of_cards

from . import belote_reference as ref

F = "klammern-deal/1"
BELOTE = ALL_PRESETS["belote"]


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
    ("7C AC", "7H KS", "7H", "opponent heads: must trump"),
    ("AC 7H", "8H 9H KS", "8H 9H", "opponent heads with a trump: overtrump"),
    ("AC JH", "7H 8S 9D", "7H", "cannot overtrump: any trump (undertrumping is a duty)"),
    ("AC JH", "8S 9D", "8S 9D", "no trump: any card"),
    ("7C AC 8C", "7H KS", "7H KS", "partner heads: no duty beyond following suit"),
    ("AC 9H 8C", "7H JH KS", "7H JH KS", "partner heads with a trump: any card"),
    ("7C AC 8C", "KC 7H", "KC", "partner heads, but the player can follow"),
    ("8H", "7H JH AS", "JH", "trump led: a higher trump if able"),
    ("8H", "7H AS", "7H", "trump led, nothing higher: any trump"),
    ("8H", "AS KS", "AS KS", "trump led, no trump: any card"),
    ("8H 9H", "JH TH", "JH", "trump led, opponent heads: go higher"),
    ("8H 9H 7H", "JH TH", "JH TH", "trump led, partner heads: any trump"),
    ("9H 8H", "JH TH", "JH TH", "trump led, partner (the leader) heads: any trump"),
]


@pytest.mark.parametrize(("trick", "hand", "legal", "why"), PLAY_CASES)
def test_play_rules(trick: str, hand: str, legal: str, why: str) -> None:
    got = legal_cards(mask(hand), cards(trick), 2, BELOTE)
    assert got == mask(legal), why
    reference = ref.legal(hand.split(), trick.split(), "H")
    assert sorted(reference) == sorted(legal.split()), why


# ----- melds -------------------------------------------------------------------------------

MELD_VALUES = [
    ("JC JS JH JD", 200),
    ("9C 9S 9H 9D", 150),
    ("AC AS AH AD", 100),
    ("TC TS TH TD", 100),
    ("KC KS KH KD", 100),
    ("QC QS QH QD", 100),
    ("7C 8C 9C", 20),
    ("TD JD QD KD", 50),
    ("9S TS JS QS KS", 100),
    ("7H 8H 9H TH JH QH KH AH", 100),
]


@pytest.mark.parametrize(("texts", "value"), MELD_VALUES)
def test_meld_values(texts: str, value: int) -> None:
    meld = meld_of_cards(0, cards(texts))
    assert meld is not None and meld.value == value
    assert ref.meld_value(texts.split()) == value


@pytest.mark.parametrize("texts", ["8C 8S 8H 8D", "7C 7S 7H 7D", "7C 8C", "7C 9C TC", "AC AS AH"])
def test_not_melds(texts: str) -> None:
    assert meld_of_cards(0, cards(texts)) is None


CONTEST_CASES = [
    # (melds as (seat, cards), trump, winning team, why); forehand is seat 0
    ([(1, "JC JS JH JD"), (0, "9S TS JS QS KS")], "H", 1, "four Jacks 200 over a 100"),
    ([(0, "9C 9S 9H 9D"), (1, "AC AS AH AD")], "H", 0, "four Nines 150 over four Aces"),
    ([(1, "9S TS JS QS KS"), (0, "AC AS AH AD")], "H", 1, "equal value: more cards"),
    ([(1, "AC AS AH AD"), (0, "KC KS KH KD")], "H", 1, "equal value and cards: higher top"),
    ([(0, "JD QD KD"), (1, "JH QH KH")], "H", 1, "equal top: the trump sequence"),
    ([(2, "JD QD KD"), (1, "JS QS KS")], "H", 1, "all equal: first in play from forehand"),
    ([(0, "7C 8C 9C TC"), (1, "QS KS AS")], "C", 0, "a 50 beats a 20 with a higher top"),
    ([(3, "QS KS AS"), (2, "TC JC QC")], "D", 1, "higher top card"),
]


@pytest.mark.parametrize(("melds", "trump", "team", "why"), CONTEST_CASES)
def test_meld_contest(melds: list[tuple[int, str]], trump: str, team: int, why: str) -> None:
    parsed = [meld_of_cards(seat, cards(texts)) for seat, texts in melds]
    assert all(m is not None for m in parsed)
    won, scored = meld_contest(
        [m for m in parsed if m is not None], trump="CSHD".index(trump), forehand=0
    )
    assert won == team, why
    assert {m.seat & 1 for m in scored} == {team}
    as_ref = [{"seat": seat, "cards": texts.split()} for seat, texts in melds]
    best = max(as_ref, key=lambda m: ref.meld_key(m, trump, 0))
    assert best["seat"] % 2 == team, why


# ----- summary records (dealer 3: forehand seat 0 takes in Hearts, upcard 7H) ---------------


def summary(**fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": "belote", "dealer": 3, "upcard": "7H"}
    rec["contract"] = {"kind": "belote", "declarer": 0, "trump": "H", "round": 1}
    rec.update(fields)
    return rec


TERZ_1 = {"seat": 1, "cards": ["8C", "9C", "TC"]}

SUMMARY_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("made", {"card_points": [100, 62]}, {"outcome": "made", "points": [100, 62]}),
    (
        "dedans",
        {"card_points": [70, 92], "tricks_won": [3, 5]},
        {"outcome": "failed", "points": [0, 162], "winner_team": 1},
    ),
    ("equal_is_dedans", {"card_points": [81, 81]}, {"outcome": "failed", "points": [0, 162]}),
    (
        "defenders_meld_turns_it",
        {"card_points": [90, 72], "melds": [TERZ_1]},
        {"outcome": "failed", "points": [0, 182], "melds": {"winning_team": 1}},
    ),
    (
        "dedans_takes_the_takers_melds_too",
        {"card_points": [60, 102], "melds": [{"seat": 2, "cards": ["8S", "9S", "TS"]}]},
        {"outcome": "failed", "points": [0, 182], "melds": {"winning_team": 0}},
    ),
    (
        "takers_keep_their_belote_when_dedans",
        {"card_points": [70, 92], "bella": 0},
        {"outcome": "failed", "points": [20, 162], "bella": {"seat": 0, "points": 20}},
    ),
    (
        "defenders_belote_on_dedans",
        {"card_points": [80, 82], "bella": 1},
        {"outcome": "failed", "points": [0, 182]},
    ),
    (
        "belote_makes_it",
        {"card_points": [75, 87], "bella": 2},
        {"outcome": "made", "points": [95, 87]},
    ),
    (
        "only_the_best_team_scores_melds",
        {
            "card_points": [100, 62],
            "melds": [
                TERZ_1,
                {"seat": 0, "cards": ["TH", "JH", "QH", "KH"]},
                {"seat": 2, "cards": ["7S", "8S", "9S"]},
                {"seat": 3, "cards": ["QD", "KD", "AD"]},
            ],
        },
        {"outcome": "made", "points": [100 + 50 + 20, 62], "melds": {"winning_team": 0}},
    ),
    (
        "capot",
        {"card_points": [162, 0], "tricks_won": [8, 0]},
        {"outcome": "made", "points": [252, 0], "capot": 0},
    ),
    (
        "capot_by_the_defenders",
        {"card_points": [0, 162], "tricks_won": [0, 8], "bella": 0},
        {"outcome": "failed", "points": [20, 252], "capot": 1},
    ),
    (
        "all_points_7_tricks_no_capot",
        {"card_points": [162, 0], "tricks_won": [7, 1]},
        {"outcome": "made", "points": [162, 0], "capot": None},
    ),
    (
        "revoke_by_takers",
        {
            "card_points": [30, 40],
            "tricks_won": [2, 2],
            "revoke": {"seat": 2, "card": "7C"},
            "melds": [TERZ_1],
        },
        {"outcome": "revoke", "points": [0, 182], "winner_team": 1},
    ),
    (
        "revoke_clean_team_scores_all_melds_and_its_belote",
        {
            "card_points": [30, 40],
            "tricks_won": [2, 2],
            "revoke": {"seat": 1, "card": "7C"},
            "melds": [TERZ_1],
            "bella": 0,
        },
        {"outcome": "revoke", "points": [162 + 20 + 20, 0], "winner_team": 0},
    ),
    (
        "revoke_loses_own_belote",
        {"card_points": [30, 40], "revoke": {"seat": 1, "card": "7C"}, "bella": 3},
        {"outcome": "revoke", "points": [162, 0]},
    ),
    ("thrown_in", {"contract": {"kind": "thrown_in"}}, {"outcome": "thrown_in", "points": [0, 0]}),
]


@pytest.mark.parametrize(
    ("name", "fields", "expect"), SUMMARY_CASES, ids=[c[0] for c in SUMMARY_CASES]
)
def test_summary(name: str, fields: dict[str, Any], expect: dict[str, Any]) -> None:
    result = check(summary(**fields))
    assert result["valid"], (name, result["errors"])
    for key, value in expect.items():
        if key == "melds":
            assert result["melds"]["winning_team"] == value["winning_team"], name
        else:
            assert result[key] == value, (name, key, result)
    if result["outcome"] != "revoke":
        assert result["total"] == sum(result["points"])


REFUSALS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("all_points_need_tricks", {"card_points": [162, 0]}, ["missing_field"]),
    ("all_points_need_tricks_1", {"card_points": [0, 162]}, ["missing_field"]),
    ("sum_not_162", {"card_points": [100, 64]}, ["impossible_points"]),
    ("tricks_not_8", {"card_points": [100, 62], "tricks_won": [4, 3]}, ["impossible_tricks"]),
    (
        "capot_needs_all_points",
        {"card_points": [150, 12], "tricks_won": [8, 0]},
        ["impossible_points"],
    ),
    ("one_point", {"card_points": [1, 161]}, ["impossible_points"]),
    (
        "round_1_is_the_upcards_suit",
        {
            "card_points": [100, 62],
            "contract": {"kind": "belote", "declarer": 0, "trump": "S", "round": 1},
        },
        ["contract_mismatch"],
    ),
    (
        "round_2_is_another_suit",
        {
            "card_points": [100, 62],
            "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 2},
        },
        ["contract_mismatch"],
    ),
    (
        "round_missing",
        {"card_points": [100, 62], "contract": {"kind": "belote", "declarer": 0, "trump": "H"}},
        ["bad_format"],
    ),
    (
        "kind_klaverjas",
        {"card_points": [100, 62], "contract": {"kind": "klaverjas", "declarer": 0, "trump": "H"}},
        ["contract_mismatch"],
    ),
    ("no_upcard", {"card_points": [100, 62], "upcard": None}, ["bad_format"]),
    ("bidding_absent", {"card_points": [100, 62], "bidding": []}, ["unknown_field"]),
    ("no_doubling", {"card_points": [100, 62], "doubling": "kontra"}, ["unknown_field"]),
    ("no_march", {"card_points": [100, 62], "march": True}, ["unknown_field"]),
    (
        "four_eights_no_meld",
        {"card_points": [100, 62], "melds": [{"seat": 1, "cards": ["8C", "8S", "8H", "8D"]}]},
        ["not_a_meld"],
    ),
    (
        "two_cards_no_meld",
        {"card_points": [100, 62], "melds": [{"seat": 1, "cards": ["8C", "9C"]}]},
        ["not_a_meld"],
    ),
    (
        "same_four_twice",
        {
            "card_points": [100, 62],
            "melds": [
                {"seat": 1, "cards": ["AC", "AS", "AH", "AD"]},
                {"seat": 1, "cards": ["AD", "AH", "AS", "AC"]},
            ],
        },
        ["duplicate_meld"],
    ),
    (
        "touching_sequences",
        {
            "card_points": [100, 62],
            "melds": [
                {"seat": 1, "cards": ["7C", "8C", "9C"]},
                {"seat": 1, "cards": ["TC", "JC", "QC"]},
            ],
        },
        ["meld_not_maximal"],
    ),
    (
        "upcard_is_the_takers",
        {"card_points": [100, 62], "melds": [{"seat": 1, "cards": ["7H", "8H", "9H"]}]},
        ["duplicate_card"],
    ),
    (
        "belote_and_meld_of_two_seats",
        {
            "card_points": [100, 62],
            "bella": 0,
            "melds": [{"seat": 1, "cards": ["QH", "KH", "AH"]}],
        },
        ["duplicate_card"],
    ),
    (
        "thrown_in_has_no_points",
        {"contract": {"kind": "thrown_in"}, "card_points": [100, 62]},
        ["thrown_in_not_empty"],
    ),
    ("no_such_seat", {"card_points": [100, 62], "bella": 4}, ["bad_format"]),
]


@pytest.mark.parametrize(("name", "fields", "want"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_refusals(name: str, fields: dict[str, Any], want: list[str]) -> None:
    record = summary(**fields)
    if record.get("upcard", "") is None:
        del record["upcard"]
    result = check(record)
    assert not result["valid"], name
    assert codes(result) == want, (name, result["errors"])
    for error in result["errors"]:
        assert error["message"] and "Error" not in error["message"]


def test_refusal_words_name_what_to_fix() -> None:
    error = check(summary(card_points=[0, 162]))["errors"][0]
    assert error["field"] == "tricks_won" and "all 8 tricks" in error["message"]
    contract = {"kind": "belote", "declarer": 0, "trump": "S", "round": 1}
    error = check(summary(card_points=[100, 62], contract=contract))["errors"][0]
    assert "first round" in error["message"] and "Hearts" in error["message"]


# ----- full records ------------------------------------------------------------------------

SUITED = [
    ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
]
ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]


def full(**extra: Any) -> dict[str, Any]:
    """Seat 0 (all Hearts, trump) takes in the first round and wins every trick."""
    rec: dict[str, Any] = {
        "format": F,
        "rules": "belote",
        "dealer": 3,
        "upcard": "7H",
        "hands": copy.deepcopy(SUITED),
        "contract": {"kind": "belote", "declarer": 0, "trump": "H", "round": 1},
        "plays": [r + s for r in ORDER for s in "HCSD"],
    }
    rec.update(extra)
    return rec


def test_full_capot_melds_and_belote() -> None:
    melds = [{"seat": s, "cards": SUITED[s]} for s in range(3)]
    result = check(full(melds=melds, bella=0))
    assert result["valid"], result["errors"]
    assert result["tricks_won"] == [8, 0] and result["capot"] == 0
    assert result["card_points"] == [162, 0]
    # Hearts and Clubs runs of 8 tie on value, cards and top: the trump run wins.
    assert result["melds"]["winning_team"] == 0
    assert [m["seat"] for m in result["melds"]["scored"]] == [0, 2]
    assert result["points"] == [252 + 100 + 100 + 20, 0]
    assert (result["outcome"], result["winner_team"]) == ("made", 0)
    assert len(result["tricks"]) == 8 and result["round"] == 1


FULL_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    (
        "upcard_not_with_the_taker",
        {"upcard": "7H", "contract": {"kind": "belote", "declarer": 1, "trump": "H", "round": 1}},
        "card_not_in_hand",
    ),
    ("meld_not_held", {"melds": [{"seat": 1, "cards": ["7S", "8S", "9S"]}]}, "meld_not_held"),
    ("meld_not_maximal", {"melds": [{"seat": 0, "cards": ["7H", "8H", "9H"]}]}, "meld_not_maximal"),
    ("belote_not_held", {"bella": 1}, "bella_not_held"),
    ("incomplete", {"plays": ["AH", "AC"]}, "incomplete_play"),
    ("summary_fields", {"card_points": [162, 0]}, "bad_format"),
    (
        "revoke_not_illegal",
        {"plays": ["AH"], "revoke": {"seat": 1, "card": "AC"}},
        "revoke_not_illegal",
    ),
]


@pytest.mark.parametrize(
    ("name", "fields", "code"), FULL_REFUSALS, ids=[c[0] for c in FULL_REFUSALS]
)
def test_full_refusals(name: str, fields: dict[str, Any], code: str) -> None:
    result = check(full(**fields))
    assert code in codes(result), (name, result["errors"])


def test_illegal_play_names_seat_and_card() -> None:
    hands = copy.deepcopy(SUITED)
    hands[0][0], hands[1][0] = "7C", "7H"  # seat 1 now holds a trump
    record = full(hands=hands, upcard="8H", plays=["AH", "AC"])
    result = check(record)
    error = result["errors"][0]
    assert error["code"] == "illegal_play" and error["play"] == 1
    assert "seat 1" in error["message"] and "7H" in error["message"]
    record["revoke"] = {"seat": 1, "card": "AC"}
    record["plays"] = ["AH"]
    revoked = check(record)
    assert revoked["valid"] and revoked["outcome"] == "revoke"
    # seat 0 (clean) held trump K and Q from the start: its belote counts, unplayed
    assert revoked["points"] == [162 + 20, 0]
    assert revoked["bella"] == {"seat": 0, "points": 20}


def test_thrown_in_full_record_with_first_hands() -> None:
    hands = [h[:5] for h in SUITED]
    record = full(hands=hands, upcard="AD", contract={"kind": "thrown_in"}, plays=[])
    result = check(record)
    assert result["valid"], result["errors"]
    assert (result["outcome"], result["winner_team"], result["points"]) == (
        "thrown_in",
        None,
        [0, 0],
    )
    record["upcard"] = "7H"  # in seat 0's first hand
    assert codes(check(record)) == ["duplicate_card"]


# ----- presets, analysis, the match ---------------------------------------------------------


def test_belote_is_engine_only() -> None:
    assert "belote" in ALL_PRESETS and "belote" in ENGINE_ONLY_PRESETS
    assert "belote" not in PRESETS  # the platform's tournament forms list PRESETS
    with pytest.raises(RulesError) as caught:
        resolve_rules("belote")
    assert caught.value.code == "unknown_rules"
    assert resolve_rules("belote", include_engine_only=True) is BELOTE
    options = resolve_rules(
        {"preset": "belote", "options": {"target_points": 500, "match_by": "target"}},
        include_engine_only=True,
    )
    assert (options.game, options.target_points) == ("belote", 500)
    assert (BELOTE.deals_per_match, BELOTE.target_points, BELOTE.match_by) == (12, 1000, "deals")


def test_analyse_answers_belote() -> None:
    """The par analysis itself is tested in ``test_belote_analysis``."""
    record = full()
    result = analyse(record)
    assert result["valid"] and result["analysed"] is True and result["errors"] == []
    assert result["actual"]["points"] == check(record)["points"]
    record["plays"] = record["plays"][:5]
    assert codes(analyse(record)) == ["incomplete_play"]  # an invalid record: check's errors


def _made(points: list[int]) -> dict[str, Any]:
    return {"valid": True, "outcome": "made", "points": points}


def test_match_of_12_deals_or_to_1000() -> None:
    thrown = {"valid": True, "outcome": "thrown_in", "points": [0, 0]}
    state = score_match([_made([100, 62]), thrown] + [_made([60, 102])] * 11, BELOTE)
    assert state.finished and state.deals == 12
    assert state.points == (100 + 660, 62 + 1122) and state.winner == 1
    assert state.match_points == (0, 2)
    to_1000 = resolve_rules(
        {"preset": "belote", "options": {"match_by": "target"}}, include_engine_only=True
    )
    state = score_match([_made([252, 0])] * 4, to_1000)
    assert state.finished and state.points == (1008, 0) and state.winner == 0


# ----- the engine against the plain reference ----------------------------------------------


def _compare(record: dict[str, Any]) -> None:
    result = check(record)
    assert result["valid"], (record, result["errors"])
    want = ref.score(record)
    assert result["points"] == want["points"], record
    assert result["outcome"] == want["outcome"], record
    assert result["capot"] == want["capot"], record
    assert result["melds"]["winning_team"] == want["meld_team"], record
    if result["outcome"] != "thrown_in":
        assert result["card_points"] == want["card_points"], record
        assert result["tricks_won"] == want["tricks_won"], record


def _as_summary(record: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    rec = {k: v for k, v in record.items() if k not in ("hands", "plays", "melds", "bella")}
    rec["card_points"] = want["card_points"]
    rec["tricks_won"] = want["tricks_won"]
    forehand = (record["dealer"] + 1) % 4
    melds = [
        m
        for m in record.get("melds", [])
        if "revoke" not in record or (m["seat"] - forehand) % 4 <= len(record["plays"])
    ]
    if melds:
        rec["melds"] = melds
    trump = record["contract"]["trump"]
    if "revoke" not in record:
        if "bella" in record:
            rec["bella"] = record["bella"]
        return rec
    # after a revoke the sheet names the seat that held trump K and Q (announced or not)
    hands = record["hands"]
    holder = [s for s in range(4) if "K" + trump in hands[s] and "Q" + trump in hands[s]]
    if holder:
        rec["bella"] = holder[0]
    return rec


def test_engine_matches_reference_on_random_deals() -> None:
    rng = random.Random(20261126)
    revokes = 0
    for n in range(3000):
        record = ref.deal(rng, dealer=n % 4)
        _compare(record)
        if record["contract"]["kind"] == "thrown_in":
            continue
        want = ref.score(record)
        summary_result = check(_as_summary(record, want))
        assert summary_result["valid"], summary_result["errors"]
        assert summary_result["points"] == want["points"], record
        if "revoke" in record:
            revokes += 1
            # the same card without a declared revoke is an illegal play there
            bad = dict(record, plays=[*record["plays"], record["revoke"]["card"]])
            del bad["revoke"]
            error = check(bad)["errors"][0]
            assert (error["code"], error["play"]) == ("illegal_play", len(record["plays"]))
    assert revokes > 100


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_engine_random_deals_agree_with_reference(seed: int, dealer: int) -> None:
    record = random_deal(random.Random(seed), dealer=dealer, rules="belote")
    _compare(record)
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
