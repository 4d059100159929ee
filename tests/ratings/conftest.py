"""A club evening of 8 players over several rounds, each closed through the service."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory, summary_record
from tests.support.clients import committed
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament

#: Card points of team 0 per table and round: 100 wins, 64 loses, 82 is a draw.
OUTCOMES = [{1: 100, 2: 64}, {1: 64, 2: 100}, {1: 100, 2: 82}]


def evening(
    club: Club, *, slug: str = "abend", public: bool = True, players: list[Any] | None = None
) -> Tournament:
    tournament = services.create_tournament(
        club=club, name=f"Abend {slug}", slug=slug, deals_per_match=2, is_public=public
    )
    for player in players or [PlayerFactory() for _ in range(8)]:
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def play_round(tournament: Tournament, points: dict[int, int], *, seed: int) -> Round:
    round_ = draw.draw_round(tournament=tournament, seed=seed)
    services.publish_round(round_=round_)
    for match in Match.objects.filter(round=round_).select_related("table"):
        for n in (1, 2):
            record = summary_record(dealer=(n - 1) % 4, team0_points=points[match.table.number])
            submit_deal(match=match, number=n, record=record)
    with committed():  # the rating is queued when the close commits
        return services.close_round(round_=round_, force=True)


@pytest.fixture
def played(club_a: Club) -> Any:
    tournament = evening(club_a)
    rounds = [play_round(tournament, points, seed=i + 1) for i, points in enumerate(OUTCOMES)]
    return tournament, rounds
