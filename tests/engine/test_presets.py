"""The presets for related games: Klaverjas (Rotterdam, Amsterdam), Klammern for 2 or 3.

Table-driven tests of RULES.md "Presets for related games": play rules, roem, pit, nat,
revoke, the contract, summary feasibility, 2/3-player made/failed, the presets' options.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, PRESETS, check, legal_cards, player_count, resolve_rules
from games.engine.klaverjas import KLAVERJAS_TABLES
from games.engine.seatwalk import trick_roem

F = "klammern-deal/1"
ROT, AMS, K2, K3 = "klaverjas-rotterdam", "klaverjas-amsterdam", "klammern-2", "klammern-3"


def mask(*texts: str) -> int:
    return sum(1 << CARD_BY_TEXT[t] for t in texts)


def cards(texts: str) -> list[int]:
    return [CARD_BY_TEXT[t] for t in texts.split()]


# ----- play rules (trump Hearts) ----------------------------------------------------------

PLAY_CASES = [
    # (preset, trick so far, hand, legal, why)
    (ROT, "AH", "7H JH AC", "JH", "trump led: must beat AH"),
    ("klammern", "AH", "7H JH AC", "7H JH", "Klammern: no duty on a trump lead"),
    (ROT, "AC JH", "7H 8S 9D", "8S 9D", "cannot overtrump: no undertrump, side card"),
    ("klammern", "AC JH", "7H 8S 9D", "7H", "Klammern must undertrump"),
    (ROT, "AC JH", "7H 8H", "7H 8H", "only trumps: a lower trump is allowed"),
    (ROT, "AC 9H", "7H JH KS", "JH", "must overtrump 9H"),
    (ROT, "7C AC 8C", "7H KS", "7H", "Rotterdam: must trump though the partner wins"),
    (AMS, "7C AC 8C", "7H KS", "7H KS", "Amsterdam: partner wins, any card"),
    (AMS, "AC 9H 8C", "7H JH KS", "JH KS", "Amsterdam: any card except a lower trump"),
    (ROT, "AC 9H 8C", "7H JH KS", "JH", "Rotterdam: must overtrump the partner"),
    (AMS, "AC 9H 8C", "7H 8H", "7H 8H", "Amsterdam: nothing but trumps"),
    (AMS, "AC 9H 8C", "7H KS", "KS", "Amsterdam: no undertrumping of the partner"),
    (AMS, "7H AH 8H", "JH TH KS", "JH", "Amsterdam: trump led, the duty to go higher stays"),
    (AMS, "AC 7D JH", "7H 8S", "8S", "Amsterdam: opponent heads with a trump"),
    (
        {"preset": "klammern", "options": {"partner_exempt": True}},
        "AC 9H 8C",
        "7H KS",
        "7H KS",
        "Klammern partner_exempt: any card (meaning unchanged)",
    ),
    (K2, "AH", "7H JH", "JH", "2 players: trump lead must be overtrumped"),
    (K3, "AC JH", "7H 8S", "7H", "3 players: must undertrump"),
    (K3, "7C AC", "7H KS", "7H", "3 players: no partner exemption"),
]


@pytest.mark.parametrize(("preset", "trick", "hand", "legal", "why"), PLAY_CASES)
def test_play_rules(preset: object, trick: str, hand: str, legal: str, why: str) -> None:
    options = resolve_rules(preset)
    got = legal_cards(mask(*hand.split()), cards(trick), 2, options)
    assert got == mask(*legal.split()), why


# ----- roem --------------------------------------------------------------------------------

ROEM_CASES = [
    ("7C 8C 9C AD", 20, "three in sequence"),
    ("7C 8C 9C TC", 50, "four in sequence (not 20 + 50)"),
    ("9C TC JC 7D", 20, "natural order 9 T J"),
    ("7C 8C TC JC", 0, "two pairs, no three in sequence"),
    ("AC AS AH AD", 100, "four Aces"),
    ("TC TS TH TD", 100, "four Tens"),
    ("QC QS QH QD", 100, "four Queens"),
    ("JC JS JH JD", 200, "four Jacks"),
    ("9C 9S 9H 9D", 0, "four Nines score nothing"),
    ("KH QH 7C 8D", 20, "stuk"),
    ("QH KH AH 7C", 40, "terz with the stuk beside it"),
    ("JH QH KH AH", 70, "fifty with the stuk"),
    ("KS QS 7C 8D", 0, "King and Queen of a side suit"),
]


@pytest.mark.parametrize(("trick", "roem", "why"), ROEM_CASES)
def test_trick_roem(trick: str, roem: int, why: str) -> None:
    assert trick_roem(cards(trick), KLAVERJAS_TABLES[2]) == roem, why


# ----- Klaverjas records -------------------------------------------------------------------

SUITED = [
    ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
]
ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"]


def klaverjas_full(dealer: int, rules: str = ROT, **extra: Any) -> dict[str, Any]:
    """Every trick holds one rank of each suit; seat 0 (all Hearts, trump) wins them all."""
    forehand = (dealer + 1) % 4
    plays = [
        r + "HCSD"[((forehand if i == 0 else 0) + k) % 4]
        for i, r in enumerate(ORDER)
        for k in range(4)
    ]
    rec = {
        "format": F,
        "rules": rules,
        "dealer": dealer,
        "hands": SUITED,
        "contract": {"kind": "klaverjas", "declarer": forehand, "trump": "H"},
        "plays": plays,
    }
    rec.update(extra)
    return rec


def summary(rules: str, **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": rules, "dealer": 3}
    rec["contract"] = {"kind": "klaverjas", "declarer": 0, "trump": "H"}
    rec.update(fields)
    return rec


def test_klaverjas_pit_and_four_of_a_kind() -> None:
    result = check(klaverjas_full(3))
    assert result["valid"], result["errors"]
    # A, T, K, Q 100 each, J 200 (9, 8, 7 nothing), pit 100; seat 0 team 0 made.
    assert result["roem"] == [700, 0]
    assert result["pit"] == 0
    assert result["card_points"] == [162, 0]
    assert result["points"] == [862, 0]
    assert (result["outcome"], result["winner_team"]) == ("made", 0)
    assert "small_points" not in result and "match_points" not in result


def test_klaverjas_nat_defenders_take_everything() -> None:
    result = check(klaverjas_full(0))  # forehand seat 1 (team 1) plays; seat 0 ruffs all
    assert result["valid"], result["errors"]
    assert result["playing_team"] == 1
    assert (result["outcome"], result["winner_team"]) == ("failed", 0)
    assert result["points"] == [162 + 700, 0]


def test_klaverjas_revoke_full() -> None:
    rec = klaverjas_full(3, plays=["AH"], revoke={"seat": 1, "card": "AS"})
    result = check(rec)
    assert not result["valid"]  # seat 1 holds only Clubs: AS is not in its hand
    hands = [list(h) for h in SUITED]
    hands[1][0], hands[2][0] = "7S", "7C"  # seat 1 now holds 7S, seat 2 holds 7C
    rec = klaverjas_full(3, hands=hands, plays=["AH", "AC"], revoke={"seat": 2, "card": "7C"})
    rec["plays"] = ["9H", "7S"]
    rec["revoke"] = {"seat": 2, "card": "7C"}
    result = check(rec)
    assert not result["valid"]
    assert result["errors"][0]["code"] == "revoke_not_illegal"  # seat 2 has no Hearts
    rec["plays"] = ["9H"]
    rec["revoke"] = {"seat": 1, "card": "8C"}  # seat 1 holds no trump: any card is legal
    assert check(rec)["errors"][0]["code"] == "revoke_not_illegal"


def test_klaverjas_revoke_clean_team_scores_162_and_roem() -> None:
    hands = [list(h) for h in SUITED]
    hands[0][0], hands[1][0] = "7C", "7H"  # seat 0: 7C + Hearts; seat 1: 7H + Clubs
    rec = klaverjas_full(3, hands=hands)
    rec["plays"] = ["7C"]  # seat 0 leads 7C; seat 1 holds Clubs but discards 7H
    rec["revoke"] = {"seat": 1, "card": "7H"}
    result = check(rec)
    assert result["valid"], result["errors"]
    assert (result["outcome"], result["winner_team"], result["points"]) == ("revoke", 0, [162, 0])


KLAVERJAS_SUMMARY_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "made_own_points",
        {"card_points": [100, 62], "roem": [20, 50], "tricks_won": [5, 3]},
        {"valid": True, "outcome": "made", "points": [120, 112], "roem": [20, 50], "pit": None},
    ),
    (
        "nat_with_roem",
        {"card_points": [70, 92], "roem": [20, 0], "tricks_won": [4, 4]},
        {"valid": True, "outcome": "failed", "winner_team": 1, "points": [0, 182]},
    ),
    (
        "nat_on_equal",
        {"card_points": [81, 81], "roem": [0, 0], "tricks_won": [4, 4]},
        {"valid": True, "outcome": "failed", "points": [0, 162]},
    ),
    (
        "pit_with_8_tricks",
        {"card_points": [162, 0], "roem": [0, 0], "tricks_won": [8, 0]},
        {"valid": True, "pit": 0, "roem": [100, 0], "points": [262, 0]},
    ),
    (
        "no_pit_with_7_tricks",
        {"card_points": [162, 0], "roem": [0, 0], "tricks_won": [7, 1]},
        {"valid": True, "pit": None, "points": [162, 0]},
    ),
    (
        "defenders_pit_nat",
        {"card_points": [0, 162], "roem": [0, 20], "tricks_won": [0, 8]},
        {"valid": True, "outcome": "failed", "pit": 1, "points": [0, 282]},
    ),
    (
        "revoke_by_makers",
        {
            "card_points": [30, 40],
            "roem": [20, 0],
            "tricks_won": [2, 2],
            "revoke": {"seat": 2, "card": "7C"},
        },
        {"valid": True, "outcome": "revoke", "winner_team": 1, "points": [0, 182]},
    ),
    (
        "sum_not_162",
        {"card_points": [100, 64], "roem": [0, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "roem_not_multiple_of_10",
        {"card_points": [100, 62], "roem": [25, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "roem_30_no_trick_holds",
        {"card_points": [100, 62], "roem": [30, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "roem_60_in_one_trick",
        {"card_points": [20, 142], "roem": [60, 0], "tricks_won": [1, 7]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "roem_60_in_three_tricks",
        {"card_points": [50, 112], "roem": [60, 0], "tricks_won": [3, 5]},
        {"valid": True, "outcome": "failed"},
    ),
    (
        "two_stuks",
        {"card_points": [100, 62], "roem": [20, 20], "tricks_won": [1, 1]},
        {"valid": False, "codes": ["impossible_tricks"]},
    ),
    (
        "stuk_twice_impossible",
        {"card_points": [140, 22], "roem": [20, 20], "tricks_won": [7, 1]},
        {"valid": True},  # 20 in team 1's one trick can be a terz
    ),
    (
        "four_jacks_in_one_trick",
        {"card_points": [30, 132], "roem": [200, 0], "tricks_won": [1, 7]},
        {"valid": True, "outcome": "made"},
    ),
    (
        "one_trick_holds_at_most_200",
        {"card_points": [30, 132], "roem": [270, 0], "tricks_won": [1, 7]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "no_tricks_no_roem",
        {"card_points": [162, 0], "roem": [0, 20], "tricks_won": [8, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "tricks_not_8",
        {"card_points": [100, 62], "roem": [0, 0], "tricks_won": [4, 3]},
        {"valid": False, "codes": ["impossible_tricks"]},
    ),
    (
        "one_point_impossible",
        {"card_points": [1, 161], "roem": [0, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "melds_not_allowed",
        {
            "card_points": [100, 62],
            "roem": [0, 0],
            "melds": [{"seat": 0, "cards": ["7C", "8C", "9C"]}],
        },
        {"valid": False, "codes": ["unknown_field"]},
    ),
    (
        "bella_not_allowed",
        {"card_points": [100, 62], "roem": [0, 0], "bella": 0},
        {"valid": False, "codes": ["unknown_field"]},
    ),
    (
        "kontra_not_allowed",
        {"card_points": [100, 62], "roem": [0, 0], "doubling": "kontra"},
        {"valid": False, "codes": ["unknown_field"]},
    ),
    (
        "declarer_not_forehand",
        {
            "card_points": [100, 62],
            "roem": [0, 0],
            "contract": {"kind": "klaverjas", "declarer": 1, "trump": "H"},
        },
        {"valid": False, "codes": ["contract_mismatch"]},
    ),
    (
        "kind_orgi",
        {
            "card_points": [100, 62],
            "roem": [0, 0],
            "contract": {"kind": "orgi", "declarer": 0, "trump": "H"},
        },
        {"valid": False, "codes": ["contract_mismatch"]},
    ),
    (
        "upcard_sets_trump",
        {"card_points": [100, 62], "roem": [0, 0], "upcard": "7S"},
        {"valid": False, "codes": ["contract_mismatch"]},
    ),
]


@pytest.mark.parametrize("rules", [ROT, AMS])
@pytest.mark.parametrize(
    ("name", "fields", "expect"),
    KLAVERJAS_SUMMARY_CASES,
    ids=[c[0] for c in KLAVERJAS_SUMMARY_CASES],
)
def test_klaverjas_summary(
    rules: str, name: str, fields: dict[str, Any], expect: dict[str, Any]
) -> None:
    result = check(summary(rules, **fields))
    want = dict(expect)
    codes = want.pop("codes", None)
    if codes is not None:
        assert sorted({e["code"] for e in result["errors"]}) == codes, result["errors"]
    for key, value in want.items():
        assert result[key] == value, (name, key, result)


def test_klaverjas_messages_name_seats_and_cards() -> None:
    hands = [list(h) for h in SUITED]
    hands[0][0], hands[1][0] = "7C", "7H"
    rec = klaverjas_full(3, hands=hands)
    rec["plays"] = ["7C", "7H"] + rec["plays"][2:]
    result = check(rec)
    assert not result["valid"]
    error = result["errors"][0]
    assert error["code"] == "illegal_play" and error["play"] == 1
    assert "seat 1" in error["message"] and "7H" in error["message"]


# ----- Klammern for 2 or 3 players ---------------------------------------------------------


def solo_summary(rules: str, **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": F, "rules": rules, "dealer": 0, "turned": "7D"}
    rec["contract"] = {"kind": "take", "declarer": 1, "trump": "H"}
    rec.update(fields)
    return rec


SOLO_CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "two_made",
        K2,
        {"card_points": [50, 114], "tricks_won": [3, 6]},
        {"valid": True, "outcome": "made", "points": [50, 114], "winner": 1},
    ),
    (
        "two_failed",
        K2,
        {"card_points": [90, 74], "tricks_won": [5, 4]},
        {"valid": True, "outcome": "failed", "points": [164, 0], "winner": 0},
    ),
    (
        "two_equal_fails",
        K2,
        {"card_points": [82, 82], "tricks_won": [5, 4]},
        {"valid": True, "outcome": "failed", "points": [164, 0]},
    ),
    (
        "three_made",
        K3,
        {"card_points": [40, 70, 54], "tricks_won": [3, 3, 3]},
        {"valid": True, "outcome": "made", "points": [40, 70, 54], "winner": 1},
    ),
    (
        "three_failed_odd_point_left_of_declarer",
        K3,
        {"card_points": [60, 41, 50], "tricks_won": [3, 3, 3]},
        {"valid": True, "outcome": "failed", "points": [60 + 20, 0, 50 + 20 + 1]},
    ),
    (
        "three_failed_odd_point_wraps",
        K3,
        {
            "card_points": [50, 60, 41],
            "tricks_won": [3, 3, 3],
            "contract": {"kind": "take", "declarer": 2, "trump": "H"},
        },
        {"valid": True, "outcome": "failed", "points": [50 + 20 + 1, 60 + 20, 0]},
    ),
    (
        "declarer_must_beat_each",
        K3,
        {"card_points": [70, 70, 24], "tricks_won": [4, 4, 1]},
        {"valid": True, "outcome": "failed", "points": [105, 0, 59]},
    ),
    (
        "best_meld_scores",
        K3,
        {
            "card_points": [40, 70, 54],
            "tricks_won": [3, 3, 3],
            "melds": [
                {"seat": 0, "cards": ["7C", "8C", "9C", "TC"]},
                {"seat": 2, "cards": ["QS", "KS", "AS"]},
            ],
        },
        {"valid": True, "outcome": "failed", "points": [90 + 35, 0, 54 + 35]},
    ),
    (
        "no_trick_no_melds",
        K3,
        {
            "card_points": [0, 100, 64],
            "tricks_won": [0, 5, 4],
            "melds": [{"seat": 0, "cards": ["7C", "8C", "9C", "TC"]}],
        },
        {"valid": True, "outcome": "made", "points": [0, 100, 64]},
    ),
    (
        "bella_counts",
        K2,
        {"card_points": [90, 74], "tricks_won": [5, 4], "bella": 1},
        {"valid": True, "outcome": "made", "points": [90, 94]},
    ),
    (
        "revoke_revoker_zero",
        K3,
        {
            "card_points": [30, 20, 11],
            "tricks_won": [1, 1, 1],
            "revoke": {"seat": 0, "card": "8S"},
            "bella": 2,
        },
        {"valid": True, "outcome": "revoke", "points": [0, 20, 31], "winner": 2},
    ),
    (
        "tricks_not_9",
        K2,
        {"card_points": [90, 74], "tricks_won": [5, 5]},
        {"valid": False, "codes": ["impossible_tricks"]},
    ),
    (
        "points_without_tricks",
        K2,
        {"card_points": [90, 74], "tricks_won": [9, 0]},
        {"valid": False, "codes": ["impossible_points"]},
    ),
    (
        "doubling_not_allowed",
        K2,
        {"card_points": [90, 74], "doubling": "kontra"},
        {"valid": False, "codes": ["unknown_field"]},
    ),
    (
        "seat_3_unknown",
        K3,
        {"card_points": [90, 74, 0], "bella": 3},
        {"valid": False, "codes": ["bad_format"]},
    ),
    (
        "kind_orgi",
        K2,
        {"card_points": [90, 74], "contract": {"kind": "orgi", "declarer": 1, "trump": "H"}},
        {"valid": False, "codes": ["contract_mismatch"]},
    ),
    (
        "exchange_needs_turned_suit",
        K2,
        {"card_points": [90, 74], "exchange": 0},
        {"valid": False, "codes": ["contract_mismatch"]},
    ),
    (
        "bidding_first_round",
        K2,
        {
            "card_points": [50, 114],
            "turned": "7H",
            "bidding": [{"seat": 1, "call": "take"}],
        },
        {"valid": True, "outcome": "made"},
    ),
    (
        "bidding_second_round_needs_other_suit",
        K2,
        {
            "card_points": [50, 114],
            "turned": "7H",
            "bidding": [
                {"seat": 1, "call": "pass"},
                {"seat": 0, "call": "pass"},
                {"seat": 1, "call": "take", "trump": "H"},
            ],
        },
        {"valid": False, "codes": ["bidding_mismatch"]},
    ),
    (
        "thrown_in",
        K3,
        {"contract": {"kind": "thrown_in"}},
        {"valid": True, "outcome": "thrown_in", "points": [0, 0, 0], "winner": None},
    ),
]


@pytest.mark.parametrize(
    ("name", "rules", "fields", "expect"), SOLO_CASES, ids=[c[0] for c in SOLO_CASES]
)
def test_solo_summary(
    name: str, rules: str, fields: dict[str, Any], expect: dict[str, Any]
) -> None:
    result = check(solo_summary(rules, **fields))
    want = dict(expect)
    codes = want.pop("codes", None)
    if codes is not None:
        assert sorted({e["code"] for e in result["errors"]}) == codes, result["errors"]
    for key, value in want.items():
        assert result[key] == value, (name, key, result)
    if result["valid"]:
        assert "winner_team" not in result and "small_points" not in result


#: A 2-player deal: dealer 0, forehand 1; seat 0 Hearts 8-A + AC, seat 1 Clubs 7-K + AS TS.
SOLO_HANDS = [
    ["8H", "9H", "TH", "JH", "QH", "KH", "AH", "AC", "7S"],
    ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AS", "TS"],
]


def solo_full(**extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": F,
        "rules": K2,
        "dealer": 0,
        "hands": [list(h) for h in SOLO_HANDS],
        "turned": "7D",
        "contract": {"kind": "take", "declarer": 0, "trump": "H"},
    }
    # seat 1 leads its Clubs; seat 0 holds AC for the first, then must trump
    plays = ["7C", "AC"]
    plays += ["AH", "TS"]  # seat 0 leads trump, seat 1 has none
    for club, trump in zip(
        ["8C", "9C", "TC", "JC", "QC", "KC"], ["8H", "9H", "TH", "JH", "QH", "KH"], strict=True
    ):
        plays += [trump, club]  # seat 0 keeps the lead with trumps
    plays += ["7S", "AS"]  # last trick: seat 1 wins with AS
    rec["plays"] = plays
    rec.update(extra)
    return rec


def test_solo_full_deal() -> None:
    result = check(solo_full())
    assert result["valid"], result["errors"]
    assert result["tricks_won"] == [8, 1]
    assert len(result["tricks"]) == 9
    assert sum(result["card_points"]) == sum(t["points"] for t in result["tricks"])
    assert result["outcome"] == "made" and result["winner"] == 0


def test_solo_turned_card_and_exchange() -> None:
    hands = [list(h) for h in SOLO_HANDS]
    result = check(solo_full(hands=hands, turned="7S"))
    assert "duplicate_card" in [e["code"] for e in result["errors"]]
    hands = [list(h) for h in SOLO_HANDS]
    hands[0][0] = "7H"  # seat 0 still holds the 7 of trumps it gave away
    result = check(solo_full(hands=hands, turned="8H", exchange=0))
    assert "duplicate_card" in [e["code"] for e in result["errors"]]


def test_presets_options_and_player_counts() -> None:
    assert {player_count(PRESETS[p]) for p in (ROT, AMS, "klammern")} == {4}
    assert player_count(PRESETS[K2]) == 2 and player_count(PRESETS[K3]) == 3
    assert PRESETS[ROT].no_undertrump and not PRESETS["klammern"].no_undertrump
    assert PRESETS[AMS].partner_exempt and not PRESETS[ROT].partner_exempt
    assert PRESETS[K2].overtrump_on_trump_lead
    result = check({"format": F, "rules": {"preset": ROT, "options": {"players": 3}}})
    assert result["errors"][0]["code"] == "unknown_rules"
