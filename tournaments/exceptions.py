"""Maps service errors to JSON responses: ``{"detail": ..., "errors": [...]}``."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .services import ServiceError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body: dict[str, Any] = {"detail": exc.detail}
        if (errors := getattr(exc, "errors", None)) is not None:
            body["errors"] = errors
        return Response(body, status=exc.status_code)
    return drf_exception_handler(exc, context)
