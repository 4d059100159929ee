"""Table-device authentication: ``Authorization: Device <code>``.

A valid code authenticates as an anonymous user with ``request.auth`` set to the
``DeviceCredential``; permissions in ``tournaments/permissions.py`` then restrict the
device to its own table. This module does not issue codes (see
``services.issue_device_code``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
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
