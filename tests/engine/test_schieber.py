"""Schieberjass (preset ``schieber``, RULES.md "Schieberjass"): the 36-card deck, the
choice (pushed or not), play rules per mode, Weis and its contest, Stöck, the Match, the
revoke, multipliers, summaries, refusals, the match keeper, and the engine against the
plain reference in ``schieber_reference`` on thousands of random deals.

Every expected score here is worked out by hand from RULES.md."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_PRESETS,
    ENGINE_ONLY_PRESETS,
    GAME_NOT_ANALYSABLE,
    PRESETS,
    RulesError,
    analyse,
    check,
    random_deal,
    resolve_rules,
    score_match,
)
from games.engine.jass import (
    JASS_CARD_BY_TEXT,
    MODE_TABLES,
    deck_texts,
    jass_legal,
    jass_trick_winner,
)
from games.engine.schieber import weis_contest, weis_of_cards

from . import schieber_reference as ref

F = "klammern-deal/1"
SCHIEBER = ALL_PRESETS["schieber"]
MODES = {"C": 0, "S": 1, "H": 2, "D": 3, "obenabe": 4, "undenufe": 5}
ROOT = Path(__file__).resolve().parents[2]


def mask(texts: str) -> int:
    return sum(1 << JASS_CARD_BY_TEXT[t] for t in texts.split())


def cards(texts: str) -> list[int]:
    return [JASS_CARD_BY_TEXT[t] for t in texts.split()]


def codes(result: dict[str, Any]) -> list[str]:
    return sorted({e["code"] for e in result["errors"]})


def ref_mode(mode: str) -> tuple[str | None, str]:
    """(trump, mode) as the reference takes them."""
    return (mode, "trump") if mode in "CSHD" else (None, mode)


# ----- the deck and the card points -------------------------------------------------------


def test_deck_per_game() -> None:
    jass = deck_texts(SCHIEBER)
    assert len(jass) == len(set(jass)) == 36
    assert {t[0] for t in jass} == set("6789TJQKA") and {t[1] for t in jass} == set("CSHD")
    for name, options in ALL_PRESETS.items():
        if name != "schieber":
            assert len(deck_texts(options)) == 32 and "6S" not in deck_texts(options)
    assert JASS_CARD_BY_TEXT["10H"] == JASS_CARD_BY_TEXT["TH"]


@pytest.mark.parametrize("mode", list(MODES))
def test_every_mode_holds_152_card_points(mode: str) -> None:
    table = MODE_TABLES[MODES[mode]]
    assert sum(table.points) == 152
    trump, name = ref_mode(mode)
    assert sum(ref.points(t, name, trump) for t in deck_texts(SCHIEBER)) == 152


CARD_POINTS = [
    # (card, mode, points)
    ("JH", "H", 20),
    ("9H", "H", 14),
    ("AH", "H", 11),
    ("TH", "H", 10),
    ("KH", "H", 4),
    ("QH", "H", 3),
    ("8H", "H", 0),
    ("JC", "H", 2),
    ("9C", "H", 0),
    ("8C", "obenabe", 8),
    ("AC", "obenabe", 11),
    ("6C", "obenabe", 0),
    ("6C", "undenufe", 11),
    ("AC", "undenufe", 0),
    ("8D", "undenufe", 8),
    ("TD", "undenufe", 10),
]


@pytest.mark.parametrize(("card", "mode", "value"), CARD_POINTS)
def test_card_points(card: str, mode: str, value: int) -> None:
    assert MODE_TABLES[MODES[mode]].points[JASS_CARD_BY_TEXT[card]] == value


# ----- play rules ---------------------------------------------------------------------------

PLAY_CASES = [
    # (mode, trick so far, hand, legal, why)
    ("H", "", "6H AS KC", "6H AS KC", "the leader plays any card"),
    ("H", "AC", "KC 6H 7S", "KC 6H", "follow suit, or trump at any time"),
    ("H", "AC", "7S 8D", "7S 8D", "cannot follow: any card"),
    ("H", "AC", "7S 6H", "7S 6H", "cannot follow: any card, a trump too"),
    ("H", "AC 9H", "KC 6H JH", "KC JH", "no undertrumping: not 6H under 9H; JH is higher"),
    ("H", "AC 9H", "6H 8H 7S", "7S", "cannot follow and may not undertrump: the side card"),
    ("H", "AC 9H", "6H 8H", "6H 8H", "nothing but trumps: undertrumping allowed"),
    ("H", "AC 6H", "7H TC", "7H TC", "a higher trump than the trick's is fine"),
    ("H", "AC 6H JH", "9H KC", "KC", "9H is below JH: no undertrumping, follow suit"),
    ("H", "KC QC", "9C JH 6S", "9C JH", "no trump in the trick: trumping is free"),
    ("H", "8H", "6H JH AS", "6H JH", "trump led: follow with any trump"),
    ("H", "8H", "JH AS KC", "JH AS KC", "trump led: the trump Jack alone is never forced"),
    ("H", "8H", "AS KC", "AS KC", "trump led, no trump: any card"),
    ("H", "9H JH", "6H AS", "6H", "trump led: no duty to go higher"),
    ("D", "AC JD", "6D 7S", "7S", "Diamonds trump: no undertrumping the Puur"),
    ("obenabe", "AC", "KC 6H", "KC", "Obenabe: follow suit"),
    ("obenabe", "AC", "6H 7S", "6H 7S", "Obenabe: cannot follow, any card"),
    ("undenufe", "AC KC", "6C 7H", "6C", "Undenufe: follow suit"),
    ("undenufe", "6C", "7H 8S", "7H 8S", "Undenufe: cannot follow, any card"),
]


@pytest.mark.parametrize(("mode", "trick", "hand", "legal", "why"), PLAY_CASES)
def test_play_rules(mode: str, trick: str, hand: str, legal: str, why: str) -> None:
    got = jass_legal(mask(hand), cards(trick), MODE_TABLES[MODES[mode]])
    assert got == mask(legal), why
    trump, name = ref_mode(mode)
    reference = ref.legal(hand.split(), trick.split(), trump, name)
    assert sorted(reference) == sorted(legal.split()), why


WINNER_CASES = [
    # (mode, trick, winning position, why)
    ("H", "AC KC 6H QC", 2, "the lowest trump beats the led Ace"),
    ("H", "9H AH JH KH", 2, "the Puur is the highest trump"),
    ("H", "9H AH KH 8H", 0, "the Nell (9) is second"),
    ("H", "TC JC AS QC", 3, "side suits: A K Q J T, the Ten below the Jack"),
    ("H", "TC 9C 8S 6C", 0, "an off-suit card never wins"),
    ("obenabe", "TC JC AS QC", 3, "Obenabe: A K Q J T 9 8 7 6"),
    ("undenufe", "TC JC AS 6C", 3, "Undenufe: the Six is highest"),
    ("undenufe", "8C 9C 7C KC", 2, "Undenufe: 7 beats 8"),
    ("undenufe", "KC AC 6H QC", 3, "Undenufe: no trumps, Q beats K and A"),
]


@pytest.mark.parametrize(("mode", "trick", "pos", "why"), WINNER_CASES)
def test_trick_winner(mode: str, trick: str, pos: int, why: str) -> None:
    assert jass_trick_winner(cards(trick), MODE_TABLES[MODES[mode]]) == pos, why
    trump, name = ref_mode(mode)
    assert ref.heading(trick.split(), trump, name) == pos, why


# ----- Weis -------------------------------------------------------------------------------

WEIS_VALUES = [
    ("6C 7C 8C", 20),
    ("TD JD QD KD", 50),
    ("9S TS JS QS KS", 100),
    ("6S 7S 8S 9S TS JS", 150),
    ("6S 7S 8S 9S TS JS QS", 200),
    ("7S 8S 9S TS JS QS KS AS", 250),
    ("6H 7H 8H 9H TH JH QH KH AH", 300),
    ("JC JS JH JD", 200),
    ("9C 9S 9H 9D", 150),
    ("AC AS AH AD", 100),
    ("KC KS KH KD", 100),
    ("QC QS QH QD", 100),
    ("TC TS TH TD", 100),
]


@pytest.mark.parametrize(("texts", "value"), WEIS_VALUES)
def test_weis_values(texts: str, value: int) -> None:
    weis = weis_of_cards(0, cards(texts))
    assert weis is not None and weis.value == value
    assert ref.weis_value(texts.split()) == value


@pytest.mark.parametrize(
    "texts",
    ["8C 8S 8H 8D", "7C 7S 7H 7D", "6C 6S 6H 6D", "6C 7C", "6C 8C 9C", "AC AS AH", "6C 7C 7C"],
)
def test_not_weis(texts: str) -> None:
    assert weis_of_cards(0, cards(texts)) is None


CONTEST_CASES = [
    # (Weis as (seat, cards), mode, winning team, why); forehand is seat 0
    ([(1, "JC JS JH JD"), (0, "9S TS JS QS KS")], "H", 1, "four Jacks 200 over a 100"),
    ([(0, "6S 7S 8S 9S TS JS QS"), (1, "JC JS JH JD")], "H", 0, "equal 200: 7 cards over 4"),
    ([(1, "9C 9S 9H 9D"), (2, "6D 7D 8D 9D TD JD")], "H", 0, "equal 150: the run of 6"),
    ([(0, "9S TS JS QS KS"), (1, "AC AS AH AD")], "H", 0, "equal 100: 5 cards over 4"),
    ([(1, "AC AS AH AD"), (0, "KC KS KH KD")], "H", 1, "equal value and cards: higher top"),
    ([(0, "JD QD KD"), (1, "JH QH KH")], "H", 1, "equal top: the trump sequence"),
    ([(2, "JD QD KD"), (1, "JS QS KS")], "H", 1, "all equal: first in play from forehand"),
    ([(3, "6C 7C 8C"), (2, "6D 7D 8D")], "obenabe", 0, "no trump: first in play"),
    ([(3, "QS KS AS"), (2, "TC JC QC")], "D", 1, "higher top card"),
    ([(1, "6C 7C 8C"), (0, "7D 8D 9D")], "undenufe", 0, "Undenufe too: the higher top"),
    ([(0, "6C 7C 8C 9C"), (3, "QS KS AS")], "C", 0, "a 50 beats a 20 with a higher top"),
]


@pytest.mark.parametrize(("weis", "mode", "team", "why"), CONTEST_CASES)
def test_weis_contest(weis: list[tuple[int, str]], mode: str, team: int, why: str) -> None:
    parsed = [weis_of_cards(seat, cards(texts)) for seat, texts in weis]
    trump = MODE_TABLES[MODES[mode]].trump
    won, scored = weis_contest([w for w in parsed if w is not None], trump=trump, forehand=0)
    assert won == team, why
    assert {w.seat & 1 for w in scored} == {team}
    as_ref = [{"seat": seat, "cards": texts.split()} for seat, texts in weis]
    best = max(as_ref, key=lambda w: ref.weis_key(w, ref_mode(mode)[0], 0))
    assert best["seat"] % 2 == team, why


# ----- summary records (dealer 3: forehand seat 0 chooses Hearts) ---------------------------

HEARTS = {"kind": "schieber", "chooser": 0, "mode": "trump", "trump": "H", "pushed": False}
OBENABE = {"kind": "schieber", "chooser": 0, "mode": "obenabe", "pushed": False}
UNDENUFE = {"kind": "schieber", "chooser": 0, "mode": "undenufe", "pushed": False}
PUSHED = {"kind": "schieber", "chooser": 2, "mode": "trump", "trump": "S", "pushed": True}


def summary(rules: Any = "schieber", **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": rules, "dealer": 3, "contract": HEARTS}
    rec.update(fields)
    return rec


def weis(seat: int, texts: str) -> dict[str, Any]:
    return {"seat": seat, "cards": texts.split()}


MULTI = {"preset": "schieber", "options": {"multipliers": True}}

SUMMARY_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "played",
        {"card_points": [100, 57]},
        {"outcome": "played", "points": [100, 57], "winner_team": 0, "match": None},
    ),
    (
        "no_made_or_failed_the_chooser_may_have_less",
        {"card_points": [40, 117]},
        {"outcome": "played", "points": [40, 117], "winner_team": 1},
    ),
    (
        "stoeck_turns_the_deal",
        {"card_points": [76, 81], "stoeck": 0},
        {"points": [96, 81], "winner_team": 0},
    ),
    (
        "weis_higher_top_scores",
        {"card_points": [100, 57], "weis": [weis(1, "8C 9C TC"), weis(0, "6S 7S 8S")]},
        {"points": [100, 77], "weis": {"winning_team": 1, "points": 20}},
    ),
    (
        "every_weis_of_the_best_team",
        {
            "card_points": [100, 57],
            "weis": [weis(1, "8C 9C TC"), weis(0, "6S 7S 8S 9S"), weis(2, "6D 7D 8D")],
        },
        {"points": [170, 57], "weis": {"winning_team": 0, "points": 70}},
    ),
    ("stoeck_always_counts", {"card_points": [100, 57], "stoeck": 1}, {"points": [100, 77]}),
    (
        "stoeck_beside_the_other_teams_weis",
        {"card_points": [100, 57], "stoeck": 3, "weis": [weis(0, "6S 7S 8S")]},
        {"points": [120, 77], "stoeck": {"seat": 3, "points": 20}},
    ),
    (
        "match",
        {"card_points": [157, 0], "tricks_won": [9, 0]},
        {"points": [257, 0], "match": 0, "winner_team": 0},
    ),
    (
        "match_by_team_1_with_team_0_weis_and_stoeck",
        {
            "card_points": [0, 157],
            "tricks_won": [0, 9],
            "weis": [weis(0, "6S 7S 8S")],
            "stoeck": 2,
        },
        {"points": [40, 257], "match": 1},
    ),
    (
        "all_points_8_tricks_is_no_match",
        {"card_points": [157, 0], "tricks_won": [8, 1]},
        {"points": [157, 0], "match": None},
    ),
    (
        "obenabe",
        {"card_points": [90, 67], "contract": OBENABE},
        {"points": [90, 67], "game_mode": "obenabe", "trump": None},
    ),
    (
        "undenufe_weis_five_over_four_aces",
        {
            "card_points": [60, 97],
            "contract": UNDENUFE,
            "weis": [weis(1, "AC AS AH AD"), weis(0, "6D 7D 8D 9D TD")],
        },
        {"points": [160, 97], "game_mode": "undenufe", "weis": {"winning_team": 0}},
    ),
    (
        "pushed",
        {"card_points": [100, 57], "contract": PUSHED},
        {"points": [100, 57], "chooser": 2, "pushed": True, "playing_team": 0, "trump": "S"},
    ),
    (
        "multipliers_hearts_double",
        {"rules": MULTI, "card_points": [100, 57], "weis": [weis(1, "8C 9C TC")]},
        {"points": [200, 154], "multiplier": 2},
    ),
    (
        "multipliers_spades_double",
        {"rules": MULTI, "card_points": [100, 57], "contract": PUSHED, "stoeck": 1},
        {"points": [200, 154], "multiplier": 2},
    ),
    (
        "multipliers_diamonds_single",
        {"rules": MULTI, "card_points": [100, 57], "contract": dict(HEARTS, trump="D")},
        {"points": [100, 57], "multiplier": 1},
    ),
    (
        "multipliers_clubs_match",
        {
            "rules": MULTI,
            "card_points": [157, 0],
            "tricks_won": [9, 0],
            "contract": dict(HEARTS, trump="C"),
        },
        {"points": [257, 0], "multiplier": 1},
    ),
    (
        "multipliers_obenabe_triple",
        {"rules": MULTI, "card_points": [90, 67], "contract": OBENABE},
        {"points": [270, 201], "multiplier": 3},
    ),
    (
        "multipliers_undenufe_triple_weis",
        {
            "rules": {"preset": "schieber", "options": {"multipliers": "on"}},
            "card_points": [60, 97],
            "contract": UNDENUFE,
            "weis": [weis(2, "JC JS JH JD")],
        },
        {"points": [780, 291], "multiplier": 3},
    ),
    (
        "multipliers_off_in_words",
        {
            "rules": {"preset": "schieber", "options": {"multipliers": "off"}},
            "card_points": [90, 67],
            "contract": OBENABE,
        },
        {"points": [90, 67], "multiplier": 1},
    ),
    (
        "revoke_by_the_choosers",
        {
            "card_points": [30, 40],
            "tricks_won": [2, 2],
            "revoke": {"seat": 2, "card": "7C"},
            "weis": [weis(1, "8C 9C TC")],
        },
        {"outcome": "revoke", "points": [0, 177], "winner_team": 1, "match": None},
    ),
    (
        "revoke_clean_team_takes_all_weis_and_its_stoeck",
        {
            "card_points": [30, 40],
            "tricks_won": [2, 2],
            "revoke": {"seat": 1, "card": "7C"},
            "weis": [weis(1, "8C 9C TC")],
            "stoeck": 0,
        },
        {"outcome": "revoke", "points": [197, 0], "winner_team": 0},
    ),
    (
        "revoke_loses_own_stoeck",
        {"card_points": [30, 40], "revoke": {"seat": 1, "card": "7C"}, "stoeck": 3},
        {"outcome": "revoke", "points": [157, 0]},
    ),
    (
        "revoke_with_multiplier",
        {"rules": MULTI, "card_points": [0, 0], "revoke": {"seat": 3, "card": "AD"}},
        {"outcome": "revoke", "points": [314, 0], "multiplier": 2},
    ),
]


@pytest.mark.parametrize(
    ("name", "fields", "expect"), SUMMARY_CASES, ids=[c[0] for c in SUMMARY_CASES]
)
def test_summary(name: str, fields: dict[str, Any], expect: dict[str, Any]) -> None:
    result = check(summary(**fields))
    assert result["valid"], (name, result["errors"])
    for key, value in expect.items():
        if key == "weis":
            for part, want in value.items():
                assert result["weis"][part] == want, (name, result["weis"])
        else:
            assert result[key] == value, (name, key, result)
    assert result["total"] == sum(result["points"])
    assert result["kind"] == "schieber" and result["mode"] == "summary"


BAD_CONTRACTS = [
    ("thrown_in", {"kind": "thrown_in"}, "contract_mismatch"),
    ("orgi", {"kind": "orgi", "declarer": 0, "trump": "H"}, "contract_mismatch"),
    ("chooser_not_forehand", dict(HEARTS, chooser=1), "contract_mismatch"),
    ("pushed_but_forehand_chooses", dict(HEARTS, pushed=True), "contract_mismatch"),
    ("partner_without_push", dict(HEARTS, chooser=2), "contract_mismatch"),
    ("pushed_missing", {k: v for k, v in HEARTS.items() if k != "pushed"}, "bad_format"),
    ("pushed_not_bool", dict(HEARTS, pushed="yes"), "bad_format"),
    ("mode_unknown", dict(HEARTS, mode="slalom"), "bad_format"),
    ("trump_missing", {k: v for k, v in HEARTS.items() if k != "trump"}, "bad_format"),
    ("trump_in_obenabe", dict(OBENABE, trump="H"), "bad_format"),
    ("trump_not_a_suit", dict(HEARTS, trump="X"), "bad_format"),
    ("chooser_not_a_seat", dict(HEARTS, chooser=4), "bad_format"),
    ("not_an_object", "schieber", "bad_format"),
]

REFUSALS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("all_points_need_tricks", {"card_points": [157, 0]}, ["missing_field"]),
    ("all_points_need_tricks_1", {"card_points": [0, 157]}, ["missing_field"]),
    ("sum_not_157", {"card_points": [100, 60]}, ["impossible_points"]),
    ("old_162", {"card_points": [100, 62]}, ["impossible_points"]),
    ("tricks_not_9", {"card_points": [100, 57], "tricks_won": [4, 4]}, ["impossible_tricks"]),
    (
        "match_needs_all_points",
        {"card_points": [150, 7], "tricks_won": [9, 0]},
        ["impossible_points"],
    ),
    ("one_point", {"card_points": [1, 156]}, ["impossible_points"]),
    (
        "no_tricks_no_points",
        {"card_points": [152, 5], "tricks_won": [9, 0]},
        ["impossible_points"],
    ),
    (
        "revoke_more_than_8_tricks",
        {"card_points": [30, 40], "tricks_won": [5, 4], "revoke": {"seat": 1, "card": "7C"}},
        ["impossible_tricks"],
    ),
    (
        "revoke_points_too_many",
        {"card_points": [100, 57], "revoke": {"seat": 1, "card": "7C"}},
        ["impossible_points"],
    ),
    (
        "revoke_card_not_in_the_tricks",
        {"card_points": [152, 0], "revoke": {"seat": 1, "card": "JH"}},
        ["impossible_points"],
    ),
    *[
        (f"upcard_{name}", {"card_points": [100, 57], name: value}, ["unknown_field"])
        for name, value in [
            ("upcard", "7H"),
            ("bidding", []),
            ("doubling", "kontra"),
            ("march", True),
            ("melds", []),
            ("bella", 0),
        ]
    ],
    (
        "stoeck_in_obenabe",
        {"card_points": [90, 67], "contract": OBENABE, "stoeck": 0},
        ["bad_format"],
    ),
    ("stoeck_no_seat", {"card_points": [90, 67], "stoeck": 4}, ["bad_format"]),
    (
        "four_eights_no_weis",
        {"card_points": [100, 57], "weis": [weis(1, "8C 8S 8H 8D")]},
        ["not_a_meld"],
    ),
    (
        "four_sixes_no_weis",
        {"card_points": [100, 57], "weis": [weis(1, "6C 6S 6H 6D")]},
        ["not_a_meld"],
    ),
    ("two_cards_no_weis", {"card_points": [100, 57], "weis": [weis(1, "8C 9C")]}, ["not_a_meld"]),
    ("not_a_card", {"card_points": [100, 57], "weis": [weis(1, "5C 6C 7C")]}, ["bad_format"]),
    (
        "same_four_twice",
        {
            "card_points": [100, 57],
            "weis": [weis(1, "AC AS AH AD"), weis(1, "AD AH AS AC")],
        },
        ["duplicate_meld"],
    ),
    (
        "touching_sequences",
        {"card_points": [100, 57], "weis": [weis(1, "6C 7C 8C"), weis(1, "9C TC JC")]},
        ["meld_not_maximal"],
    ),
    (
        "weis_of_two_seats_share_a_card",
        {"card_points": [100, 57], "weis": [weis(1, "6C 7C 8C"), weis(2, "8C 9C TC")]},
        ["duplicate_card"],
    ),
    (
        "stoeck_and_weis_of_two_seats",
        {"card_points": [100, 57], "stoeck": 0, "weis": [weis(1, "QH KH AH")]},
        ["duplicate_card"],
    ),
    (
        "revoke_card_in_another_seats_weis",
        {
            "card_points": [30, 40],
            "revoke": {"seat": 1, "card": "7C"},
            "weis": [weis(2, "6C 7C 8C")],
        },
        ["duplicate_card"],
    ),
    ("weis_not_a_list", {"card_points": [100, 57], "weis": {"seat": 1}}, ["bad_format"]),
    ("card_points_missing", {}, ["bad_format"]),
    *[
        (f"contract_{n}", {"card_points": [100, 57], "contract": c}, [k])
        for n, c, k in BAD_CONTRACTS
    ],
]


@pytest.mark.parametrize(("name", "fields", "want"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_refusals(name: str, fields: dict[str, Any], want: list[str]) -> None:
    result = check(summary(**fields))
    assert not result["valid"], name
    assert codes(result) == want, (name, result["errors"])
    for error in result["errors"]:
        assert error["message"] and "Error" not in error["message"]


def test_refusal_words_name_what_to_fix() -> None:
    error = check(summary(card_points=[0, 157]))["errors"][0]
    assert error["field"] == "tricks_won" and "all 9 tricks" in error["message"]
    error = check(summary(card_points=[100, 57], contract=dict(HEARTS, chooser=2)))["errors"][0]
    assert error["field"] == "contract.chooser"
    assert "seat 2" in error["message"] and "forehand (seat 0)" in error["message"]
    error = check(summary(card_points=[100, 57], contract={"kind": "thrown_in"}))["errors"][0]
    assert "never thrown in" in error["message"]
    error = check(summary(card_points=[1, 156]))["errors"][0]
    assert "1 card points" in error["message"] and "Hearts" in error["message"]


# ----- full records ----------------------------------------------------------------------

RANKS = "AKQJT9876"
SUITED = [[r + s for r in reversed(RANKS)] for s in "HCSD"]  # seat 0 Hearts, 1 Clubs ...
PLAYS = [r + s for r in RANKS for s in "HCSD"]


def full(**extra: Any) -> dict[str, Any]:
    """Seat 0 (all Hearts) chooses Hearts and leads every trick from the Ace down."""
    rec: dict[str, Any] = {
        "format": F,
        "rules": "schieber",
        "dealer": 3,
        "hands": copy.deepcopy(SUITED),
        "contract": HEARTS,
        "plays": list(PLAYS),
    }
    rec.update(extra)
    return rec


def test_full_match_weis_and_stoeck() -> None:
    all_weis = [{"seat": s, "cards": SUITED[s]} for s in range(4)]
    result = check(full(weis=all_weis, stoeck=0))
    assert result["valid"], result["errors"]
    assert result["tricks_won"] == [9, 0] and result["match"] == 0
    assert result["card_points"] == [157, 0]
    # four runs of 9 (300 each) tie on value, cards and top: the trump run wins.
    assert result["weis"]["winning_team"] == 0
    assert [w["seat"] for w in result["weis"]["scored"]] == [0, 2]
    assert result["points"] == [257 + 300 + 300 + 20, 0]
    assert (result["outcome"], result["winner_team"]) == ("played", 0)
    assert len(result["tricks"]) == 9 and result["tricks"][-1]["points"] == 0 + 5
    assert result["tricks"][0] == {
        "leader": 0,
        "cards": ["AH", "AC", "AS", "AD"],
        "winner": 0,
        "points": 11 + 11 + 11 + 11,
    }


def test_full_obenabe_with_multipliers_and_weis_order() -> None:
    all_weis = [{"seat": s, "cards": SUITED[s]} for s in (3, 2, 1)]
    rules = {"preset": "schieber", "options": {"multipliers": True}}
    result = check(full(rules=rules, contract=OBENABE, weis=all_weis))
    assert result["valid"], result["errors"]
    # no trump: seats 1, 2, 3 tie completely, seat 1 is first in play from forehand
    assert result["weis"]["winning_team"] == 1
    assert result["points"] == [257 * 3, 600 * 3] and result["multiplier"] == 3


def test_full_pushed_forehand_still_leads() -> None:
    pushed = dict(HEARTS, chooser=2, pushed=True)
    result = check(full(contract=pushed))
    assert result["valid"], result["errors"]
    assert result["tricks"][0]["leader"] == 0 and result["chooser"] == 2
    assert result["points"] == [257, 0]


def test_full_puur_is_never_forced() -> None:
    hands = copy.deepcopy(SUITED)
    hands[0][5], hands[1][5] = "JC", "JH"  # seat 1's only trump is the Jack
    # trick 1: seat 1 may keep JH under seat 0's AH; trick 4: seat 0 leads JC and seat 1
    # trumps it with JH (trumping is free); seat 1 leads TC, seat 0 trumps with TH.
    plays = PLAYS[:12] + ["JC", "JH", "JS", "JD", "TC", "TS", "TD", "TH"] + PLAYS[20:]
    result = check(full(hands=hands, plays=plays))
    assert result["valid"], result["errors"]
    assert result["tricks"][0]["cards"] == ["AH", "AC", "AS", "AD"]
    assert result["tricks"][3]["cards"] == ["JC", "JH", "JS", "JD"]
    assert result["tricks"][3]["winner"] == 1 and result["tricks_won"] == [8, 1]
    assert result["match"] is None


def test_illegal_play_and_the_revoke() -> None:
    hands = copy.deepcopy(SUITED)
    hands[0][0], hands[1][0] = "6C", "6H"  # seat 1 now holds a trump (not the Jack)
    record = full(hands=hands, plays=["AH", "AC"])
    error = check(record)["errors"][0]
    assert error["code"] == "illegal_play" and error["play"] == 1
    assert "seat 1" in error["message"] and "6H" in error["message"]
    assert error["params"]["legal"] == ["6H"]
    record["revoke"] = {"seat": 1, "card": "AC"}
    record["plays"] = ["AH"]
    revoked = check(record)
    assert revoked["valid"] and revoked["outcome"] == "revoke"
    # seat 0 (clean) held trump K and Q from the start: its Stöck counts, unplayed
    assert revoked["points"] == [157 + 20, 0] and revoked["card_points"] == [0, 0]
    assert revoked["stoeck"] == {"seat": 0, "points": 20}


def test_revoke_in_the_first_trick_counts_the_weis_shown_before_it() -> None:
    hands = copy.deepcopy(SUITED)
    hands[0][0], hands[1][0] = "6C", "6H"
    # seat 3 (last to play) has the best Weis but never reached its turn
    record = full(
        hands=hands,
        plays=["AH"],
        revoke={"seat": 1, "card": "AC"},
        weis=[{"seat": 3, "cards": SUITED[3]}, {"seat": 1, "cards": hands[1][1:]}],
    )
    result = check(record)
    assert result["valid"], result["errors"]
    # seat 1's run 7C-AC (8 cards, 250) counts, the clean team scores it, and its Stöck
    # (seat 0 holds trump K and Q)
    assert result["weis"]["winning_team"] == 1 and result["points"] == [157 + 250 + 20, 0]


FULL_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("weis_not_held", {"weis": [{"seat": 1, "cards": ["6S", "7S", "8S"]}]}, "meld_not_held"),
    ("weis_not_maximal", {"weis": [{"seat": 0, "cards": ["6H", "7H", "8H"]}]}, "meld_not_maximal"),
    ("stoeck_not_held", {"stoeck": 1}, "bella_not_held"),
    ("incomplete", {"plays": ["AH", "AC"]}, "incomplete_play"),
    ("summary_fields", {"card_points": [157, 0]}, "bad_format"),
    ("too_many_plays", {"plays": [*PLAYS, "AH"]}, "too_many_plays"),
    ("card_not_in_hand", {"plays": ["AH", "AS"]}, "card_not_in_hand"),
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
    ("hand_of_8", {"hands": [h[:8] for h in SUITED]}, "wrong_card_count"),
    ("card_dealt_twice", {"hands": [SUITED[0], SUITED[0], SUITED[2], SUITED[3]]}, "duplicate_card"),
    ("not_a_jass_card", {"hands": [["5H", *SUITED[0][1:]], *SUITED[1:]]}, "bad_format"),
    ("play_not_a_card", {"plays": ["AH", "XX"]}, "bad_format"),
    ("no_plays", {"plays": None}, "bad_format"),
]


@pytest.mark.parametrize(
    ("name", "fields", "code"), FULL_REFUSALS, ids=[c[0] for c in FULL_REFUSALS]
)
def test_full_refusals(name: str, fields: dict[str, Any], code: str) -> None:
    record = full(**fields)
    if record["plays"] is None:
        del record["plays"]
    result = check(record)
    assert not result["valid"], name
    assert code in codes(result), (name, result["errors"])


def test_undertrump_in_a_full_deal_names_the_rule() -> None:
    # seat 0 leads AC; seat 1 trumps with 9H; seat 2 holds 6H and Spades: no undertrumping
    hands = [
        ["AC", "6C", "7C", "8C", "7D", "8D", "9D", "TD", "JD"],
        ["9H", "KC", "QC", "JC", "TC", "9C", "6D", "QD", "KD"],
        ["6H", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        ["AS", "7H", "8H", "TH", "JH", "QH", "KH", "AH", "AD"],
    ]
    record = full(hands=hands, plays=["AC", "9H", "6H"])
    error = check(record)["errors"][0]
    assert error["code"] == "illegal_play" and error["params"]["rule"] == "no_undertrump"
    assert "9H" in error["message"] and "6S" in error["message"]


# ----- presets, analysis, the match, the command line ----------------------------------------


def test_schieber_is_engine_only() -> None:
    assert "schieber" in ALL_PRESETS and "schieber" in ENGINE_ONLY_PRESETS
    assert "schieber" not in PRESETS
    with pytest.raises(RulesError) as caught:
        resolve_rules("schieber")
    assert caught.value.code == "unknown_rules"
    assert resolve_rules("schieber", include_engine_only=True) is SCHIEBER
    assert (SCHIEBER.deals_per_match, SCHIEBER.target_points, SCHIEBER.match_by) == (
        12,
        2500,
        "deals",
    )
    assert SCHIEBER.multipliers is False
    on = resolve_rules(
        {"preset": "schieber", "options": {"multipliers": "on"}}, include_engine_only=True
    )
    assert on.multipliers is True
    with pytest.raises(RulesError):
        resolve_rules(
            {"preset": "schieber", "options": {"multipliers": "yes"}}, include_engine_only=True
        )
    result = check(summary(card_points=[100, 57]))
    assert result["rules"]["options"] == {
        "game": "schieber",
        "players": 4,
        "multipliers": False,
        "match_by": "deals",
        "deals_per_match": 12,
        "target_points": 2500,
    }


def test_analyse_answers_not_yet_for_schieber() -> None:
    record = full()
    result = analyse(record)
    assert result["valid"] and result["analysed"] is False
    assert [e["code"] for e in result["errors"]] == [GAME_NOT_ANALYSABLE]
    assert "no perfect-play analysis for this game yet (schieber)" in result["errors"][0]["message"]
    record["plays"] = record["plays"][:5]
    assert codes(analyse(record)) == ["incomplete_play"]


def _played(points: list[int]) -> dict[str, Any]:
    return {"valid": True, "outcome": "played", "points": points}


def test_match_of_12_deals_or_to_2500() -> None:
    state = score_match([_played([100, 57])] + [_played([60, 97])] * 11, SCHIEBER)
    assert state.finished and state.deals == 12
    assert state.points == (100 + 660, 57 + 1067) and state.winner == 1
    assert state.match_points == (0, 2)
    with pytest.raises(Exception, match="after the match ended"):
        score_match([_played([100, 57])] * 13, SCHIEBER)
    to_target = resolve_rules(
        {"preset": "schieber", "options": {"match_by": "target"}}, include_engine_only=True
    )
    state = score_match([_played([257, 0])] * 9, to_target)
    assert not state.finished and state.points == (2313, 0)
    state = score_match([_played([257, 0])] * 10, to_target)
    assert state.finished and state.winner == 0
    short = resolve_rules(
        {"preset": "schieber", "options": {"match_by": "target", "target_points": 1000}},
        include_engine_only=True,
    )
    state = score_match([_played([514, 0]), _played([0, 471]), _played([500, 0])], short)
    assert state.finished and state.points == (1014, 471) and state.winner == 0


def test_match_keeps_checked_results() -> None:
    rng = random.Random(7)
    results = [check(random_deal(rng, dealer=n % 4, rules="schieber")) for n in range(12)]
    state = score_match(results, SCHIEBER)
    assert state.finished and state.deals == 12
    assert state.points == tuple(sum(r["points"][t] for r in results) for t in (0, 1))


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_cli_random_and_check_schieber() -> None:
    dealt = _cli("random", "--seed", "26", "--count", "5", "--rules", "schieber")
    assert dealt.returncode == 0, dealt.stderr
    lines = dealt.stdout.splitlines()
    assert len(lines) == 5 and all(len(json.loads(x)["plays"]) <= 36 for x in lines)
    checked = _cli("check", "--jsonl", "-", stdin=dealt.stdout)
    assert checked.returncode == 0, checked.stdout
    results = [json.loads(x) for x in checked.stdout.splitlines()]
    assert all(r["valid"] and r["kind"] == "schieber" for r in results)


# ----- the engine against the plain reference ----------------------------------------------


def _compare(record: dict[str, Any], *, multipliers: bool = False) -> dict[str, Any]:
    result = check(record)
    assert result["valid"], (record, result["errors"])
    want = ref.score(record, multipliers=multipliers)
    assert result["points"] == want["points"], record
    assert result["outcome"] == want["outcome"], record
    assert result["match"] == want["match"], record
    assert result["weis"]["winning_team"] == want["weis_team"], record
    assert result["card_points"] == want["card_points"], record
    assert result["tricks_won"] == want["tricks_won"], record
    return want


def _as_summary(record: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    rec = {k: v for k, v in record.items() if k not in ("hands", "plays", "weis")}
    rec["card_points"] = want["card_points"]
    rec["tricks_won"] = want["tricks_won"]
    forehand = (record["dealer"] + 1) % 4
    weis = [
        w
        for w in record.get("weis", [])
        if "revoke" not in record or (w["seat"] - forehand) % 4 <= len(record["plays"])
    ]
    if weis:
        rec["weis"] = weis
    trump = record["contract"].get("trump")
    if "revoke" in record and trump is not None:
        # after a revoke the sheet names the seat that held trump K and Q (recorded or not)
        rec.pop("stoeck", None)
        hands = record["hands"]
        holder = [s for s in range(4) if "K" + trump in hands[s] and "Q" + trump in hands[s]]
        if holder:
            rec["stoeck"] = holder[0]
    return rec


def test_engine_matches_reference_on_random_deals() -> None:
    rng = random.Random(20261126)
    revokes = matches = 0
    modes: set[str] = set()
    for n in range(3000):
        record = ref.deal(rng, dealer=n % 4)
        multipliers = n % 5 == 0
        if multipliers:
            record["rules"] = {"preset": "schieber", "options": {"multipliers": True}}
        want = _compare(record, multipliers=multipliers)
        modes.add(record["contract"].get("trump", record["contract"]["mode"]))
        matches += want["match"] is not None
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
    assert revokes > 100 and matches > 0
    assert modes == {"C", "S", "H", "D", "obenabe", "undenufe"}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_engine_random_deals_agree_with_reference(seed: int, dealer: int) -> None:
    record = random_deal(random.Random(seed), dealer=dealer, rules="schieber")
    want = _compare(record)
    contract = record["contract"]
    trump, mode = contract.get("trump"), contract["mode"]
    hands = copy.deepcopy(record["hands"])
    seat, trick = (dealer + 1) % 4, list[str]()
    for card in record["plays"]:
        assert card in ref.legal(hands[seat], trick, trump, mode), (record, card)
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            seat, trick = (seat + 1 + ref.heading(trick, trump, mode)) % 4, []
        else:
            seat = (seat + 1) % 4
    if "revoke" in record:
        assert record["revoke"]["card"] not in ref.legal(hands[seat], trick, trump, mode)
    else:
        assert sum(want["card_points"]) == 157 and sum(want["tricks_won"]) == 9


# ----- properties ----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_played_deal_properties(seed: int) -> None:
    rng = random.Random(seed)
    record = random_deal(rng, dealer=rng.randrange(4), rules="schieber")
    result = check(record)
    assert result["valid"], result["errors"]
    if result["outcome"] == "played":
        assert sum(result["card_points"]) == 157
        assert sum(t["points"] for t in result["tricks"]) == 157
        assert sum(result["tricks_won"]) == 9 and len(result["tricks"]) == 9
        match_bonus = 100 if result["match"] is not None else 0
        extras = result["weis"]["points"] + (20 if result["stoeck"] else 0)
        assert result["total"] == 157 + match_bonus + extras
    else:
        loser = record["revoke"]["seat"] % 2
        assert result["points"][loser] == 0 and result["winner_team"] == 1 - loser
    multiplied = dict(record, rules={"preset": "schieber", "options": {"multipliers": True}})
    again = check(multiplied)
    factor = again["multiplier"]
    assert factor == {"C": 1, "D": 1, "H": 2, "S": 2, None: 3}[result["trump"]]
    assert again["points"] == [p * factor for p in result["points"]]


DECK = [r + s for s in "CSHD" for r in "6789TJQKA"]


@settings(max_examples=400, deadline=None)
@given(
    st.permutations(DECK),
    st.integers(0, 3),
    st.integers(1, 9),
    st.sampled_from(list(MODES)),
)
def test_legal_cards_agree_with_reference(
    deck: list[str], played: int, size: int, mode: str
) -> None:
    trick, hand = deck[:played], deck[played : played + size]
    table = MODE_TABLES[MODES[mode]]
    legal = jass_legal(mask(" ".join(hand)), cards(" ".join(trick)), table)
    trump, name = ref_mode(mode)
    want = ref.legal(hand, trick, trump, name)
    assert legal == mask(" ".join(want))
    assert want, "a hand always has a legal card"
