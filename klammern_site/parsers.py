"""The API's JSON parser: DRF's, answering a body nested too deeply for Python's JSON
decoder (a ``RecursionError``) with 400 like any other malformed JSON, not 500.

It does not limit the body's size (``RequestBodyLimitMiddleware`` and
``DATA_UPLOAD_MAX_MEMORY_SIZE`` do) nor validate its content (the serializers do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

TOO_DEEP = "JSON parse error - the body is nested too deeply."


class SafeJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
