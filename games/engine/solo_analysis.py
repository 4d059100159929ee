"""Par analysis of a full record of Klammern for 2 or 3 players (``klammern-2``/``-3``).

``analyse_solo(record)`` answers a record of those presets (None for any other, which
``analysis.analyse`` handles) in the shape of ``analysis.analyse``'s answer: the par with
perfect play, all hands visible, its outcome, and after every recorded play the par, the
play's cost, every legal card's value and the cards that kept the par; a ``makeable``
table; ``solo_line`` is ``analysis.perfect_line`` for these presets.

What "perfect play" is here (DECISIONS.md "Perfect play with 2 or 3 players"): the
declarer against the others together, as a defence: the declarer maximises the
**value**, the declarer's own points from the tricks (card points with Jappa and Mie,
the last trick's 10) plus the declarer's melds when the declarer holds the best meld and
takes a trick; the others minimise it (``solo_solver``). Bella is a fixed addition. With
2 players this is exact for made or failed: the declarer's margin over the opponent is
a non-decreasing function of the value. With 3 players the defence plays as one side.
The par's points and outcome are those of one perfect line from the position (the first
card in display order that keeps the value, at each turn) played out and scored by
``solo.score_solo``, so they agree with ``check``.

Decisions (also in DECISIONS.md and docs/analysis.md):

- each play's ``value`` and ``par_value`` are the declarer's value with perfect play from
  there; ``cost`` and ``values`` are in that unit (a declarer's card that loses 10 points
  costs 10; an opponent's card that gives the declarer 10 more costs 10);
- ``playing_team`` is the declarer's seat and a ``makeable`` row's ``team`` its declarer
  (each player is a side of one, as ``solo``'s ``melds.winning_team``);
- an invalid record gives ``check``'s result unchanged; a summary record has no hands:
  ``analysed: false`` with ``summary_not_analysable``; a thrown-in deal par 0 for all;
- a revoke: the par is the deal's, played out legally to the end with every announced
  meld and Bella; the plays before the revoke are analysed as usual and the revoke is
  reported with the cards that should have been played, not costed.

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
    TABLES,
    cards_of,
    sorted_for_display,
)
from .dispatch import check as check_any_game
from .errors import RulesError
from .melds import Meld, run_of_cards
from .play import choice, trick_winner
from .rules import Options, resolve_named_rules
from .solo import SoloDeal, meld_winner, score_solo
from .solo_solver import SoloSolver

Json = dict[str, Any]

HAND_SIZE: Final = 9


class Position:
    """Where a deal stands between two plays, with what each player took so far."""

    def __init__(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        cards: list[int],
        tricks: list[int],
    ) -> None:
        self.remaining = remaining
        self.leader = leader
        self.trick = trick
        #: Per player: card points of the tricks taken (the last trick's 10 included).
        self.cards = cards
        #: Per player: tricks taken.
        self.tricks = tricks

    @property
    def seat(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) % len(self.cards)

    def after(self, card: int, trump: int) -> Position:
        """The position after the next seat plays ``card``."""
        remaining = self.remaining & ~(1 << card)
        trick = [*self.trick, card]
        n = len(self.cards)
        if len(trick) < n:
            return Position(remaining, self.leader, trick, self.cards, self.tricks)
        table = TABLES[trump]
        winner = (self.leader + trick_winner(trick, table)) % n
        points = sum(table.points[c] for c in trick) + (LAST_TRICK_BONUS if remaining == 0 else 0)
        cards, tricks = list(self.cards), list(self.tricks)
        cards[winner] += points
        tricks[winner] += 1
        return Position(remaining, winner, [], cards, tricks)


class Contract:
    """What the search needs to know of a deal besides the hands: the trump, the
    declarer, the announced melds and Bella, and the fixed facts ``score_solo`` needs."""

    def __init__(self, deal: SoloDeal, melds: list[Meld], options: Options) -> None:
        assert deal.trump is not None and deal.declarer is not None
        self.deal = deal
        self.trump: int = deal.trump
        self.declarer: int = deal.declarer
        self.melds = melds
        self.options = options
        best = meld_winner(
            melds,
            trump=self.trump,
            forehand=deal.forehand,
            n=deal.players,
            by_suit=options.meld_tie_by_suit,
        )
        #: The declarer's meld points, scored when the declarer takes a trick.
        self.bonus: int = sum(m.run.points for m in melds if m.seat == best == self.declarer)

    def score(self, end: Position) -> Json:
        """``score_solo``'s scoring of a deal played out to ``end``."""
        return score_solo(
            deal=self.deal,
            card_points=end.cards,
            took_trick=[t > 0 for t in end.tricks],
            melds=self.melds,
            bella=self.deal.bella,
            options=self.options,
        )


class SoloAnalysis:
    """One deal's solver and the values of its positions (the declarer's, whole deal)."""

    def __init__(self, hands: list[int], contract: Contract) -> None:
        self.hands = hands
        self.contract = contract
        self.trump = contract.trump
        self.declarer = contract.declarer
        self.options = contract.options
        self.solver = SoloSolver(
            hands, self.trump, self.options, declarer=self.declarer, meld_bonus=contract.bonus
        )
        n = len(hands)
        self.start = Position(sum(hands), contract.deal.forehand, [], [0] * n, [0] * n)

    def so_far(self, pos: Position) -> int:
        """The declarer's value from the tricks already taken."""
        took = pos.tricks[self.declarer] > 0
        return pos.cards[self.declarer] + (self.contract.bonus if took else 0)

    def value(self, pos: Position, guess: int = -1) -> int:
        """The declarer's value of the whole deal from ``pos`` on with perfect play."""
        base = self.so_far(pos)
        took = pos.tricks[self.declarer] > 0
        g = guess - base if guess >= 0 else -1
        return base + self.solver.solve(pos.remaining, pos.leader, pos.trick, took, g)

    def at_least(self, pos: Position, bound: int) -> bool:
        """Whether the declarer's value of the whole deal from ``pos`` reaches ``bound``."""
        took = pos.tricks[self.declarer] > 0
        return self.solver.at_least(
            pos.remaining, pos.leader, pos.trick, took, bound - self.so_far(pos)
        )

    def keeps(self, pos: Position, card: int, par: int) -> bool:
        """Whether playing ``card`` keeps the value ``par`` (the position's value)."""
        child = pos.after(card, self.trump)
        if pos.seat == self.declarer:
            return self.at_least(child, par)
        return not self.at_least(child, par + 1)

    def legal(self, pos: Position) -> int:
        """The legal cards of the seat to play (``play.choice``)."""
        hand = self.hands[pos.seat] & pos.remaining
        return choice(hand, pos.trick, TABLES[self.trump], self.options).legal

    def child_value(self, pos: Position, card: int, par: int) -> int:
        """The value after the seat to play plays ``card`` at ``pos``, whose value is
        ``par``: no card beats the par for its side, so the par bounds the search."""
        child = pos.after(card, self.trump)
        base = self.so_far(child)
        took = child.tricks[self.declarer] > 0
        g = par - base
        args = (child.remaining, child.leader, child.trick, took)
        if pos.seat == self.declarer:
            return base + self.solver.solve(*args, g, upper=g)
        return base + self.solver.solve(*args, g + 1, lower=g)

    def card_costs(self, pos: Position, par: int) -> dict[int, int]:
        """Each legal card's cost against the best card for its side, in display order;
        equivalent cards (``SoloSolver.distinct``) share one search."""
        legal = self.legal(pos)
        sign = 1 if pos.seat == self.declarer else -1
        others = pos.remaining & ~self.hands[pos.seat]
        for c in pos.trick:
            others |= 1 << c
        classes = self.solver.equivalent(legal, others)
        cost: dict[int, int] = {}
        for members in classes:
            value = par if len(classes) == 1 else self.child_value(pos, members[0], par)
            for c in members:
                cost[c] = sign * (par - value)
        return {c: cost[c] for c in sorted_for_display(legal, TABLES[self.trump])}

    def steps(self, pos: Position, cards: list[int]) -> list[Json]:
        """``cards`` played from ``pos`` as ``{"seat", "card"}`` steps."""
        out: list[Json] = []
        for card in cards:
            out.append({"seat": pos.seat, "card": CARD_TEXT[card]})
            pos = pos.after(card, self.trump)
        return out

    def best_cards(self, pos: Position, par: int) -> list[str]:
        """The legal cards that keep the value ``par``."""
        out = 0
        for c in cards_of(self.legal(pos)):
            if self.keeps(pos, c, par):
                out |= 1 << c
        return [CARD_TEXT[c] for c in sorted_for_display(out, TABLES[self.trump])]

    def line(self, pos: Position, par: int) -> list[int]:
        """One perfect line from ``pos`` to the end: at each turn the first card in
        display order that keeps the value."""
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
            sorted_for_display(legal, TABLES[self.trump]),
            self.solver.equivalent(legal, others),
            lambda c: self.keeps(pos, c, par),
        )

    def play_out(self, pos: Position, line: list[int]) -> Position:
        """The position at the end of ``line`` played from ``pos``."""
        for card in line:
            pos = pos.after(card, self.trump)
        return pos


# ----- the record ---------------------------------------------------------------------


def _hands(record: Json) -> list[int]:
    return [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]


def _melds(record: Json) -> list[tuple[int, Meld]]:
    out = []
    for i, item in enumerate(record.get("melds", [])):
        run = run_of_cards(item["cards"])
        assert run is not None  # check() accepted the record
        out.append((i, Meld(item["seat"], run)))
    return out


def _deal(record: Json, result: Json, n: int, *, trump: int, declarer: int) -> SoloDeal:
    """The record's deal as ``solo`` reads it, without its revoke (the par is played out
    legally to the end), under ``trump`` and ``declarer``."""
    return SoloDeal(
        n,
        record["dealer"],
        None,
        result["exchange"],
        "take",
        declarer,
        trump,
        _melds(record),
        record.get("bella"),
        None,
    )


def _contract(record: Json, result: Json, options: Options) -> Contract:
    n = options.players
    deal = _deal(
        record, result, n, trump=SUIT_BY_TEXT[result["trump"]], declarer=result["declarer"]
    )
    return Contract(deal, [m for _, m in deal.melds], options)


class _Walk:
    """The recorded plays, each with the par after it (the perfect line kept along)."""

    def __init__(self, deal: SoloAnalysis, best_cards: bool) -> None:
        self.deal = deal
        self.best_cards = best_cards
        self.pos = deal.start
        self.value = deal.value(self.pos)
        self.line = deal.line(self.pos, self.value)

    def par(self) -> Json:
        """The scored par of the current position (its perfect line played out)."""
        return self.deal.contract.score(self.deal.play_out(self.pos, self.line))

    def play(self, index: int, card: int) -> Json:
        """Analyse the next recorded play and move past it."""
        deal, pos, before = self.deal, self.pos, self.value
        mine = pos.seat == deal.declarer
        child = pos.after(card, deal.trump)
        costs = deal.card_costs(pos, before) if self.best_cards else {}
        kept = bool(self.line) and self.line[0] == card
        if kept:
            after = before
        elif card in costs:
            after = before - costs[card] if mine else before + costs[card]
        else:
            after = deal.value(child, before)
        cost = before - after if mine else after - before
        line_before = self.line
        self.pos, self.value = child, after
        self.line = line_before[1:] if kept else deal.line(child, after)
        par = self.par()
        entry: Json = {
            "play": index,
            "trick": index // len(deal.hands) + 1,
            "seat": pos.seat,
            "card": CARD_TEXT[card],
            "par": par["points"],
            "par_outcome": par["outcome"],
            "value": after,
            "cost": cost,
        }
        if self.best_cards:
            entry["best"] = [CARD_TEXT[c] for c, v in costs.items() if v == 0]
            entry["values"] = {CARD_TEXT[c]: v for c, v in costs.items()}
            if cost > 0:
                entry["line"] = deal.steps(pos, line_before)
        return entry


def _base(result: Json) -> Json:
    return {
        "valid": True,
        "analysed": True,
        "errors": [],
        "mode": "full",
        "players": result["players"],
        "trump": result["trump"],
        "declarer": result["declarer"],
        "playing_team": result["declarer"],
        "march": False,
        "actual": {
            "points": result["points"],
            "outcome": result["outcome"],
            "winner": result["winner"],
            "winner_team": result["winner"],
            "small_points": None,
            "match_points": None,
            "card_points": result["card_points"],
        },
    }


def _par_fields(scored: Json, value: int) -> Json:
    return {
        "par": scored["points"],
        "par_card_points": scored["card_points"],
        "par_value": value,
        "par_outcome": scored["outcome"],
        "par_winner": scored["winner"],
        "par_winner_team": scored["winner"],
        "par_small_points": None,
        "par_match_points": None,
        "par_march": None,
    }


def _thrown_in(result: Json) -> Json:
    n = result["players"]
    out = _base(result)
    out.update(
        {
            "par": [0] * n,
            "par_card_points": [0] * n,
            "par_value": 0,
            "par_outcome": "thrown_in",
            "par_winner": None,
            "par_winner_team": None,
            "par_small_points": None,
            "par_match_points": None,
            "par_march": None,
            "plays": [],
            "revoke": None,
        }
    )
    return out


def _bella_holder(hands: list[int], trump: int) -> int | None:
    """The seat holding King and Queen of ``trump``, if one does."""
    table = TABLES[trump]
    pair = 1 << table.king | 1 << table.queen
    return next((seat for seat, hand in enumerate(hands) if hand & pair == pair), None)


def _makeable(
    hands: list[int], record: Json, result: Json, options: Options, own: Json
) -> list[Json]:
    """What each trump would give each player as declarer with perfect play: the
    record's melds as announced (their contest re-run under that trump); Bella as
    announced under the deal's own trump, under another trump for whoever holds its King
    and Queen. The row of the deal's trump and declarer is the par (``own``)."""
    n = options.players
    rows = []
    for trump in range(4):
        for declarer in range(n):
            if trump == SUIT_BY_TEXT[result["trump"]] and declarer == result["declarer"]:
                scored = own
            else:
                deal = _deal(record, result, n, trump=trump, declarer=declarer)
                if SUIT_LETTERS[trump] != result["trump"]:
                    deal.bella = _bella_holder(hands, trump)
                analysis = SoloAnalysis(hands, Contract(deal, [m for _, m in deal.melds], options))
                start = analysis.start
                line = analysis.line(start, analysis.value(start))
                scored = analysis.contract.score(analysis.play_out(start, line))
            rows.append(
                {
                    "trump": SUIT_LETTERS[trump],
                    "team": declarer,
                    "declarer": declarer,
                    "points": scored["points"],
                    "card_points": scored["card_points"],
                    "margin": declarer_margin(scored, declarer),
                    "outcome": scored["outcome"],
                }
            )
    return rows


def declarer_margin(scored: Json, declarer: int) -> int:
    """How far the declarer's own points (cards, the scored melds, Bella) are above the
    best other player's in a ``score_solo`` scoring, before a failed contract hands them
    over: made above 0 (``score_solo``: more than each other player)."""
    own = list(scored["card_points"])
    best = scored["melds"]["winning_team"]
    if best is not None:
        own[best] += sum(int(m["points"]) for m in scored["melds"]["scored"])
    if scored["bella"] is not None:
        own[scored["bella"]["seat"]] += int(scored["bella"]["points"])
    return int(own[declarer] - max(p for s, p in enumerate(own) if s != declarer))


def _analyse_valid(record: Json, result: Json, options: Options, best_cards: bool) -> Json:
    hands = _hands(record)
    deal = SoloAnalysis(hands, _contract(record, result, options))
    walk = _Walk(deal, best_cards)
    par = walk.par()
    out = _base(result)
    out.update(_par_fields(par, walk.value))
    out["plays"] = [walk.play(i, CARD_BY_TEXT[t]) for i, t in enumerate(record["plays"])]
    if best_cards:
        out["makeable"] = _makeable(hands, record, result, options, par)
    revoke = record.get("revoke")
    out["revoke"] = None
    if revoke is not None:
        out["revoke"] = {
            "play": len(out["plays"]),
            "seat": revoke["seat"],
            "card": CARD_TEXT[CARD_BY_TEXT[revoke["card"]]],
            "best": deal.best_cards(walk.pos, walk.value),
        }
        if best_cards:
            out["revoke"]["line"] = deal.steps(walk.pos, walk.line)
    return out


def solo_options(record: object) -> Options | None:
    """The options of a record of ``klammern-2`` or ``klammern-3``; None for any other."""
    if not isinstance(record, dict):
        return None
    try:
        _, options = resolve_named_rules(record.get("rules"))
    except RulesError:
        return None
    return options if options.game == "klammern" and options.players in (2, 3) else None


def analyse_solo(record: object, *, best_cards: bool = True, version: str) -> Json | None:
    """The par analysis of a record for 2 or 3 players (module docstring), None for a
    record of another game; ``version`` is the analysis version to report. Never raises."""
    options = solo_options(record)
    if options is None:
        return None
    assert isinstance(record, dict)
    result = check_any_game(record)
    if not result["valid"]:
        return result
    if result["mode"] != "full":
        return summary_answer(result, version)
    if result["outcome"] == "thrown_in":
        return stamped(result, version, lambda: _thrown_in(result))
    return stamped(result, version, lambda: _analyse_valid(record, result, options, best_cards))


def solo_line(
    record: Json,
    analysed: Json,
    options: Options,
    after: int,
    card: object,
    *,
    refuse: Callable[[int], Json],
) -> Json:
    """``analysis.perfect_line``'s answer for a record for 2 or 3 players (``analysed``
    is its ``check`` result, ``after`` a position of the record): the perfect line from there,
    ``par`` the points of that line played out; with ``card`` the line starts with it
    and ``cost`` is its cost (the declarer's value). ``refuse(seat)`` answers a ``card``
    that seat cannot play."""
    result = check_any_game(record)
    deal = SoloAnalysis(_hands(record), _contract(record, result, options))
    n = options.players
    pos = deal.start
    for text in record["plays"][:after]:
        pos = pos.after(CARD_BY_TEXT[text], deal.trump)
    par = deal.value(pos)
    out: Json = {"valid": True, "analysed": True, "errors": [], "after": after}
    first: list[Json] = []
    if card is not None:
        played = CARD_BY_TEXT.get(card, -1) if isinstance(card, str) else -1
        if played < 0 or not deal.legal(pos) >> played & 1:
            return refuse(pos.seat)
        value = deal.child_value(pos, played, par)
        out["card"] = CARD_TEXT[played]
        out["cost"] = par - value if pos.seat == deal.declarer else value - par
        first = deal.steps(pos, [played])
        pos, par = pos.after(played, deal.trump), value
    line = deal.line(pos, par)
    steps = first + deal.steps(pos, line)
    out["line"] = [
        {"play": after + i, "trick": (after + i) // n + 1, **step} for i, step in enumerate(steps)
    ]
    out["par"] = deal.contract.score(deal.play_out(pos, line))["points"]
    return out


def deal_value(
    hands: list[int], *, trump: int, declarer: int, forehand: int, options: Options, bonus: int = 0
) -> int:
    """The declarer's value (card points with Jappa/Mie, last trick, ``bonus`` on taking a
    trick) with perfect play from the start of a deal for 2 or 3 players."""
    solver = SoloSolver(hands, trump, options, declarer=declarer, meld_bonus=bonus)
    return solver.solve(sum(hands), forehand, [], False)


__all__ = ["Position", "SoloAnalysis", "analyse_solo", "deal_value", "solo_line", "solo_options"]
