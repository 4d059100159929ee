"""Sign-up through the API against the outside probe (issue 20): a username that folds
to a taken one (full-width letters, case) is 409 ``username_taken``, never a 500; an
e-mail address over 254 characters is a 400; the password is checked against the new
user (as the sign-up form does); look-alike usernames are refused; and one address
creates at most ``THROTTLE_SIGNUP`` accounts."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import set_throttle_rates
from tests.factories import UserFactory
from tests.support.clients import APIClient, Client

pytestmark = pytest.mark.django_db

PASSWORD = "kreuz-bube-7-herz"


def sign_up(username: str, *, email: str = "anna@example.org", password: str = PASSWORD) -> Any:
    return APIClient().post(
        "/api/auth/signup/",
        {"username": username, "email": email, "password": password},
        format="json",
    )


@pytest.mark.parametrize("username", ["ｏｒｇａｎｉｓｅｒ", "ORGANISER", "Organiser"])
def test_a_name_folding_to_a_taken_one_is_taken(username: str) -> None:
    UserFactory(username="organiser")
    response = sign_up(username)
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    assert get_user_model().objects.count() == 1


def test_full_width_letters_are_stored_folded() -> None:
    response = sign_up("ａｎｎａ")
    assert response.status_code == 201
    assert response.json()["username"] == "anna"
    assert get_user_model().objects.get().username == "anna"


def test_an_email_over_254_characters_is_400() -> None:
    email = "a" * 64 + "@" + ".".join(["b" * 63] * 3) + ".org"
    assert len(email) > 254
    response = sign_up("anna", email=email)
    assert response.status_code == 400 and "email" in response.json()
    assert not get_user_model().objects.exists()


def test_a_password_like_the_username_is_refused() -> None:
    response = sign_up("kreuzbube77", password="kreuzbube77")
    assert response.status_code == 400
    assert "password" in response.json()
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    ("username", "code"),
    [
        ("\u0430dmin", "username_mixed_scripts"),  # Cyrillic а
        ("org\u200baniser", "invalid"),  # the username pattern refuses it first
    ],
)
def test_look_alike_usernames_are_refused(username: str, code: str) -> None:
    response = sign_up(username)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("username", ["Jürgen", "Çelik", "Ольга"])
def test_real_names_in_one_script_sign_up(username: str) -> None:
    assert sign_up(username).status_code == 201


def test_sign_ups_per_address_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    set_throttle_rates(monkeypatch, signup="3/hour")
    answers = [sign_up(f"spieler{n}", email=f"s{n}@example.org").status_code for n in range(5)]
    assert answers == [201, 201, 201, 429, 429]
    assert get_user_model().objects.count() == 3


def test_the_sign_up_page_refuses_a_long_email_and_a_look_alike_name() -> None:
    email = "a" * 64 + "@" + ".".join(["b" * 63] * 3) + ".org"
    page = Client().post(
        "/accounts/signup/",
        {"username": "anna", "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert page.status_code == 200 and "email" in page.context["form"].errors
    page = Client().post(
        "/accounts/signup/",
        {
            "username": "\u0430nna",
            "email": "a@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert page.status_code == 200 and "username" in page.context["form"].errors
    assert not get_user_model().objects.exists()
