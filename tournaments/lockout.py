"""Failed credentials, counted and slowed down: wrong passwords (the login page, the
admin, ``/api/auth/token/``) and table codes that were never issued (the device header
and the tablet page).

Failures are counted per client address (the one DRF's throttles see, so
``DJANGO_TRUSTED_PROXY_COUNT`` applies) and, for passwords, per username, with
django-ratelimit in the ``default`` cache. Past ``LOCKOUT_ADDRESS_RATE`` failures from
one address, or ``LOCKOUT_ACCOUNT_RATE`` for one username, every further attempt is
refused, right or wrong, until the window ends: a locked account unlocks by itself. A
table code is the exception: a usable code is always accepted, and only wrong codes from
a locked address are refused (``wait_after_unusable_code``).
Successful sign-ins are never counted. Password failures are counted from Django's
``user_login_failed`` signal, so that every login form is covered; ``LockoutBackend``
refuses a locked account's password everywhere. Answering a lock (429 and its page or
JSON body) is left to the views.

A code that exists but was revoked, expired or belongs to a closed round is not counted:
a venue's tablets share one address, and tablets still holding yesterday's codes must not
lock out the tablets holding today's.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.throttling import BaseThrottle

from .models import DeviceCredential, hash_device_code

ADDRESS_GROUP = "lockout:address"
ACCOUNT_GROUP = "lockout:account"
TOO_MANY_FAILURES = _("Too many failed attempts. Wait a while before trying again.")


def client_address(group: str, request: Any) -> str:
    """The address DRF's throttles count the client by (``NUM_PROXIES`` applies)."""
    return str(BaseThrottle().get_ident(request))


def _account(username: str) -> Any:
    return lambda group, request: username


def _counters(username: str | None) -> list[tuple[str, Any, str]]:
    counters = [(ADDRESS_GROUP, client_address, settings.LOCKOUT_ADDRESS_RATE)]
    if username:
        counters.append((ACCOUNT_GROUP, _account(username), settings.LOCKOUT_ACCOUNT_RATE))
    return counters


def locked_for(request: Any, *, username: str | None = None) -> int:
    """Seconds until the client's address (and ``username``, if given) may try again;
    0 when neither is locked. Counts nothing."""
    waits = []
    for group, key, rate in _counters(username):
        usage = get_usage(request, group=group, key=key, rate=rate, increment=False)
        if usage is not None and usage["limit"] and usage["count"] >= usage["limit"]:
            waits.append(max(1, usage["time_left"]))
    return max(waits, default=0)


def record_failure(request: Any, *, username: str | None = None) -> None:
    """One more failed attempt from the client's address (and for ``username``)."""
    for group, key, rate in _counters(username):
        get_usage(request, group=group, key=key, rate=rate, increment=True)


def record_code_failure(request: Any, code: str) -> None:
    """A table code was refused: counted only if no such code was ever issued."""
    if not DeviceCredential.objects.filter(code_hash=hash_device_code(code)).exists():
        record_failure(request)


def wait_after_unusable_code(request: Any, code: str) -> int:
    """After ``code`` was found unusable (callers look the code up first, so a usable
    code is accepted whatever the address's failures: tablets of one venue share its
    address, and one tablet's typing errors must not lock out the others): the seconds
    the address must wait while it is locked for wrong codes, or 0 once this failure is
    counted."""
    if wait := locked_for(request):
        return wait
    record_code_failure(request, code)
    return 0


def username_of(data: Any) -> str | None:
    """The username a sign-in request names, if it names one as text."""
    username = data.get("username") if hasattr(data, "get") else None
    if not isinstance(username, str):
        return None
    return username.strip()[:150] or None


@receiver(user_login_failed)
def count_failed_login(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    if request is not None:
        record_failure(request, username=username_of(credentials))


class LockoutBackend(ModelBackend):
    """Django's password check, refused while the address or the account is locked
    (the admin's login and any other form that calls ``authenticate``)."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is not None and locked_for(request, username=username):
            raise PermissionDenied(TOO_MANY_FAILURES)
        return super().authenticate(request, username=username, password=password, **kwargs)


class TooManyFailures(APIException):
    """429 with ``Retry-After`` and ``{"detail": ..., "code": "too_many_failures"}``."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "too_many_failures"

    def __init__(self, wait: int) -> None:
        super().__init__({"detail": TOO_MANY_FAILURES, "code": self.default_code})
        self.wait = wait
