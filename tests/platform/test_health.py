"""``/healthz`` answers 200 while the database does, and says so; 503 when it does not."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django.test import Client

from klammern_site import health


@pytest.mark.django_db
def test_healthy(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_database_down_is_503(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def __enter__(self) -> None:
            raise DatabaseError("connection refused")

        def __exit__(self, *args: object) -> None:
            return None

    monkeypatch.setattr(health.connection, "cursor", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"


def test_only_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
