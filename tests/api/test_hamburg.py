"""The Hamburg preset (Klabberjazz): the running score and the standings count Hamburg
points to 6 (a round won), not small points to 5."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import Event, client_for
from tests.factories import summary_record
from tournaments.deals.selectors import running_score
from tournaments.events.models import Tournament
from tournaments.events.selectors import scored_matches

pytestmark = pytest.mark.django_db


def enter(event: Event, number: int) -> dict[str, Any]:
    """Deal ``number`` with 64:100 card points: team 1 wins it whoever plays."""
    response = client_for(device_code=event.code1).post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        summary_record(dealer=(number - 1) % 4, team0_points=64),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def hamburg_event(event: Event) -> Event:
    Tournament.objects.filter(pk=event.tournament.pk).update(rules_preset="klammern-hamburg")
    return event


def test_orgi_made_then_orgi_failed_win_a_hamburg_round(hamburg_event: Event) -> None:
    first = enter(hamburg_event, 1)  # seat 1 (team 1) makes its Orgi: +2 to team 1
    assert first["result"]["small_points"] == [0, 2]
    score = running_score(hamburg_event.match1)
    assert score["hamburg"] == {"target": 6, "rounds": [0, 0], "points": [0, 2]}

    enter(hamburg_event, 2)  # seat 2 (team 0) fails its Orgi: +4 to team 1, 6 in all
    score = running_score(hamburg_event.match1)
    assert score["hamburg"] == {"target": 6, "rounds": [0, 1], "points": [0, 0]}
    (scored,) = scored_matches(hamburg_event.tournament.rounds.get().matches.all())
    assert scored.big == (0, 1) and scored.small == (0, 0)


def test_klammern_preset_has_no_hamburg_score(event: Event) -> None:
    enter(event, 1)
    enter(event, 2)  # team 1: 1 small point for the made Orgi, 2 for the failed one
    score = running_score(event.match1)
    assert "hamburg" not in score
    (scored,) = scored_matches(event.tournament.rounds.get().matches.all())
    assert scored.big == (0, 0) and scored.small == (0, 3)


def test_tablet_shows_the_hamburg_score(hamburg_event: Event, client: Any) -> None:
    enter(hamburg_event, 1)
    body = client.get(f"/t/{hamburg_event.code1}/").content.decode()
    assert "von 6 Punkten (Hamburg)" in body
    assert 'data-bind="hamburg-points">2<' in body
    assert "kleine Punkte" not in body
