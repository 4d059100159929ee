"""Fair seating for Klammern tournaments: individual draws, fixed-pair draws, league fixtures.

What it does
- ``draw_individual``: seats the active entrants of one round at tables of four (partners
  opposite: seats 0 & 2 against 1 & 3, seat 0 deals first) and hands out the byes.
- ``draw_pairs``: sets fixed pairs against each other (two pairs a table), optionally
  Swiss-style by standing.
- ``league_fixtures``: a season's round robin by the circle method (single or home and away).

What it does not do
- No Django, no I/O, no clock, no global random state. Everything is a pure function of its
  arguments: the same entrants, history, seed, round number and attempt always give the
  same draw. The platform loads rows, calls these functions and saves the result.
- It does not score byes; ``tournaments.results.standings`` does (a tournament setting).
- It does not know about late arrivals or withdrawals: the caller passes the set of
  entrants active in this round plus the history of earlier rounds.

How the individual draw works
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
- Fixed-pair draws are planned one round at a time: with few pairs a late round of a
  full round robin can be cornered into one repeat (10 pairs: round 8 in about a quarter
  of seeds); ``league_fixtures`` gives a perfect round robin when the schedule is fixed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Table = tuple[int, int, int, int]
"""Player ids by seat 0..3; seats 0 & 2 are partners against seats 1 & 3."""

Pair = tuple[int, int]

# Weights big enough that one unit of a criterion outweighs any realistic total of all
# lower criteria in a round (lexicographic priority without tuple costs in the hot loop).
_W_FORBIDDEN = 1_000_000_000
_W_PARTNER = 10_000_000
_W_OPPONENT = 100_000
_W_CLUB = 1_000
_W_HOUSEHOLD = 1_000
_W_SEAT = 1
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
_HOT_MEETINGS = float(_W_OPPONENT)
_HOT_SEATS = 5.0
_COLD = 0.3


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Entrant:
    """An active player of the round. ``fixed_table`` (0-based) pins them to a table."""

    id: int
    club: int | None = None
    household: str | None = None
    fixed_table: int | None = None
    rating: float = 0.0


@dataclass(frozen=True)
class SeatingHistory:
    """What earlier rounds did, as counts. Build it with ``history_from_tables``."""

    partners: Mapping[Pair, int] = field(default_factory=dict)
    opponents: Mapping[Pair, int] = field(default_factory=dict)
    seats: Mapping[int, tuple[int, int, int, int]] = field(default_factory=dict)
    byes: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatingOptions:
    """Organiser's choices for an individual draw.

    ``forbidden`` holds pairs of players who must never sit at the same table (neither as
    partners nor as opponents). ``balance_by_rating`` weighs each table's rating gap (see
    ``rating_gap``) using ``Entrant.rating``. ``iterations`` overrides the size-based
    search budget.
    """

    avoid_same_club: bool = True
    avoid_same_household: bool = True
    forbidden: frozenset[frozenset[int]] = frozenset()
    balance_by_rating: bool = False
    planned_rounds: int | None = None
    iterations: int | None = None


def _key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


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
        partners[_key(a, b)] += 1
    for a, b in _opponent_pairs(table):
        opponents[_key(a, b)] += 1


def _partner_pairs(table: Sequence[int]) -> tuple[Pair, Pair]:
    return (table[0], table[2]), (table[1], table[3])


def _opponent_pairs(table: Sequence[int]) -> tuple[Pair, Pair, Pair, Pair]:
    return (table[0], table[1]), (table[0], table[3]), (table[2], table[1]), (table[2], table[3])


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True)
class CostBreakdown:
    """What the organiser sees before publishing a draw (all about this round only).

    ``repeated_partners``/``repeated_opponents`` count this round's partner/opponent
    pairings that already happened in earlier rounds; ``same_club``/``same_household`` and
    ``forbidden`` count pairs of players at one table; ``seat_imbalance`` counts seated
    players whose seat counts (including this round) differ by more than one between their
    most and least used seat. ``rating_gap`` (only when balancing by rating, else None) is
    the sum over tables of ``rating_gap``, in rating points to one decimal.
    """

    repeated_partners: int
    repeated_opponents: int
    same_club: int
    same_household: int
    seat_imbalance: int
    forbidden: int
    rating_gap: float | None = None

    def to_dict(self) -> dict[str, int | float]:
        out: dict[str, int | float] = {
            "repeated_partners": self.repeated_partners,
            "repeated_opponents": self.repeated_opponents,
            "same_club": self.same_club,
            "same_household": self.same_household,
            "seat_imbalance": self.seat_imbalance,
            "forbidden": self.forbidden,
        }
        if self.rating_gap is not None:
            out["rating_gap"] = self.rating_gap
        return out


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
        return _draw_dict(self)


# --------------------------------------------------------------------------- individual


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
        chosen = _choose_byes(ids, bye_counts, len(ids) % 4, rng, fixed_ids)
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


def _choose_byes(
    ids: Sequence[int],
    bye_counts: Mapping[int, int],
    count: int,
    rng: random.Random,
    fixed_ids: set[int],
) -> list[int]:
    """Fewest byes first; among equals, unpinned players first, then the seeded shuffle."""
    # The key is evaluated once per id, in the sorted order of ids: reproducible.
    ranked = sorted(ids, key=lambda p: (bye_counts[p], p in fixed_ids, rng.random()))
    return ranked[:count]


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
        _add_group_cost(static, [(e.club, index[e.id]) for e in players], n, _W_CLUB)
    if options.avoid_same_household:
        _add_group_cost(static, [(e.household, index[e.id]) for e in players], n, _W_HOUSEHOLD)
    for pair in options.forbidden:
        a, b = sorted(pair)
        if a in index and b in index:
            static[index[a] * n + index[b]] += _W_FORBIDDEN
            static[index[b] * n + index[a]] += _W_FORBIDDEN
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
        total = _W_SEAT * sum(k * (k - 1) // 2 for k in self.seats)
        for counts, weight in ((self.partners, _W_PARTNER), (self.opponents, _W_OPPONENT)):
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
            _W_PARTNER * _even_spread(partner_total, pairs)
            + _W_OPPONENT * _even_spread(opponent_total, pairs)
            + _W_SEAT * seat_floor
        )

    def meeting_gap(self) -> int:
        """Partner and opponent cost above its lower bound (0: no avoidable repeat)."""
        n = self.n
        pairs = n * (n - 1) // 2
        gap = 0
        for counts, weight in ((self.partners, _W_PARTNER), (self.opponents, _W_OPPONENT)):
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
        for hot, steps in ((_HOT_MEETINGS, first), (_HOT_SEATS, iterations - first)):
            for step in range(steps):
                if self.cost <= floor:
                    break
                temperature = hot * (_COLD / hot) ** (step / steps)
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
        return _W_SEAT * (gained - lost)

    def _delta_replace(self, row: list[int], slot: int, leaving: int, entering: int) -> int:
        """Cost change when ``entering`` takes ``leaving``'s seat at a table."""
        n, partners, opponents, static = self.n, self.partners, self.opponents, self.static
        base, own = slot & ~3, slot & 3
        delta = 0
        for offset in (1, 2, 3):
            z = row[base + ((own + offset) & 3)]
            new, old = entering * n + z, leaving * n + z
            if offset == 2:
                delta += _W_PARTNER * (partners[new] - partners[old] + 1)
            else:
                delta += _W_OPPONENT * (opponents[new] - opponents[old] + 1)
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
                    delta += _W_OPPONENT * opponents[key] - _W_PARTNER * (partners[key] - 1)
                else:
                    delta += _W_PARTNER * partners[key] - _W_OPPONENT * (opponents[key] - 1)
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
        if static < _W_FORBIDDEN:
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
    return sum(1 for table in tables for a, b in pairs_of(table) if counts.get(_key(a, b), 0))


def _seat_imbalance(tables: Sequence[Table], seats: Mapping[int, tuple[int, int, int, int]]) -> int:
    uneven = 0
    for table in tables:
        for seat, player in enumerate(table):
            counts = list(seats.get(player, (0, 0, 0, 0)))
            counts[seat] += 1
            uneven += max(counts) - min(counts) > 1
    return uneven


# --------------------------------------------------------------------------- fixed pairs


@dataclass(frozen=True)
class PairHistory:
    """Earlier rounds of a fixed-pair tournament, as counts. Build with
    ``pair_history_from_tables``. ``first_side`` counts rounds a pair sat in seats 0 & 2
    (and so dealt first)."""

    meetings: Mapping[Pair, int] = field(default_factory=dict)
    first_side: Mapping[int, int] = field(default_factory=dict)
    byes: Mapping[int, int] = field(default_factory=dict)


def pair_history_from_tables(
    rounds: Iterable[Sequence[Pair]], *, byes: Iterable[int] = ()
) -> PairHistory:
    """Count meetings from earlier rounds; each table is (pair in seats 0 & 2, other pair)."""
    meetings: Counter[Pair] = Counter()
    first_side: Counter[int] = Counter()
    for tables in rounds:
        for first, second in tables:
            meetings[_key(first, second)] += 1
            first_side[first] += 1
    return PairHistory(dict(meetings), dict(first_side), dict(Counter(byes)))


@dataclass(frozen=True)
class PairCostBreakdown:
    """``repeated_meetings``: tables whose two pairs met before. ``standing_distance``:
    sum over tables of (rank difference - 1) squared in the Swiss order (0 without it)."""

    repeated_meetings: int
    standing_distance: int

    def to_dict(self) -> dict[str, int]:
        return {
            "repeated_meetings": self.repeated_meetings,
            "standing_distance": self.standing_distance,
        }


@dataclass(frozen=True)
class PairDraw:
    """One round of a fixed-pair tournament; ``tables[t]`` = (pair in seats 0 & 2, other)."""

    round_number: int
    tables: tuple[Pair, ...]
    byes: tuple[int, ...]
    seed: int
    attempt: int
    cost: PairCostBreakdown

    def to_dict(self) -> dict[str, Any]:
        return _draw_dict(self)


def _draw_dict(draw: Draw | PairDraw) -> dict[str, Any]:
    """JSON-ready draw of either kind (they share every field but the table shape)."""
    return {
        "round_number": draw.round_number,
        "tables": [list(table) for table in draw.tables],
        "byes": list(draw.byes),
        "seed": draw.seed,
        "attempt": draw.attempt,
        "cost": draw.cost.to_dict(),
    }


def draw_pairs(
    pairs: Iterable[int],
    history: PairHistory,
    *,
    round_number: int,
    seed: int,
    attempt: int = 0,
    swiss_order: Sequence[int] | None = None,
    iterations: int | None = None,
) -> PairDraw:
    """Set the active pairs against each other, two pairs a table.

    Pairs meet as rarely as possible (a pair that met ``k`` times costs ``k`` more to meet
    again, lexicographically first). With ``swiss_order`` (active pair ids, best first),
    pairs close in the standing meet: the second criterion is the sum of squared
    (rank difference - 1). An odd pair count gives a bye: fewest byes first, then (Swiss)
    the lowest-ranked, then the seeded shuffle.
    """
    ids = sorted(set(pairs))
    if len(ids) < 2:
        raise ValueError("a pair draw needs at least two active pairs")
    rank = _swiss_ranks(ids, swiss_order)
    rng = random.Random(f"klammern-pairs:{seed}:{round_number}:{attempt}")
    bye_key = {p: (history.byes.get(p, 0), -rank.get(p, 0), rng.random()) for p in ids}
    byes = sorted(ids, key=bye_key.__getitem__)[: len(ids) % 2]
    playing = [p for p in ids if p not in byes]
    if swiss_order is None:
        rng.shuffle(playing)
    else:
        playing.sort(key=rank.__getitem__)
    weight = len(ids) ** 3 + 1  # one repeated meeting outweighs any standing distance

    def cost(a: int, b: int) -> int:
        distance = abs(rank[a] - rank[b]) - 1 if rank else 0
        return weight * history.meetings.get(_key(a, b), 0) + distance * distance

    budget = iterations if iterations is not None else 2_000 + 200 * len(playing)
    _anneal_pairs(playing, cost, rng, budget, hot=float(len(ids)))
    tables = tuple(
        _orient_pair(playing[t], playing[t + 1], history, rng) for t in range(0, len(playing), 2)
    )
    breakdown = PairCostBreakdown(
        repeated_meetings=sum(1 for a, b in tables if history.meetings.get(_key(a, b), 0)),
        standing_distance=sum(cost(a, b) % weight for a, b in tables),
    )
    return PairDraw(round_number, tables, tuple(byes), seed, attempt, breakdown)


def _swiss_ranks(ids: Sequence[int], swiss_order: Sequence[int] | None) -> dict[int, int]:
    if swiss_order is None:
        return {}
    rank = {p: r for r, p in enumerate(swiss_order)}
    if sorted(rank) != list(ids) or len(rank) != len(swiss_order):
        raise ValueError("swiss_order must list every active pair exactly once")
    return rank


def _anneal_pairs(
    slots: list[int], cost: Any, rng: random.Random, iterations: int, *, hot: float
) -> None:
    """Swap pairs between tables (slots 2t and 2t + 1 meet); keep the best arrangement."""
    if len(slots) < 4:
        return
    current = best = sum(cost(slots[t], slots[t + 1]) for t in range(0, len(slots), 2))
    best_slots = list(slots)
    for step in range(iterations):
        if best == 0:
            break
        i, j = rng.randrange(len(slots)), rng.randrange(len(slots))
        if i >> 1 == j >> 1:
            continue
        x, y, mate_i, mate_j = slots[i], slots[j], slots[i ^ 1], slots[j ^ 1]
        delta = cost(y, mate_i) + cost(x, mate_j) - cost(x, mate_i) - cost(y, mate_j)
        temperature = hot * (_COLD / hot) ** (step / iterations)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            slots[i], slots[j] = y, x
            current += delta
            if current < best:
                best, best_slots = current, list(slots)
    slots[:] = best_slots


def _orient_pair(a: int, b: int, history: PairHistory, rng: random.Random) -> Pair:
    """The pair that dealt first less often takes seats 0 & 2 (ties: seeded)."""
    first_a, first_b = history.first_side.get(a, 0), history.first_side.get(b, 0)
    if first_a == first_b:
        return (a, b) if rng.random() < 0.5 else (b, a)
    return (a, b) if first_a < first_b else (b, a)


# --------------------------------------------------------------------------- leagues


@dataclass(frozen=True)
class LeagueRound:
    """One matchday: (home, away) team ids, and the team that rests (odd team counts)."""

    number: int
    matches: tuple[Pair, ...]
    bye: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "matches": [list(match) for match in self.matches],
            "bye": self.bye,
        }


def league_fixtures(team_ids: Sequence[int], *, home_and_away: bool = False) -> list[LeagueRound]:
    """A season by the circle method: everyone meets everyone once (twice, home and away).

    Home and away alternate, so in a single round robin every team has as many home
    matches as away matches, give or take one (exactly as many for odd team counts). The
    second half of a double round robin repeats the first with home and away swapped.
    Deterministic: the order of ``team_ids`` is the seeding; no randomness.
    """
    if len(set(team_ids)) != len(team_ids):
        raise ValueError("team ids must be unique")
    if len(team_ids) < 2:
        raise ValueError("a league needs at least two teams")
    first_half = _circle_rounds(list(team_ids))
    rounds = list(first_half)
    if home_and_away:
        offset = len(first_half)
        rounds += [
            LeagueRound(r.number + offset, tuple((away, home) for home, away in r.matches), r.bye)
            for r in first_half
        ]
    return rounds


def _circle_rounds(teams: list[int]) -> list[LeagueRound]:
    # For odd counts the empty slot is the fixed point of the circle: pairing it with the
    # rotating teams in turn keeps everyone's home/away alternation intact.
    slots: list[int | None] = [None, *teams] if len(teams) % 2 else list(teams)
    size = len(slots)
    fixed, rotating = slots[0], slots[1:]
    rounds = []
    for number in range(1, size):
        arrangement = [fixed, *rotating]
        matches: list[Pair] = []
        bye = None
        for k in range(size // 2):
            home, away = arrangement[k], arrangement[size - 1 - k]
            if (k == 0 and number % 2 == 0) or k % 2 == 1:
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
            else:
                matches.append((home, away))
        rounds.append(LeagueRound(number, tuple(matches), bye))
        rotating = [rotating[-1], *rotating[:-1]]
    return rounds


# --------------------------------------------------------------------------- tables of 2 or 3
# Klammern for 2 or 3 players (RULES.md): tables of 3 rotate as individual tables of 4 do.
# Everyone at such a table plays against everyone else, so the history knows opponents
# only; a pair that met ``k`` times costs ``k`` more to meet again (as for tables of 4).

SmallTable = tuple[int, ...]
"""Player ids by seat 0..n-1 (n = 2 or 3); seat 0 deals first."""

SMALL_TABLE_SIZES = (2, 3)


def small_table_history(
    rounds: Iterable[Sequence[Sequence[int]]], *, byes: Iterable[int] = ()
) -> SeatingHistory:
    """Count opponents and seats from earlier rounds' tables of 2 or 3 (no partners).
    Seat counts keep the four-seat shape of ``SeatingHistory`` (seat 3 stays 0)."""
    opponents: Counter[Pair] = Counter()
    seats: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for seat, player in enumerate(table):
                seats.setdefault(player, [0, 0, 0, 0])[seat] += 1
            for a, b in itertools.combinations(table, 2):
                opponents[_key(a, b)] += 1
    return SeatingHistory(
        partners={},
        opponents=dict(opponents),
        seats={player: (c[0], c[1], c[2], c[3]) for player, c in seats.items()},
        byes=dict(Counter(byes)),
    )


@dataclass(frozen=True)
class SmallTableDraw:
    """One round at tables of 2 or 3. ``tables[t]`` holds player ids by seat."""

    round_number: int
    tables: tuple[SmallTable, ...]
    byes: tuple[int, ...]
    seed: int
    attempt: int
    cost: CostBreakdown

    def to_dict(self) -> dict[str, Any]:
        return {
            "round_number": self.round_number,
            "tables": [list(table) for table in self.tables],
            "byes": list(self.byes),
            "seed": self.seed,
            "attempt": self.attempt,
            "cost": self.cost.to_dict(),
        }


def draw_small_tables(
    entrants: Iterable[Entrant],
    history: SeatingHistory,
    *,
    table_size: int,
    round_number: int,
    seed: int,
    attempt: int = 0,
    options: SeatingOptions = SeatingOptions(),  # noqa: B008 - frozen, safe as default
) -> SmallTableDraw:
    """Draw one round at tables of ``table_size`` (2 or 3) players.

    Byes as for tables of four (fewest byes first, unpinned players first among equals,
    then the seeded shuffle; ``len % table_size`` of them). Then a seeded annealing over
    swaps of two players at different tables; the cost, lexicographic by its weights, is
    forbidden pairs > repeated opponents (convex) > same club or household. Seats last:
    of the orders of each table, the one that best balances each player's seat counts.
    Raises ``ValueError`` for too few entrants, duplicate ids or a bad fixed table.
    """
    if table_size not in SMALL_TABLE_SIZES:
        raise ValueError(f"tables of {table_size} are drawn by draw_individual or not at all")
    players = sorted(entrants, key=lambda e: e.id)
    if len(players) < table_size:
        raise ValueError(f"a draw needs at least {table_size} active entrants")
    if len({e.id for e in players}) != len(players):
        raise ValueError("entrant ids must be unique")
    table_count = len(players) // table_size
    _validate_small_fixed(players, table_count, table_size)
    rng = random.Random(f"klammern-seating-{table_size}:{seed}:{round_number}:{attempt}")
    ids = [e.id for e in players]
    fixed = {e.id: e.fixed_table for e in players if e.fixed_table is not None}
    bye_counts = {p: history.byes.get(p, 0) for p in ids}
    byes = _choose_byes(ids, bye_counts, len(ids) % table_size, rng, set(fixed))
    seated = [e for e in players if e.id not in byes]
    pair_cost = _small_pair_costs(seated, history, options)
    groups = _initial_small_groups(seated, table_count, table_size, rng)
    iterations = options.iterations or 3_000 + 300 * len(seated)
    _anneal_small(groups, pair_cost, set(fixed), rng, iterations)
    tables = tuple(_orient_small(group, history.seats) for group in groups)
    cost = _small_breakdown(tables, players, history, options)
    return SmallTableDraw(round_number, tables, tuple(sorted(byes)), seed, attempt, cost)


def _validate_small_fixed(players: Sequence[Entrant], table_count: int, size: int) -> None:
    pinned = Counter(e.fixed_table for e in players if e.fixed_table is not None)
    for table, count in pinned.items():
        if not 0 <= table < table_count:
            raise ValueError(f"fixed table {table} does not exist (tables 0..{table_count - 1})")
        if count > size:
            raise ValueError(f"{count} players are fixed to table {table}, which seats {size}")


def _small_pair_costs(
    seated: Sequence[Entrant], history: SeatingHistory, options: SeatingOptions
) -> dict[Pair, int]:
    costs: dict[Pair, int] = {}
    for a, b in itertools.combinations(seated, 2):
        key = _key(a.id, b.id)
        cost = _W_OPPONENT * history.opponents.get(key, 0)
        if frozenset(key) in options.forbidden:
            cost += _W_FORBIDDEN
        if options.avoid_same_club and a.club is not None and a.club == b.club:
            cost += _W_CLUB
        if options.avoid_same_household and a.household is not None:
            cost += _W_HOUSEHOLD * (a.household == b.household)
        costs[key] = cost
    return costs


def _initial_small_groups(
    seated: Sequence[Entrant], table_count: int, size: int, rng: random.Random
) -> list[list[int]]:
    """Pinned players at their tables, everyone else shuffled into the free places."""
    groups: list[list[int]] = [[] for _ in range(table_count)]
    free = []
    for entrant in seated:
        if entrant.fixed_table is not None:
            groups[entrant.fixed_table].append(entrant.id)
        else:
            free.append(entrant.id)
    rng.shuffle(free)
    for group in groups:
        while len(group) < size:
            group.append(free.pop())
    return groups


def _small_table_cost(group: Sequence[int], pair_cost: Mapping[Pair, int]) -> int:
    return sum(pair_cost[_key(a, b)] for a, b in itertools.combinations(group, 2))


def _anneal_small(
    groups: list[list[int]],
    pair_cost: Mapping[Pair, int],
    pinned: set[int],
    rng: random.Random,
    iterations: int,
) -> None:
    """Swap two unpinned players of different tables; keep the best arrangement found."""
    if len(groups) < 2:
        return
    costs = [_small_table_cost(g, pair_cost) for g in groups]
    current = best = sum(costs)
    best_groups = [list(g) for g in groups]
    size = len(groups[0])
    for step in range(iterations):
        if best == 0:
            break
        t, u = rng.randrange(len(groups)), rng.randrange(len(groups))
        i, j = rng.randrange(size), rng.randrange(size)
        if t == u or groups[t][i] in pinned or groups[u][j] in pinned:
            continue
        groups[t][i], groups[u][j] = groups[u][j], groups[t][i]
        new_t, new_u = (
            _small_table_cost(groups[t], pair_cost),
            _small_table_cost(groups[u], pair_cost),
        )
        delta = new_t + new_u - costs[t] - costs[u]
        temperature = _HOT_MEETINGS * (_COLD / _HOT_MEETINGS) ** (step / iterations)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            costs[t], costs[u] = new_t, new_u
            current += delta
            if current < best:
                best, best_groups = current, [list(g) for g in groups]
        else:
            groups[t][i], groups[u][j] = groups[u][j], groups[t][i]
    groups[:] = best_groups


def _orient_small(
    group: Sequence[int], seats: Mapping[int, tuple[int, int, int, int]]
) -> SmallTable:
    """Seat the group so that everyone sits where they sat least (dealer seat included)."""

    def load(order: tuple[int, ...]) -> tuple[int, int]:
        uneven = used = 0
        for seat, player in enumerate(order):
            counts = list(seats.get(player, (0, 0, 0, 0)))[: len(order)]
            used += counts[seat]
            counts[seat] += 1
            uneven += max(0, max(counts) - min(counts) - 1)
        return uneven, used

    return min(itertools.permutations(group), key=load)


def _small_breakdown(
    tables: Sequence[SmallTable],
    players: Sequence[Entrant],
    history: SeatingHistory,
    options: SeatingOptions,
) -> CostBreakdown:
    by_id = {e.id: e for e in players}
    repeated = same_club = same_household = forbidden = imbalance = 0
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            ea, eb = by_id[a], by_id[b]
            repeated += history.opponents.get(_key(a, b), 0) > 0
            same_club += ea.club is not None and ea.club == eb.club
            same_household += ea.household is not None and ea.household == eb.household
            forbidden += frozenset((a, b)) in options.forbidden
        for seat, player in enumerate(table):
            counts = list(history.seats.get(player, (0, 0, 0, 0)))[: len(table)]
            counts[seat] += 1
            imbalance += max(counts) - min(counts) > 1
    return CostBreakdown(
        repeated_partners=0,
        repeated_opponents=repeated,
        same_club=same_club,
        same_household=same_household,
        seat_imbalance=imbalance,
        forbidden=forbidden,
    )
