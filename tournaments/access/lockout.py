"""Failed credentials, counted and slowed down: wrong passwords (the login page, the
admin, ``/api/auth/token/``) and table codes that were never issued (the device header
and the tablet page).

Failures are counted per client address (the one DRF's throttles see, so
``DJANGO_TRUSTED_PROXY_COUNT`` applies) in fixed windows in the ``default`` cache, in
three counters that never mix:

- ``LOCKOUT_CODE_RATE``: unknown table codes from one address. Past it, further wrong
  codes from that address are refused until the window ends; a usable code is always
  accepted (``wait_after_unusable_code``), and no password sign-in is affected: at a
  venue behind one NAT address, a tablet's typing errors keep neither the other tablets
  nor the organiser out.
- ``LOCKOUT_ADDRESS_RATE``: wrong passwords from one address, whatever the usernames.
  Past it, every password attempt from that address is refused, right or wrong, until
  the window ends (one address guessing many accounts).
- ``LOCKOUT_ACCOUNT_RATE``: wrong passwords for one username from one address (as
  django-axes locks out "by combination of username and IP"). Past it, that username is
  refused at that address, right password or wrong, until the window ends; the same user
  signing in from another address is not: an attacker guessing an organiser's password
  cannot lock the organiser out elsewhere. A locked account unlocks by itself.

A password attempt is counted before the password is checked (``claim_attempt``: the
cache's atomic ``add`` and ``incr``, one Redis ``INCR``), and given back when it
succeeded (``forgive_attempt``): of many attempts arriving at once, exactly the rate is
checked and the rest is refused; a read-then-check-then-count would let every attempt
that read the count before the others were counted through. ``LockoutBackend`` does this
for every login form and the token endpoint and marks a refused attempt on the request
(``locked_wait``), so that the views answer it with 429. Answering a lock (429 and its
page or JSON body) is left to the views. While the cache is unreachable nobody is locked
out (``RATELIMIT_FAIL_OPEN``), as the throttles let requests by.

A code that exists but was revoked, expired or belongs to a closed round is not counted:
a venue's tablets share one address, and tablets still holding yesterday's codes must not
lock out the tablets holding today's.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.throttling import BaseThrottle

from tournaments.events.models import DeviceCredential, hash_device_code

#: Wrong passwords per address; per username and address; unknown table codes per address.
ADDRESS_GROUP = "lockout:address"
ACCOUNT_GROUP = "lockout:account"
CODE_GROUP = "lockout:code"
TOO_MANY_FAILURES = _("Too many failed attempts. Wait a while before trying again.")
#: Where ``LockoutBackend`` leaves the wait of an attempt it refused (on the request).
LOCKED_WAIT = "lockout_wait"
RATE = re.compile(r"^(\d+)/(\d*)([smhd])$")
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def client_address(group: str, request: Any) -> str:
    """The address DRF's throttles count the client by (``NUM_PROXIES`` applies)."""
    return str(BaseThrottle().get_ident(request))


@dataclass(frozen=True)
class Counter:
    """One failure counter: a group, whom it counts, and its rate."""

    group: str
    ident: str
    rate: str

    @property
    def limit_and_period(self) -> tuple[int, int]:
        found = RATE.match(self.rate)
        if found is None:
            raise ValueError(f"not a rate: {self.rate!r}")
        count, multiple, unit = found.groups()
        return int(count), int(multiple or 1) * SECONDS[unit]

    def key_and_wait(self) -> tuple[str, int]:
        """The cache key of the current window and the seconds until it ends."""
        period = self.limit_and_period[1]
        now = int(time.time())
        ident = hashlib.sha256(self.ident.encode(errors="surrogatepass")).hexdigest()
        return f"{self.group}:{period}:{now // period}:{ident}", period - now % period

    def count(self) -> int:
        key, _wait = self.key_and_wait()
        return int(cache.get(key) or 0)

    def increment(self, by: int = 1) -> int | None:
        """The count after adding ``by`` atomically, or None if the cache cannot count."""
        key, wait = self.key_and_wait()
        new = cache.add(key, 0, wait + 5)  # the window's counter, if it is not there yet
        if new and by < 0:  # the attempt was counted in a window that has ended
            return 0
        try:
            return int(cache.incr(key, by))
        except (ValueError, TypeError):  # gone meanwhile, or the cache is unreachable
            return None


def _counters(request: Any, username: str | None) -> list[Counter]:
    """The password counters of the request: its address's, and its username's at that
    address."""
    address = client_address(ADDRESS_GROUP, request)
    counters = [Counter(ADDRESS_GROUP, address, settings.LOCKOUT_ADDRESS_RATE)]
    if username:
        account = f"{username}\n{address}"  # no address holds a line feed: unambiguous
        counters.append(Counter(ACCOUNT_GROUP, account, settings.LOCKOUT_ACCOUNT_RATE))
    return counters


def _code_counter(request: Any) -> Counter:
    """The counter of unknown table codes from the request's address."""
    return Counter(CODE_GROUP, client_address(CODE_GROUP, request), settings.LOCKOUT_CODE_RATE)


def _wait_if_locked(counters: list[Counter]) -> int:
    waits = [
        max(1, counter.key_and_wait()[1])
        for counter in counters
        if counter.count() >= counter.limit_and_period[0]
    ]
    return max(waits, default=0)


def locked_for(request: Any, *, username: str | None = None) -> int:
    """Seconds until the client's address (and ``username`` at that address, if given)
    may try a password again; 0 when neither is locked. Counts nothing; wrong table codes
    do not count here."""
    return _wait_if_locked(_counters(request, username))


def claim_attempt(request: Any, *, username: str | None = None) -> int:
    """Count a password attempt before checking it: 0 if it may be checked, else the
    seconds until the address or the account may try again."""
    waits = []
    for counter in _counters(request, username):
        count = counter.increment()
        if count is not None and count > counter.limit_and_period[0]:
            waits.append(max(1, counter.key_and_wait()[1]))
    return max(waits, default=0)


def forgive_attempt(request: Any, *, username: str | None = None) -> None:
    """A claimed attempt succeeded: successful sign-ins are not counted."""
    for counter in _counters(request, username):
        counter.increment(-1)


def record_code_failure(request: Any, code: str) -> None:
    """A table code was refused: counted only if no such code was ever issued."""
    if not DeviceCredential.objects.filter(code_hash=hash_device_code(code)).exists():
        _code_counter(request).increment()


def wait_after_unusable_code(request: Any, code: str) -> int:
    """After ``code`` was found unusable (callers look the code up first, so a usable
    code is accepted whatever the address's failures: tablets of one venue share its
    address, and one tablet's typing errors must not lock out the others): the seconds
    the address must wait while it is locked for wrong codes, or 0 once this failure is
    counted."""
    if wait := _wait_if_locked([_code_counter(request)]):
        return wait
    record_code_failure(request, code)
    return 0


def username_of(data: Any) -> str | None:
    """The username a sign-in request names, if it names one as text."""
    username = data.get("username") if hasattr(data, "get") else None
    if not isinstance(username, str):
        return None
    return username.strip()[:150] or None


class LockoutBackend(ModelBackend):
    """Django's password check, each attempt counted before it is checked and refused
    past the rate (the token endpoint, the login page, the admin's login and any other
    form that calls ``authenticate``)."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        name = username_of({"username": username})
        if wait := claim_attempt(request, username=name):
            setattr(request, LOCKED_WAIT, wait)
            raise PermissionDenied(TOO_MANY_FAILURES)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            forgive_attempt(request, username=name)
        return user


class TooManyFailures(APIException):
    """429 with ``Retry-After`` and ``{"detail": ..., "code": "too_many_failures"}``."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_failures"

    def __init__(self, wait: int) -> None:
        super().__init__({"detail": TOO_MANY_FAILURES, "code": self.default_code})
        self.wait = wait
