"""A table device enters and corrects its deals through the one deal endpoint
(``tournaments.deals.api.DealDetailView``): stored once with its idempotency record, every refusal
answered with a stable ``code``, corrections with ``If-Match`` and their reason in the
body, an identical correction changing nothing, and unknown record fields refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.models import Deal, DealVersion, IdempotencyRecord
from tests.conftest import Event
from tests.factories import invalid_record, summary_record
from tests.support.clients import Client

pytestmark = pytest.mark.django_db

Send = Callable[..., Any]


@pytest.fixture
def tablet(event: Event) -> Send:
    """The tablet of table 1 as the browser sends (``tablet.js``), or with ``headers``."""
    client = Client()

    def send(method: str, number: int, body: Any = None, **headers: str) -> Any:
        headers = {
            "Authorization": f"Device {event.code1}",
            "Accept": "application/json",
            "Idempotency-Key": "k-1",
            **headers,
        }
        data = body if isinstance(body, bytes) else json.dumps(body or summary_record())
        path = headers.pop("path", f"/api/matches/{event.match1.pk}/deals/{number}/")
        content_type = headers.pop("content_type", "application/json")
        return client.generic(method, path, data, content_type=content_type, headers=headers)

    return send


def test_entry_is_stored_once_with_its_idempotency_record(tablet: Send, event: Event) -> None:
    response = tablet("POST", 1)
    assert response.status_code == 201 and response["ETag"] == '"1"'
    version = DealVersion.objects.get(deal__match=event.match1, deal__number=1)
    assert version.created_by_device is not None and version.is_current
    assert IdempotencyRecord.objects.count() == 1
    event.tournament.refresh_from_db()
    assert event.tournament.results_version == 1


def test_a_retry_is_replayed_and_marked(tablet: Send) -> None:
    first = tablet("POST", 1)
    again = tablet("POST", 1)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Deal.objects.count() == 1


@pytest.mark.parametrize(
    ("first", "then", "status", "code"),
    [
        (True, {"Idempotency-Key": "k-2"}, 409, "deal_exists"),
        (True, {"body": summary_record(team0_points=10)}, 422, "idempotency_key_reused"),
        (False, {"body": invalid_record()}, 400, "invalid_record"),
        (False, {"number": 9}, 400, "too_many_deals"),
        (False, {"Idempotency-Key": ""}, 400, "idempotency_key_missing"),
        (False, {"Idempotency-Key": "x" * 256}, 400, "idempotency_key_too_long"),
        (False, {"body": b"[1, 2]"}, 400, "not_a_record"),
        (False, {"body": b"{not json"}, 400, "parse_error"),
        (False, {"Authorization": "Device not-a-code"}, 401, "authentication_failed"),
    ],
)
def test_refusals_have_a_status_and_a_code(
    tablet: Send, first: bool, then: dict[str, Any], status: int, code: str
) -> None:
    if first:
        assert tablet("POST", 1).status_code == 201
    number, body = then.pop("number", 1), then.pop("body", None)
    before = DealVersion.objects.count()
    response = tablet("POST", number, body, **then)
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["detail"]
    assert DealVersion.objects.count() == before


def test_unknown_record_fields_are_refused_and_nothing_is_stored(tablet: Send) -> None:
    record = summary_record(entered_by="admin", version=7, id=1)
    response = tablet("POST", 1, record)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_field"
    assert {e["field"] for e in body["errors"]} == {"entered_by", "id", "version"}
    assert {e["code"] for e in body["errors"]} == {"unknown_field"}
    assert not Deal.objects.exists()


@pytest.mark.parametrize(("if_match", "status"), [('"1"', 200), ('W/"1"', 200), ('"7"', 412)])
def test_corrections_need_the_current_version(tablet: Send, if_match: str, status: int) -> None:
    tablet("POST", 1)
    body = summary_record(team0_points=120)
    response = tablet("PUT", 1, body, **{"If-Match": if_match, "Idempotency-Key": "c-1"})
    assert response.status_code == status
    assert DealVersion.objects.count() == (2 if status == 200 else 1)


def test_correction_reason_travels_in_the_body(tablet: Send) -> None:
    tablet("POST", 1)
    body = {"record": summary_record(team0_points=120), "reason": "Schreibfehler"}
    response = tablet("PUT", 1, body, **{"If-Match": '"1"', "Idempotency-Key": "c-1"})
    assert response.status_code == 200
    assert DealVersion.objects.get(is_current=True).reason == "Schreibfehler"


def test_a_reason_in_the_query_string_is_not_read(tablet: Send, event: Event) -> None:
    tablet("POST", 1)
    path = f"/api/matches/{event.match1.pk}/deals/1/?reason=Schreibfehler"
    response = tablet(
        "PUT",
        1,
        summary_record(team0_points=120),
        path=path,
        **{"If-Match": '"1"', "Idempotency-Key": "c-1"},
    )
    assert response.status_code == 200
    assert DealVersion.objects.get(is_current=True).reason == ""


def test_an_identical_correction_answers_the_current_version(tablet: Send) -> None:
    tablet("POST", 1)
    response = tablet("PUT", 1, summary_record(), **{"If-Match": '"1"', "Idempotency-Key": "c-1"})
    assert response.status_code == 200 and response.json()["version"] == 1
    assert DealVersion.objects.count() == 1


def test_a_correction_needs_if_match(tablet: Send) -> None:
    tablet("POST", 1)
    response = tablet("PUT", 1, summary_record(team0_points=120), **{"Idempotency-Key": "c-1"})
    assert response.status_code == 428 and response.json()["code"] == "if_match_missing"
