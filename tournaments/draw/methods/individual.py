"""The individual draw (``draw_individual``): tables of four, partners opposite (seats 0 & 2
against 1 & 3, seat 0 deals first), byes for the rest.

How it works
- Byes first: the players with the fewest byes so far get them (ties: players without a
  fixed table first, then a seeded shuffle). So nobody gets a second bye while an active
  player has none.
- Then a bounded simulated annealing over swaps of two players with incremental cost
  deltas. The cost of a round is, with weights large enough to act lexicographically,
  forbidden pairs at one table > repeated partners > repeated opponents > same club or
  household at one table. A pair that has met ``k`` times in a role costs ``k`` more when
  it meets again (convex), so meetings spread evenly.
- Balance by rating (``SeatingOptions.balance_by_rating``, off by default): each table
  adds its rating gap, the difference between the two teams' rating sums
  ``|(r0 + r2) - (r1 + r3)|`` (``Entrant.rating``), at weight 1 per tenth of a point and
  at most 99.9 points a table. Below same club and household for any gap a table can
  show in practice, never above one repeated opponent (up to 100 tables); beside seat
  balance, which it usually outweighs. Off, the draw is the same as without it.
- When ``SeatingOptions.planned_rounds`` is known and the instance is small, the draw of
  round r plans rounds r..R jointly and returns round r; greedy round-by-round drawing
  paints itself into corners on tiny fields (8 players, 7 rounds).
- Seats last: each table's split into teams is fixed by the annealing; of the 8 ways to
  seat that split, the one that best balances each player's seat counts is taken.
- The number of iterations depends only on the inputs (never on time), and the search
  stops early once the cost reaches a proven lower bound.

Decisions
- ``SeatingOptions.forbidden``: the two players never sit at the same table (neither as
  partners nor as opponents). Weighted above everything else, so it only happens when
  the field leaves no other way (reported in ``CostBreakdown.forbidden``).
- ``Entrant.fixed_table`` pins a player to a table when they play; it does not exempt
  them from byes (bye fairness first), but among equals unpinned players sit out first.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.draw.methods.base import (
    COLD,
    HOT_MEETINGS,
    W_CLUB,
    W_FORBIDDEN,
    W_HOUSEHOLD,
    W_OPPONENT,
    W_PARTNER,
    W_SEAT,
    CostBreakdown,
    Entrant,
    Pair,
    SeatingHistory,
    SeatingOptions,
    Table,
    choose_byes,
    draw_dict,
    pair_key,
)

# Balance by rating (off unless asked for): per tenth of a rating point of the gap between
# the two teams at a table; a table's gap counts at most _RATING_CAP tenths (99.9 points),
# so that even 100 tables of it stay below one repeated opponent.
_W_RATING = 1
_RATING_CAP = 999

# Joint planning of the remaining rounds only while (players x rounds) stays this small;
# large fields have room enough that round-by-round drawing does not get stuck.
_PLAN_LIMIT = 256
_RESTARTS = 6
# Start temperatures of the two cooling runs (see _Search.anneal).
_HOT_SEATS = 5.0


def history_from_tables(
    rounds: Iterable[Sequence[Table]], *, byes: Iterable[int] = ()
) -> SeatingHistory:
    """Count partners, opponents and seats from earlier rounds' tables.

    ``byes`` lists one player id per bye received (a player with two byes appears twice).
    """
    partners: Counter[Pair] = Counter()
    opponents: Counter[Pair] = Counter()
    seats: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            _count_table(table, partners, opponents, seats)
    return SeatingHistory(
        partners=dict(partners),
        opponents=dict(opponents),
        seats={player: (c[0], c[1], c[2], c[3]) for player, c in seats.items()},
        byes=dict(Counter(byes)),
    )


def _count_table(
    table: Table,
    partners: Counter[Pair],
    opponents: Counter[Pair],
    seats: dict[int, list[int]],
) -> None:
    for seat, player in enumerate(table):
        seats.setdefault(player, [0, 0, 0, 0])[seat] += 1
    for a, b in _partner_pairs(table):
        partners[pair_key(a, b)] += 1
    for a, b in _opponent_pairs(table):
        opponents[pair_key(a, b)] += 1


def _partner_pairs(table: Sequence[int]) -> tuple[Pair, Pair]:
    return (table[0], table[2]), (table[1], table[3])


def _opponent_pairs(table: Sequence[int]) -> tuple[Pair, Pair, Pair, Pair]:
    return (table[0], table[1]), (table[0], table[3]), (table[2], table[1]), (table[2], table[3])


def rating_gap(table: Sequence[int], ratings: Mapping[int, float]) -> float:
    """How uneven a table of four is: the difference between the rating sums of its two
    teams (seats 0 & 2 against 1 & 3), ``|(r0 + r2) - (r1 + r3)|``."""
    a, b, c, d = (ratings[p] for p in table)
    return abs((a + c) - (b + d))


def rating_cost(table: Sequence[int], ratings: Mapping[int, float], options: SeatingOptions) -> int:
    """The table's share of the draw's cost for balance by rating: 0 when the option is
    off, else ``_W_RATING`` per tenth of a point of ``rating_gap`` (at most 99.9 points)."""
    if not options.balance_by_rating:
        return 0
    return _rating_units([round(10 * ratings[p]) for p in table], 0, 1, 2, 3)


def _rating_units(tenths: Sequence[int], a: int, b: int, c: int, d: int) -> int:
    return _W_RATING * min(_RATING_CAP, abs(tenths[a] + tenths[c] - tenths[b] - tenths[d]))


@dataclass(frozen=True)
class Draw:
    """One round of an individual tournament. ``tables[t]`` holds player ids by seat."""

    round_number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...]
    seed: int
    attempt: int
    cost: CostBreakdown

    def to_dict(self) -> dict[str, Any]:
        return draw_dict(self)


def draw_individual(
    entrants: Iterable[Entrant],
    history: SeatingHistory,
    *,
    round_number: int,
    seed: int,
    attempt: int = 0,
    options: SeatingOptions = SeatingOptions(),  # noqa: B008 - frozen, safe as default
) -> Draw:
    """Draw one round of an individual tournament.

    Raises ``ValueError`` for fewer than four entrants, duplicate ids or a fixed table
    that does not exist or is pinned for more than four players.
    """
    players = sorted(entrants, key=lambda e: e.id)
    _validate_entrants(players)
    rng = random.Random(f"klammern-seating:{seed}:{round_number}:{attempt}")
    ids = [e.id for e in players]
    table_count = len(players) // 4
    _validate_fixed(players, table_count)
    horizon = _horizon(len(players), round_number, options.planned_rounds)
    bye_counts = {p: history.byes.get(p, 0) for p in ids}
    fixed_ids = {e.id for e in players if e.fixed_table is not None}
    byes_by_round = []
    for _ in range(horizon):
        chosen = choose_byes(ids, bye_counts, len(ids) % 4, rng, fixed_ids)
        byes_by_round.append(chosen)
        for p in chosen:
            bye_counts[p] += 1
    groups = _anneal_rounds(players, history, byes_by_round, options, rng)
    tables = tuple(_orient(group, history.seats) for group in groups)
    cost = _breakdown(tables, players, history, options)
    return Draw(round_number, tables, tuple(sorted(byes_by_round[0])), seed, attempt, cost)


def _validate_entrants(players: Sequence[Entrant]) -> None:
    if len(players) < 4:
        raise ValueError("a draw needs at least four active entrants")
    if len({e.id for e in players}) != len(players):
        raise ValueError("entrant ids must be unique")


def _validate_fixed(players: Sequence[Entrant], table_count: int) -> None:
    pinned = Counter(e.fixed_table for e in players if e.fixed_table is not None)
    for table, count in pinned.items():
        if not 0 <= table < table_count:
            raise ValueError(f"fixed table {table} does not exist (tables 0..{table_count - 1})")
        if count > 4:
            raise ValueError(f"{count} players are fixed to table {table}, which seats four")


def _horizon(players: int, round_number: int, planned_rounds: int | None) -> int:
    if planned_rounds is None or planned_rounds <= round_number:
        return 1
    remaining = planned_rounds - round_number + 1
    return max(1, min(remaining, _PLAN_LIMIT // players))


def _anneal_rounds(
    players: Sequence[Entrant],
    history: SeatingHistory,
    byes_by_round: Sequence[Sequence[int]],
    options: SeatingOptions,
    rng: random.Random,
) -> list[list[int]]:
    """Plan every round of the horizon; return round r's tables as groups of four ids."""
    problem = _Problem.build(players, history, options)
    if len(players) - len(byes_by_round[0]) <= 8:
        seated = [
            [problem.index[e.id] for e in players if e.id not in byes] for byes in byes_by_round
        ]
        plan = _even_plan(problem, players, seated, rng)
        if plan is not None:
            return [[problem.ids[i] for i in plan[t : t + 4]] for t in range(0, len(plan), 4)]
    budget = options.iterations or _default_iterations(len(players), len(byes_by_round))
    # Small instances may restart (bounded) while repeats remain above the proven bound;
    # big fields have room enough that one run avoids repeats.
    small = len(players) * len(byes_by_round) <= _PLAN_LIMIT
    best: _Search | None = None
    for _ in range(_RESTARTS if small else 1):
        search = _Search(problem, _initial_rounds(problem, players, byes_by_round, rng))
        search.anneal(rng, budget)
        if best is None or search.cost < best.cost:
            best = search
        if best.cost <= best.floor() or _Search(problem, best.rounds).meeting_gap() == 0:
            break
    assert best is not None
    first = best.rounds[0]
    return [[problem.ids[i] for i in first[t : t + 4]] for t in range(0, len(first), 4)]


def _default_iterations(players: int, horizon: int) -> int:
    return 4_000 + 40 * players * horizon


def _initial_rounds(
    problem: _Problem,
    players: Sequence[Entrant],
    byes_by_round: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Seeded random rounds with pinned players already at their tables."""
    return [_initial_round(problem, players, set(byes), rng) for byes in byes_by_round]


def _initial_round(
    problem: _Problem, players: Sequence[Entrant], byes: set[int], rng: random.Random
) -> list[int]:
    seated = [e for e in players if e.id not in byes]
    slots: list[int | None] = [None] * (len(seated) // 4 * 4)
    free_slots = []
    for table in range(len(slots) // 4):
        pinned = [e for e in seated if e.fixed_table == table]
        for offset in range(4):
            if offset < len(pinned):
                slots[table * 4 + offset] = problem.index[pinned[offset].id]
            else:
                free_slots.append(table * 4 + offset)
    loose = [problem.index[e.id] for e in seated if e.fixed_table is None]
    rng.shuffle(loose)
    for slot, player in zip(free_slots, loose, strict=True):
        slots[slot] = player
    return [p for p in slots if p is not None]


@dataclass
class _Problem:
    """Players as indices 0..n-1 and the costs that do not change during the search."""

    ids: list[int]
    index: dict[int, int]
    partners: dict[int, int]  # key a * n + b, both orders
    opponents: dict[int, int]
    static: dict[int, int]  # forbidden / club / household cost of a pair at one table
    seats: list[int]  # 4 * player + seat -> times sat there
    fixed: list[bool]
    tenths: list[int] | None = None  # rating in tenths of a point; None: not balancing

    @classmethod
    def build(
        cls, players: Sequence[Entrant], history: SeatingHistory, options: SeatingOptions
    ) -> _Problem:
        ids = [e.id for e in players]
        index = {p: i for i, p in enumerate(ids)}
        n = len(ids)
        return cls(
            ids=ids,
            index=index,
            partners=_indexed_counts(history.partners, index, n),
            opponents=_indexed_counts(history.opponents, index, n),
            static=_static_costs(players, options, index),
            seats=[c for e in players for c in history.seats.get(e.id, (0, 0, 0, 0))],
            fixed=[e.fixed_table is not None for e in players],
            tenths=[round(10 * e.rating) for e in players] if options.balance_by_rating else None,
        )

    def rating_cost(self, slots: Sequence[int], base: int) -> int:
        """Balance by rating: the cost of the table at ``slots[base : base + 4]``."""
        if self.tenths is None:
            return 0
        t = self.tenths
        return _rating_units(t, slots[base], slots[base + 1], slots[base + 2], slots[base + 3])


def _even_spread(total: int, pairs: int) -> int:
    """Minimum of sum(k*(k-1)/2) over ``pairs`` non-negative integers summing to ``total``."""
    low, extra = divmod(total, pairs)
    return extra * (low + 1) * low // 2 + (pairs - extra) * low * (low - 1) // 2


def _indexed_counts(counts: Mapping[Pair, int], index: Mapping[int, int], n: int) -> dict[int, int]:
    indexed: dict[int, int] = {}
    for (a, b), count in counts.items():
        if a in index and b in index and count:
            i, j = index[a], index[b]
            indexed[i * n + j] = indexed[j * n + i] = count
    return indexed


def _static_costs(
    players: Sequence[Entrant], options: SeatingOptions, index: Mapping[int, int]
) -> dict[int, int]:
    n = len(players)
    static: Counter[int] = Counter()
    if options.avoid_same_club:
        _add_group_cost(static, [(e.club, index[e.id]) for e in players], n, W_CLUB)
    if options.avoid_same_household:
        _add_group_cost(static, [(e.household, index[e.id]) for e in players], n, W_HOUSEHOLD)
    for pair in options.forbidden:
        a, b = sorted(pair)
        if a in index and b in index:
            static[index[a] * n + index[b]] += W_FORBIDDEN
            static[index[b] * n + index[a]] += W_FORBIDDEN
    return dict(static)


def _add_group_cost(
    static: Counter[int], labelled: Sequence[tuple[object, int]], n: int, weight: int
) -> None:
    groups: dict[object, list[int]] = {}
    for label, i in labelled:
        if label is not None:
            groups.setdefault(label, []).append(i)
    for members in groups.values():
        for i in members:
            for j in members:
                if i != j:
                    static[i * n + j] += weight


class _Search:
    """Simulated annealing state: the planned rounds plus meeting counts including them.

    ``rounds[h]`` lists player indices slot by slot; slot ``s`` is seat ``s % 4`` of table
    ``s // 4`` (seats 0 & 2 and 1 & 3 are partners). The cost of the whole plan is
    ``sum(weight * k * (k - 1) / 2)`` over pairs meeting ``k`` times in a role and over
    players sitting ``k`` times in a seat (history included), plus the static cost of
    every pair sharing a table. Convex costs make the marginal cost of one more meeting
    (or sitting) simply the count so far.
    """

    def __init__(self, problem: _Problem, rounds: list[list[int]]) -> None:
        self.n = len(problem.ids)
        self.rounds = rounds
        # defaultdicts: the hot loop reads many absent pairs; zeros cost nothing below.
        self.partners: defaultdict[int, int] = defaultdict(int, problem.partners)
        self.opponents: defaultdict[int, int] = defaultdict(int, problem.opponents)
        self.seats = list(problem.seats)
        self.static: defaultdict[int, int] = defaultdict(int, problem.static)
        self.fixed = problem.fixed
        self.problem = problem
        for row in rounds:
            for t in range(0, len(row), 4):
                self._meet_table(row, t, 1)
        self.cost = self._total_cost()

    def _meet_table(self, row: list[int], base: int, step: int) -> None:
        n = self.n
        a, b, c, d = row[base : base + 4]
        for x, y in ((a, c), (b, d)):
            self.partners[x * n + y] += step
            self.partners[y * n + x] += step
        for x, y in ((a, b), (a, d), (c, b), (c, d)):
            self.opponents[x * n + y] += step
            self.opponents[y * n + x] += step
        for seat, x in enumerate((a, b, c, d)):
            self.seats[4 * x + seat] += step

    def _total_cost(self) -> int:
        n = self.n
        total = W_SEAT * sum(k * (k - 1) // 2 for k in self.seats)
        for counts, weight in ((self.partners, W_PARTNER), (self.opponents, W_OPPONENT)):
            total += sum(
                weight * k * (k - 1) // 2 for key, k in counts.items() if key % n > key // n
            )
        for row in self.rounds:
            for t in range(0, len(row), 4):
                a, b, c, d = row[t : t + 4]
                for x, y in ((a, b), (a, c), (a, d), (b, c), (b, d), (c, d)):
                    total += self.static[x * n + y]
                total += self.problem.rating_cost(row, t)
        return total

    def floor(self) -> int:
        """A lower bound of the cost: every count spread as evenly as its total allows."""
        n = self.n
        pairs = n * (n - 1) // 2
        partner_total = sum(self.partners.values()) // 2
        opponent_total = sum(self.opponents.values()) // 2
        seat_floor = sum(_even_spread(sum(self.seats[4 * p : 4 * p + 4]), 4) for p in range(n))
        return (
            W_PARTNER * _even_spread(partner_total, pairs)
            + W_OPPONENT * _even_spread(opponent_total, pairs)
            + W_SEAT * seat_floor
        )

    def meeting_gap(self) -> int:
        """Partner and opponent cost above its lower bound (0: no avoidable repeat)."""
        n = self.n
        pairs = n * (n - 1) // 2
        gap = 0
        for counts, weight in ((self.partners, W_PARTNER), (self.opponents, W_OPPONENT)):
            canonical = [k for key, k in counts.items() if key % n > key // n]
            gap += weight * (
                sum(k * (k - 1) // 2 for k in canonical) - _even_spread(sum(canonical), pairs)
            )
        return gap

    def anneal(self, rng: random.Random, iterations: int) -> None:
        """Bounded annealing in two cooling runs; keeps the best plan; stops at the bound.

        The first run starts hot enough to trade repeated opponents (needed when small
        fields are planned over several rounds); the second starts cool, so that its steps
        go to seat balance without undoing what the first run achieved.
        """
        rows = [row for row in self.rounds if len(row) >= 4]
        if not rows:
            return
        floor = self.floor()
        best_cost, best_rounds = self.cost, [list(row) for row in self.rounds]
        first = iterations // 2
        for hot, steps in ((HOT_MEETINGS, first), (_HOT_SEATS, iterations - first)):
            for step in range(steps):
                if self.cost <= floor:
                    break
                temperature = hot * (COLD / hot) ** (step / steps)
                row = rows[rng.randrange(len(rows))]
                self._try_swap(
                    row, rng.randrange(len(row)), rng.randrange(len(row)), temperature, rng
                )
                if self.cost < best_cost:
                    best_cost, best_rounds = self.cost, [list(row) for row in self.rounds]
        if self.cost > best_cost:
            # Only the slots and the cost are read afterwards; counts may stay stale.
            self.cost, self.rounds = best_cost, best_rounds

    def _try_swap(
        self, row: list[int], i: int, j: int, temperature: float, rng: random.Random
    ) -> None:
        if i == j:
            return
        same_table = i >> 2 == j >> 2
        if not same_table and (self.fixed[row[i]] or self.fixed[row[j]]):
            return
        delta = self._delta_seats(row, i, j)
        if same_table:
            if (i - j) % 2:
                delta += self._delta_within(row, i, j)
        else:
            delta += self._delta_replace(row, i, row[i], row[j])
            delta += self._delta_replace(row, j, row[j], row[i])
        if self.problem.tenths is not None:
            delta += self._delta_rating(row, i, j)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            self._apply(row, i, j, same_table)
            self.cost += delta

    def _apply(self, row: list[int], i: int, j: int, same_table: bool) -> None:
        x, y = row[i], row[j]
        seats = self.seats
        seats[4 * x + (i & 3)] -= 1
        seats[4 * y + (j & 3)] -= 1
        seats[4 * x + (j & 3)] += 1
        seats[4 * y + (i & 3)] += 1
        if not same_table:
            self._reseat_pairs(row, i, x, y)
            self._reseat_pairs(row, j, y, x)
        elif (i - j) % 2:
            for slot in range(i & ~3, (i & ~3) + 4):
                if slot not in (i, j):
                    partner_of_x = (slot - i) % 2 == 0
                    self._shift(x, row[slot], partner_of_x, -1)
                    self._shift(x, row[slot], not partner_of_x, 1)
                    self._shift(y, row[slot], not partner_of_x, -1)
                    self._shift(y, row[slot], partner_of_x, 1)
        row[i], row[j] = y, x

    def _reseat_pairs(self, row: list[int], slot: int, leaving: int, entering: int) -> None:
        base, own = slot & ~3, slot & 3
        for offset in (1, 2, 3):
            z = row[base + ((own + offset) & 3)]
            self._shift(leaving, z, offset == 2, -1)
            self._shift(entering, z, offset == 2, 1)

    def _shift(self, x: int, z: int, partner: bool, step: int) -> None:
        counts = self.partners if partner else self.opponents
        counts[x * self.n + z] += step
        counts[z * self.n + x] += step

    def _delta_rating(self, row: list[int], i: int, j: int) -> int:
        """Change of the rating cost of the one or two tables that swapping i, j touches."""
        bases = {i & ~3, j & ~3}
        before = sum(self.problem.rating_cost(row, base) for base in bases)
        row[i], row[j] = row[j], row[i]
        after = sum(self.problem.rating_cost(row, base) for base in bases)
        row[i], row[j] = row[j], row[i]
        return after - before

    def _delta_seats(self, row: list[int], i: int, j: int) -> int:
        x, y, si, sj = row[i], row[j], i & 3, j & 3
        if si == sj:
            return 0
        seats = self.seats
        gained = seats[4 * x + sj] + seats[4 * y + si]
        lost = seats[4 * x + si] - 1 + seats[4 * y + sj] - 1
        return W_SEAT * (gained - lost)

    def _delta_replace(self, row: list[int], slot: int, leaving: int, entering: int) -> int:
        """Cost change when ``entering`` takes ``leaving``'s seat at a table."""
        n, partners, opponents, static = self.n, self.partners, self.opponents, self.static
        base, own = slot & ~3, slot & 3
        delta = 0
        for offset in (1, 2, 3):
            z = row[base + ((own + offset) & 3)]
            new, old = entering * n + z, leaving * n + z
            if offset == 2:
                delta += W_PARTNER * (partners[new] - partners[old] + 1)
            else:
                delta += W_OPPONENT * (opponents[new] - opponents[old] + 1)
            delta += static[new] - static[old]
        return delta

    def _delta_within(self, row: list[int], i: int, j: int) -> int:
        """Swapping seats of different parity flips the roles of four pairs at the table."""
        n, partners, opponents = self.n, self.partners, self.opponents
        delta = 0
        for slot in range(i & ~3, (i & ~3) + 4):
            if slot in (i, j):
                continue
            for mover, old_slot in ((row[i], i), (row[j], j)):
                key = mover * n + row[slot]
                if (slot - old_slot) % 2 == 0:  # partner becomes opponent
                    delta += W_OPPONENT * opponents[key] - W_PARTNER * (partners[key] - 1)
                else:
                    delta += W_PARTNER * partners[key] - W_OPPONENT * (opponents[key] - 1)
        return delta


# --------------------------------------------------------------------------- tiny fields

_EVEN_PLAN_CHECKS = 3_000_000
"""Bound on candidate rounds examined by the exhaustive search (about a second at most)."""


def _even_plan(
    problem: _Problem,
    players: Sequence[Entrant],
    seated: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[int] | None:
    """Exhaustive search for a perfectly even plan of the remaining rounds (<= 2 tables).

    Annealing cannot reliably find rigid designs such as the whist tournament of 8
    players (everyone partners everyone once, opposes everyone twice), so tiny fields try a
    bounded depth-first search over whole rounds first: every pair's partner and opponent
    count must stay within the even spread (total / pairs, rounded up). Pairs are bits of
    an int so that a candidate round is checked with two ANDs. Returns round r's slots, or
    None when no such plan exists or the bound is hit (the caller then anneals).
    """
    n = len(problem.ids)
    pairs = n * (n - 1) // 2
    tables = len(seated[0]) // 4
    partner_cap = _even_cap(sum(problem.partners.values()) // 2 + 2 * tables * len(seated), pairs)
    opponent_cap = _even_cap(sum(problem.opponents.values()) // 2 + 4 * tables * len(seated), pairs)
    partner_levels = _levels(problem.partners, n, partner_cap)
    opponent_levels = _levels(problem.opponents, n, opponent_cap)
    if partner_levels is None or opponent_levels is None:
        return None
    tables_of = {p.id: p.fixed_table for p in players}
    fixed = {problem.index[i]: t for i, t in tables_of.items() if t is not None}
    candidates = [_round_candidates(problem, row, fixed, rng) for row in seated]
    # Restarts with a fresh order tame the heavy tail of depth-first search.
    spent, limit = 0, _EVEN_PLAN_CHECKS // 32
    while spent < _EVEN_PLAN_CHECKS:
        budget = [min(limit, _EVEN_PLAN_CHECKS - spent)]
        found = _even_dfs(candidates, 0, partner_levels, opponent_levels, budget)
        if found is not None:
            return found
        if budget[0] >= 0:
            return None  # exhausted the whole tree: no even plan exists
        spent, limit = spent + limit, limit * 2
        candidates = [_reshuffled(options, rng) for options in candidates]
    return None


def _reshuffled(options: Sequence[_Candidate], rng: random.Random) -> list[_Candidate]:
    """Cheapest static cost (club, household, rating gap) first; a seeded shuffle among
    equals."""
    shuffled = list(options)
    rng.shuffle(shuffled)
    shuffled.sort(key=lambda candidate: candidate[0])  # stable
    return shuffled


def _even_cap(total: int, pairs: int) -> int:
    low, extra = divmod(total, pairs)
    return low + (extra > 0)


def _levels(counts: Mapping[int, int], n: int, cap: int) -> list[int] | None:
    """levels[c] = bit mask of pairs met at least c times (c = 0..cap); None if over cap."""
    levels = [(1 << (n * n)) - 1] + [0] * cap
    for key, count in counts.items():
        if count > cap:
            return None
        for c in range(1, count + 1):
            levels[c] |= 1 << key
    return levels


def _pair_bit(n: int, a: int, b: int) -> int:
    return 1 << (a * n + b if a < b else b * n + a)


_Candidate = tuple[int, list[int], int, int]  # static cost, slots, partner/opponent bits


def _round_candidates(
    problem: _Problem, row: Sequence[int], fixed: Mapping[int, int], rng: random.Random
) -> list[_Candidate]:
    """Every round of the seated players, forbidden pairs dropped, cheapest statics first."""
    n = len(problem.ids)
    out: list[_Candidate] = []
    for slots in _round_slotings(list(row), both_orders=bool(fixed)):
        if any(fixed.get(p, slot // 4) != slot // 4 for slot, p in enumerate(slots)):
            continue
        partner_bits = opponent_bits = static = 0
        for t in range(0, len(slots), 4):
            a, b, c, d = slots[t : t + 4]
            partner_bits |= _pair_bit(n, a, c) | _pair_bit(n, b, d)
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponent_bits |= _pair_bit(n, x, y)
            for x, y in ((a, b), (a, c), (a, d), (b, c), (b, d), (c, d)):
                static += problem.static.get(x * n + y, 0)
            static += problem.rating_cost(slots, t)
        if static < W_FORBIDDEN:
            out.append((static, slots, partner_bits, opponent_bits))
    return _reshuffled(out, rng)


_SPLITS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


def _round_slotings(row: list[int], *, both_orders: bool) -> Iterable[list[int]]:
    """All rounds of 4 or 8 players: groups x team splits (x table order if pinned)."""
    if len(row) == 4:
        for split in _SPLITS:
            yield [row[k] for k in split]
        return
    first, rest = row[0], row[1:]
    for trio in itertools.combinations(rest, 3):
        one = [first, *trio]
        two = [p for p in rest if p not in trio]
        for split_one in _SPLITS:
            for split_two in _SPLITS:
                a = [one[k] for k in split_one]
                b = [two[k] for k in split_two]
                yield a + b
                if both_orders:
                    yield b + a


def _even_dfs(
    candidates: Sequence[Sequence[_Candidate]],
    depth: int,
    partner_levels: list[int],
    opponent_levels: list[int],
    budget: list[int],
) -> list[int] | None:
    if depth == len(candidates):
        return []
    partner_full, opponent_full = partner_levels[-1], opponent_levels[-1]
    for _, slots, partner_bits, opponent_bits in candidates[depth]:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if partner_bits & partner_full or opponent_bits & opponent_full:
            continue
        rest = _even_dfs(
            candidates,
            depth + 1,
            _bump(partner_levels, partner_bits),
            _bump(opponent_levels, opponent_bits),
            budget,
        )
        if rest is not None:
            return slots
    return None


def _bump(levels: list[int], bits: int) -> list[int]:
    bumped = list(levels)
    for c in range(len(levels) - 1, 0, -1):
        bumped[c] = levels[c] | (levels[c - 1] & bits)
    return bumped


# --------------------------------------------------------------------------- seats, report


_ORIENTATIONS = (
    (0, 1, 2, 3),
    (0, 3, 2, 1),
    (2, 1, 0, 3),
    (2, 3, 0, 1),
    (1, 0, 3, 2),
    (1, 2, 3, 0),
    (3, 0, 1, 2),
    (3, 2, 1, 0),
)
"""The 8 seatings of a group [a, b, c, d] that keep a & c and b & d partners."""


def _orient(group: Sequence[int], seats: Mapping[int, tuple[int, int, int, int]]) -> Table:
    """Seat the group so that everyone sits where they sat least (dealer seat included)."""

    def load(order: tuple[int, int, int, int]) -> tuple[int, int]:
        uneven = used = 0
        for seat, k in enumerate(order):
            counts = list(seats.get(group[k], (0, 0, 0, 0)))
            used += counts[seat]
            counts[seat] += 1
            uneven += max(0, max(counts) - min(counts) - 1)
        return uneven, used

    best = min(_ORIENTATIONS, key=load)
    return (group[best[0]], group[best[1]], group[best[2]], group[best[3]])


def _breakdown(
    tables: Sequence[Table],
    players: Sequence[Entrant],
    history: SeatingHistory,
    options: SeatingOptions,
) -> CostBreakdown:
    by_id = {e.id: e for e in players}
    same_club = same_household = forbidden = 0
    for table in tables:
        for a, b in _partner_pairs(table) + _opponent_pairs(table):
            ea, eb = by_id[a], by_id[b]
            same_club += ea.club is not None and ea.club == eb.club
            same_household += ea.household is not None and ea.household == eb.household
            forbidden += frozenset((a, b)) in options.forbidden
    return CostBreakdown(
        repeated_partners=_repeats(tables, history.partners, _partner_pairs),
        repeated_opponents=_repeats(tables, history.opponents, _opponent_pairs),
        same_club=same_club,
        same_household=same_household,
        seat_imbalance=_seat_imbalance(tables, history.seats),
        forbidden=forbidden,
        rating_gap=_total_gap(tables, players) if options.balance_by_rating else None,
    )


def _total_gap(tables: Sequence[Table], players: Sequence[Entrant]) -> float:
    ratings = {e.id: e.rating for e in players}
    return round(float(sum(rating_gap(table, ratings) for table in tables)), 1)


def _repeats(
    tables: Sequence[Table],
    counts: Mapping[Pair, int],
    pairs_of: Any,
) -> int:
    return sum(1 for table in tables for a, b in pairs_of(table) if counts.get(pair_key(a, b), 0))


def _seat_imbalance(tables: Sequence[Table], seats: Mapping[int, tuple[int, int, int, int]]) -> int:
    uneven = 0
    for table in tables:
        for seat, player in enumerate(table):
            counts = list(seats.get(player, (0, 0, 0, 0)))
            counts[seat] += 1
            uneven += max(counts) - min(counts) > 1
    return uneven
