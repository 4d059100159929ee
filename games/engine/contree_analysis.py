"""Par analysis of a full Belote Contrée deal record (preset ``belote-contree``).

``analyse_contree(record)`` answers a record of the Belote Contrée preset (None for any
other, which ``analysis.analyse`` handles) in the shape of the Belote analysis
(``belote_analysis``, docs/analysis.md): the par of the contract as bid with perfect play
by both sides, all four hands visible, its outcome, and after every recorded play the
par, the play's cost, every legal card's value and, after a costly play, a perfect line;
plus the makeable table.

What "perfect play" is here: each side maximises its points made against the other's,
the **margin** ``klaverjas_solver`` searches in its Belote mode with Belote Contrée's
legal cards (team 0's card points with the last trick's 10, and 90 more for all 8
tricks, minus team 1's: RULES.md's points made, 162 in all, 252 with all tricks). The
contract's score is a monotone function of that margin (made is a threshold on it: the
takers' points made reach the value, that is a margin of at least 2 × value − 162 for
them, or all 8 tricks, a margin of 252, for a capot contract; rounding and the doubling
never reward a side for fewer points), so the margin's perfect play is the contract's
and the par outcome is exact. The par's points are the contract scored as bid (value,
coinche or surcoinche) on one perfect line played out.

Decisions (also in DECISIONS.md):

- ``cost``, ``values``, ``margin``, ``par_margin``, ``line`` and ``perfect_line`` as for
  Belote (a 10-point card given away costs 20); the par and the actual result give the
  card points, the points made and ``capot`` (the side that took all 8 tricks);
- a revoke: the par is the deal's, played out legally to the end; the plays before the
  revoke are analysed and the revoke is reported with the cards that were legal, not
  costed (as for Belote);
- a thrown-in deal was not played: par 0:0, outcome ``thrown_in``, no plays, no table;
- the makeable table: for each trump suit (C, S, H, D) and each side (0, 1), the highest
  value that side makes as takers with perfect play from the dealt hands, forehand
  leading: ``"capot"`` when it can take all 8 tricks, else the highest of 80 … 160 its
  points made reach, null below 80; with the margin and the points made. The perfect
  play does not depend on who bid, so one search per trump answers both sides, and the
  deal's own trump costs none (its margin is the par's);
- Belote Contrée has no March, small points or match points per deal: ``march`` is
  false, ``par_march``, ``par_small_points`` and ``par_match_points`` are null.

It does no I/O and never raises (an engine bug becomes an ``internal_error``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .analysis_answers import stamped, summary_answer
from .belote_analysis import BeloteDeal, deal_margin, line_from
from .cards import CARD_BY_TEXT, CARD_TEXT, SUIT_BY_TEXT, SUIT_LETTERS
from .contree import (
    ALL_TRICKS_BONUS,
    BID_VALUES,
    CAPOT,
    DEAL_VALUE,
    ContreeContract,
    score_contree,
    value_level,
)
from .dispatch import check as check_any_game
from .errors import RulesError
from .klaverjas_analysis import Position, _Walk
from .rules import Options, resolve_named_rules

Json = dict[str, Any]

GAME: Final = "contree"
#: The margin of all 8 tricks: all 162 card points and the 90 more.
ALL_TRICKS_MARGIN: Final = DEAL_VALUE + ALL_TRICKS_BONUS


def _contract(result: Json) -> ContreeContract:
    level = value_level(result["value"])
    assert level is not None  # check() accepted the record
    return ContreeContract(
        result["declarer"], SUIT_BY_TEXT[result["trump"]], level, result["doubling"]
    )


def score_end(contract: ContreeContract, end: Position) -> Json:
    """The contract scored at the end of a line played out."""
    capot = next((t for t in (0, 1) if end.tricks[t] == 8), None)
    return score_contree(contract, card_points=end.cards, capot=capot, revoke_team=None)


def points_made(margin: int) -> tuple[tuple[int, int], tuple[int, int], int | None]:
    """Card points, points made and the all-tricks side of a whole deal's margin."""
    if abs(margin) == ALL_TRICKS_MARGIN:
        side = 0 if margin > 0 else 1
        cards = (DEAL_VALUE, 0) if side == 0 else (0, DEAL_VALUE)
        made = (ALL_TRICKS_MARGIN, 0) if side == 0 else (0, ALL_TRICKS_MARGIN)
        return cards, made, side
    card0 = (DEAL_VALUE + margin) // 2
    cards = (card0, DEAL_VALUE - card0)
    return cards, cards, None


def highest_value(made: int, *, all_tricks: bool) -> int | str | None:
    """The highest contract a side makes with these points made (module docstring)."""
    if all_tricks:
        return CAPOT
    values = [v for v in BID_VALUES if v <= made]
    return values[-1] if values else None


class _ContreeWalk(_Walk):
    """The Klaverjas walk of the recorded plays, its pars scored as the contract bid."""

    def __init__(self, deal: BeloteDeal, contract: ContreeContract, best_cards: bool) -> None:
        super().__init__(deal, contract.takers, best_cards)
        self.contract = contract

    def par(self) -> Json:
        """The scored par of the current position (its perfect line played out)."""
        return score_end(self.contract, self.deal.play_out(self.pos, self.line))


def makeable(deal: BeloteDeal, par_margin: int) -> list[Json]:
    """The makeable table (module docstring): 8 rows, trump C S H D, side 0 then 1."""
    rows = []
    for trump in range(4):
        margin = par_margin
        if trump != deal.trump:
            margin = deal_margin(
                deal.hands, trump=trump, forehand=deal.start.leader, options=deal.options
            )
        cards, made, all_tricks = points_made(margin)
        for side in (0, 1):
            rows.append(
                {
                    "trump": SUIT_LETTERS[trump],
                    "team": side,
                    "value": highest_value(made[side], all_tricks=all_tricks == side),
                    "points_made": list(made),
                    "card_points": list(cards),
                    "capot": all_tricks,
                    "margin": margin,
                }
            )
    return rows


def _hands(record: Json) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _deal(record: Json, trump: int, options: Options) -> BeloteDeal:
    return BeloteDeal(_hands(record), trump, (record["dealer"] + 1) % 4, options)


def _base(result: Json) -> Json:
    return {
        "valid": True,
        "analysed": True,
        "errors": [],
        "mode": result["mode"],
        "trump": result["trump"],
        "declarer": result["declarer"],
        "playing_team": result["playing_team"],
        "value": result["value"],
        "doubling": result["doubling"],
        "march": False,
        "actual": {
            "points": result["points"],
            "outcome": result["outcome"],
            "winner_team": result["winner_team"],
            "small_points": None,
            "match_points": None,
            "card_points": result["card_points"],
            "points_made": result["points_made"],
            "capot": result["capot"],
        },
    }


def _par_fields(scored: Json, margin: int) -> Json:
    return {
        "par": scored["points"],
        "par_card_points": scored["card_points"],
        "par_points_made": scored["points_made"],
        "par_capot": scored["capot"],
        "par_margin": margin,
        "par_outcome": scored["outcome"],
        "par_winner_team": scored["winner_team"],
        "par_small_points": None,
        "par_match_points": None,
        "par_march": None,
    }


def _thrown_in(result: Json) -> Json:
    out = _base(result)
    nothing = {
        "points": [0, 0],
        "card_points": [0, 0],
        "points_made": [0, 0],
        "capot": None,
        "outcome": "thrown_in",
        "winner_team": None,
    }
    out.update(_par_fields(nothing, 0))
    out.update({"plays": [], "revoke": None})
    return out


def _analyse_valid(record: Json, result: Json, options: Options, best_cards: bool) -> Json:
    if result["outcome"] == "thrown_in":
        return _thrown_in(result)
    contract = _contract(result)
    deal = _deal(record, contract.trump, options)
    walk = _ContreeWalk(deal, contract, best_cards)
    out = _base(result)
    out.update(_par_fields(walk.par(), walk.margin))
    out["plays"] = [walk.play(i, CARD_BY_TEXT[t]) for i, t in enumerate(record["plays"])]
    if best_cards:
        out["makeable"] = makeable(deal, out["par_margin"])
    revoke = record.get("revoke")
    out["revoke"] = None
    if revoke is not None:
        out["revoke"] = {
            "play": len(out["plays"]),
            "seat": revoke["seat"],
            "card": CARD_TEXT[CARD_BY_TEXT[revoke["card"]]],
            "best": deal.best_cards(walk.pos, walk.margin),
        }
        if best_cards:
            out["revoke"]["line"] = deal.steps(walk.pos, walk.line)
    return out


def contree_options(record: object) -> Options | None:
    """The options of a record of the Belote Contrée preset; None for any other record."""
    if not isinstance(record, dict):
        return None
    try:
        _, options = resolve_named_rules(record.get("rules"))
    except RulesError:
        return None
    return options if options.game == GAME else None


def analyse_contree(record: object, *, best_cards: bool = True, version: str) -> Json | None:
    """The par analysis of a Belote Contrée record (module docstring), None for a record
    of another game; ``version`` is the analysis version to report. Never raises."""
    options = contree_options(record)
    if options is None:
        return None
    assert isinstance(record, dict)
    result = check_any_game(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full":
        return summary_answer(result, version)
    return stamped(result, version, lambda: _analyse_valid(record, result, options, best_cards))


def contree_line(
    record: Json,
    analysed: Json,
    options: Options,
    after: int,
    card: object,
    *,
    refuse: Callable[[int], Json],
) -> Json:
    """``analysis.perfect_line``'s answer for a Belote Contrée record (``analysed`` is its
    ``check`` result, ``after`` a position of the record), as ``belote_line`` for Belote:
    ``par`` is the contract scored at the end of the line."""
    contract = _contract(analysed)
    deal = _deal(record, contract.trump, options)

    def points(end: Position) -> list[int]:
        scored: list[int] = score_end(contract, end)["points"]
        return scored

    return line_from(deal, record["plays"], after, card, refuse=refuse, points=points)


def contree_margin(hands: list[int], *, trump: int, forehand: int, options: Options) -> int:
    """Team 0's margin of points made (card points with the last trick, 90 more for all
    8 tricks, minus team 1's) with perfect play from the start of a Belote Contrée deal."""
    return deal_margin(hands, trump=trump, forehand=forehand, options=options)


__all__ = [
    "analyse_contree",
    "contree_line",
    "contree_margin",
    "contree_options",
    "highest_value",
    "makeable",
    "points_made",
    "score_end",
]
