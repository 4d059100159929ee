"""Imported evenings in the pure club tables: an imported player line counts exactly as
the games of a played evening that give the same figures (RULES.md, "KlammernBoss")."""

from __future__ import annotations

from tournaments.results.standings import (
    Evening,
    GameResult,
    ImportedTally,
    all_time_table,
    boss_history,
)


def game(teams, big, points):  # type: ignore[no-untyped-def]
    return GameResult(1, 1, teams, big, (0, 0), points)


# Evening 1 (played): A+B beat C+D 2-0 with 100-40; C+D beat A+B 1-0 with 60-50.
PLAYED = Evening(
    1,
    (
        game(((1, 2), (3, 4)), (2, 0), (100, 40)),
        game(((1, 2), (3, 4)), (0, 1), (50, 60)),
    ),
)


def imported_as_played() -> Evening:
    """The same evening as the club's spreadsheet has it: one line per player."""
    return Evening(
        -1,
        (
            ImportedTally(1, 2, 1, 50),
            ImportedTally(2, 2, 1, 50),
            ImportedTally(3, 2, 1, -50),
            ImportedTally(4, 2, 1, -50),
        ),
    )


def test_an_imported_evening_counts_as_the_played_one() -> None:
    assert all_time_table(PLAYED.games) == all_time_table(imported_as_played().games)
    played = boss_history([PLAYED])[0]
    imported = boss_history([imported_as_played()])[0]
    assert (played.boss, played.decided_by, played.ranking) == (
        imported.boss,
        imported.decided_by,
        imported.ranking,
    )


def test_hand_computed_tables_over_imported_and_played_evenings() -> None:
    evenings = [
        Evening(-1, (ImportedTally(3, 3, 3, 90), ImportedTally(5, 3, 0, -90))),
        Evening(-2, (ImportedTally(5, 4, 4, 200), ImportedTally(3, 4, 0, -200))),
        PLAYED,
    ]
    # all time: 5 played 7 won 1 diff 110; 3 played 9 won 4 diff -160; 1 and 2 played 2
    # won 1 diff 50; 4 played 2 won 1 diff -50.
    rows = [
        (r.rank, r.player, r.played, r.won, r.point_difference)
        for r in all_time_table(g for e in evenings for g in e.games)
    ]
    assert rows == [
        (1, 5, 7, 4, 110),  # 4 won each: the better difference first
        (2, 3, 9, 4, -160),
        (3, 1, 2, 1, 50),
        (3, 2, 2, 1, 50),
        (5, 4, 2, 1, -50),
    ]
    history = boss_history(evenings, window=2)
    # after evening 1: player 3 (3 won); after 2: window {1,2}: 3 has 3 won -110, 5 has 4
    # won 110 -> 5; after the played one: window {2, played}: 5 4 won, 3 1 won -> 5.
    assert [(h.evening, h.boss) for h in history] == [(-1, 3), (-2, 5), (1, 5)]
    assert [(r.player, r.won, r.point_difference) for r in history[-1].ranking][:2] == [
        (5, 4, 200),
        (1, 1, 50),  # 1 won each for 1, 2, 3 and 4: the difference decides
    ]
