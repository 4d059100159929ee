"""Data for the proxy tests, written to the test database the app servers read: a running
tournament with its tables' device codes, an organiser who can sign in on the app servers,
and a deal entered the way a tablet enters it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.conftest import Event, make_event
from tests.factories import ClubFactory, summary_record

from .proxy import Browser, Proxy, Reply

PASSWORD = "proxy-organiser-pw"


@dataclass
class Evening:
    event: Event
    organiser: Any

    @property
    def tournament_id(self) -> int:
        return int(self.event.tournament.pk)


def organiser_with_password(django_user_model: Any, username: str) -> Any:
    """A user whose password the app servers can check: hashed with a hasher of their
    settings (the tests' own settings use a faster one the servers do not have)."""
    user = django_user_model.objects.create_user(username)
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "proxysalt", iterations=1000)
    user.save(update_fields=["password"])
    return user


def evening(django_user_model: Any, *, seed: int = 7) -> Evening:
    club = ClubFactory()
    organiser = organiser_with_password(django_user_model, f"organiser-{club.slug}")
    club.organisers.add(organiser)
    return Evening(make_event(club=club, seed=seed), organiser)


def enter_deal(
    proxy: Proxy,
    auth: str,
    match_id: int,
    number: int,
    *,
    team0_points: int = 100,
    key: str | None = None,
) -> Reply:
    record = summary_record(dealer=(number - 1) % 4, team0_points=team0_points)
    return proxy.request(
        "POST",
        f"/api/matches/{match_id}/deals/{number}/",
        body=record,
        headers={"Authorization": auth, "Idempotency-Key": key or str(uuid.uuid4())},
    )


def sign_in(proxy: Proxy, username: str) -> tuple[Browser, Reply]:
    """The login form through the proxy, as a browser fills it in: the session cookie
    ends up in the returned browser."""
    browser = Browser()
    form = proxy.get("/accounts/login/", browser=browser)
    assert form.status == 200, form.status
    token = form.text.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    fields = f"csrfmiddlewaretoken={token}&username={username}&password={PASSWORD}"
    reply = proxy.request(
        "POST",
        "/accounts/login/",
        body=fields.encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        browser=browser,
    )
    assert reply.status == 302, (reply.status, reply.text[:500])
    assert "sessionid" in browser.cookies
    return browser, reply
