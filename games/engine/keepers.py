"""Scorekeepers over a sequence of deal results (the dicts ``check`` returns).

- ``score_small_big``: small points to 5 make a big point (a Kalte, 5:0, makes 2);
  the small scores then restart at 0:0; a team on 4 is in the Laube.
- ``score_liga``: Liga-Partie match points to a target (51), ended at once by a March.
- ``score_hamburg``: Hamburg points (Orgi 2/4, Kleines/Besser 1/2, times Kontra/Re) to 6.
- ``score_klaverjas_match``: a Klaverjas match, each team's ``points`` summed over 16
  deals (or to a target, 1500); the higher total wins; match points for a tournament
  ranking: 2 for a won match, 1 each for a draw, 0 for a loss (**Decision**, the
  common Dutch competition scale; RULES.md ranks by match points, then total points).
- ``score_solo_match``: Klammern for 2 or 3 players, each player's ``points`` summed
  to a target (500) or over a fixed number of deals; the player with most points wins.
- ``score_match``: the keeper of a preset's options (``match_by`` etc.) for the new
  presets (Klaverjas, Belote, the Schieber, 2/3 players); a Belote match is 12 deals or
  to 1000 points, ranked as Klaverjas (match points 2/1/0, then total points); a Belote
  Contrée match 12 deals or to 2000 points, ranked as Belote; a
  Schieber match is 12 deals or to 2500 points (1000 short), each deal's ``points``
  already multiplied when the ``multipliers`` option is on.
- ``until_over``: any keeper over the deals up to the one that ended the match (a
  corrected deal may end it before deals entered after it).

Points matches (**Decision**): played deals count (thrown-in deals are skipped); with a
target the match ends after the deal in which someone reaches it, the highest total
winning; when the highest totals are equal play goes on. After a fixed number of deals
equal highest totals are a draw (``winner`` None). With both a deal count and a target
the first to happen ends the match.

Each is a pure function returning a frozen state with the per-deal history. Thrown-in
deals are skipped; an invalid result, or a deal after the game is over, raises
``KeeperError``. The per-deal numbers are derived from ``winner_team``,
``playing_team``, ``kind`` and ``multiplier`` so a result checked under either preset
can be kept under either scoring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import KeeperError
from .rules import Options

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


@dataclass(frozen=True)
class HamburgMatchState:
    """A match of several Hamburg rounds: rounds won so far and the current round."""

    target: int
    rounds: Pair = (0, 0)
    points: Pair = (0, 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return _to_dict(self)


def score_hamburg_match(results: Iterable[Result], *, target: int = 6) -> HamburgMatchState:
    """Hamburg rounds over a match of any number of deals: the first team to ``target``
    wins the round, and the next round starts at 0:0 (the surplus is dropped)."""
    state = HamburgMatchState(target)
    for _, result in _played(results):
        gained = deal_hamburg_points(result)
        points = (state.points[0] + gained[0], state.points[1] + gained[1])
        reached = [t for t in (0, 1) if points[t] >= target]
        if reached:
            state = HamburgMatchState(target, _add(state.rounds, reached[0], 1), (0, 0))
        else:
            state = HamburgMatchState(target, state.rounds, points)
    return state


@dataclass(frozen=True)
class PointsStep:
    """Points after one played deal (one entry per team or player)."""

    deal: int
    gained: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class PointsMatchState:
    """A match of summed deal points (Klaverjas teams, or 2/3 single players)."""

    sides: int
    deals_per_match: int | None
    target: int | None
    points: tuple[int, ...] = ()
    deals: int = 0
    finished: bool = False
    #: The team (Klaverjas) or seat (2/3 players) with most points once finished;
    #: None for a draw.
    winner: int | None = None
    #: Tournament match points once finished (2 won, 1 drawn, 0 lost); zeros before.
    match_points: tuple[int, ...] = ()
    history: tuple[PointsStep, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state."""
        return _to_dict(self)


def _gained(index: int, result: Result, sides: int) -> tuple[int, ...]:
    points = result.get("points")
    if not isinstance(points, list) or len(points) != sides:
        raise KeeperError(
            "bad_result", f"deal {index} does not give points for {sides} sides", deal=index
        )
    return tuple(int(p) for p in points)


def _leader(points: tuple[int, ...]) -> int | None:
    top = max(points)
    leaders = [s for s, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


def _match_points(sides: int, winner: int | None, finished: bool) -> tuple[int, ...]:
    if not finished:
        return (0,) * sides
    if winner is None:
        return (1,) * sides
    return tuple(2 if s == winner else 0 for s in range(sides))


def score_points_match(
    results: Iterable[Result], *, sides: int, deals_per_match: int | None, target: int | None
) -> PointsMatchState:
    """Deal points summed per side until ``deals_per_match`` deals or ``target`` points."""
    if deals_per_match is None and target is None:
        raise KeeperError("bad_result", "a points match needs a number of deals or a target")
    points: tuple[int, ...] = (0,) * sides
    deals, finished, winner = 0, False, None
    history_steps: tuple[PointsStep, ...] = ()
    for index, result in _played(results):
        if finished:
            raise KeeperError("game_over", f"deal {index} comes after the match ended", deal=index)
        gained = _gained(index, result, sides)
        points = tuple(p + g for p, g in zip(points, gained, strict=True))
        deals += 1
        history_steps += (PointsStep(index, gained, points),)
        leader = _leader(points)
        if (
            target is not None
            and max(points) >= target
            and leader is not None
            or deals_per_match is not None
            and deals >= deals_per_match
        ):
            finished, winner = True, leader
    return PointsMatchState(
        sides,
        deals_per_match,
        target,
        points,
        deals,
        finished,
        winner,
        _match_points(sides, winner, finished),
        history_steps,
    )


def score_klaverjas_match(
    results: Iterable[Result], *, deals_per_match: int | None = 16, target: int | None = None
) -> PointsMatchState:
    """A Klaverjas match: 16 deals (short 8) or to a target (1500, short 750)."""
    return score_points_match(results, sides=2, deals_per_match=deals_per_match, target=target)


def score_solo_match(
    results: Iterable[Result],
    *,
    players: int,
    target: int | None = 500,
    deals_per_match: int | None = None,
) -> PointsMatchState:
    """Klammern for 2 or 3 players: to 500 points or a fixed number of deals."""
    return score_points_match(
        results, sides=players, deals_per_match=deals_per_match, target=target
    )


def until_over[State](
    keeper: Callable[[Sequence[Result]], State], results: Sequence[Result]
) -> State:
    """What ``keeper`` counts over the deals up to the one that ended the match. A
    corrected deal may end a match (a March, a target reached earlier) before deals that
    were entered after it; those deals then do not count. Any other ``KeeperError``
    is raised."""
    try:
        return keeper(results)
    except KeeperError as error:
        if error.code != "game_over":
            raise
        return keeper(results[: int(error.params["deal"])])


def score_match(results: Iterable[Result], options: Options) -> PointsMatchState:
    """The points match of a Klaverjas, Belote, Belote Contrée, Schieber or 2/3-player
    preset, as its options say (Belote: 12 deals, or to 1000 points with ``match_by``
    target; Belote Contrée: 12 deals or to 2000; the Schieber: 12 deals, or to 2500)."""
    if options.game == "klammern" and options.players == 4:
        raise KeeperError(
            "bad_result", "Klammern matches are kept by score_liga or score_small_big"
        )
    by_deals = options.match_by == "deals"
    return score_points_match(
        results,
        sides=2 if options.players == 4 else options.players,
        deals_per_match=options.deals_per_match if by_deals else None,
        target=None if by_deals else options.target_points,
    )
