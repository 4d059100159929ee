"""The fast solver (``games.engine.solver``) against the plain reference solver
(``games.engine.reference_solver``), under every combination of the two play options.

- every endgame of the last 3 tricks (the four positions of trick 6) of 2,000 random
  deals, 500 per option combination: plain minimax, points and the March question;
- the last 5 tricks of 100 random deals: alpha-beta without a table;
- whole deals: alpha-beta with a bounds table but nothing else (plain minimax and plain
  alpha-beta take minutes per deal): 200 deals on the compiled engine, 50 per option
  combination (about 4 minutes, nearly all of it the reference's), 4 interpreted;
  ``ANALYSIS_WHOLE_DEALS=N`` sets the number per combination.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, Options, random_deal, running_native
from games.engine.analysis import ALL, Position
from games.engine.reference_solver import (
    BoundsMemo,
    alphabeta_points,
    alphabeta_tt_points,
    minimax_all_tricks,
    minimax_points,
)
from games.engine.solver import Solver

OPTION_SETS = [
    {"overtrump_on_trump_lead": strict, "partner_exempt": exempt}
    for strict, exempt in itertools.product((False, True), repeat=2)
]


def _deals(seed: int, count: int, options: dict[str, bool], plays: int) -> Iterator[Any]:
    """``count`` random played deals (no thrown-in, at least ``plays`` legal plays)."""
    rng = random.Random(seed)
    rules = {"preset": "klammern", "options": options}
    found = 0
    while found < count:
        record = random_deal(rng, dealer=found % 4, rules=rules)
        if record["contract"]["kind"] == "thrown_in" or len(record["plays"]) < plays:
            continue
        found += 1
        yield record


def _setup(record: dict[str, Any], plays: int) -> tuple[list[int], int, Position]:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    trump = "CSHD".index(record["contract"]["trump"])
    pos = Position(ALL, (record["dealer"] + 1) % 4, [], 0)
    for text in record["plays"][:plays]:
        pos = pos.after(CARD_BY_TEXT[text], trump)
    return hands, trump, pos


def _held(hands: list[int], pos: Position) -> list[int]:
    return [h & pos.remaining for h in hands]


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_endgames_of_the_last_three_tricks_match_minimax(options: dict[str, bool]) -> None:
    opts = Options(**options)
    compared = 0
    for n, record in enumerate(_deals(1000 + OPTION_SETS.index(options), 500, options, 24)):
        hands, trump, start = _setup(record, 20)
        solver = Solver(hands, trump, opts)
        tricks = Solver(hands, trump, opts, count_tricks=True)
        pos = start
        for text in record["plays"][20:24]:
            held = _held(hands, pos)
            want = minimax_points(held, pos.leader, pos.trick, trump, opts)
            got = solver.solve(pos.remaining, pos.leader, pos.trick)
            assert got == want, (record, pos.trick)
            if n % 4 == 0:
                for team in (0, 1):
                    need = tricks.available(pos.remaining, pos.trick) if team == 0 else 1
                    can = tricks.at_least(pos.remaining, pos.leader, pos.trick, need)
                    want_all = minimax_all_tricks(
                        held, pos.leader, pos.trick, trump, opts, team=team
                    )
                    assert (can if team == 0 else not can) == want_all, (record, team)
            compared += 1
            pos = pos.after(CARD_BY_TEXT[text], trump)
    assert compared == 2000


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_last_five_tricks_match_alpha_beta(options: dict[str, bool]) -> None:
    opts = Options(**options)
    for record in _deals(2000 + OPTION_SETS.index(options), 25, options, 12):
        hands, trump, pos = _setup(record, 12)
        want = alphabeta_points(_held(hands, pos), pos.leader, pos.trick, trump, opts)
        assert Solver(hands, trump, opts).solve(pos.remaining, pos.leader, []) == want, record


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_whole_deals_match_the_reference(options: dict[str, bool]) -> None:
    opts = Options(**options)
    count = int(os.environ.get("ANALYSIS_WHOLE_DEALS", "50" if running_native() else "1"))
    for record in _deals(3000 + OPTION_SETS.index(options), count, options, 0):
        hands, trump, pos = _setup(record, 0)
        want = alphabeta_tt_points(hands, pos.leader, [], trump, opts, BoundsMemo())
        assert Solver(hands, trump, opts).solve(ALL, pos.leader, [], 82) == want, record


def test_reference_solvers_agree_on_small_endgames() -> None:
    opts = Options()
    for record in _deals(7, 40, {}, 24):
        hands, trump, pos = _setup(record, 20)
        held = _held(hands, pos)
        want = minimax_points(held, pos.leader, [], trump, opts)
        assert alphabeta_points(held, pos.leader, [], trump, opts) == want
        assert alphabeta_tt_points(held, pos.leader, [], trump, opts, BoundsMemo()) == want
