"""Deal endpoints: list a match's deals, enter deal n, read it, correct it.

``POST /api/matches/{match}/deals/{number}/`` enters a deal; ``PUT`` on the same URL
corrects it with ``If-Match``. Both need an ``Idempotency-Key`` header. Who may call:
the device of the match's table and organisers of the club (write and read); everyone
else may read deals of public tournaments' published rounds.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Match, Round
from tournaments.permissions import device_of, organises_club

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


class MatchAccess(APIView):
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

    def scope(self, request: Request) -> str:
        device = device_of(request)
        return f"device:{device.pk}" if device else f"user:{request.user.pk}"

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
    response = Response(result.body, status=result.status_code)
    if result.etag:
        response["ETag"] = result.etag
    if result.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


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
        user = None if device else request.user

        def operation() -> services.ApiResult:
            version = services.submit_deal(
                match=match, number=number, record=record, user=user, device=device
            )
            return deal_result(version, status_code=status.HTTP_201_CREATED)

        return as_response(services.execute_idempotently(
            scope=self.scope(request), key=key, operation=operation,
            request_hash=services.request_fingerprint(
                method="POST", path=request.path, body=record),
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
        user = None if device else request.user
        reason = request.query_params.get("reason", "")[:500]

        def operation() -> services.ApiResult:
            version = services.correct_deal(
                match=match, number=number, expected_version=expected, record=record,
                user=user, device=device, reason=reason,
            )  # fmt: skip
            earlier = list(version.deal.versions.exclude(pk=version.pk))
            return deal_result(version, status_code=status.HTTP_200_OK, earlier=earlier)

        return as_response(services.execute_idempotently(
            scope=self.scope(request), key=key, operation=operation,
            request_hash=services.request_fingerprint(
                method="PUT", path=request.path, body=record, precondition=str(expected)),
        ))  # fmt: skip


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
