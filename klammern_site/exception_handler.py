"""The one place where errors become HTTP answers of the API.

Every error body of the API is JSON with a stable machine-readable ``code`` beside a
human ``detail`` (the ``Error`` component of the OpenAPI schema):

- ``ApplicationError`` (``tournaments.common.errors``) becomes its status with
  ``{"code", "detail", "errors"?}``; the rules engine's ``errors`` of a refused deal
  record get their ``message`` in the caller's language and the game's words
  (``engine_errors``; ``code``, ``field`` and ``params`` stay as the engine gave them);
- DRF's own exceptions keep DRF's answer; a body that is a single ``detail`` gets DRF's
  code for it beside (``not_authenticated``, ``permission_denied``, ``not_found``,
  ``method_not_allowed``, ``not_acceptable``, ``unsupported_media_type``, ``throttled``,
  ``parse_error``);
- DRF's validation errors keep their field errors (``{"name": ["..."]}``,
  ``non_field_errors`` for the whole object) and get ``"code": "invalid"`` and a
  ``detail`` naming the first problem beside them (the ``ValidationError`` component);
- Django's own 404 (a path no route matches, such as ``/api/tournaments/abc/``), 400
  and 500 under ``/api/`` are JSON too (``handler404``, ``handler400``, ``handler500`` in
  ``klammern_site.urls``); other paths keep Django's pages.
- A refused CSRF check (``CSRF_FAILURE_VIEW``) is our own page in the site's layout and
  the visitor's language, never Django's debug text (JSON with ``csrf_failed`` under
  ``/api/``).

413 (``body_too_large``) and 503 (``database_unavailable``) are answered by
``klammern_site.middleware`` in the same shape.

Every error answered with a ``code`` here is counted by that code and the view's name
(``klammern_api_refusals_total``, ``klammern_site.metrics``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from klammern_site import metrics
from tournaments.common.engine_messages import engine_errors
from tournaments.common.errors import ApplicationError, InvalidRecord

INVALID = "invalid"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``."""
    response = api_error_response(exc, context)
    if response is not None and isinstance(response.data, dict) and "code" in response.data:
        request = context.get("request")
        view = metrics.view_name(request) if request is not None else metrics.UNMATCHED
        metrics.count_refusal(view=view, code=str(response.data["code"]))
    return response


def api_error_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The answer to an error raised in an API view (None: Django's 500)."""
    if isinstance(exc, ApplicationError):
        return Response(application_error_body(exc), status=exc.status)
    if isinstance(exc, Http404):  # as DRF's handler does, but keeping the code
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, APIException):
        return response
    body = response.data
    if isinstance(body, dict) and set(body) == {"detail"}:
        codes = exc.get_codes()
        if isinstance(codes, dict):  # ValidationError({"detail": "..."})
            codes = INVALID
        body["code"] = codes if isinstance(codes, str) else exc.default_code
    elif isinstance(exc, ValidationError):
        response.data = validation_body(body)
    return response


def application_error_body(exc: ApplicationError) -> dict[str, Any]:
    """The error's body, ``detail`` and each of its ``errors`` in the request's language
    (the engine writes its messages in English; each code has a translated template)."""
    body = exc.as_dict()
    if body.get("errors"):
        preset = exc.preset if isinstance(exc, InvalidRecord) else ""
        body["errors"] = engine_errors(body["errors"], preset=preset)
    return body


def validation_body(errors: Any) -> dict[str, Any]:
    """DRF's field errors with ``code`` and ``detail`` beside them."""
    fields = dict(errors) if isinstance(errors, dict) else {"non_field_errors": errors}
    return {**fields, "code": INVALID, "detail": first_problem(fields)}


def first_problem(errors: Any, prefix: str = "") -> str:
    """``"name: This field is required."``: the first message, named by its field."""
    if isinstance(errors, dict):
        for name, value in errors.items():
            label = "" if name == "non_field_errors" else f"{prefix}{name}"
            found = first_problem(value, f"{label}." if label else "")
            if found:
                return found
        return ""
    if isinstance(errors, list):
        for value in errors:
            found = first_problem(value, prefix)
            if found:
                return found
        return ""
    prefix = prefix.removesuffix(".")
    return f"{prefix}: {errors}" if prefix else str(errors)


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def api_error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: no route matches (``/api/tournaments/abc/``)."""
    if is_api(request):
        return api_error("not_found", "Not found.", 404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: Django refused the request itself (a suspicious operation)."""
    if is_api(request):
        return api_error("bad_request", "Bad request.", 400)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a bug; the API answers it in its own shape."""
    if is_api(request):
        return api_error("server_error", "A server error occurred.", 500)
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form came back without a valid security check (an old
    page, blocked cookies, a browser that hid where the form came from). The page says so
    in words and leads back to the page the form was on when that page is this site's."""
    if is_api(request):
        return api_error("csrf_failed", _("The form's security check failed."), 403)
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    return render(request, "csrf_failure.html", {"back": back}, status=403)
