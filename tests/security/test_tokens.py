"""API tokens expire, their owner revokes them, and the site's logout revokes the token
issued to that browser (issue 20: tokens never expired, logout left them valid and
``DELETE /api/auth/token/`` was 405)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory
from tests.support.clients import APIClient, Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(db: Any) -> Any:
    user = UserFactory(username="anna", password="richtig")
    return user


def obtain(client: Any = None) -> dict[str, Any]:
    response = (client or APIClient()).post(
        "/api/auth/token/",
        json.dumps({"username": "anna", "password": "richtig"}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def me(key: str) -> Any:
    """A request only a signed-in organiser may make."""
    return APIClient().post(
        "/api/clubs/", {"name": "KC Test"}, format="json", HTTP_AUTHORIZATION=f"Token {key}"
    )


def test_a_token_states_when_it_expires(anna: Any, settings: Any) -> None:
    settings.API_TOKEN_TTL_HOURS = 2
    body = obtain()
    token = Token.objects.get(key=body["token"])
    assert datetime.fromisoformat(body["expires_at"]) == token.created + timedelta(hours=2)


def test_an_expired_token_is_refused_and_replaced(anna: Any, settings: Any) -> None:
    key = obtain()["token"]
    Token.objects.filter(key=key).update(
        created=Token.objects.get(key=key).created
        - timedelta(hours=settings.API_TOKEN_TTL_HOURS + 1)
    )
    refused = me(key)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_expired"
    assert not Token.objects.filter(key=key).exists()
    fresh = obtain()["token"]
    assert fresh != key and me(fresh).status_code == 201


def test_delete_revokes_the_presented_token(anna: Any) -> None:
    key = obtain()["token"]
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.delete("/api/auth/token/").status_code == 204
    assert not Token.objects.filter(key=key).exists()
    assert me(key).status_code == 401
    assert client.delete("/api/auth/token/").status_code == 401  # gone already


def test_delete_without_a_token_is_401(anna: Any) -> None:
    response = APIClient().delete("/api/auth/token/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_the_sites_logout_revokes_the_browsers_token(anna: Any) -> None:
    browser = Client()
    browser.login(username="anna", password="richtig")
    key = obtain(browser)["token"]
    assert me(key).status_code == 201
    assert browser.post("/accounts/logout/").status_code == 302
    assert not Token.objects.filter(key=key).exists()
    assert me(key).status_code == 401


def test_a_logout_elsewhere_leaves_a_script_token_alone(anna: Any) -> None:
    key = obtain()["token"]  # a script, no browser session
    browser = Client()
    browser.login(username="anna", password="richtig")
    browser.post("/accounts/logout/")
    assert Token.objects.filter(key=key).exists()
