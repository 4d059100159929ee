"""The season table over a club's evenings (RULES.md, "Season of club evenings"): each
player's best evenings' tournament points summed, the players with too few evenings listed
below the ranked.

Values in, values out: the standard library only. Loading the evenings' standings and
storing the table is ``tournaments/results/seasons.py``'s job.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class SeasonRow:
    rank: int | None  # None: fewer evenings than the minimum, listed below the ranked
    player: int
    evenings: int
    counted: tuple[int, ...]  # ids of the evenings whose points count, best first
    total: int | float
    best: int | float

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player": self.player,
            "evenings": self.evenings,
            "counted": list(self.counted),
            "total": self.total,
            "best": self.best,
        }


def season_table(
    evenings: Iterable[tuple[int, Mapping[int, int | float | Fraction]]],
    *,
    best_of: int | None = None,
    min_evenings: int = 1,
) -> list[SeasonRow]:
    """RULES.md, "Season of club evenings": each player's score is the sum of the best
    ``best_of`` (None: all) evenings' tournament points; only players with at least
    ``min_evenings`` evenings are ranked. Ties: more evenings played, then the better
    single evening; still tied: the same rank. Unranked players follow, by total."""
    scores: dict[int, list[tuple[int | float | Fraction, int]]] = {}
    for evening, points in evenings:
        for player, value in points.items():
            scores.setdefault(player, []).append((value, evening))
    rows = []
    for player, played in scores.items():
        best = sorted(played, key=lambda s: (-s[0], s[1]))
        counted = best if best_of is None else best[:best_of]
        total = sum((s[0] for s in counted), start=Fraction(0))
        rows.append((player, len(played), tuple(e for _, e in counted), total, best[0][0]))
    ranked = [r for r in rows if r[1] >= min_evenings]
    unranked = [r for r in rows if r[1] < min_evenings]
    out: list[SeasonRow] = []
    ranked.sort(key=lambda r: (-r[3], -r[1], -r[4], r[0]))
    for i, row in enumerate(ranked):
        tied = i and _season_key(ranked[i - 1]) == _season_key(row)
        rank = out[-1].rank if tied else i + 1
        out.append(SeasonRow(rank, row[0], row[1], row[2], _plain(row[3]), _plain(row[4])))
    for row in sorted(unranked, key=lambda r: (-r[3], -r[1], r[0])):
        out.append(SeasonRow(None, row[0], row[1], row[2], _plain(row[3]), _plain(row[4])))
    return out


def _season_key(row: tuple[object, ...]) -> tuple[object, ...]:
    return row[3], row[1], row[4]


def _plain(value: int | float | Fraction) -> int | float:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value
