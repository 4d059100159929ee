"""Tournament standings: game winners, criteria, byes, tie-breaks, shared ranks."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.results.standings import (
    Bye,
    ByeScore,
    GameResult,
    StandingRow,
    TieBreak,
    tournament_standings,
)


def game(
    round_: int,
    teams: tuple[tuple[int, ...], tuple[int, ...]],
    *,
    big: tuple[int, int] = (1, 0),
    small: tuple[int, int] = (0, 0),
    points: tuple[int, int] = (60, 40),
    table: int = 0,
) -> GameResult:
    return GameResult(round_, table, teams, big, small, points)


def by_entrant(rows: tuple[StandingRow, ...]) -> dict[int, StandingRow]:
    return {row.entrant: row for row in rows}


@pytest.mark.parametrize(
    ("big", "small", "points", "winner"),
    [
        ((2, 1), (0, 4), (40, 70), 0),  # big points first
        ((1, 1), (3, 2), (40, 70), 0),  # then small points
        ((1, 1), (2, 2), (40, 70), 1),  # then match points
        ((1, 1), (2, 2), (55, 55), None),  # equal on all: draw
        ((0, 2), (0, 0), (90, 10), 1),
    ],
)
def test_game_winner(
    big: tuple[int, int], small: tuple[int, int], points: tuple[int, int], winner: int | None
) -> None:
    assert GameResult(1, 0, ((1, 3), (2, 4)), big, small, points).winner() == winner


def test_each_player_scores_their_teams_result() -> None:
    rows = by_entrant(
        tournament_standings(
            [
                game(1, ((1, 3), (2, 4)), points=(70, 30)),
                game(2, ((1, 2), (3, 4)), big=(1, 1), small=(2, 2), points=(50, 50)),
            ]
        )
    )
    one, four = rows[1], rows[4]
    assert (one.played, one.won, one.drawn, one.lost) == (2, 1, 1, 0)
    assert (one.tournament_points, one.games_won, one.point_difference, one.augen) == (
        3,
        1,
        40,
        120,
    )
    assert (four.tournament_points, four.point_difference, four.augen) == (1, -40, 80)


def test_pairs_are_ranked_as_one_member_teams() -> None:
    rows = tournament_standings(
        [game(1, ((10,), (20,))), game(1, ((30,), (40,)), table=1), game(2, ((10,), (30,)))]
    )
    assert [r.entrant for r in rows][:2] == [10, 30]
    assert by_entrant(rows)[10].buchholz == 0 + 2  # met 20 (0 points) and 30 (2 points)
    assert by_entrant(rows)[10].tournament_points == 4


def test_buchholz_sums_every_opponents_primary_score() -> None:
    games = [
        game(1, ((1, 3), (2, 4))),  # 1 and 3 win
        game(2, ((1, 2), (3, 4))),  # 1 and 2 win
    ]
    rows = by_entrant(tournament_standings(games))
    # tournament points: 1 -> 4, 2 -> 2, 3 -> 2, 4 -> 0
    assert rows[1].buchholz == 2 + 0 + 2 + 0  # opponents 2, 4, then 3, 4
    assert rows[4].buchholz == 4 + 2 + 4 + 2  # opponents 1, 3, then 1, 2


def test_even_mutual_games_leave_a_full_tie() -> None:
    games = [game(1, ((1, 3), (2, 4)), points=(60, 40)), game(2, ((2, 4), (1, 3)), points=(60, 40))]
    rows = tournament_standings(games)
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert [r.decided_by for r in rows] == [None] * 4
    assert {r.head_to_head for r in rows} == {2}


def test_head_to_head_decides_when_mutual_games_differ() -> None:
    games = [
        game(1, ((1, 5), (2, 6)), points=(60, 40)),  # 1 beats 2
        game(2, ((2, 7), (8, 9)), points=(60, 40)),  # 2 beats others
        game(2, ((1, 10), (11, 12)), points=(40, 60), big=(0, 1), table=1),
        game(3, ((1, 13), (14, 15)), points=(60, 40)),
        game(3, ((2, 16), (17, 18)), points=(60, 40), table=1),
    ]
    chain = (TieBreak.TOURNAMENT_POINTS, TieBreak.HEAD_TO_HEAD, TieBreak.AUGEN)
    rows = tournament_standings(games, tiebreaks=chain)
    assert rows[0].entrant == 1 and rows[1].entrant == 2
    assert rows[0].decided_by is TieBreak.HEAD_TO_HEAD
    assert (rows[0].head_to_head, rows[1].head_to_head) == (2, 0)
    assert (rows[0].rank, rows[1].rank) == (1, 2)


def test_full_ties_share_the_rank() -> None:
    rows = tournament_standings([game(1, ((1, 3), (2, 4)))])
    assert [(r.rank, r.entrant) for r in rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]
    assert [r.decided_by for r in rows] == [None, TieBreak.TOURNAMENT_POINTS, None, None]


@pytest.mark.parametrize(
    ("bye_score", "expected"),
    [
        # Round 1: players 1..4 play (1 & 3 win 70:30); player 5 sits out.
        # Averages over the 4 results: tp 1, won 1/2, difference 0, Augen 50.
        (ByeScore(), (1, Fraction(1, 2), 0, 50)),
        (ByeScore.fixed(2, games_won=1, augen=51), (2, 1, 0, 51)),
        (ByeScore.fixed(0), (0, 0, 0, 0)),
    ],
)
def test_bye_credit(bye_score: ByeScore, expected: tuple[object, ...]) -> None:
    rows = by_entrant(
        tournament_standings(
            [game(1, ((1, 3), (2, 4)), points=(70, 30))],
            byes=[Bye(1, 5)],
            bye_score=bye_score,
        )
    )
    five = rows[5]
    assert (five.tournament_points, five.games_won, five.point_difference, five.augen) == expected
    assert (five.played, five.won, five.byes, five.buchholz) == (0, 0, 1, 0)


def test_bye_to_dict_is_json_ready() -> None:
    rows = tournament_standings([game(1, ((1, 3), (2, 4)))], byes=[Bye(1, 5)])
    data = by_entrant(rows)[5].to_dict()
    assert data["games_won"] == 0.5 and data["tournament_points"] == 1
    assert data["decided_by"] in {c.value for c in TieBreak} | {None}
    assert set(data) >= {c.value for c in TieBreak} | {"rank", "entrant", "played"}


def test_listed_entrants_without_games_appear() -> None:
    rows = tournament_standings([game(1, ((1, 3), (2, 4)))], entrants=[1, 2, 3, 4, 99])
    absent = by_entrant(rows)[99]
    assert (absent.played, absent.rank) == (0, 3)  # 0 points but no negative difference


@pytest.mark.parametrize(
    "chain",
    [(TieBreak.BUCHHOLZ,), (TieBreak.HEAD_TO_HEAD, TieBreak.AUGEN), (TieBreak.AUGEN,) * 2],
)
def test_invalid_chains(chain: tuple[TieBreak, ...]) -> None:
    with pytest.raises(ValueError):
        tournament_standings([], tiebreaks=chain)


def test_augen_first_chain_uses_augen_for_buchholz() -> None:
    rows = by_entrant(
        tournament_standings(
            [game(1, ((1, 3), (2, 4)), points=(70, 30))],
            tiebreaks=(TieBreak.AUGEN, TieBreak.BUCHHOLZ),
        )
    )
    assert rows[1].buchholz == 30 + 30 and rows[2].buchholz == 70 + 70


# --------------------------------------------------------------------------- properties

games_strategy = st.lists(
    st.tuples(
        st.permutations(list(range(8))),
        st.tuples(st.integers(0, 2), st.integers(0, 2)),
        st.tuples(st.integers(0, 4), st.integers(0, 4)),
        st.tuples(st.integers(0, 9), st.integers(0, 9)),
    ),
    max_size=6,
)


def key_of(row: StandingRow, chain: tuple[TieBreak, ...]) -> tuple[object, ...]:
    return tuple(row.value(c) for c in chain if c is not TieBreak.HEAD_TO_HEAD)


@settings(max_examples=150, deadline=None)
@given(
    rounds=games_strategy,
    bye_rounds=st.lists(st.integers(1, 6), max_size=3),
    chain=st.permutations(list(TieBreak)).map(tuple),
)
def test_property_standings_are_a_sorted_permutation(
    rounds: list[tuple[list[int], tuple[int, int], tuple[int, int], tuple[int, int]]],
    bye_rounds: list[int],
    chain: tuple[TieBreak, ...],
) -> None:
    if chain[0] in (TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD):
        rest = [c for c in chain if c is not TieBreak.TOURNAMENT_POINTS]
        chain = (TieBreak.TOURNAMENT_POINTS, *rest)
    games = []
    for number, (order, big, small, points) in enumerate(rounds, start=1):
        a, b, c, d, e, f, g, h = order
        games.append(GameResult(number, 0, ((a, c), (b, d)), big, small, points))
        games.append(GameResult(number, 1, ((e, g), (f, h)), small, big, points[::-1]))
    byes = [Bye(r, 8) for r in bye_rounds]
    rows = tournament_standings(games, byes=byes, tiebreaks=chain)
    expected = set(range(8)) if games else set()
    assert {r.entrant for r in rows} == expected | ({8} if byes else set())
    assert len(rows) == len({r.entrant for r in rows})
    for upper, lower in zip(rows, rows[1:], strict=False):
        if upper.decided_by is None:
            assert upper.rank == lower.rank
            assert all(upper.value(c) == lower.value(c) for c in chain)
        else:
            assert lower.rank > upper.rank
            index = chain.index(upper.decided_by)
            assert all(upper.value(c) == lower.value(c) for c in chain[:index])
            assert upper.value(upper.decided_by) > lower.value(upper.decided_by)  # type: ignore[operator]
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    prefix = chain[: chain.index(TieBreak.HEAD_TO_HEAD)]  # all static criteria
    assert [key_of(r, prefix) for r in rows] == sorted(
        (key_of(r, prefix) for r in rows), reverse=True
    )
