"""Anonymous reads of the public standings (the API and the page): conditional GETs, a
short public lifetime, one page per language, new results visible at once, and the
anonymous rate limit counted per address."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import Event, set_throttle_rates
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tournaments import snapshots

pytestmark = pytest.mark.django_db


def api_url(event: Event) -> str:
    return f"/api/tournaments/{event.tournament.pk}/standings/"


def page_url(event: Event) -> str:
    return f"/tournaments/{event.tournament.pk}/standings/"


def test_api_read_has_an_etag_304_and_a_short_public_lifetime(event: Event) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    first = Client().get(api_url(event))
    assert first.status_code == 200
    assert first["Cache-Control"] == "max-age=5" and "Accept" in first["Vary"]
    again = Client().get(api_url(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_each_language_gets_its_page(event: Event) -> None:
    german = Client().get(page_url(event)).content.decode()
    english = Client(headers={"Accept-Language": "en"}).get(page_url(event)).content.decode()
    assert "Rangliste" in german and "Standings" in english
    client = Client()
    client.get("/lang/en/", {"next": "/"})  # the language cookie
    assert "Standings" in client.get(page_url(event)).content.decode()


def test_a_deal_is_visible_at_once(event: Event, device: APIClient) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    before = Client().get(api_url(event)).json()
    page_before = Client().get(page_url(event)).content.decode()
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201
    after = Client().get(api_url(event)).json()
    assert after["results_version"] == before["results_version"] + 1
    assert after["data"] != before["data"] and after["up_to_date"]
    page_after = Client().get(page_url(event)).content.decode()
    assert page_after != page_before
    assert f'data-version="{after["results_version"]}"' in page_after


def test_anonymous_reads_are_throttled_per_address(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_throttle_rates(monkeypatch, anon="3/min")
    statuses = [Client().get(api_url(event)).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    refused = Client().get(api_url(event))
    assert refused.status_code == 429 and refused["Retry-After"]
    assert refused.json()["code"] == "throttled"
    other = Client(REMOTE_ADDR="10.0.0.9").get(api_url(event))
    assert other.status_code == 200
