"""The list endpoints' filters answer as the schema says: a listed value filters, an
absent filter lists everything, and a value outside the list (a blank one included) is a
400 with the filter named, in every language of the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Event
from tests.support.clients import APIClient

pytestmark = pytest.mark.django_db


def names(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["name"] for row in response.json()["results"]]


def test_a_listed_value_filters_and_an_absent_filter_lists_all(
    event: Event, anonymous: APIClient
) -> None:
    assert names(anonymous.get("/api/tournaments/?status=running")) == ["Herbstturnier"]
    assert names(anonymous.get("/api/tournaments/?status=finished")) == []
    assert names(anonymous.get("/api/tournaments/")) == ["Herbstturnier"]
    assert names(anonymous.get("/api/tournaments/?name=")) == ["Herbstturnier"]  # text


@pytest.mark.parametrize(
    "query",
    [
        "/api/tournaments/?status=",
        "/api/tournaments/?format=",
        "/api/tournaments/?status=&format=",
        "/api/tournaments/?status=bogus",
        "/api/tournaments/?club=",
        "/api/rounds/?status=",
        "/api/matches/?status=",
        "/api/match-days/?status=",
        "/api/divisions/?league=",
        "/api/match-days/?status=bogus",
        "/api/league-teams/?club=",
    ],
)
def test_a_blank_or_unlisted_value_is_refused(
    event: Event, organiser_client: APIClient, query: str
) -> None:
    response = organiser_client.get(query)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] and body["detail"]
    field = query.split("?")[1].split("=")[0] if "status" not in query else "status"
    assert field in str(body)


def test_the_refusal_speaks_the_clients_language(event: Event, anonymous: APIClient) -> None:
    response = anonymous.get("/api/tournaments/?status=", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert response.json()["status"] == ["Einen Wert angeben oder diesen Filter weglassen."]
