"""Refuses oversized request bodies with 413 before any view, parser or database work.

The limit is ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a deal record is a few kilobytes). A body
announced by ``Content-Length`` is judged by that header alone and never read. A body sent
without it (``Transfer-Encoding: chunked``) is read up to one byte past the limit: too long
is 413, otherwise the bytes become the request's body as if their length had been sent.
``RequestDataTooBig`` raised later by Django becomes 413 too instead of its generic 400.

``DatabaseUnavailableMiddleware`` turns a lost database connection into 503 with
``Retry-After`` instead of a bare 500.

These middlewares do not limit the rate of requests (see ``tournaments/throttles.py``) or
page sizes (see ``klammern_site/pagination.py``).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.wsgi import LimitedStream
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)


def body_limit() -> int | None:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large(limit: int) -> JsonResponse:
    detail = f"The request body is too large: at most {limit} bytes are accepted."
    response = JsonResponse({"detail": detail, "limit": limit}, status=413)
    response["Connection"] = "close"  # the unread rest of the body must not be parsed
    return response


def announced_length(request: HttpRequest) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def is_chunked(request: HttpRequest) -> bool:
    """A chunked body the server already de-chunks and ends (gunicorn does; a server that
    does not would hand us the raw socket, and Django then reads no body at all)."""
    chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
    return chunked and bool(request.META.get("wsgi.input_terminated"))


def buffer_chunked_body(request: HttpRequest, *, limit: int) -> bool:
    """Read an unannounced body, at most ``limit`` bytes; False if it is longer."""
    stream = request.META.get("wsgi.input")
    if stream is None:
        return True
    body = stream.read(limit + 1)
    if len(body) > limit:
        return False
    # Django sized the request's stream from the missing header (0 bytes): resize it.
    request.META["CONTENT_LENGTH"] = str(len(body))
    request._stream = LimitedStream(io.BytesIO(body), len(body))  # type: ignore[attr-defined]
    return True


class RequestBodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit()
        if limit is not None:
            length = announced_length(request)
            if length is not None and length > limit:
                return too_large(limit)
            unannounced = length is None and is_chunked(request)
            if unannounced and not buffer_chunked_body(request, limit=limit):
                return too_large(limit)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        limit = body_limit()
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
        logger.warning("database unavailable for %s %s: %s", request.method, request.path,
                       exception)  # fmt: skip
        detail = (
            "The server lost its connection to the database; nothing of this request was "
            "stored. Please send it again in a moment (a table tablet does this by itself)."
        )
        response = JsonResponse({"detail": detail}, status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response
