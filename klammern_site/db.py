"""Prepared statements for the few plain SQL statements every deal entry runs.

Django's PostgreSQL backend sends each statement as text with its values quoted in
(client-side binding) and disables psycopg's prepared statements, so PostgreSQL parses
and plans the credential lookup, the match lock, the deal insert, the version bumps and
the idempotency record afresh for every deal: planning the five-table credential join
alone cost it ~0.5 ms, ten times its execution. ``prepared_cursor()`` is Django's cursor
(its wrappers, query logging and error translation) around a psycopg cursor that binds
values on the server and prepares each statement once per pooled connection.

It is only for fixed SQL text whose values are all parameters. Server-side binding
types each value (an int as ``int2``…``int8``, ``None`` and a ``str`` as unknown), so a
value whose type PostgreSQL cannot infer from where it stands (the output list of a
``SELECT``) needs a cast. Elsewhere (SQLite) it is the ordinary cursor. Not for use behind
a transaction-pooling proxy that does not keep a connection's prepared statements.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.backends.utils import CursorWrapper


def prepared_cursor() -> CursorWrapper:
    """A cursor whose statements PostgreSQL prepares once per connection."""
    kept = connection.settings_dict["CONN_MAX_AGE"] or "pool" in connection.settings_dict["OPTIONS"]
    if connection.vendor != "postgresql" or not kept:  # preparing costs a round trip
        return connection.cursor()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # Django's own cursor wrapping (debug logging, execute wrappers) for our cursor
        return connection._prepare_cursor(  # type: ignore[attr-defined]
            _preparing_cursor_class()(connection.connection)
        )


@lru_cache(maxsize=1)
def _preparing_cursor_class() -> Any:
    """The psycopg cursor class that prepares every statement (made on first use: the
    backend module imports psycopg, which SQLite set-ups need not have)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):  # type: ignore[misc,valid-type]
        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            kwargs.setdefault("prepare", True)
            return super().execute(query, params, **kwargs)  # type: ignore[misc]

    return PreparingCursor
