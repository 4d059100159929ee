"""Belote Contrée's game profile (RULES.md, "Belote Contrée"): the platform may run it (a
tournament's rules resolve, the registry finds it), its match is 12 deals or to 2000
points, ranked by match points then total points; the results CSV, the console and the
tablet's list show each deal's contract, made or failed, coinche or surcoinche and capot
in contrée's words; a duplicate board is 32 cards dealt 3-2-3 with no card turned up.
The expected scores are counted by hand from RULES.md. No database."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation

from games import engine, profiles
from games.engine import check, random_deal
from games.profiles.contree import CONTREE

BASE = {"format": "klammern-deal/1", "rules": "belote-contree", "dealer": 0}


def contract(declarer: int, trump: str, value: int | str, doubling: int = 0) -> dict[str, Any]:
    return {
        "kind": "contree",
        "declarer": declarer,
        "trump": trump,
        "value": value,
        "doubling": doubling,
    }


def result(**record: Any) -> dict[str, Any]:
    checked = check({**BASE, **record})
    assert checked["valid"], checked["errors"]
    return checked


# seats 2+4 bid 100 ♥ and make 104: the defenders' 58 rounds to 60, the takers 160 − 60
MADE = {"contract": contract(1, "H", 100), "card_points": [58, 104]}
# seats 1+3 bid 120 ♠, coinched, and make 110: failed, the defenders 2 × 160
COINCHED = {"contract": contract(0, "S", 120, 1), "card_points": [110, 52]}
# seats 1+3 bid 90 ♦, coinched and surcoinched, make 95: 4 × 160 for the takers
SURCOINCHED = {"contract": contract(2, "D", 90, 2), "card_points": [95, 67]}
# seats 2+4 bid capot in ♣ and take all 8 tricks: 250
CAPOT = {"contract": contract(3, "C", "capot"), "card_points": [0, 162], "tricks_won": [0, 8]}
THROWN_IN = {"contract": {"kind": "thrown_in"}}
# seats 1+3 bid 80 ♥, coinched; seat 2 revokes: the clean team 160 × 2
REVOKE = {
    "contract": contract(0, "H", 80, 1),
    "card_points": [50, 30],
    "revoke": {"seat": 1, "card": "8C"},
}


def test_tournaments_may_play_contree_through_its_profile() -> None:
    assert "belote-contree" in profiles.PRESET_NAMES
    rules = profiles.tournament_rules("belote-contree", {})
    assert (rules.game, rules.players, rules.deals_per_match) == ("contree", 4, 12)
    assert profiles.profile_for("belote-contree", {}) is CONTREE
    assert profiles.profile_of(rules) is CONTREE
    assert profiles.profile_of(profiles.tournament_rules("belote", {})) is not CONTREE
    with translation.override("en"):
        assert profiles.rating_pools()["belote-contree"] == "Belote Contrée"
    assert profiles.pool_games("belote-contree") == [CONTREE.label]
    assert (CONTREE.teams, CONTREE.league, CONTREE.duplicate) == (True, False, True)
    assert CONTREE.points_match and CONTREE.tiebreaks[:2] == ("tournament_points", "augen")


def test_a_match_is_12_deals_or_to_2000_points() -> None:
    rules = profiles.tournament_rules("belote-contree", {})
    assert CONTREE.match_fields(rules) == {"match_mode": "deals", "deals_per_match": 12}
    to_target = profiles.tournament_rules("belote-contree", {"match_by": "target"})
    assert CONTREE.match_fields(to_target) == {"match_mode": "liga", "liga_target": 2000}
    with translation.override("fr"):
        assert CONTREE.match_description(mode="liga", target=2000, deals=12) == (
            "une partie en 2000 points"
        )
        assert "12 donnes" in CONTREE.match_length()


def test_the_match_state_sums_the_deals_and_names_the_winner() -> None:
    rules = profiles.tournament_rules("belote-contree", {})
    rng = random.Random(38)
    results, dealer = [], 0
    while sum(r["kind"] != "thrown_in" for r in results) < 12:
        record = random_deal(rng, dealer=dealer, rules="belote-contree")
        results.append(check(record))
        dealer = (dealer + 1) % 4
    state = CONTREE.match_state(results, rules, mode="deals", target=12)
    totals = [sum(r["points"][t] for r in results) for t in (0, 1)]
    assert state.points == tuple(totals) and state.match_points == tuple(totals)
    assert state.finished and state.deals == len(results)
    expected = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    assert state.winner == expected


def test_a_match_to_2000_ends_once_a_team_has_2000() -> None:
    rules = profiles.tournament_rules("belote-contree", {"match_by": "target"})
    surcoinched = result(**SURCOINCHED)  # 640 : 0 each
    three = CONTREE.match_state([surcoinched] * 3, rules, mode="liga", target=2000)
    assert three.points == (1920, 0) and not three.finished
    four = CONTREE.match_state([surcoinched] * 4, rules, mode="liga", target=2000)
    assert four.points == (2560, 0) and four.finished and four.winner == 0


def test_the_results_csv_columns_show_contract_failed_coinche_and_capot() -> None:
    with translation.override("en"):
        headings = CONTREE.deal_headings()
    assert headings == [
        "Points seats 1+3",
        "Points seats 2+4",
        "Card points seats 1+3",
        "Card points seats 2+4",
        "Contract seats 1+3",
        "Contract seats 2+4",
        "Failed seats 1+3",
        "Failed seats 2+4",
        "Coinche seats 1+3",
        "Coinche seats 2+4",
        "Capot seats 1+3",
        "Capot seats 2+4",
    ]
    with translation.override("en"):
        cells = {
            name: CONTREE.deal_cells(result(**record))
            for name, record in {
                "made": MADE,
                "coinched": COINCHED,
                "surcoinched": SURCOINCHED,
                "capot": CAPOT,
                "thrown_in": THROWN_IN,
                "revoke": REVOKE,
            }.items()
        }
    # by hand: 58 → 60, 160 − 60 = 100; failed coinched 2 × 160; made surcoinched 4 × 160;
    # capot 250; thrown in nothing; a revoke against coinched takers 2 × 160 to them
    assert cells["made"] == [60, 100, 58, 104, "", "100", None, False, "", "", False, False]
    assert cells["coinched"] == [0, 320, 110, 52, "120", "", True, None, "", "coinche"] + [
        False,
        False,
    ]
    assert cells["surcoinched"] == [640, 0, 95, 67, "90", "", False, None] + [
        "surcoinche",
        "coinche",
        False,
        False,
    ]
    assert cells["capot"] == [0, 250, 0, 162, "", "capot", None, False, "", "", False, True]
    assert cells["thrown_in"] == [0, 0, 0, 0, "", "", None, None, "", "", False, False]
    assert cells["revoke"][:4] == [320, 0, 50, 30] and cells["revoke"][8:10] == ["", "coinche"]


def test_the_columns_speak_french() -> None:
    with translation.override("fr"):
        headings = CONTREE.deal_headings()
        coinched = CONTREE.deal_cells(result(**SURCOINCHED))
        marks = CONTREE.deal_marks(result(**COINCHED))
    assert "Contrat places 1+3" in headings and "Chute places 2+4" in headings
    assert "Coinche places 2+4" in headings and "Capot places 1+3" in headings
    assert coinched[8:10] == ["surcoinche", "coinche"]
    assert ("is-mode", "120") in marks and ("is-pushed", "coinché") in marks
    assert ("is-nat", "chuté") in marks


def test_the_tablet_marks_and_the_console_cells() -> None:
    with translation.override("en"):
        assert CONTREE.deal_marks(result(**MADE)) == [("is-mode", "100")]
        assert CONTREE.deal_marks(result(**SURCOINCHED)) == [
            ("is-mode", "90"),
            ("is-pushed", "surcoinched"),
        ]
        assert CONTREE.deal_marks(result(**CAPOT)) == [("is-mode", "capot"), ("is-pit", "capot")]
        assert CONTREE.deal_marks(result(**THROWN_IN)) == []
        revoke = CONTREE.deal_marks(result(**REVOKE), "Bastien")
        assert revoke[-1] == ("is-warn", "revoke: Bastien")
        assert CONTREE.deal_note(result(**MADE)) == "card points 58 : 104"
        assert CONTREE.deal_note(result(**THROWN_IN)) == ""
        assert CONTREE.match_cells(result(**MADE)) == ["100 ♥", "", ""]
        assert CONTREE.match_cells(result(**COINCHED)) == ["120 ♠", "coinched", ""]
        assert CONTREE.match_cells(result(**CAPOT)) == ["capot ♣", "", "2+4"]
        assert CONTREE.match_cells(result(**THROWN_IN)) == ["", "", ""]
        assert [str(c.label) for c in CONTREE.match_columns] == ["Contract", "Coinche", "Capot"]


def test_a_duplicate_board_is_32_cards_dealt_3_2_3_and_none_turned_up() -> None:
    board = CONTREE.deal_board(random.Random("board-1"), dealer=3)
    assert board.dealer == 3 and board.upcard == ""
    assert [len(hand) for hand in board.hands] == [8, 8, 8, 8]
    assert sorted(card for hand in board.hands for card in hand) == sorted(engine.CARD_TEXT)
    again = CONTREE.deal_board(random.Random("board-1"), dealer=3)
    assert again == board
    # the board's hands make a full record the engine accepts (forehand bids first)
    record = {**BASE, "dealer": 3, "hands": [list(h) for h in board.hands], "bids": ["pass"] * 4}
    record["contract"] = {"kind": "thrown_in"}
    assert check(record)["valid"]


@pytest.mark.parametrize(
    ("record", "expected"),
    [(MADE, (60, 100)), (COINCHED, (0, 320)), (CAPOT, (0, 250)), (THROWN_IN, (0, 0))],
)
def test_a_boards_result_is_the_deals_score(
    record: dict[str, Any], expected: tuple[int, int]
) -> None:
    assert CONTREE.board_result(result(**record)) == expected
