"""The organiser's API tokens on the console home (issue 35): each client's token listed
by name, never the token itself; revoking one there leaves the others working, and
another user's token is not found. In a browser at phone width too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import ApiToken
from tournaments.clubs.services import issue_api_token

from .conftest import PHONE, SCREENSHOTS, screenshot

pytestmark = pytest.mark.django_db


def works(key: str) -> bool:
    response = APIClient().get("/api/auth/tokens/", HTTP_AUTHORIZATION=f"Token {key}")
    return response.status_code == 200


def test_the_console_lists_the_organisers_tokens(web: Client, organiser: Any) -> None:
    _token, key = issue_api_token(user=organiser, name="scoreboard script")
    issue_api_token(user=UserFactory(username="bert"), name="bert's script")
    page = web.get("/console/").content.decode()
    assert 'id="api-tokens"' in page and "scoreboard script" in page
    assert key not in page and "bert&#x27;s script" not in page and "bert's script" not in page


def test_revoking_one_token_in_the_console_leaves_the_others(web: Client, organiser: Any) -> None:
    script, script_key = issue_api_token(user=organiser, name="scoreboard script")
    _other, other_key = issue_api_token(user=organiser, name="results export")
    response = web.post(f"/console/api-tokens/{script.pk}/revoke/")
    assert response.status_code == 302 and response["Location"] == "/console/#api-tokens"
    assert not ApiToken.objects.filter(pk=script.pk).exists()
    assert not works(script_key) and works(other_key)
    page = web.get("/console/").content.decode()
    assert "scoreboard script" not in page and "results export" in page


def test_htmx_gets_the_card_back(web: Client, organiser: Any) -> None:
    script, _key = issue_api_token(user=organiser, name="scoreboard script")
    issue_api_token(user=organiser, name="results export")
    response = web.post(f"/console/api-tokens/{script.pk}/revoke/", HTTP_HX_REQUEST="true")
    card = response.content.decode()
    assert response.status_code == 200 and card.lstrip().startswith('<section class="card"')
    assert "results export" in card and "scoreboard script" not in card


def test_another_users_token_is_not_found(web: Client) -> None:
    berts, berts_key = issue_api_token(user=UserFactory(username="bert"))
    assert web.post(f"/console/api-tokens/{berts.pk}/revoke/").status_code == 404
    assert works(berts_key)
    assert web.get(f"/console/api-tokens/{berts.pk}/revoke/").status_code == 405


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_token_card_on_a_phone(live_server: Any, contexts: Any) -> None:
    user = UserFactory(username="leiterin", password="pw")
    _script, script_key = issue_api_token(user=user, name="Anzeigetafel im Vereinsheim")
    old, old_key = issue_api_token(user=user, name="Ergebnis-Export (alt)")
    issue_api_token(user=user)
    page = contexts(PHONE, "de").new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "leiterin")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    page.wait_for_url(re.compile(r".*/console/$"))
    card = page.locator("#api-tokens")
    card.scroll_into_view_if_needed()
    assert card.locator("li").count() == 3
    screenshot(page, "console-api-tokens")
    page.once("dialog", lambda dialog: dialog.accept())
    card.locator(f"#api-token-{old.pk} button").click()
    page.wait_for_selector(f"#api-token-{old.pk}", state="detached")
    assert page.locator("#api-tokens li").count() == 2
    assert not works(old_key) and works(script_key)
    card.screenshot(path=str(SCREENSHOTS / "console-api-tokens-revoked.png"))
