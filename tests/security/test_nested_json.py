"""A JSON body nested deeper than Python's decoder can follow is a 400 with a JSON
error on every endpoint that reads JSON, never a 500 (``klammern_site.parsers``)."""

from __future__ import annotations

import pytest

from games.models import Deal
from tests.conftest import Event
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import Player

pytestmark = pytest.mark.django_db

DEPTH = 1500


def nested(key: str) -> str:
    return f'{{"{key}": {"[" * DEPTH}{"]" * DEPTH}}}'


def assert_parse_error(response) -> None:  # noqa: ANN001 - a test client's response
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert "nested too deeply" in response.json()["detail"]


def test_token_endpoint(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/token/", nested("username"), content_type="application/json"
    )
    assert_parse_error(response)


def test_player_creation(organiser_client: APIClient, club_a) -> None:  # noqa: ANN001
    before = Player.objects.count()
    response = organiser_client.post(
        "/api/players/", nested("name"), content_type="application/json"
    )
    assert_parse_error(response)
    assert Player.objects.count() == before


@pytest.mark.parametrize("method", ["post", "put"])
def test_deal_entry_by_the_tablet(event: Event, method: str) -> None:
    """The device's fast path hands such a body to the DRF view, which refuses it."""
    response = getattr(Client(), method)(
        f"/api/matches/{event.match1.pk}/deals/1/",
        nested("contract"),
        content_type="application/json",
        headers={
            "Authorization": f"Device {event.code1}",
            "Idempotency-Key": "k-1",
            "If-Match": '"1"',
        },
    )
    assert_parse_error(response)
    assert not Deal.objects.filter(match=event.match1).exists()


def test_deal_entry_by_an_organiser(event: Event, organiser_client: APIClient) -> None:
    response = organiser_client.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        nested("contract"),
        content_type="application/json",
        headers={"Idempotency-Key": "k-1"},
    )
    assert_parse_error(response)
    assert not Deal.objects.filter(match=event.match1).exists()
