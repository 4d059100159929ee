"""The API's content negotiation: DRF's, with its answer for the common ``Accept`` headers
found without parsing them.

A tablet or script asks for JSON (``Accept: application/json``) or for anything (``*/*``,
also when it sends no ``Accept``); DRF's negotiation parses that header and every
renderer's media type on each request to come to the view's first renderer. For exactly
those headers, with no format suffix or override, this answers the same at once; any
other header (a list, a quality, parameters, another type) goes through DRF's
negotiation unchanged, 406 included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

#: ``Accept`` headers answered by the first renderer's own media type.
PLAIN_ACCEPTS = frozenset({"*/*", "application/json"})


class PlainAcceptNegotiation(DefaultContentNegotiation):
    """``DefaultContentNegotiation``, short-cut for a plain JSON ``Accept`` header."""

    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        if renderers and self._plain(request, renderers[0], format_suffix):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]

    def _plain(self, request: Request, first: BaseRenderer, format_suffix: Any) -> bool:
        """DRF would choose ``first`` with its media type: no format asked for, and an
        ``Accept`` header of anything, or of JSON when ``first`` renders JSON."""
        if format_suffix or (
            self.settings.URL_FORMAT_OVERRIDE and request.META.get("QUERY_STRING")
        ):
            return False
        accept = request.META.get("HTTP_ACCEPT", "*/*").strip()
        if accept not in PLAIN_ACCEPTS:
            return False
        return accept != "application/json" or first.media_type == "application/json"
