"""Seeding and balancing by rating, in the pure algorithms: a pair's rating, the Swiss order
by score then rating, the finals bracket by rating (1v4/2v3, 1v8/4v5/2v7/3v6), and the
individual draw's "balance tables by rating" criterion (``seating.rating_gap``), each
against a hand computation; a property test that the criterion never breaks a hard rule,
and that with the option off the draw is exactly what it was without ratings."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import seating
from tournaments.draw.seating import Entrant, SeatingHistory, SeatingOptions
from tournaments.pairs import formats
from tournaments.ratings import elo

ON = SeatingOptions(balance_by_rating=True)
OFF = SeatingOptions()

# --------------------------------------------------------------------------- pairs


def test_a_pairs_rating_is_the_sum_of_its_players_mu() -> None:
    assert elo.pair_rating([25.0, 31.5]) == 56.5
    assert elo.pair_rating([25.0, 25.0]) == 50.0  # two new players: twice the default


def test_by_rating_best_first_and_equal_ratings_in_id_order() -> None:
    ratings = {7: 50.0, 3: 61.0, 9: 50.0, 4: 48.5}
    assert formats.by_rating([7, 3, 9, 4], ratings) == [3, 7, 9, 4]


def test_swiss_seeding_orders_equal_scores_by_rating() -> None:
    # Scores 2, 2, 0, 0, 2; pair 15 has no row yet (a late pair). By hand: the score-2
    # group by rating 11 (70), 10 (60), 14 (50); the score-0 group 13 (55), 12 (45);
    # then 15, whatever its rating.
    scores = {10: 2, 11: 2, 12: 0, 13: 0, 14: 2}
    standing = [14, 10, 11, 12, 13]  # the tie-breaks' order, which rating now overrules
    ratings = {10: 60.0, 11: 70.0, 12: 45.0, 13: 55.0, 14: 50.0, 15: 80.0}
    order = seating.swiss_seeding(
        [10, 11, 12, 13, 14, 15], scores=scores, standing=standing, ratings=ratings
    )
    assert order == [11, 10, 14, 13, 12, 15]


def test_swiss_seeding_of_round_one_is_by_rating_and_equal_ratings_keep_the_standing() -> None:
    ratings = {1: 50.0, 2: 62.0, 3: 50.0, 4: 58.0}
    assert seating.swiss_seeding([1, 2, 3, 4], scores={}, standing=[], ratings=ratings) == [
        2,
        4,
        1,
        3,
    ]
    tied = seating.swiss_seeding(
        [1, 3], scores={1: 2, 3: 2}, standing=[3, 1], ratings={1: 50.0, 3: 50.0}
    )
    assert tied == [3, 1]


def test_finals_of_four_by_rating_play_1v4_and_2v3() -> None:
    qualified = [101, 102, 103, 104]  # standings order
    ratings = {101: 50.0, 102: 70.0, 103: 40.0, 104: 60.0}
    seeds = formats.seeded_by_rating(qualified, ratings)
    assert seeds == [102, 104, 101, 103]
    matches = formats.first_finals_round(seeds, size=4)
    assert [(m.slot, m.home, m.away, m.home_seed, m.away_seed) for m in matches] == [
        ("SF1", 102, 103, 1, 4),
        ("SF2", 104, 101, 2, 3),
    ]


def test_finals_of_eight_by_rating_play_1v8_4v5_2v7_3v6() -> None:
    qualified = [201, 202, 203, 204, 205, 206, 207, 208]  # standings order
    ratings = {200 + k: 10.0 * k for k in range(1, 9)}  # rating order is the reverse
    seeds = formats.seeded_by_rating(qualified, ratings)
    assert seeds == [208, 207, 206, 205, 204, 203, 202, 201]
    matches = formats.first_finals_round(seeds, size=8)
    assert [(m.slot, m.home, m.away) for m in matches] == [
        ("QF1", 208, 201),  # 1 v 8
        ("QF2", 205, 204),  # 4 v 5
        ("QF3", 207, 202),  # 2 v 7
        ("QF4", 206, 203),  # 3 v 6
    ]


def test_finals_by_rating_keep_the_standings_order_between_equal_ratings() -> None:
    assert formats.seeded_by_rating([5, 6, 7, 8], {5: 50.0, 6: 55.0, 7: 50.0, 8: 50.0}) == [
        6,
        5,
        7,
        8,
    ]


# --------------------------------------------------------------------------- tables


RATINGS = {1: 30.0, 2: 20.0, 3: 10.0, 4: 0.0}
BALANCED = (1, 2, 4, 3)  # 30 + 0 against 20 + 10: gap 0
UNBALANCED = (1, 3, 2, 4)  # 30 + 20 against 10 + 0: gap 40


def test_rating_gap_is_the_difference_of_the_two_teams_sums() -> None:
    assert seating.rating_gap(BALANCED, RATINGS) == 0
    assert seating.rating_gap(UNBALANCED, RATINGS) == 40
    assert seating.rating_gap((1, 2, 3, 4), RATINGS) == 20  # 30 + 10 against 20 + 0


def test_balanced_table_beats_unbalanced_with_the_weight_on_and_ties_when_off() -> None:
    # on: 1 per tenth of a point of the gap; off: the criterion does not exist
    assert seating.rating_cost(BALANCED, RATINGS, ON) == 0
    assert seating.rating_cost(UNBALANCED, RATINGS, ON) == 400
    assert seating.rating_cost(BALANCED, RATINGS, OFF) == seating.rating_cost(
        UNBALANCED, RATINGS, OFF
    )


def test_a_tables_rating_cost_stops_at_99_9_points() -> None:
    huge = {1: 400.0, 2: 0.0, 3: 0.0, 4: 0.0}
    assert seating.rating_cost((1, 2, 3, 4), huge, ON) == 999


def entrants(ratings: dict[int, float]) -> list[Entrant]:
    return [Entrant(id=p, rating=r) for p, r in ratings.items()]


def total_gap(draw: seating.Draw, ratings: dict[int, float]) -> float:
    return sum(seating.rating_gap(table, ratings) for table in draw.tables)


def test_four_players_sit_in_the_balanced_split_when_the_option_is_on() -> None:
    for seed in range(12):
        draw = seating.draw_individual(
            entrants(RATINGS), SeatingHistory(), round_number=1, seed=seed, options=ON
        )
        assert total_gap(draw, RATINGS) == 0, seed
        assert draw.cost.rating_gap == 0.0


def test_eight_players_are_balanced_when_on_and_left_to_chance_when_off() -> None:
    # Ratings 40, 35, ..., 5: the split {40, 5 | 35, 10} and {30, 15 | 25, 20} has gap 0.
    ratings = {p: 45.0 - 5 * p for p in range(1, 9)}
    on = [
        seating.draw_individual(
            entrants(ratings), SeatingHistory(), round_number=1, seed=s, options=ON
        )
        for s in range(10)
    ]
    off = [
        seating.draw_individual(
            entrants(ratings), SeatingHistory(), round_number=1, seed=s, options=OFF
        )
        for s in range(10)
    ]
    assert all(total_gap(draw, ratings) == 0 for draw in on)
    assert any(total_gap(draw, ratings) > 0 for draw in off)
    assert on[0].cost.to_dict()["rating_gap"] == 0.0
    assert "rating_gap" not in off[0].cost.to_dict()


@pytest.mark.parametrize(("players", "seed"), [(9, 1), (12, 4), (17, 2), (24, 7)])
def test_with_the_option_off_ratings_change_nothing(players: int, seed: int) -> None:
    history = seating.history_from_tables([[(1, 2, 3, 4), (5, 6, 7, 8)]], byes=[9])
    plain = [Entrant(id=p, club=p % 3) for p in range(1, players + 1)]
    rated = [Entrant(id=p, club=p % 3, rating=(7 * p) % 11 + 0.3) for p in range(1, players + 1)]
    options = SeatingOptions(avoid_same_club=True, planned_rounds=5)
    before = seating.draw_individual(plain, history, round_number=2, seed=seed, options=options)
    after = seating.draw_individual(rated, history, round_number=2, seed=seed, options=options)
    assert after.to_dict() == before.to_dict()


def test_balancing_gives_way_to_a_repeated_partner() -> None:
    # Round 1 sat the balanced split; round 2 of the same four must not repeat a
    # partnership for the sake of ratings: the balanced split would repeat 1 & 4.
    history = seating.history_from_tables([[BALANCED]])
    draw = seating.draw_individual(entrants(RATINGS), history, round_number=2, seed=3, options=ON)
    assert draw.cost.repeated_partners == 0
    assert draw.cost.rating_gap in (20.0, 40.0)


# --------------------------------------------------------------------------- hard rules


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[Entrant], SeatingHistory, frozenset[frozenset[int]]]:
    n = draw(st.integers(min_value=4, max_value=22))
    ids = list(range(1, n + 1))
    ratings = draw(st.lists(st.floats(-20, 60, allow_nan=False), min_size=n, max_size=n))
    tables = n // 4
    pins = draw(st.dictionaries(st.sampled_from(ids), st.integers(0, tables - 1), max_size=3))
    players = [
        Entrant(id=p, rating=round(r, 2), fixed_table=pins.get(p), club=p % 4)
        for p, r in zip(ids, ratings, strict=True)
    ]
    byes = draw(st.lists(st.sampled_from(ids), max_size=3))
    forbidden = frozenset()
    if n >= 8:
        a, b = draw(st.sampled_from([(1, 2), (3, n), (2, n - 1)]))
        if not (a in pins and b in pins and pins[a] == pins[b]):
            forbidden = frozenset({frozenset((a, b))})
    return players, SeatingHistory(byes=dict(Counter(byes))), forbidden


@settings(max_examples=60, deadline=None)
@given(fields(), st.integers(0, 1000))
def test_balancing_by_rating_never_breaks_a_hard_rule(
    field: tuple[list[Entrant], SeatingHistory, frozenset[frozenset[int]]], seed: int
) -> None:
    players, history, forbidden = field
    options = SeatingOptions(balance_by_rating=True, forbidden=forbidden)
    draw = seating.draw_individual(players, history, round_number=1, seed=seed, options=options)
    ids = [e.id for e in players]
    seated = [p for table in draw.tables for p in table]
    # everyone exactly once, at a table or on a bye; the byes are len % 4
    assert sorted(seated + list(draw.byes)) == sorted(ids)
    assert len(draw.byes) == len(ids) % 4
    # byes to the players with the fewest byes so far
    if draw.byes:
        most_among_byes = max(history.byes.get(p, 0) for p in draw.byes)
        assert all(history.byes.get(p, 0) >= most_among_byes for p in seated)
    # a pinned player who plays sits at the pinned table
    for number, table in enumerate(draw.tables):
        for p in table:
            pinned = next(e.fixed_table for e in players if e.id == p)
            assert pinned in (None, number)
    # a forbidden pair never shares a table (a field of 8 or more always allows it)
    assert draw.cost.forbidden == 0
    assert draw.cost.rating_gap is not None and draw.cost.rating_gap >= 0
