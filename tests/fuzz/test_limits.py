"""Hostile sizes in-process: oversized bodies are 413 before any parsing, page sizes
outside 1..200 are 400, both with a JSON ``detail`` a client can show."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client, RequestFactory

from games.models import Deal, IdempotencyRecord
from klammern_site.middleware import RequestBodyLimitMiddleware
from tests.conftest import Event
from tests.factories import summary_record
from tests.support.clients import APIClient

pytestmark = pytest.mark.django_db

LIMIT = 256 * 1024


@pytest.fixture(autouse=True)
def body_limit(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = LIMIT


def deal_url(event: Event, number: int = 1) -> str:
    return f"/api/matches/{event.match1.pk}/deals/{number}/"


def padded_record(size: int) -> dict[str, Any]:
    record = summary_record()
    record["comment"] = "x" * size
    return record


def test_oversized_deal_is_413_and_nothing_stored(event: Event, device: APIClient) -> None:
    started = time.monotonic()
    response = device.post(
        deal_url(event),
        padded_record(LIMIT + 1),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )

    assert response.status_code == 413
    assert response.json() == {
        "code": "body_too_large",
        "detail": f"The request body is too large: at most {LIMIT} bytes are accepted.",
        "limit": LIMIT,
    }
    assert time.monotonic() - started < 5
    assert not Deal.objects.exists() and not IdempotencyRecord.objects.exists()


def test_body_at_the_limit_reaches_the_view(event: Event, device: APIClient) -> None:
    body = padded_record(0)
    body["comment"] = "x" * (LIMIT - len(json.dumps(body)) - 1)
    raw = json.dumps(body)
    assert len(raw) <= LIMIT

    response = device.post(
        deal_url(event),
        raw,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )

    assert response.status_code != 413  # the engine decides about the unknown field


@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/tournaments/", "/admin/login/"])
def test_oversized_body_is_413_everywhere(db: Any, path: str) -> None:
    response = Client().post(
        path, "a=" + "x" * LIMIT, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"


def test_request_data_too_big_raised_later_is_413() -> None:
    middleware = RequestBodyLimitMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    request = RequestFactory().post("/api/auth/token/")

    response = middleware.process_exception(request, RequestDataTooBig("too big"))

    assert response is not None and response.status_code == 413
    assert middleware.process_exception(request, ValueError("other")) is None


@pytest.mark.parametrize("page_size", ["201", "1000000", "9" * 5000, "0", "-1", "abc", "1.5"])
def test_page_size_outside_range_is_400(event: Event, anonymous: APIClient, page_size: str) -> None:
    response = anonymous.get("/api/tournaments/", {"page_size": page_size})

    assert response.status_code == 400
    assert response.json()["detail"] == "page_size must be a whole number from 1 to 200."


@pytest.mark.parametrize("page_size", ["1", "200"])
def test_page_size_in_range_is_served(event: Event, anonymous: APIClient, page_size: str) -> None:
    response = anonymous.get("/api/tournaments/", {"page_size": page_size})
    assert response.status_code == 200 and len(response.json()["results"]) == 1


def test_schema_documents_page_size_range(anonymous: APIClient, db: Any) -> None:
    schema = anonymous.get("/api/schema/?format=json", HTTP_ACCEPT="application/json")
    parameters = schema.json()["paths"]["/api/tournaments/"]["get"]["parameters"]
    page_size = next(p for p in parameters if p["name"] == "page_size")
    assert page_size["schema"] == {"type": "integer", "minimum": 1, "maximum": 200}
