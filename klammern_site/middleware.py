"""Refuses oversized request bodies with 413 before any view, parser or database work.

The limit is ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a deal record is a few kilobytes). A body
announced by ``Content-Length`` is judged by that header alone and never read. A body sent
without it (``Transfer-Encoding: chunked``) is read up to one byte past the limit: too long
is 413, otherwise the bytes become the request's body as if their length had been sent.
``RequestDataTooBig`` raised later by Django becomes 413 too instead of its generic 400.

``DatabaseUnavailableMiddleware`` turns a lost database connection into 503 with
``Retry-After`` instead of a bare 500.

``PublicReadMicroCacheMiddleware`` answers repeated anonymous reads of the public standings
(the API and the page) from this process's memory for up to a second, before any other
middleware runs.

These middlewares do not limit the rate of requests (see ``tournaments/throttles.py``) or
page sizes (see ``klammern_site/pagination.py``).
"""

from __future__ import annotations

import io
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.core.handlers.wsgi import LimitedStream
from django.core.signals import setting_changed
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import get_language_from_request

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


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A finished response as it left the middleware stack: status, headers in order,
    body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes

    @classmethod
    def of(cls, response: HttpResponse) -> StoredResponse:
        return cls(response.status_code, tuple(response.items()), response.content)

    def replay(self) -> HttpResponse:
        response = HttpResponse(self.content, status=self.status)
        del response["Content-Type"]  # put back in its place below, or absent as on a 304
        for name, value in self.headers:
            response[name] = value
        return response


class MicroCache:
    """Responses by key, each kept at most ``max_age`` seconds and at most ``max_entries``
    of them (the oldest stored goes first). Shared by a process's threads."""

    def __init__(self, *, max_age: float, max_entries: int,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.max_age = max_age
        self.max_entries = max_entries
        self.clock = clock
        self._entries: dict[Any, tuple[float, StoredResponse]] = {}
        self._lock = threading.Lock()

    def get(self, key: Any) -> StoredResponse | None:
        entry = self._entries.get(key)
        if entry is None or self.clock() - entry[0] > self.max_age:
            return None
        return entry[1]

    def put(self, key: Any, stored: StoredResponse) -> None:
        with self._lock:
            self._entries.pop(key, None)
            while len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]
            self._entries[key] = (self.clock(), stored)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


PUBLIC_READS = MicroCache(max_age=1.0, max_entries=256)

STANDINGS_API = re.compile(r"/api/tournaments/\d+/standings/")
STANDINGS_PAGE = re.compile(r"/tournaments/\d+/standings/")
_PLAIN_ACCEPT = {"", "*/*", "application/json"}  # as tournaments.api.public_standings
_STORABLE_VARY = {"accept", "accept-language", "cookie"}


@receiver(setting_changed)
def _forget_public_reads(*, setting: str, **kwargs: Any) -> None:
    """Tests swap the cache per test (``settings.CACHES``): responses of the previous
    test's database must not be answered in the next one."""
    if setting == "CACHES":
        PUBLIC_READS.clear()


class PublicReadMicroCacheMiddleware:
    """Answers an anonymous ``GET`` of the public standings (``/api/tournaments/{id}/
    standings/`` with plain JSON accepted, ``/tournaments/{id}/standings/``) with the
    response this process gave the same request less than a second ago, byte for byte
    (status, headers, body), without any other middleware, view or query.

    Same request means the same scheme, host, path, language (as ``LocaleMiddleware`` would pick
    it), Accept (API) and If-None-Match: the responses vary on nothing else for an
    anonymous reader, because they hold nothing of the visitor's (no CSRF token, no
    cookie). Only 200 and 304 answers without a cookie are kept. Everything else goes the
    normal way: other methods, any query string, credentials, a session or messages
    cookie, another Accept on the API, plain HTTP when HTTPS is enforced, an unknown host.

    Staleness: a reader may see standings up to one second older than the database. The
    API already allows every anonymous reader's browser or proxy 5 seconds of reuse
    (``Cache-Control: max-age=5``); the page itself declares no reuse, but the live table
    it shows is refreshed from ``/standings/table/`` every 3 s, which allows the same 5 s.
    One second more in this process is within that contract. Floods are
    still refused: an API read found here is counted by the anonymous throttle as before,
    and when that refuses it the request goes the normal way, to DRF's 429. (The HTML
    page has no rate limit, here as before.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = read_key(request)
        if key is None:
            return self.get_response(request)
        stored = PUBLIC_READS.get(key)
        if stored is not None and admitted(request, api=key[0]):
            return stored.replay()
        response = self.get_response(request)
        if stored is None and storable(response):
            PUBLIC_READS.put(key, StoredResponse.of(response))
        return response


def read_key(request: HttpRequest) -> tuple[bool, bool, str, str, str, str, str] | None:
    """What an anonymous standings read's response depends on, or None when the request
    is not one (see ``PublicReadMicroCacheMiddleware``)."""
    meta = request.META
    if request.method != "GET" or meta.get("QUERY_STRING") or "HTTP_AUTHORIZATION" in meta:
        return None
    path = request.path_info
    api = STANDINGS_API.fullmatch(path) is not None
    if not api and STANDINGS_PAGE.fullmatch(path) is None:
        return None
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return None
    accept = meta.get("HTTP_ACCEPT", "").strip() if api else ""
    secure = request.is_secure()  # HSTS is sent on HTTPS only
    if accept not in _PLAIN_ACCEPT or (settings.SECURE_SSL_REDIRECT and not secure):
        return None
    try:
        host = request.get_host()
    except DisallowedHost:
        return None  # Django answers 400 the normal way
    language = get_language_from_request(request)
    return api, secure, host, path, language, accept, meta.get("HTTP_IF_NONE_MATCH", "")


def admitted(request: HttpRequest, *, api: bool) -> bool:
    if not api:
        return True
    from django.contrib.auth.models import AnonymousUser

    from tournaments.throttles import AnonymousThrottle

    # no session cookie and no credentials: who AuthenticationMiddleware would find
    request.user = AnonymousUser()
    return AnonymousThrottle().allow_request(request, None)  # type: ignore[arg-type]


def storable(response: HttpResponse) -> bool:
    if response.status_code not in (200, 304) or response.cookies or response.streaming:
        return False
    vary = {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}
    return vary <= _STORABLE_VARY
