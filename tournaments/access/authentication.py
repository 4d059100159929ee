"""Table-device authentication (``Authorization: Device <code>``) and organisers' API
tokens that expire (``Authorization: Token <token>``).

A valid device code authenticates as an anonymous user with ``request.auth`` set to the
``DeviceCredential``; permissions in ``tournaments/events/permissions.py`` then restrict the
device to its own table. A usable code is always accepted, also from an address locked
for wrong codes (``lockout``): other tablets' typing errors never lock a venue out. This
module does not issue device codes (see ``services.issue_device_code``).

An organiser's API token (``ApiToken``) belongs to one client: every sign-in at
``POST /api/auth/token/`` issues a new one (``clubs.services.issue_api_token``), named by
its owner, and the user's other tokens keep working. Only its hash is stored. It lives
``API_TOKEN_TTL_HOURS`` from its issue: past that it authenticates nobody and is deleted.
This module does not issue or revoke tokens (``clubs.services``, called from
``tournaments.access.auth_views``).
"""

from __future__ import annotations

import json
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from tournaments.access import lockout
from tournaments.clubs.models import ApiToken, hash_api_token
from tournaments.events.models import (
    DeviceCredential,
    Match,
    Round,
    Table,
    Tournament,
    hash_device_code,
)

#: What a device's requests read of its credential, table, round, tournament and match,
#: loaded with the credential; any other field is loaded when first read.
LOADED_FIELDS: dict[type[Model], tuple[str, ...]] = {
    DeviceCredential: (
        "id",
        "table",
        "code_hash",
        "created",
        "expires_at",
        "revoked_at",
        "last_seen_at",
        "queued_entries",
    ),
    Table: ("id", "round", "number"),
    Round: ("id", "tournament", "number", "status", "stage"),
    Tournament: (
        "id",
        "club",
        "name",
        "format",
        "status",
        "is_public",
        "rules_preset",
        "rules_options",
        "results_version",
        "duplicate",
        "board_seed",
    ),
    Match: ("id", "round", "table", "mode", "deals_planned", "target", "status", "finished_at"),
}
ALIASES = {DeviceCredential: "c", Table: "tb", Round: "r", Tournament: "t", Match: "m"}


@lru_cache(maxsize=1)
def _row_layout() -> tuple[tuple[type[Model], tuple[str, ...]], ...]:
    """Each model of ``credential_sql``'s row, in its order, with its attribute names."""
    return tuple(
        (
            model,
            tuple(model._meta.get_field(name).attname for name in LOADED_FIELDS[model]),  # type: ignore[union-attr]
        )
        for model in ALIASES
    )


@lru_cache(maxsize=1)
def credential_sql() -> str:
    """One statement on the unique ``code_hash`` index: the usable credential with its
    table, round, tournament and the table's match (if it has one)."""
    columns = ", ".join(
        f"{alias}.{model._meta.get_field(name).column}"  # type: ignore[union-attr]
        for model, alias in ALIASES.items()
        for name in LOADED_FIELDS[model]
    )
    table = {model: model._meta.db_table for model in ALIASES}
    return (
        f"SELECT {columns} FROM {table[DeviceCredential]} c "
        f"JOIN {table[Table]} tb ON tb.id = c.table_id "
        f"JOIN {table[Round]} r ON r.id = tb.round_id "
        f"JOIN {table[Tournament]} t ON t.id = r.tournament_id "
        f"LEFT JOIN {table[Match]} m ON m.table_id = tb.id "
        "WHERE c.code_hash = %s AND c.revoked_at IS NULL AND c.expires_at > %s"
    )


def _instances(row: tuple[Any, ...], alias: str) -> dict[type[Model], Any]:
    """The model instances of a ``credential_sql`` row, each holding its
    ``LOADED_FIELDS`` (the others deferred), as the ORM builds them (``Model.from_db``);
    no match when the table has none."""
    instances: dict[type[Model], Any] = {}
    start = 0
    for model, names in _row_layout():
        values = list(row[start : start + len(names)])
        start += len(names)
        if model is Match and values[0] is None:  # the LEFT JOIN found no match
            continue
        if model is Tournament:
            index = names.index("rules_options")
            if isinstance(values[index], str):  # jsonb as text (Django's loader)
                values[index] = json.loads(values[index])
        instances[model] = model.from_db(alias, names, values)
    return instances


def find_usable_credential(code: str) -> DeviceCredential | None:
    """The usable credential (not revoked, not expired) for a code typed or scanned at a
    table, or None, with its table, round, tournament and match attached: one plain
    statement of the columns needed (compiling the ORM's five-table ``select_related``
    cost several times the query itself)."""
    with connection.cursor() as cursor:
        cursor.execute(credential_sql(), [hash_device_code(code), timezone.now()])
        row = cursor.fetchone()
        alias = cursor.db.alias
    if row is None:
        return None
    found = _instances(row, alias)
    credential, table, round_ = found[DeviceCredential], found[Table], found[Round]
    round_.tournament = found[Tournament]
    table.round = round_
    credential.table = table
    if (match := found.get(Match)) is not None:
        match.round = round_
        table.match = match
    return credential  # type: ignore[no-any-return]


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
        code = parts[1].decode(errors="replace")
        credential = find_usable_credential(code)
        if credential is None:
            if wait := lockout.wait_after_unusable_code(request, code):
                raise lockout.TooManyFailures(wait)
            raise exceptions.AuthenticationFailed(UNUSABLE_CODE)
        return AnonymousUser(), credential

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


#: ``ApiToken.last_used`` is written at most this often per token (one write a minute for
#: a busy script, instead of one per request).
LAST_USED_STEP = timedelta(minutes=1)

INVALID_TOKEN = _("This API token is unknown or was revoked.")
INACTIVE_USER = _("This account is deactivated.")
TOKEN_EXPIRED = _("This API token has expired. Sign in again for a new one.")


def find_api_token(key: str) -> ApiToken | None:
    """The API token (with its user) whose secret is ``key``, expired or not."""
    return ApiToken.objects.select_related("user").filter(key_hash=hash_api_token(key)).first()


class ExpiringTokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <token>``: one of the user's per-client API tokens, found by
    its hash; past its lifetime it is refused (401 ``token_expired``) and deleted. Notes
    when the token was last used, to the minute."""

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = find_api_token(key)
        if token is None:
            raise exceptions.AuthenticationFailed(INVALID_TOKEN)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(INACTIVE_USER)
        now = timezone.now()
        if token.is_expired(now=now):
            ApiToken.objects.filter(pk=token.pk).delete()
            raise exceptions.AuthenticationFailed(TOKEN_EXPIRED, code="token_expired")
        if token.last_used is None or now - token.last_used >= LAST_USED_STEP:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return token.user, token
