"""The Klaverjas par analysis: the search (``klaverjas_solver``, its C mirror
``kjsolver.c``) against the plain reference of ``klaverjas_reference`` (written from
RULES.md), and ``analyse`` on Klaverjas records (Rotterdam and Amsterdam).

- every position of the last 3 tricks of 120 random deals per preset: the margin and the
  value of every legal card (so the best cards) against plain minimax;
- the positions from trick 3 on of 6 deals per preset, and 2 whole deals per preset, against
  the reference's alpha-beta with a bounds table;
- the C and the Python search: same value and node count for many windows;
- the solver's tables (legal cards, roem) against the engine's own (``play.choice``,
  ``seatwalk.trick_roem``) on random hands and tricks;
- ``analyse`` (6 deals per test compiled, 1 interpreted): the shape of the answer, its
  agreement with ``check`` (the par after the last card is what was taken), costs and
  best cards, made/nat as a threshold, a revoke, a summary and an invalid record.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, CARD_TEXT, analyse, check, random_deal
from games.engine.klaverjas import KLAVERJAS_TABLES
from games.engine.klaverjas_analysis import KlaverjasDeal, Position, deal_margin
from games.engine.klaverjas_solver import KlaverjasSolver, native_search_available
from games.engine.native import running_native
from games.engine.play import choice
from games.engine.rules import Options, resolve_rules
from games.engine.seatwalk import trick_roem

from .klaverjas_reference import Game, bounded_margin, card_margins, margin

PRESETS = ("klaverjas-rotterdam", "klaverjas-amsterdam")
#: Whole analyses per test: the interpreted pass (Python search, 1-3 s a deal) does fewer.
ANALYSES = 6 if running_native() else 1


def _deals(preset: str, seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` random deals of ``preset`` played to the end (no revoke)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        record = random_deal(rng, dealer=found % 4, rules={"preset": preset})
        if len(record["plays"]) == 32 and "revoke" not in record:
            found += 1
            yield record


def _deal(record: dict[str, Any]) -> KlaverjasDeal:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    trump = "CSHD".index(record["contract"]["trump"])
    return KlaverjasDeal(hands, trump, (record["dealer"] + 1) % 4, resolve_rules(record["rules"]))


def _positions(record: dict[str, Any], deal: KlaverjasDeal) -> list[Position]:
    """The position before each recorded play."""
    pos, out = deal.start, []
    for text in record["plays"]:
        out.append(pos)
        pos = pos.after(CARD_BY_TEXT[text], deal.trump)
    return out


def _reference_args(
    record: dict[str, Any], deal: KlaverjasDeal, pos: Position
) -> tuple[Game, tuple[tuple[str, ...], ...], int, list[str], tuple[int, int]]:
    game = Game(record["contract"]["trump"], amsterdam=deal.options.partner_exempt)
    held = tuple(
        tuple(CARD_TEXT[c] for c in range(32) if (hand & pos.remaining) >> c & 1)
        for hand in deal.hands
    )
    return game, held, pos.leader, [CARD_TEXT[c] for c in pos.trick], pos.tricks


# ----- the search against the reference --------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_endgames_of_the_last_three_tricks_match_minimax(preset: str) -> None:
    compared = best_checked = 0
    for n, record in enumerate(_deals(preset, 240 + PRESETS.index(preset), 120)):
        deal = _deal(record)
        for pos in _positions(record, deal)[20:]:
            game, held, leader, trick, won = _reference_args(record, deal, pos)
            want = pos.margin + margin(game, held, leader, trick, won)
            got = deal.value(pos)
            assert got == want, (n, record, pos.trick)
            compared += 1
            values = card_margins(game, held, leader, trick, won)
            pick = max if pos.seat % 2 == 0 else min
            best_value = pick(values.values())
            want_best = {c for c, v in values.items() if v == best_value}
            assert set(deal.best_cards(pos, got)) == want_best, (n, record, pos.trick)
            best_checked += 1
    assert compared == best_checked == 120 * 12


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_positions_from_trick_three_match_the_reference(preset: str) -> None:
    for record in _deals(preset, 300 + PRESETS.index(preset), 6):
        deal = _deal(record)
        memo: dict[Any, tuple[int, int]] = {}
        for pos in _positions(record, deal)[8:20]:
            game, held, leader, trick, won = _reference_args(record, deal, pos)
            want = pos.margin + bounded_margin(game, held, leader, trick, won, memo)
            assert deal.value(pos) == want, (record, pos.trick)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_whole_deals_match_the_reference(preset: str) -> None:
    for record in _deals(preset, 400 + PRESETS.index(preset), 2):
        deal = _deal(record)
        game, held, leader, trick, won = _reference_args(record, deal, deal.start)
        want = bounded_margin(game, held, leader, trick, won, {})
        assert (
            deal.value(deal.start)
            == want
            == deal_margin(deal.hands, trump=deal.trump, forehand=leader, options=deal.options)
        )
        assert want % 2 == 0  # a whole deal's margin is even (the search relies on it)


def test_the_c_search_is_the_python_search_step_for_step() -> None:
    assert native_search_available() == running_native()
    if not native_search_available():
        return  # the interpreted pass has only the Python search; the compiled one compares
    rng = random.Random(5)
    for preset in PRESETS:
        for record in _deals(preset, 500 + PRESETS.index(preset), 4):
            deal = _deal(record)
            c = KlaverjasSolver(deal.hands, deal.trump, deal.options)
            py = KlaverjasSolver(deal.hands, deal.trump, deal.options, native=False)
            assert c.core is not None and py.core is None
            for pos in _positions(record, deal)[4::3]:
                for _ in range(3):
                    probe = rng.randrange(-200, 200)
                    lo, hi = (probe - 1, probe) if rng.random() < 0.7 else (probe - 80, probe + 80)
                    args = (pos.remaining, pos.leader, pos.trick, pos.clean, lo, hi)
                    assert c.search(*args) == py.search(*args)
                    assert c.nodes == py.nodes


# ----- the solver's tables against the engine's rules ------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        resolve_rules({"preset": "klaverjas-rotterdam"}),
        resolve_rules({"preset": "klaverjas-amsterdam"}),
        Options(game="klaverjas", overtrump_on_trump_lead=True, partner_exempt=True),
        Options(partner_exempt=True, partner_exempt_trump_lead=True, overtrump_on_trump_lead=True),
    ],
)
def test_the_solvers_legal_cards_are_play_choice(options: Options) -> None:
    rng = random.Random(11)
    for _ in range(3000):
        cards = rng.sample(range(32), 32)
        trump = rng.randrange(4)
        table = KLAVERJAS_TABLES[trump]
        size = rng.randrange(1, 4)
        trick = cards[:size]
        hand = sum(1 << c for c in cards[size : size + rng.randrange(1, 9)])
        solver = KlaverjasSolver([0, 0, 0, 0], trump, options, native=False)
        led, best, best_pos = trick[0] >> 3, trick[0], 0
        for pos in range(1, size):
            if solver.beats(trick[pos], best, led):
                best, best_pos = trick[pos], pos
        seat = size  # the leader is seat 0
        got = solver.legal(hand, led, best, best_pos, seat)
        assert got == choice(hand, trick, table, options).legal, (trick, hand, trump)


def test_the_solvers_roem_is_the_engines() -> None:
    rng = random.Random(12)
    solver = KlaverjasSolver([0, 0, 0, 0], 2, resolve_rules({"preset": "klaverjas-rotterdam"}))
    for _ in range(20000):
        trick = rng.sample(range(32), 4)
        if rng.random() < 0.3:  # plenty of sequences, fours and stuk
            suit = rng.randrange(4)
            start = rng.randrange(5)
            trick = [8 * suit + start + k for k in range(rng.choice((3, 4)))]
            trick += rng.sample([c for c in range(32) if c not in trick], 4 - len(trick))
        if rng.random() < 0.05:
            rank = rng.randrange(8)
            trick = [8 * s + rank for s in range(4)]
        mask = sum(1 << c for c in trick)
        assert solver.roem(mask) == trick_roem(trick, KLAVERJAS_TABLES[2])


# ----- analyse() on Klaverjas records --------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_analysis_agrees_with_check(preset: str) -> None:
    for record in _deals(preset, 600 + PRESETS.index(preset), ANALYSES):
        result, out = check(record), analyse(record)
        assert out["valid"] and out["analysed"] and out["errors"] == []
        assert out["actual"]["points"] == result["points"]
        assert out["actual"]["outcome"] == result["outcome"]
        assert len(out["plays"]) == 32 and out["revoke"] is None
        # after the last card the par is what was taken
        assert out["plays"][-1]["par"] == result["points"]
        own = [result["card_points"][t] + result["roem"][t] for t in (0, 1)]
        assert out["plays"][-1]["margin"] == own[0] - own[1]
        # the par is scored as check scores a deal: made when the makers have more
        makers = result["playing_team"]
        team_margin = out["par_margin"] if makers == 0 else -out["par_margin"]
        assert out["par_outcome"] == ("made" if team_margin > 0 else "failed")
        assert sum(out["par_card_points"]) == 162
        par_own = [out["par_card_points"][t] + out["par_roem"][t] for t in (0, 1)]
        assert par_own[0] - par_own[1] == out["par_margin"]


@pytest.mark.parametrize("preset", PRESETS)
def test_each_play_costs_what_it_moved_the_margin(preset: str) -> None:
    for record in _deals(preset, 700 + PRESETS.index(preset), ANALYSES):
        out = analyse(record)
        before = out["par_margin"]
        for entry in out["plays"]:
            mine = 1 if entry["seat"] % 2 == 0 else -1
            assert entry["cost"] == mine * (before - entry["margin"]) >= 0
            assert (entry["cost"] == 0) == (entry["card"] in entry["best"])
            before = entry["margin"]


def test_best_cards_can_be_left_out() -> None:
    record = next(_deals("klaverjas-amsterdam", 800, 1))
    full, short = analyse(record), analyse(record, best_cards=False)
    assert all("best" not in e for e in short["plays"])
    for a, b in zip(full["plays"], short["plays"], strict=True):
        assert {k: v for k, v in a.items() if k not in ("best", "values", "line")} == b


def test_a_revoke_is_reported_with_the_cards_that_were_legal() -> None:
    record = next(_deals("klaverjas-rotterdam", 900, 1))
    deal = _deal(record)
    for cut in range(5, 31):
        pos = _positions(record, deal)[cut]
        hand = deal.hands[pos.seat] & pos.remaining
        illegal = hand & ~deal.legal(pos)
        if illegal:
            break
    else:
        pytest.fail("no position with an illegal card in this deal")
    revoked = copy.deepcopy(record)
    revoked["plays"] = record["plays"][:cut]
    card = (illegal & -illegal).bit_length() - 1
    revoked["revoke"] = {"seat": pos.seat, "card": CARD_TEXT[card]}
    assert check(revoked)["valid"], check(revoked)
    out = analyse(revoked)
    assert out["analysed"] and len(out["plays"]) == cut
    assert out["par"] == analyse(record)["par"]  # the deal's par: played out legally
    assert out["revoke"]["play"] == cut and out["revoke"]["card"] == CARD_TEXT[card]
    legal_texts = {CARD_TEXT[c] for c in range(32) if deal.legal(pos) >> c & 1}
    assert out["revoke"]["best"] and set(out["revoke"]["best"]) <= legal_texts
    line = out["revoke"]["line"]  # the stored line from the revoke on, as for Klammern
    assert line[0] == {"seat": pos.seat, "card": line[0]["card"]}
    assert line[0]["card"] in out["revoke"]["best"] and len(line) == 32 - cut


def test_a_summary_and_an_invalid_record_are_not_analysed() -> None:
    summary = {
        "format": "klammern-deal/1",
        "rules": {"preset": "klaverjas-rotterdam"},
        "dealer": 0,
        "contract": {"kind": "klaverjas", "declarer": 1, "trump": "H"},
        "card_points": [100, 62],
        "roem": [20, 0],
    }
    out = analyse(summary)
    assert out["valid"] and not out["analysed"]
    assert [e["code"] for e in out["errors"]] == ["summary_not_analysable"]
    broken = copy.deepcopy(next(_deals("klaverjas-amsterdam", 901, 1)))
    broken["plays"][3], broken["plays"][4] = broken["plays"][4], broken["plays"][3]
    assert analyse(broken) == check(broken)
    assert not check(broken)["valid"]


def test_every_record_check_accepts_is_analysed() -> None:
    rng = random.Random(13)
    for n in range(4 * ANALYSES):
        preset = PRESETS[n % 2]
        record = random_deal(rng, dealer=n % 4, rules={"preset": preset})
        assert check(record)["valid"]
        out = analyse(record, best_cards=False)
        assert out["valid"] and out["analysed"], out
