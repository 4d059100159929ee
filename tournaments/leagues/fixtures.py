"""The round robin (``league_fixtures``): a league season's or a round-robin pairs
tournament's fixture list by the circle method (single or home and away). Deterministic:
the order of the team ids is the seeding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Pair = tuple[int, int]  # two team ids, home first


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
