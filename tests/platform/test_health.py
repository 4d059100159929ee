"""``/healthz`` answers 200 while the database does, and says so; 503 when it does not."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError

from klammern_site import health
from tests.support.clients import Client


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


@pytest.mark.django_db
def test_production_probe_over_plain_http_is_not_redirected(client: Client, settings: Any) -> None:
    """The compose healthcheck probes http://127.0.0.1:8000/healthz with an allowed Host:
    with HTTPS redirects on, every other page is redirected, /healthz answers."""
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["klammern.example.org"]
    assert client.get("/healthz", HTTP_HOST="klammern.example.org").status_code == 200
    assert client.get("/", HTTP_HOST="klammern.example.org").status_code == 301
