"""Logging in without ``next`` leads to the organisers' console, not a 404."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.support.clients import Client


@pytest.mark.django_db
def test_login_without_next_goes_to_the_console() -> None:
    user = UserFactory(username="anna", password="richtig")
    client = Client()
    response = client.post("/accounts/login/", {"username": "anna", "password": "richtig"})
    assert response.status_code == 302 and response["Location"] == "/console/"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.get(response["Location"]).status_code == 200
