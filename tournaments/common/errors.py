"""Application errors: the refusals of the services, each with a stable code.

A service raises one of these when a request breaks the rules of the tournament (a round
that is not open, a deal entered twice, a stale correction). Each carries a
machine-readable ``code`` that never changes, a translatable ``message`` with its
parameters, and the HTTP status the API answers with. The API maps them to JSON in one
place (``klammern_site.exception_handler``); the console shows ``message`` and decides by
``code``, never by the text.

Bugs are not application errors: they stay ordinary exceptions and become a 500.
This module imports nothing of the project, so every layer may raise these.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ApplicationError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people."""

    status = 400

    def __init__(
        self,
        code: str,
        message: str | Promise,
        *,
        params: dict[str, Any] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.template = message
        self.params = params or {}
        self.errors = errors

    @property
    def message(self) -> str:
        """The message in the active language, its parameters filled in."""
        text = str(self.template)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """The JSON body of the error."""
        body: dict[str, Any] = {"code": self.code, "detail": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class Refused(ApplicationError):
    """The request itself is not acceptable (400)."""


class Forbidden(ApplicationError):
    """The caller may not see or do this (403)."""

    status = 403


class NotFound(ApplicationError):
    """What the request names does not exist (404)."""

    status = 404


class Conflict(ApplicationError):
    """The state of the tournament does not allow it now (409)."""

    status = 409


class PreconditionFailed(ApplicationError):
    """The request was based on a version that is no longer current (412)."""

    status = 412


class IdempotencyMismatch(ApplicationError):
    """An Idempotency-Key was reused for a different request (422)."""

    status = 422


class PreconditionRequired(ApplicationError):
    """A correction came without the version it replaces (428)."""

    status = 428


class InvalidRecord(ApplicationError):
    """The rules engine refused a deal record; ``errors`` is the engine's list and
    ``preset`` the rules preset it was checked under (the API words the errors in that
    game's terms and the caller's language)."""

    def __init__(
        self,
        code: str,
        message: str | Promise,
        *,
        errors: list[dict[str, Any]] | None = None,
        preset: str = "",
    ) -> None:
        super().__init__(code, message, errors=errors)
        self.preset = preset


#: The conditions that refuse a draw, by key: (error class, code, message). The request
#: checks them (``draw.request_round_draw``); when the field changed before the draw
#: task ran, the task stores the key and its parameters on the round instead, and the
#: console and the API show it from there (``Round.draw_refusal``). Anything else that
#: goes wrong in a draw is a bug: the task fails and it is logged as an error.
DRAW_REFUSALS: dict[str, tuple[type[ApplicationError], str, Promise]] = {
    "too_few_players": (
        Refused,
        "too_few_players",
        _("Not enough checked-in players for a single table."),
    ),
    "table_overfull": (
        Conflict,
        "table_overfull",
        _("More than %(size)s players are fixed to one table."),
    ),
    "fixtures_exhausted": (
        Conflict,
        "fixtures_exhausted",
        _("All rounds of the season's fixture list have been drawn."),
    ),
    "round_robin_complete": (
        Conflict,
        "fixtures_exhausted",
        _("Every pair has met every other: the round robin is complete."),
    ),
}


def draw_refusal(key: str, params: dict[str, Any] | None = None) -> ApplicationError:
    """The error of a refused draw (``DRAW_REFUSALS``)."""
    kind, code, message = DRAW_REFUSALS[key]
    return kind(code, message, params=params)
