"""The language switch as plain links (``/lang/<code>/?next=...``), and which pages carry a
CSRF token: none of the public pages for an anonymous visitor (so they can be the same
bytes for everyone), but the console, the table tablet and the login page do."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings

from tests.conftest import Event
from tests.support.clients import Client

pytestmark = pytest.mark.django_db


def standings_url(event: Event) -> str:
    return f"/tournaments/{event.tournament.pk}/standings/"


def test_language_link_sets_the_cookie_and_goes_back(event: Event, client: Client) -> None:
    target = standings_url(event)
    response = client.get("/lang/en/", {"next": target})

    assert response.status_code == 302 and response["Location"] == target
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en" and cookie["path"] == settings.LANGUAGE_COOKIE_PATH
    assert cookie["samesite"] == (settings.LANGUAGE_COOKIE_SAMESITE or "")
    assert "no-store" in response["Cache-Control"]
    body = client.get(target).content.decode()
    assert 'lang="en"' in body and "Standings" in body and "Rangliste" not in body


def test_language_link_keeps_the_query_of_the_page(event: Event, client: Client) -> None:
    target = f"/tournaments/{event.tournament.pk}/rounds/1/?x=1&y=2"
    response = client.get("/lang/de/", {"next": target})
    assert response.status_code == 302 and response["Location"] == target


def test_unknown_language_is_404_without_a_cookie(client: Client) -> None:
    response = client.get("/lang/it/", {"next": "/"})
    assert response.status_code == 404
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize(
    "unsafe", ["https://evil.example/", "//evil.example/", "javascript:alert(1)", "", "\\\\x"]
)
def test_unsafe_next_goes_home(client: Client, unsafe: str) -> None:
    response = client.get("/lang/en/", {"next": unsafe})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_language_link_works_signed_in(event: Event, web: Client) -> None:
    response = web.get("/lang/en/", {"next": "/console/"})
    assert response.status_code == 302 and response["Location"] == "/console/"
    assert 'lang="en"' in web.get("/console/").content.decode()


def test_french_link_gives_french_pages(event: Event, client: Client) -> None:
    target = standings_url(event)
    response = client.get("/lang/fr/", {"next": target})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    body = client.get(target).content.decode()
    assert 'lang="fr"' in body and "Classement" in body and "Rangliste" not in body


def test_accept_language_fr_gives_french_pages(event: Event, client: Client) -> None:
    body = client.get(standings_url(event), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    assert 'lang="fr"' in body and "Classement" in body and "Standings" not in body


def test_pages_link_to_every_language_with_their_own_address(event: Event, client: Client) -> None:
    body = client.get(standings_url(event)).content.decode()
    next_ = standings_url(event)
    for code in ("de", "en", "fr", "nl"):
        assert f'href="/lang/{code}/?next={next_}"' in body
    assert "Français" in body.split("</header>")[0]
    assert "<form" not in body.split("</header>")[0]
    seating = client.get(f"/tournaments/{event.tournament.pk}/rounds/1/?a=1&b=2").content
    assert f"?next=/tournaments/{event.tournament.pk}/rounds/1/%3Fa%3D1%26b%3D2" in seating.decode()


def anonymous_public_urls(event: Event) -> list[str]:
    pk = event.tournament.pk
    return [
        "/",
        f"/tournaments/{pk}/",
        f"/tournaments/{pk}/rounds/1/",
        standings_url(event),
        f"/tournaments/{pk}/projector/",
        f"/clubs/{event.club.slug}/",
    ]


def has_token(response: Any) -> bool:
    body = response.content.decode()
    return "X-CSRFToken" in body or "csrfmiddlewaretoken" in body


def test_public_pages_carry_no_csrf_token_for_anonymous_visitors(event: Event) -> None:
    for url in anonymous_public_urls(event):
        for _ in range(2):  # rendered, then from the caches
            response = Client().get(url)
            assert response.status_code == 200, url
            assert not has_token(response), url
            assert settings.CSRF_COOKIE_NAME not in response.cookies, url
            assert settings.SESSION_COOKIE_NAME not in response.cookies, url


def test_pages_that_post_still_carry_their_token(event: Event, web: Client) -> None:
    console = web.get(f"/console/tournaments/{event.tournament.pk}/")
    assert console.status_code == 200 and has_token(console)
    assert re.search(
        r'hx-headers=\'\{"X-CSRFToken": "[A-Za-z0-9]{64}"\}\'', console.content.decode()
    )
    assert "X-CSRFToken" in web.get(standings_url(event)).content.decode()  # signed in

    tablet = Client().get(f"/t/{event.code1}/")
    assert tablet.status_code == 200 and "X-CSRFToken" in tablet.content.decode()
    assert settings.CSRF_COOKIE_NAME in tablet.cookies

    login = Client().get("/accounts/login/")
    assert "csrfmiddlewaretoken" in login.content.decode()
    assert settings.CSRF_COOKIE_NAME in login.cookies
