"""The client's address comes from REMOTE_ADDR, or from X-Forwarded-For only as far as
the proxies declared by ``DJANGO_TRUSTED_PROXY_COUNT`` (DRF's ``NUM_PROXIES``) wrote it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import set_throttle_rates
from tests.support.clients import APIClient


@pytest.mark.django_db
def test_rotating_forwarded_for_does_not_escape_the_anonymous_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_throttle_rates(monkeypatch, anon="3/min")
    client = APIClient()
    answers = [
        client.get("/api/clubs/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
        for n in range(5)
    ]
    assert answers == [200, 200, 200, 429, 429]
    refused = client.get("/api/clubs/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1


@pytest.mark.django_db
def test_one_declared_proxy_counts_the_address_it_saw(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    set_throttle_rates(monkeypatch, anon="2/min")
    client = APIClient()
    # the client forges the left part; the proxy appends the address it saw
    seen = [
        client.get("/api/clubs/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 192.0.2.7").status_code
        for n in range(3)
    ]
    other = client.get("/api/clubs/", HTTP_X_FORWARDED_FOR="10.0.0.1, 192.0.2.8")
    assert seen == [200, 200, 429]
    assert other.status_code == 200


def test_settings_trust_no_proxy_by_default(settings: Any) -> None:
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0
