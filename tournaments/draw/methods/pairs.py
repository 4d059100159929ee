"""The fixed-pair draw (``draw_pairs``): sets fixed pairs against each other, two pairs a
table, optionally Swiss-style by standing.

Decisions
- Planned one round at a time: with few pairs a late round of a full round robin can be
  cornered into one repeat (10 pairs: round 8 in about a quarter of seeds);
  ``league_fixtures`` (``leagues/fixtures.py``) gives a perfect round robin when the
  schedule is fixed.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.draw.methods.base import (
    COLD,
    Pair,
    draw_dict,
    pair_key,
)
from tournaments.leagues.fixtures import LeagueRound, league_fixtures


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
            meetings[pair_key(first, second)] += 1
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
        return draw_dict(self)


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
        return weight * history.meetings.get(pair_key(a, b), 0) + distance * distance

    budget = iterations if iterations is not None else 2_000 + 200 * len(playing)
    _anneal_pairs(playing, cost, rng, budget, hot=float(len(ids)))
    tables = tuple(
        _orient_pair(playing[t], playing[t + 1], history, rng) for t in range(0, len(playing), 2)
    )
    breakdown = PairCostBreakdown(
        repeated_meetings=sum(1 for a, b in tables if history.meetings.get(pair_key(a, b), 0)),
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
        temperature = hot * (COLD / hot) ** (step / iterations)
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


# --------------------------------------------------------------------------- schedules and seeding


def round_robin(pairs: Sequence[int], *, home_and_away: bool = False) -> list[LeagueRound]:
    """Every pair meets every other once (twice, home and away); an odd count gives each
    pair one round off. The circle method of ``seating.league_fixtures``: the order of
    ``pairs`` is the seeding, no randomness."""
    return league_fixtures(list(pairs), home_and_away=home_and_away)


def swiss_seeding(
    entrants: Iterable[int],
    *,
    scores: Mapping[int, int | float],
    standing: Sequence[int],
    ratings: Mapping[int, float],
) -> list[int]:
    """The Swiss order seeded by rating, best first: by score (the standings' first
    criterion), equal scores by rating, then by ``standing`` (the standings' order, best
    first). Entrants without a score (round 1, a late pair) follow, by rating."""
    place = {e: i for i, e in enumerate(standing)}
    return sorted(
        set(entrants),
        key=lambda e: (
            e not in scores,
            -scores.get(e, 0),
            -ratings[e],
            place.get(e, len(place)),
            e,
        ),
    )
