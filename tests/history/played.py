"""A played club evening for the history tests: the event's first table plays one match
of one deal, the round is closed and the evening finished (it counts in the club tables)."""

from __future__ import annotations

from tests.conftest import Event
from tests.factories import summary_record
from tournaments.deals.services import submit_deal
from tournaments.events import services
from tournaments.events.models import Tournament


def finish_with_one_game(event: Event) -> Tournament:
    submit_deal(match=event.match1, number=1, record=summary_record(team0_points=100))
    services.close_round(round_=event.round, force=True)
    return services.finish_tournament(tournament=event.tournament)
