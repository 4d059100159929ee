"""The double-dummy solver for Klaverjas: perfect play with all four hands visible.

``KlaverjasSolver`` holds one deal (the four dealt hands, trump, the preset's options)
and answers for any position of it the **margin** team 0 takes from there to the end
when both teams play perfectly: team 0's points minus team 1's, where a team's points
are the card points of its tricks (last trick +10), the roem of its tricks and the pit
(+100 for all 8 tricks), exactly as ``klaverjas.score_klaverjas`` counts them before
made/nat. Team 0 maximises the margin, team 1 minimises it (each team maximises its
points against the other's). Made or nat is a threshold on it: the makers make the deal
when their margin is at least 1 (``klaverjas_analysis`` scores the par that way).

A position is the mask of the cards not yet played (each card's owner is fixed by the
deal), the leader of the current trick, that trick's cards so far and whether every
trick completed so far went to the leader's team (``clean``; true before the first
trick): the pit is still open to that team only while it holds.

The search is ``solver.Solver``'s (read that first), for a value that can be negative:

- alpha-beta with a transposition table at trick boundaries keyed by ``remaining``, the
  leader and ``clean``, holding a lower and an upper bound and the best lead;
- ``bound``: nothing left can be worth more than the cards' points, the last trick, the
  roem the remaining cards could still make and the pit, so a window beyond it is cut;
- equivalent cards: two cards of one hand in one suit that no other unplayed card (nor a
  card of the current trick) separates in power and that are worth the same points are
  one choice only while neither can still make a sequence with cards of other hands
  (``LIVE_RANKS``; a card of the same hand never shares its trick); four of a kind
  scores only Tens, Jacks, Queens, Kings and Aces, and the stuk only the trump King and
  Queen, which all differ in points from the other cards of their suit;
- move order: the table's best lead first, then low leads (``lead_moves``); followers as
  ``solver``'s, the last card of a trick by what it brings: its points and the roem;
- the roem of a trick is counted from its four cards as ``seatwalk.trick_roem`` counts it.

**Belote mode** (a deal of the ``belote`` preset, ``options.game``): the same search with
the Belote margin: no roem (so no live ranks: equal-valued neighbours are always one
choice), and the capot's 90 (100 instead of the last trick's 10, ``belote.CAPOT_BONUS``)
in place of the pit's 100. The legal cards follow the preset's options as for Klaverjas
(``partner_exempt`` and ``partner_exempt_trump_lead`` without ``no_undertrump``: the
partner heading the trick leaves only the duty to follow suit; otherwise trump and
overtrump if able, else any trump). Melds and belote-rebelote are fixed additions the
caller adds (``belote_analysis``). A deal of ``belote-contree`` (``options.game``
``"contree"``) is searched in the same mode (cards and last trick, 90 more for all 8
tricks: RULES.md's points made) with its own legal cards: ``free_when_outtrumped`` lets a
player who cannot beat the trump heading the trick play any card, and on a trump lead the
partner heading it frees no one (``contree_analysis``).

With the compiled engine ``search`` runs ``kjsolver.c``, this search in C, step for step
(same table entries, same move order, same node count); without it the Python methods
below run. The tests compare both, and every answer with the plain minimax of
``tests/engine/klaverjas_reference.py``. This module knows nothing of records or scoring.
"""

from __future__ import annotations

import importlib
from typing import Final, Protocol

from .belote import CAPOT_BONUS
from .cards import LAST_TRICK_BONUS, SUIT_MASK, TABLES
from .klaverjas import KLAVERJAS_POINTS, PIT_BONUS
from .rules import Options
from .seatwalk import FOUR_ROEM, SEQUENCE_ROEM, STUK_ROEM

_NO_MOVE: Final = 32
#: Table entries: lower + OFFSET | upper + OFFSET << 16 | best lead << 32.
_OFFSET: Final = 1 << 15
_HALF: Final = (1 << 16) - 1
ALL_CARDS: Final = (1 << 32) - 1


def _live_ranks(bits: int) -> int:
    """The ranks (natural order) that could still make a sequence of 3 with two cards of
    ``bits`` (one suit's cards held by others or in the trick)."""
    live = 0
    for r in range(8):
        for low in range(r - 2, r + 1):
            if low < 0 or low + 2 > 7:
                continue
            others = ((7 << low) & ~(1 << r)) & 0xFF
            if bits & others == others:
                live |= 1 << r
    return live


#: For one suit's 8 bits of other cards: the ranks that could join them in a sequence.
LIVE_RANKS: Final = tuple(_live_ranks(bits) for bits in range(256))


def _sequence_caps() -> tuple[int, ...]:
    """For each set of one suit's remaining cards (8 bits): the most sequence roem they
    can still make, split among tricks (a trick holds at most 4 of them)."""
    caps = [0] * 256
    for bits in range(256):
        best = 0
        group = bits
        while group:
            if group.bit_count() <= 4 and SEQUENCE_ROEM[group]:
                best = max(best, SEQUENCE_ROEM[group] + caps[bits & ~group])
            group = (group - 1) & bits
        caps[bits] = best
    return tuple(caps)


#: For one suit's 8 bits of remaining cards: the most sequence roem they could still make.
SEQUENCE_CAP: Final = _sequence_caps()


def _power_order(power: tuple[int, ...]) -> list[list[int]]:
    """For each suit, its cards from the weakest to the strongest."""
    return [sorted(range(8 * s, 8 * s + 8), key=lambda c: power[c]) for s in range(4)]


class _Core(Protocol):
    """The C search (``kjsolver.c``): ``KlaverjasSolver.search`` and its node count."""

    @property
    def nodes(self) -> int: ...

    def search(
        self, remaining: int, leader: int, trick: list[int], clean: bool, alpha: int, beta: int
    ) -> int:
        """``KlaverjasSolver.search``'s value for the same position and window."""
        ...


def _load_core() -> object | None:
    """The C search's type when it was built with the compiled engine, else None."""
    try:
        return importlib.import_module("games.engine._kjsolver").Core  # type: ignore[no-any-return]
    except ImportError:
        return None


_CORE_TYPE: Final = _load_core()


def native_search_available() -> bool:
    """Whether ``KlaverjasSolver`` runs the C search (the compiled engine)."""
    return _CORE_TYPE is not None


class KlaverjasSolver:
    """Perfect-play margins of the positions of one Klaverjas deal (module docstring)."""

    def __init__(
        self, hands: list[int], trump: int, options: Options, *, native: bool = True
    ) -> None:
        table = TABLES[trump]
        self.hands: list[int] = list(hands)
        self.trump: int = trump
        self.trump_mask: int = table.trump_mask
        self.power: list[int] = list(table.power)
        self.beaten_by: list[int] = list(table.beaten_by)
        self.value: list[int] = list(KLAVERJAS_POINTS[trump])
        self.stuk: int = 1 << table.king | 1 << table.queen
        self.strict_lead: bool = options.overtrump_on_trump_lead
        self.partner_exempt: bool = options.partner_exempt
        self.partner_exempt_trump_lead: bool = options.partner_exempt_trump_lead
        self.no_undertrump: bool = options.no_undertrump
        self.free_when_outtrumped: bool = options.free_when_outtrumped
        #: Klaverjas counts roem and a pit of 100; Belote and Belote Contrée no roem and
        #: 90 for all tricks.
        self.count_roem: bool = options.game not in ("belote", "contree")
        self.all_tricks_bonus: int = PIT_BONUS if self.count_roem else CAPOT_BONUS
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
                stuk=self.stuk,
                strict_lead=self.strict_lead,
                partner_exempt=self.partner_exempt,
                partner_exempt_trump_lead=self.partner_exempt_trump_lead,
                no_undertrump=self.no_undertrump,
                count_roem=self.count_roem,
                all_tricks_bonus=self.all_tricks_bonus,
                free_when_outtrumped=self.free_when_outtrumped,
            )

    @property
    def nodes(self) -> int:
        """The positions searched so far (by the C search when it runs)."""
        return self.core.nodes if self.core is not None else self.python_nodes

    # ----- public -----------------------------------------------------------------------

    def at_least(
        self, remaining: int, leader: int, trick: list[int], clean: bool, bound: int
    ) -> bool:
        """True when team 0's margin from this position on is at least ``bound``."""
        return self.search(remaining, leader, trick, clean, bound - 1, bound) >= bound

    def solve(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        clean: bool,
        guess: int = 0,
        parity: int = -1,
        *,
        lower: int | None = None,
        upper: int | None = None,
    ) -> int:
        """Team 0's exact margin: zero-window tests halving the interval it lies in (the
        first at ``guess``). ``parity`` 0 or 1, when given, is the margin's remainder
        mod 2, so only values of that parity are probed (the whole deal's margin is even:
        the card points differ by 162 - 2 * a team's, roem comes in tens, the pit is 100,
        Belote's capot 90).
        ``lower``/``upper``, when given, are bounds the caller knows the margin keeps."""
        cards = remaining
        for c in trick:
            cards |= 1 << c
        top = self.bound(cards, clean)
        low, high = -top if lower is None else max(-top, lower), top
        high = high if upper is None else min(top, upper)
        lower, upper = self._fit(low, parity, 1), self._fit(high, parity, -1)
        probe = self._fit(guess, parity, 1) if -top < guess <= top else self._fit(0, parity, 1)
        while lower < upper:
            probe = min(max(probe, lower + 1), upper)
            g = self.search(remaining, leader, trick, clean, probe - 1, probe)
            if g >= probe:
                lower = self._fit(g, parity, 1)
            else:
                upper = self._fit(g, parity, -1)
            probe = self._fit((lower + upper + 1) // 2, parity, 1)
        return lower

    def chase(
        self,
        remaining: int,
        leader: int,
        trick: list[int],
        clean: bool,
        first: int,
        parity: int,
        *,
        lower: int | None = None,
        upper: int | None = None,
    ) -> int:
        """Team 0's exact margin when it is likely near ``first`` (a card's value next to
        the par): zero-window tests, each at the bound the last one returned (fail-soft),
        instead of halving; ``parity``, ``lower`` and ``upper`` as for ``solve``."""
        cards = remaining
        for c in trick:
            cards |= 1 << c
        top = self.bound(cards, clean)
        low = self._fit(-top if lower is None else max(-top, lower), parity, 1)
        high = self._fit(top if upper is None else min(top, upper), parity, -1)
        probe = self._fit(first, parity, 1)
        while low < high:
            probe = min(max(probe, low + 1), high)
            g = self.search(remaining, leader, trick, clean, probe - 1, probe)
            if g >= probe:
                low = self._fit(g, parity, 1)
                probe = low + 1
            else:
                high = self._fit(g, parity, -1)
                probe = high
        return low

    @staticmethod
    def _fit(value: int, parity: int, direction: int) -> int:
        """``value`` moved by one toward ``direction`` when its parity is not ``parity``."""
        if parity < 0 or value & 1 == parity:
            return value
        return value + direction

    def search(
        self, remaining: int, leader: int, trick: list[int], clean: bool, alpha: int, beta: int
    ) -> int:
        """Fail-soft alpha-beta margin of a position: exact when inside (alpha, beta)."""
        if self.core is not None:
            return self.core.search(remaining, leader, trick, clean, alpha, beta)
        n = len(trick)
        if n == 0:
            return self.lead(remaining, leader, clean, alpha, beta)
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
            remaining, leader, clean, n, led, best, best_seat, points, mask, alpha, beta
        )

    # ----- values -------------------------------------------------------------------------

    def roem(self, trick_mask: int) -> int:
        """The roem of a complete trick (``seatwalk.trick_roem``) from its card mask (0 in
        Belote mode)."""
        if not self.count_roem:
            return 0
        total = 0
        for s in range(4):
            total += SEQUENCE_ROEM[trick_mask >> (8 * s) & 0xFF]
        for r in range(8):
            if trick_mask >> r & 0x01010101 == 0x01010101:
                total += FOUR_ROEM[r]
        if trick_mask & self.stuk == self.stuk:
            total += STUK_ROEM
        return total

    def bound(self, cards: int, clean: bool) -> int:
        """More than any margin ``cards`` (the cards still to be won) can make either way:
        their points, the last trick, the roem they could hold and the pit (capot)."""
        total = LAST_TRICK_BONUS + (self.all_tricks_bonus if clean else 0)
        rest = cards
        while rest:
            low = rest & -rest
            total += self.value[low.bit_length() - 1]
            rest ^= low
        if not self.count_roem:
            return total
        for s in range(4):
            total += SEQUENCE_CAP[cards >> (8 * s) & 0xFF]
        for r in range(8):
            if cards >> r & 0x01010101 == 0x01010101:
                total += FOUR_ROEM[r]
        if cards & self.stuk == self.stuk:
            total += STUK_ROEM
        return total

    # ----- the search ---------------------------------------------------------------------

    def beats(self, card: int, best: int, led: int) -> bool:
        """Whether ``card`` beats the trick's best card so far (led suit ``led``)."""
        suit = card >> 3
        return (suit == led or suit == self.trump) and self.power[card] > self.power[best]

    def lead(self, remaining: int, leader: int, clean: bool, alpha: int, beta: int) -> int:
        """The margin at a trick boundary: ``leader`` to lead."""
        self.python_nodes += 1
        if remaining == 0:
            return 0
        top = self.bound(remaining, clean)
        if top <= alpha:
            return top
        if -top >= beta:
            return -top
        # the last trick is never stored: no lookup
        if remaining.bit_count() == 4:
            return self.last_trick(remaining, leader, clean)
        key = remaining | leader << 32 | int(clean) << 34
        entry = self.table.get(key, -1)
        lower, upper, first = -top, top, _NO_MOVE
        if entry >= 0:
            lower = (entry & _HALF) - _OFFSET
            upper = (entry >> 16 & _HALF) - _OFFSET
            first = entry >> 32
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
        a = alpha if alpha > lower else lower
        b = beta if beta < upper else upper
        hand = self.hands[leader] & remaining
        maximising = leader & 1 == 0
        result = -100000 if maximising else 100000
        best_move = _NO_MOVE
        for c in self.lead_moves(hand, remaining, first):
            v = self.follow(
                remaining ^ (1 << c),
                leader,
                clean,
                1,
                c >> 3,
                c,
                leader,
                self.value[c],
                1 << c,
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
        self.table[key] = (lower + _OFFSET) | (upper + _OFFSET) << 16 | best_move << 32
        return result

    def last_trick(self, remaining: int, leader: int, clean: bool) -> int:
        """The last trick: one card in each hand, nothing to choose."""
        hands = self.hands
        best = (hands[leader] & remaining).bit_length() - 1
        led = best >> 3
        winner = leader
        total = LAST_TRICK_BONUS + self.roem(remaining)
        for pos in range(4):
            seat = (leader + pos) & 3
            c = (hands[seat] & remaining).bit_length() - 1
            total += self.value[c]
            if pos and self.beats(c, best, led):
                best, winner = c, seat
        if clean and winner & 1 == leader & 1:
            total += self.all_tricks_bonus
        return total if winner & 1 == 0 else -total

    def follow(
        self,
        remaining: int,
        leader: int,
        clean: bool,
        n: int,
        led: int,
        best: int,
        best_seat: int,
        points: int,
        trick_mask: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The margin when ``n`` (1-3) cards of the trick are down; ``points`` their worth."""
        self.python_nodes += 1
        seat = (leader + n) & 3
        hand = self.hands[seat] & remaining
        legal = self.legal(hand, led, best, best_seat, seat)
        maximising = seat & 1 == 0
        moves = self.follow_moves(legal, remaining & ~hand, trick_mask, best, led, seat, best_seat)
        result = -100000 if maximising else 100000
        for c in moves:
            if self.beats(c, best, led):
                nb, ns = c, seat
            else:
                nb, ns = best, best_seat
            if n < 3:
                v = self.follow(
                    remaining ^ (1 << c),
                    leader,
                    clean,
                    n + 1,
                    led,
                    nb,
                    ns,
                    points + self.value[c],
                    trick_mask | 1 << c,
                    alpha,
                    beta,
                )
            else:
                v = self.trick_done(
                    remaining ^ (1 << c),
                    leader,
                    clean,
                    ns,
                    points + self.value[c],
                    trick_mask | 1 << c,
                    alpha,
                    beta,
                )
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

    def trick_done(
        self,
        rest: int,
        leader: int,
        clean: bool,
        winner: int,
        points: int,
        trick_mask: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The margin once a trick is complete: its worth to the winner, then the rest."""
        won = points + self.roem(trick_mask)
        still = rest | trick_mask == ALL_CARDS or (clean and winner & 1 == leader & 1)
        if rest == 0:
            won += LAST_TRICK_BONUS + (self.all_tricks_bonus if still else 0)
            return won if winner & 1 == 0 else -won
        if winner & 1 == 0:
            return won + self.lead(rest, winner, still, alpha - won, beta - won)
        return -won + self.lead(rest, winner, still, alpha + won, beta + won)

    def legal(self, hand: int, led: int, best: int, best_seat: int, seat: int) -> int:
        """``play.choice``'s legal cards for a follower, with masks."""
        trumps = hand & self.trump_mask
        partner_heads = best_seat == seat ^ 2
        if led == self.trump:
            if not trumps:
                return hand
            higher = trumps & self.beaten_by[best]
            if (
                self.strict_lead
                and higher
                and not (self.partner_exempt_trump_lead and partner_heads)
            ):
                return higher
            return trumps
        follow = hand & self.suit_mask[led]
        if follow:
            return follow
        if not trumps:
            return hand
        best_is_trump = best >> 3 == self.trump
        if self.partner_exempt and partner_heads:
            if self.no_undertrump and best_is_trump and hand != trumps:
                return hand & ~self.trump_mask | trumps & self.beaten_by[best]
            return hand
        if best_is_trump:
            higher = trumps & self.beaten_by[best]
            if higher:
                return higher
            if self.no_undertrump:
                side = hand & ~self.trump_mask
                return side if side else hand
            if self.free_when_outtrumped:
                return hand
        return trumps

    # ----- move generation ------------------------------------------------------------------

    def distinct(self, cards: int, others: int) -> list[int]:
        """The cards of ``cards`` less the equivalent ones (see the module docstring)."""
        out: list[int] = []
        value = self.value
        for s in range(4):
            if not cards & self.suit_mask[s]:
                continue
            live = LIVE_RANKS[others >> (8 * s) & 0xFF] if self.count_roem else 0
            prev = -1
            for c in self.order[s]:
                bit = 1 << c
                if cards & bit:
                    if live >> (c & 7) & 1:
                        out.append(c)
                        prev = -1
                        continue
                    if value[c] != prev:
                        out.append(c)
                    prev = value[c]
                elif others & bit:
                    prev = -1
        return out

    def equivalent(self, cards: int, others: int) -> list[list[int]]:
        """``cards`` in classes of equivalent cards, as ``distinct`` keeps one of each."""
        classes: list[list[int]] = []
        value = self.value
        for s in range(4):
            if not cards & self.suit_mask[s]:
                continue
            live = LIVE_RANKS[others >> (8 * s) & 0xFF] if self.count_roem else 0
            prev = -1
            for c in self.order[s]:
                bit = 1 << c
                if cards & bit:
                    if live >> (c & 7) & 1:
                        classes.append([c])
                        prev = -1
                        continue
                    if value[c] == prev:
                        classes[-1].append(c)
                    else:
                        classes.append([c])
                    prev = value[c]
                elif others & bit:
                    prev = -1
        return classes

    def lead_moves(self, hand: int, remaining: int, first: int) -> list[int]:
        """The leader's cards worth trying, best guess first: the table's best lead, then
        the weakest first, a card no unplayed card of its suit beats counting 7.5 steps of
        power higher (fewer nodes than ``solver``'s strongest first, bench/analysis.py)."""
        others = remaining & ~hand
        cards = self.distinct(hand, others)
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
            score = 1000 if c == first else top * 30 - power[c] * 4
            keyed.append(score << 6 | c)
        keyed.sort(reverse=True)
        return [k & 63 for k in keyed]

    def follow_moves(
        self,
        legal: int,
        others: int,
        trick_mask: int,
        best: int,
        led: int,
        seat: int,
        best_seat: int,
    ) -> list[int]:
        """A follower's cards worth trying, best guess first (the last card of a trick
        by what it brings: card points and roem)."""
        cards = self.distinct(legal, others | trick_mask)
        if len(cards) == 1:
            return cards
        partner_ahead = best_seat == seat ^ 2
        last = trick_mask.bit_count() == 3
        keyed: list[int] = []
        for c in cards:
            v = self.value[c]
            if last:
                v += self.roem(trick_mask | 1 << c)
            if self.beats(c, best, led):
                score = 200 + (v if last else self.power[c] * 2) - (100 if partner_ahead else 0)
            elif partner_ahead:
                score = 150 + v
            else:
                score = 100 - v - self.power[c]
            keyed.append(score << 6 | c)
        keyed.sort(reverse=True)
        return [k & 63 for k in keyed]
