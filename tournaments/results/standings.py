"""Standings for Klammern: tournament tables with tie-breaks, league tables, the all-time
table of a club and the KlammernBoss.

What it does
- ``tournament_standings``: ranks players (individual tournaments) or pairs (fixed-pair
  tournaments: pass each pair as a one-member team ``(pair_id,)``) from the games of a
  tournament and its byes, along a configurable chain of tie-breaks. Every row carries
  all criterion values and the criterion that separated it from the next row.
- ``league_table``: the season table from Liga-Partien.
- ``all_time_table`` and ``boss_history``/``klammern_boss``: a club's ewige Tabelle and
  who held the KlammernBoss title after each playing evening (RULES.md, KlammernBoss).
  An evening imported from a club's spreadsheet (``ImportedTally``: a player's games,
  games won and point difference of that evening) counts there exactly as a played one.

What it does not do
- It does not score deals: the platform turns deals into one ``GameResult`` per table
  (big points, small points, match points/Augen) with the engine's scorekeepers.
- No Django, no I/O. Values in, frozen dataclasses out; every output has ``to_dict()``
  (JSON-ready; fractions become floats) for the platform's snapshots.

Definitions (RULES.md, "KlammernBoss")
- The winner of a game is the team with more big points, then more small points, then
  more match points (Augen); equal on all three is a draw.
- A player's point difference in a game is their team's match points minus the other
  team's.
- Tournament points: 2 for a win, 1 for a draw, 0 for a loss (named ``tournament_points``
  to keep them apart from the Augen, which are ``augen``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

Value = int | Fraction
"""Criterion values are exact: byes scored as a round average can be fractional."""

WIN_POINTS = 2
DRAW_POINTS = 1


#: Decimals shown for a fractional criterion value (a round-average bye).
SHOWN_PLACES = 2


def shown_value(value: float | Fraction | Decimal, places: int = SHOWN_PLACES) -> int | Decimal:
    """A criterion value as pages and files show it: whole numbers as ints, fractions
    rounded half up to ``places`` decimals (107.625 -> 107.63 and 1.375 -> 1.38 alike;
    Python's ``round`` rounds half to even and gave 107.62 beside 1.38). A float is
    taken by its shortest repr, which is the exact fraction the snapshot stored."""
    if isinstance(value, Decimal):
        exact = value
    elif isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(repr(float(value)))
    if exact == exact.to_integral_value():
        return int(exact)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP).normalize()


def _json(value: Value | None) -> int | float | None:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


# --------------------------------------------------------------------------- inputs


def game_winner(
    big: tuple[int, int], small: tuple[int, int], match_points: tuple[int, int]
) -> int | None:
    """The winner of a game (RULES.md, "KlammernBoss"): the team (0 or 1) with more big
    points, then more small points, then more match points; None when level on all."""
    first = (big[0], small[0], match_points[0])
    second = (big[1], small[1], match_points[1])
    if first == second:
        return None
    return 0 if first > second else 1


@dataclass(frozen=True)
class GameResult:
    """One table match (Partie) of a round: two teams and their totals for the match."""

    round: int
    table: int
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    big: tuple[int, int]
    small: tuple[int, int]
    match_points: tuple[int, int]

    def winner(self) -> int | None:
        """Index (0 or 1) of the winning team, or None for a draw."""
        return game_winner(self.big, self.small, self.match_points)


@dataclass(frozen=True)
class TableResult:
    """One table of Klammern for 2 or 3 players (RULES.md): each player alone, the
    points of the table's match by seat. The winner is the player with the most points;
    players tied at the top draw, everyone else loses. A player's point difference is
    their points minus the best other player's (positive only for the winner). It counts
    wherever a ``GameResult`` does: tournament standings, the all-time table and the
    KlammernBoss (one game per table: the winner wins it, the others lose it)."""

    round: int
    table: int
    players: tuple[int, ...]
    points: tuple[int, ...]

    def winner(self) -> int | None:
        """The winning player's id, or None when the top is shared."""
        top = max(self.points)
        leaders = [p for p, own in zip(self.players, self.points, strict=True) if own == top]
        return leaders[0] if len(leaders) == 1 else None


AnyGame = GameResult | TableResult
"""A table's match: two teams (Klammern, Klaverjas) or 2/3 single players."""


@dataclass(frozen=True)
class ImportedTally:
    """One player's line of an evening imported from the club's spreadsheet: the games
    the player played and won there and the point difference over them. The tables are
    not known, so it counts only in the club tables (all-time table, KlammernBoss, the
    season table), where it adds exactly what the player's games of a played evening add."""

    player: int
    played: int
    won: int
    point_difference: int

    @property
    def tournament_points(self) -> int:
        """The evening's tournament points, as a season table scores it: the file has
        games won, not draws, so each game won scores ``WIN_POINTS``."""
        return WIN_POINTS * self.won


ClubGame = AnyGame | ImportedTally
"""What counts in the club tables: a played table's match or an imported player line."""


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


class ByeMode(StrEnum):
    ROUND_AVERAGE = "round_average"
    FIXED = "fixed"


@dataclass(frozen=True)
class ByeScore:
    """What a bye adds (a tournament setting).

    ``ROUND_AVERAGE``: to each of tournament points, games won, point difference and
    Augen, the mean of that value over every player result of the bye's round (exact
    fractions; the point difference mean is always 0). ``FIXED``: the numbers given here.
    Either way a bye is not a game: played/won/drawn/lost stay untouched, and a bye has
    no opponent, so it adds nothing to Buchholz or head-to-head.
    """

    mode: ByeMode = ByeMode.ROUND_AVERAGE
    tournament_points: int = 0
    games_won: int = 0
    point_difference: int = 0
    augen: int = 0

    @classmethod
    def fixed(
        cls,
        tournament_points: int,
        *,
        games_won: int = 0,
        point_difference: int = 0,
        augen: int = 0,
    ) -> ByeScore:
        return cls(ByeMode.FIXED, tournament_points, games_won, point_difference, augen)


class TieBreak(StrEnum):
    """Criteria of a tournament table; higher is better for all of them."""

    TOURNAMENT_POINTS = "tournament_points"  # 2 per win, 1 per draw
    GAMES_WON = "games_won"
    POINT_DIFFERENCE = "point_difference"
    AUGEN = "augen"  # match points (Augen) scored
    BUCHHOLZ = "buchholz"  # sum of every opponent's primary score, once per game met
    HEAD_TO_HEAD = "head_to_head"  # tournament points from games against the tied


DEFAULT_TIEBREAKS: tuple[TieBreak, ...] = (
    TieBreak.TOURNAMENT_POINTS,
    TieBreak.GAMES_WON,
    TieBreak.POINT_DIFFERENCE,
    TieBreak.AUGEN,
    TieBreak.BUCHHOLZ,
    TieBreak.HEAD_TO_HEAD,
)
_STATIC = (
    TieBreak.TOURNAMENT_POINTS,
    TieBreak.GAMES_WON,
    TieBreak.POINT_DIFFERENCE,
    TieBreak.AUGEN,
)


# --------------------------------------------------------------------------- ordering


def _order[K: Hashable](
    ids: Iterable[int],
    chain: Sequence[K],
    values: dict[K, dict[int, Value]],
    among_tied: Mapping[K, Callable[[Sequence[int]], dict[int, Value]]],
) -> list[list[int]]:
    """Sort ids along the chain; return groups of full ties, best first.

    ``values[k]`` holds fixed values; a criterion in ``among_tied`` (head-to-head) is
    computed for each group still tied when the chain reaches it, and its values are
    written into ``values[k]`` for exactly those players. Full ties stay in id order.
    """
    groups = [sorted(ids)]
    for criterion in chain:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) > 1 and criterion in among_tied:
                values.setdefault(criterion, {}).update(among_tied[criterion](group))
            refined.extend(_split(group, values[criterion]) if len(group) > 1 else [group])
        groups = refined
    return groups


def _split(group: Sequence[int], values: Mapping[int, Value]) -> list[list[int]]:
    ordered = sorted(group, key=lambda p: (-values[p], p))
    runs: list[list[int]] = [[ordered[0]]]
    for player in ordered[1:]:
        if values[player] == values[runs[-1][0]]:
            runs[-1].append(player)
        else:
            runs.append([player])
    return runs


def _placed[K: Hashable](
    groups: Sequence[Sequence[int]], chain: Sequence[K], values: Mapping[K, Mapping[int, Value]]
) -> list[tuple[int, int, K | None]]:
    """(rank, id, criterion that separated it from the next row) in table order."""
    order = [(group[0], player) for group in groups for player in group]
    placed = []
    rank = 1
    for index, (head, player) in enumerate(order):
        if player == head:
            rank = index + 1
        following = order[index + 1][1] if index + 1 < len(order) else None
        placed.append((rank, player, _decider(player, following, chain, values)))
    return placed


def _decider[K: Hashable](
    player: int, following: int | None, chain: Sequence[K], values: Mapping[K, Mapping[int, Value]]
) -> K | None:
    if following is None:
        return None
    for criterion in chain:
        if values[criterion].get(player) != values[criterion].get(following):
            return criterion
    return None


# --------------------------------------------------------------------------- tournament


@dataclass(frozen=True)
class StandingRow:
    """One place of a tournament table (a player, or a pair in fixed-pair tournaments).

    ``won``/``drawn``/``lost``/``played`` count real games; the criterion values include
    bye credits. ``head_to_head`` is only computed for players still tied when the chain
    reaches it (None otherwise). ``decided_by`` is the criterion that put this row ahead
    of the next one (None for the last row and for a full tie, which shares the rank).
    """

    rank: int
    entrant: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    tournament_points: Value
    games_won: Value
    point_difference: Value
    augen: Value
    buchholz: Value
    head_to_head: Value | None
    decided_by: TieBreak | None

    def value(self, criterion: TieBreak) -> Value | None:
        return getattr(self, criterion.value)  # type: ignore[no-any-return]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "byes": self.byes,
            **{criterion.value: _json(self.value(criterion)) for criterion in TieBreak},
            "decided_by": None if self.decided_by is None else self.decided_by.value,
        }


@dataclass
class _Tally:
    """Mutable per-player accumulator; never leaves this module."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    augen: int = 0
    difference: int = 0
    credit: dict[TieBreak, Value] = field(default_factory=dict)
    opponents: list[int] = field(default_factory=list)
    meetings: list[tuple[tuple[int, ...], int]] = field(default_factory=list)  # (opps, outcome)

    def add_game(self, outcome: int, own: int, other: int, opponents: Sequence[int]) -> None:
        """``outcome``: 1 win, 0 draw, -1 loss."""
        self.played += 1
        self.won += outcome == 1
        self.drawn += outcome == 0
        self.lost += outcome == -1
        self.augen += own
        self.difference += own - other
        self.opponents.extend(opponents)
        self.meetings.append((tuple(opponents), outcome))

    def value(self, criterion: TieBreak) -> Value:
        raw = {
            TieBreak.TOURNAMENT_POINTS: WIN_POINTS * self.won + DRAW_POINTS * self.drawn,
            TieBreak.GAMES_WON: self.won,
            TieBreak.POINT_DIFFERENCE: self.difference,
            TieBreak.AUGEN: self.augen,
        }[criterion]
        return raw + self.credit.get(criterion, 0)


def _sides(game: AnyGame) -> Iterable[tuple[tuple[int, ...], tuple[int, ...], int, int, int]]:
    """(team, opponents, outcome for team, own match points, other's match points); at a
    table of single players each player is a team of one against the best other."""
    if isinstance(game, TableResult):
        yield from _table_sides(game)
        return
    winner = game.winner()
    for side in (0, 1):
        outcome = 0 if winner is None else (1 if winner == side else -1)
        own, other = game.match_points[side], game.match_points[1 - side]
        yield game.teams[side], game.teams[1 - side], outcome, own, other


def _table_sides(
    game: TableResult,
) -> Iterable[tuple[tuple[int, ...], tuple[int, ...], int, int, int]]:
    top = max(game.points)
    shared = game.points.count(top) > 1
    for index, (player, own) in enumerate(zip(game.players, game.points, strict=True)):
        others = game.points[:index] + game.points[index + 1 :]
        opponents = game.players[:index] + game.players[index + 1 :]
        outcome = -1 if own < top else (0 if shared else 1)
        yield (player,), opponents, outcome, own, max(others)


def tournament_standings(
    games: Iterable[AnyGame],
    *,
    byes: Iterable[Bye] = (),
    tiebreaks: Sequence[TieBreak] = DEFAULT_TIEBREAKS,
    bye_score: ByeScore = ByeScore(),  # noqa: B008 - frozen, safe as default
    entrants: Iterable[int] = (),
) -> tuple[StandingRow, ...]:
    """Rank everyone who played, had a bye or is listed in ``entrants``.

    The first tie-break is the primary score that Buchholz sums; it must be one of
    tournament points, games won, point difference or Augen. Head-to-head counts, for each
    player of a group still tied at that point, the tournament points of their games in
    which an opponent belongs to the group; it is computed once per tied group (not
    again for the remainder after it splits a group).
    """
    _check_chain(tiebreaks)
    games = list(games)
    tallies: defaultdict[int, _Tally] = defaultdict(_Tally)
    for player in entrants:
        tallies[player]  # noqa: B018 - listed entrants appear even without games
    for game in games:
        for team, opponents, outcome, own, other in _sides(game):
            for player in team:
                tallies[player].add_game(outcome, own, other, opponents)
    _credit_byes(tallies, games, list(byes), bye_score)
    values: dict[TieBreak, dict[int, Value]] = {
        criterion: {p: t.value(criterion) for p, t in tallies.items()} for criterion in _STATIC
    }
    primary = values[tiebreaks[0]] if tiebreaks else values[TieBreak.TOURNAMENT_POINTS]
    values[TieBreak.BUCHHOLZ] = {
        p: sum(primary[o] for o in t.opponents) for p, t in tallies.items()
    }
    values[TieBreak.HEAD_TO_HEAD] = {}
    among_tied = {TieBreak.HEAD_TO_HEAD: lambda group: _head_to_head(group, tallies)}
    groups = _order(tallies, tiebreaks, values, among_tied)
    return tuple(
        _standing_row(rank, player, tallies[player], values, decided_by)
        for rank, player, decided_by in _placed(groups, tiebreaks, values)
    )


def _check_chain(tiebreaks: Sequence[TieBreak]) -> None:
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError("a tie-break may appear only once in the chain")
    if tiebreaks and tiebreaks[0] not in _STATIC:
        raise ValueError(f"the first criterion must be one of {[c.value for c in _STATIC]}")


def _credit_byes(
    tallies: defaultdict[int, _Tally],
    games: Sequence[AnyGame],
    byes: Sequence[Bye],
    bye_score: ByeScore,
) -> None:
    averages = _round_averages(games) if bye_score.mode is ByeMode.ROUND_AVERAGE else {}
    for bye in byes:
        tally = tallies[bye.player]
        tally.byes += 1
        credit = averages.get(bye.round, {}) if averages else _fixed_credit(bye_score)
        for criterion, amount in credit.items():
            tally.credit[criterion] = tally.credit.get(criterion, 0) + amount


def _fixed_credit(bye_score: ByeScore) -> dict[TieBreak, Value]:
    return {
        TieBreak.TOURNAMENT_POINTS: bye_score.tournament_points,
        TieBreak.GAMES_WON: bye_score.games_won,
        TieBreak.POINT_DIFFERENCE: bye_score.point_difference,
        TieBreak.AUGEN: bye_score.augen,
    }


def _round_averages(games: Sequence[AnyGame]) -> dict[int, dict[TieBreak, Value]]:
    sums: dict[int, _Tally] = defaultdict(_Tally)
    for game in games:
        for team, _, outcome, own, other in _sides(game):
            for _player in team:
                sums[game.round].add_game(outcome, own, other, ())
    return {
        number: {c: Fraction(tally.value(c), tally.played) for c in _STATIC}
        for number, tally in sums.items()
    }


def _head_to_head(group: Sequence[int], tallies: Mapping[int, _Tally]) -> dict[int, Value]:
    # Each player's own game list, not all games: a big table may hold many tied groups.
    tied = set(group)
    points: dict[int, Value] = {}
    for player in group:
        points[player] = sum(
            _tournament_points(outcome)
            for opponents, outcome in tallies[player].meetings
            if tied.intersection(opponents)
        )
    return points


def _tournament_points(outcome: int) -> int:
    return WIN_POINTS if outcome == 1 else DRAW_POINTS if outcome == 0 else 0


def _standing_row(
    rank: int,
    player: int,
    tally: _Tally,
    values: Mapping[TieBreak, Mapping[int, Value]],
    decided_by: TieBreak | None,
) -> StandingRow:
    return StandingRow(
        rank=rank,
        entrant=player,
        played=tally.played,
        won=tally.won,
        drawn=tally.drawn,
        lost=tally.lost,
        byes=tally.byes,
        tournament_points=_exact(values[TieBreak.TOURNAMENT_POINTS][player]),
        games_won=_exact(values[TieBreak.GAMES_WON][player]),
        point_difference=_exact(values[TieBreak.POINT_DIFFERENCE][player]),
        augen=_exact(values[TieBreak.AUGEN][player]),
        buchholz=_exact(values[TieBreak.BUCHHOLZ][player]),
        head_to_head=values[TieBreak.HEAD_TO_HEAD].get(player),
        decided_by=decided_by,
    )


def _exact(value: Value) -> Value:
    """Whole fractions become ints so that rows compare and print naturally."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


# --------------------------------------------------------------------------- league


@dataclass(frozen=True)
class LeagueMatch:
    """A played Liga-Partie: match points (Augen) of each team and the winning team id."""

    home: int
    away: int
    home_points: int
    away_points: int
    winner: int

    def __post_init__(self) -> None:
        if self.winner not in (self.home, self.away) or self.home == self.away:
            raise ValueError("a Liga-Partie is between two teams, and one of them wins it")


class LeagueTieBreak(StrEnum):
    LEAGUE_POINTS = "league_points"  # 2 per win
    DIFFERENCE = "difference"
    POINTS_FOR = "points_for"
    HEAD_TO_HEAD = "head_to_head"  # league points from the matches among the tied


LEAGUE_CHAIN = tuple(LeagueTieBreak)
LEAGUE_WIN_POINTS = 2


@dataclass(frozen=True)
class LeagueRow:
    rank: int
    team: int
    played: int
    won: int
    lost: int
    league_points: int
    points_for: int
    points_against: int
    difference: int
    head_to_head: int | None
    decided_by: LeagueTieBreak | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "team": self.team,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "league_points": self.league_points,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "difference": self.difference,
            "head_to_head": self.head_to_head,
            "decided_by": None if self.decided_by is None else self.decided_by.value,
        }


def league_table(
    matches: Iterable[LeagueMatch], *, teams: Iterable[int] = ()
) -> tuple[LeagueRow, ...]:
    """The season table: league points, then difference, then points for, then head-to-head.

    Teams listed in ``teams`` appear even before their first match. Head-to-head is the
    league points won in the matches among the teams still tied at that point.
    """
    matches = list(matches)
    stats: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # won lost for against
    for team in teams:
        stats[team]  # noqa: B018 - listed teams appear without matches
    for match in matches:
        _tally_league(stats, match)
    values: dict[LeagueTieBreak, dict[int, Value]] = {
        LeagueTieBreak.LEAGUE_POINTS: {t: LEAGUE_WIN_POINTS * s[0] for t, s in stats.items()},
        LeagueTieBreak.DIFFERENCE: {t: s[2] - s[3] for t, s in stats.items()},
        LeagueTieBreak.POINTS_FOR: {t: s[2] for t, s in stats.items()},
        LeagueTieBreak.HEAD_TO_HEAD: {},
    }
    among_tied = {LeagueTieBreak.HEAD_TO_HEAD: lambda group: _league_head_to_head(group, matches)}
    groups = _order(stats, LEAGUE_CHAIN, values, among_tied)
    rows = []
    for rank, team, decided_by in _placed(groups, LEAGUE_CHAIN, values):
        won, lost, points_for, against = stats[team]
        h2h = values[LeagueTieBreak.HEAD_TO_HEAD].get(team)
        rows.append(
            LeagueRow(
                rank=rank,
                team=team,
                played=won + lost,
                won=won,
                lost=lost,
                league_points=LEAGUE_WIN_POINTS * won,
                points_for=points_for,
                points_against=against,
                difference=points_for - against,
                head_to_head=None if h2h is None else int(h2h),
                decided_by=decided_by,
            )
        )
    return tuple(rows)


def _tally_league(stats: defaultdict[int, list[int]], match: LeagueMatch) -> None:
    for team, own, other in (
        (match.home, match.home_points, match.away_points),
        (match.away, match.away_points, match.home_points),
    ):
        line = stats[team]
        line[0 if match.winner == team else 1] += 1
        line[2] += own
        line[3] += other


def _league_head_to_head(group: Sequence[int], matches: Sequence[LeagueMatch]) -> dict[int, Value]:
    tied = set(group)
    points: dict[int, Value] = dict.fromkeys(group, 0)
    for match in matches:
        if match.home in tied and match.away in tied:
            points[match.winner] += LEAGUE_WIN_POINTS
    return points


# --------------------------------------------------------------------------- club tables


class ClubCriterion(StrEnum):
    GAMES_WON = "games_won"
    POINT_DIFFERENCE = "point_difference"
    ALL_TIME_RANK = "all_time_rank"  # KlammernBoss only: better (lower) all-time rank


_ALL_TIME_CHAIN = (ClubCriterion.GAMES_WON, ClubCriterion.POINT_DIFFERENCE)


@dataclass(frozen=True)
class AllTimeRow:
    rank: int
    player: int
    played: int
    won: int
    point_difference: int
    decided_by: ClubCriterion | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "played": self.played,
            "won": self.won,
            "point_difference": self.point_difference,
            "decided_by": None if self.decided_by is None else self.decided_by.value,
        }


def _club_tallies(games: Iterable[ClubGame]) -> defaultdict[int, list[int]]:
    """player -> [played, won, point difference]."""
    tallies: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    _add_club_games(tallies, games)
    return tallies


def _add_club_games(tallies: defaultdict[int, list[int]], games: Iterable[ClubGame]) -> None:
    for game in games:
        if isinstance(game, ImportedTally):
            line = tallies[game.player]
            line[0] += game.played
            line[1] += game.won
            line[2] += game.point_difference
            continue
        for team, _, outcome, own, other in _sides(game):
            for player in team:
                line = tallies[player]
                line[0] += 1
                line[1] += outcome == 1
                line[2] += own - other


def all_time_table(games: Iterable[ClubGame]) -> tuple[AllTimeRow, ...]:
    """A club's ewige Tabelle: games won over all time, then point difference."""
    return _all_time_rows(_club_tallies(games))


def _all_time_rows(tallies: Mapping[int, list[int]]) -> tuple[AllTimeRow, ...]:
    values: dict[ClubCriterion, dict[int, Value]] = {
        ClubCriterion.GAMES_WON: {p: line[1] for p, line in tallies.items()},
        ClubCriterion.POINT_DIFFERENCE: {p: line[2] for p, line in tallies.items()},
    }
    groups = _order(tallies, _ALL_TIME_CHAIN, values, {})
    return tuple(
        AllTimeRow(rank, p, tallies[p][0], tallies[p][1], tallies[p][2], decided_by)
        for rank, p, decided_by in _placed(groups, _ALL_TIME_CHAIN, values)
    )


@dataclass(frozen=True)
class Evening:
    """One playing evening (a club tournament, or an imported evening: its player lines)
    and all its games."""

    id: int
    games: tuple[ClubGame, ...]


@dataclass(frozen=True)
class BossRankingRow:
    player: int
    won: int
    point_difference: int
    all_time_rank: int

    def to_dict(self) -> dict[str, int]:
        return {
            "player": self.player,
            "won": self.won,
            "point_difference": self.point_difference,
            "all_time_rank": self.all_time_rank,
        }


class BossDecision(StrEnum):
    """Why the boss holds the title after an evening."""

    GAMES_WON = "games_won"
    POINT_DIFFERENCE = "point_difference"
    ALL_TIME_RANK = "all_time_rank"
    INCUMBENT = "incumbent"  # full tie at the top, holder among the tied: holder stays
    LOWEST_ID = "lowest_id"  # full tie at the top without the holder
    ONLY_PLAYER = "only_player"
    NO_GAMES = "no_games"  # no playing evening yet / an evening without games


@dataclass(frozen=True)
class BossHistoryEntry:
    evening: int
    boss: int | None
    decided_by: BossDecision
    ranking: tuple[BossRankingRow, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "evening": self.evening,
            "boss": self.boss,
            "decided_by": self.decided_by.value,
            "ranking": [row.to_dict() for row in self.ranking],
        }


def boss_history(evenings: Sequence[Evening], *, window: int = 3) -> tuple[BossHistoryEntry, ...]:
    """Who is KlammernBoss after each evening, in the given (chronological) order.

    The ranking covers the players of the club's last ``window`` playing evenings up to
    and including this one (all of them while fewer have been played, so the first
    evening already crowns a boss): most games won there, then best point difference
    there, then best rank in the all-time table as of this evening (all given evenings so
    far). The leader takes the title; since the ranking is recomputed after every
    evening, the holder keeps it after a lost evening as long as they still lead. When
    even the all-time rank cannot split the top, the holder stays if among the tied,
    otherwise the lowest player id takes it. An evening without games is no playing
    evening: it repeats the previous entry.
    """
    if window < 1:
        raise ValueError("the window must hold at least one evening")
    all_time: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    played: list[Evening] = []
    history: list[BossHistoryEntry] = []
    for evening in evenings:
        if not evening.games:
            history.append(_repeat_entry(evening.id, history))
            continue
        played.append(evening)
        _add_club_games(all_time, evening.games)
        ranks = {row.player: row.rank for row in _all_time_rows(all_time)}
        recent = _club_tallies(g for e in played[-window:] for g in e.games)
        ranking = tuple(
            sorted(
                (BossRankingRow(p, line[1], line[2], ranks[p]) for p, line in recent.items()),
                key=lambda r: (-r.won, -r.point_difference, r.all_time_rank, r.player),
            )
        )
        incumbent = history[-1].boss if history else None
        boss, decision = _crown(ranking, incumbent)
        history.append(BossHistoryEntry(evening.id, boss, decision, ranking))
    return tuple(history)


def klammern_boss(evenings: Sequence[Evening], *, window: int = 3) -> int | None:
    """The current KlammernBoss (None before the first playing evening)."""
    history = boss_history(evenings, window=window)
    return history[-1].boss if history else None


def _repeat_entry(evening: int, history: Sequence[BossHistoryEntry]) -> BossHistoryEntry:
    if not history:
        return BossHistoryEntry(evening, None, BossDecision.NO_GAMES, ())
    last = history[-1]
    return BossHistoryEntry(evening, last.boss, last.decided_by, last.ranking)


def _crown(ranking: Sequence[BossRankingRow], incumbent: int | None) -> tuple[int, BossDecision]:
    leader = ranking[0]
    if len(ranking) == 1:
        return leader.player, BossDecision.ONLY_PLAYER
    runner_up = ranking[1]
    if leader.won != runner_up.won:
        return leader.player, BossDecision.GAMES_WON
    if leader.point_difference != runner_up.point_difference:
        return leader.player, BossDecision.POINT_DIFFERENCE
    if leader.all_time_rank != runner_up.all_time_rank:
        return leader.player, BossDecision.ALL_TIME_RANK
    tied = [
        r.player
        for r in ranking
        if (r.won, r.point_difference, r.all_time_rank)
        == (leader.won, leader.point_difference, leader.all_time_rank)
    ]
    if incumbent is not None and incumbent in tied:
        return incumbent, BossDecision.INCUMBENT
    return min(tied), BossDecision.LOWEST_ID
