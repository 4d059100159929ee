"""``GET /api/matches/{match}/deals/{number}/analysis/``: the engine's par analysis of
a deal's current version; ``GET .../line/?after=<plays>[&card=<card>]``: a perfect line
from a position of it (after a card of the caller's choice there, if given), solved on
request.

Visible as the hand record page is (``tournaments.deals.hand_records.may_see_hand_records``): the
table's device and the club's organisers at once, everyone else once the round is closed
and where the tournament's ``hand_records_public`` allows; anyone else gets 404.
``status`` is ``pending`` until the worker has analysed the version.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.deals import hand_records, replay
from tournaments.events.models import Match
from tournaments.events.permissions import device_of, visible_tournaments

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"detail": "..."}')

ANALYSIS_RESPONSE = inline_serializer(
    "DealAnalysis",
    {
        "match": serializers.IntegerField(),
        "number": serializers.IntegerField(),
        "version": serializers.IntegerField(help_text="The deal version analysed."),
        "status": serializers.ChoiceField(["done", "pending"]),
        "analysed": serializers.BooleanField(
            help_text="False for a summary record (error code summary_not_analysable)."
        ),
        "analysis_version": serializers.CharField(allow_blank=True),
        "analysis": serializers.JSONField(
            allow_null=True,
            help_text="The engine's analysis (docs/analysis.md): par, par_outcome, "
            "par_small_points, par_match_points, makeable (per trump and playing team), and "
            "per play {play, trick, seat, card, par, par_outcome, cost, best, values (each "
            "legal card's cost), line (after a costly play: a perfect line from there)}.",
        ),
    },
)


class DealAnalysisView(ParsedBody, APIView):
    """The par analysis of deal ``number`` of a match."""

    permission_classes: list[Any] = []
    throttle_scope = "deals"

    def get_match(self, request: Request, match_id: int) -> Match:
        """The match, if the caller may see its hand records (else 404)."""
        matches = Match.objects.select_related("round__tournament", "table")
        device = device_of(request)
        if device is None:
            matches = matches.filter(round__tournament__in=visible_tournaments(request.user))
        match = get_object_or_404(matches, pk=match_id)
        if not hand_records.may_see_hand_records(request.user, match, device=device):
            raise Http404
        return match

    @extend_schema(
        responses={200: ANALYSIS_RESPONSE, 403: ERROR, 404: ERROR},
        description="The par analysis (perfect play with all hands open) of the deal's "
        "current version, with the cost of every play. Visible to the table's device and "
        "the organisers at once, to everyone else after the round is closed if the "
        "tournament makes hand records public.",
    )
    def get(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id)
        version = hand_records.current_version(match, number)
        if version is None:
            raise Http404
        stored = getattr(version, "analysis", None)
        return Response(
            {
                "match": match.pk,
                "number": number,
                "version": version.version,
                "status": "pending" if stored is None else "done",
                "analysed": bool(stored and stored.analysed),
                "analysis_version": stored.analysis_version if stored else "",
                "analysis": stored.analysis if stored else None,
            }
        )


class LineQuery(serializers.Serializer[Any]):
    """``after``: how many plays of the record come first; ``card``: the card to try there."""

    after = serializers.IntegerField(min_value=0)
    card = serializers.CharField(required=False, max_length=3)


LINE_RESPONSE = inline_serializer(
    "DealLine",
    {
        "match": serializers.IntegerField(),
        "number": serializers.IntegerField(),
        "version": serializers.IntegerField(help_text="The deal version."),
        "after": serializers.IntegerField(),
        "card": serializers.CharField(required=False, help_text="The card tried, if any."),
        "cost": serializers.IntegerField(required=False, help_text="What that card costs."),
        "par": serializers.ListField(child=serializers.IntegerField()),
        "line": serializers.JSONField(help_text="[{play, trick, seat, card}, ...]"),
    },
)


class DealLineView(DealAnalysisView):
    """A perfect line from a position of deal ``number`` of a match."""

    @extend_schema(
        parameters=[LineQuery],
        responses={200: LINE_RESPONSE, 400: ERROR, 404: ERROR},
        description="The rest of the deal with perfect play (all hands open) from the "
        "position after `after` plays of the current version, or after `card` there "
        "(a legal card of the seat to play). Errors: `bad_position`, `bad_card`, "
        "`summary_not_analysable`, `game_not_analysable`, `thrown_in`, `invalid`. Visible "
        "as the hand record is.",
    )
    def get(self, request: Request, match_id: int, number: int) -> Response:
        match = self.get_match(request, match_id)
        version = hand_records.current_version(match, number)
        if version is None:
            raise Http404
        query = LineQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        out = replay.line_after(
            version, after=query.validated_data["after"], card=query.validated_data.get("card")
        )
        body = {"match": match.pk, "number": number, "version": version.version}
        body.update({k: out[k] for k in ("after", "card", "cost", "par", "line") if k in out})
        return Response(body)
