"""Anonymous reads of the public standings (the API and the page): conditional GETs, a
short public lifetime, one page per language, new results visible at once, and the
anonymous rate limit counted per address."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import Event, set_throttle_rates
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tournaments.events import versions as results
from tournaments.results import snapshots
from tournaments.results.models import StandingsSnapshot

pytestmark = pytest.mark.django_db


def api_url(event: Event) -> str:
    return f"/api/tournaments/{event.tournament.pk}/standings/"


def page_url(event: Event) -> str:
    return f"/tournaments/{event.tournament.pk}/standings/"


def test_api_read_has_an_etag_304_and_a_short_public_lifetime(event: Event) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    first = Client().get(api_url(event))
    assert first.status_code == 200
    assert first["Cache-Control"] == "max-age=5, public, s-maxage=5" and "Accept" in first["Vary"]
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


def test_api_answers_304_per_language_and_the_stored_body(event: Event) -> None:
    """The API's answer is named per results, snapshot and language: a German ETag is 304
    for a German reader only; the body is the snapshot's stored one, its ``detail`` in
    the reader's language."""
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    german = Client(headers={"Accept-Language": "de"}).get(api_url(event))
    english = Client(headers={"Accept-Language": "en"}).get(api_url(event))
    assert german.status_code == english.status_code == 200
    assert german["ETag"] != english["ETag"]
    assert german.json()["detail"] == "Die Rangliste ist aktuell."
    assert english.json()["detail"] == "Standings are up to date."
    assert german.json()["data"] == english.json()["data"]
    assert german.json()["data"] == event.tournament.standings_snapshot.data

    headers = {"Accept-Language": "de", "If-None-Match": german["ETag"]}
    not_modified = Client(headers=headers).get(api_url(event))
    assert not_modified.status_code == 304 and not not_modified.content
    headers = {"Accept-Language": "en", "If-None-Match": german["ETag"]}
    assert Client(headers=headers).get(api_url(event)).status_code == 200


def test_api_serves_the_body_stored_with_the_snapshot(event: Event) -> None:
    """Reads serve what was stored with the snapshot and never serialise its data again:
    a change to the row that no recompute stored is not seen."""
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    first = Client().get(api_url(event)).json()
    StandingsSnapshot.objects.filter(tournament=event.tournament).update(data={"rows": []})
    again = Client().get(api_url(event)).json()
    assert again["data"] == first["data"] and again["data"]["rows"]
    results.notify_results_changed(tournament_id=event.tournament.pk)
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    after = Client().get(api_url(event)).json()
    assert after["computed_version"] == first["computed_version"] + 1 and after["up_to_date"]


def test_page_answers_304_and_is_stored_per_language(event: Event) -> None:
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    german = Client(headers={"Accept-Language": "de"}).get(page_url(event))
    english = Client(headers={"Accept-Language": "en"}).get(page_url(event))
    assert german.status_code == english.status_code == 200
    assert "Rangliste" in german.content.decode() and "Standings" in english.content.decode()
    assert german["ETag"] != english["ETag"]
    headers = {"Accept-Language": "de", "If-None-Match": german["ETag"]}
    assert Client(headers=headers).get(page_url(event)).status_code == 304
    headers = {"Accept-Language": "en", "If-None-Match": german["ETag"]}
    assert Client(headers=headers).get(page_url(event)).content == english.content
    table = Client().get(f"{page_url(event)}table/")
    headers = {"If-None-Match": table["ETag"]}
    assert Client(headers=headers).get(f"{page_url(event)}table/").status_code == 304


def test_signed_in_readers_get_their_own_page(event: Event, organiser: Any) -> None:
    """Only the page that is the same for everyone is stored: an organiser's shows the
    console link and no shared ETag."""
    snapshots.recompute_standings(tournament_id=event.tournament.pk)
    client = Client()
    client.force_login(organiser)
    page = client.get(page_url(event))
    assert page.status_code == 200 and "ETag" not in page
    assert "/console/" in page.content.decode()
    assert "/console/" not in Client().get(page_url(event)).content.decode()
