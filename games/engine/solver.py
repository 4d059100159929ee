"""The fast double-dummy solver: perfect play of one deal with all four hands visible.

``Solver`` holds one deal (the four dealt hands, trump, options) and answers for any
position of it how many points team 0 takes from there to the end when both teams play
perfectly: team 0 maximises, team 1 minimises (the card part of a deal is zero-sum). A
position is the mask of the cards not yet played (``remaining``; each card's owner is
fixed by the deal, so that mask and the leader say where every card is), the leader of
the current trick and that trick's cards so far.

How it is fast (all exact, nothing is an estimate):

- alpha-beta with a transposition table at trick boundaries, keyed by ``remaining`` and
  the leader, holding a lower and an upper bound and the best lead; the table is kept
  for the solver's life, so the 32 positions of one deal's analysis share it;
- zero-window searches (``at_least``) and MTD(f) for exact values;
- equivalent cards: of two cards of one hand in one suit that no other unplayed card
  (nor a card of the current trick) separates in trick-taking power and that are worth
  the same points, only one is tried;
- move ordering: the transposition table's best lead first, then cards that take the
  trick, points for the partner's trick, cheap discards;
- ints and masks only (cards 0-31, hands as 32-bit masks), a plain class and methods
  without closures, so mypyc compiles it to native code (``native.COMPILED``);
- with the compiled engine, ``search`` runs ``csolver.c``: this search written out in C,
  step for step (same table entries, same move order, same node count), built by
  ``scripts/build_engine.py``. Without that build, or with ``native=False``, the Python
  methods below run; the tests compare the two, answer and node count.

With ``count_tricks=True`` the value is team 0's number of tricks instead of points
(every card worth 0, every trick 1, no last-trick bonus): the March question.
The legal cards are ``play.choice``'s rules written out with masks; the tests compare
every answer with ``reference_solver``, which uses ``play.choice`` itself. This module
knows nothing of records, melds or scoring (see ``analysis``).
"""

from __future__ import annotations

import importlib
from typing import Final, Protocol

from .cards import LAST_TRICK_BONUS, SUIT_MASK, TABLES
from .rules import Options

#: Bounds are packed into one int per table entry: lower | upper << 8 | best lead << 16.
_BYTE: Final = 255
_NO_MOVE: Final = 32


def _power_order(power: tuple[int, ...]) -> list[list[int]]:
    """For each suit, its cards from the weakest to the strongest."""
    return [sorted(range(8 * s, 8 * s + 8), key=lambda c: power[c]) for s in range(4)]


class _Core(Protocol):
    """The C search (``csolver.c``): ``Solver.search`` of one deal, and its node count."""

    @property
    def nodes(self) -> int: ...

    def search(self, remaining: int, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """``Solver.search``'s value for the same position and window."""
        ...


def _load_core() -> object | None:
    """The C search's type when it was built with the compiled engine, else None."""
    try:
        return importlib.import_module("games.engine._csolver").Core  # type: ignore[no-any-return]
    except ImportError:
        return None


_CORE_TYPE: Final = _load_core()


def native_search_available() -> bool:
    """Whether ``Solver`` runs the C search (the compiled engine with ``csolver.c``)."""
    return _CORE_TYPE is not None


class Solver:
    """Perfect-play values of the positions of one deal (see the module docstring)."""

    def __init__(
        self,
        hands: list[int],
        trump: int,
        options: Options,
        *,
        count_tricks: bool = False,
        native: bool = True,
    ) -> None:
        table = TABLES[trump]
        self.hands: list[int] = list(hands)
        self.trump: int = trump
        self.trump_mask: int = table.trump_mask
        self.power: list[int] = list(table.power)
        self.beaten_by: list[int] = list(table.beaten_by)
        self.value: list[int] = [0] * 32 if count_tricks else list(table.points)
        self.trick_bonus: int = 1 if count_tricks else 0
        self.last_bonus: int = 0 if count_tricks else LAST_TRICK_BONUS
        self.strict_lead: bool = options.overtrump_on_trump_lead
        self.partner_exempt: bool = options.partner_exempt
        self.order: list[list[int]] = _power_order(table.power)
        self.suit_mask: list[int] = list(SUIT_MASK)
        self.table: dict[int, int] = {}
        self.python_nodes: int = 0
        self.core: _Core | None = None
        if native and _CORE_TYPE is not None:
            self.core = _CORE_TYPE(  # type: ignore[operator]
                hands=self.hands,
                trump=trump,
                trump_mask=self.trump_mask,
                power=self.power,
                beaten_by=self.beaten_by,
                value=self.value,
                order=[c for suit in self.order for c in suit],
                suit_mask=self.suit_mask,
                trick_bonus=self.trick_bonus,
                last_bonus=self.last_bonus,
                strict_lead=self.strict_lead,
                partner_exempt=self.partner_exempt,
            )

    @property
    def nodes(self) -> int:
        """The positions searched so far (by the C search when it runs)."""
        return self.core.nodes if self.core is not None else self.python_nodes

    # ----- public -----------------------------------------------------------------------

    def available(self, remaining: int, trick: list[int]) -> int:
        """Everything still to be won: the cards not yet taken, the tricks' bonuses."""
        total = 0
        cards = remaining
        for c in trick:
            cards |= 1 << c
        n = 0
        while cards:
            low = cards & -cards
            total += self.value[low.bit_length() - 1]
            cards ^= low
            n += 1
        tricks = n // 4
        return total + tricks * self.trick_bonus + (self.last_bonus if tricks else 0)

    def at_least(self, remaining: int, leader: int, trick: list[int], bound: int) -> bool:
        """True when team 0 takes at least ``bound`` from this position on."""
        return self.search(remaining, leader, trick, bound - 1, bound) >= bound

    def solve(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        guess: int = -1,
        *,
        lower: int = 0,
        upper: int = -1,
    ) -> int:
        """Team 0's exact value of a position: zero-window tests, each halving the interval
        the value is known to lie in (the first at ``guess`` when given). Halving took
        fewer nodes than MTD(f)'s steps of one point or a full window (bench/analysis.py).
        ``lower`` and ``upper`` (when ``upper >= 0``) are bounds the caller already knows
        the value to keep: a card's value never beats the par of the position before it."""
        most = self.available(remaining, trick)
        upper = most if upper < 0 or upper > most else upper
        lower = lower if lower > 0 else 0
        probe = guess if lower < guess <= upper else (lower + upper + 1) // 2
        while lower < upper:
            g = self.search(remaining, leader, trick, probe - 1, probe)
            if g >= probe:
                lower = g
            else:
                upper = g
            probe = (lower + upper + 1) // 2
        return lower

    def search(self, remaining: int, leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value of a position: exact when inside (alpha, beta)."""
        if self.core is not None:
            return self.core.search(remaining, leader, trick, alpha, beta)
        avail = self.available(remaining, trick)
        n = len(trick)
        if n == 0:
            return self.lead(remaining, leader, avail, alpha, beta)
        led = trick[0] >> 3
        best, best_seat, points = trick[0], leader, self.value[trick[0]]
        mask = 1 << trick[0]
        for pos in range(1, n):
            c = trick[pos]
            mask |= 1 << c
            points += self.value[c]
            if self.beats(c, best, led):
                best, best_seat = c, (leader + pos) & 3
        return self.follow(
            remaining, leader, n, led, best, best_seat, points, mask, avail, alpha, beta
        )

    # ----- the search ---------------------------------------------------------------------

    def beats(self, card: int, best: int, led: int) -> bool:
        """Whether ``card`` beats the trick's best card so far (led suit ``led``)."""
        suit = card >> 3
        return (suit == led or suit == self.trump) and self.power[card] > self.power[best]

    def lead(self, remaining: int, leader: int, avail: int, alpha: int, beta: int) -> int:
        """The value of a trick boundary: ``leader`` to lead, ``avail`` still to win."""
        self.python_nodes += 1
        if remaining == 0:
            return 0
        if avail <= alpha:
            return avail
        if beta <= 0:
            return 0
        # the last trick is never stored: no lookup
        if remaining.bit_count() == 4:
            return self.last_trick(remaining, leader)
        key = remaining | leader << 32
        entry = self.table.get(key, -1)
        lower, upper, first = 0, avail, _NO_MOVE
        if entry >= 0:
            lower, upper, first = entry & _BYTE, entry >> 8 & _BYTE, entry >> 16
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
        a = alpha if alpha > lower else lower
        b = beta if beta < upper else upper
        hand = self.hands[leader] & remaining
        maximising = leader & 1 == 0
        moves = self.lead_moves(hand, remaining, first)
        result = -1 if maximising else 1000
        best_move = _NO_MOVE
        for c in moves:
            v = self.follow(
                remaining ^ (1 << c),
                leader,
                1,
                c >> 3,
                c,
                leader,
                self.value[c],
                1 << c,
                avail,
                a,
                b,
            )
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
        self.table[key] = lower | upper << 8 | best_move << 16
        return result

    def last_trick(self, remaining: int, leader: int) -> int:
        """The last trick: one card in each hand, nothing to choose."""
        hands = self.hands
        best = (hands[leader] & remaining).bit_length() - 1
        led = best >> 3
        winner = leader
        total = self.value[best]
        for pos in range(1, 4):
            seat = (leader + pos) & 3
            c = (hands[seat] & remaining).bit_length() - 1
            total += self.value[c]
            if self.beats(c, best, led):
                best, winner = c, seat
        return total + self.trick_bonus + self.last_bonus if winner & 1 == 0 else 0

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
        avail: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The value when ``n`` (1-3) cards of the trick are down; ``points`` their worth."""
        self.python_nodes += 1
        seat = (leader + n) & 3
        hand = self.hands[seat] & remaining
        legal = self.legal(hand, led, best, best_seat, seat)
        maximising = seat & 1 == 0
        moves = self.follow_moves(
            legal, remaining & ~hand | trick_mask, best, led, seat, best_seat, n
        )
        result = -1 if maximising else 1000
        for c in moves:
            if self.beats(c, best, led):
                nb, ns = c, seat
            else:
                nb, ns = best, best_seat
            if n < 3:
                v = self.follow(
                    remaining ^ (1 << c),
                    leader,
                    n + 1,
                    led,
                    nb,
                    ns,
                    points + self.value[c],
                    trick_mask | 1 << c,
                    avail,
                    alpha,
                    beta,
                )
            else:
                rest = remaining ^ (1 << c)
                won = points + self.value[c] + self.trick_bonus
                if rest == 0:
                    won += self.last_bonus
                if ns & 1 == 0:
                    v = won + self.lead(rest, ns, avail - won, alpha - won, beta - won)
                else:
                    v = self.lead(rest, ns, avail - won, alpha, beta)
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

    def legal(self, hand: int, led: int, best: int, best_seat: int, seat: int) -> int:
        """``play.choice``'s legal cards for a follower, with masks."""
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
        if self.partner_exempt and best_seat == seat ^ 2:
            return hand
        if best >> 3 == self.trump:
            higher = trumps & self.beaten_by[best]
            if higher:
                return higher
        return trumps

    # ----- move generation ------------------------------------------------------------------

    def distinct(self, cards: int, others: int) -> list[int]:
        """The cards of ``cards`` less the equivalent ones (see the module docstring)."""
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

    def lead_moves(self, hand: int, remaining: int, first: int) -> list[int]:
        """The leader's cards worth trying, best guess first."""
        cards = self.distinct(hand, remaining & ~hand)
        others = remaining & ~hand
        power = self.power
        keyed: list[int] = []
        for c in cards:
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
        self, legal: int, others: int, best: int, led: int, seat: int, best_seat: int, n: int
    ) -> list[int]:
        """A follower's cards worth trying, best guess first."""
        cards = self.distinct(legal, others)
        if len(cards) == 1:
            return cards
        partner_ahead = best_seat == seat ^ 2
        keyed: list[int] = []
        for c in cards:
            v = self.value[c]
            if self.beats(c, best, led):
                score = 200 + (v if n == 3 else self.power[c] * 2) - (100 if partner_ahead else 0)
            elif partner_ahead:
                score = 150 + v
            else:
                score = 100 - v - self.power[c]
            keyed.append(score << 6 | c)
        keyed.sort(reverse=True)
        return [k & 63 for k in keyed]
