"""Par analysis of a full deal record: perfect play with all four hands visible.

``analyse(record)`` checks the record (``record.check``), then asks ``solver.Solver``
what each team takes when every player plays perfectly under the record's rules (both
teams maximise their own deal points; the card part is zero-sum, 164 in all), and what
that par is after every recorded play, so each play's cost is known. Melds and Bella are
fixed additions as announced; the par's outcome, small points and Liga Augen come from
``scoring.score_deal``, so they agree with ``check``'s figures for the same points.

Decisions (see also the report in docs/benchmarks.md):

- an invalid record gives ``check``'s result unchanged (``valid: false`` and its errors);
- a summary record has no hands to analyse: ``valid: true``, ``analysed: false`` and one
  error with code ``summary_not_analysable``;
- a Klaverjas record is analysed by ``klaverjas_analysis`` (same shape, its own search);
- a valid record of another game (Belote, 2/3 players, the Schieber) has no perfect-play
  analysis yet: ``valid: true``, ``analysed: false`` and one error with code
  ``game_not_analysable`` (an invalid one gives its ``check`` result);
- a thrown-in deal was not played: par ``[0, 0]``, outcome ``thrown_in``, no plays (as
  ``check`` scores it);
- a revoke: the par is the deal's (played out legally to the end, every announced meld
  and Bella counting); the recorded plays before the revoke are analysed as usual and the
  revoke itself is reported with the cards that should have been played, not costed;
- a March: ``par_march`` says whether the playing team can force all 8 tricks, and the
  par outcome (``march_won``/``march_lost``) follows it; every play also says whether the
  March can still be forced after it (``march``). The points par is still the points
  game's (both teams maximising their points).

It does no I/O and never raises (an engine bug becomes an ``internal_error``).
"""

from __future__ import annotations

from typing import Any, Final

from .cards import CARD_BY_TEXT, CARD_TEXT, DEAL_POINTS, SUIT_BY_TEXT, TABLES, sorted_for_display
from .dispatch import check as check_any_game
from .errors import Code, Problem, RulesError
from .klaverjas_analysis import analyse_klaverjas
from .melds import Meld, run_of_cards
from .play import choice, trick_winner
from .record import check, unchecked
from .rules import Options, resolve_named_rules, resolve_rules
from .scoring import DealFacts, score_deal
from .solver import Solver

Json = dict[str, Any]

#: The error code of a record that is valid but cannot be analysed (a summary).
NOT_ANALYSABLE: Final = "summary_not_analysable"
#: The error code of a valid record of a game the solver does not play (yet).
GAME_NOT_ANALYSABLE: Final = "game_not_analysable"
ANALYSIS_VERSION: Final = "1.1.0"
ALL: Final = (1 << 32) - 1


class Position:
    """Where a deal stands between two plays (each card's owner is fixed by the deal)."""

    def __init__(self, remaining: int, leader: int, trick: list[int], taken: int) -> None:
        self.remaining = remaining
        self.leader = leader
        self.trick = trick
        #: Team 0's card points from the tricks already complete.
        self.taken = taken

    @property
    def seat(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) & 3

    def after(self, card: int, trump: int) -> Position:
        """The position after the next seat plays ``card``."""
        remaining = self.remaining & ~(1 << card)
        trick = [*self.trick, card]
        if len(trick) < 4:
            return Position(remaining, self.leader, trick, self.taken)
        table = TABLES[trump]
        winner = (self.leader + trick_winner(trick, table)) & 3
        points = sum(table.points[c] for c in trick) + (10 if remaining == 0 else 0)
        return Position(remaining, winner, [], self.taken + (points if winner & 1 == 0 else 0))


class DealAnalysis:
    """One deal's solvers and fixed facts; ``card_par`` is team 0's card points."""

    def __init__(
        self, hands: list[int], trump: int, forehand: int, options: Options, march_team: int
    ) -> None:
        self.hands = hands
        self.trump = trump
        self.options = options
        self.solver = Solver(hands, trump, options)
        self.march_team = march_team
        self.march_solver = Solver(hands, trump, options, count_tricks=True)
        self.start = Position(ALL, forehand, [], 0)

    def card_par(self, pos: Position, guess: int = -1) -> int:
        """Team 0's card points of the whole deal from ``pos`` on with perfect play."""
        g = guess - pos.taken if guess >= 0 else -1
        return pos.taken + self.solver.solve(pos.remaining, pos.leader, pos.trick, g)

    def at_least(self, pos: Position, bound: int) -> bool:
        """Whether team 0's card points from ``pos`` on reach ``bound``."""
        need = bound - pos.taken
        if need <= 0:
            return True
        return self.solver.at_least(pos.remaining, pos.leader, pos.trick, need)

    def march_holds(self, pos: Position, tricks_lost: bool) -> bool:
        """Whether the March team can still take every trick from ``pos`` on."""
        if tricks_lost:
            return False
        s = self.march_solver
        avail = s.available(pos.remaining, pos.trick)
        if self.march_team == 0:
            return s.at_least(pos.remaining, pos.leader, pos.trick, avail)
        return not s.at_least(pos.remaining, pos.leader, pos.trick, 1)

    def legal(self, pos: Position) -> int:
        """The legal cards of the seat to play (``play.choice``)."""
        hand = self.hands[pos.seat] & pos.remaining
        return choice(hand, pos.trick, TABLES[self.trump], self.options).legal

    def best_cards(self, pos: Position, par0: int) -> list[str]:
        """The legal cards that keep the par ``par0`` (team 0's card points)."""
        legal = self.legal(pos)
        mine = pos.seat & 1 == 0
        out = 0
        for c in range(32):
            if legal >> c & 1:
                child = pos.after(c, self.trump)
                keeps = self.at_least(child, par0) if mine else not self.at_least(child, par0 + 1)
                if keeps:
                    out |= 1 << c
        return [CARD_TEXT[c] for c in sorted_for_display(out, TABLES[self.trump])]


def _hands(record: Json) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _facts(result: Json, record: Json, card_points: tuple[int, int], march_ok: bool) -> DealFacts:
    melds = []
    for item in record.get("melds", []):
        run = run_of_cards(item["cards"])
        assert run is not None  # check() accepted the record
        melds.append(Meld(item["seat"], run))
    return DealFacts(
        result["kind"],
        result["declarer"],
        SUIT_BY_TEXT[result["trump"]],
        (record["dealer"] + 1) % 4,
        result["multiplier"],
        result["march"],
        card_points,
        march_ok,
        march_ok,
        tuple(melds),
        record.get("bella"),
        None,
    )


def _par_json(deal: DealAnalysis, facts: DealFacts, card0: int) -> tuple[list[int], Json]:
    facts.card_points = (card0, DEAL_POINTS - card0)
    scored = score_deal(facts, deal.options)
    return scored["points"], scored


def _not_analysable(result: Json) -> Json:
    problem = Problem(
        Code.BAD_FORMAT,
        "a summary record has no hands and plays: only a full record can be analysed",
        field="hands",
    )
    return _unanalysed(result, problem, code=NOT_ANALYSABLE)


def _unanalysed(result: Json, problem: Problem, *, code: str) -> Json:
    """The answer for a valid record that is not analysed: ``problem`` under ``code``."""
    error = problem.to_dict()
    error["code"] = code
    return {
        "valid": True,
        "analysed": False,
        "errors": [error],
        "mode": result["mode"],
        "rules": result["rules"],
        "engine_version": result["engine_version"],
        "analysis_version": ANALYSIS_VERSION,
    }


def _other_game(record: object) -> Json | None:
    """The answer for a record of a game without perfect-play analysis; None for a
    4-player Klammern record (or one whose rules are unknown: ``check`` says so)."""
    if not isinstance(record, dict):
        return None
    try:
        preset, options = resolve_named_rules(record.get("rules"))
    except RulesError:
        return None
    if options.game == "klammern" and options.players == 4:
        return None
    result = check_any_game(record)
    if not result["valid"]:
        return result
    problem = Problem(
        Code.BAD_FORMAT,
        f"no perfect-play analysis for this game yet ({preset}): only Klammern deals "
        "for 4 players and Klaverjas deals are analysed",
        field="rules",
        params={"preset": preset},
    )
    return _unanalysed(result, problem, code=GAME_NOT_ANALYSABLE)


def _base(result: Json) -> Json:
    return {
        "valid": True,
        "analysed": True,
        "errors": [],
        "mode": "full",
        "trump": result["trump"],
        "declarer": result["declarer"],
        "playing_team": result["playing_team"],
        "march": result["march"],
        "actual": {
            k: result[k]
            for k in ("points", "outcome", "winner_team", "small_points", "match_points")
        },
    }


def _thrown_in(result: Json) -> Json:
    out = _base(result)
    out.update(
        {
            "par": [0, 0],
            "par_card_points": [0, 0],
            "par_outcome": "thrown_in",
            "par_winner_team": None,
            "par_small_points": [0, 0],
            "par_match_points": [0, 0],
            "par_march": None,
            "plays": [],
            "revoke": None,
        }
    )
    return out


def _play_entry(
    deal: DealAnalysis,
    facts: DealFacts,
    index: int,
    pos: Position,
    card: int,
    before0: int,
    best_cards: bool,
) -> tuple[Json, Position, int]:
    seat = pos.seat
    child = pos.after(card, deal.trump)
    after0 = deal.card_par(child, before0)
    par, _ = _par_json(deal, facts, after0)
    cost = before0 - after0 if seat & 1 == 0 else after0 - before0
    entry: Json = {
        "play": index,
        "trick": index // 4 + 1,
        "seat": seat,
        "card": CARD_TEXT[card],
        "par": par,
        "cost": cost,
    }
    if best_cards:
        entry["best"] = deal.best_cards(pos, before0)
    return entry, child, after0


def _analyse_valid(record: Json, result: Json, best_cards: bool) -> Json:
    options = resolve_rules(record.get("rules"))
    trump = SUIT_BY_TEXT[result["trump"]]
    playing = result["playing_team"]
    forehand = (record["dealer"] + 1) % 4
    deal = DealAnalysis(_hands(record), trump, forehand, options, playing)
    march = bool(result["march"])
    pos = deal.start
    card0 = deal.card_par(pos, DEAL_POINTS // 2)
    march_ok = deal.march_holds(pos, False) if march else False
    facts = _facts(result, record, (card0, DEAL_POINTS - card0), march_ok)
    par, scored = _par_json(deal, facts, card0)
    out = _base(result)
    out.update(
        {
            "par": par,
            "par_card_points": [card0, DEAL_POINTS - card0],
            "par_outcome": scored["outcome"],
            "par_winner_team": scored["winner_team"],
            "par_small_points": scored["small_points"],
            "par_match_points": scored["match_points"],
            "par_march": march_ok if march else None,
        }
    )
    plays: list[Json] = []
    before0 = card0
    lost = False
    for index, text in enumerate(record["plays"]):
        card = CARD_BY_TEXT[text]
        entry, child, before0 = _play_entry(deal, facts, index, pos, card, before0, best_cards)
        if march:
            if not child.trick and not lost:
                last = result["tricks"][index // 4]
                lost = last["winner"] & 1 != playing
            entry["march"] = deal.march_holds(child, lost)
        plays.append(entry)
        pos = child
    out["plays"] = plays
    revoke = record.get("revoke")
    out["revoke"] = None
    if revoke is not None:
        out["revoke"] = {
            "play": len(plays),
            "seat": revoke["seat"],
            "card": CARD_TEXT[CARD_BY_TEXT[revoke["card"]]],
            "best": deal.best_cards(pos, before0),
        }
    return out


def analyse(record: object, *, best_cards: bool = True) -> Json:
    """The par analysis of one deal record (see the module docstring); never raises.

    ``best_cards=False`` leaves out each play's ``best`` list (about half the time)."""
    klaverjas = analyse_klaverjas(record, best_cards=best_cards, version=ANALYSIS_VERSION)
    if klaverjas is not None:
        return klaverjas
    other = _other_game(record)
    if other is not None:
        return other
    result = check(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full":
        return _not_analysable(result)
    assert isinstance(record, dict)
    try:
        if result["outcome"] == "thrown_in":
            out = _thrown_in(result)
        else:
            out = _analyse_valid(record, result, best_cards)
    except Exception as exc:  # noqa: BLE001 - analyse() must answer every input
        return unchecked(
            Problem(Code.INTERNAL_ERROR, f"the analysis failed on this record: {exc!r}")
        )
    out["rules"] = result["rules"]
    out["engine_version"] = result["engine_version"]
    out["analysis_version"] = ANALYSIS_VERSION
    return out


def deal_par(hands: list[int], *, trump: int, forehand: int, options: Options) -> int:
    """Team 0's card points (cards, Jappa/Mie, last trick; 164 in all) with perfect play
    from the start of a deal: ``hands`` are the four dealt hands as masks."""
    return Solver(hands, trump, options).solve(ALL, forehand, [], DEAL_POINTS // 2)


__all__ = [
    "ANALYSIS_VERSION",
    "GAME_NOT_ANALYSABLE",
    "NOT_ANALYSABLE",
    "DealAnalysis",
    "analyse",
    "deal_par",
]
