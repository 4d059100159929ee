"""League fixtures (circle method) and the league table; fixed-pair draws."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.draw.seating import (
    PairHistory,
    draw_pairs,
    league_fixtures,
    pair_history_from_tables,
)
from tournaments.results.standings import LeagueMatch, LeagueTieBreak, league_table

# --------------------------------------------------------------------------- fixtures


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 10, 11])
def test_single_round_robin(count: int) -> None:
    teams = list(range(10, 10 + count))
    rounds = league_fixtures(teams)
    assert len(rounds) == (count if count % 2 else count - 1)
    meetings = Counter(frozenset(m) for r in rounds for m in r.matches)
    assert len(meetings) == count * (count - 1) // 2 and set(meetings.values()) == {1}
    for r in rounds:
        present = [t for m in r.matches for t in m] + ([r.bye] if r.bye is not None else [])
        assert sorted(present) == teams  # everyone plays once or rests
    home = Counter(m[0] for r in rounds for m in r.matches)
    homes = [home[t] for t in teams]
    assert max(homes) - min(homes) <= (0 if count % 2 else 1)
    byes = Counter(r.bye for r in rounds if r.bye is not None)
    assert (sorted(byes) == teams) if count % 2 else not byes


@pytest.mark.parametrize("count", [4, 5, 8])
def test_home_and_away(count: int) -> None:
    teams = list(range(count))
    rounds = league_fixtures(teams, home_and_away=True)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    ordered = Counter(m for r in rounds for m in r.matches)
    assert len(ordered) == count * (count - 1) and set(ordered.values()) == {1}


def test_fixtures_validate_and_serialise() -> None:
    with pytest.raises(ValueError):
        league_fixtures([1, 1, 2])
    with pytest.raises(ValueError):
        league_fixtures([1])
    data = league_fixtures([1, 2, 3])[0].to_dict()
    assert set(data) == {"number", "matches", "bye"}


# --------------------------------------------------------------------------- table


def test_league_table_columns_and_order() -> None:
    matches = [
        LeagueMatch(home=1, away=2, home_points=51, away_points=30, winner=1),
        LeagueMatch(home=3, away=1, home_points=52, away_points=48, winner=3),
        LeagueMatch(home=2, away=3, home_points=55, away_points=20, winner=2),
    ]
    rows = league_table(matches, teams=[1, 2, 3, 4])
    assert [r.team for r in rows] == [1, 2, 3, 4]  # differences +17, +14, -31, none
    two = rows[1]
    assert (two.played, two.won, two.lost, two.league_points) == (2, 1, 1, 2)
    assert (two.points_for, two.points_against, two.difference) == (85, 71, 14)
    assert [r.decided_by for r in rows] == [
        LeagueTieBreak.DIFFERENCE,
        LeagueTieBreak.DIFFERENCE,
        LeagueTieBreak.LEAGUE_POINTS,
        None,
    ]
    assert rows[-1].to_dict()["played"] == 0


def test_league_points_for_decides_equal_differences() -> None:
    rows = league_table([LeagueMatch(1, 3, 60, 50, 1), LeagueMatch(2, 4, 51, 41, 2)])
    assert [r.team for r in rows][:2] == [1, 2]
    assert rows[0].decided_by is LeagueTieBreak.POINTS_FOR


def test_league_head_to_head_decides_among_equal_teams() -> None:
    matches = [
        LeagueMatch(1, 2, 51, 50, 1),  # 1 beat 2
        LeagueMatch(4, 1, 51, 50, 4),
        LeagueMatch(2, 5, 51, 50, 2),
    ]
    rows = league_table(matches)
    assert [r.team for r in rows][:3] == [4, 1, 2]
    one, two = rows[1], rows[2]
    assert (one.league_points, one.difference, one.points_for) == (2, 0, 101)
    assert (two.league_points, two.difference, two.points_for) == (2, 0, 101)
    assert one.decided_by is LeagueTieBreak.HEAD_TO_HEAD
    assert (one.head_to_head, two.head_to_head, one.rank, two.rank) == (2, 0, 2, 3)


def test_league_mutual_split_is_a_full_tie() -> None:
    rows = league_table([LeagueMatch(2, 3, 51, 50, 2), LeagueMatch(3, 2, 51, 50, 3)])
    assert [(r.rank, r.team, r.head_to_head, r.decided_by) for r in rows] == [
        (1, 2, 2, None),
        (1, 3, 2, None),
    ]


def test_league_match_requires_a_winner_of_the_two() -> None:
    with pytest.raises(ValueError):
        LeagueMatch(1, 2, 51, 40, 3)


# --------------------------------------------------------------------------- fixed pairs


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_pairs_do_not_meet_twice_in_seven_rounds(seed: int) -> None:
    # Round by round, 10 pairs sometimes cannot complete all 9 rounds without a repeat
    # (round 8 can be cornered); 7 rounds always work.
    pairs = list(range(1, 11))
    tables: list[tuple[tuple[int, int], ...]] = []
    byes: list[int] = []
    for number in range(1, 8):
        draw = draw_pairs(
            pairs, pair_history_from_tables(tables, byes=byes), round_number=number, seed=seed
        )
        assert draw.cost.repeated_meetings == 0
        tables.append(draw.tables)
        byes.extend(draw.byes)
    history = pair_history_from_tables(tables)
    assert len(history.meetings) == 35 and set(history.meetings.values()) == {1}


def test_swiss_pairs_neighbours_avoiding_repeats() -> None:
    order = [7, 3, 9, 1, 5, 2]
    first = draw_pairs(order, PairHistory(), round_number=2, seed=1, swiss_order=order)
    assert {frozenset(t) for t in first.tables} == {
        frozenset({7, 3}),
        frozenset({9, 1}),
        frozenset({5, 2}),
    }
    assert first.cost.standing_distance == 0
    history = pair_history_from_tables([first.tables])
    second = draw_pairs(order, history, round_number=3, seed=1, swiss_order=order)
    assert second.cost.repeated_meetings == 0
    # The cheapest pairing without a repeat: 7-9, 3-5, 1-2 costs 1 + 4 + 1.
    assert {frozenset(t) for t in second.tables} == {
        frozenset({7, 9}),
        frozenset({3, 5}),
        frozenset({1, 2}),
    }
    assert second.cost.standing_distance == 6


def test_pair_bye_goes_to_lowest_ranked_without_bye() -> None:
    order = [4, 2, 5, 1, 3]
    history = pair_history_from_tables([], byes=[3])
    draw = draw_pairs(order, history, round_number=2, seed=1, swiss_order=order)
    assert draw.byes == (1,)
    again = draw_pairs(order, history, round_number=2, seed=1, swiss_order=order)
    assert again == draw


def test_pair_first_side_balances_dealing() -> None:
    history = pair_history_from_tables([[(1, 2)], [(1, 2)]])
    draw = draw_pairs([1, 2], history, round_number=3, seed=3)
    assert draw.tables == ((2, 1),)
    assert draw.to_dict()["tables"] == [[2, 1]]
