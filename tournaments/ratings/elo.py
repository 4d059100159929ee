"""Player ratings across changing partners: openskill's Plackett-Luce model, round by round.

What it does
- ``rate_round``: the new ratings of the players of one round's games. Every game of a
  round is rated against the ratings from *before* the round, and the updates are then
  applied together: a player's rating never depends on the order of the games inside a
  round. (The platform seats a player at most once per round, so each player has at
  most one update; should a player have several, the mu changes add up and the sigma
  shrink factors multiply, both summed in sorted order so that the result does not
  depend on the games' order, to the last bit.)
- ``rate_rounds``: the same over a sequence of rounds (the club's closed rounds in
  closing order), giving the state after each round: a recompute from scratch is this
  sequence, an incremental update one more step of it, so the two are equal.

A game is one table match: two teams of two players; ``winner`` is 0, 1, or None for a
draw (the platform decides it per RULES.md: more big points, then small points, then
match points). The ranks given to the model are [1, 2], [2, 1] or [1, 1]. A ``Ranking``
rates several teams at once by their places (RULES.md, "Duplicate tournaments",
Ratings: the teams of one direction of a duplicate round, ranked by match points).

Parameters are openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (the sigma
added before each game, so a rating keeps moving), kappa 0.0001. The shown rating is the
ordinal mu - 3 sigma (0 for a new player).

What it does not do: no Django, no I/O; it does not read scores or decide winners.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
Z = 3.0

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)


@dataclass(frozen=True)
class Skill:
    """A player's rating: the model's mean and uncertainty, and the games counted."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def rating(self) -> float:
        """The ordinal shown to players: mu - 3 sigma."""
        return self.mu - Z * self.sigma


NEW = Skill()


@dataclass(frozen=True)
class Game:
    """One table match: team 0 = seats 0 and 2, team 1 = seats 1 and 3."""

    teams: tuple[tuple[int, int], tuple[int, int]]
    winner: int | None  # 0, 1, or None for a draw

    def ranks(self) -> list[float]:
        if self.winner is None:
            return [1.0, 1.0]
        return [1.0, 2.0] if self.winner == 0 else [2.0, 1.0]


@dataclass(frozen=True)
class Ranking:
    """Teams ranked in one go: ``places[i]`` is team i's place (1 the best; equal places
    tie)."""

    teams: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]

    def ranks(self) -> list[float]:
        return [float(place) for place in self.places]


class Rated(Protocol):
    """What is rated in one go: its teams and their ranks for the model."""

    @property
    def teams(self) -> Sequence[Sequence[int]]: ...

    def ranks(self) -> list[float]: ...


def places(scores: Sequence[float]) -> tuple[int, ...]:
    """Each score's place, the highest first; equal scores share the better place."""
    return tuple(1 + sum(other > score for other in scores) for score in scores)


def rate_game(skills: Mapping[int, Skill], game: Rated) -> dict[int, tuple[float, float]]:
    """(mu, sigma) of the game's players after this game alone."""
    teams = [
        [MODEL.rating(mu=_of(skills, p).mu, sigma=_of(skills, p).sigma) for p in team]
        for team in game.teams
    ]
    rated = MODEL.rate(teams, ranks=game.ranks())
    return {
        player: (after.mu, after.sigma)
        for team, rated_team in zip(game.teams, rated, strict=True)
        for player, after in zip(team, rated_team, strict=True)
    }


def rate_round(skills: Mapping[int, Skill], games: Sequence[Rated]) -> dict[int, Skill]:
    """The new skills of every player of ``games``, each game rated against ``skills``
    (the ratings before the round); players not in ``skills`` start as new."""
    changes: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for game in games:
        for player, after in rate_game(skills, game).items():
            changes[player].append(after)
    return {player: _combine(_of(skills, player), after) for player, after in changes.items()}


def rate_rounds(
    rounds: Iterable[Sequence[Rated]], skills: Mapping[int, Skill] | None = None
) -> list[dict[int, Skill]]:
    """The changed skills after each round, rounds in the given order."""
    current = dict(skills or {})
    out = []
    for games in rounds:
        changed = rate_round(current, games)
        current.update(changed)
        out.append(changed)
    return out


def _of(skills: Mapping[int, Skill], player: int) -> Skill:
    return skills.get(player, NEW)


def _combine(before: Skill, afters: list[tuple[float, float]]) -> Skill:
    games = before.games + len(afters)
    if len(afters) == 1:
        mu, sigma = afters[0]
        return Skill(mu=mu, sigma=sigma, games=games)
    mu = before.mu + math.fsum(sorted(after[0] - before.mu for after in afters))
    variance = before.sigma**2
    for factor in sorted(after[1] ** 2 / before.sigma**2 for after in afters):
        variance *= factor
    return Skill(mu=mu, sigma=math.sqrt(variance), games=games)


def pair_rating(player_ratings: Iterable[float]) -> float:
    """A pair's rating: the sum of its players' mu (docs/ratings.md: openskill rates a
    team by the sum of its players' mu, so this is the strength the model expects)."""
    return math.fsum(player_ratings)
