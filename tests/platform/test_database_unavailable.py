"""A request whose database connection breaks gets 503 with Retry-After and a plain
explanation, never a bare 500; other errors are not swallowed."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from tests.support.clients import Client
from tournaments.events.api import ClubViewSet


@pytest.mark.django_db
def test_lost_database_connection_is_503_with_retry_after(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(ClubViewSet, "list", broken)
    response = client.get("/api/clubs/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "nothing of this request was stored" in response.json()["detail"]


@pytest.mark.django_db
def test_other_errors_are_not_turned_into_503(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(ClubViewSet, "list", broken)
    with pytest.raises(ValueError, match="a bug"):
        client.get("/api/clubs/")
