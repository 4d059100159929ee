"""The API's JSON parser, the one for every endpoint: DRF's, refusing with 400 what would
otherwise fail later as a 500:

- a body nested too deeply for Python's JSON decoder (a ``RecursionError``): 400
  ``parse_error`` like any other malformed JSON;
- text that is not Unicode: JSON's ``\\ud800`` escapes decode to a lone surrogate, which
  no database, cache key or page can encode. A string or key holding one is refused as
  ``invalid_text`` with a translated message, before any view sees the data.

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
