"""Each legal card's value, the perfect line and the makeable table of ``analyse``
against the plain reference solver (``games.engine.reference_solver``).

- values: at every position of the last five tricks of 24 seeded random deals (six per
  combination of the two play options), every legal card's cost is the reference's
  (alpha-beta with a bounds table, every legal card, a full window) best value for the
  side to play less that card's;
- the perfect line: playing the record up to a position and then the line gives a valid
  record whose card points are the reference's value of that position; after any legal
  card there, the line costs that card's value and ends at the reference's value;
- the makeable table: for two whole deals the reference's par of every trump, and the
  outcome of each row from its points.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import BAD_CARD, BAD_POSITION, CARD_BY_TEXT, Options, analyse, check, random_deal
from games.engine.analysis import ALL, Position, perfect_line
from games.engine.cards import DEAL_POINTS, TABLES, cards_of
from games.engine.native import running_native
from games.engine.play import choice
from games.engine.reference_solver import BoundsMemo, alphabeta_tt_points
from tests.engine.helpers import TIE_RECORD

#: Deals compared per option set, and per position of the line: the interpreted engine
#: analyses a deal with every card's value in tens of seconds (its pass checks one).
DEALS = 6 if running_native() else 1
LINE_DEALS = 3 if running_native() else 1

OPTION_SETS = [
    {"overtrump_on_trump_lead": strict, "partner_exempt": exempt}
    for strict, exempt in itertools.product((False, True), repeat=2)
]


def _deals(seed: int, count: int, options: dict[str, bool]) -> Iterator[dict[str, Any]]:
    """``count`` random played deals without a thrown-in, a revoke or melds."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        record = random_deal(
            rng, dealer=found % 4, rules={"preset": "klammern", "options": options}
        )
        if record["contract"]["kind"] == "thrown_in" or "revoke" in record:
            continue
        if record.get("melds") or "bella" in record:
            continue
        found += 1
        yield record


def _hands(record: dict[str, Any]) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _reference(hands: list[int], pos: Position, trump: int, options: Options) -> int:
    """Team 0's card points of the whole deal from ``pos`` on, by the reference."""
    held = [h & pos.remaining for h in hands]
    rest = alphabeta_tt_points(held, pos.leader, list(pos.trick), trump, options, BoundsMemo())
    return pos.taken + rest


def _positions(record: dict[str, Any]) -> Iterator[tuple[int, Position]]:
    trump = "CSHD".index(record["contract"]["trump"])
    pos = Position(ALL, (record["dealer"] + 1) % 4, [], 0)
    for index, text in enumerate(record["plays"]):
        yield index, pos
        pos = pos.after(CARD_BY_TEXT[text], trump)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_every_legal_cards_value_matches_the_reference(options: dict[str, bool]) -> None:
    opts = Options(**options)
    compared = 0
    for record in _deals(500 + OPTION_SETS.index(options), DEALS, options):
        out = analyse(record)
        hands, trump = _hands(record), "CSHD".index(record["contract"]["trump"])
        for index, pos in _positions(record):
            if index < 12:
                continue
            entry = out["plays"][index]
            legal = choice(hands[pos.seat] & pos.remaining, pos.trick, TABLES[trump], opts).legal
            child = {
                c: _reference(hands, pos.after(c, trump), trump, opts) for c in cards_of(legal)
            }
            mine = pos.seat & 1 == 0
            best = max(child.values()) if mine else min(child.values())
            want = {text: abs(best - child[CARD_BY_TEXT[text]]) for text in entry["values"]}
            assert set(entry["values"]) == {r for c in child for r in [_text(c)]}, record
            assert entry["values"] == want, (record, index)
            assert entry["cost"] == entry["values"][entry["card"]]
            assert entry["best"] == [t for t, v in entry["values"].items() if v == 0]
            compared += len(want)
    assert (
        compared > DEALS * 20
    )  # every position of the last five tricks, more than one card at some


def _text(card: int) -> str:
    return "789TJQKA"[card & 7] + "CSHD"[card >> 3]


@pytest.mark.parametrize("after", [0, 9, 16, 20, 27, 31, 32])
def test_the_perfect_line_plays_out_to_the_reference_par(after: int) -> None:
    opts = Options()
    for record in _deals(900 + after, LINE_DEALS, {}):
        out = perfect_line(record, after=after)
        assert out["valid"] and out["analysed"] and out["after"] == after
        assert [s["play"] for s in out["line"]] == list(range(after, 32))
        played = copy.deepcopy(record)
        played["plays"] = record["plays"][:after] + [s["card"] for s in out["line"]]
        result = check(played)
        assert result["valid"], result["errors"]
        hands, trump = _hands(record), "CSHD".index(record["contract"]["trump"])
        pos = dict(_positions(record)).get(after)
        if pos is None:  # after the last card: the deal as played
            assert out["line"] == [] and out["par"] == check(record)["points"]
            continue
        want = _reference(hands, pos, trump, opts)
        assert result["points"] == out["par"] == [want, DEAL_POINTS - want]


def test_a_costly_play_carries_the_line_it_should_have_started() -> None:
    record = next(_deals(77, 1, {}))
    out = analyse(record)
    costly = [p for p in out["plays"] if p["cost"] > 0]
    assert costly
    for entry in out["plays"]:
        assert ("line" in entry) == (entry["cost"] > 0)
    for entry in costly:
        line = entry["line"]
        assert line[0]["card"] in entry["best"] and line[0]["seat"] == entry["seat"]
        assert [s["card"] for s in line] == [
            s["card"] for s in perfect_line(record, after=entry["play"])["line"]
        ]


def test_a_position_outside_the_record_is_a_clear_error() -> None:
    for after in (-1, 33, "3", True, None):
        out = perfect_line(TIE_RECORD, after=after)
        assert out["valid"] and not out["analysed"]
        assert [e["code"] for e in out["errors"]] == [BAD_POSITION]
        assert out["errors"][0]["field"] == "after"
    bad = copy.deepcopy(TIE_RECORD)
    bad["plays"][2] = "8S"
    assert perfect_line(bad, after=0) == check(bad)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_the_makeable_table_matches_the_reference(seed: int) -> None:
    opts = Options()
    record = next(_deals(seed, 1, {}))
    out = analyse(record)
    hands = _hands(record)
    start = Position(ALL, (record["dealer"] + 1) % 4, [], 0)
    rows = out["makeable"]
    assert [(r["trump"], r["team"]) for r in rows] == list(itertools.product("CSHD", (0, 1)))
    for row in rows:
        trump = "CSHD".index(row["trump"])
        if row["team"] == 0:
            want = _reference(hands, start, trump, opts)
        assert row["card_points"] == [want, DEAL_POINTS - want], row
        assert row["points"] == row["card_points"]  # no melds, no Bella in these deals
        made = row["points"][row["team"]] * 2 > sum(row["points"])
        assert row["outcome"] == ("made" if made else "failed")
    own = rows[2 * "CSHD".index(out["trump"]) + out["playing_team"]]
    assert own["points"] == out["par"] and own["outcome"] == out["par_outcome"]


def test_the_makeable_table_counts_melds_and_bella_as_the_par_does() -> None:
    rng = random.Random(5)
    while True:
        record = random_deal(rng)
        if record.get("bella") is not None and "revoke" not in record and "march" not in record:
            break
    out = analyse(record)
    own = out["makeable"][2 * "CSHD".index(out["trump"]) + out["playing_team"]]
    assert own["points"] == out["par"]
    assert own["card_points"] == out["par_card_points"]
    for row in out["makeable"]:
        assert sum(row["points"]) >= DEAL_POINTS


def test_the_line_after_any_legal_card_costs_its_value() -> None:
    opts = Options()
    record = next(_deals(31, 1, {}))
    out = analyse(record)
    hands, trump = _hands(record), "CSHD".index(record["contract"]["trump"])
    positions = dict(_positions(record))
    for after in (18, 21, 25):
        for card, cost in out["plays"][after]["values"].items():
            line = perfect_line(record, after=after, card=card)
            assert line["card"] == card and line["cost"] == cost, (after, card)
            assert line["line"][0]["card"] == card and len(line["line"]) == 32 - after
            played = copy.deepcopy(record)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["valid"] and result["points"] == line["par"]
            want = _reference(hands, positions[after].after(CARD_BY_TEXT[card], trump), trump, opts)
            assert line["par"] == [want, DEAL_POINTS - want]


def test_a_card_that_cannot_be_played_there_is_a_clear_error() -> None:
    seat = (TIE_RECORD["dealer"] + 1) % 4
    others = [c for h in TIE_RECORD["hands"][:seat] + TIE_RECORD["hands"][seat + 1 :] for c in h]
    for card in ("ZZ", 7, others[0]):
        out = perfect_line(TIE_RECORD, after=0, card=card)
        assert [e["code"] for e in out["errors"]] == [BAD_CARD], card
        assert out["errors"][0]["field"] == "card"
