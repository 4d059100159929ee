"""The Belote par analysis (``belote_analysis`` on ``klaverjas_solver``'s Belote mode and
its C mirror) against the plain reference of ``belote_par_reference`` (written from
RULES.md "Belote"), and ``analyse`` / ``perfect_line`` on Belote records.

- every legal card's value at every position of the last 3 tricks of seeded deals, and
  the position's value, against plain minimax;
- positions from trick 4 on (and, compiled, from the first lead) against the
  reference's alpha-beta with a bounds table;
- the C and the Python search in Belote mode: same value and node count;
- the solver's legal cards against ``play.choice`` and the reference's rule;
- ``analyse``: its agreement with ``check``, costs, made/dedans as a threshold, the
  lines played out to their value, the makeable table against the par of records with
  another trump, a revoke, thrown-in deals, a summary, an invalid record, and no
  ``bad_format`` for any record ``check`` accepts.
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
    analyse,
    check,
    random_deal,
)
from games.engine.analysis import ANALYSIS_VERSION, perfect_line
from games.engine.belote_analysis import BeloteDeal, BelotePosition, deal_margin
from games.engine.klaverjas import KLAVERJAS_TABLES
from games.engine.klaverjas_solver import KlaverjasSolver, native_search_available
from games.engine.native import running_native
from games.engine.play import choice
from games.engine.rules import resolve_rules

from . import belote_reference as rules_ref
from .belote_par_reference import bounded_margin, card_margins, margin

BELOTE = resolve_rules("belote", include_engine_only=True)
#: Deals per test: the interpreted engine analyses a Belote deal in 1-10 s (and each
#: ``perfect_line`` analyses its record first), so its pass does much less.
NATIVE = running_native()
DEALS = 12 if NATIVE else 1
ANALYSES = 6 if NATIVE else 1
#: Positions of ``perfect_line`` tests; the interpreted pass takes two of them.
AFTERS = (0, 13, 20, 26, 31, 32) if NATIVE else (20, 32)


def _deals(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` random Belote deals taken and played to the end (no revoke)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        record = random_deal(rng, dealer=found % 4, rules={"preset": "belote"})
        if record["contract"]["kind"] == "belote" and "revoke" not in record:
            found += 1
            yield record


def _deal(record: dict[str, Any], trump: str | None = None) -> BeloteDeal:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    suit = "CSHD".index(trump or record["contract"]["trump"])
    return BeloteDeal(hands, suit, (record["dealer"] + 1) % 4, BELOTE)


def _positions(record: dict[str, Any], deal: BeloteDeal) -> list[BelotePosition]:
    """The position before each recorded play."""
    pos, out = deal.start, []
    for text in record["plays"]:
        out.append(pos)
        pos = pos.after(CARD_BY_TEXT[text], deal.trump)
    return out


def _reference_args(
    record: dict[str, Any], deal: BeloteDeal, pos: BelotePosition
) -> tuple[str, tuple[tuple[str, ...], ...], int, list[str], tuple[int, int]]:
    held = tuple(
        tuple(CARD_TEXT[c] for c in range(32) if (hand & pos.remaining) >> c & 1)
        for hand in deal.hands
    )
    trick = [CARD_TEXT[c] for c in pos.trick]
    return record["contract"]["trump"], held, pos.leader, trick, pos.tricks


def _margin(result: dict[str, Any]) -> int:
    """Team 0's margin of a checked deal: card points, the capot's 90 more."""
    own = list(result["card_points"])
    if result["capot"] is not None:
        own[result["capot"]] += 90
    return own[0] - own[1]


# ----- the search against the reference --------------------------------------------------


def test_every_legal_cards_value_in_the_last_three_tricks_matches_minimax() -> None:
    compared = costly = 0
    for record in _deals(2401, DEALS):
        out, deal = analyse(record), _deal(record)
        for index, pos in enumerate(_positions(record, deal)):
            entry = out["plays"][index]
            assert entry["cost"] == entry["values"][entry["card"]]
            assert entry["best"] == [t for t, v in entry["values"].items() if v == 0]
            if index < 20:
                continue
            args = _reference_args(record, deal, pos)
            child = card_margins(*args)
            best = max(child.values()) if pos.seat % 2 == 0 else min(child.values())
            assert deal.value(pos) == pos.margin + margin(*args) == pos.margin + best
            assert entry["values"] == {t: abs(best - child[t]) for t in entry["values"]}
            assert set(entry["values"]) == set(child), (record, index)
            compared += len(child)
            costly += sum(1 for v in entry["values"].values() if v > 0)
    assert compared > DEALS * 12 and costly > 0


def test_positions_from_trick_four_match_the_reference() -> None:
    """The par of endgames of 5 tricks and fewer (every position from the 4th trick on)
    against the reference's alpha-beta."""
    for record in _deals(2500, 3 if NATIVE else 1):
        deal = _deal(record)
        memo: dict[Any, tuple[int, int]] = {}
        for pos in _positions(record, deal)[12:20]:
            want = pos.margin + bounded_margin(*_reference_args(record, deal, pos), memo)
            assert deal.value(pos) == want, (record, pos.trick)


@pytest.mark.slow
def test_a_whole_deals_par_matches_the_reference() -> None:
    record = next(_deals(2501, 1))
    deal = _deal(record)
    want = bounded_margin(*_reference_args(record, deal, deal.start), {})
    forehand = deal.start.leader
    assert deal.value(deal.start) == want == analyse(record, best_cards=False)["par_margin"]
    assert deal_margin(deal.hands, trump=deal.trump, forehand=forehand, options=BELOTE) == want
    assert want % 2 == 0  # the deal's margin is even (the search relies on it)


def test_the_c_search_is_the_python_search_step_for_step_in_belote_mode() -> None:
    assert native_search_available() == running_native()
    if not native_search_available():
        return  # the interpreted pass has only the Python search; the compiled one compares
    rng = random.Random(25)
    for record in _deals(2600, 4):
        deal = _deal(record)
        c = KlaverjasSolver(deal.hands, deal.trump, BELOTE)
        py = KlaverjasSolver(deal.hands, deal.trump, BELOTE, native=False)
        assert c.core is not None and py.core is None
        assert not py.count_roem and py.all_tricks_bonus == 90
        for pos in _positions(record, deal)[4::3]:
            for _ in range(3):
                probe = rng.randrange(-260, 260)
                lo, hi = (probe - 1, probe) if rng.random() < 0.7 else (probe - 80, probe + 80)
                args = (pos.remaining, pos.leader, pos.trick, pos.clean, lo, hi)
                assert c.search(*args) == py.search(*args)
                assert c.nodes == py.nodes


def test_the_solvers_legal_cards_are_belotes() -> None:
    rng = random.Random(26)
    for _ in range(3000):
        cards = rng.sample(range(32), 32)
        trump = rng.randrange(4)
        size = rng.randrange(1, 4)
        trick = cards[:size]
        hand = sum(1 << c for c in cards[size : size + rng.randrange(1, 9)])
        solver = KlaverjasSolver([0, 0, 0, 0], trump, BELOTE, native=False)
        led, best, best_pos = trick[0] >> 3, trick[0], 0
        for pos in range(1, size):
            if solver.beats(trick[pos], best, led):
                best, best_pos = trick[pos], pos
        got = solver.legal(hand, led, best, best_pos, size)  # the leader is seat 0
        assert got == choice(hand, trick, KLAVERJAS_TABLES[trump], BELOTE).legal
        texts = [CARD_TEXT[c] for c in range(32) if hand >> c & 1]
        want = rules_ref.legal(texts, [CARD_TEXT[c] for c in trick], "CSHD"[trump])
        assert {CARD_TEXT[c] for c in range(32) if got >> c & 1} == set(want), (trick, texts)


# ----- analyse() on Belote records ---------------------------------------------------------


def test_the_analysis_agrees_with_check() -> None:
    for record in _deals(2702, ANALYSES):
        result, out = check(record), analyse(record)
        assert out["valid"] and out["analysed"] and out["errors"] == []
        assert out["analysis_version"] == ANALYSIS_VERSION
        assert out["actual"]["points"] == result["points"]
        assert out["actual"]["capot"] == result["capot"]
        assert len(out["plays"]) == 32 and out["revoke"] is None
        assert out["plays"][-1]["par"] == result["points"]  # after the last card: as taken
        assert out["plays"][-1]["margin"] == _margin(result)
        scored = score_with_margin(record, out["par_margin"])
        assert (out["par"], out["par_outcome"]) == (scored["points"], scored["outcome"])
        assert sum(out["par_card_points"]) == 162
        before = out["par_margin"]
        for entry in out["plays"]:
            mine = 1 if entry["seat"] % 2 == 0 else -1
            assert entry["cost"] == mine * (before - entry["margin"]) >= 0
            assert (entry["cost"] == 0) == (entry["card"] in entry["best"])
            assert entry["par_outcome"] == score_with_margin(record, entry["margin"])["outcome"]
            before = entry["margin"]


def score_with_margin(record: dict[str, Any], team0_margin: int) -> dict[str, Any]:
    """The reference's score of ``record`` played to a margin: a deal whose tricks give
    that margin (a capot at 252), with the record's melds and belote."""
    takers = record["contract"]["declarer"] % 2
    melds = record.get("melds", [])
    meld_team, meld_points = None, 0
    forehand = (record["dealer"] + 1) % 4
    if melds:
        best = max(
            melds, key=lambda m: rules_ref.meld_key(m, record["contract"]["trump"], forehand)
        )
        meld_team = best["seat"] % 2
        meld_points = sum(
            rules_ref.meld_value(m["cards"]) for m in melds if m["seat"] % 2 == meld_team
        )
    own = [(162 + team0_margin) // 2, (162 - team0_margin) // 2]
    capot = None
    if abs(team0_margin) == 252:
        capot = 0 if team0_margin > 0 else 1
        own = [252, 0] if capot == 0 else [0, 252]
    deal_cards = sum(own)
    belote = record["bella"] % 2 if "bella" in record else None
    if meld_team is not None:
        own[meld_team] += meld_points
    if belote is not None:
        own[belote] += 20
    if own[takers] > own[1 - takers]:
        return {"points": own, "outcome": "made"}
    points = [0, 0]
    points[1 - takers] = deal_cards + meld_points
    if belote is not None:
        points[belote] += 20
    return {"points": points, "outcome": "failed"}


def test_each_costly_play_stores_the_perfect_line() -> None:
    for record in _deals(2800, max(DEALS // 4, 1)):
        out = analyse(record)
        costly = [entry for entry in out["plays"] if entry["cost"] > 0]
        assert costly
        for entry in out["plays"]:
            assert ("line" in entry) == (entry["cost"] > 0)
            if entry["cost"] > 0 and (NATIVE or entry is costly[0]):
                line = perfect_line(record, after=entry["play"])["line"]
                assert entry["line"] == [{"seat": s["seat"], "card": s["card"]} for s in line]
                assert entry["line"][0]["card"] in entry["best"]


@pytest.mark.parametrize("after", AFTERS)
def test_the_perfect_line_plays_out_to_the_par(after: int) -> None:
    for record in _deals(2900 + after, 2 if NATIVE else 1):
        out = perfect_line(record, after=after)
        assert out["valid"] and out["analysed"] and out["after"] == after
        assert [s["play"] for s in out["line"]] == list(range(after, 32))
        played = copy.deepcopy(record)
        played["plays"] = record["plays"][:after] + [s["card"] for s in out["line"]]
        result = check(played)
        assert result["valid"], result["errors"]
        assert result["points"] == out["par"]
        deal = _deal(record)
        pos = (_positions(record, deal) + [None])[after]
        if pos is None:
            assert out["line"] == [] and out["par"] == check(record)["points"]
            continue
        want = deal.value(pos)
        if after >= 20:
            assert want == pos.margin + margin(*_reference_args(record, deal, pos))
        assert _margin(result) == want


def test_the_line_after_any_legal_card_costs_its_value() -> None:
    record = next(_deals(3004, 1))
    out = analyse(record)
    for after in (18, 25) if NATIVE else (25,):
        values = list(out["plays"][after]["values"].items())
        for card, cost in values if NATIVE else values[-1:]:
            line = perfect_line(record, after=after, card=card)
            assert line["card"] == card and line["cost"] == cost, (after, card)
            assert line["line"][0]["card"] == card and len(line["line"]) == 32 - after
            played = copy.deepcopy(record)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["valid"] and result["points"] == line["par"]
    for after in (-1, 33, "3") if NATIVE else (33,):
        assert [e["code"] for e in perfect_line(record, after=after)["errors"]] == [BAD_POSITION]
    other = record["hands"][(record["dealer"] + 2) % 4][0]
    assert [e["code"] for e in perfect_line(record, after=0, card=other)["errors"]] == [BAD_CARD]


def test_the_makeable_table_is_the_par_of_each_trump() -> None:
    """Each row of the takers' team is the par of the record with that trump (the same
    hands and melds, belote announced by the holder of that trump's King and Queen)."""
    record = next(_deals(3100, 1))
    out = analyse(record)
    rows = out["makeable"]
    assert [(r["trump"], r["team"]) for r in rows] == [(s, t) for s in "CSHD" for t in (0, 1)]
    takers = out["playing_team"]
    own = next(r for r in rows if r["trump"] == out["trump"] and r["team"] == takers)
    assert (own["points"], own["outcome"], own["margin"]) == (
        out["par"],
        out["par_outcome"],
        out["par_margin"],
    )
    for trump in "CSHD" if NATIVE else "C":
        row = next(r for r in rows if r["trump"] == trump and r["team"] == takers)
        other = _with_trump(record, trump)
        assert check(other)["valid"], check(other)["errors"]
        par = analyse(other, best_cards=False)
        assert (row["points"], row["outcome"], row["capot"]) == (
            par["par"],
            par["par_outcome"],
            par["par_capot"],
        )
        assert (
            row["margin"]
            == par["par_margin"]
            == _deal(record, trump).value(_deal(record, trump).start)
        )
        defenders = next(r for r in rows if r["trump"] == trump and r["team"] != takers)
        assert defenders["margin"] == row["margin"]


def _with_trump(record: dict[str, Any], trump: str) -> dict[str, Any]:
    """``record`` taken in ``trump`` and played out with the first legal card each turn
    (the par does not depend on the plays), belote for that trump's holder."""
    out = copy.deepcopy(record)
    up = record["upcard"]
    out["contract"] = {**record["contract"], "trump": trump, "round": 1 if up[1] == trump else 2}
    out.pop("bella", None)
    holder = [s for s in range(4) if {"K" + trump, "Q" + trump} <= set(record["hands"][s])]
    if holder:
        out["bella"] = holder[0]
    hands = [list(h) for h in record["hands"]]
    seat, trick, plays = (record["dealer"] + 1) % 4, [], []
    for _ in range(32):
        card = rules_ref.legal(hands[seat], trick, trump)[0]
        hands[seat].remove(card)
        plays.append(card)
        trick.append(card)
        if len(trick) == 4:
            seat = (seat + 1 + rules_ref.heading(trick, trump)) % 4
            trick = []
        else:
            seat = (seat + 1) % 4
    out["plays"] = plays
    return out


def test_a_revoke_is_analysed_as_for_klammern() -> None:
    record = next(_deals(3200, 1))
    deal = _deal(record)
    positions = _positions(record, deal)
    cut = next(
        k
        for k in range(5, 31)
        if deal.hands[positions[k].seat] & positions[k].remaining & ~deal.legal(positions[k])
    )
    pos = positions[cut]
    illegal = deal.hands[pos.seat] & pos.remaining & ~deal.legal(pos)
    card = (illegal & -illegal).bit_length() - 1
    revoked = copy.deepcopy(record)
    revoked["plays"] = record["plays"][:cut]
    revoked["revoke"] = {"seat": pos.seat, "card": CARD_TEXT[card]}
    assert check(revoked)["valid"], check(revoked)["errors"]
    out, whole = analyse(revoked), analyse(record)
    assert out["analysed"] and len(out["plays"]) == cut
    assert out["actual"]["outcome"] == "revoke"
    assert (out["par"], out["par_margin"]) == (whole["par"], whole["par_margin"])
    assert out["plays"] == whole["plays"][:cut]
    assert out["revoke"]["play"] == cut and out["revoke"]["card"] == CARD_TEXT[card]
    legal_texts = {CARD_TEXT[c] for c in range(32) if deal.legal(pos) >> c & 1}
    assert out["revoke"]["best"] and set(out["revoke"]["best"]) <= legal_texts
    line = out["revoke"]["line"]
    assert line[0]["seat"] == pos.seat and line[0]["card"] in out["revoke"]["best"]
    assert len(line) == 32 - cut


def test_a_thrown_in_deal_has_the_par_nil() -> None:
    record = {
        "format": "klammern-deal/1",
        "rules": "belote",
        "dealer": 2,
        "upcard": "9S",
        "contract": {"kind": "thrown_in"},
    }
    with_hands = {
        **record,
        "hands": [
            ["7C", "8C", "9C", "TC", "JC"],
            ["QC", "KC", "AC", "7S", "8S"],
            ["TS", "JS", "QS", "KS", "AS"],
            ["7H", "8H", "9H", "TH", "JH"],
        ],
    }
    for rec in (record, with_hands):
        assert check(rec)["valid"], check(rec)["errors"]
        out = analyse(rec)
        assert out["valid"] and out["analysed"] and out["errors"] == []
        assert (out["par"], out["par_outcome"], out["plays"]) == ([0, 0], "thrown_in", [])
        assert out["actual"]["outcome"] == "thrown_in" and "makeable" not in out
        assert perfect_line(rec, after=0) == analyse(rec, best_cards=False)


def test_a_summary_and_an_invalid_record_are_not_analysed() -> None:
    summary = {
        "format": "klammern-deal/1",
        "rules": "belote",
        "dealer": 0,
        "upcard": "9S",
        "contract": {"kind": "belote", "declarer": 1, "trump": "S", "round": 1},
        "card_points": [100, 62],
    }
    assert check(summary)["valid"], check(summary)["errors"]
    out = analyse(summary)
    assert out["valid"] and not out["analysed"]
    assert [e["code"] for e in out["errors"]] == ["summary_not_analysable"]
    broken = copy.deepcopy(next(_deals(3300, 1)))
    broken["plays"][3], broken["plays"][4] = broken["plays"][4], broken["plays"][3]
    assert not check(broken)["valid"]
    assert analyse(broken) == check(broken)


def test_every_record_check_accepts_is_analysed() -> None:
    """Random records of the engine and of the reference (thrown in, revokes, melds and
    belote included): never ``bad_format`` nor an internal error."""
    rng = random.Random(34)
    seen: set[str] = set()
    for n in range(24 if NATIVE else 2):
        if n % 2:
            record = random_deal(rng, dealer=n % 4, rules={"preset": "belote"})
        else:
            record = rules_ref.deal(rng, n % 4)
        result = check(record)
        if not result["valid"]:
            continue
        out = analyse(record, best_cards=False)
        assert out["valid"] and out["analysed"] and out["errors"] == [], (record, out)
        seen.add(result["outcome"])
    assert {"made", "failed"} <= seen if NATIVE else seen
