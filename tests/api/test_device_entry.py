"""The table device's deal-entry fast path (``games.api.device_deal_entry``) answers every
request exactly as the DRF view ``DealDetailView`` does: the same status, body bytes and
headers, from the same database state at the same clock, for entries, replays, conflicts,
corrections and the refusals; it counts each request once against the same throttles;
and it hands whatever is not a plain device entry to the DRF view untouched."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from games import api
from games.models import Deal, DealVersion
from tests.conftest import Event, set_throttle_rates
from tests.factories import invalid_record, summary_record
from tournaments import services
from tournaments.authentication import find_entry_credential, find_usable_credential
from tournaments.models import DeviceCredential

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 21, 20, 15, tzinfo=UTC)
Send = Callable[..., Any]


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows get the same ``created`` and throttles the same window on both paths."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: NOW.timestamp() + 7.25)


@pytest.fixture
def tablet(event: Event) -> Send:
    """The tablet of table 1 as the browser sends (``tablet.js``), or with ``headers``."""
    client = Client()

    def send(method: str, number: int, body: Any = None, **headers: str) -> Any:
        headers = {"Authorization": f"Device {event.code1}", "Accept": "application/json",
                   "Idempotency-Key": "k-1", **headers}  # fmt: skip
        data = body if isinstance(body, bytes) else json.dumps(body or summary_record())
        path = headers.pop("path", f"/api/matches/{event.match1.pk}/deals/{number}/")
        return client.generic(method, path, data, content_type=headers.pop(
            "content_type", "application/json"), headers=headers)  # fmt: skip

    return send


@pytest.fixture
def route(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """``route("drf")``: every request goes to the DRF view; ``route("fast")``: the fast
    path must answer itself (the DRF view's dispatch fails the test if reached);
    ``route("site")``: as the site routes it."""
    real_entry, real_dispatch = api.plain_device_entry, api.DealDetailView.dispatch

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the DRF view answered, not the fast path")

    def choose(how: str) -> None:
        entry = (lambda *a, **k: None) if how == "drf" else real_entry
        monkeypatch.setattr(api, "plain_device_entry", entry)
        dispatch = unreachable if how == "fast" else real_dispatch
        monkeypatch.setattr(api.DealDetailView, "dispatch", dispatch)

    return choose


def both(request: Callable[[], Any], route: Callable[[str], None], *, fast: bool = True):
    """The same request answered through the site's routing (``fast``: by the fast path
    itself) and by the DRF view, each from the same database state (rolled back)."""
    answers = []
    for how in ("fast" if fast else "site", "drf"):
        route(how)
        with transaction.atomic():
            answers.append(request())
            transaction.set_rollback(True)
    route("site")
    return answers


def assert_same(fast: Any, drf: Any) -> None:
    assert (fast.status_code, masked(fast.content)) == (drf.status_code, masked(drf.content))
    assert list(fast.headers.items()) == list(drf.headers.items())
    assert fast.cookies.keys() == drf.cookies.keys()


def masked(content: bytes) -> bytes:
    """The browsable API's page carries a new CSRF token per request."""
    return re.sub(rb"[A-Za-z0-9]{64}", b"<csrf token>", content)


def test_entry_is_answered_as_by_the_drf_view(tablet: Send, route: Any) -> None:
    fast, drf = both(lambda: tablet("POST", 1), route)

    assert fast.status_code == 201 and fast["ETag"] == '"1"' and fast["Allow"]
    assert fast.json()["history"][0]["created"] == "2026-11-21T21:15:00+01:00"
    assert_same(fast, drf)


def test_entry_is_stored_once_with_its_idempotency_record(tablet: Send, event: Event) -> None:
    assert tablet("POST", 1).status_code == 201
    version = DealVersion.objects.get(deal__match=event.match1, deal__number=1)
    assert version.created_by_device is not None and version.is_current
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == 1


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ({}, {}),  # a retry: replayed
        ({}, {"Idempotency-Key": "k-2"}),  # a second entry of deal 1: 409
        ({}, {"body": summary_record(team0_points=10)}),  # the key for another body: 422
        (None, {"body": invalid_record()}),  # the engine refuses: 400 with its errors
        (None, {"number": 9}),  # beyond the planned deals: 400
    ],
)  # fmt: skip
def test_replays_conflicts_and_refusals_are_answered_as_by_the_drf_view(
    tablet: Send, route: Any, first: dict | None, then: dict
) -> None:
    if first is not None:
        assert tablet("POST", 1).status_code == 201
    number, body = then.pop("number", 1), then.pop("body", None)
    fast, drf = both(lambda: tablet("POST", number, body, **then), route)

    assert fast.status_code in (201, 400, 409, 422)
    assert_same(fast, drf)


def test_replay_is_marked(tablet: Send, route: Any) -> None:
    tablet("POST", 1)
    fast, drf = both(lambda: tablet("POST", 1), route)
    assert fast["Idempotent-Replayed"] == "true"
    assert_same(fast, drf)


@pytest.mark.parametrize(
    ("if_match", "status"), [('"1"', 200), ('W/"1"', 200), ('"7"', 412)]
)  # fmt: skip
def test_corrections_are_answered_as_by_the_drf_view(
    tablet: Send, route: Any, if_match: str, status: int
) -> None:
    tablet("POST", 1)
    body = summary_record(team0_points=120)
    headers = {"If-Match": if_match, "Idempotency-Key": "c-1"}
    fast, drf = both(lambda: tablet("PUT", 1, body, **headers), route)

    assert fast.status_code == status
    assert_same(fast, drf)


def test_correction_reason_is_kept(tablet: Send, event: Event) -> None:
    tablet("POST", 1)
    path = f"/api/matches/{event.match1.pk}/deals/1/?reason=Schreibfehler"
    response = tablet("PUT", 1, summary_record(team0_points=120), path=path,
                      **{"If-Match": '"1"', "Idempotency-Key": "c-1"})  # fmt: skip
    assert response.status_code == 200
    assert DealVersion.objects.get(is_current=True).reason == "Schreibfehler"


@pytest.mark.parametrize(
    "unusual",
    [
        {"Authorization": "Device not-a-code"},  # 401 with the plain-words message
        {"Authorization": "Device"},  # 401, malformed
        {"Authorization": "Token abc"},  # another scheme
        {"Idempotency-Key": ""},  # 400
        {"Idempotency-Key": "x" * 256},  # 400
        {"body": b"{not json"},  # 400 JSON parse error
        {"body": b"[1, 2]"},  # 400 not an object
        {"body": b""},  # 400 from the engine: an empty record
        {"content_type": "text/plain"},  # 415
        {"Accept": "text/html"},  # the browsable API
        {"Accept": "application/json; indent=4"},  # indented JSON
        {"method": "PUT"},  # 428: no If-Match
        {"method": "PUT", "If-Match": "eins"},  # 400
        {"method": "GET"},  # a read
        {"other_table": True},  # 403: another table's device
    ],
)  # fmt: skip
def test_anything_unusual_is_answered_by_the_drf_view(
    tablet: Send, route: Any, event: Event, unusual: dict
) -> None:
    unusual = dict(unusual)
    if unusual.pop("other_table", False):
        unusual["Authorization"] = f"Device {event.code2}"
    method, body = unusual.pop("method", "POST"), unusual.pop("body", None)
    fast, drf = both(lambda: tablet(method, 1, body, **unusual), route, fast=False)

    assert fast.status_code in (200, 201, 400, 401, 403, 404, 415, 428)
    assert_same(fast, drf)
    assert not Deal.objects.exists()


def test_plain_entries_only_are_taken_by_the_fast_path(
    tablet: Send, event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the fast path declines, before it counted or wrote anything."""
    seen: list[Any] = []
    real = api.plain_device_entry
    monkeypatch.setattr(api, "plain_device_entry", lambda *a, **k: seen.append(real(*a, **k)))
    tablet("POST", 1, Authorization=f"Device {event.code2}")
    tablet("POST", 1, Authorization="Device nope")
    tablet("POST", 1, b"[]")
    assert seen == [None, None, None]


@pytest.fixture
def strict_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    set_throttle_rates(monkeypatch, device="2/min")


@pytest.mark.usefixtures("strict_rates")
def test_throttled_is_answered_as_by_the_drf_view(tablet: Send, route: Any) -> None:
    assert tablet("POST", 1).status_code == 201
    assert tablet("POST", 1).status_code == 201  # replayed: counted all the same
    fast, drf = both(lambda: tablet("POST", 2, **{"Idempotency-Key": "k-2"}), route)

    assert fast.status_code == 429 and fast["Retry-After"] == "53"
    assert_same(fast, drf)


@pytest.mark.usefixtures("strict_rates")
@pytest.mark.parametrize("drf", [False, True])
def test_each_request_is_counted_once_on_either_path(tablet: Send, route: Any, drf: bool) -> None:
    route("drf" if drf else "fast")
    statuses = [tablet("POST", n, **{"Idempotency-Key": f"k-{n}"}).status_code for n in (1, 2, 3)]
    assert statuses == [201, 201, 429]


def test_service_errors_are_answered_as_by_the_drf_view(
    tablet: Send, route: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service failing after the throttles: answered by DRF's exception handling."""

    def broken(**kwargs: Any) -> Any:
        raise services.ServiceError("Nothing stored.")

    monkeypatch.setattr(api, "enter_once", broken)
    fast, drf = both(lambda: tablet("POST", 1), route)
    assert fast.status_code == 400
    assert_same(fast, drf)


def test_the_fast_credential_lookup_agrees_with_the_drf_one(event: Event) -> None:
    """Usable, unknown, revoked, expired and closed-round codes."""

    def agree(code: str) -> bool:
        drf, fast = find_usable_credential(code), find_entry_credential(code)
        assert (drf is None) == (fast is None)
        if fast is not None:
            assert (fast[0].pk, fast[1].pk) == (drf.pk, drf.table.match.pk)
            assert fast[1].round.tournament.rules_options == {}
        return fast is not None

    assert agree(event.code1) and not agree("unknown")
    credential = find_usable_credential(event.code1)
    DeviceCredential.objects.filter(pk=credential.pk).update(revoked_at=NOW)
    assert not agree(event.code1)
    DeviceCredential.objects.filter(pk=credential.pk).update(revoked_at=None, expires_at=NOW)
    assert not agree(event.code1)
    expires = NOW + timedelta(hours=1)
    DeviceCredential.objects.filter(pk=credential.pk).update(expires_at=expires)
    assert agree(event.code1)
    event.round.status = event.round.Status.CLOSED
    event.round.save(update_fields=["status"])
    assert not agree(event.code1) and not agree(event.code2)
