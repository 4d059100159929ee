"""Table-device authentication (``Authorization: Device <code>``) and organisers' API
tokens that expire (``Authorization: Token <token>``).

A valid device code authenticates as an anonymous user with ``request.auth`` set to the
``DeviceCredential``; permissions in ``tournaments/permissions.py`` then restrict the
device to its own table. This module does not issue device codes (see
``services.issue_device_code``).

An API token (DRF's ``Token``, one per user) lives ``API_TOKEN_TTL_HOURS`` from its
issue: past that it authenticates nobody and is deleted, and signing in again issues a
new one (``issue_token``). Its owner revokes it with ``DELETE /api/auth/token/``; the
site's logout revokes a token issued to that browser's session.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from . import lockout
from .models import DeviceCredential, hash_device_code


def find_usable_credential(code: str) -> DeviceCredential | None:
    """The usable credential for a code typed or scanned at a table, or None: one query
    on the unique ``code_hash`` index, with the table, its match, round, tournament and
    club that the permissions and the deal views need."""
    return (
        DeviceCredential.objects.usable()
        .select_related("table__round__tournament__club", "table__match")
        .filter(code_hash=hash_device_code(code))
        .first()
    )


UNUSABLE_CODE = _(
    "This table code is unknown, revoked or expired. Ask the organiser for a new one."
)


class DeviceAuthentication(authentication.BaseAuthentication):
    keyword = "Device"

    def authenticate(self, request: Request) -> tuple[Any, DeviceCredential] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid device header: expected 'Device <code>'.")
            )
        if wait := lockout.locked_for(request):
            raise lockout.TooManyFailures(wait)
        code = parts[1].decode(errors="replace")
        credential = find_usable_credential(code)
        if credential is None:
            lockout.record_code_failure(request, code)
            raise exceptions.AuthenticationFailed(UNUSABLE_CODE)
        return AnonymousUser(), credential

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


def token_expires_at(token: Token) -> datetime:
    return token.created + timedelta(hours=settings.API_TOKEN_TTL_HOURS)


def is_expired(token: Token) -> bool:
    return token_expires_at(token) <= timezone.now()


@transaction.atomic
def issue_token(user: Any) -> Token:
    """The user's API token: the current one, or a new one if it expired or never was."""
    token = Token.objects.select_for_update().filter(user=user).first()
    if token is not None and is_expired(token):
        token.delete()
        token = None
    return token or Token.objects.create(user=user)


TOKEN_EXPIRED = _("This API token has expired. Sign in again for a new one.")


class ExpiringTokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, refusing (and deleting) a token past its lifetime."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if is_expired(token):
            Token.objects.filter(pk=token.pk).delete()
            raise exceptions.AuthenticationFailed(TOKEN_EXPIRED, code="token_expired")
        return user, token
