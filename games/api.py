"""Deal endpoints: list a match's deals, enter deal n, read it, correct it.

``POST /api/matches/{match}/deals/{number}/`` enters a deal; ``PUT`` on the same URL
corrects it with ``If-Match``. Both need an ``Idempotency-Key`` header. Who may call:
the device of the match's table and organisers of the club (write and read); everyone
else may read deals of public tournaments' published rounds.

``device_deal_entry`` (routed in ``klammern_site/urls.py`` before the API) answers a
table device's plain entries and corrections without DRF's dispatch, byte for byte as
``DealDetailView`` would; everything else goes to that view, which the schema documents.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import (
    APIException,
    NotAuthenticated,
    PermissionDenied,
    Throttled,
    ValidationError,
)
from rest_framework.generics import ListAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils import json as drf_json
from rest_framework.views import APIView

from tournaments.authentication import find_entry_credential
from tournaments.models import DeviceCredential, Match, Round
from tournaments.permissions import device_of, organises_club
from tournaments.throttles import CountsInOneRoundTrip, throttle_waits

from . import services
from .models import Deal, DealVersion
from .serializers import DealSerializer, deal_body

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=True,
    description="A new random key per deal entry (e.g. a UUID). A retry with the same key "
    "and body replays the first response; the same key with another body is 422.",
)  # fmt: skip
IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=True,
    description='The version being corrected, as returned in ETag, e.g. "1".',
)  # fmt: skip
REASON = OpenApiParameter("reason", str, description="Why the deal is corrected (optional).")
ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"detail": "...", "errors"?: [...]}')
DEAL_RECORD = {
    "application/json": {
        "type": "object",
        "description": "A deal record, format klammern-deal/1 (see the deal-record spec).",
        "additionalProperties": True,
    }
}


class MatchAccess(CountsInOneRoundTrip, APIView):
    """Finds the match and checks the caller's role for it."""

    permission_classes: list[Any] = []
    throttle_scope = "deals"

    def get_match(self, request: Request, match_id: int, *, write: bool) -> Match:
        device = device_of(request)
        own = getattr(device.table, "match", None) if device is not None else None
        if own is not None and own.pk == match_id:
            own.round = device.table.round  # loaded with the credential, tournament too
            return own
        match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=match_id)
        if device is not None:
            if device.table_id != match.table_id:
                raise PermissionDenied("This device belongs to another table.")
            return match
        if organises_club(request.user, match.round.tournament.club_id):
            return match
        if write:
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            raise PermissionDenied("Only this table's device or an organiser may enter deals.")
        tournament = match.round.tournament
        if not tournament.is_public or match.round.status == Round.Status.DRAFT:
            raise PermissionDenied("This tournament's results are not public.")
        return match

    def deals(self, match: Match) -> QuerySet[Deal]:
        return Deal.objects.filter(match=match).prefetch_related("versions").select_related("match")


def idempotency_key(request: Request) -> str:
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        raise ValidationError(
            {"detail": "The Idempotency-Key header is required: send a new random key "
                       "(e.g. a UUID) with each deal, and the same key when retrying."}
        )  # fmt: skip
    if len(key) > 255:
        raise ValidationError({"detail": "The Idempotency-Key may be at most 255 characters."})
    return key


def record_of(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ValidationError({"detail": "The body must be a deal record (a JSON object)."})
    return dict(request.data)


def as_response(result: services.ApiResult) -> Response:
    return Response(result.body, status=result.status_code, headers=result_headers(result))


def result_headers(result: services.ApiResult) -> dict[str, str]:
    """The headers an entry's or correction's answer carries besides the view's own."""
    headers = {}
    if result.etag:
        headers["ETag"] = result.etag
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    return headers


def deal_result(
    version: DealVersion, *, status_code: int, earlier: list[DealVersion] | None = None
) -> services.ApiResult:
    """The response to an entry or correction, built from the rows just written (with
    the deal and its match attached by the service); ``earlier``: the versions before."""
    body = deal_body(version, history=[*(earlier or []), version])
    return services.ApiResult(status_code, body, etag=f'"{version.version}"')


class DealListView(MatchAccess, ListAPIView):
    """Every deal of a match with its current version and history."""

    serializer_class = DealSerializer

    def get_queryset(self) -> QuerySet[Deal]:
        if getattr(self, "swagger_fake_view", False):
            return Deal.objects.none()
        match = self.get_match(self.request, self.kwargs["match_id"], write=False)
        return self.deals(match).order_by("number")


class PreconditionRequired(services.ServiceError):
    status_code = 428


class DealDetailView(MatchAccess):
    """Deal ``number`` of a match: read (GET), enter (POST), correct (PUT)."""

    @extend_schema(responses={200: DealSerializer, 403: ERROR, 404: ERROR})
    def get(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id, write=False)
        deal = get_object_or_404(self.deals(match), number=number)
        body = DealSerializer(deal).data
        return Response(body, headers={"ETag": f'"{body["version"]}"'})

    @extend_schema(
        request=DEAL_RECORD,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: DealSerializer, 400: ERROR, 403: ERROR, 409: ERROR, 422: ERROR},
        description="Enter deal `number`. The rules engine validates the record; an invalid "
        "one is 400 with the engine's `errors` and nothing is stored. A second entry of the "
        "same deal number is 409.",
    )  # fmt: skip
    def post(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id, write=True)
        key, record = idempotency_key(request), record_of(request)
        device = device_of(request)
        return as_response(enter_once(
            path=request.path, match=match, number=number, record=record, key=key,
            device=device, user=None if device else request.user,
        ))  # fmt: skip

    @extend_schema(
        request=DEAL_RECORD,
        parameters=[IDEMPOTENCY_KEY, IF_MATCH, REASON],
        responses={200: DealSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR,
                   412: ERROR, 422: ERROR, 428: ERROR},
        description="Correct deal `number`: a new version replaces the one named in "
        "`If-Match` (412 if that is no longer current). A device can correct only until "
        "both teams confirmed the match; organisers always.",
    )  # fmt: skip
    def put(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id, write=True)
        key, record = idempotency_key(request), record_of(request)
        expected = expected_version(request)
        device = device_of(request)
        return as_response(correct_once(
            path=request.path, match=match, number=number, record=record, key=key,
            expected=expected, reason=request.query_params.get("reason", "")[:500],
            device=device, user=None if device else request.user,
        ))  # fmt: skip


def idempotency_scope(device: DeviceCredential | None, user: Any) -> str:
    return f"device:{device.pk}" if device else f"user:{user.pk}"


def enter_once(
    *, path: str, match: Match, number: int, record: dict[str, Any], key: str,
    device: DeviceCredential | None, user: Any,
) -> services.ApiResult:  # fmt: skip
    """Enter deal ``number`` once per Idempotency-Key (a retry replays the answer)."""

    def operation() -> services.ApiResult:
        version = services.submit_deal(
            match=match, number=number, record=record, user=user, device=device
        )
        return deal_result(version, status_code=status.HTTP_201_CREATED)

    return services.execute_idempotently(
        scope=idempotency_scope(device, user), key=key, operation=operation,
        request_hash=services.request_fingerprint(method="POST", path=path, body=record),
    )  # fmt: skip


def correct_once(
    *, path: str, match: Match, number: int, record: dict[str, Any], key: str,
    expected: int, reason: str, device: DeviceCredential | None, user: Any,
) -> services.ApiResult:  # fmt: skip
    """Correct deal ``number`` (``expected``: the version replaced) once per key."""

    def operation() -> services.ApiResult:
        version = services.correct_deal(
            match=match, number=number, expected_version=expected, record=record,
            user=user, device=device, reason=reason,
        )  # fmt: skip
        earlier = list(version.deal.versions.exclude(pk=version.pk))
        return deal_result(version, status_code=status.HTTP_200_OK, earlier=earlier)

    return services.execute_idempotently(
        scope=idempotency_scope(device, user), key=key, operation=operation,
        request_hash=services.request_fingerprint(
            method="PUT", path=path, body=record, precondition=str(expected)),
    )  # fmt: skip


def expected_version(request: Request) -> int:
    raw = request.headers.get("If-Match", "").strip()
    if not raw:
        raise PreconditionRequired(
            'A correction needs If-Match: "<version>" naming the version it replaces.'
        )
    try:
        return int(raw.removeprefix("W/").strip().strip('"'))
    except ValueError as exc:
        raise ValidationError({"detail": 'If-Match must be a version like "2".'}) from exc


# --- the table device's entries without DRF's dispatch ---------------------------------

#: ``Accept`` values for which DRF's negotiation picks plain JSON (or no header at all)
PLAIN_ACCEPT = {"*/*", "application/json"}


@csrf_exempt  # a device sends its credential in a header, never an ambient cookie
def device_deal_entry(request: HttpRequest, match_id: int, number: int) -> HttpResponseBase:
    """``POST``/``PUT /api/matches/{match}/deals/{number}/`` from the match's own table
    device, as ``DealDetailView`` answers them: the same credential lookup (one plain
    query), throttles (one Redis round trip), idempotency and services, the same status,
    body and headers. Anything unusual (another method or caller, a header or body DRF
    would refuse, another match) goes to the DRF view before anything is counted or
    written; errors after that are answered by DRF's own exception handling."""
    entry = plain_device_entry(request, match_id=match_id)
    if entry is None:
        return _deal_detail_view()(request, match_id=match_id, number=number)
    device, match, key, record = entry
    request.auth = device  # type: ignore[attr-defined] # what the throttles ask, as in DRF
    try:
        throttles = [throttle() for throttle in DealDetailView.throttle_classes]
        if waits := throttle_waits(throttles, request, DealDetailView):
            raise Throttled(max(waits))
        result = _enter_or_correct(request, match=match, number=number, record=record,
                                   key=key, device=device)  # fmt: skip
    except (APIException, services.ServiceError) as exc:
        return _drf_error(request, exc, match_id=match_id, number=number)
    return plain_response(result)


def plain_device_entry(
    request: HttpRequest, *, match_id: int
) -> tuple[DeviceCredential, Match, str, dict[str, Any]] | None:
    """The device, its match, the Idempotency-Key and the record of a plain entry or
    correction by the match's own device; None for anything else. Reads only the
    credential; counts and writes nothing."""
    if request.method not in ("POST", "PUT") or not _plain_json(request):
        return None
    try:
        key = idempotency_key(request)  # type: ignore[arg-type]
        if request.method == "PUT":
            expected_version(request)  # type: ignore[arg-type]
    except (ValidationError, PreconditionRequired):
        return None
    code, record = _device_code(request), _json_object(request)
    found = find_entry_credential(code) if code is not None and record is not None else None
    if found is None or found[1].pk != match_id:
        return None
    return found[0], found[1], key, record  # type: ignore[return-value]


def _plain_json(request: HttpRequest) -> bool:
    """JSON in UTF-8, plain JSON asked for (DRF's parser and renderer, no parameters)."""
    accept = request.META.get("HTTP_ACCEPT")
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip()
    charset = request.content_params.get("charset", "utf-8").lower()
    return (
        (accept is None or accept.strip() in PLAIN_ACCEPT)
        and content_type == "application/json"
        and charset in ("utf-8", "utf8")
    )


def _device_code(request: HttpRequest) -> str | None:
    """The code of ``Authorization: Device <code>``, split as DeviceAuthentication does."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != b"device":
        return None
    return str(parts[1].decode(errors="replace"))


def _json_object(request: HttpRequest) -> dict[str, Any] | None:
    """The body as DRF's JSONParser reads it, if that is a JSON object."""
    try:
        data = drf_json.loads(request.body.decode("utf-8"))
    except ValueError:  # also UnicodeDecodeError
        return None
    return data if isinstance(data, dict) else None


def _enter_or_correct(
    request: HttpRequest, *, match: Match, number: int, record: dict[str, Any], key: str,
    device: DeviceCredential,
) -> services.ApiResult:  # fmt: skip
    if request.method == "POST":
        return enter_once(path=request.path, match=match, number=number, record=record,
                          key=key, device=device, user=None)  # fmt: skip
    return correct_once(
        path=request.path, match=match, number=number, record=record, key=key,
        expected=expected_version(request),  # type: ignore[arg-type]
        reason=request.GET.get("reason", "")[:500], device=device, user=None,
    )  # fmt: skip


def plain_response(result: services.ApiResult) -> HttpResponse:
    """``as_response(result)`` as DRF renders it: JSONRenderer's bytes, then the view's
    ``Vary`` and ``Allow``."""
    response = HttpResponse(
        JSONRenderer().render(result.body), status=result.status_code,
        content_type=JSONRenderer.media_type,
    )  # fmt: skip
    for name, value in result_headers(result).items():
        response[name] = value
    headers = dict(_deal_view_headers())
    if (vary := headers.pop("Vary", None)) is not None:
        patch_vary_headers(response, [v.strip() for v in vary.split(",")])
    for name, value in headers.items():
        response[name] = value
    return response


def _drf_error(request: HttpRequest, exc: Exception, **kwargs: Any) -> HttpResponseBase:
    """``exc`` answered by a ``DealDetailView`` as its ``dispatch`` would."""
    view = DealDetailView()
    view.setup(request, **kwargs)
    drf_request = view.initialize_request(request, **kwargs)
    view.request, view.headers, view.format_kwarg = drf_request, view.default_response_headers, None
    negotiated = view.perform_content_negotiation(drf_request)
    drf_request.accepted_renderer, drf_request.accepted_media_type = negotiated
    return view.finalize_response(drf_request, view.handle_exception(exc), **kwargs)


@lru_cache(maxsize=1)
def _deal_detail_view() -> Any:
    return DealDetailView.as_view()


@lru_cache(maxsize=1)
def _deal_view_headers() -> dict[str, str]:
    """``DealDetailView``'s own headers (``Allow``, ``Vary``): the same for every answer."""
    view = DealDetailView()
    view.setup(HttpRequest())
    return dict(view.default_response_headers)
