"""The league of clubs' division table (RULES.md): points 2/1/0 per match day, then
Partien difference, then Augen difference, then the points among the tied teams. The
expected tables are worked out by hand in the comments."""

from __future__ import annotations

import pytest

from tournaments.leagues.league_table import MatchDayResult, division_table

A, B, C, D = 1, 2, 3, 4


def day(home: int, away: int, partien: tuple[int, int], augen: tuple[int, int]) -> MatchDayResult:
    return MatchDayResult(home, away, partien[0], partien[1], augen[0], augen[1])


def test_points_partien_and_augen_by_hand() -> None:
    results = [
        day(A, B, (3, 1), (220, 150)),  # A wins: A 2 pts, B 0
        day(C, D, (2, 2), (200, 190)),  # draw: C 1, D 1
        day(B, C, (4, 0), (230, 100)),  # B 2, C 0
        day(D, A, (1, 3), (160, 210)),  # A 2, D 0
    ]
    # A: 4 pts, Partien 6:2 (+4), Augen 430:310 (+120)
    # B: 2 pts, Partien 5:3 (+2), Augen 380:320 (+60)
    # D: 1 pt,  Partien 3:5 (-2), Augen 350:410 (-60)
    # C: 1 pt,  Partien 2:6 (-4), Augen 300:420 (-120)
    rows = division_table(results, teams=[A, B, C, D])
    assert [(r.team, r.rank, r.points) for r in rows] == [
        (A, 1, 4),
        (B, 2, 2),
        (D, 3, 1),
        (C, 4, 1),
    ]
    a = rows[0]
    assert (a.played, a.won, a.drawn, a.lost) == (2, 2, 0, 0)
    assert (a.partien_won, a.partien_lost, a.augen_for, a.augen_against) == (6, 2, 430, 310)
    assert rows[2].to_dict()["partien_difference"] == -2
    assert rows[3].to_dict()["augen_difference"] == -120


def test_augen_decide_when_points_and_partien_are_level() -> None:
    results = [day(A, B, (2, 2), (200, 180)), day(C, D, (2, 2), (150, 150))]
    rows = division_table(results, teams=[D, C, B, A])
    # all 1 pt, Partien +0; Augen: A +20, C 0, D 0, B -20; C and D level on all: shared rank,
    # their head-to-head (a draw) is 1 each; given order D before C
    assert [(r.team, r.rank) for r in rows] == [(A, 1), (D, 2), (C, 2), (B, 4)]


def test_head_to_head_breaks_a_full_tie() -> None:
    # A beats B, and each also meets D, so that A and B end level on points, Partien
    # and Augen.
    results = [
        day(A, B, (3, 1), (200, 190)),  # A 2, B 0; A +2/+10, B -2/-10
        day(D, A, (3, 1), (200, 190)),  # A 0; A -2/-10
        day(B, D, (3, 1), (200, 190)),  # B 2; B +2/+10
    ]
    # A: 2 pts, Partien 4:4, Augen 390:390; B: 2 pts, 4:4, 390:390; D: 2 pts, 4:4, 390:390
    # all three level; head-to-head among A, B, D is the whole table: 2 each -> shared
    rows = division_table(results, teams=[A, B, D])
    assert [r.rank for r in rows] == [1, 1, 1]
    assert {r.head_to_head for r in rows} == {2}
    # C and D draw 2:2 (Augen 100:101): D 3 pts, C 1; A and B stay level on 2 pts, 4:4
    # Partien and 390:390 Augen, and A won their match day: D, A, B, C
    rows = division_table([*results, day(C, D, (2, 2), (100, 101))], teams=[A, B, C, D])
    assert [(r.team, r.rank) for r in rows] == [(D, 1), (A, 2), (B, 3), (C, 4)]
    a, b = (next(r for r in rows if r.team == t) for t in (A, B))
    assert (a.points, a.partien_difference, a.augen_difference) == (
        b.points,
        b.partien_difference,
        b.augen_difference,
    )
    assert (a.head_to_head, b.head_to_head) == (2, 0)
    assert a.rank < b.rank


def test_listed_teams_without_match_days_appear() -> None:
    rows = division_table([], teams=[A, B])
    assert [(r.team, r.rank, r.played) for r in rows] == [(A, 1, 0), (B, 1, 0)]


def test_a_team_cannot_meet_itself() -> None:
    with pytest.raises(ValueError):
        day(A, A, (2, 2), (0, 0))
