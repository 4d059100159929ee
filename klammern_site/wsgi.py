"""WSGI entry point (``gunicorn klammern_site.wsgi``).

Django sizes a request body by ``Content-Length`` alone, so a chunked body (which a
server such as gunicorn de-chunks and ends, saying so with ``wsgi.input_terminated``)
would reach the views empty. ``SizedChunkedBodies`` reads such a body first, at most one
byte past ``DATA_UPLOAD_MAX_MEMORY_SIZE``: longer is answered 413 at once, otherwise the
request goes on with the bytes and their length, as if the client had sent it.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klammern_site.settings")

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
App = Callable[[Environ, StartResponse], Iterable[bytes]]


class SizedChunkedBodies:
    """WSGI middleware: gives a chunked request body its length, or refuses it (413)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None or not self.unsized(environ):
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            return self.too_large(limit, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)

    @staticmethod
    def unsized(environ: Environ) -> bool:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        return (
            chunked
            and not environ.get("CONTENT_LENGTH")
            and environ.get("wsgi.input_terminated", False)
        )

    @staticmethod
    def too_large(limit: int, start_response: StartResponse) -> list[bytes]:
        detail = f"The request body is too large: at most {limit} bytes are accepted."
        body = json.dumps({"code": "body_too_large", "detail": detail, "limit": limit}).encode()
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ]
        start_response("413 Request Entity Too Large", headers)
        return [body]


application = SizedChunkedBodies(get_wsgi_application())
