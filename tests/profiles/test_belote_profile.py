"""Belote's game profile (RULES.md, "Belote"): the platform may run it (a tournament's
rules resolve, the registry finds it), its match is 12 deals or to 1000 points, and its
columns speak of points, announcements, belote, capot and dedans in every language,
never of Klammern's or Klaverjas's terms. No database."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation

from games import profiles
from games.engine import check, random_deal
from games.profiles.belote import BELOTE

BASE = {"format": "klammern-deal/1", "rules": "belote", "dealer": 0, "upcard": "7S"}


def result(**record: Any) -> dict[str, Any]:
    checked = check({**BASE, **record})
    assert checked["valid"], checked["errors"]
    return checked


MADE = {  # team 1 takes in Spades, a tierce of seat 1, belote of seat 3: 62 : 100+20+20
    "contract": {"kind": "belote", "declarer": 1, "trump": "S", "round": 1},
    "card_points": [62, 100],
    "melds": [{"seat": 1, "cards": ["7H", "8H", "9H"]}],
    "bella": 3,
}
DEDANS = {  # team 0 takes, 70+20 belote against 92+20 tierce: dedans, 20 : 182
    "upcard": "7H",
    "contract": {"kind": "belote", "declarer": 0, "trump": "S", "round": 2},
    "card_points": [70, 92],
    "melds": [{"seat": 1, "cards": ["7D", "8D", "9D"]}],
    "bella": 0,
}
CAPOT = {
    "contract": {"kind": "belote", "declarer": 2, "trump": "S", "round": 1},
    "card_points": [162, 0],
    "tricks_won": [8, 0],
}


def test_tournaments_may_play_belote_through_its_profile() -> None:
    assert "belote" in profiles.PRESET_NAMES
    rules = profiles.tournament_rules("belote", {})
    assert (rules.game, rules.players, rules.deals_per_match) == ("belote", 4, 12)
    assert profiles.profile_for("belote", {}) is BELOTE
    assert profiles.profile_of(rules) is BELOTE
    assert profiles.rating_pools()["belote"] == "Belote"
    assert (BELOTE.teams, BELOTE.analysable, BELOTE.league) == (True, True, False)


def test_a_match_is_12_deals_or_to_1000_points() -> None:
    rules = profiles.tournament_rules("belote", {})
    assert BELOTE.match_fields(rules) == {"match_mode": "deals", "deals_per_match": 12}
    to_target = profiles.tournament_rules("belote", {"match_by": "target"})
    assert BELOTE.match_fields(to_target) == {"match_mode": "liga", "liga_target": 1000}
    with translation.override("fr"):
        text = BELOTE.match_description(mode="liga", target=1000, deals=12)
    assert text == "une partie en 1000 points"


def test_the_match_state_sums_the_deals_and_names_the_winner() -> None:
    rules = profiles.tournament_rules("belote", {})
    rng = random.Random(21)
    results, dealer = [], 0
    while sum(r["kind"] != "thrown_in" for r in results) < 12:
        record = random_deal(rng, dealer=dealer, rules="belote")
        results.append(check(record))
        dealer = (dealer + 1) % 4
    state = BELOTE.match_state(results, rules, mode="deals", target=12)
    totals = [sum(r["points"][t] for r in results) for t in (0, 1)]
    assert state.points == tuple(totals) and state.match_points == tuple(totals)
    assert state.finished and state.deals == len(results)
    expected = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    assert state.winner == expected and state.liga_winner == expected
    half = BELOTE.match_state(results[:3], rules, mode="deals", target=12)
    assert not half.finished and half.winner is None


def test_results_csv_columns_per_team_in_belotes_words() -> None:
    with translation.override("en"):
        assert BELOTE.deal_headings() == [
            "Points seats 1+3",
            "Points seats 2+4",
            "Announcements seats 1+3",
            "Announcements seats 2+4",
            "Belote seats 1+3",
            "Belote seats 2+4",
            "Capot seats 1+3",
            "Capot seats 2+4",
            "Dedans seats 1+3",
            "Dedans seats 2+4",
        ]
    with translation.override("fr"):
        assert BELOTE.deal_headings()[2:4] == ["Annonces places 1+3", "Annonces places 2+4"]
    assert BELOTE.deal_cells(result(**MADE)) == [62, 140, 0, 20, 0, 20, False, False, False, False]
    assert BELOTE.deal_cells(result(**DEDANS)) == [20, 182, 0, 20, 20, 0, False, False, True, False]
    assert BELOTE.deal_cells(result(**CAPOT)) == [252, 0, 0, 0, 0, 0, True, False, False, False]


def test_the_consoles_match_columns() -> None:
    assert [c.key for c in BELOTE.match_columns] == ["announcements", "belote", "capot"]
    assert BELOTE.match_cells(result(**MADE)) == ["0 : 20", "2+4", ""]
    assert BELOTE.match_cells(result(**CAPOT)) == ["0 : 0", "", "1+3"]
    assert BELOTE.contract_word("belote") == "Belote"


@pytest.mark.parametrize(
    ("language", "points", "forbidden"),
    [
        ("de", "Punkte", ("Augen", "Roem", "kleine")),
        ("en", "Points", ("Augen", "Roem", "small")),
        ("fr", "Points", ("Augen", "Roem", "petits")),
        ("nl", "Punten", ("Augen", "Roem", "kleine")),
    ],
)
def test_standings_columns_speak_of_points_not_augen_or_roem(
    language: str, points: str, forbidden: tuple[str, ...]
) -> None:
    with translation.override(language):
        shown = [c.shown() for c in BELOTE.standings_columns.values()]
        words = " ".join(f"{c['label']} {c['title']}" for c in shown)
        headings = " ".join(BELOTE.deal_headings())
    assert shown[1]["label"] == points
    assert [w for w in forbidden if w in words or w in headings] == []
