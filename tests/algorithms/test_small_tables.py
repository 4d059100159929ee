"""Tables of 2 or 3 (Klammern for two or three players): the pure draw and standings."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from games import profiles
from tournaments.draw import seating
from tournaments.draw.seating import Entrant
from tournaments.results import standings

#: The 2/3-player games' chain, as their profile fixes it.
TABLE_TIEBREAKS = tuple(
    standings.TieBreak(n) for n in profiles.PROFILES["klammern-3"].tiebreaks or ()
)


def play_rounds(
    players: int, rounds: int, *, size: int = 3, seed: int = 1
) -> list[seating.SmallTableDraw]:
    entrants = [Entrant(id=i) for i in range(1, players + 1)]
    draws: list[seating.SmallTableDraw] = []
    for number in range(1, rounds + 1):
        history = seating.small_table_history(
            [d.tables for d in draws], byes=[p for d in draws for p in d.byes]
        )
        draws.append(
            seating.draw_small_tables(
                entrants, history, table_size=size, round_number=number, seed=seed
            )
        )
    return draws


@pytest.mark.parametrize("seed", range(8))
def test_nine_players_meet_nobody_twice_in_four_rounds(seed: int) -> None:
    """9 players at tables of 3 can play 4 rounds without meeting anyone twice (the affine
    plane of order 3); the draw finds such rounds."""
    draws = play_rounds(9, 4, seed=seed)
    met: Counter[tuple[int, int]] = Counter()
    for draw in draws:
        assert [len(t) for t in draw.tables] == [3, 3, 3] and draw.byes == ()
        assert sorted(p for t in draw.tables for p in t) == list(range(1, 10))
        assert draw.cost.repeated_opponents == 0
        for table in draw.tables:
            met.update(tuple(sorted(pair)) for pair in itertools.combinations(table, 2))
    assert max(met.values()) == 1 and len(met) == 36


def test_a_fifth_round_must_repeat_and_repeats_as_little_as_possible() -> None:
    draws = play_rounds(9, 5)
    # every pair met once: each table's 3 pairs repeat, but nobody meets anyone a third time
    assert draws[4].cost.repeated_opponents == 9


@pytest.mark.parametrize(("players", "size", "byes"), [(10, 3, 1), (11, 3, 2), (7, 2, 1)])
def test_byes_when_the_count_does_not_divide(players: int, size: int, byes: int) -> None:
    draws = play_rounds(players, 3, size=size)
    for draw in draws:
        assert len(draw.byes) == byes
        assert all(len(t) == size for t in draw.tables)
        seated = [p for t in draw.tables for p in t]
        assert sorted(seated + list(draw.byes)) == list(range(1, players + 1))
    had = Counter(p for d in draws for p in d.byes)
    assert max(had.values()) == 1  # nobody sits out twice while others have not


def test_the_draw_is_reproducible_and_pins_hold() -> None:
    entrants = [Entrant(id=i, fixed_table=1 if i == 4 else None) for i in range(1, 10)]
    history = seating.SeatingHistory()
    one = seating.draw_small_tables(entrants, history, table_size=3, round_number=1, seed=5)
    two = seating.draw_small_tables(entrants, history, table_size=3, round_number=1, seed=5)
    assert one == two and 4 in one.tables[1]


def test_seats_rotate_so_that_everyone_deals_first_in_turn() -> None:
    draws = play_rounds(9, 3)
    first = Counter(t[0] for d in draws for t in d.tables)
    assert len(first) >= 7 and max(first.values()) <= 2  # 9 first seats over 3 rounds


def test_tables_of_four_are_not_drawn_here() -> None:
    with pytest.raises(ValueError):
        seating.draw_small_tables(
            [Entrant(i) for i in range(8)],
            seating.SeatingHistory(),
            table_size=4,
            round_number=1,
            seed=1,
        )


def table(round_: int, number: int, players: tuple[int, ...], points: tuple[int, ...]):  # noqa: ANN201
    return standings.TableResult(round=round_, table=number, players=players, points=points)


def test_players_rank_by_tournament_points_then_points_then_buchholz() -> None:
    """RULES.md: 2 tournament points for a table won, 1 each for a shared first place,
    then total points, Buchholz and head-to-head; no point difference."""
    games = [
        table(1, 1, (1, 2, 3), (510, 300, 200)),
        table(1, 2, (4, 5, 6), (502, 490, 100)),
        table(2, 1, (1, 4, 5), (200, 505, 300)),
        table(2, 2, (2, 3, 6), (400, 400, 100)),  # a shared top: 2 and 3 draw
    ]
    rows = standings.tournament_standings(games, tiebreaks=TABLE_TIEBREAKS)
    # 4: two tables won; 1: one; 2 and 3 shared a first place (1 each) and rank above 5,
    # who won no table although 790 points; 2 beats 3 on points (700 against 600).
    assert [r.entrant for r in rows] == [4, 1, 2, 3, 5, 6]
    by_id = {r.entrant: r for r in rows}
    assert (by_id[4].won, by_id[4].games_won, by_id[4].augen) == (2, 2, 1007)
    assert (by_id[2].drawn, by_id[2].lost, by_id[2].augen) == (1, 1, 700)
    # ``decided_by``: what puts a row above the next one.
    assert rows[1].decided_by == standings.TieBreak.TOURNAMENT_POINTS  # 1 over 2
    assert rows[2].decided_by == standings.TieBreak.AUGEN  # 2 over 3: 700 against 600
    assert rows[3].decided_by == standings.TieBreak.TOURNAMENT_POINTS  # 3 (1) over 5 (0)
    assert standings.TieBreak.POINT_DIFFERENCE not in TABLE_TIEBREAKS


def test_equal_points_fall_to_buchholz_then_head_to_head() -> None:
    games = [
        table(1, 1, (1, 2, 3), (500, 300, 200)),
        table(1, 2, (4, 5, 6), (500, 300, 200)),
        table(2, 1, (1, 2, 5), (100, 400, 0)),
        table(2, 2, (4, 3, 6), (100, 400, 0)),
    ]
    rows = standings.tournament_standings(games, tiebreaks=TABLE_TIEBREAKS)
    # 1, 3 and 4: one table won and 600 points each. Buchholz: 1 met 2, 3, 2, 5 (6), 3 met
    # 1, 2, 4, 6 (6), 4 met 5, 6, 3, 6 (2); 1 beat 3 at their table.
    assert [r.entrant for r in rows] == [2, 1, 3, 4, 5, 6]
    assert rows[1].decided_by == standings.TieBreak.HEAD_TO_HEAD
    assert rows[2].decided_by == standings.TieBreak.BUCHHOLZ


def test_a_table_counts_one_game_in_the_club_tables_the_winner_wins_it() -> None:
    games = [table(1, 1, (1, 2, 3), (510, 300, 200)), table(1, 2, (1, 2, 3), (100, 500, 90))]
    rows = {r.player: r for r in standings.all_time_table(games)}
    assert [(rows[p].played, rows[p].won) for p in (1, 2, 3)] == [(2, 1), (2, 1), (2, 0)]
    boss = standings.klammern_boss([standings.Evening(1, tuple(games))])
    assert boss == 2  # one table each; 2 has the better point difference (-10+200 vs 210-400)
