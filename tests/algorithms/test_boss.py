"""All-time table and KlammernBoss (RULES.md, "KlammernBoss")."""

from __future__ import annotations

import pytest

from tournaments.results.standings import (
    BossDecision,
    ClubCriterion,
    Evening,
    GameResult,
    all_time_table,
    boss_history,
    klammern_boss,
)


def win(winners: tuple[int, int], losers: tuple[int, int], by: int = 10) -> GameResult:
    """``winners`` beat ``losers`` on big points with a match-point margin of ``by``."""
    return GameResult(1, 0, (winners, losers), (1, 0), (0, 0), (50 + by, 50))


def evening(id_: int, *games: GameResult) -> Evening:
    return Evening(id_, tuple(games))


def test_all_time_table_orders_by_wins_then_difference() -> None:
    rows = all_time_table(
        [win((1, 2), (3, 4), by=5), win((1, 3), (2, 4), by=20), win((2, 3), (1, 4), by=1)]
    )
    assert [(r.player, r.won, r.point_difference) for r in rows] == [
        (1, 2, 24),
        (3, 2, 16),
        (2, 2, -14),
        (4, 0, -26),
    ]
    assert [r.decided_by for r in rows] == [
        ClubCriterion.POINT_DIFFERENCE,
        ClubCriterion.POINT_DIFFERENCE,
        ClubCriterion.GAMES_WON,
        None,
    ]
    assert rows[0].to_dict()["won"] == 2


def test_all_time_full_tie_shares_rank() -> None:
    rows = all_time_table([win((1, 2), (3, 4))])
    assert [(r.rank, r.player) for r in rows] == [(1, 1), (1, 2), (3, 3), (3, 4)]


def test_first_evening_crowns_the_leader() -> None:
    history = boss_history([evening(10, win((1, 2), (3, 4)), win((1, 3), (2, 4)))])
    assert (history[0].evening, history[0].boss) == (10, 1)
    assert history[0].decided_by is BossDecision.GAMES_WON
    assert history[0].ranking[0].won == 2
    assert history[0].to_dict()["ranking"][0]["player"] == 1


def test_title_stays_after_a_lost_evening_while_the_holder_leads() -> None:
    evenings = [
        evening(1, win((1, 2), (3, 4)), win((1, 3), (2, 4)), win((1, 4), (2, 3))),
        evening(2, win((2, 3), (1, 4))),  # 1 loses, still most wins over the window
    ]
    history = boss_history(evenings, window=3)
    assert [h.boss for h in history] == [1, 1]


def test_title_passes_when_the_window_moves_on() -> None:
    evenings = [
        evening(1, win((1, 2), (3, 4)), win((1, 3), (2, 4))),  # 1 leads with 2 wins
        evening(2, win((2, 3), (1, 4))),
        evening(3, win((2, 4), (1, 3))),  # 2 now has 3 wins over evenings 1-3
        evening(4, win((3, 4), (1, 2))),
    ]
    history = boss_history(evenings, window=2)
    # After evening 2, players 1, 2 and 3 are level on everything: the holder stays.
    assert [h.boss for h in history] == [1, 1, 2, 4]
    assert history[1].decided_by is BossDecision.INCUMBENT
    # Window of 2 after evening 4: evenings 3 and 4 -> 4 won twice.
    assert history[3].ranking[0].player == 4 and history[3].ranking[0].won == 2


def test_point_difference_then_all_time_rank_break_ties() -> None:
    by_difference = boss_history([evening(1, win((1, 2), (3, 4), by=5), win((3, 5), (1, 6), by=9))])
    assert by_difference[0].boss == 5  # 1 win each for 1, 2, 3, 5; 5 has +9
    assert by_difference[0].decided_by is BossDecision.POINT_DIFFERENCE
    evenings = [
        evening(1, win((7, 8), (5, 6))),  # 7 and 8 earn all-time wins, then drop out
        evening(2, win((7, 2), (3, 4))),
        evening(3, win((8, 3), (2, 4))),
    ]
    # window 1 after evening 3: 8 and 3 tied (1 win, +10); 8 has more all-time wins.
    history = boss_history(evenings, window=1)
    assert history[2].boss == 8
    assert history[2].decided_by is BossDecision.ALL_TIME_RANK


def test_full_tie_keeps_the_incumbent_else_lowest_id() -> None:
    evenings = [
        evening(1, win((5, 9), (1, 2))),  # boss: 5 (tie with 9, lowest id)
        evening(2, win((9, 5), (3, 4))),  # window 2: 5 and 9 level on everything
    ]
    history = boss_history(evenings, window=2)
    assert (history[0].boss, history[0].decided_by) == (5, BossDecision.LOWEST_ID)
    assert (history[1].boss, history[1].decided_by) == (5, BossDecision.INCUMBENT)


def test_incumbent_stays_in_a_full_tie_even_with_a_higher_id() -> None:
    evenings = [
        evening(1, win((9, 1), (2, 3), by=30)),  # 9 and 1 tie; 1 takes it (lowest id)
        evening(2, win((9, 4), (2, 3), by=30)),  # 9 leads alone
        evening(3, win((1, 5), (2, 3), by=30)),  # 9 and 1 level, all time too
    ]
    history = boss_history(evenings, window=2)
    assert [h.boss for h in history] == [1, 9, 9]
    assert history[2].decided_by is BossDecision.INCUMBENT


def test_evening_without_games_repeats_the_previous_entry() -> None:
    evenings = [evening(1), evening(2, win((1, 2), (3, 4))), evening(3)]
    history = boss_history(evenings)
    assert [(h.evening, h.boss) for h in history] == [(1, None), (2, 1), (3, 1)]
    assert history[0].decided_by is BossDecision.NO_GAMES
    assert klammern_boss(evenings) == 1
    assert klammern_boss([]) is None


def test_window_must_be_positive() -> None:
    with pytest.raises(ValueError):
        boss_history([], window=0)
