"""API tokens: one per client, named, listed and revoked one by one; they expire, and the
site's logout revokes only the tokens issued to that browser (issue 20: tokens never
expired, logout left them valid and ``DELETE /api/auth/token/`` was 405; issue 35: one
token per user, so a browser's logout revoked every script's token)."""

from __future__ import annotations

import itertools
import json
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.support.clients import APIClient, Client
from tournaments.clubs import services as clubs
from tournaments.clubs.models import ApiToken, hash_api_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(db: Any) -> Any:
    return UserFactory(username="anna", password="richtig")


@pytest.fixture
def bert(db: Any) -> Any:
    return UserFactory(username="bert", password="auch-richtig")


def obtain(client: Any = None, *, username: str = "anna", **extra: str) -> dict[str, Any]:
    password = {"anna": "richtig", "bert": "auch-richtig"}[username]
    response = (client or APIClient()).post(
        "/api/auth/token/",
        json.dumps({"username": username, "password": password, **extra}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()


CLUB_NUMBERS = itertools.count(1)


def me(key: str) -> Any:
    """A request only a signed-in user may make (a new club each time)."""
    name = f"KC Test {next(CLUB_NUMBERS)}"
    return APIClient().post(
        "/api/clubs/", {"name": name}, format="json", HTTP_AUTHORIZATION=f"Token {key}"
    )


def as_token(key: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


def stored(body: dict[str, Any]) -> ApiToken:
    return ApiToken.objects.get(key_hash=hash_api_token(body["token"]))


def test_a_token_is_named_and_states_when_it_expires(anna: Any, settings: Any) -> None:
    settings.API_TOKEN_TTL_HOURS = 2
    body = obtain(name="scoreboard script")
    token = stored(body)
    assert set(body) == {"token", "id", "name", "created", "last_used", "expires_at"}
    assert body["id"] == token.pk and body["name"] == "scoreboard script"
    assert body["last_used"] is None
    assert datetime.fromisoformat(body["expires_at"]) == token.created + timedelta(hours=2)
    assert datetime.fromisoformat(body["created"]) == token.created


def test_only_the_tokens_hash_is_stored(anna: Any) -> None:
    key = obtain()["token"]
    token = ApiToken.objects.get(user=anna)
    assert token.key_hash == hash_api_token(key) and key not in token.key_hash
    assert len(key) >= 40


def test_every_sign_in_issues_another_token_and_both_work(anna: Any) -> None:
    first = obtain(name="scoreboard script")
    second = obtain(name="results export")
    assert first["token"] != second["token"] and first["id"] != second["id"]
    assert me(first["token"]).status_code == 201
    assert me(second["token"]).status_code == 201
    assert ApiToken.objects.filter(user=anna).count() == 2


def test_the_owner_lists_their_tokens_without_secrets(anna: Any, bert: Any) -> None:
    first = obtain(name="scoreboard script")
    second = obtain(name="results export")
    obtain(username="bert", name="bert's script")
    assert me(first["token"]).status_code == 201  # marks it used
    response = as_token(second["token"]).get("/api/auth/tokens/")
    assert response.status_code == 200, response.content
    listed = response.json()["results"]
    assert [t["id"] for t in listed] == [second["id"], first["id"]]  # newest first
    assert [t["name"] for t in listed] == ["results export", "scoreboard script"]
    assert set(listed[0]) == {"id", "name", "created", "last_used", "expires_at"}
    assert listed[1]["last_used"] is not None
    text = response.content.decode()
    assert first["token"] not in text and second["token"] not in text
    assert stored(first).key_hash not in text


def test_last_used_is_written_at_most_once_a_minute(anna: Any) -> None:
    body = obtain()
    assert me(body["token"]).status_code == 201
    first_use = stored(body).last_used
    assert first_use is not None
    assert me(body["token"]).status_code == 201
    assert stored(body).last_used == first_use
    ApiToken.objects.filter(pk=body["id"]).update(last_used=first_use - timedelta(minutes=2))
    assert me(body["token"]).status_code == 201
    assert stored(body).last_used > first_use


def test_revoking_one_token_by_id_leaves_the_others(anna: Any) -> None:
    script = obtain(name="scoreboard script")["token"]
    other = obtain(name="results export")
    response = as_token(script).delete(f"/api/auth/tokens/{other['id']}/")
    assert response.status_code == 204
    assert not ApiToken.objects.filter(pk=other["id"]).exists()
    assert me(other["token"]).status_code == 401
    assert me(script).status_code == 201
    again = as_token(script).delete(f"/api/auth/tokens/{other['id']}/")
    assert again.status_code == 404 and again.json()["code"] == "not_found"


def test_another_users_token_is_404(anna: Any, bert: Any) -> None:
    annas = obtain()
    berts = obtain(username="bert")
    response = as_token(annas["token"]).delete(f"/api/auth/tokens/{berts['id']}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert me(berts["token"]).status_code == 201
    listed = as_token(annas["token"]).get("/api/auth/tokens/").json()["results"]
    assert [t["id"] for t in listed] == [annas["id"]]


def test_the_token_list_needs_a_signed_in_user(anna: Any) -> None:
    response = APIClient().get("/api/auth/tokens/")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_a_browser_session_lists_and_revokes_its_users_tokens(anna: Any) -> None:
    script = obtain(name="scoreboard script")
    browser = APIClient()
    browser.login(username="anna", password="richtig")
    listed = browser.get("/api/auth/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["scoreboard script"]
    assert browser.delete(f"/api/auth/tokens/{script['id']}/").status_code == 204
    assert me(script["token"]).status_code == 401


def test_an_expired_token_is_refused_and_replaced(anna: Any, settings: Any) -> None:
    key = obtain()["token"]
    ApiToken.objects.filter(user=anna).update(
        created=ApiToken.objects.get(user=anna).created
        - timedelta(hours=settings.API_TOKEN_TTL_HOURS + 1)
    )
    refused = me(key)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_expired"
    assert not ApiToken.objects.filter(user=anna).exists()
    fresh = obtain()["token"]
    assert fresh != key and me(fresh).status_code == 201


def test_expired_tokens_are_not_listed_and_go_at_the_next_sign_in(anna: Any, settings: Any) -> None:
    old = obtain(name="old script")
    ApiToken.objects.filter(pk=old["id"]).update(
        created=stored(old).created - timedelta(hours=settings.API_TOKEN_TTL_HOURS)
    )
    new = obtain(name="new script")
    assert not ApiToken.objects.filter(pk=old["id"]).exists()
    listed = as_token(new["token"]).get("/api/auth/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["new script"]


def test_an_unknown_token_is_401(anna: Any) -> None:
    refused = me("not-a-token-of-anyone")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"


def test_a_user_holds_a_bounded_number_of_live_tokens(anna: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(clubs, "MAX_API_TOKENS", 2)
    first = obtain()
    obtain()
    response = APIClient().post(
        "/api/auth/token/", {"username": "anna", "password": "richtig"}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "too_many_tokens"
    assert ApiToken.objects.filter(user=anna).count() == 2
    as_token(first["token"]).delete("/api/auth/token/")
    assert me(obtain()["token"]).status_code == 201


def test_a_bad_name_is_refused(anna: Any) -> None:
    response = APIClient().post(
        "/api/auth/token/",
        {"username": "anna", "password": "richtig", "name": "x" * 101},
        format="json",
    )
    assert response.status_code == 400 and "name" in response.json()
    assert not ApiToken.objects.exists()


def test_delete_revokes_the_presented_token_only(anna: Any) -> None:
    key = obtain()["token"]
    other = obtain()["token"]
    client = as_token(key)
    assert client.delete("/api/auth/token/").status_code == 204
    assert not ApiToken.objects.filter(key_hash=hash_api_token(key)).exists()
    assert me(key).status_code == 401
    assert client.delete("/api/auth/token/").status_code == 401  # gone already
    assert me(other).status_code == 201


def test_delete_without_a_token_is_401(anna: Any) -> None:
    response = APIClient().delete("/api/auth/token/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_the_sites_logout_revokes_the_browsers_tokens(anna: Any) -> None:
    browser = Client()
    browser.login(username="anna", password="richtig")
    first = obtain(browser)["token"]
    second = obtain(browser)["token"]
    assert me(first).status_code == 201 and me(second).status_code == 201
    assert browser.post("/accounts/logout/").status_code == 302
    assert not ApiToken.objects.filter(user=anna).exists()
    assert me(first).status_code == 401 and me(second).status_code == 401


def test_a_browsers_logout_leaves_the_scripts_tokens_working(anna: Any) -> None:
    script = obtain(name="scoreboard script")["token"]  # a script, no browser session
    browser = Client()
    browser.login(username="anna", password="richtig")
    browsers = obtain(browser)["token"]
    assert browser.post("/accounts/logout/").status_code == 302
    assert me(browsers).status_code == 401
    assert me(script).status_code == 201


def test_a_logout_elsewhere_leaves_a_script_token_alone(anna: Any) -> None:
    key = obtain()["token"]
    browser = Client()
    browser.login(username="anna", password="richtig")
    browser.post("/accounts/logout/")
    assert me(key).status_code == 201


def test_a_signup_answers_with_a_working_token(db: Any) -> None:
    response = APIClient().post(
        "/api/auth/signup/",
        {"username": "carla", "email": "carla@example.org", "password": "Lange-Kartenrunde-7"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert me(response.json()["token"]).status_code == 201


def test_only_superusers_see_tokens_in_the_admin(anna: Any) -> None:
    body = obtain(name="scoreboard script")
    staff = Client()
    staff.force_login(UserFactory(username="staff", is_staff=True))
    assert staff.get("/admin/tournaments/apitoken/").status_code == 403
    boss = Client()
    boss.force_login(UserFactory(username="boss", is_staff=True, is_superuser=True))
    page = boss.get("/admin/tournaments/apitoken/")
    assert page.status_code == 200 and "scoreboard script" in page.content.decode()
    assert body["token"] not in page.content.decode()
    assert boss.get("/admin/tournaments/apitoken/add/").status_code == 403
