"""Each request counted, timed and logged once, and the site's log lines as JSON.

``RequestMiddleware`` (first in ``MIDDLEWARE``) takes the request's id from the proxy's
``X-Request-ID`` (or makes one), sends it back in the answer, and when the answer leaves
counts it by the resolved view name and status (``klammern_site.metrics``) and logs
one line on the ``klammern.requests`` logger: method, path without the query string,
view, status and duration, and the client's address only with ``LOG_CLIENT_ADDRESS``.

``JsonFormatter`` writes one JSON object per line (``LOG_FORMAT=json`` in production):
time, level, logger, message, and the request id, view, status and duration where a
record has them; every record logged while a request runs carries its request id
(``RequestIdFilter``). Plain text stays the default (``make run``), where the request
lines are not logged (runserver logs its own).

Nothing here touches the database, and no request body, header value or cookie other
than ``X-Request-ID`` is written anywhere.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.signals import request_finished
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import BaseThrottle

from klammern_site import metrics

request_logger = logging.getLogger("klammern.requests")

#: The id of the request being answered in this thread ("" outside a request).
current_request_id: ContextVar[str] = ContextVar("current_request_id", default="")
#: An id as a proxy or client may send it; anything else is replaced by our own.
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
#: Fields a record may carry (``extra=``) that the JSON line writes beside the message.
FIELDS = ("request_id", "method", "path", "view", "status", "duration_ms", "client")


def request_id_of(request: HttpRequest) -> str:
    sent = request.META.get("HTTP_X_REQUEST_ID", "")
    return sent if REQUEST_ID.match(sent) else uuid.uuid4().hex


class RequestMiddleware:
    """Request id, metrics and the request's log line (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        # cleared when the answer is closed (``request_finished``), not here: Django logs
        # a 4xx or 5xx answer ("Not Found: ...") after the middlewares returned it
        current_request_id.set(request_id)
        started = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        view = metrics.view_name(request)
        response["X-Request-ID"] = request_id
        metrics.count_request(
            view=view, method=request.method or "", status=response.status_code, seconds=seconds
        )
        if request_logger.isEnabledFor(logging.INFO):
            log_request(
                request, request_id=request_id, view=view, response=response, seconds=seconds
            )
        return response


def log_request(
    request: HttpRequest, *, request_id: str, view: str, response: HttpResponse, seconds: float
) -> None:
    fields: dict[str, Any] = {
        "request_id": request_id,
        "method": request.method,
        "path": request.path,
        "view": view,
        "status": response.status_code,
        "duration_ms": round(seconds * 1000, 2),
    }
    if settings.LOG_CLIENT_ADDRESS:
        fields["client"] = str(BaseThrottle().get_ident(request))
    request_logger.info(
        "%s %s %s %.1f ms", request.method, view, response.status_code, seconds * 1000, extra=fields
    )


@receiver(request_finished)
def forget_request_id(**kwargs: Any) -> None:
    current_request_id.set("")


class RequestIdFilter(logging.Filter):
    """Gives every record logged during a request that request's id."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = current_request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the
    request's fields where the record has them, and the exception's traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value not in (None, ""):
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)
