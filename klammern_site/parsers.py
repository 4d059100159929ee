"""The API's JSON parser, the one for every endpoint: DRF's, refusing with 400 what would
otherwise fail later as a 500:

- a body nested too deeply for Python's JSON decoder (a ``RecursionError``): 400
  ``parse_error`` like any other malformed JSON;
- text that is not Unicode: JSON's ``\\ud800`` escapes decode to a lone surrogate, which
  no database, cache key or page can encode. A string or key holding one is refused as
  ``invalid_text`` with a translated message, before any view sees the data.

``ParsedBody``, the mixin of every API view, has DRF parse the body of every write
(POST, PUT, PATCH, DELETE) once the caller has passed the permission and throttle checks,
whether or not the view reads it: DRF parses lazily, so an action that takes no body
(``check-in``, ``confirm-roster``, ``invitations``, ...) would otherwise be performed for
any body, a form, ``text/plain`` or broken JSON included. Every write answers such a body
alike: 415 ``unsupported_media_type`` for another media type, 400 ``parse_error`` for
broken JSON (or bytes that are not UTF-8) and 400 ``invalid_text`` for a lone surrogate,
and nothing is written; an empty body is no body and passes.

It does not limit the body's size (``RequestBodyLimitMiddleware`` and
``DATA_UPLOAD_MAX_MEMORY_SIZE`` do) nor validate its content (the serializers do).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

TOO_DEEP = "JSON parse error - the body is nested too deeply."
INVALID_TEXT = _(
    "The request contains text that is not valid Unicode (a lone surrogate such as "
    "\\ud800). Send the text as it was typed."
)


def has_lone_surrogate(data: Any) -> bool:
    """Whether any string or key in the decoded JSON holds a lone surrogate. The decoded
    data written back as UTF-8 by the C encoder fails exactly then (a pair decodes to one
    character); a body too deep for that encoder is walked iteratively instead."""
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    except RecursionError:
        return _walk_for_lone_surrogate(data)
    return False


def _walk_for_lone_surrogate(data: Any) -> bool:
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if not value.isascii() and any("\ud800" <= c <= "\udfff" for c in value):
                return True
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


class SafeJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
        if has_lone_surrogate(data):
            raise ParseError(INVALID_TEXT, code="invalid_text")
        return data


class ParsedBody:
    """A DRF view mixin (the first base of every API view): the body of a write is parsed
    before the handler runs, so a body the parser refuses is refused for every write, and
    the action is not performed."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if request.method not in SAFE_METHODS:
            parse_body(request)


def parse_body(request: Request) -> Any:
    """The request's body as the parser reads it (DRF keeps it for the view); raises the
    parser's 400 or the 415."""
    return request.data
