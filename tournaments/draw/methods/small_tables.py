"""Tables of two or three (``draw_small_tables``): Klammern for 2 or 3 players (RULES.md).

Tables of 3 rotate as individual tables of 4 do. Everyone at such a table plays against
everyone else, so the history knows opponents only; a pair that met ``k`` times costs
``k`` more to meet again (as for tables of 4).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
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
    CostBreakdown,
    Entrant,
    Pair,
    SeatingHistory,
    SeatingOptions,
    choose_byes,
    draw_dict,
    pair_key,
)

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
                opponents[pair_key(a, b)] += 1
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
        return draw_dict(self)


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
    byes = choose_byes(ids, bye_counts, len(ids) % table_size, rng, set(fixed))
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
        key = pair_key(a.id, b.id)
        cost = W_OPPONENT * history.opponents.get(key, 0)
        if frozenset(key) in options.forbidden:
            cost += W_FORBIDDEN
        if options.avoid_same_club and a.club is not None and a.club == b.club:
            cost += W_CLUB
        if options.avoid_same_household and a.household is not None:
            cost += W_HOUSEHOLD * (a.household == b.household)
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
    return sum(pair_cost[pair_key(a, b)] for a, b in itertools.combinations(group, 2))


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
        temperature = HOT_MEETINGS * (COLD / HOT_MEETINGS) ** (step / iterations)
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
            repeated += history.opponents.get(pair_key(a, b), 0) > 0
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
