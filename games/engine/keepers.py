"""Scorekeepers over a sequence of deal results (the dicts ``check`` returns).

- ``score_small_big``: small points to 5 make a big point (a Kalte, 5:0, makes 2);
  the small scores then restart at 0:0; a team on 4 is in the Laube.
- ``score_liga``: Liga-Partie match points to a target (51), ended at once by a March.
- ``score_hamburg``: Hamburg points (Orgi 2/4, Kleines/Besser 1/2, times Kontra/Re) to 6.

Each is a pure function returning a frozen state with the per-deal history. Thrown-in
deals are skipped; an invalid result, or a deal after the game is over, raises
``KeeperError``. The per-deal numbers are derived from ``winner_team``,
``playing_team``, ``kind`` and ``multiplier`` so a result checked under either preset
can be kept under either scoring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import KeeperError

Result = Mapping[str, Any]
Pair = tuple[int, int]


def _played(results: Iterable[Result]) -> Iterable[tuple[int, Result]]:
    for index, result in enumerate(results):
        if not isinstance(result, Mapping) or result.get("valid") is not True:
            raise KeeperError("bad_result", f"deal {index} is not a valid deal result", deal=index)
        if result.get("outcome") != "thrown_in":
            yield index, result


def _add(pair: Pair, team: int, amount: int) -> Pair:
    return (pair[0] + amount, pair[1]) if team == 0 else (pair[0], pair[1] + amount)


def _winner(result: Result) -> tuple[int, bool]:
    """Winning team and whether it is the playing team."""
    winner = int(result["winner_team"])
    return winner, winner == result["playing_team"]


def deal_small_points(result: Result) -> Pair:
    """Small points of one deal: made 1, failed 2 to the defenders, times the multiplier."""
    winner, made = _winner(result)
    amount = (1 if made else 2) * int(result.get("multiplier", 1))
    return _add((0, 0), winner, amount)


def deal_hamburg_points(result: Result) -> Pair:
    """Hamburg points of one deal: Orgi 2 / 4, Kleines and Besser 1 / 2, times the multiplier."""
    winner, made = _winner(result)
    base = (2 if made else 4) if result.get("kind") == "orgi" else (1 if made else 2)
    return _add((0, 0), winner, base * int(result.get("multiplier", 1)))


def _to_dict(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = dataclasses.asdict(obj)
    return out


@dataclass(frozen=True)
class BigRound:
    """One completed small round."""

    winner: int
    big_points: int
    kalte: bool
    small: Pair


@dataclass(frozen=True)
class SmallBigStep:
    """The state after one played deal."""

    deal: int
    small_points: Pair
    small: Pair
    big: Pair
    round_won_by: int | None
    kalte: bool


@dataclass(frozen=True)
class SmallBigState:
    """Small and big points after the deals so far."""

    small: Pair = (0, 0)
    big: Pair = (0, 0)
    laube: tuple[bool, bool] = (False, False)
    #: The last deal completed a small round (a big point was won).
    finished: bool = False
    winner: int | None = None
    kalte: bool = False
    rounds: tuple[BigRound, ...] = ()
    history: tuple[SmallBigStep, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return _to_dict(self)


def score_small_big(results: Iterable[Result]) -> SmallBigState:
    """Small and big points over deal results, with Kalte and Laube."""
    state = SmallBigState()
    for index, result in _played(results):
        gained = deal_small_points(result)
        small = (state.small[0] + gained[0], state.small[1] + gained[1])
        big, rounds = state.big, state.rounds
        won_by, kalte = None, False
        for team in (0, 1):
            if small[team] >= 5:
                won_by, kalte = team, small[1 - team] == 0
                big = _add(big, team, 2 if kalte else 1)
                rounds += (BigRound(team, 2 if kalte else 1, kalte, small),)
                small = (0, 0)
                break
        step = SmallBigStep(index, gained, small, big, won_by, kalte)
        state = SmallBigState(
            small,
            big,
            (small[0] == 4, small[1] == 4),
            won_by is not None,
            won_by,
            kalte,
            rounds,
            state.history + (step,),
        )
    return state


@dataclass(frozen=True)
class LigaStep:
    """Match points after one played deal."""

    deal: int
    match_points: Pair
    points: Pair


@dataclass(frozen=True)
class LigaState:
    """A Liga-Partie after the deals so far."""

    target: int
    points: Pair = (0, 0)
    finished: bool = False
    winner: int | None = None
    #: "target" or "march" once finished.
    ended_by: str | None = None
    history: tuple[LigaStep, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return _to_dict(self)


def _target_winner(points: Pair, target: int, playing: int) -> int | None:
    reached = [t for t in (0, 1) if points[t] >= target]
    if len(reached) == 1:
        return reached[0]
    if len(reached) == 2:
        if points[0] != points[1]:
            return 0 if points[0] > points[1] else 1
        return 1 - playing
    return None


def score_liga(results: Iterable[Result], *, target: int = 51) -> LigaState:
    """Liga match points to ``target``; a March ends the Partie at once."""
    state = LigaState(target)
    for index, result in _played(results):
        if state.finished:
            raise KeeperError("game_over", f"deal {index} comes after the Partie ended", deal=index)
        gained = (int(result["match_points"][0]), int(result["match_points"][1]))
        points = (state.points[0] + gained[0], state.points[1] + gained[1])
        history = state.history + (LigaStep(index, gained, points),)
        if result.get("march"):
            state = LigaState(target, points, True, int(result["winner_team"]), "march", history)
            continue
        winner = _target_winner(points, target, int(result["playing_team"]))
        state = LigaState(
            target,
            points,
            winner is not None,
            winner,
            None if winner is None else "target",
            history,
        )
    return state


@dataclass(frozen=True)
class HamburgStep:
    """Hamburg points after one played deal."""

    deal: int
    gained: Pair
    points: Pair


@dataclass(frozen=True)
class HamburgState:
    """A Hamburg round after the deals so far."""

    target: int
    points: Pair = (0, 0)
    finished: bool = False
    winner: int | None = None
    history: tuple[HamburgStep, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return _to_dict(self)


def score_hamburg(results: Iterable[Result], *, target: int = 6) -> HamburgState:
    """Hamburg points to ``target``; the first team there wins the round."""
    state = HamburgState(target)
    for index, result in _played(results):
        if state.finished:
            raise KeeperError("game_over", f"deal {index} comes after the round ended", deal=index)
        gained = deal_hamburg_points(result)
        points = (state.points[0] + gained[0], state.points[1] + gained[1])
        reached = [t for t in (0, 1) if points[t] >= target]
        state = HamburgState(
            target,
            points,
            bool(reached),
            reached[0] if reached else None,
            state.history + (HamburgStep(index, gained, points),),
        )
    return state
