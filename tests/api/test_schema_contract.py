"""The API contract: every error body is JSON with a stable ``code`` beside a message, and
the OpenAPI schema says per operation who may call it and which errors it answers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Event
from tests.support.clients import APIClient

pytestmark = pytest.mark.django_db


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["detail"], body
    return body


def test_a_path_no_route_matches_is_json(anonymous: APIClient) -> None:
    error_of(anonymous.get("/api/tournaments/abc/"), 404, "not_found")
    error_of(anonymous.get("/api/no-such-thing/"), 404, "not_found")


def test_an_object_that_is_not_there_is_json(anonymous: APIClient) -> None:
    error_of(anonymous.get("/api/tournaments/987654/"), 404, "not_found")


def test_drf_refusals_carry_their_code(
    organiser_client: APIClient, anonymous: APIClient, event: Event
) -> None:
    error_of(organiser_client.delete("/api/tournaments/"), 405, "method_not_allowed")
    error_of(anonymous.post("/api/players/", {}, format="json"), 401, "not_authenticated")
    refused = organiser_client.post("/api/players/", "x", content_type="text/plain")
    error_of(refused, 415, "unsupported_media_type")
    error_of(anonymous.get("/api/clubs/", HTTP_ACCEPT="text/csv"), 406, "not_acceptable")


def test_validation_errors_keep_their_fields_beside_a_code(
    organiser_client: APIClient, event: Event
) -> None:
    body = error_of(organiser_client.post("/api/players/", {}, format="json"), 400, "invalid")
    assert body["club"] and body["detail"].startswith("club: ")
    body = error_of(organiser_client.get("/api/clubs/?page_size=0"), 400, "invalid")


def test_the_schema_says_who_may_call_and_every_error(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert {"Error", "ValidationError"} <= set(schema["components"]["schemas"])
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            label = f"{method.upper()} {path}"
            assert operation["x-permissions"], label
            assert "Who may call" in operation["description"], label
            assert ({} in operation["security"]) == ("anonymous" in operation["x-permissions"])
            assert {"401", "429"} <= set(operation["responses"]), label
            if method != "get":
                assert "400" in operation["responses"], label
    device = schema["paths"]["/api/device/"]["get"]
    assert device["security"] == [{"deviceAuth": []}]
    players = schema["paths"]["/api/players/"]["post"]
    assert players["x-permissions"] == ["organiser"] and {} not in players["security"]
    standings = schema["paths"]["/api/tournaments/{id}/standings/"]["get"]
    assert "ETag" in standings["responses"]["200"]["headers"]
    assert "If-None-Match" in {p["name"] for p in standings["parameters"]}
    correction = schema["paths"]["/api/matches/{match_id}/deals/{number}/"]["put"]
    assert {"Idempotency-Key", "If-Match"} <= {p["name"] for p in correction["parameters"]}
    assert {"409", "412", "413", "422", "428"} <= set(correction["responses"])
