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
