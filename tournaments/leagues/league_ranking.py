"""The player ranking of a league season (Einzelwertung, as Skat leagues keep it).

A pure function over the Liga-Partien played: each player of a pair is credited with the
Partie, whether the pair won it, and the Augen (Liga match points) the pair scored and
conceded. Players are ranked by Partien won, then Augen difference, then Augen scored;
players level on all three share a rank and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PartiePlayed:
    """One decided Liga-Partie: the home pair's and the away pair's player ids, the Augen
    (home, away), and whether the home pair won it."""

    home: tuple[int, int]
    away: tuple[int, int]
    augen: tuple[int, int]
    home_won: bool


@dataclass
class _Line:
    partien: int = 0
    won: int = 0
    augen_for: int = 0
    augen_against: int = 0


@dataclass(frozen=True)
class RankingRow:
    rank: int
    player: int
    partien: int
    won: int
    augen_for: int
    augen_against: int

    @property
    def lost(self) -> int:
        return self.partien - self.won

    @property
    def augen_difference(self) -> int:
        return self.augen_for - self.augen_against

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "partien": self.partien,
            "won": self.won,
            "lost": self.lost,
            "augen_for": self.augen_for,
            "augen_against": self.augen_against,
            "augen_difference": self.augen_difference,
        }


def player_ranking(
    partien: Iterable[PartiePlayed], *, names: Mapping[int, str]
) -> tuple[RankingRow, ...]:
    """The ranking, best first; ``names`` orders players level on everything."""
    lines: dict[int, _Line] = {}
    for partie in partien:
        for players, own, other, won in (
            (partie.home, partie.augen[0], partie.augen[1], partie.home_won),
            (partie.away, partie.augen[1], partie.augen[0], not partie.home_won),
        ):
            for player in players:
                line = lines.setdefault(player, _Line())
                line.partien += 1
                line.won += won
                line.augen_for += own
                line.augen_against += other

    def key(player: int) -> tuple[int, int, int]:
        line = lines[player]
        return (line.won, line.augen_for - line.augen_against, line.augen_for)

    ordered = sorted(lines, key=lambda p: names.get(p, ""))
    ordered.sort(key=key, reverse=True)
    rows: list[RankingRow] = []
    for player in ordered:
        line = lines[player]
        rank = len(rows) + 1
        if rows and key(rows[-1].player) == key(player):
            rank = rows[-1].rank
        rows.append(
            RankingRow(rank, player, line.partien, line.won, line.augen_for, line.augen_against)
        )
    return tuple(rows)
