"""What every draw method shares: the entrants, the organiser's options, the history of
earlier rounds, the cost report, the weights and the choice of byes.

Pure: no Django, no I/O, no clock, no global random state (see ``tournaments.draw.seating``).

Weights are big enough that one unit of a criterion outweighs any realistic total of all
lower criteria in a round (lexicographic priority without tuple costs in the hot loop):
forbidden pairs at one table > repeated partners > repeated opponents > same club or
household at one table > seat balance.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Table = tuple[int, int, int, int]
"""Player ids by seat 0..3; seats 0 & 2 are partners against seats 1 & 3."""

Pair = tuple[int, int]

# Weights big enough that one unit of a criterion outweighs any realistic total of all
# lower criteria in a round (lexicographic priority without tuple costs in the hot loop).
W_FORBIDDEN = 1_000_000_000
W_PARTNER = 10_000_000
W_OPPONENT = 100_000
W_CLUB = 1_000
W_HOUSEHOLD = 1_000
W_SEAT = 1

# Start temperatures of the two cooling runs (see _Search.anneal).
HOT_MEETINGS = float(W_OPPONENT)
COLD = 0.3


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


def pair_key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


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


def choose_byes(
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


class DrawnRound(Protocol):
    """What every draw method returns for a round: tables by seat, byes, the cost report."""

    @property
    def round_number(self) -> int: ...
    @property
    def tables(self) -> Sequence[Sequence[int]]: ...
    @property
    def byes(self) -> Sequence[int]: ...
    @property
    def seed(self) -> int: ...
    @property
    def attempt(self) -> int: ...
    @property
    def cost(self) -> CostReport: ...


class CostReport(Protocol):
    """A draw's cost report (``CostBreakdown``, ``PairCostBreakdown``)."""

    def to_dict(self) -> Mapping[str, int | float]: ...


def draw_dict(draw: DrawnRound) -> dict[str, Any]:
    """JSON-ready draw of any method (they share every field but the table shape)."""
    return {
        "round_number": draw.round_number,
        "tables": [list(table) for table in draw.tables],
        "byes": list(draw.byes),
        "seed": draw.seed,
        "attempt": draw.attempt,
        "cost": draw.cost.to_dict(),
    }
