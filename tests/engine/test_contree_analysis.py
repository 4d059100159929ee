"""The Belote Contrée par analysis (``contree_analysis`` on ``klaverjas_solver``'s Belote
mode with Belote Contrée's legal cards, and its C mirror) against the plain reference of
``contree_par_reference`` (written from RULES.md "Belote Contrée"), and ``analyse`` /
``perfect_line`` on Belote Contrée records.

- every legal card's value at every position of the last 3 tricks of seeded deals, and
  the position's value, against plain minimax;
- positions from trick 4 on (and, marked slow, from the first lead) against the
  reference's alpha-beta with a bounds table;
- the C and the Python search with Belote Contrée's rules: same value and node count;
- the solver's legal cards against ``play.choice`` and the reference's rule;
- ``analyse``: the par scored as the contract bid (made or failed a threshold on the
  margin, rounding, coinche and surcoinche), costs, lines played out to their value, the
  makeable table (the highest value each side makes in each trump, against the
  reference's threshold), a revoke, thrown-in deals, a summary, an invalid record, and
  no ``bad_format`` for any record ``check`` accepts.
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
from games.engine.belote_analysis import BeloteDeal, BelotePosition
from games.engine.contree_analysis import contree_margin, highest_value, points_made
from games.engine.klaverjas import KLAVERJAS_TABLES
from games.engine.klaverjas_solver import KlaverjasSolver, native_search_available
from games.engine.native import running_native
from games.engine.play import choice
from games.engine.rules import resolve_rules

from . import contree_reference as rules_ref
from .contree_par_reference import bounded_margin, card_margins, made, margin

CONTREE = resolve_rules("belote-contree", include_engine_only=True)
#: The interpreted engine takes 10-60 s for one whole analysis of a random deal: its pass
#: compares positions and analyses the one-suit deal of ``_one_suit`` only.
NATIVE = running_native()
DEALS = 10 if NATIVE else 2
ANALYSES = 6 if NATIVE else 0
AFTERS = (0, 13, 20, 26, 31, 32) if NATIVE else (24, 32)
VALUES: list[Any] = [80, 90, 100, 110, 120, 130, 140, 150, 160, "capot"]


def _deals(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` random Belote Contrée deals bid and played to the end (no revoke)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        record = random_deal(rng, dealer=found % 4, rules={"preset": "belote-contree"})
        if record["contract"]["kind"] == "contree" and "revoke" not in record:
            found += 1
            yield record


def _one_suit(**contract: Any) -> dict[str, Any]:
    """Each seat holds one suit (seat 0 Hearts, 1 Clubs, 2 Spades, 3 Diamonds): the search
    is quick everywhere. The contract (seat 0's 80 in Hearts unless said) is bid by its
    declarer after passes, then coinched and surcoinched as its doubling says; the cards
    are played out with the first legal card each turn."""
    said = {"kind": "contree", "declarer": 0, "trump": "H", "value": 80, "doubling": 0}
    said.update(contract)
    bids: list[Any] = ["pass"] * said["declarer"]
    bids.append({"value": said["value"], "trump": said["trump"]})
    bids += ["coinche", "surcoinche"][: said["doubling"]] or ["pass"] * 3
    record = {
        "format": "klammern-deal/1",
        "rules": "belote-contree",
        "dealer": 3,
        "hands": [[r + s for r in "789TJQKA"] for s in "HCSD"],
        "bids": bids,
        "contract": said,
    }
    record["plays"] = _first_legal_plays(record, said["trump"])
    return record


def _deal(record: dict[str, Any], trump: str | None = None) -> BeloteDeal:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    suit = "CSHD".index(trump or record["contract"]["trump"])
    return BeloteDeal(hands, suit, (record["dealer"] + 1) % 4, CONTREE)


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
    return "CSHD"[deal.trump], held, pos.leader, trick, pos.tricks


def _margin(result: dict[str, Any]) -> int:
    """Team 0's margin of points made of a checked deal."""
    return int(result["points_made"][0] - result["points_made"][1])


def _scored(record: dict[str, Any], team0_margin: int) -> dict[str, Any]:
    """The reference's score of ``record``'s contract played to a margin."""
    if abs(team0_margin) == 252:
        side = 0 if team0_margin > 0 else 1
        cards, tricks = ([162, 0], [8, 0]) if side == 0 else ([0, 162], [0, 8])
    else:
        card0 = (162 + team0_margin) // 2
        cards, tricks = [card0, 162 - card0], [4, 4]
    scored = rules_ref.score_numbers(record["contract"], cards, tricks, None)
    assert (scored["outcome"] == "made") == made(team0_margin, record["contract"])
    return scored


# ----- the search against the reference --------------------------------------------------


def test_every_legal_cards_value_in_the_last_three_tricks_matches_minimax() -> None:
    compared = costly = 0
    for record in _deals(3801, DEALS):
        deal = _deal(record)
        for pos in _positions(record, deal)[20:]:
            args = _reference_args(record, deal, pos)
            child = card_margins(*args)
            best = max(child.values()) if pos.seat % 2 == 0 else min(child.values())
            value = deal.value(pos)
            assert value == pos.margin + margin(*args) == pos.margin + best
            costs = deal.card_costs(pos, value)
            assert {CARD_TEXT[c]: v for c, v in costs.items()} == {
                t: abs(best - v) for t, v in child.items()
            }, record
            compared += len(child)
            costly += sum(1 for v in costs.values() if v > 0)
    assert compared > DEALS * 12 and costly > 0


def test_positions_from_trick_four_match_the_reference() -> None:
    """The par of endgames of 5 tricks and fewer against the reference's alpha-beta."""
    for record in _deals(3802, 3 if NATIVE else 1):
        deal = _deal(record)
        memo: dict[Any, tuple[int, int]] = {}
        positions = _positions(record, deal)[12:20]
        for pos in positions if NATIVE else positions[-3:]:
            want = pos.margin + bounded_margin(*_reference_args(record, deal, pos), memo)
            assert deal.value(pos) == want, (record, pos.trick)


@pytest.mark.slow
def test_a_whole_deals_par_matches_the_reference() -> None:
    record = next(_deals(3803, 1))
    deal = _deal(record)
    want = bounded_margin(*_reference_args(record, deal, deal.start), {})
    forehand = deal.start.leader
    assert deal.value(deal.start) == want == analyse(record, best_cards=False)["par_margin"]
    assert contree_margin(deal.hands, trump=deal.trump, forehand=forehand, options=CONTREE) == want
    assert want % 2 == 0  # the deal's margin is even (the search relies on it)


def test_the_c_search_is_the_python_search_step_for_step_with_contree_rules() -> None:
    assert native_search_available() == running_native()
    if not native_search_available():
        return  # the interpreted pass has only the Python search; the compiled one compares
    rng = random.Random(38)
    for record in _deals(3804, 4):
        deal = _deal(record)
        c = KlaverjasSolver(deal.hands, deal.trump, CONTREE)
        py = KlaverjasSolver(deal.hands, deal.trump, CONTREE, native=False)
        assert c.core is not None and py.core is None
        assert not py.count_roem and py.all_tricks_bonus == 90 and py.free_when_outtrumped
        for pos in _positions(record, deal)[4::3]:
            for _ in range(3):
                probe = rng.randrange(-260, 260)
                lo, hi = (probe - 1, probe) if rng.random() < 0.7 else (probe - 80, probe + 80)
                args = (pos.remaining, pos.leader, pos.trick, pos.clean, lo, hi)
                assert c.search(*args) == py.search(*args)
                assert c.nodes == py.nodes


def test_the_solvers_legal_cards_are_contrees() -> None:
    rng = random.Random(39)
    for _ in range(3000):
        cards = rng.sample(range(32), 32)
        trump = rng.randrange(4)
        size = rng.randrange(1, 4)
        trick = cards[:size]
        hand = sum(1 << c for c in cards[size : size + rng.randrange(1, 9)])
        solver = KlaverjasSolver([0, 0, 0, 0], trump, CONTREE, native=False)
        led, best, best_pos = trick[0] >> 3, trick[0], 0
        for pos in range(1, size):
            if solver.beats(trick[pos], best, led):
                best, best_pos = trick[pos], pos
        got = solver.legal(hand, led, best, best_pos, size)  # the leader is seat 0
        assert got == choice(hand, trick, KLAVERJAS_TABLES[trump], CONTREE).legal
        texts = [CARD_TEXT[c] for c in range(32) if hand >> c & 1]
        want = rules_ref.legal(texts, [CARD_TEXT[c] for c in trick], "CSHD"[trump])
        assert {CARD_TEXT[c] for c in range(32) if got >> c & 1} == set(want), (trick, texts)


# ----- analyse() on Belote Contrée records -------------------------------------------------


def _agrees_with_check(record: dict[str, Any]) -> dict[str, Any]:
    result, out = check(record), analyse(record)
    assert out["valid"] and out["analysed"] and out["errors"] == [], out
    assert out["analysis_version"] == ANALYSIS_VERSION
    assert out["actual"]["points"] == result["points"]
    assert out["actual"]["points_made"] == result["points_made"]
    assert (out["value"], out["doubling"]) == (result["value"], result["doubling"])
    assert len(out["plays"]) == 32 and out["revoke"] is None
    assert out["plays"][-1]["par"] == result["points"]  # after the last card: as taken
    assert out["plays"][-1]["margin"] == _margin(result)
    scored = _scored(record, out["par_margin"])
    assert (out["par"], out["par_outcome"]) == (scored["points"], scored["outcome"])
    assert sum(out["par_card_points"]) == 162
    before = out["par_margin"]
    for entry in out["plays"]:
        mine = 1 if entry["seat"] % 2 == 0 else -1
        assert entry["cost"] == mine * (before - entry["margin"]) >= 0
        assert entry["cost"] == entry["values"][entry["card"]]
        assert (entry["cost"] == 0) == (entry["card"] in entry["best"])
        assert entry["par_outcome"] == _scored(record, entry["margin"])["outcome"]
        before = entry["margin"]
    return out


@pytest.mark.parametrize(
    ("contract", "par", "outcome", "par_margin"),
    [
        ({"value": 80}, [250, 0], "made", 252),
        ({"value": "capot"}, [250, 0], "made", 252),
        ({"value": "capot", "doubling": 1}, [500, 0], "made", 252),
        ({"value": 160, "doubling": 2}, [640, 0], "made", 252),
        # seat 1's Clubs: seat 0 leads a Heart, seat 1 must trump and takes every trick
        ({"value": 120, "declarer": 1, "trump": "C"}, [0, 250], "made", -252),
        # Diamonds, seat 3's: the same for the defenders
        ({"value": 80, "trump": "D"}, [0, 160], "failed", -252),
        ({"value": 90, "trump": "D", "doubling": 1}, [0, 320], "failed", -252),
        ({"value": 100, "declarer": 1, "trump": "D", "doubling": 2}, [0, 640], "made", -252),
    ],
)
def test_the_par_is_the_contract_as_bid(
    contract: dict[str, Any], par: list[int], outcome: str, par_margin: int
) -> None:
    record = _one_suit(**contract)
    assert check(record)["valid"], check(record)["errors"]
    out = _agrees_with_check(record)
    assert (out["par"], out["par_outcome"], out["par_margin"]) == (par, outcome, par_margin)
    assert out["par_capot"] == (0 if par_margin > 0 else 1)


def test_the_analysis_agrees_with_check() -> None:
    outcomes = set()
    for record in _deals(3805, ANALYSES):
        outcomes.add(_agrees_with_check(record)["par_outcome"])
    assert outcomes == ({"made", "failed"} if NATIVE else set())


def test_each_costly_play_stores_the_perfect_line() -> None:
    for record in _deals(3806, 2 if NATIVE else 0):
        out = analyse(record)
        costly = [entry for entry in out["plays"] if entry["cost"] > 0]
        assert costly
        for entry in out["plays"]:
            assert ("line" in entry) == (entry["cost"] > 0)
            if entry["cost"] > 0:
                line = perfect_line(record, after=entry["play"])["line"]
                assert entry["line"] == [{"seat": s["seat"], "card": s["card"]} for s in line]
                assert entry["line"][0]["card"] in entry["best"]


@pytest.mark.parametrize("after", AFTERS)
def test_the_perfect_line_plays_out_to_the_par(after: int) -> None:
    for record in _deals(3900 + after, 2 if NATIVE else 1):
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
        assert result["points"] == _scored(record, want)["points"]


def test_the_line_after_any_legal_card_costs_its_value() -> None:
    record = next(_deals(3907, 1))
    deal = _deal(record)
    for after in (18, 25) if NATIVE else (25,):
        pos = _positions(record, deal)[after]
        values = deal.card_costs(pos, deal.value(pos))
        for card, cost in values.items():
            line = perfect_line(record, after=after, card=CARD_TEXT[card])
            assert line["card"] == CARD_TEXT[card] and line["cost"] == cost, (after, card)
            assert line["line"][0]["card"] == CARD_TEXT[card]
            assert len(line["line"]) == 32 - after
            played = copy.deepcopy(record)
            played["plays"] = record["plays"][:after] + [s["card"] for s in line["line"]]
            result = check(played)
            assert result["valid"] and result["points"] == line["par"]
    for after in (-1, 33, "3"):
        assert [e["code"] for e in perfect_line(record, after=after)["errors"]] == [BAD_POSITION]
    other = record["hands"][(record["dealer"] + 2) % 4][0]
    assert [e["code"] for e in perfect_line(record, after=0, card=other)["errors"]] == [BAD_CARD]


def _first_legal_plays(record: dict[str, Any], trump: str) -> list[str]:
    """The deal played out with the first legal card each turn (the par does not depend
    on the plays)."""
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
    return plays


def _makeable_rows_hold(out: dict[str, Any], margins: dict[str, int]) -> None:
    rows = out["makeable"]
    assert [(r["trump"], r["team"]) for r in rows] == [(s, t) for s in "CSHD" for t in (0, 1)]
    for row in rows:
        m = margins[row["trump"]]
        assert row["margin"] == m
        side = row["team"]
        takers_seat = side  # seat 0 or 1: the side's declarer
        makes = [
            v
            for v in VALUES
            if made(m, {"declarer": takers_seat, "value": v, "trump": row["trump"]})
        ]
        assert row["value"] == (makes[-1] if makes else None), (row, makes)
        cards, made_points, capot = points_made(m)
        assert (row["card_points"], row["points_made"], row["capot"]) == (
            list(cards),
            list(made_points),
            capot,
        )


def test_the_makeable_table_holds_the_highest_value_each_side_makes() -> None:
    record = _one_suit()
    out = analyse(record)
    # Hearts: seat 0's side takes all; Clubs: seat 1's; Spades: seat 2's; Diamonds: seat 3's
    _makeable_rows_hold(out, {"H": 252, "C": -252, "S": 252, "D": -252})
    hearts = [r["value"] for r in out["makeable"] if r["trump"] == "H"]
    assert hearts == ["capot", None]
    for record in _deals(3908, 1 if NATIVE else 0):
        out = analyse(record)
        margins = {
            trump: _deal(record, trump).value(_deal(record, trump).start) for trump in "CSHD"
        }
        assert margins[record["contract"]["trump"]] == out["par_margin"]
        _makeable_rows_hold(out, margins)


def test_highest_value() -> None:
    assert highest_value(79, all_tricks=False) is None
    assert highest_value(80, all_tricks=False) == 80
    assert highest_value(129, all_tricks=False) == 120
    assert highest_value(162, all_tricks=False) == 160
    assert highest_value(252, all_tricks=True) == "capot"


def test_a_revoke_is_analysed_as_for_belote() -> None:
    record = next(_deals(3909, 1))
    deal = _deal(record)
    positions = _positions(record, deal)
    start = 5 if NATIVE else 24
    cut = next(
        k
        for k in range(start, 31)
        if deal.hands[positions[k].seat] & positions[k].remaining & ~deal.legal(positions[k])
    )
    pos = positions[cut]
    illegal = deal.hands[pos.seat] & pos.remaining & ~deal.legal(pos)
    card = (illegal & -illegal).bit_length() - 1
    revoked = copy.deepcopy(record)
    revoked["plays"] = record["plays"][:cut]
    revoked["revoke"] = {"seat": pos.seat, "card": CARD_TEXT[card]}
    assert check(revoked)["valid"], check(revoked)["errors"]
    out = analyse(revoked, best_cards=NATIVE)
    assert out["analysed"] and len(out["plays"]) == cut
    assert out["actual"]["outcome"] == "revoke"
    assert out["par_margin"] == deal.value(deal.start)
    assert out["plays"][-1]["margin"] == deal.value(pos)
    assert out["revoke"]["play"] == cut and out["revoke"]["card"] == CARD_TEXT[card]
    legal_texts = {CARD_TEXT[c] for c in range(32) if deal.legal(pos) >> c & 1}
    assert out["revoke"]["best"] and set(out["revoke"]["best"]) <= legal_texts
    if NATIVE:
        line = out["revoke"]["line"]
        assert line[0]["seat"] == pos.seat and line[0]["card"] in out["revoke"]["best"]
        assert len(line) == 32 - cut


def test_a_thrown_in_deal_has_the_par_nil() -> None:
    record = _one_suit()
    record["bids"] = ["pass"] * 4
    record["contract"] = {"kind": "thrown_in"}
    del record["plays"]
    assert check(record)["valid"], check(record)["errors"]
    out = analyse(record)
    assert out["valid"] and out["analysed"] and out["errors"] == []
    assert (out["par"], out["par_outcome"], out["plays"]) == ([0, 0], "thrown_in", [])
    assert out["actual"]["outcome"] == "thrown_in" and "makeable" not in out
    assert perfect_line(record, after=0) == analyse(record, best_cards=False)
    summary = {k: v for k, v in record.items() if k not in ("hands", "bids")}
    assert check(summary)["valid"]
    assert [e["code"] for e in analyse(summary)["errors"]] == ["summary_not_analysable"]


def test_a_summary_and_an_invalid_record_are_not_analysed() -> None:
    summary = {
        "format": "klammern-deal/1",
        "rules": "belote-contree",
        "dealer": 0,
        "contract": {"kind": "contree", "declarer": 1, "trump": "S", "value": 90, "doubling": 1},
        "card_points": [100, 62],
    }
    assert check(summary)["valid"], check(summary)["errors"]
    out = analyse(summary)
    assert out["valid"] and not out["analysed"]
    assert [e["code"] for e in out["errors"]] == ["summary_not_analysable"]
    broken = _one_suit()
    broken["bids"] = [{"value": 80, "trump": "H"}, "coinche", "pass"]
    assert not check(broken)["valid"]
    assert analyse(broken) == check(broken)
    assert perfect_line(broken, after=3) == check(broken)


def test_every_record_check_accepts_is_analysed() -> None:
    """Random records of the engine and of the reference (thrown in, revokes, coinches):
    never ``bad_format`` nor an internal error."""
    rng = random.Random(40)
    seen: set[str] = set()
    for n in range(16 if NATIVE else 0):
        if n % 2:
            record = random_deal(rng, dealer=n % 4, rules={"preset": "belote-contree"})
        else:
            record = rules_ref.deal(rng, n % 4)
        result = check(record)
        assert result["valid"], result["errors"]
        out = analyse(record, best_cards=False)
        assert out["valid"] and out["analysed"] and out["errors"] == [], (record, out)
        seen.add(result["outcome"])
    assert {"made", "failed"} <= seen if NATIVE else not seen
