"""The Klaverjas makeable table (``analyse``'s ``makeable``, 1.4.0): for each trump and
each team as makers, the dealt hands played perfectly; the deal's own trump with its
perfect line's points, the three other trumps with the outcome only (made or nat).

- each row is the plain reference's (``klaverjas_reference.bounded_margin``, written from
  RULES.md): for the deal's trump a window of one point either side of the margin proves
  it exactly (fail-soft); for another trump a window at each team's threshold proves the
  outcome (team 0 makes at a margin of 1 or more, team 1 at -1 or less); one deal per
  preset (Rotterdam only under the interpreted engine), every trump;
- on more deals (fewer under the interpreted engine) the rows of the deal's trump are its
  par scored as RULES.md says (made when the makers' points, cards, roem and pit, are
  more than the defenders', else nat: the defenders score 162 and all roem), and each
  other trump's outcome is the sign of the search's whole-deal margin of that trump.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from games.engine import CARD_BY_TEXT, analyse
from games.engine.klaverjas_analysis import deal_margin
from games.engine.native import running_native
from games.engine.rules import resolve_rules

from .klaverjas_reference import Game, bounded_margin
from .test_klaverjas_analysis import PRESETS
from .test_klaverjas_values import _deals

#: Deals per preset checked against the search, and the presets: the interpreted engine
#: takes a minute or more a deal (the analysis, then each trump's search again).
DEALS = 4 if running_native() else 1
CHECKED = PRESETS if running_native() else PRESETS[:1]


def _scored_as_rules_say(row: dict[str, Any]) -> None:
    """The row's points, outcome and margin from its line's card points and roem."""
    cards, roem, team = row["card_points"], row["roem"], row["team"]
    assert sum(cards) == 162
    own = [cards[0] + roem[0], cards[1] + roem[1]]
    assert row["margin"] == own[0] - own[1]
    if own[team] > own[1 - team]:
        assert row["outcome"] == "made" and row["points"] == own
    else:
        assert row["outcome"] == "failed"
        assert row["points"][team] == 0 and row["points"][1 - team] == 162 + sum(roem)


def _outcome_of(margin: int, team: int) -> str:
    """Made or failed for ``team`` as makers at team 0's whole-deal ``margin``."""
    own = margin if team == 0 else -margin
    return "made" if own >= 1 else "failed"


@pytest.mark.slow
@pytest.mark.parametrize("preset", CHECKED)
def test_each_row_is_the_references(preset: str) -> None:
    record = next(_deals(preset, 1700 + PRESETS.index(preset), 1))
    out = analyse(record)
    amsterdam = resolve_rules(record["rules"]).partner_exempt
    held = tuple(tuple(hand) for hand in record["hands"])
    forehand = (record["dealer"] + 1) % 4
    for zero, one in zip(out["makeable"][::2], out["makeable"][1::2], strict=True):
        game = Game(zero["trump"], amsterdam=amsterdam)
        if zero["trump"] == out["trump"]:
            m = zero["margin"]
            assert bounded_margin(game, held, forehand, [], (0, 0), {}, m - 1, m + 1) == m
            continue
        assert zero["points"] is None and zero["margin"] is None
        zero_makes = bounded_margin(game, held, forehand, [], (0, 0), {}, 0, 1) >= 1
        one_makes = bounded_margin(game, held, forehand, [], (0, 0), {}, -1, 0) <= -1
        assert (zero["outcome"] == "made", one["outcome"] == "made") == (zero_makes, one_makes)


@pytest.mark.parametrize("preset", CHECKED)
def test_the_table_is_the_par_and_each_other_trumps_outcome(preset: str) -> None:
    made = failed = 0
    for record in _deals(preset, 1800 + PRESETS.index(preset), DEALS):
        out = analyse(record)
        rows = out["makeable"]
        assert [(r["trump"], r["team"]) for r in rows] == list(itertools.product("CSHD", (0, 1)))
        hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
        options = resolve_rules(record["rules"])
        for trump, (zero, one) in enumerate(zip(rows[::2], rows[1::2], strict=True)):
            want = deal_margin(
                hands, trump=trump, forehand=(record["dealer"] + 1) % 4, options=options
            )
            if "CSHD"[trump] == out["trump"]:
                assert zero["margin"] == one["margin"] == want == out["par_margin"]
                assert zero["card_points"] == one["card_points"] and zero["roem"] == one["roem"]
                _scored_as_rules_say(zero)
                _scored_as_rules_say(one)
            else:
                for row in (zero, one):
                    assert row["points"] is None and row["card_points"] is None
                    assert row["outcome"] == _outcome_of(want, row["team"]), (want, row)
            for row in (zero, one):
                made += row["outcome"] == "made"
                failed += row["outcome"] == "failed"
        own = rows[2 * "CSHD".index(out["trump"]) + out["playing_team"]]
        assert own["points"] == out["par"] and own["outcome"] == out["par_outcome"]
        assert own["margin"] == out["par_margin"] and own["roem"] == out["par_roem"]
    assert made > 0 and failed > 0


def test_without_best_cards_there_is_no_table() -> None:
    record = next(_deals("klaverjas-rotterdam", 1900, 1))
    assert "makeable" not in analyse(record, best_cards=False)
