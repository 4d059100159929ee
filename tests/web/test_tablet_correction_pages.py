"""The tablet's score panel offers a correction exactly when the API accepts one from the
table's device, and otherwise says in words who corrects (confirmed match, closed round).
The browser side of correcting is in ``test_tablet_correction.py``."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import Event, client_for, make_event
from tests.factories import summary_record
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.events import services

pytestmark = pytest.mark.django_db

CONFIRMED = "Beide Teams haben bestätigt: Korrekturen macht jetzt die Turnierleitung."
CLOSED = "Diese Runde ist abgeschlossen: Korrekturen macht jetzt die Turnierleitung."


@pytest.fixture
def event() -> Event:
    return make_event(club=Club.objects.create(name="KC Herzbube", slug="herzbube"), deals=2)


def enter(event: Event, numbers: tuple[int, ...]) -> None:
    device = client_for(device_code=event.code1)
    for number in numbers:
        reply = device.post(
            f"/api/matches/{event.match1.pk}/deals/{number}/",
            summary_record(dealer=number - 1, team0_points=40 + number),
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert reply.status_code == 201, reply.content


def panel(event: Event) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    response = client.get(f"/t/{event.code1}/state/")
    assert response.status_code == 200
    return response.content.decode()


def correct_by_device(event: Event, number: int) -> Any:
    return client_for(device_code=event.code1).put(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        summary_record(dealer=number - 1, team0_points=100),
        format="json",
        HTTP_IF_MATCH='"1"',
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


def test_every_entered_deal_has_its_correct_button_while_the_round_is_open(event: Event) -> None:
    enter(event, (1, 2))
    html = panel(event)
    assert 'data-correct-deal="1"' in html and 'data-correct-deal="2"' in html
    assert 'aria-label="Spiel 2 korrigieren"' in html
    assert "correction-lock" not in html
    assert correct_by_device(event, 2).status_code == 200


def test_a_confirmed_match_says_the_organiser_corrects(event: Event) -> None:
    enter(event, (1, 2))
    for team in (0, 1):
        services.confirm_match(match=event.match1, team=team)
    html = panel(event)
    assert CONFIRMED in html
    assert "data-correct-deal" not in html
    reply = correct_by_device(event, 1)
    assert reply.status_code == 409 and reply.json()["code"] == "match_confirmed"


def test_a_closed_round_says_the_organiser_corrects(event: Event) -> None:
    enter(event, (1,))
    services.close_round(round_=event.round, force=True)
    html = panel(event)
    assert CLOSED in html
    assert "data-correct-deal" not in html
    reply = correct_by_device(event, 1)
    assert reply.status_code == 409 and reply.json()["code"] == "round_not_open"


def test_without_deals_there_is_nothing_to_correct_and_no_lock_words(event: Event) -> None:
    services.close_round(round_=event.round, force=True)
    html = panel(event)
    assert "data-correct-deal" not in html and "correction-lock" not in html
