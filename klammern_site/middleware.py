"""Refuses oversized request bodies with 413 before any view, parser or database work,
and answers a lost database connection with 503.

The limit is ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a deal record is a few kilobytes); the
upload of a club's history spreadsheet has the file's own limit (``UPLOAD_PATHS``). A body
announced by ``Content-Length`` is judged by that header alone and never read; a chunked
body is sized by ``klammern_site.wsgi`` before Django sees the request.
``RequestDataTooBig`` raised later by Django becomes 413 too instead of its generic 400.

``ApiLanguageMiddleware`` answers the API in English unless the client asks for a
language with ``Accept-Language`` (a site cookie does not change API messages).

``DatabaseUnavailableMiddleware`` turns a lost database connection into 503 with
``Retry-After`` instead of a bare 500.

These middlewares do not limit the rate of requests (``tournaments/access/throttles.py``) or
page sizes (``klammern_site/pagination.py``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation

from tournaments.history import parsing

logger = logging.getLogger(__name__)


#: Where a club uploads its history spreadsheet (``tournaments.history``): the file's own
#: limit, and room for the form around it, instead of the site's.
UPLOAD_PATHS = re.compile(r"/(api/clubs/\d+/history-imports/preview|console/clubs/\d+/history)/\Z")
UPLOAD_ROOM = 65_536


def body_limit(request: HttpRequest | None = None) -> int | None:
    limit: int | None = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if request is not None and limit is not None and UPLOAD_PATHS.match(request.path_info):
        return max(limit, parsing.MAX_BYTES + UPLOAD_ROOM)
    return limit


def too_large(limit: int) -> JsonResponse:
    detail = f"The request body is too large: at most {limit} bytes are accepted."
    response = JsonResponse(
        {"code": "body_too_large", "detail": detail, "limit": limit}, status=413
    )
    response["Connection"] = "close"  # the unread rest of the body must not be parsed
    return response


def announced_length(request: HttpRequest) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


class RequestBodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit(request)
        if limit is not None:
            length = announced_length(request)
            if length is not None and length > limit:
                return too_large(limit)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        limit = body_limit(request)
        if isinstance(exception, RequestDataTooBig) and limit is not None:
            return too_large(limit)
        return None


class DatabaseUnavailableMiddleware:
    """A request whose database connection broke gets 503 with ``Retry-After`` and a
    plain explanation instead of a bare 500. The request's transaction was rolled back,
    so nothing of it is stored; a tablet sends the entry again with the same
    Idempotency-Key. Other errors are left to Django."""

    RETRY_AFTER_SECONDS = 2

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning(
            "database unavailable for %s %s: %s", request.method, request.path, exception
        )
        detail = (
            "The server lost its connection to the database; nothing of this request was "
            "stored. Please send it again in a moment (a table tablet does this by itself)."
        )
        response = JsonResponse({"code": "database_unavailable", "detail": detail}, status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response


class ApiLanguageMiddleware:
    """After ``LocaleMiddleware``: API requests without ``Accept-Language`` in English."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/api/") and "HTTP_ACCEPT_LANGUAGE" not in request.META:
            translation.activate("en")
            request.LANGUAGE_CODE = "en"  # type: ignore[attr-defined]
        return self.get_response(request)
