"""Each legal card's value, the par outcome per play, the stored lines and
``perfect_line`` of the Klaverjas analysis (Rotterdam and Amsterdam), against the plain
reference of ``klaverjas_reference`` (written from RULES.md) where it is fast enough.

- values: at every position of the last 3 tricks of seeded random deals, every legal
  card's cost is the reference's best margin for the side to play less that card's;
- the line after a costly play is ``perfect_line``'s from that position, and every play's
  ``par_outcome`` is its par's;
- ``perfect_line``: the record up to a position and then the line is a valid record whose
  points are the line's par and whose margin is the position's value (the reference's in
  the last 3 tricks, the search's before); after any legal card it costs that card's
  value; a bad position or card gets ``bad_position`` / ``bad_card`` as for Klammern.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import BAD_CARD, BAD_POSITION, CARD_BY_TEXT, analyse, check, random_deal
from games.engine.analysis import ANALYSIS_VERSION, perfect_line
from games.engine.native import running_native

from .klaverjas_reference import card_margins, margin
from .test_klaverjas_analysis import PRESETS, _deal, _positions, _reference_args

#: Deals per preset: the interpreted engine analyses one in 1-3 s.
DEALS = 12 if running_native() else 2


def _deals(preset: str, seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` random deals of ``preset`` played to the end (no revoke)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        record = random_deal(rng, dealer=found % 4, rules={"preset": preset})
        if len(record["plays"]) == 32 and "revoke" not in record:
            found += 1
            yield record


def _margin(result: dict[str, Any]) -> int:
    """Team 0's margin of a checked deal (the roem includes the pit's 100)."""
    own = [result["card_points"][t] + result["roem"][t] for t in (0, 1)]
    return own[0] - own[1]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_cards_value_matches_the_reference(preset: str) -> None:
    compared = costly = 0
    for record in _deals(preset, 1200 + PRESETS.index(preset), DEALS):
        out, deal = analyse(record), _deal(record)
        for index, pos in enumerate(_positions(record, deal)):
            entry = out["plays"][index]
            assert entry["cost"] == entry["values"][entry["card"]]
            assert entry["best"] == [t for t, v in entry["values"].items() if v == 0]
            if index < 20:
                continue
            game, held, leader, trick, won = _reference_args(record, deal, pos)
            child = card_margins(game, held, leader, trick, won)
            best = max(child.values()) if pos.seat % 2 == 0 else min(child.values())
            assert entry["values"] == {t: abs(best - child[t]) for t in entry["values"]}
            assert set(entry["values"]) == set(child), (record, index)
            compared += len(child)
            costly += sum(1 for v in entry["values"].values() if v > 0)
    assert compared > DEALS * 12 and costly > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_each_play_has_its_pars_outcome_and_a_costly_one_its_line(preset: str) -> None:
    for record in _deals(preset, 1300 + PRESETS.index(preset), max(DEALS // 4, 1)):
        out = analyse(record)
        assert out["analysis_version"] == ANALYSIS_VERSION
        for entry in out["plays"]:
            makers = out["playing_team"]
            team_margin = entry["margin"] if makers == 0 else -entry["margin"]
            assert entry["par_outcome"] == ("made" if team_margin > 0 else "failed")
            assert ("line" in entry) == (entry["cost"] > 0)
            if entry["cost"] > 0:
                line = perfect_line(record, after=entry["play"])["line"]
                assert entry["line"] == [{"seat": s["seat"], "card": s["card"]} for s in line]
                assert entry["line"][0]["card"] in entry["best"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("after", [0, 9, 20, 23, 27, 31, 32])
def test_the_perfect_line_plays_out_to_the_par(preset: str, after: int) -> None:
    for record in _deals(preset, 1400 + after, 2 if running_native() else 1):
        out = perfect_line(record, after=after)
        assert out["valid"] and out["analysed"] and out["after"] == after
        assert [s["play"] for s in out["line"]] == list(range(after, 32))
        played = copy.deepcopy(record)
        played["plays"] = record["plays"][:after] + [s["card"] for s in out["line"]]
        result = check(played)
        assert result["valid"], result["errors"]
        assert result["points"] == out["par"]
        if after == 32:
            assert out["line"] == [] and out["par"] == check(record)["points"]
            continue
        deal = _deal(record)
        pos = _positions(record, deal)[after]
        want = deal.value(pos)
        if after >= 20:
            game, held, leader, trick, won = _reference_args(record, deal, pos)
            assert want == pos.margin + margin(game, held, leader, trick, won)
        assert _margin(result) == want


@pytest.mark.parametrize("preset", PRESETS)
def test_the_line_after_any_legal_card_costs_its_value(preset: str) -> None:
    record = next(_deals(preset, 1500 + PRESETS.index(preset), 1))
    out = analyse(record)
    for after in (18, 22, 26):
        for card, cost in out["plays"][after]["values"].items():
            line = perfect_line(record, after=after, card=card)
            assert line["card"] == card and line["cost"] == cost, (after, card)
            assert line["line"][0]["card"] == card and len(line["line"]) == 32 - after
            played = copy.deepcopy(record)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["valid"] and result["points"] == line["par"]


def test_a_bad_position_or_card_is_a_clear_error() -> None:
    record = next(_deals("klaverjas-amsterdam", 1600, 1))
    for after in (-1, 33, "3", True, None):
        out = perfect_line(record, after=after)
        assert out["valid"] and not out["analysed"]
        assert [e["code"] for e in out["errors"]] == [BAD_POSITION], after
    seat = (record["dealer"] + 1) % 4
    other = record["hands"][(seat + 1) % 4][0]
    for card in ("ZZ", 7, other):
        out = perfect_line(record, after=0, card=card)
        assert [e["code"] for e in out["errors"]] == [BAD_CARD], card
        assert out["errors"][0]["field"] == "card"
        assert out["errors"][0]["params"]["seat"] == seat
    assert CARD_BY_TEXT[record["plays"][0]] >= 0
    assert perfect_line(record, after=0, card=record["plays"][0])["analysed"]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_cards_value_chased_from_the_par_is_the_halving_searchs(preset: str) -> None:
    """``child_value`` (``KlaverjasSolver.chase`` bounded by the par) against ``value``
    (``solve``'s halving, no bound) at every position of whole deals, every legal card."""
    compared = 0
    for record in _deals(preset, 1700 + PRESETS.index(preset), max(DEALS // 6, 1)):
        deal = _deal(record)
        for pos in _positions(record, deal)[: 32 if running_native() else 0] or [deal.start]:
            par = deal.value(pos)
            for c in range(32):
                if deal.legal(pos) >> c & 1:
                    want = deal.value(pos.after(c, deal.trump))
                    assert deal.child_value(pos, c, par) == want, (record, pos.trick, c)
                    compared += 1
    assert compared > 0
