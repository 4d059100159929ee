"""The pure algorithms of fixed pairs and club seasons (``tournaments.pairs.formats``, the
round robin in ``draw.seating``, the season table in ``results.season_ranking``): the card
draw of seed 002, random pairs, round-robin fixtures, the finals bracket and its seeding,
who wins a finals match, and the season table against a hand computation."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.draw import seating
from tournaments.pairs import formats
from tournaments.pairs.formats import FinishedMatch
from tournaments.results import season_ranking


def card_value(card: str) -> tuple[int, int]:
    return formats.RANKS.index(card[0]), formats.SUITS.index(card[1])


def test_card_draw_pairs_highest_with_lowest() -> None:
    players = list(range(101, 117))  # 16 players
    drawn = formats.card_draw_pairs(players, seed=3)
    assert sorted(drawn.cards) == players
    assert len(set(drawn.cards.values())) == 16  # one pack: every card drawn once
    by_card = sorted(players, key=lambda p: card_value(drawn.cards[p]), reverse=True)
    assert drawn.pairs == tuple((by_card[i], by_card[15 - i]) for i in range(8))
    assert drawn.left_over is None
    assert drawn == formats.card_draw_pairs(players, seed=3)  # the seed decides
    assert drawn != formats.card_draw_pairs(players, seed=4)


def test_card_draw_odd_count_leaves_the_middle_card_and_big_fields_use_more_packs() -> None:
    drawn = formats.card_draw_pairs([1, 2, 3, 4, 5], seed=1)
    by_card = sorted(drawn.cards, key=lambda p: card_value(drawn.cards[p]), reverse=True)
    assert drawn.left_over == by_card[2]
    assert drawn.pairs == ((by_card[0], by_card[4]), (by_card[1], by_card[3]))
    big = formats.card_draw_pairs(list(range(40)), seed=9)
    assert len(big.pairs) == 20
    assert sorted(p for pair in big.pairs for p in pair) == list(range(40))
    assert max(Counter(big.cards.values()).values()) <= 2  # two packs


def test_random_pairs_cover_every_player_once() -> None:
    drawn = formats.random_pairs(list(range(1, 10)), seed=5)
    seen = [p for pair in drawn.pairs for p in pair] + [drawn.left_over]
    assert sorted(seen) == list(range(1, 10))
    assert drawn == formats.random_pairs(list(range(9, 0, -1)), seed=5)


@pytest.mark.parametrize("count", [4, 5, 6, 8])
def test_round_robin_every_pair_meets_every_other_once(count: int) -> None:
    pairs = list(range(10, 10 + count))
    rounds = seating.round_robin(pairs)
    assert len(rounds) == (count if count % 2 else count - 1)
    meetings = Counter(frozenset(m) for r in rounds for m in r.matches)
    assert set(meetings) == {frozenset(c) for c in combinations(pairs, 2)}
    assert set(meetings.values()) == {1}
    for r in rounds:  # nobody plays twice in a round
        seated = [p for m in r.matches for p in m] + ([r.bye] if r.bye else [])
        assert sorted(seated) == pairs


def test_round_robin_home_and_away_plays_every_fixture_both_ways() -> None:
    rounds = seating.round_robin([1, 2, 3, 4], home_and_away=True)
    assert len(rounds) == 6
    fixtures = Counter(m for r in rounds for m in r.matches)
    assert set(fixtures.values()) == {1}
    assert all((b, a) in fixtures for a, b in fixtures)


def test_finals_of_four_seed_semi_finals_1_4_and_2_3() -> None:
    ranking = [50, 40, 30, 20, 10]
    semis = formats.first_finals_round(ranking, size=4)
    assert [(m.slot, m.home, m.away, m.home_seed, m.away_seed) for m in semis] == [
        ("SF1", 50, 20, 1, 4),
        ("SF2", 40, 30, 2, 3),
    ]


def test_finals_of_eight_seed_quarter_finals_and_lead_to_semis() -> None:
    ranking = [1, 2, 3, 4, 5, 6, 7, 8]
    quarters = formats.first_finals_round(ranking, size=8)
    assert {m.slot: (m.home_seed, m.away_seed) for m in quarters} == {
        "QF1": (1, 8),
        "QF2": (4, 5),
        "QF3": (2, 7),
        "QF4": (3, 6),
    }
    # the lower seeds win QF2 and QF4: semis 1-5 and 2-6
    winners = {"QF1": 1, "QF2": 5, "QF3": 2, "QF4": 6}
    played = [
        FinishedMatch(m.slot, m.home, m.away, m.home_seed, m.away_seed, winners[m.slot])
        for m in quarters
    ]
    semis = formats.next_finals_round(played)
    assert [(m.slot, m.home, m.away, m.home_seed, m.away_seed) for m in semis] == [
        ("SF1", 1, 5, 1, 5),
        ("SF2", 2, 6, 2, 6),
    ]


def test_after_the_semi_finals_the_final_and_the_match_for_third() -> None:
    played = [FinishedMatch("SF1", 11, 14, 1, 4, 14), FinishedMatch("SF2", 12, 13, 2, 3, 12)]
    final, third = formats.next_finals_round(played)
    assert (final.slot, final.home, final.away, final.home_seed, final.away_seed) == (
        "F",
        12,
        14,
        2,
        4,
    )
    assert (third.slot, third.home, third.away) == ("P3", 11, 13)
    done = [*played, FinishedMatch("F", 12, 14, 2, 4, 14), FinishedMatch("P3", 11, 13, 1, 3, 13)]
    assert formats.next_finals_round(done) == []
    assert formats.final_placings(done) == {14: 1, 12: 2, 13: 3, 11: 4}
    with pytest.raises(ValueError):
        formats.next_finals_round(played[:1])
    with pytest.raises(ValueError):
        formats.first_finals_round([1, 2, 3], size=4)


@pytest.mark.parametrize(
    ("big", "small", "points", "liga", "expected"),
    [
        ((2, 1), (0, 3), (40, 60), None, 0),  # big points decide
        ((1, 1), (2, 4), (70, 50), None, 1),  # then small points
        ((1, 1), (3, 3), (49, 51), None, 1),  # then match points
        ((1, 1), (3, 3), (50, 50), None, 0),  # level: the better seed (home)
        ((0, 0), (0, 0), (30, 55), 1, 1),  # a Liga-Partie: its winner
    ],
)
def test_finals_winner(big, small, points, liga, expected) -> None:  # type: ignore[no-untyped-def]
    assert (
        formats.finals_winner(
            big=big, small=small, match_points=points, liga_winner=liga, seeds=(1, 4)
        )
        == expected
    )
    if liga is None and big[0] == big[1] and small[0] == small[1] and points[0] == points[1]:
        assert formats.finals_winner(big=big, small=small, match_points=points, seeds=(3, 2)) == 1


def test_season_table_equals_a_hand_computation() -> None:
    # Four evenings; Anna (1) 6, 2, 4, 0; Bernd (2) 4, 4, -, 6; Clara (3) 8, -, -, -;
    # Dora (4) -, 6, 6, 2. Best 2 of them, at least 2 evenings.
    evenings = [
        (100, {1: 6, 2: 4, 3: 8}),
        (101, {1: 2, 2: 4, 4: 6}),
        (102, {1: 4, 4: 6}),
        (103, {1: 0, 2: 6, 4: 2}),
    ]
    rows = season_ranking.season_table(evenings, best_of=2, min_evenings=2)
    # By hand: Anna 6+4=10 (4 evenings), Bernd 6+4=10 (3), Dora 6+6=12 (3); Clara 8 unranked.
    # Anna and Bernd tie on 10: Anna played more evenings.
    assert [(r.rank, r.player, r.total, r.evenings) for r in rows] == [
        (1, 4, 12, 3),
        (2, 1, 10, 4),
        (3, 2, 10, 3),
        (None, 3, 8, 1),
    ]
    assert rows[0].counted == (101, 102)  # equal evenings: the earlier first
    assert rows[1].counted == (100, 102)
    everything = season_ranking.season_table(evenings)  # defaults: all evenings, minimum 1
    assert [(r.rank, r.player, r.total) for r in everything] == [
        (1, 2, 14),
        (1, 4, 14),
        (3, 1, 12),
        (4, 3, 8),
    ]
