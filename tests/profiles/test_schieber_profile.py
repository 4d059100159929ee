"""Schieberjass's game profile (RULES.md, "Schieberjass"): the platform may run it (a
tournament's rules resolve, the registry finds it), its match is 12 deals or to 2500
points, its tournaments rank by total points before match points, its columns speak of
points, Weis, Stöck and Match, its German words are the Swiss ones without changing
Klammern's, and its clubs may show Swiss German suits. No database."""

from __future__ import annotations

import random
from typing import Any

from django.utils import translation

from games import profiles
from games.engine import check, random_deal
from games.profiles.schieber import SCHIEBER

BASE = {"format": "klammern-deal/1", "rules": "schieber", "dealer": 0}


def result(**record: Any) -> dict[str, Any]:
    checked = check({**BASE, **record})
    assert checked["valid"], checked["errors"]
    return checked


PUSHED = {  # forehand (1) pushes, partner 3 chooses Hearts; Weis of seat 1, Stöck of seat 3
    "contract": {"kind": "schieber", "chooser": 3, "mode": "trump", "trump": "H", "pushed": True},
    "card_points": [57, 100],
    "weis": [{"seat": 1, "cards": ["6S", "7S", "8S"]}],
    "stoeck": 3,
}
MATCH = {  # Obenabe, team 1 takes all 9 tricks: 257
    "contract": {"kind": "schieber", "chooser": 1, "mode": "obenabe", "pushed": False},
    "card_points": [0, 157],
    "tricks_won": [0, 9],
}


def test_tournaments_may_play_schieber_through_its_profile() -> None:
    assert "schieber" in profiles.PRESET_NAMES
    rules = profiles.tournament_rules("schieber", {})
    assert (rules.game, rules.players, rules.deals_per_match) == ("schieber", 4, 12)
    assert profiles.profile_for("schieber", {}) is SCHIEBER
    assert profiles.profile_of(rules) is SCHIEBER
    with translation.override("en"):
        assert profiles.rating_pools()["schieber"] == "Schieberjass"
    assert (SCHIEBER.teams, SCHIEBER.analysable, SCHIEBER.league) == (True, False, False)
    assert SCHIEBER.ranks == "6789TJQKA"


def test_a_match_is_12_deals_or_to_2500_points() -> None:
    rules = profiles.tournament_rules("schieber", {})
    assert SCHIEBER.match_fields(rules) == {"match_mode": "deals", "deals_per_match": 12}
    to_target = profiles.tournament_rules("schieber", {"match_by": "target"})
    assert SCHIEBER.match_fields(to_target) == {"match_mode": "liga", "liga_target": 2500}


def test_tournaments_rank_by_total_points_then_match_points() -> None:
    assert SCHIEBER.tiebreaks is not None
    assert SCHIEBER.tiebreaks[:2] == ("augen", "tournament_points")


def test_the_match_state_sums_the_deals_and_names_the_winner() -> None:
    rules = profiles.tournament_rules("schieber", {})
    rng = random.Random(26)
    results = [check(random_deal(rng, dealer=d % 4, rules="schieber")) for d in range(12)]
    state = SCHIEBER.match_state(results, rules, mode="deals", target=12)
    totals = [sum(r["points"][t] for r in results) for t in (0, 1)]
    assert state.points == tuple(totals) and state.finished and state.deals == 12
    assert state.winner == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))


def test_the_csv_columns_are_points_weis_stoeck_and_match() -> None:
    with translation.override("en"):
        assert SCHIEBER.deal_headings() == [
            "Points seats 1+3",
            "Points seats 2+4",
            "Weis seats 1+3",
            "Weis seats 2+4",
            "Stöck seats 1+3",
            "Stöck seats 2+4",
            "Match seats 1+3",
            "Match seats 2+4",
        ]
    assert SCHIEBER.deal_cells(result(**PUSHED)) == [57, 140, 0, 20, 0, 20, False, False]
    assert SCHIEBER.deal_cells(result(**MATCH)) == [0, 257, 0, 0, 0, 0, False, True]


def test_the_console_and_the_tablet_show_weis_stoeck_match_and_the_choice() -> None:
    pushed, match = result(**PUSHED), result(**MATCH)
    assert SCHIEBER.match_cells(pushed) == ["0 : 20", "2+4", ""]
    assert SCHIEBER.match_cells(match) == ["0 : 0", "", "2+4"]
    with translation.override("en"):
        assert SCHIEBER.deal_marks(pushed) == [("is-pushed", "pushed")]
        assert SCHIEBER.deal_marks(match) == [("is-mode", "Obenabe"), ("is-pit", "Match")]
        assert SCHIEBER.deal_note(pushed) == "Weis 0 : 20 · Stöck 2+4"


def test_german_pages_use_the_swiss_words_and_klammern_keeps_its_own() -> None:
    with translation.override("de"):
        assert [str(c.label) for c in SCHIEBER.match_columns] == ["Weis", "Stöck", "Match"]
        assert SCHIEBER.deal_marks(result(**PUSHED))[0][1] == "geschoben"
        assert str(translation.pgettext("schieber", "Trump")) == "Trumpf"
        assert translation.pgettext("schieber", "Four of a kind") == "Vier Gleiche"
        assert translation.gettext("Four of a kind") == "Carré"  # the other games' word
        assert translation.pgettext("schieber", "Sequence of {n}") == "{n}-Blatt"
        assert translation.gettext("Sequence") == "Folge"


def test_schieber_offers_swiss_suits_and_other_games_keep_french_ones() -> None:
    assert profiles.suit_style(SCHIEBER.suit_styles, profiles.SWISS) == profiles.SWISS
    klammern = profiles.PROFILES["klammern"]
    assert profiles.suit_style(klammern.suit_styles, profiles.SWISS) == profiles.FRENCH
    with translation.override("de"):
        names = {c: str(n) for c, n in profiles.SUIT_NAMES[profiles.SWISS].items()}
    assert names == {"C": "Eicheln", "S": "Rosen", "H": "Schilten", "D": "Schellen"}
