"""The perfect-play solver of Klammern for 2 or 3 players, all hands visible.

``SoloSolver`` holds one deal (the 2 or 3 hands of 9 cards, trump, the options, the
declarer and the meld points the declarer scores on taking a trick) and answers for any
position how many points the **declarer** takes from there to the end of the deal when
everybody plays perfectly: the declarer maximises them, the other players together (the
defence) minimise them. The value is the card points (with Jappa and Mie) of the tricks
the declarer takes, the last trick's 10 if the declarer takes it, and ``meld_bonus`` when
the declarer takes a first trick (RULES.md: a player who takes no trick scores no melds).
With 2 players that is a zero-sum game in which the opponent's points are 164 less the
declarer's card points (DECISIONS.md: "Perfect play with 2 or 3 players").

A position is the mask of the cards not yet played (each card's owner is fixed by the
deal), the leader, the current trick's cards and whether the declarer has taken a trick
(``took``: only then is the meld bonus already counted).

The search is ``solver.Solver``'s, for n players: fail-soft alpha-beta with a
transposition table at trick boundaries (keyed by the remaining cards, the leader and
``took``; lower and upper bound and the best lead), zero-window probes halving the
interval (``solve``), equivalent cards tried once, the best lead of the table first.
With the compiled engine, ``search`` runs ``solocsolver.c`` (the same search in C, step
for step: same table, same move order, same node count); the tests compare the two and
compare every value with the plain reference ``tests/engine/solo_reference.py``.
This module knows nothing of records, melds or scoring (see ``solo_analysis``).
"""

from __future__ import annotations

import importlib
from typing import Final, Protocol

from .cards import LAST_TRICK_BONUS, SUIT_MASK, TABLES, cards_of
from .rules import Options

#: Table entries pack lower | upper << 10 | best lead << 20.
_BITS: Final = 10
_FIELD: Final = (1 << _BITS) - 1
_NO_MOVE: Final = 32
#: More than any value (164 card points and the declarer's melds).
_INFINITE: Final = 1000


def _power_order(power: tuple[int, ...]) -> list[list[int]]:
    """For each suit, its cards from the weakest to the strongest."""
    return [sorted(range(8 * s, 8 * s + 8), key=lambda c: power[c]) for s in range(4)]


class _Core(Protocol):
    """The C search (``solocsolver.c``): ``SoloSolver.search`` of one deal."""

    @property
    def nodes(self) -> int: ...

    def search(
        self, remaining: int, leader: int, trick: list[int], took: bool, alpha: int, beta: int
    ) -> int:
        """``SoloSolver.search``'s value for the same position and window."""
        ...


def _load_core() -> object | None:
    """The C search's type when it was built with the compiled engine, else None."""
    try:
        return importlib.import_module("games.engine._solocsolver").Core  # type: ignore[no-any-return]
    except ImportError:
        return None


_CORE_TYPE: Final = _load_core()


def native_search_available() -> bool:
    """Whether ``SoloSolver`` runs the C search (the compiled engine with the C file)."""
    return _CORE_TYPE is not None


class SoloSolver:
    """Perfect-play values (the declarer's points) of the positions of one deal."""

    def __init__(
        self,
        hands: list[int],
        trump: int,
        options: Options,
        *,
        declarer: int,
        meld_bonus: int = 0,
        native: bool = True,
    ) -> None:
        table = TABLES[trump]
        self.hands: list[int] = list(hands)
        self.players: int = len(hands)
        self.declarer: int = declarer
        self.meld_bonus: int = meld_bonus
        self.trump: int = trump
        self.trump_mask: int = table.trump_mask
        self.power: list[int] = list(table.power)
        self.beaten_by: list[int] = list(table.beaten_by)
        self.value: list[int] = list(table.points)
        self.strict_lead: bool = options.overtrump_on_trump_lead
        self.no_undertrump: bool = options.no_undertrump
        self.order: list[list[int]] = _power_order(table.power)
        self.suit_mask: list[int] = list(SUIT_MASK)
        self.defence: int = 0
        for seat, hand in enumerate(self.hands):
            if seat != declarer:
                self.defence |= hand
        self.table: dict[int, int] = {}
        self.python_nodes: int = 0
        self.core: _Core | None = None
        if native and _CORE_TYPE is not None:
            self.core = _CORE_TYPE(  # type: ignore[operator]
                hands=self.hands,
                declarer=declarer,
                meld_bonus=meld_bonus,
                trump=trump,
                trump_mask=self.trump_mask,
                power=self.power,
                beaten_by=self.beaten_by,
                value=self.value,
                order=[c for suit in self.order for c in suit],
                strict_lead=self.strict_lead,
                no_undertrump=self.no_undertrump,
            )

    @property
    def nodes(self) -> int:
        """The positions searched so far (by the C search when it runs)."""
        return self.core.nodes if self.core is not None else self.python_nodes

    # ----- public -----------------------------------------------------------------------

    def available(self, remaining: int, trick: list[int], took: bool) -> int:
        """The most the declarer can still take: cards, last trick, the meld bonus."""
        cards = remaining
        for c in trick:
            cards |= 1 << c
        if not cards:
            return 0
        total = LAST_TRICK_BONUS + (0 if took else self.meld_bonus)
        while cards:
            low = cards & -cards
            total += self.value[low.bit_length() - 1]
            cards ^= low
        return total

    def at_least(
        self, remaining: int, leader: int, trick: list[int], took: bool, bound: int
    ) -> bool:
        """True when the declarer takes at least ``bound`` from this position on."""
        if bound <= 0:
            return True
        return self.search(remaining, leader, trick, took, bound - 1, bound) >= bound

    def solve(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        took: bool,
        guess: int = -1,
        *,
        lower: int = 0,
        upper: int = -1,
    ) -> int:
        """The exact value of a position by zero-window probes halving the interval it is
        known to lie in (the first at ``guess`` when given); ``lower`` and ``upper`` (when
        ``upper >= 0``) are bounds the caller already knows."""
        most = self.available(remaining, trick, took)
        upper = most if upper < 0 or upper > most else upper
        lower = lower if lower > 0 else 0
        probe = guess if lower < guess <= upper else (lower + upper + 1) // 2
        while lower < upper:
            g = self.search(remaining, leader, trick, took, probe - 1, probe)
            if g >= probe:
                lower = g
            else:
                upper = g
            probe = (lower + upper + 1) // 2
        return lower

    def search(
        self, remaining: int, leader: int, trick: list[int], took: bool, alpha: int, beta: int
    ) -> int:
        """Fail-soft alpha-beta value of a position: exact when inside (alpha, beta)."""
        took = took or self.meld_bonus == 0  # without a bonus the flag changes nothing
        if self.core is not None:
            return self.core.search(remaining, leader, trick, took, alpha, beta)
        avail = self.available(remaining, trick, took)
        if not trick:
            return self.lead(remaining, leader, took, avail, alpha, beta)
        led = trick[0] >> 3
        best, best_seat, points = trick[0], leader, self.value[trick[0]]
        mask = 1 << trick[0]
        for pos in range(1, len(trick)):
            c = trick[pos]
            mask |= 1 << c
            points += self.value[c]
            if self.beats(c, best, led):
                best, best_seat = c, (leader + pos) % self.players
        return self.follow(
            remaining, leader, len(trick), led, best, best_seat, points, mask, took, avail,
            alpha, beta,
        )  # fmt: skip

    # ----- the search ---------------------------------------------------------------------

    def beats(self, card: int, best: int, led: int) -> bool:
        """Whether ``card`` beats the trick's best card so far (led suit ``led``)."""
        suit = card >> 3
        return (suit == led or suit == self.trump) and self.power[card] > self.power[best]

    def lead(
        self, remaining: int, leader: int, took: bool, avail: int, alpha: int, beta: int
    ) -> int:
        """The value of a trick boundary: ``leader`` to lead, ``avail`` still to win."""
        self.python_nodes += 1
        if remaining == 0:
            return 0
        if avail <= alpha:
            return avail
        if beta <= 0:
            return 0
        # the last trick is never stored: no lookup
        if remaining.bit_count() == self.players:
            return self.last_trick(remaining, leader, took)
        sure, lost = self.trump_bounds(remaining, took)
        if avail - lost <= alpha:
            return avail - lost
        if sure >= beta:
            return sure
        key = remaining | leader << 32 | int(took) << 34
        entry = self.table.get(key, -1)
        lower, upper, first = sure, avail - lost, _NO_MOVE
        if entry >= 0:
            lower, upper, first = entry & _FIELD, entry >> _BITS & _FIELD, entry >> 2 * _BITS
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
        a = alpha if alpha > lower else lower
        b = beta if beta < upper else upper
        maximising = leader == self.declarer
        result = -1 if maximising else _INFINITE
        best_move = _NO_MOVE
        for c in self.lead_moves(self.hands[leader] & remaining, remaining, first):
            v = self.follow(
                remaining ^ (1 << c), leader, 1, c >> 3, c, leader, self.value[c], 1 << c,
                took, avail, a, b,
            )  # fmt: skip
            if maximising:
                if v > result:
                    result, best_move = v, c
                    if v > a:
                        a = v
            elif v < result:
                result, best_move = v, c
                if v < b:
                    b = v
            if a >= b:
                break
        if result <= alpha:
            upper = result if result < upper else upper
        elif result >= beta:
            lower = result if result > lower else lower
        else:
            lower = upper = result
        self.table[key] = lower | upper << _BITS | best_move << 2 * _BITS
        return result

    def trump_bounds(self, remaining: int, took: bool) -> tuple[int, int]:
        """What the trumps alone settle at a trick boundary: (sure, lost). A defender's
        trump above every trump the declarer still holds wins its trick for the defence,
        whoever leads: its points are lost to the declarer. A declarer's trump above every
        trump the defence still holds wins its trick for the declarer: its points are sure,
        with the meld bonus when it is not yet earned."""
        own = remaining & self.trump_mask & self.hands[self.declarer]
        theirs = remaining & self.trump_mask & self.defence
        own_powers = [self.power[c] for c in cards_of(own)]
        their_powers = [self.power[c] for c in cards_of(theirs)]
        own_top = max(own_powers, default=-1)
        their_top = max(their_powers, default=-1)
        winners = [c for c in cards_of(own) if self.power[c] > their_top]
        sure = sum(self.value[c] for c in winners)
        if winners and not took:
            sure += self.meld_bonus
        lost = sum(self.value[c] for c in cards_of(theirs) if self.power[c] > own_top)
        return sure, lost

    def last_trick(self, remaining: int, leader: int, took: bool) -> int:
        """The last trick: one card in each hand, nothing to choose."""
        best = (self.hands[leader] & remaining).bit_length() - 1
        led = best >> 3
        winner = leader
        total = self.value[best]
        for pos in range(1, self.players):
            seat = (leader + pos) % self.players
            c = (self.hands[seat] & remaining).bit_length() - 1
            total += self.value[c]
            if self.beats(c, best, led):
                best, winner = c, seat
        if winner != self.declarer:
            return 0
        return total + LAST_TRICK_BONUS + (0 if took else self.meld_bonus)

    def follow(
        self,
        remaining: int,
        leader: int,
        n: int,
        led: int,
        best: int,
        best_seat: int,
        points: int,
        trick_mask: int,
        took: bool,
        avail: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value when ``n`` cards of the trick are down; ``points`` their worth."""
        self.python_nodes += 1
        seat = (leader + n) % self.players
        hand = self.hands[seat] & remaining
        legal = self.legal(hand, led, best)
        maximising = seat == self.declarer
        moves = self.follow_moves(legal, remaining & ~hand | trick_mask, best, led, seat, best_seat)
        last = n == self.players - 1
        result = -1 if maximising else _INFINITE
        for c in moves:
            if self.beats(c, best, led):
                nb, ns = c, seat
            else:
                nb, ns = best, best_seat
            if not last:
                v = self.follow(
                    remaining ^ (1 << c), leader, n + 1, led, nb, ns, points + self.value[c],
                    trick_mask | 1 << c, took, avail, alpha, beta,
                )  # fmt: skip
            else:
                rest = remaining ^ (1 << c)
                won = points + self.value[c] + (LAST_TRICK_BONUS if rest == 0 else 0)
                if ns == self.declarer:
                    if not took:
                        won += self.meld_bonus
                    v = won + self.lead(rest, ns, True, avail - won, alpha - won, beta - won)
                else:
                    v = self.lead(rest, ns, took, avail - won, alpha, beta)
            if maximising:
                if v > result:
                    result = v
                    if v > alpha:
                        alpha = v
            elif v < result:
                result = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return result

    def legal(self, hand: int, led: int, best: int) -> int:
        """``play.choice``'s legal cards for a follower (no partner with 2 or 3 players)."""
        trumps = hand & self.trump_mask
        if led == self.trump:
            if not trumps:
                return hand
            higher = trumps & self.beaten_by[best]
            return higher if self.strict_lead and higher else trumps
        follow = hand & self.suit_mask[led]
        if follow:
            return follow
        if not trumps:
            return hand
        if best >> 3 == self.trump:
            higher = trumps & self.beaten_by[best]
            if higher:
                return higher
            if self.no_undertrump:
                side = hand & ~self.trump_mask
                return side if side else hand
        return trumps

    # ----- move generation ------------------------------------------------------------------

    def distinct(self, cards: int, others: int) -> list[int]:
        """The cards of ``cards`` less the equivalent ones: of two cards of one suit that
        no card of ``others`` separates in power and that are worth the same, one."""
        out: list[int] = []
        value = self.value
        for s in range(4):
            if not cards & self.suit_mask[s]:
                continue
            prev = -1
            for c in self.order[s]:
                bit = 1 << c
                if cards & bit:
                    if value[c] != prev:
                        out.append(c)
                    prev = value[c]
                elif others & bit:
                    prev = -1
        return out

    def equivalent(self, cards: int, others: int) -> list[list[int]]:
        """``cards`` in classes of equivalent cards (as ``distinct`` skips them)."""
        classes: list[list[int]] = []
        for s in range(4):
            prev = -1
            for c in self.order[s]:
                if cards >> c & 1:
                    if self.value[c] == prev:
                        classes[-1].append(c)
                    else:
                        classes.append([c])
                    prev = self.value[c]
                elif others >> c & 1:
                    prev = -1
        return classes

    def lead_moves(self, hand: int, remaining: int, first: int) -> list[int]:
        """The leader's cards worth trying, best guess first: the table's lead, then
        the suit's top cards, strong cards, valuable cards."""
        others = remaining & ~hand
        power = self.power
        keyed: list[int] = []
        for c in self.distinct(hand, others):
            stronger = others & self.suit_mask[c >> 3]
            top = 1
            while stronger:
                low = stronger & -stronger
                if power[low.bit_length() - 1] > power[c]:
                    top = 0
                    break
                stronger ^= low
            score = 1000 if c == first else top * 100 + power[c] * 4 + self.value[c] // 4
            keyed.append(score << 6 | c)
        keyed.sort(reverse=True)
        return [k & 63 for k in keyed]

    def follow_moves(
        self, legal: int, others: int, best: int, led: int, seat: int, best_seat: int
    ) -> list[int]:
        """A follower's cards worth trying, best guess first: cards that take the trick,
        points onto a trick of the own side, cheap discards."""
        cards = self.distinct(legal, others)
        if len(cards) == 1:
            return cards
        declarer = self.declarer
        own_ahead = seat != declarer and best_seat != declarer
        keyed: list[int] = []
        for c in cards:
            v = self.value[c]
            if self.beats(c, best, led):
                score = 200 + self.power[c] * 2 - (100 if own_ahead else 0)
            elif own_ahead:
                score = 150 + v
            else:
                score = 100 - v - self.power[c]
            keyed.append(score << 6 | c)
        keyed.sort(reverse=True)
        return [k & 63 for k in keyed]
