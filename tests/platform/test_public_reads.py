"""The process-local micro-cache in front of the anonymous standings reads
(``klammern_site.middleware.PublicReadMicroCacheMiddleware``): the same bytes as the
normal path, at most a second old, still throttled, and never for anyone but a plain
anonymous reader."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from klammern_site import middleware
from tests.conftest import Event, set_throttle_rates
from tests.factories import summary_record
from tournaments import services

pytestmark = pytest.mark.django_db


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(middleware.PUBLIC_READS, "clock", fake)
    middleware.PUBLIC_READS.clear()
    return fake


def api_url(event: Event) -> str:
    return f"/api/tournaments/{event.tournament.pk}/standings/"


def page_url(event: Event) -> str:
    return f"/tournaments/{event.tournament.pk}/standings/"


def queries_of(request: Callable[[], Any]) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        response = request()
    return response, len(queries)


def assert_identical(a: Any, b: Any) -> None:
    assert a.status_code == b.status_code
    assert list(a.items()) == list(b.items())
    assert a.content == b.content
    assert not a.cookies and not b.cookies


@pytest.mark.parametrize("url", [api_url, page_url])
def test_a_repeated_read_is_the_same_bytes_without_a_query(
    event: Event, clock: FakeClock, url: Callable[[Event], str]
) -> None:
    services.recompute_standings(tournament_id=event.tournament.pk)
    first, _ = queries_of(lambda: Client().get(url(event)))
    clock.advance(0.9)
    second, count = queries_of(lambda: Client().get(url(event)))

    assert first.status_code == 200 and count == 0
    assert_identical(first, second)
    assert "Accept-Language" in second["Vary"] and second["Content-Language"] == "de"


def test_api_read_keeps_its_etag_and_304(event: Event, clock: FakeClock) -> None:
    services.recompute_standings(tournament_id=event.tournament.pk)
    first = Client().get(api_url(event))
    assert first["Cache-Control"] == "max-age=5" and "Accept" in first["Vary"]
    etag = first["ETag"]
    normal, _ = queries_of(lambda: Client().get(api_url(event), HTTP_IF_NONE_MATCH=etag))
    cached, count = queries_of(lambda: Client().get(api_url(event), HTTP_IF_NONE_MATCH=etag))

    assert normal.status_code == 304 and count == 0
    assert_identical(normal, cached)


def test_each_language_is_kept_apart(event: Event, clock: FakeClock) -> None:
    german = Client().get(page_url(event)).content.decode()
    english = Client(headers={"Accept-Language": "en"}).get(page_url(event))
    english_again, count = queries_of(
        lambda: Client(headers={"Accept-Language": "en"}).get(page_url(event))
    )
    assert "Rangliste" in german and "Standings" in english.content.decode()
    assert count == 0 and english_again.content == english.content
    client = Client()
    client.get("/lang/en/", {"next": "/"})  # the language cookie
    assert client.get(page_url(event)).content == english.content


def test_entries_expire_after_a_second(event: Event, clock: FakeClock) -> None:
    Client().get(api_url(event))
    clock.advance(1.01)
    _, count = queries_of(lambda: Client().get(api_url(event)))
    assert count >= 1


def test_a_deal_is_visible_once_the_age_limit_has_passed(
    event: Event, clock: FakeClock, device: APIClient
) -> None:
    services.recompute_standings(tournament_id=event.tournament.pk)
    before = Client().get(api_url(event)).json()
    page_before = Client().get(page_url(event)).content
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/1/", summary_record(), format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )  # fmt: skip
    assert response.status_code == 201

    clock.advance(0.5)
    assert Client().get(api_url(event)).json() == before  # within the documented second
    clock.advance(0.6)
    after = Client().get(api_url(event)).json()
    assert after["results_version"] == before["results_version"] + 1
    assert after["data"] != before["data"] and after["up_to_date"]
    page_after = Client().get(page_url(event)).content.decode()
    assert page_after != page_before.decode()
    assert f'data-version="{after["results_version"]}"' in page_after


@pytest.fixture
def strict_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    set_throttle_rates(monkeypatch, anon="3/min")


@pytest.mark.usefixtures("strict_rates")
def test_cached_api_reads_are_still_throttled(event: Event, clock: FakeClock) -> None:
    statuses = [Client().get(api_url(event)).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    refused = Client().get(api_url(event))
    assert refused.status_code == 429 and refused["Retry-After"]
    other = Client(REMOTE_ADDR="10.0.0.9").get(api_url(event))
    assert other.status_code == 200  # counted per address, as before


def test_other_readers_go_the_normal_way(
    event: Event, clock: FakeClock, organiser: Any, device: APIClient
) -> None:
    web = Client()
    web.force_login(organiser)
    services.recompute_standings(tournament_id=event.tournament.pk)
    Client().get(api_url(event))
    Client().get(page_url(event))
    others = [
        lambda: Client().get(api_url(event) + "?x=1"),
        lambda: Client().get(api_url(event), HTTP_ACCEPT="text/html"),
        lambda: web.get(api_url(event)),  # a session
        lambda: device.get(api_url(event)),  # credentials
        lambda: Client().get(page_url(event) + "?x=1"),
        lambda: web.get(page_url(event)),
        lambda: Client().post(page_url(event)),
    ]
    for request in others:
        _, count = queries_of(request)
        assert count >= 1
    assert "X-CSRFToken" in web.get(page_url(event)).content.decode()


def test_refusals_are_not_kept(event: Event, clock: FakeClock) -> None:
    missing = f"/api/tournaments/{event.tournament.pk + 999}/standings/"
    Client().get(missing)
    response, count = queries_of(lambda: Client().get(missing))
    assert response.status_code == 404 and count >= 1


def test_the_cache_is_bounded_oldest_first() -> None:
    fake = FakeClock()
    cache = middleware.MicroCache(max_age=1.0, max_entries=2, clock=fake)
    stored = middleware.StoredResponse(200, (("Content-Type", "text/plain"),), b"x")
    for key in ("a", "b", "c"):
        cache.put(key, stored)
    assert cache.get("a") is None and cache.get("b") == cache.get("c") == stored
    fake.advance(1.01)
    assert cache.get("c") is None
