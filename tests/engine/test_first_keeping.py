"""``analysis_answers.first_keeping``: a perfect line's next card with fewer searches.

The three analyses (4-player Klammern, Klaverjas and Belote, Klammern for 2 or 3) choose a
perfect line's next card as the first legal card in display order that keeps the
position's value, testing each class of equivalent cards once and taking the last class
left without a search. Here: the helper's own rule (which cards it tests), and on random
deals of every analysed game that it picks the same card as testing every card in turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, random_deal, resolve_rules
from games.engine.analysis import DealAnalysis
from games.engine.analysis_answers import first_keeping
from games.engine.belote_analysis import BeloteDeal
from games.engine.cards import TABLES, sorted_for_display
from games.engine.dispatch import check
from games.engine.klaverjas import KLAVERJAS_TABLES
from games.engine.klaverjas_analysis import KlaverjasDeal
from games.engine.native import running_native
from games.engine.rules import PRESETS
from games.engine.solo_analysis import SoloAnalysis, _contract, _hands

#: How many tricks from the end positions are compared: all compiled, the last three
#: interpreted (the Python search takes seconds for a whole deal).
TRICKS = 9 if running_native() else 3


def _asking(keeping: set[int]) -> tuple[list[int], Any]:
    asked: list[int] = []

    def keeps(card: int) -> bool:
        asked.append(card)
        return card in keeping

    return asked, keeps


def test_a_failed_class_is_not_tested_again_and_the_last_class_not_at_all() -> None:
    asked, keeps = _asking({1})
    assert first_keeping([5, 3, 9, 1], [[5, 9], [3], [1]], keeps) == 1
    assert asked == [5, 3]  # 9 is 5's class, 1 is the last class left


def test_the_first_keeping_card_in_display_order_wins() -> None:
    asked, keeps = _asking({3, 1})
    assert first_keeping([5, 3, 9, 1], [[5, 9], [3], [1]], keeps) == 3
    assert asked == [5, 3]
    asked, keeps = _asking({5, 9, 3, 1})
    assert first_keeping([5, 3, 9, 1], [[5, 9], [3], [1]], keeps) == 5
    assert asked == [5]


def test_one_class_needs_no_search() -> None:
    asked, keeps = _asking(set())
    assert first_keeping([7, 6], [[6, 7]], keeps) == 7
    assert asked == []


def test_no_card_is_an_error() -> None:
    with pytest.raises(AssertionError):
        first_keeping([], [], lambda c: True)


def _records(preset: str, seed: int, count: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    found, players = 0, resolve_rules(preset, include_engine_only=True).players
    while found < count:
        record = random_deal(rng, dealer=found % players, rules={"preset": preset})
        if record["contract"]["kind"] != "thrown_in" and "revoke" not in record:
            found += 1
            yield record


def _first(record: dict[str, Any], players: int) -> int:
    """The first play whose position is compared."""
    return max(0, len(record["plays"]) - TRICKS * players)


def _trump(record: dict[str, Any]) -> int:
    return "CSHD".index(record["contract"]["trump"])


@pytest.mark.parametrize("preset", ["klammern", "klammern-hamburg"])
def test_klammern_lines_pick_the_card_every_test_would(preset: str) -> None:
    for record in _records(preset, 35, 2):
        hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
        trump = _trump(record)
        deal = DealAnalysis(hands, trump, (record["dealer"] + 1) % 4, resolve_rules(preset), 0)
        pos = deal.start
        for index, text in enumerate(record["plays"]):
            if index >= _first(record, 4):
                par0 = deal.card_par(pos)
                every = next(
                    c
                    for c in sorted_for_display(deal.legal(pos), TABLES[trump])
                    if deal.keeps(pos, c, par0)
                )
                assert deal.keeping_card(pos, par0) == every
            pos = pos.after(CARD_BY_TEXT[text], trump)


@pytest.mark.parametrize("preset", ["klaverjas-rotterdam", "klaverjas-amsterdam", "belote"])
def test_klaverjas_and_belote_lines_pick_the_card_every_test_would(preset: str) -> None:
    for record in _records(preset, 35, 2):
        hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
        trump = _trump(record)
        options = resolve_rules(record["rules"], include_engine_only=True)
        kind = BeloteDeal if preset == "belote" else KlaverjasDeal
        deal = kind(hands, trump, (record["dealer"] + 1) % 4, options)
        pos = deal.start
        for index, text in enumerate(record["plays"]):
            if index >= _first(record, 4):
                par = deal.value(pos)
                every = next(
                    c
                    for c in sorted_for_display(deal.legal(pos), KLAVERJAS_TABLES[trump])
                    if deal.keeps(pos, c, par)
                )
                assert deal.keeping_card(pos, par) == every
            pos = pos.after(CARD_BY_TEXT[text], trump)


@pytest.mark.parametrize("preset", ["klammern-2", "klammern-3"])
def test_solo_lines_pick_the_card_every_test_would(preset: str) -> None:
    players = PRESETS[preset].players
    for record in _records(preset, 35, 2):
        deal = SoloAnalysis(_hands(record), _contract(record, check(record), PRESETS[preset]))
        pos = deal.start
        for index, text in enumerate(record["plays"]):
            if index >= _first(record, players):
                par = deal.value(pos)
                every = next(
                    c
                    for c in sorted_for_display(deal.legal(pos), TABLES[deal.trump])
                    if deal.keeps(pos, c, par)
                )
                assert deal.keeping_card(pos, par) == every
            pos = pos.after(CARD_BY_TEXT[text], deal.trump)
