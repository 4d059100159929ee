"""The par analysis of Klammern for 2 and 3 players (``solo_analysis``, ``solo_solver``)
against the plain reference of ``solo_reference`` (written from RULES.md).

- values: at every position of the last tricks of seeded random deals, every legal
  card's cost is the reference's best value for the side to play less that card's;
- endgames: the solver's value of positions a few tricks from the end (with and without
  a meld bonus, the declarer with or without a trick) is the reference's; the C search
  and the Python one agree, node count included;
- lines: ``perfect_line`` from a position, played out, is a valid record scoring its
  ``par`` whose declarer's value is the position's; the line stored with a costly play
  is ``perfect_line``'s; a revoke, a thrown-in deal, summaries and invalid records get
  their answers; ``analyse`` never gives ``bad_format`` for a record ``check`` accepts.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import (
    BAD_CARD,
    BAD_POSITION,
    CARD_BY_TEXT,
    CARD_TEXT,
    TABLES,
    analyse,
    check,
    random_deal,
)
from games.engine.analysis import ANALYSIS_VERSION, perfect_line
from games.engine.cards import cards_of
from games.engine.native import running_native
from games.engine.play import choice, trick_winner
from games.engine.rules import PRESETS as OPTIONS
from games.engine.solo_analysis import Position, SoloAnalysis, _contract, _hands
from games.engine.solo_solver import SoloSolver, native_search_available

from .solo_reference import Deal, card_values, value

PRESETS = ("klammern-2", "klammern-3")
#: Deals per preset: the interpreted engine analyses a 3-player deal in seconds.
DEALS = 12 if running_native() else 1
#: The tricks at the end of a deal compared with the reference, per preset.
LAST_TRICKS = {"klammern-2": 4, "klammern-3": 3}


def _players(preset: str) -> int:
    return int(preset[-1])


def _deals(preset: str, seed: int, count: int, *, revoke: bool = False) -> Iterator[dict[str, Any]]:
    """``count`` random deals of ``preset`` played to the end (or ending in a revoke)."""
    rng = random.Random(seed)
    found, n = 0, _players(preset)
    while found < count:
        record = random_deal(rng, dealer=found % n, rules={"preset": preset})
        if record["contract"]["kind"] == "thrown_in":
            continue
        if ("revoke" in record) == revoke and (revoke or len(record["plays"]) == 9 * n):
            found += 1
            yield record


def _analysis(record: dict[str, Any]) -> SoloAnalysis:
    options = OPTIONS[record["rules"]["preset"]]
    return SoloAnalysis(_hands(record), _contract(record, check(record), options))


def _positions(record: dict[str, Any], deal: SoloAnalysis) -> list[Position]:
    """The position before each recorded play, and after the last."""
    out = [deal.start]
    for text in record["plays"]:
        out.append(out[-1].after(CARD_BY_TEXT[text], deal.trump))
    return out


def _reference(deal: SoloAnalysis, pos: Position) -> tuple[Deal, tuple[tuple[str, ...], ...]]:
    game = Deal("CSHD"[deal.trump], declarer=deal.declarer, bonus=deal.contract.bonus)
    held = tuple(tuple(CARD_TEXT[c] for c in cards_of(hand & pos.remaining)) for hand in deal.hands)
    return game, held


def _declarer_value(result: dict[str, Any], declarer: int) -> int:
    """The declarer's value of a checked deal: card points, and melds if scored."""
    melds = sum(m["points"] for m in result["melds"]["scored"] if m["seat"] == declarer)
    return result["card_points"][declarer] + melds


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_cards_value_matches_the_reference(preset: str) -> None:
    n = _players(preset)
    first = 9 * n - LAST_TRICKS[preset] * n
    compared = costly = 0
    for record in _deals(preset, 2400 + n, DEALS):
        out, deal = analyse(record), _analysis(record)
        assert out["analysed"], out["errors"]
        for index, pos in enumerate(_positions(record, deal)[:-1]):
            entry = out["plays"][index]
            assert entry["cost"] == entry["values"][entry["card"]]
            assert entry["best"] == [t for t, v in entry["values"].items() if v == 0]
            if index < first:
                continue
            game, held = _reference(deal, pos)
            took = pos.tricks[deal.declarer] > 0
            trick = [CARD_TEXT[c] for c in pos.trick]
            child = card_values(game, held, pos.leader, trick, took)
            mine = pos.seat == deal.declarer
            best = max(child.values()) if mine else min(child.values())
            assert set(entry["values"]) == set(child), (record, index)
            assert entry["values"] == {t: abs(best - child[t]) for t in entry["values"]}
            par = deal.so_far(pos) + value(game, held, pos.leader, trick, took)
            assert entry["value"] == (par - entry["cost"] if mine else par + entry["cost"])
            compared += len(child)
            costly += sum(1 for v in entry["values"].values() if v > 0)
    assert compared > DEALS * 6 and costly > 0


def _endgame(n: int, seed: int, tricks_left: int) -> tuple[SoloSolver, Any, list[Any]]:
    """A random deal of ``n`` hands played at random to ``tricks_left`` tricks (and a few
    cards) from the end: the solver, the position and the reference's arguments."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[9 * s : 9 * s + 9]) for s in range(n)]
    trump, declarer, bonus = rng.randrange(4), rng.randrange(n), rng.choice([0, 0, 20, 50, 70])
    options = OPTIONS[f"klammern-{n}"]
    table = TABLES[trump]
    remaining, leader, trick, took = sum(hands), rng.randrange(n), [], False
    for _ in range(9 * n - tricks_left * n + rng.randrange(n)):
        seat = (leader + len(trick)) % n
        card = rng.choice(cards_of(choice(hands[seat] & remaining, trick, table, options).legal))
        trick.append(card)
        remaining &= ~(1 << card)
        if len(trick) == n:
            leader = (leader + trick_winner(trick, table)) % n
            took = took or leader == declarer
            trick = []
    solver = SoloSolver(hands, trump, options, declarer=declarer, meld_bonus=bonus)
    game = Deal("CSHD"[trump], declarer=declarer, bonus=bonus)
    held = tuple(tuple(CARD_TEXT[c] for c in cards_of(h & remaining)) for h in hands)
    return (
        solver,
        (remaining, leader, trick, took),
        [game, held, leader, [CARD_TEXT[c] for c in trick], took],
    )


@pytest.mark.parametrize("n", [2, 3])
def test_endgame_values_are_the_references(n: int) -> None:
    """Whether the declarer took a trick yet is part of the position: both are solved."""
    tricks_left = 5 if n == 2 else 4
    with_bonus = 0
    for seed in range(12 if running_native() else 4):
        solver, (remaining, leader, trick, _), args = _endgame(n, 500 + seed, tricks_left)
        for took in (False, True):
            args[-1] = took
            assert solver.solve(remaining, leader, trick, took) == value(*args), (seed, took)
        with_bonus += solver.meld_bonus > 0
    assert with_bonus > 0


def test_the_compiled_engine_always_runs_the_c_search() -> None:
    assert native_search_available() == running_native()


@pytest.mark.skipif(
    not native_search_available(),
    reason="the interpreted engine has no C search (the compiled pass runs this test)",
)
@pytest.mark.parametrize("n", [2, 3])
def test_the_c_search_is_the_python_search(n: int) -> None:
    for seed in range(4):
        solver, (remaining, leader, trick, took), _ = _endgame(n, 700 + seed, 6)
        python = SoloSolver(
            solver.hands, solver.trump, OPTIONS[f"klammern-{n}"], declarer=solver.declarer,
            meld_bonus=solver.meld_bonus, native=False,
        )  # fmt: skip
        for bound in (1, 20, 45, 80):
            got = solver.search(remaining, leader, trick, took, bound - 1, bound)
            assert got == python.search(remaining, leader, trick, took, bound - 1, bound)
        assert solver.nodes == python.nodes > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_each_play_has_its_pars_outcome_and_a_costly_one_its_line(preset: str) -> None:
    n = _players(preset)
    # the interpreted engine compares the lines of the last two tricks only
    from_play = 0 if running_native() else 7 * n
    for record in _deals(preset, 2500 + n, 1):
        out = analyse(record)
        assert out["analysis_version"] == ANALYSIS_VERSION
        assert out["playing_team"] == out["declarer"] == record["contract"]["declarer"]
        before = out["par_value"]
        for entry in out["plays"]:
            mine = entry["seat"] == out["declarer"]
            assert entry["cost"] == (before - entry["value"] if mine else entry["value"] - before)
            before = entry["value"]
            assert ("line" in entry) == (entry["cost"] > 0)
            if entry["cost"] > 0 and entry["play"] >= from_play:
                line = perfect_line(record, after=entry["play"])
                assert entry["line"] == [
                    {"seat": s["seat"], "card": s["card"]} for s in line["line"]
                ]
                assert entry["line"][0]["card"] in entry["best"]
            if entry["play"] < from_play:
                continue
            played = copy.deepcopy(record)
            after = entry["play"] + 1
            line = perfect_line(record, after=after)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["outcome"] == entry["par_outcome"] and result["points"] == entry["par"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("after", [0, 7, 13, 17, 18])
def test_the_perfect_line_plays_out_to_the_par(preset: str, after: int) -> None:
    n = _players(preset)
    after = after * n // 2
    for record in _deals(preset, 2600 + after, 2 if running_native() else 1):
        out = perfect_line(record, after=after)
        assert out["valid"] and out["analysed"] and out["after"] == after
        assert [s["play"] for s in out["line"]] == list(range(after, 9 * n))
        assert [s["trick"] for s in out["line"]] == [p // n + 1 for p in range(after, 9 * n)]
        played = copy.deepcopy(record)
        played["plays"] = record["plays"][:after] + [s["card"] for s in out["line"]]
        result = check(played)
        assert result["valid"], result["errors"]
        assert result["points"] == out["par"]
        deal = _analysis(record)
        pos = _positions(record, deal)[after]
        want = deal.value(pos)
        assert _declarer_value(result, deal.declarer) == want
        if after >= 9 * n - LAST_TRICKS[preset] * n:
            game, held = _reference(deal, pos)
            took = pos.tricks[deal.declarer] > 0
            rest = value(game, held, pos.leader, [CARD_TEXT[c] for c in pos.trick], took)
            assert want == deal.so_far(pos) + rest


@pytest.mark.parametrize("preset", PRESETS)
def test_the_line_after_any_legal_card_costs_its_value(preset: str) -> None:
    n = _players(preset)
    record = next(_deals(preset, 2700 + n, 1))
    out = analyse(record)
    for after in (6 * n, 7 * n + 1):
        for card, cost in out["plays"][after]["values"].items():
            line = perfect_line(record, after=after, card=card)
            assert line["card"] == card and line["cost"] == cost, (after, card)
            assert line["line"][0]["card"] == card and len(line["line"]) == 9 * n - after
            played = copy.deepcopy(record)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["valid"] and result["points"] == line["par"]


def test_a_bad_position_or_card_is_a_clear_error() -> None:
    n = 3 if running_native() else 2
    record = next(_deals(f"klammern-{n}", 2800, 1))
    for after in (-1, 9 * n + 1, "3", True, None):
        out = perfect_line(record, after=after)
        assert out["valid"] and not out["analysed"]
        assert [e["code"] for e in out["errors"]] == [BAD_POSITION], after
    seat = (record["dealer"] + 1) % n
    other = record["hands"][(seat + 1) % n][0]
    for card in ("ZZ", 7, other):
        out = perfect_line(record, after=0, card=card)
        assert [e["code"] for e in out["errors"]] == [BAD_CARD], card
        assert out["errors"][0]["params"]["seat"] == seat


@pytest.mark.parametrize("preset", PRESETS)
def test_a_revoke_is_reported_with_the_cards_that_kept_the_par(preset: str) -> None:
    record = next(_deals(preset, 2900 + _players(preset), 1, revoke=True))
    out = analyse(record)
    assert out["analysed"], out["errors"]
    assert out["actual"]["outcome"] == "revoke" and out["par_outcome"] in ("made", "failed")
    revoke = out["revoke"]
    assert revoke["play"] == len(record["plays"]) == len(out["plays"])
    assert revoke["seat"] == record["revoke"]["seat"]
    assert revoke["best"] and revoke["line"][0]["card"] in revoke["best"]
    played = copy.deepcopy(record)
    del played["revoke"]
    played["plays"] = record["plays"] + [s["card"] for s in revoke["line"]]
    result = check(played)
    assert result["valid"], result["errors"]
    par = out["plays"][-1]["par"] if out["plays"] else out["par"]
    assert result["points"] == par


@pytest.mark.parametrize("preset", PRESETS)
def test_the_makeable_table_holds_each_trump_and_declarer(preset: str) -> None:
    n = _players(preset)
    # without melds, a row's declarer card points are the search's value
    record = next(r for r in _deals(preset, 3000 + n, 20) if not r.get("melds"))
    out = analyse(record)
    rows = out["makeable"]
    assert [(r["trump"], r["declarer"]) for r in rows] == [(t, d) for t in "CSHD" for d in range(n)]
    own = next(r for r in rows if (r["trump"], r["declarer"]) == (out["trump"], out["declarer"]))
    assert own["points"] == out["par"] and own["outcome"] == out["par_outcome"]
    hands = _hands(record)
    for row in rows:
        assert row["team"] == row["declarer"]
        assert row["outcome"] in ("made", "failed")
        trump = "CSHD".index(row["trump"])
        solver = SoloSolver(hands, trump, OPTIONS[preset], declarer=row["declarer"])
        # without melds, the declarer's card points are the value of the search
        if not record.get("melds"):
            forehand = (record["dealer"] + 1) % n
            assert row["card_points"][row["declarer"]] == solver.solve(
                sum(hands), forehand, [], False
            )


def test_a_thrown_in_deal_has_a_par_of_nothing() -> None:
    rng = random.Random(3100)
    record = next(
        r
        for r in (random_deal(rng, rules={"preset": "klammern-3"}) for _ in range(400))
        if r["contract"]["kind"] == "thrown_in"
    )
    out = analyse(record)
    assert out["analysed"] and out["par_outcome"] == "thrown_in"
    assert out["par"] == [0, 0, 0] and out["plays"] == [] and out["revoke"] is None
    assert "makeable" not in out
    assert perfect_line(record, after=0) == out


@pytest.mark.parametrize("preset", PRESETS)
def test_analyse_answers_every_record_check_accepts(preset: str) -> None:
    rng = random.Random(3200 + _players(preset))
    seen = set()
    for i in range(8 if running_native() else 3):
        record = random_deal(rng, dealer=i, rules={"preset": preset})
        result = check(record)
        out = analyse(record, best_cards=False)
        assert result["valid"]
        assert out["analysed"], out["errors"]
        seen.add(out["par_outcome"])
        summary = {k: v for k, v in record.items() if k not in ("hands", "plays")}
        summary["card_points"] = result["card_points"]
        if check(summary)["valid"]:
            codes = [e["code"] for e in analyse(summary)["errors"]]
            assert codes == ["summary_not_analysable"]
        broken = copy.deepcopy(record)
        broken["dealer"] = 7
        assert analyse(broken) == check(broken)
    assert seen


@pytest.mark.parametrize("preset", PRESETS)
def test_the_declarers_best_meld_counts_once_the_declarer_takes_a_trick(preset: str) -> None:
    """A deal whose declarer holds the best announced meld: the search adds it on the
    declarer's first trick (the reference too, at every position of the last tricks),
    and the line played out scores it as ``check`` does."""
    n = _players(preset)
    record, deal = next(
        (r, d) for r in _deals(preset, 3300 + n, 200) if (d := _analysis(r)).contract.bonus > 0
    )
    out = analyse(record, best_cards=False)
    played = copy.deepcopy(record)
    line = perfect_line(record, after=0)
    played["plays"] = [s["card"] for s in line["line"]]
    result = check(played)
    assert _declarer_value(result, deal.declarer) == out["par_value"] == deal.value(deal.start)
    assert result["points"] == out["par"] == line["par"]
    first = 9 * n - 2 * n
    for pos in _positions(record, deal)[first:-1]:
        game, held = _reference(deal, pos)
        took = pos.tricks[deal.declarer] > 0
        rest = value(game, held, pos.leader, [CARD_TEXT[c] for c in pos.trick], took)
        assert deal.value(pos) == deal.so_far(pos) + rest
