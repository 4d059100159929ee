"""Table-device authentication: ``Authorization: Device <code>``.

A valid code authenticates as an anonymous user with ``request.auth`` set to the
``DeviceCredential``; permissions in ``tournaments/permissions.py`` then restrict the
device to its own table. ``find_entry_credential`` is the same lookup for the deal-entry
fast path, in plain SQL. This module does not issue codes (see ``services.issue_device_code``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection, models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from klammern_site.db import prepared_cursor

from .models import DeviceCredential, Match, Round, Table, Tournament, hash_device_code
from .selectors import plain_instance


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


#: What entering a deal needs of the credential and its table's match, round and
#: tournament (``find_entry_credential``); the other fields stay deferred.
ENTRY_FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    DeviceCredential: ("id", "table_id"),
    Match: ("id", "round_id", "table_id", "mode", "deals_planned", "target", "status"),
    Round: ("id", "tournament_id", "status"),
    Tournament: ("id", "club_id", "rules_preset", "rules_options"),
}


def _entry_fields(model: type[models.Model]) -> list[Any]:
    wanted = ENTRY_FIELDS[model]
    return [f for f in model._meta.concrete_fields if f.attname in wanted]


@lru_cache(maxsize=1)
def _entry_sql() -> str:
    aliases = {DeviceCredential: "c", Match: "m", Round: "r", Tournament: "t"}
    columns = ", ".join(f"{aliases[m]}.{f.column}" for m in ENTRY_FIELDS for f in _entry_fields(m))
    c, tb, r, t, m = (x._meta.db_table for x in (DeviceCredential, Table, Round, Tournament, Match))
    return (
        f"SELECT {columns} FROM {c} c JOIN {tb} tb ON tb.id = c.table_id "
        f"JOIN {r} r ON r.id = tb.round_id JOIN {t} t ON t.id = r.tournament_id "
        f"JOIN {m} m ON m.table_id = tb.id "
        "WHERE c.code_hash = %s AND c.revoked_at IS NULL AND c.expires_at > %s AND r.status <> %s"
    )


def find_entry_credential(code: str) -> tuple[DeviceCredential, Match] | None:
    """``find_usable_credential`` for the deal-entry fast path (``games.api``): the same
    conditions (not revoked, not expired, round not closed) in one plain SQL statement,
    returning the credential and its table's match with round and tournament, holding
    only ``ENTRY_FIELDS``. None also for a table without a match. Compiling the ORM's
    six-table ``select_related`` costs several times the query itself."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with prepared_cursor() as cursor:
        cursor.execute(_entry_sql(), [hash_device_code(code), now, Round.Status.CLOSED])
        row = cursor.fetchone()
    if row is None:
        return None
    values = iter(row)
    device, match, round_, tournament = (
        plain_instance(model, ENTRY_FIELDS[model], values)
        for model in (DeviceCredential, Match, Round, Tournament)
    )
    round_.tournament = tournament
    match.round = round_
    return device, match


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
        credential = find_usable_credential(parts[1].decode(errors="replace"))
        if credential is None:
            raise exceptions.AuthenticationFailed(UNUSABLE_CODE)
        return AnonymousUser(), credential

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
