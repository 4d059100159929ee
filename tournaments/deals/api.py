"""Deal endpoints: list a match's deals, enter deal n, read it, correct it.

``POST /api/matches/{match}/deals/{number}/`` enters a deal; ``PUT`` on the same URL
corrects it with ``If-Match``. Both need an ``Idempotency-Key`` header. Who may call:
the device of the match's table and organisers of the club (write and read); everyone
else may read deals of public tournaments' published rounds, and the captains (and the
league's organisers) those of their league match days, which are hidden tournaments,
as far as ``tournaments.deals.visibility`` allows (a duplicate round's deals only once
the round is closed: 403 ``round_not_closed``).

A correction's body is the deal record, or ``{"record": {...}, "reason": "..."}`` to
say why (at most 500 characters, refused beyond: ``reason_too_long``). Refusals are
``tournaments.common.errors`` answered by the project's exception handler; a caller who may not
see the match gets 404 for its deals too.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.generics import ListAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Deal, DealVersion
from klammern_site.parsers import ParsedBody
from tournaments.access.throttles import CountedTogether
from tournaments.clubs.permissions import organises_club
from tournaments.common.errors import PreconditionRequired, Refused
from tournaments.common.validators import validate_text
from tournaments.deals import services, visibility
from tournaments.deals.serializers import DealSerializer, deal_body
from tournaments.events.models import DeviceCredential, Match, Round
from tournaments.events.permissions import device_of
from tournaments.leagues.permissions import reads_league_match_day

#: Round states whose deals only the club's organisers see.
HIDDEN_ROUNDS = (Round.Status.DRAWING, Round.Status.DRAFT)
ENVELOPE = frozenset({"record", "reason"})
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="A new random key per deal entry (e.g. a UUID). A retry with the same key "
    "and body replays the first response; the same key with another body is 422.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description='The version being corrected, as returned in ETag, e.g. "1".',
)
ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"detail": "...", "errors"?: [...]}')
DEAL_RECORD = {
    "application/json": {
        "type": "object",
        "description": "A deal record, format klammern-deal/1 (see the deal-record spec).",
        "additionalProperties": True,
    }
}


class MatchAccess(ParsedBody, CountedTogether, APIView):
    """Finds the match and checks the caller's role for it. JSON only, and the
    throttles' counters raised in one round trip: deal entry is the hot path."""

    permission_classes: list[Any] = []
    renderer_classes = [JSONRenderer]
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
                raise PermissionDenied(_("This device belongs to another table."))
            return match
        if organises_club(request.user, match.round.tournament.club_id):
            return match
        if write:
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            raise PermissionDenied(_("Only this table's device or an organiser may enter deals."))
        tournament = match.round.tournament
        if match.round.status in HIDDEN_ROUNDS:
            raise Http404  # as the match itself answers: what one may not see is not there
        if not tournament.is_public and not reads_league_match_day(request.user, tournament.pk):
            raise Http404
        visibility.require_deals_visible(request.user, match)
        return match

    def deals(self, match: Match) -> QuerySet[Deal]:
        return Deal.objects.filter(match=match).prefetch_related("versions").select_related("match")


def idempotency_key(request: Request) -> str:
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        raise Refused(
            "idempotency_key_missing",
            _(
                "The Idempotency-Key header is required: send a new random key "
                "(e.g. a UUID) with each deal, and the same key when retrying."
            ),
        )
    if len(key) > 255:
        raise Refused(
            "idempotency_key_too_long", _("The Idempotency-Key may be at most 255 characters.")
        )
    return key


def record_of(request: Request) -> dict[str, Any]:
    """The deal record of an entry's body."""
    if not isinstance(request.data, dict):
        raise Refused("not_a_record", _("The body must be a deal record (a JSON object)."))
    return dict(request.data)


def correction_of(request: Request) -> tuple[dict[str, Any], str]:
    """The record and the reason of a correction's body: the record itself, or
    ``{"record": {...}, "reason": "..."}``."""
    body = record_of(request)
    if "record" not in body or "format" in body:
        return body, ""
    record, reason = body.get("record"), body.get("reason", "")
    if not isinstance(record, dict) or not isinstance(reason, str) or set(body) - ENVELOPE:
        raise Refused(
            "bad_correction",
            _('A correction is a deal record or {"record": {...}, "reason": "..."}.'),
        )
    return record, checked_reason(reason)


#: The longest reason of a correction: said, not cut.
MAX_REASON = 500


def checked_reason(reason: str) -> str:
    """The reason as typed: at most ``MAX_REASON`` characters, no control characters."""
    if len(reason) > MAX_REASON:
        raise Refused(
            "reason_too_long",
            _("The reason may be at most %(max)d characters long; it has %(length)d."),
            params={"max": MAX_REASON, "length": len(reason)},
        )
    try:
        validate_text(reason)
    except ValidationError as exc:
        raise Refused(f"reason_{exc.code}", exc.messages[0]) from exc
    return reason


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
        "one is 400 with the engine's `errors` (each `message` in the caller's language) and "
        "nothing is stored. A second entry of the same deal number is 409 `deal_exists`; a "
        "number beyond the next is 409 `deal_not_next` (a gap may be filled); a dealer out "
        "of turn is 400 `wrong_dealer`.",
    )
    def post(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id, write=True)
        key, record = idempotency_key(request), record_of(request)
        device = device_of(request)
        return as_response(
            enter_once(
                path=request.path,
                match=match,
                number=number,
                record=record,
                key=key,
                device=device,
                user=None if device else request.user,
            )
        )

    @extend_schema(
        request=DEAL_RECORD,
        parameters=[IDEMPOTENCY_KEY, IF_MATCH],
        responses={
            200: DealSerializer,
            400: ERROR,
            403: ERROR,
            404: ERROR,
            409: ERROR,
            412: ERROR,
            422: ERROR,
            428: ERROR,
        },
        description="Correct deal `number`: a new version replaces the one named in "
        "`If-Match` (412 if that is no longer current). A device can correct only until "
        "both teams confirmed the match; organisers always.",
    )
    def put(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id, write=True)
        key, (record, reason) = idempotency_key(request), correction_of(request)
        expected = expected_version(request)
        device = device_of(request)
        return as_response(
            correct_once(
                path=request.path,
                match=match,
                number=number,
                record=record,
                reason=reason,
                key=key,
                expected=expected,
                device=device,
                user=None if device else request.user,
            )
        )


def idempotency_scope(device: DeviceCredential | None, user: Any) -> str:
    return f"device:{device.pk}" if device else f"user:{user.pk}"


def enter_once(
    *,
    path: str,
    match: Match,
    number: int,
    record: dict[str, Any],
    key: str,
    device: DeviceCredential | None,
    user: Any,
) -> services.ApiResult:
    """Enter deal ``number`` once per Idempotency-Key (a retry replays the answer)."""

    def operation() -> services.ApiResult:
        version = services.submit_deal(
            match=match, number=number, record=record, user=user, device=device
        )
        return deal_result(version, status_code=status.HTTP_201_CREATED)

    return services.execute_idempotently(
        scope=idempotency_scope(device, user),
        key=key,
        operation=operation,
        request_hash=services.request_fingerprint(method="POST", path=path, body=record),
    )


def correct_once(
    *,
    path: str,
    match: Match,
    number: int,
    record: dict[str, Any],
    key: str,
    expected: int,
    reason: str,
    device: DeviceCredential | None,
    user: Any,
) -> services.ApiResult:
    """Correct deal ``number`` (``expected``: the version replaced) once per key."""

    def operation() -> services.ApiResult:
        version = services.correct_deal(
            match=match,
            number=number,
            expected_version=expected,
            record=record,
            user=user,
            device=device,
            reason=reason,
        )
        earlier = list(version.deal.versions.exclude(pk=version.pk))
        return deal_result(version, status_code=status.HTTP_200_OK, earlier=earlier)

    return services.execute_idempotently(
        scope=idempotency_scope(device, user),
        key=key,
        operation=operation,
        request_hash=services.request_fingerprint(
            method="PUT",
            path=path,
            body={"record": record, "reason": reason},
            precondition=str(expected),
        ),
    )


def expected_version(request: Request) -> int:
    raw = request.headers.get("If-Match", "").strip()
    if not raw:
        raise PreconditionRequired(
            "if_match_missing",
            _('A correction needs If-Match: "<version>" naming the version it replaces.'),
        )
    try:
        return int(raw.removeprefix("W/").strip().strip('"'))
    except ValueError as exc:
        raise Refused("bad_if_match", _('If-Match must be a version like "2".')) from exc
