"""The table of a division of the league of clubs (RULES.md, "League of clubs").

A pure function over match day results: 2 points for a match day won (more Partien won
than the other team), 1 for a draw (2:2), 0 for a loss; teams level on points are ordered
by Partien won minus lost, then by Augen (Liga match points) scored minus conceded, then
by the points of the match days among the tied teams only. Teams level on all four share
a rank. A withdrawn team is last of its division (RULES.md, "Withdrawal"). It knows
nothing of provisional or final results: the caller passes the results that count.

``promotion_and_relegation`` places the teams of the final tables into the divisions of
the next season.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

WIN, DRAW, LOSS = 2, 1, 0


@dataclass(frozen=True)
class MatchDayResult:
    """A played match day: Partien and Augen of the home and the away team."""

    home: int
    away: int
    home_partien: int
    away_partien: int
    home_augen: int
    away_augen: int

    def __post_init__(self) -> None:
        if self.home == self.away:
            raise ValueError("a match day is between two teams")

    def points(self, team: int) -> int:
        own, other = self.home_partien, self.away_partien
        if team == self.away:
            own, other = other, own
        return WIN if own > other else DRAW if own == other else LOSS


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    partien_won: int = 0
    partien_lost: int = 0
    augen_for: int = 0
    augen_against: int = 0

    @property
    def points(self) -> int:
        return WIN * self.won + DRAW * self.drawn


@dataclass(frozen=True)
class TableRow:
    rank: int
    team: int
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    partien_won: int
    partien_lost: int
    augen_for: int
    augen_against: int
    head_to_head: int | None = field(default=None)

    @property
    def partien_difference(self) -> int:
        return self.partien_won - self.partien_lost

    @property
    def augen_difference(self) -> int:
        return self.augen_for - self.augen_against

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "team": self.team,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "points": self.points,
            "partien_won": self.partien_won,
            "partien_lost": self.partien_lost,
            "partien_difference": self.partien_difference,
            "augen_for": self.augen_for,
            "augen_against": self.augen_against,
            "augen_difference": self.augen_difference,
            "head_to_head": self.head_to_head,
        }


def _tally(teams: Iterable[int], results: Sequence[MatchDayResult]) -> dict[int, _Tally]:
    tallies = {team: _Tally() for team in teams}
    for result in results:
        for team, partien, augen in (
            (
                result.home,
                (result.home_partien, result.away_partien),
                (result.home_augen, result.away_augen),
            ),
            (
                result.away,
                (result.away_partien, result.home_partien),
                (result.away_augen, result.home_augen),
            ),
        ):
            line = tallies.setdefault(team, _Tally())
            line.played += 1
            points = result.points(team)
            line.won += points == WIN
            line.drawn += points == DRAW
            line.lost += points == LOSS
            line.partien_won += partien[0]
            line.partien_lost += partien[1]
            line.augen_for += augen[0]
            line.augen_against += augen[1]
    return tallies


def _head_to_head(group: Sequence[int], results: Sequence[MatchDayResult]) -> dict[int, int]:
    tied = set(group)
    points = dict.fromkeys(group, 0)
    for result in results:
        if result.home in tied and result.away in tied:
            points[result.home] += result.points(result.home)
            points[result.away] += result.points(result.away)
    return points


def division_table(
    results: Iterable[MatchDayResult],
    *,
    teams: Iterable[int] = (),
    withdrawn: Iterable[int] = (),
) -> tuple[TableRow, ...]:
    """The table, best first. ``teams`` (in the order wanted among teams level on
    everything, e.g. by name) appear even before their first match day; ``withdrawn``
    teams come last, whatever their numbers."""
    results = list(results)
    tallies = _tally(teams, results)
    out = set(withdrawn)

    def key(team: int) -> tuple[int, int, int, int]:
        t = tallies[team]
        return (
            team not in out,
            t.points,
            t.partien_won - t.partien_lost,
            t.augen_for - t.augen_against,
        )

    ordered = sorted(tallies, key=key, reverse=True)  # stable: the given order among equals
    rows: list[TableRow] = []
    for _, members in groupby(ordered, key=key):
        group = list(members)
        h2h = _head_to_head(group, results) if len(group) > 1 else {}
        group.sort(key=lambda team: h2h.get(team, 0), reverse=True)
        for team in group:
            rank = len(rows) + 1
            if rows and key(rows[-1].team) == key(team) and h2h.get(rows[-1].team) == h2h[team]:
                rank = rows[-1].rank
            t = tallies[team]
            rows.append(
                TableRow(
                    rank=rank,
                    team=team,
                    played=t.played,
                    won=t.won,
                    drawn=t.drawn,
                    lost=t.lost,
                    points=t.points,
                    partien_won=t.partien_won,
                    partien_lost=t.partien_lost,
                    augen_for=t.augen_for,
                    augen_against=t.augen_against,
                    head_to_head=h2h.get(team),
                )
            )
    return tuple(rows)


def promotion_and_relegation(
    tables: Sequence[Sequence[int]],
    *,
    promoted: Sequence[int],
    relegated: Sequence[int],
    withdrawn: Iterable[int] = (),
) -> list[list[int]]:
    """The teams of each division next season, from this season's final tables (best
    first; division 0 the highest): the best ``promoted[i]`` of division i go one up, its
    last ``relegated[i]`` and every withdrawn team one down; the highest division sends
    none up and the lowest none down."""
    out = set(withdrawn)
    placed: list[list[int]] = [[] for _ in tables]
    for index, table in enumerate(tables):
        up = set(table[: promoted[index]]) if index > 0 else set()
        down: set[int] = set()
        if index < len(tables) - 1:
            down = set(table[len(table) - relegated[index] :]) if relegated[index] else set()
            down |= out & set(table)
        for team in table:
            target = index - 1 if team in up else index + 1 if team in down else index
            placed[target].append(team)
    return placed
