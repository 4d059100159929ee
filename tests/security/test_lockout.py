"""Failed credentials are slowed down (``tournaments.access.lockout``): wrong table codes in the
device header and on the tablet page, wrong passwords on ``/api/auth/token/``, the login
page and the admin. Past the rate from one address (or for one account at one address)
every attempt is 429 until the window ends, except a usable table code: a venue's tablets
share one address, and others' typing errors never lock out a tablet holding a valid
code. Wrong codes and wrong passwords are counted apart: a tablet's typing errors never
lock the organiser's password sign-in at the venue. An account locked at one address is
not locked at another. The lock lifts by itself; successes are never counted."""

from __future__ import annotations

import os
import threading
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.db import connections
from django.test import RequestFactory

from tests.conftest import Event
from tests.factories import UserFactory, summary_record
from tests.support.clients import APIClient, Client
from tournaments.access import lockout
from tournaments.events import services

pytestmark = pytest.mark.django_db

WRONG_CODE = "ZZZZ-ZZZZ"


@pytest.fixture
def low_rates(settings: Any) -> None:
    settings.LOCKOUT_ADDRESS_RATE = "5/m"
    settings.LOCKOUT_ACCOUNT_RATE = "3/15m"
    settings.LOCKOUT_CODE_RATE = "5/m"


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``later(seconds)``: the clock (and the cache's expiry with it) moves on."""

    def move(seconds: float) -> None:
        now = time.time() + seconds
        monkeypatch.setattr(time, "time", lambda: now)

    return move


def device_get(code: str, address: str = "192.0.2.1") -> Any:
    return APIClient().get("/api/device/", HTTP_AUTHORIZATION=f"Device {code}", REMOTE_ADDR=address)


def assert_locked_json(response: Any) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    body = response.json()
    assert body["code"] == "too_many_failures" and body["detail"]


def test_wrong_device_codes_lock_the_address(event: Event, low_rates: None) -> None:
    assert [device_get(WRONG_CODE).status_code for _ in range(5)] == [401] * 5
    assert_locked_json(device_get(WRONG_CODE))
    assert_locked_json(device_get("ABCD-EFGH"))  # further wrong guesses are refused
    assert device_get(event.code1).status_code == 200  # a usable code never is
    assert device_get(event.code1, address="192.0.2.2").status_code == 200


def test_sixty_wrong_codes_lock_no_valid_tablet_of_the_venue(event: Event, later: Any) -> None:
    """Issue 20: sixty wrong codes from a venue's address (the default rate) and every
    tablet of the venue still signs in and enters deals with its own code."""
    later(0)  # the clock stands: all sixty fall in one window, however slow the machine
    assert {device_get(WRONG_CODE).status_code for _ in range(60)} == {401}
    assert_locked_json(device_get(WRONG_CODE))
    assert device_get(event.code1).status_code == 200
    assert device_get(event.code2).status_code == 200
    response = Client().post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(),
        content_type="application/json",
        headers={"Authorization": f"Device {event.code1}", "Idempotency-Key": "k"},
        REMOTE_ADDR="192.0.2.1",
    )
    assert response.status_code == 201, response.content
    assert event.match1.deals.count() == 1
    assert_locked_json(device_get(WRONG_CODE))  # and the wrong guesses stay locked


def test_revoked_codes_are_not_counted(event: Event, low_rates: None) -> None:
    """Tablets of one venue share an address: stale codes must not lock out the rest."""
    services.revoke_device_credentials(table=event.table2)
    assert [device_get(event.code2).status_code for _ in range(8)] == [401] * 8
    assert device_get(event.code1).status_code == 200


def test_the_lock_lifts_by_itself(event: Event, low_rates: None, later: Any) -> None:
    for _ in range(6):
        device_get(WRONG_CODE)
    assert device_get(WRONG_CODE).status_code == 429
    later(61)
    assert device_get(WRONG_CODE).status_code == 401


def test_wrong_codes_on_the_tablet_page(event: Event, low_rates: None) -> None:
    client = Client(REMOTE_ADDR="198.51.100.4")
    assert [client.get(f"/t/{WRONG_CODE}/").status_code for _ in range(5)] == [404] * 5
    locked = client.get(f"/t/{WRONG_CODE}/", HTTP_ACCEPT_LANGUAGE="de")
    assert locked.status_code == 429 and int(locked["Retry-After"]) >= 1
    assert "Zu viele Fehlversuche" in locked.content.decode()
    in_english = client.get(f"/t/{WRONG_CODE}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many failed attempts" in in_english.content.decode()
    assert client.get(f"/t/{WRONG_CODE}/state/").status_code == 429
    assert client.get(f"/t/{event.code1}/").status_code == 200  # the valid tablet goes on
    assert client.get(f"/t/{event.code1}/state/").status_code == 200


def token(username: str, password: str, address: str = "203.0.113.1") -> Any:
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


ATTACKER = "198.51.100.66"
VENUE = "203.0.113.7"


def test_wrong_passwords_lock_the_account_at_that_address(low_rates: None, later: Any) -> None:
    UserFactory(username="anna", password="richtig")
    later(0)
    answers = [token("anna", "falsch", address=ATTACKER).status_code for _ in range(3)]
    assert answers == [400, 400, 400]
    assert_locked_json(token("anna", "falsch", address=ATTACKER))
    locked = token("anna", "richtig", address=ATTACKER)  # the right password too
    assert_locked_json(locked)
    assert token("bert", "x", address=ATTACKER).status_code == 400  # other accounts are not
    wait = int(locked["Retry-After"])
    later(wait - 1)
    assert_locked_json(token("anna", "richtig", address=ATTACKER))  # still locked
    later(2)
    assert token("anna", "richtig", address=ATTACKER).status_code == 200


def test_an_attacker_elsewhere_cannot_lock_the_organiser_out(low_rates: None, later: Any) -> None:
    """Wrong passwords for the organiser from another address lock that address only."""
    UserFactory(username="anna", password="richtig")
    later(0)
    for _ in range(3):
        token("anna", "falsch", address=ATTACKER)
    assert_locked_json(token("anna", "richtig", address=ATTACKER))
    assert token("anna", "richtig", address=VENUE).status_code == 200
    client = Client(REMOTE_ADDR=VENUE)
    signed_in = client.post("/accounts/login/", {"username": "anna", "password": "richtig"})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session
    for _ in range(3):  # and her own typing errors at the venue lock her there, not here
        token("anna", "falsch", address=VENUE)
    assert_locked_json(token("anna", "richtig", address=VENUE))
    assert_locked_json(token("anna", "richtig", address=ATTACKER))


def test_many_addresses_guessing_one_account_each_get_the_rate(low_rates: None) -> None:
    """Per username and address: every address is refused past its own rate."""
    UserFactory(username="anna", password="richtig")
    for n in range(4):
        address = f"198.51.100.{n + 1}"
        answers = [token("anna", "falsch", address=address).status_code for _ in range(4)]
        assert answers == [400, 400, 400, 429]


def test_wrong_table_codes_do_not_lock_the_organisers_sign_in(event: Event, later: Any) -> None:
    """Issue 35: sixty unknown codes from a venue's NAT address (the default rates) lock
    further wrong codes from it, never the organiser's password sign-in there."""
    UserFactory(username="anna", password="richtig")
    later(0)
    assert {device_get(WRONG_CODE, address=VENUE).status_code for _ in range(60)} == {401}
    assert_locked_json(device_get(WRONG_CODE, address=VENUE))
    assert token("anna", "richtig", address=VENUE).status_code == 200
    client = Client(REMOTE_ADDR=VENUE)
    signed_in = client.post("/accounts/login/", {"username": "anna", "password": "richtig"})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session
    assert token("anna", "falsch", address=VENUE).status_code == 400  # counted on its own
    assert_locked_json(device_get(WRONG_CODE, address=VENUE))


def test_wrong_passwords_do_not_lock_the_tablets(event: Event, low_rates: None) -> None:
    """The other way round: the address's wrong passwords leave its table codes alone."""
    for n in range(6):
        token(f"user-{n}", "falsch", address=VENUE)
    assert_locked_json(token("user-9", "falsch", address=VENUE))
    assert device_get(WRONG_CODE, address=VENUE).status_code == 401  # counted, not locked
    assert device_get(event.code1, address=VENUE).status_code == 200


def test_about_sixty_wrong_passwords_a_minute_lock_the_address(later: Any) -> None:
    """With the default rates: many usernames from one address (the clock held still,
    so that the minute's window does not end halfway)."""
    later(0)
    answers = [token(f"user-{n}", "falsch").status_code for n in range(61)]
    assert answers[:60] == [400] * 60
    assert_locked_json(token("user-61", "falsch"))


def test_successful_sign_ins_are_not_counted(low_rates: None) -> None:
    UserFactory(username="anna", password="richtig")
    assert all(token("anna", "richtig").status_code == 200 for _ in range(10))
    client = Client()
    for _ in range(10):
        assert (
            client.post(
                "/accounts/login/",
                {"username": "anna", "password": "richtig"},
            ).status_code
            == 302
        )
        client.logout()


def test_login_page_locks_after_wrong_passwords(low_rates: None) -> None:
    user = UserFactory(username="anna", password="richtig")
    client = Client()
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "anna", "password": "falsch"})
        assert response.status_code == 200
    locked = client.post(
        "/accounts/login/",
        {"username": "anna", "password": "richtig"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert locked.status_code == 429 and int(locked["Retry-After"]) >= 1
    assert "Too many failed attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert user.last_login is None


def test_admin_login_refuses_a_locked_account(low_rates: None) -> None:
    UserFactory(username="anna", password="richtig", is_staff=True)
    for _ in range(3):
        token("anna", "falsch", address="127.0.0.1")  # the test client's address
    client = Client()
    client.post("/admin/login/", {"username": "anna", "password": "richtig"})
    assert "_auth_user_id" not in client.session


@pytest.fixture
def redis_cache(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            "KEY_PREFIX": f"test-lockout-{uuid.uuid4()}",
        }
    }


def test_parallel_wrong_passwords_check_exactly_the_rate(redis_cache: None, settings: Any) -> None:
    """150 attempts at once from one address (issue 20: 66 got through before the 429):
    each is counted before its password is checked, so exactly the rate is checked."""
    settings.LOCKOUT_ADDRESS_RATE = "20/d"  # one window for the whole test
    threads, per_thread = 10, 15
    start = threading.Barrier(threads)
    checked: list[bool] = []
    lock = threading.Lock()

    def attacker(n: int) -> None:
        start.wait()
        for i in range(per_thread):
            request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="198.51.100.66")
            assert authenticate(request, username=f"guess-{n}-{i}", password="x") is None
            with lock:
                checked.append(not getattr(request, lockout.LOCKED_WAIT, 0))
        connections.close_all()

    workers = [threading.Thread(target=attacker, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert len(checked) == threads * per_thread
    assert checked.count(True) == 20
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="198.51.100.66")
    assert lockout.locked_for(request) > 0


def test_a_claimed_success_is_given_back(low_rates: None) -> None:
    UserFactory(username="anna", password="richtig")
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="198.51.100.67")
    for _ in range(10):
        assert authenticate(request, username="anna", password="richtig") is not None
    assert lockout.locked_for(request, username="anna") == 0
