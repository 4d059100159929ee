"""Par analysis of a full Klaverjas deal record (Rotterdam and Amsterdam rules).

``analyse_klaverjas(record)`` answers a record of a Klaverjas preset (None for any other,
which ``analysis.analyse`` handles) in the shape of ``analysis.analyse``'s answer for
Klammern: the par with perfect play by both teams, all four hands visible, its outcome,
and after every recorded play the par, the play's cost and the cards that kept the par.

What "perfect play" is here: each team maximises its points against the other's, the
**margin** ``klaverjas_solver`` searches (team 0's points minus team 1's: cards, last
trick, roem of the tricks taken, pit). Made or nat is a threshold on that margin: the
makers make the deal when their points are more than the defenders' (RULES.md), that is
when their margin is at least 1, so the par outcome is exact. The par's points are those
of one perfect line from the position (the first perfect card, in display order, at each
turn), scored as ``klaverjas.score_klaverjas`` scores a played deal; lines of the same
margin can split it differently (say 10 card points more for each team, or 20 roem for
one and 20 card points for the other).

Decisions (also in DECISIONS.md):

- ``cost`` of a play is what it moved the margin against its team (a 10-point card given
  away costs 20: 10 less for the team, 10 more for the other); ``margin`` of each play
  and ``par_margin`` are team 0's margin with perfect play from there;
- as for Klammern (docs/analysis.md), each play has its ``par_outcome``, ``values`` (every
  legal card's cost, in the same margin) and, when costly, the perfect ``line`` from the
  position before it; ``klaverjas_line`` is ``analysis.perfect_line`` for Klaverjas;
- the makeable table (``makeable``, with best cards): for each trump suit and each team
  as makers, the dealt hands played perfectly from forehand's lead. The row of the deal's
  trump and makers is the par, and both rows of the deal's trump carry its perfect line's
  points (both teams maximise their margin whoever plays). For the three other trumps a
  row says whether that team as makers makes it (made or nat, exact: two zero-window
  tests of the margin at the threshold) without the points: their exact margins would
  triple the analysis's time (docs/benchmarks.md);
- an invalid record gives ``check``'s result unchanged; a summary record has no hands:
  ``analysed: false`` with ``summary_not_analysable`` (as for Klammern);
- a revoke: the par is the deal's, played out legally to the end; the plays before the
  revoke are analysed as usual and the revoke is reported with the cards that should
  have been played, not costed (as for Klammern);
- Klaverjas has no March, small points or match points per deal: ``march`` is false,
  ``par_march``, ``par_small_points`` and ``par_match_points`` are null; the par and the
  actual result also give the roem (the pit's 100 included) and the pit.

It does no I/O and never raises (an engine bug becomes an ``internal_error``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .analysis_answers import first_keeping, stamped, summary_answer
from .cards import (
    CARD_BY_TEXT,
    CARD_TEXT,
    LAST_TRICK_BONUS,
    SUIT_BY_TEXT,
    SUIT_LETTERS,
    cards_of,
    sorted_for_display,
)
from .dispatch import check as check_any_game
from .errors import RulesError
from .klaverjas import KLAVERJAS_TABLES, PIT_BONUS, score_klaverjas
from .klaverjas_solver import ALL_CARDS, KlaverjasSolver
from .play import choice, trick_winner
from .rules import Options, resolve_named_rules
from .seatwalk import trick_roem

Json = dict[str, Any]

GAME: Final = "klaverjas"


class Position:
    """Where a deal stands between two plays, with what each team took so far."""

    def __init__(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        cards: tuple[int, int],
        roem: tuple[int, int],
        tricks: tuple[int, int],
    ) -> None:
        self.remaining = remaining
        self.leader = leader
        self.trick = trick
        #: Per team: card points (last trick included), roem (no pit), tricks taken.
        self.cards = cards
        self.roem = roem
        self.tricks = tricks

    @property
    def seat(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) & 3

    @property
    def clean(self) -> bool:
        """Whether every trick taken so far went to the leader's team (the pit is open)."""
        return self.tricks[1 - (self.leader & 1)] == 0

    @property
    def pit(self) -> int | None:
        """The team that took all 8 tricks, once the deal is over."""
        return next((t for t in (0, 1) if self.tricks[t] == 8), None)

    @property
    def margin(self) -> int:
        """Team 0's points minus team 1's so far (the pit once the deal is over)."""
        own = [self.cards[t] + self.roem[t] for t in (0, 1)]
        pit = self.pit
        if pit is not None:
            own[pit] += PIT_BONUS
        return own[0] - own[1]

    def after(self, card: int, trump: int) -> Position:
        """The position after the next seat plays ``card``."""
        remaining = self.remaining & ~(1 << card)
        trick = [*self.trick, card]
        if len(trick) < 4:
            return Position(remaining, self.leader, trick, self.cards, self.roem, self.tricks)
        table = KLAVERJAS_TABLES[trump]
        winner = (self.leader + trick_winner(trick, table)) & 3
        team = winner & 1
        points = sum(table.points[c] for c in trick) + (LAST_TRICK_BONUS if remaining == 0 else 0)
        cards, roem, tricks = list(self.cards), list(self.roem), list(self.tricks)
        cards[team] += points
        roem[team] += trick_roem(trick, table)
        tricks[team] += 1
        return Position(
            remaining, winner, [], (cards[0], cards[1]), (roem[0], roem[1]), (tricks[0], tricks[1])
        )


class KlaverjasDeal:
    """One deal's solver and the margins of its positions (team 0's, whole deal)."""

    def __init__(self, hands: list[int], trump: int, forehand: int, options: Options) -> None:
        self.hands = hands
        self.trump = trump
        self.options = options
        self.solver = KlaverjasSolver(hands, trump, options)
        self.start = Position(ALL_CARDS, forehand, [], (0, 0), (0, 0), (0, 0))

    def value(self, pos: Position, guess: int = 0) -> int:
        """Team 0's margin of the whole deal from ``pos`` on with perfect play."""
        if pos.remaining == 0:
            return pos.margin
        g, parity = guess - pos.margin, pos.margin & 1  # the deal's margin is even
        rest = self.solver.solve(pos.remaining, pos.leader, pos.trick, pos.clean, g, parity)
        return pos.margin + rest

    def at_least(self, pos: Position, bound: int) -> bool:
        """Whether team 0's margin of the whole deal from ``pos`` on reaches ``bound``."""
        if pos.remaining == 0:
            return pos.margin >= bound
        need = bound - pos.margin
        return self.solver.at_least(pos.remaining, pos.leader, pos.trick, pos.clean, need)

    def keeps(self, pos: Position, card: int, par: int) -> bool:
        """Whether playing ``card`` keeps team 0's margin ``par`` (the position's value)."""
        child = pos.after(card, self.trump)
        if pos.seat & 1 == 0:
            return self.at_least(child, par)
        return not self.at_least(child, par + 1)

    def legal(self, pos: Position) -> int:
        """The legal cards of the seat to play (``play.choice``)."""
        hand = self.hands[pos.seat] & pos.remaining
        return choice(hand, pos.trick, KLAVERJAS_TABLES[self.trump], self.options).legal

    def child_value(self, pos: Position, card: int, par: int) -> int:
        """Team 0's margin of the whole deal after the seat to play plays ``card`` at
        ``pos``, whose value is ``par``: no card beats the par for the side to play, so
        the par bounds the search from that side and is its first probe."""
        child = pos.after(card, self.trump)
        if child.remaining == 0:
            return child.margin
        g, parity = par - child.margin, child.margin & 1
        args = (child.remaining, child.leader, child.trick, child.clean, g, parity)
        if pos.seat & 1 == 0:
            return child.margin + self.solver.chase(*args, upper=g)
        return child.margin + self.solver.chase(*args, lower=g)

    def card_costs(self, pos: Position, par: int) -> dict[int, int]:
        """Each legal card's cost (margin) against the best card for its side, in display
        order. Cards the solver counts as equivalent (``KlaverjasSolver.distinct``) share
        one search."""
        legal = self.legal(pos)
        sign = 1 if pos.seat & 1 == 0 else -1
        others = pos.remaining & ~self.hands[pos.seat]
        for c in pos.trick:
            others |= 1 << c
        classes = self.solver.equivalent(legal, others)
        cost: dict[int, int] = {}
        for members in classes:
            value = par if len(classes) == 1 else self.child_value(pos, members[0], par)
            for c in members:
                cost[c] = sign * (par - value)
        return {c: cost[c] for c in sorted_for_display(legal, KLAVERJAS_TABLES[self.trump])}

    def steps(self, pos: Position, cards: list[int]) -> list[Json]:
        """``cards`` played from ``pos`` as ``{"seat", "card"}`` steps."""
        out: list[Json] = []
        for card in cards:
            out.append({"seat": pos.seat, "card": CARD_TEXT[card]})
            pos = pos.after(card, self.trump)
        return out

    def best_cards(self, pos: Position, par: int) -> list[str]:
        """The legal cards that keep the par ``par``."""
        legal = self.legal(pos)
        out = 0
        for c in cards_of(legal):
            if self.keeps(pos, c, par):
                out |= 1 << c
        return [CARD_TEXT[c] for c in sorted_for_display(out, KLAVERJAS_TABLES[self.trump])]

    def line(self, pos: Position, par: int) -> list[int]:
        """One perfect line from ``pos`` to the end: at each turn the first card in
        display order that keeps the par."""
        cards: list[int] = []
        while pos.remaining:
            card = self.keeping_card(pos, par)
            cards.append(card)
            pos = pos.after(card, self.trump)
        return cards

    def keeping_card(self, pos: Position, par: int) -> int:
        """The first card in display order that keeps the value ``par`` (equivalent cards
        tested once, ``first_keeping``)."""
        legal = self.legal(pos)
        others = pos.remaining & ~self.hands[pos.seat]
        for c in pos.trick:
            others |= 1 << c
        return first_keeping(
            sorted_for_display(legal, KLAVERJAS_TABLES[self.trump]),
            self.solver.equivalent(legal, others),
            lambda c: self.keeps(pos, c, par),
        )

    def play_out(self, pos: Position, line: list[int]) -> Position:
        """The position at the end of ``line`` played from ``pos``."""
        for card in line:
            pos = pos.after(card, self.trump)
        return pos


def _scored(end: Position, makers: int) -> Json:
    return score_klaverjas(
        makers=makers, card_points=end.cards, roem=end.roem, tricks_won=end.tricks, revoke_team=None
    )


def _base(result: Json) -> Json:
    return {
        "valid": True,
        "analysed": True,
        "errors": [],
        "mode": "full",
        "trump": result["trump"],
        "declarer": result["declarer"],
        "playing_team": result["playing_team"],
        "march": False,
        "actual": {
            "points": result["points"],
            "outcome": result["outcome"],
            "winner_team": result["winner_team"],
            "small_points": None,
            "match_points": None,
            "card_points": result["card_points"],
            "roem": result["roem"],
            "pit": result["pit"],
        },
    }


def _par_fields(scored: Json, margin: int) -> Json:
    return {
        "par": scored["points"],
        "par_card_points": scored["card_points"],
        "par_roem": scored["roem"],
        "par_pit": scored["pit"],
        "par_margin": margin,
        "par_outcome": scored["outcome"],
        "par_winner_team": scored["winner_team"],
        "par_small_points": None,
        "par_match_points": None,
        "par_march": None,
    }


class _Walk:
    """The recorded plays, each with the par after it (the perfect line kept along)."""

    def __init__(self, deal: KlaverjasDeal, makers: int, best_cards: bool) -> None:
        self.deal = deal
        self.makers = makers
        self.best_cards = best_cards
        self.pos = deal.start
        self.margin = deal.value(self.pos)
        self.line = deal.line(self.pos, self.margin)

    def par(self) -> Json:
        """The scored par of the current position (its perfect line played out)."""
        return _scored(self.deal.play_out(self.pos, self.line), self.makers)

    def play(self, index: int, card: int) -> Json:
        """Analyse the next recorded play and move past it."""
        deal, pos, before = self.deal, self.pos, self.margin
        child = pos.after(card, deal.trump)
        costs = deal.card_costs(pos, before) if self.best_cards else {}
        kept = bool(self.line) and self.line[0] == card
        if kept:
            after = before
        elif card in costs:
            after = before - costs[card] if pos.seat & 1 == 0 else before + costs[card]
        else:
            after = deal.value(child, before)
        cost = before - after if pos.seat & 1 == 0 else after - before
        line_before = self.line
        self.pos, self.margin = child, after
        self.line = line_before[1:] if kept else deal.line(child, after)
        par = self.par()
        entry: Json = {
            "play": index,
            "trick": index // 4 + 1,
            "seat": pos.seat,
            "card": CARD_TEXT[card],
            "par": par["points"],
            "par_outcome": par["outcome"],
            "margin": after,
            "cost": cost,
        }
        if self.best_cards:
            entry["best"] = [CARD_TEXT[c] for c, v in costs.items() if v == 0]
            entry["values"] = {CARD_TEXT[c]: v for c, v in costs.items()}
            if cost > 0:
                entry["line"] = deal.steps(pos, line_before)
        return entry


def _makeable_row(trump: int, team: int, end: Position, margin: int) -> Json:
    scored = _scored(end, team)
    return {
        "trump": SUIT_LETTERS[trump],
        "team": team,
        "points": scored["points"],
        "card_points": scored["card_points"],
        "roem": scored["roem"],
        "pit": scored["pit"],
        "margin": margin,
        "outcome": scored["outcome"],
    }


def _outcome_row(trump: int, team: int, made: bool) -> Json:
    return {
        "trump": SUIT_LETTERS[trump],
        "team": team,
        "points": None,
        "card_points": None,
        "roem": None,
        "pit": None,
        "margin": None,
        "outcome": "made" if made else "failed",
    }


def makeable(deal: KlaverjasDeal, par_end: Position, par_margin: int) -> list[Json]:
    """What each trump would give each team as makers with perfect play (module
    docstring), trump by trump (C S H D), team 0 then team 1; ``par_end`` and
    ``par_margin`` are the end of the deal's own perfect line from the start and its
    margin, so the deal's own trump costs no search. The other trumps give the outcome
    only: team 0 makes when its margin is at least 1, team 1 when it is at most -1."""
    rows: list[Json] = []
    for trump in range(4):
        if trump == deal.trump:
            rows.extend(_makeable_row(trump, team, par_end, par_margin) for team in (0, 1))
            continue
        other = KlaverjasDeal(deal.hands, trump, deal.start.leader, deal.options)
        zero_makes = other.at_least(other.start, 1)
        one_makes = not zero_makes and not other.at_least(other.start, 0)
        rows.append(_outcome_row(trump, 0, zero_makes))
        rows.append(_outcome_row(trump, 1, one_makes))
    return rows


def _hands(record: Json) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _analyse_valid(record: Json, result: Json, options: Options, best_cards: bool) -> Json:
    trump = SUIT_BY_TEXT[result["trump"]]
    makers = result["playing_team"]
    deal = KlaverjasDeal(_hands(record), trump, (record["dealer"] + 1) % 4, options)
    walk = _Walk(deal, makers, best_cards)
    out = _base(result)
    out.update(_par_fields(walk.par(), walk.margin))
    if best_cards:
        out["makeable"] = makeable(deal, deal.play_out(walk.pos, walk.line), walk.margin)
    out["plays"] = [walk.play(i, CARD_BY_TEXT[t]) for i, t in enumerate(record["plays"])]
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


def klaverjas_options(record: object) -> Options | None:
    """The options of a record of a Klaverjas preset; None for any other record."""
    if not isinstance(record, dict):
        return None
    try:
        _, options = resolve_named_rules(record.get("rules"))
    except RulesError:
        return None
    return options if options.game == GAME else None


def analyse_klaverjas(record: object, *, best_cards: bool = True, version: str) -> Json | None:
    """The par analysis of a Klaverjas record (module docstring), None for a record of
    another game; ``version`` is the analysis version to report. Never raises."""
    options = klaverjas_options(record)
    if options is None:
        return None
    assert isinstance(record, dict)
    result = check_any_game(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full":
        return summary_answer(result, version)
    return stamped(result, version, lambda: _analyse_valid(record, result, options, best_cards))


def klaverjas_line(
    record: Json,
    analysed: Json,
    options: Options,
    after: int,
    card: object,
    *,
    refuse: Callable[[int], Json],
) -> Json:
    """``analysis.perfect_line``'s answer for a Klaverjas record (``analysed`` is its
    ``check`` result, ``after`` a position of the record): the perfect line from there, ``par``
    the deal points with perfect play; with ``card`` the line starts with it and ``cost``
    is its cost (margin). ``refuse(seat)`` answers a ``card`` that seat cannot play."""
    trump = SUIT_BY_TEXT[analysed["trump"]]
    deal = KlaverjasDeal(_hands(record), trump, (record["dealer"] + 1) % 4, options)
    pos = deal.start
    for text in record["plays"][:after]:
        pos = pos.after(CARD_BY_TEXT[text], trump)
    par = deal.value(pos)
    out: Json = {"valid": True, "analysed": True, "errors": [], "after": after}
    first: list[Json] = []
    if card is not None:
        played = CARD_BY_TEXT.get(card, -1) if isinstance(card, str) else -1
        if played < 0 or not deal.legal(pos) >> played & 1:
            return refuse(pos.seat)
        value = deal.child_value(pos, played, par)
        out["card"] = CARD_TEXT[played]
        out["cost"] = par - value if pos.seat & 1 == 0 else value - par
        first = deal.steps(pos, [played])
        pos, par = pos.after(played, trump), value
    line = deal.line(pos, par)
    steps = first + deal.steps(pos, line)
    out["line"] = [
        {"play": after + i, "trick": (after + i) // 4 + 1, **step} for i, step in enumerate(steps)
    ]
    out["par"] = _scored(deal.play_out(pos, line), analysed["playing_team"])["points"]
    return out


def board_par(hands: list[int], *, trump: int, forehand: int, options: Options) -> Json:
    """The par of a Klaverjas deal from its dealt hands (a duplicate board played as a
    summary), forehand's team making: one perfect line from the start played out and
    scored as ``analyse_klaverjas`` scores a full record's ``par`` (``points``, ``roem``,
    ``outcome``, ...)."""
    deal = KlaverjasDeal(hands, trump, forehand, options)
    line = deal.line(deal.start, deal.value(deal.start))
    return _scored(deal.play_out(deal.start, line), forehand % 2)


def deal_margin(hands: list[int], *, trump: int, forehand: int, options: Options) -> int:
    """Team 0's margin (points minus team 1's, roem and pit included; 162 card points in
    all) with perfect play from the start of a Klaverjas deal."""
    return KlaverjasSolver(hands, trump, options).solve(ALL_CARDS, forehand, [], True, 0, 0)


__all__ = [
    "KlaverjasDeal",
    "Position",
    "analyse_klaverjas",
    "board_par",
    "deal_margin",
    "klaverjas_line",
    "makeable",
]
