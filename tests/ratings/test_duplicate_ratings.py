"""A duplicate round moves the club rating as one game per direction (RULES.md,
"Duplicate tournaments", Ratings): the teams of North-South ranked by their match points
of the round, and those of East-West; the table's own result against its opponents moves
no rating.

Board 1 at three tables, North-South card points 60, 70, 60 (East-West made every game):
NS match points 1, 4, 1 and EW 3, 0, 3 (tests/web/test_duplicate_pages.py works them by
hand). At table 2 East-West won the table (94 : 70) and yet came last of its direction.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.boards import DuplicateEvent, board_summary, make_duplicate_event
from tests.support.clients import committed
from tournaments.deals.services import submit_deal
from tournaments.events import services
from tournaments.events.models import Match
from tournaments.ratings import elo as ratings
from tournaments.ratings import services as rating_services
from tournaments.ratings.models import RatingChange

pytestmark = pytest.mark.django_db

NS_POINTS = (60, 70, 60)


@pytest.fixture
def closed(club_a: Any) -> DuplicateEvent:
    event = make_duplicate_event(club=club_a, deals=1)
    board = event.board(1)
    for table, ns in zip(event.tables, NS_POINTS, strict=True):
        match = Match.objects.get(table=table)
        submit_deal(match=match, number=1, record=board_summary(board, team0_points=ns))
    with committed():
        services.close_round(round_=event.round, force=True)
    return event


def seats(event: DuplicateEvent, table: int) -> list[int]:
    rows = event.tables[table - 1].seats.order_by("position")
    return list(rows.values_list("player_id", flat=True))


def changes(event: DuplicateEvent) -> dict[int, float]:
    rows = RatingChange.objects.filter(rated_round__round=event.round)
    return {player: mu - ratings.MU for player, mu in rows.values_list("player_id", "mu")}


def test_each_direction_is_ranked_by_match_points(closed: DuplicateEvent) -> None:
    moved = changes(closed)
    assert len(moved) == 12
    ns = [moved[seats(closed, t)[0]] for t in (1, 2, 3)]
    ew = [moved[seats(closed, t)[1]] for t in (1, 2, 3)]
    assert ns[1] > 0 > ns[0] and ns[0] == pytest.approx(ns[2])
    assert ew[1] < 0 < ew[0] and ew[0] == pytest.approx(ew[2])
    for table in (1, 2, 3):
        north, east, south, west = seats(closed, table)
        assert moved[north] == pytest.approx(moved[south])
        assert moved[east] == pytest.approx(moved[west])


def test_the_tables_own_result_moves_no_rating(closed: DuplicateEvent) -> None:
    """East-West at table 2 won their table and still lose rating: 0 match points."""
    east = seats(closed, 2)[1]
    assert changes(closed)[east] < 0


def test_the_rankings_are_the_pure_models(closed: DuplicateEvent) -> None:
    rankings = rating_services.direction_rankings(closed.round)
    teams = [
        tuple((seats(closed, t)[d], seats(closed, t)[d + 2]) for t in (1, 2, 3)) for d in (0, 1)
    ]
    assert rankings == [
        ratings.Ranking(teams=teams[0], places=(2, 1, 2)),
        ratings.Ranking(teams=teams[1], places=(1, 3, 1)),
    ]
    expected = ratings.rate_round({}, rankings)
    stored = changes(closed)
    assert {p: s.mu - ratings.MU for p, s in expected.items()} == pytest.approx(stored)


def test_from_scratch_equals_the_close(closed: DuplicateEvent, club_a: Any) -> None:
    before = changes(closed)
    rating_services.recompute_club_ratings(club_id=club_a.pk)
    assert changes(closed) == before
