"""The C search (``games/engine/csolver.c``) against the Python search of ``solver.py``.

The C search is ``Solver.search`` written out in C, step for step, so both must give the
same value for every position and window and visit the same number of positions (the
node count shows that they search the same tree, not only that they agree on a result).
The compiled engine always has it; the interpreted engine (``KLAMMERN_ENGINE=python``)
never does, so there this file only checks that the two switch together.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, Options, analyse, random_deal, running_native
from games.engine.analysis import ALL, Position
from games.engine.solver import Solver, native_search_available

from .helpers import cli_both_engines
from .test_analysis_solver import OPTION_SETS

ROOT = Path(__file__).resolve().parents[2]

needs_c_search = pytest.mark.skipif(
    not native_search_available(),
    reason="the interpreted engine has no C search (the compiled pass runs these tests)",
)


def test_the_compiled_engine_always_runs_the_c_search() -> None:
    assert native_search_available() == running_native()


def _positions(record: dict[str, Any]) -> tuple[list[int], int, list[Position]]:
    """The deal's hands, trump and the position before each of its plays."""
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    trump = "CSHD".index(record["contract"]["trump"])
    pos = Position(ALL, (record["dealer"] + 1) % 4, [], 0)
    positions = []
    for text in record["plays"]:
        positions.append(pos)
        pos = pos.after(CARD_BY_TEXT[text], trump)
    return hands, trump, positions


def _records(seed: int, count: int, options: dict[str, bool]) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        record = random_deal(rng, dealer=len(out) % 4, rules={"options": options})
        if record["contract"]["kind"] != "thrown_in":
            out.append(record)
    return out


@needs_c_search
@pytest.mark.parametrize("count_tricks", [False, True], ids=["points", "tricks"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_every_position_of_a_deal_gets_the_same_value_and_node_count(
    options: dict[str, bool], count_tricks: bool
) -> None:
    opts = Options(**options)
    for record in _records(500 + OPTION_SETS.index(options), 4, options):
        hands, trump, positions = _positions(record)
        fast = Solver(hands, trump, opts, count_tricks=count_tricks)
        plain = Solver(hands, trump, opts, count_tricks=count_tricks, native=False)
        assert fast.core is not None and plain.core is None
        # one solver per deal for all its positions: the tables carry over, as in analyse()
        for pos in positions:
            want = plain.solve(pos.remaining, pos.leader, pos.trick)
            assert fast.solve(pos.remaining, pos.leader, pos.trick) == want, record
            assert fast.nodes == plain.nodes, record


@needs_c_search
def test_fail_soft_values_agree_for_any_window() -> None:
    rng = random.Random(5)
    opts = Options()
    for record in _records(9, 6, {}):
        hands, trump, positions = _positions(record)
        fast = Solver(hands, trump, opts)
        plain = Solver(hands, trump, opts, native=False)
        for pos in positions[12:]:
            top = plain.available(pos.remaining, pos.trick)
            alpha = rng.randrange(-5, top + 5)
            beta = alpha + rng.randrange(1, 40)
            got = fast.search(pos.remaining, pos.leader, pos.trick, alpha, beta)
            assert got == plain.search(pos.remaining, pos.leader, pos.trick, alpha, beta)


@needs_c_search
def test_the_c_search_refuses_what_is_no_position() -> None:
    solver = Solver([0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24], 0, Options())
    assert solver.core is not None
    with pytest.raises(ValueError):
        solver.core.search(ALL, 0, [1, 2, 3, 4], 0, 1)  # four cards are a whole trick
    with pytest.raises(ValueError):
        solver.core.search(ALL, 4, [], 0, 1)  # no seat 4
    with pytest.raises(ValueError):
        solver.core.search(ALL, 0, [40], 0, 1)  # no card 40


def test_the_analysis_cli_answers_alike_compiled_and_interpreted() -> None:
    records = _records(31, 5, {})
    lines = "".join(json.dumps(r) + "\n" for r in records)
    interpreted, default = cli_both_engines("analyse", lines, returncode=0)
    assert len(interpreted) == len(records) and interpreted == default
    assert [json.loads(line) for line in default] == [analyse(r) for r in records]
