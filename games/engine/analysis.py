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
- a Klaverjas record is analysed by ``klaverjas_analysis``, a Belote record by
  ``belote_analysis`` (same shape, the margin search of ``klaverjas_solver``), a Belote
  Contrée record by ``contree_analysis`` (Belote's, the contract as bid), a record
  for 2 or 3 players by ``solo_analysis`` (same shape, the declarer against the others);
- a valid record of a game none of these analyses (``OTHER_GAMES``; the game's
  profile says so with ``analysable``, and a test holds the two together) gets
  ``valid: true``, ``analysed: false`` and one error with code ``game_not_analysable``
  (an invalid one gives its ``check`` result);
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

from .analysis_answers import (
    NOT_ANALYSABLE,
    first_keeping,
    stamped,
    summary_answer,
    unanalysed,
)
from .belote_analysis import analyse_belote, belote_line, belote_options
from .cards import (
    CARD_BY_TEXT,
    CARD_TEXT,
    DEAL_POINTS,
    SUIT_BY_TEXT,
    SUIT_LETTERS,
    TABLES,
    sorted_for_display,
)
from .contree_analysis import analyse_contree, contree_line, contree_options
from .dispatch import check as check_any_game
from .errors import Code, Problem, RulesError
from .klaverjas_analysis import analyse_klaverjas, klaverjas_line, klaverjas_options
from .melds import Meld, run_of_cards
from .play import choice, trick_winner
from .record import check, unchecked
from .rules import Options, resolve_named_rules, resolve_rules
from .scoring import DealFacts, score_deal
from .solo_analysis import analyse_solo, solo_line, solo_options
from .solver import Solver

Json = dict[str, Any]

#: The error code of a valid record of a game the solver does not play (yet).
GAME_NOT_ANALYSABLE: Final = "game_not_analysable"
ANALYSIS_VERSION: Final = "1.5.0"
ALL: Final = (1 << 32) - 1
#: The games analysed beside 4-player Klammern: the options of a record of the game (None
#: for another game's record), its analysis and its ``perfect_line``.
OTHER_GAMES: Final = (
    (klaverjas_options, analyse_klaverjas, klaverjas_line),
    (belote_options, analyse_belote, belote_line),
    (contree_options, analyse_contree, contree_line),
    (solo_options, analyse_solo, solo_line),
)


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

    def child_value(self, pos: Position, card: int, par0: int) -> int:
        """Team 0's card points of the whole deal after the seat to play plays ``card`` at
        ``pos``, whose par is ``par0``: no card beats the par for the side to play, so
        the par bounds the search from that side and is its first test."""
        child = pos.after(card, self.trump)
        g = par0 - child.taken
        if pos.seat & 1 == 0:
            value = self.solver.solve(child.remaining, child.leader, child.trick, g, upper=g)
        else:
            value = self.solver.solve(child.remaining, child.leader, child.trick, g + 1, lower=g)
        return child.taken + value

    def card_costs(self, pos: Position, par0: int) -> dict[int, int]:
        """Each legal card's cost (deal points) against the best card for its side. Cards
        the solver counts as equivalent (``Solver.distinct``) share one search."""
        legal = self.legal(pos)
        sign = 1 if pos.seat & 1 == 0 else -1
        others = pos.remaining & ~self.hands[pos.seat]
        for c in pos.trick:
            others |= 1 << c
        classes = self.equivalent(legal, others)
        cost: dict[int, int] = {}
        for members in classes:
            value = par0 if len(classes) == 1 else self.child_value(pos, members[0], par0)
            for c in members:
                cost[c] = sign * (par0 - value)
        return {c: cost[c] for c in sorted_for_display(legal, TABLES[self.trump])}

    def equivalent(self, cards: int, others: int) -> list[list[int]]:
        """``cards`` in classes of equivalent cards (as ``Solver.distinct`` skips them)."""
        solver = self.solver
        classes: list[list[int]] = []
        for s in range(4):
            prev = -1
            for c in solver.order[s]:
                if cards >> c & 1:
                    if solver.value[c] == prev:
                        classes[-1].append(c)
                    else:
                        classes.append([c])
                    prev = solver.value[c]
                elif others >> c & 1:
                    prev = -1
        return classes

    def line(self, pos: Position, par0: int) -> list[Json]:
        """A perfect line from ``pos`` (par ``par0``) to the end of the deal: at each turn
        the strongest card (in display order) that keeps the par."""
        out: list[Json] = []
        while pos.remaining:
            card = self.keeping_card(pos, par0)
            out.append({"seat": pos.seat, "card": CARD_TEXT[card]})
            pos = pos.after(card, self.trump)
        return out

    def keeping_card(self, pos: Position, par0: int) -> int:
        """The first card in display order that keeps the par ``par0`` (equivalent cards
        tested once, ``first_keeping``)."""
        legal = self.legal(pos)
        return first_keeping(
            sorted_for_display(legal, TABLES[self.trump]),
            self.equivalent(legal, self.others(pos)),
            lambda c: self.keeps(pos, c, par0),
        )

    def keeps(self, pos: Position, card: int, par0: int) -> bool:
        """Whether playing ``card`` keeps the par ``par0`` (the position's value)."""
        child = pos.after(card, self.trump)
        if pos.seat & 1 == 0:
            return self.at_least(child, par0)
        return not self.at_least(child, par0 + 1)

    def others(self, pos: Position) -> int:
        """The cards of the other seats at ``pos``: unplayed or on the table."""
        others = pos.remaining & ~self.hands[pos.seat]
        for c in pos.trick:
            others |= 1 << c
        return others

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
    return summary_answer(result, ANALYSIS_VERSION)


def _unanalysed(result: Json, problem: Problem, *, code: str) -> Json:
    """The answer for a valid record that is not analysed: ``problem`` under ``code``."""
    return unanalysed(result, problem, code=code, version=ANALYSIS_VERSION)


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
        f"no perfect-play analysis for this game yet ({preset})",
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
    costs = deal.card_costs(pos, before0) if best_cards else {}
    if card in costs:
        after0 = before0 - costs[card] if seat & 1 == 0 else before0 + costs[card]
    else:
        after0 = deal.card_par(child, before0)
    par, scored = _par_json(deal, facts, after0)
    cost = before0 - after0 if seat & 1 == 0 else after0 - before0
    entry: Json = {
        "play": index,
        "trick": index // 4 + 1,
        "seat": seat,
        "card": CARD_TEXT[card],
        "par": par,
        "par_outcome": scored["outcome"],
        "cost": cost,
    }
    if best_cards:
        entry["best"] = [CARD_TEXT[c] for c, v in costs.items() if v == 0]
        entry["values"] = {CARD_TEXT[c]: v for c, v in costs.items()}
        if cost > 0:
            entry["line"] = deal.line(pos, before0)
    return entry, child, after0


def _makeable(deal: DealAnalysis, record: Json, result: Json, card0: int) -> list[Json]:
    """What each trump would give each playing team with perfect play (the points game:
    no March, multiplier 1): the record's melds as announced; Bella as announced for the
    deal's trump, else for whoever holds King and Queen of that trump. The row of the
    deal's own trump and playing team is the par."""
    rows = []
    for trump in range(4):
        if trump == deal.trump:
            points0 = card0
        else:
            points0 = deal_par(
                deal.hands, trump=trump, forehand=deal.start.leader, options=deal.options
            )
        for team in (0, 1):
            facts = _facts(result, record, (points0, DEAL_POINTS - points0), False)
            facts.declarer, facts.trump, facts.march, facts.multiplier = team, trump, False, 1
            if trump != deal.trump:
                facts.bella = _bella_holder(deal.hands, trump)
            scored = score_deal(facts, deal.options)
            rows.append(
                {
                    "trump": SUIT_LETTERS[trump],
                    "team": team,
                    "points": scored["points"],
                    "card_points": [points0, DEAL_POINTS - points0],
                    "outcome": scored["outcome"],
                }
            )
    return rows


def _bella_holder(hands: list[int], trump: int) -> int | None:
    """The seat holding King and Queen of ``trump``, if one does."""
    table = TABLES[trump]
    pair = 1 << table.king | 1 << table.queen
    return next((seat for seat, hand in enumerate(hands) if hand & pair == pair), None)


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
            # a March is won or lost on the tricks, not on the points par
            entry["par_outcome"] = "march_won" if entry["march"] else "march_lost"
        plays.append(entry)
        pos = child
    out["plays"] = plays
    if best_cards:
        out["makeable"] = _makeable(deal, record, result, card0)
    revoke = record.get("revoke")
    out["revoke"] = None
    if revoke is not None:
        out["revoke"] = {
            "play": len(plays),
            "seat": revoke["seat"],
            "card": CARD_TEXT[CARD_BY_TEXT[revoke["card"]]],
            "best": deal.best_cards(pos, before0),
        }
        if best_cards:
            out["revoke"]["line"] = deal.line(pos, before0)
    return out


def analyse(record: object, *, best_cards: bool = True) -> Json:
    """The par analysis of one deal record (see the module docstring); never raises.

    ``best_cards=False`` leaves out each play's ``best`` list (about half the time)."""
    for _, analyse_game, _ in OTHER_GAMES:
        answer = analyse_game(record, best_cards=best_cards, version=ANALYSIS_VERSION)
        if answer is not None:
            return answer
    other = _other_game(record)
    if other is not None:
        return other
    result = check(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full":
        return _not_analysable(result)
    assert isinstance(record, dict)
    if result["outcome"] == "thrown_in":
        return stamped(result, ANALYSIS_VERSION, lambda: _thrown_in(result))
    return stamped(result, ANALYSIS_VERSION, lambda: _analyse_valid(record, result, best_cards))


#: The error code of a position that is not in the record (``perfect_line``'s ``after``).
BAD_POSITION: Final = "bad_position"
#: The error code of a card the seat to play cannot play there (``perfect_line``'s ``card``).
BAD_CARD: Final = "bad_card"


def perfect_line(record: object, *, after: object, card: object = None) -> Json:
    """The rest of the deal with perfect play from the position after the record's first
    ``after`` plays: ``{"valid", "analysed", "errors", "after", "par", "line"}``, each
    line entry ``{"play", "trick", "seat", "card"}``, ``par`` the deal points with
    perfect play from there. With ``card`` (a legal card of the seat to play there) the
    line starts with that card instead, ``par`` is the par after it and ``cost`` what it
    costs against the best. A record ``analyse`` does not analyse gets ``analyse``'s
    answer; a position outside the record one error with code ``bad_position``, a card
    that cannot be played there one with code ``bad_card``. Never raises.

    Only the line is searched: the record is checked, not analysed play by play."""
    out = check_any_game(record)
    if not (out["valid"] and out["mode"] == "full" and out.get("outcome") != "thrown_in"):
        return analyse(record, best_cards=False)  # nothing to search: cheap
    if not _searched(record):
        return analyse(record, best_cards=False)  # game_not_analysable
    assert isinstance(record, dict)
    plays = len(record["plays"])
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= plays:
        problem = Problem(
            Code.BAD_FORMAT,
            f"there is no position after {after!r} plays: the record has {plays} plays",
            field="after",
            params={"after": str(after), "plays": plays},
        )
        return _unanalysed(out, problem, code=BAD_POSITION)
    try:
        return _line_from(record, out, int(after), card)
    except Exception as exc:  # noqa: BLE001 - perfect_line() must answer every input
        return unchecked(Problem(Code.INTERNAL_ERROR, f"the line failed on this record: {exc!r}"))


def _searched(record: object) -> bool:
    """Whether ``analyse`` searches this (valid) record's game: 4-player Klammern or a game
    of ``OTHER_GAMES``."""
    if any(game_options(record) is not None for game_options, _, _ in OTHER_GAMES):
        return True
    if not isinstance(record, dict):
        return False
    try:
        options = resolve_named_rules(record.get("rules"))[1]
    except RulesError:
        return False
    return options.game == "klammern" and options.players == 4


def _line_from(record: Json, analysed: Json, after: int, card: object) -> Json:
    for game_options, _, game_line in OTHER_GAMES:
        other = game_options(record)
        if other is not None:
            return game_line(
                record,
                analysed,
                other,
                after,
                card,
                refuse=lambda seat: _unanalysed(analysed, _bad_card(card, seat), code=BAD_CARD),
            )
    options = resolve_rules(record.get("rules"))
    trump = SUIT_BY_TEXT[analysed["trump"]]
    forehand = (record["dealer"] + 1) % 4
    deal = DealAnalysis(_hands(record), trump, forehand, options, analysed["playing_team"])
    pos = deal.start
    for text in record["plays"][:after]:
        pos = pos.after(CARD_BY_TEXT[text], trump)
    par0 = deal.card_par(pos, DEAL_POINTS // 2)
    out: Json = {"valid": True, "analysed": True, "errors": [], "after": after}
    first: list[Json] = []
    if card is not None:
        played = CARD_BY_TEXT.get(card, -1) if isinstance(card, str) else -1
        if played < 0 or not deal.legal(pos) >> played & 1:
            return _unanalysed(analysed, _bad_card(card, pos.seat), code=BAD_CARD)
        value = deal.child_value(pos, played, par0)
        out["card"] = CARD_TEXT[played]
        out["cost"] = par0 - value if pos.seat & 1 == 0 else value - par0
        first = [{"seat": pos.seat, "card": CARD_TEXT[played]}]
        pos, par0 = pos.after(played, trump), value
    steps = first + deal.line(pos, par0)
    out["line"] = [
        {"play": after + i, "trick": (after + i) // 4 + 1, **step} for i, step in enumerate(steps)
    ]
    facts = _facts(check(record), record, (par0, DEAL_POINTS - par0), False)
    out["par"] = _par_json(deal, facts, par0)[0]
    return out


def _bad_card(card: object, seat: int) -> Problem:
    return Problem(
        Code.BAD_FORMAT,
        f"seat {seat} cannot play {card!r} at this position: it is not one of its legal cards",
        field="card",
        params={"card": str(card), "seat": seat},
    )


def deal_par(hands: list[int], *, trump: int, forehand: int, options: Options) -> int:
    """Team 0's card points (cards, Jappa/Mie, last trick; 164 in all) with perfect play
    from the start of a deal: ``hands`` are the four dealt hands as masks."""
    return Solver(hands, trump, options).solve(ALL, forehand, [], DEAL_POINTS // 2)


__all__ = [
    "ANALYSIS_VERSION",
    "BAD_CARD",
    "BAD_POSITION",
    "GAME_NOT_ANALYSABLE",
    "NOT_ANALYSABLE",
    "DealAnalysis",
    "analyse",
    "deal_par",
    "perfect_line",
]
