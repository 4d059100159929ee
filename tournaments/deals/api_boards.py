"""The boards and travellers of a duplicate tournament over the API (RULES.md,
"Duplicate tournaments"), read only, visible exactly as their pages are:

- ``GET /api/rounds/{round}/boards/`` and ``.../boards/{board}/``: the cards of the
  round's boards (dealer, upcard, the four hands). The club's organisers at any time
  (the print page), a table's device the boards its table plays in that round (the
  tablet), everyone who may see the tournament once the round is closed (each traveller
  page shows its board);
- ``GET /api/rounds/{round}/boards/{board}/traveller/``: every table's result of the
  board with each direction's match points and, once the round is closed, the par in
  the contract each table played. The club's organisers at any time, everyone who may
  see the tournament once the round is closed (a table still playing the board would
  otherwise learn the other tables' results); a device reads it as everyone does.

Refusals, each with its stable ``code``: ``not_found`` (404: no such round, or not
visible to the caller), ``not_duplicate`` (404: the tournament is not played in
duplicate), ``board_not_found`` (404: no such board in the round), ``round_not_closed``
(403: only the organisers see this before the round is closed), ``not_your_round``
(403: a device asking for the boards of a round its table does not play).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody
from tournaments.clubs.permissions import organises_club
from tournaments.common.errors import Forbidden, NotFound
from tournaments.deals import travellers
from tournaments.events.models import DeviceCredential, Match, Round
from tournaments.events.permissions import device_of, visible_tournaments
from tournaments.events.selectors import round_boards, tournament_board
from tournaments.formats import format_profile
from tournaments.formats.boards import Board

#: Round states everyone else sees a round in (as the pages' ``COUNTED``).
SHOWN = (Round.Status.PUBLISHED, Round.Status.CLOSED)

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"code": "...", "detail": "..."}')

BOARD = inline_serializer(
    "DuplicateBoard",
    {
        "number": serializers.IntegerField(),
        "dealer": serializers.IntegerField(help_text="The dealer's seat, 0-3."),
        "upcard": serializers.CharField(
            allow_blank=True, help_text="The card turned up; empty where the game turns none."
        ),
        "hands": serializers.ListField(
            child=serializers.ListField(child=serializers.CharField()),
            help_text="Each seat's cards, seat 0 first (seats 1+3 North-South).",
        ),
        "stock": serializers.ListField(
            child=serializers.CharField(),
            help_text="Belote: the cards dealt after the take, in order from forehand (the "
            "taker gets the upcard and two, the others three); empty in other games.",
        ),
    },
)
BOARDS = inline_serializer(
    "DuplicateBoards",
    {
        "tournament": serializers.IntegerField(),
        "round": serializers.IntegerField(),
        "round_number": serializers.IntegerField(),
        "boards": BOARD.__class__(many=True),
    },
)
TRAVELLER_ROW = inline_serializer(
    "TravellerRow",
    {
        "table": serializers.IntegerField(),
        "match": serializers.IntegerField(),
        "sides": serializers.ListField(
            child=serializers.CharField(), help_text="Seats 1+3, then seats 2+4."
        ),
        "contract": serializers.CharField(allow_blank=True, help_text="The contract's kind."),
        "trump": serializers.CharField(allow_blank=True),
        "declarer": serializers.IntegerField(allow_null=True, help_text="Seat 0-3."),
        "outcome": serializers.CharField(allow_blank=True),
        "points": serializers.ListField(
            child=serializers.IntegerField(),
            help_text="The board result per direction, compared for the match points "
            "(Klammern: a failed game gives the defenders all the points).",
        ),
        "deal_points": serializers.ListField(
            child=serializers.IntegerField(),
            help_text="The deal's points per team as the hand record shows them.",
        ),
        "match_points": serializers.ListField(child=serializers.IntegerField()),
        "par": serializers.ListField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text="The board under perfect play in this table's contract, as a "
            "board result; null before the round is closed or when there is none.",
        ),
        "par_deal_points": serializers.ListField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text="The same par in deal points, as the hand record shows it.",
        ),
    },
)
TRAVELLER = inline_serializer(
    "Traveller",
    {
        "tournament": serializers.IntegerField(),
        "round": serializers.IntegerField(),
        "round_number": serializers.IntegerField(),
        "board": BOARD,
        "closed": serializers.BooleanField(),
        "top": serializers.IntegerField(help_text="The most match points a result can get."),
        "rows": TRAVELLER_ROW.__class__(many=True),
    },
)

NOT_FOUND = _("No such round.")
NOT_DUPLICATE = _("This tournament is not played in duplicate.")
NO_BOARD = _("This round has no board %(board)s.")
NOT_CLOSED = _("Only the organisers see this before the round is closed.")
NOT_YOUR_ROUND = _("A table's device sees only the boards its table plays.")


def _round(request: Request, round_id: int) -> Round:
    """The round if its tournament is a duplicate one the caller may see."""
    device = device_of(request)
    rounds = Round.objects.select_related("tournament__club")
    if device is None:
        rounds = rounds.filter(tournament__in=visible_tournaments(request.user))
    round_ = rounds.filter(pk=round_id, stage=Round.Stage.PRELIMINARY).first()
    if round_ is None:
        raise NotFound("not_found", NOT_FOUND)
    organiser = organises_club(request.user, round_.tournament.club_id)
    if not organiser and round_.status not in SHOWN:
        raise NotFound("not_found", NOT_FOUND)
    if not format_profile(round_.tournament).boards:
        raise NotFound("not_duplicate", NOT_DUPLICATE)
    return round_


def _device_boards(device: DeviceCredential, round_: Round) -> list[Board]:
    """The boards the device's table plays in ``round_``, as its tablet shows them: one
    per planned deal, or per deal entered if more."""
    match = Match.objects.filter(table_id=device.table_id, round=round_).first()
    if match is None:
        raise Forbidden("not_your_round", NOT_YOUR_ROUND)
    count = max(match.deals_planned or 0, match.deals.count())
    boards = (
        tournament_board(round_.tournament, round_number=round_.number, number=n)
        for n in range(1, count + 1)
    )
    return [board for board in boards if board is not None]


def _shown_boards(request: Request, round_: Round) -> list[Board]:
    """The boards of ``round_`` the caller may see the cards of (module docstring)."""
    if organises_club(request.user, round_.tournament.club_id):
        return round_boards(round_)
    device = device_of(request)
    if device is not None and round_.status != Round.Status.CLOSED:
        return _device_boards(device, round_)
    if round_.status != Round.Status.CLOSED:
        raise Forbidden("round_not_closed", NOT_CLOSED)
    return round_boards(round_)


def _board_body(board: Board) -> dict[str, Any]:
    body = board.to_dict()
    return {key: body[key] for key in ("number", "dealer", "upcard", "hands", "stock")}


def _head(round_: Round) -> dict[str, Any]:
    return {"tournament": round_.tournament_id, "round": round_.pk, "round_number": round_.number}


def _board(boards: list[Board], number: int) -> Board:
    board = next((b for b in boards if b.number == number), None)
    if board is None:
        raise NotFound("board_not_found", NO_BOARD, params={"board": number})
    return board


class RoundBoardsView(ParsedBody, APIView):
    """The cards of the boards of a round of a duplicate tournament."""

    permission_classes = [AllowAny]
    throttle_scope = "deals"

    @extend_schema(
        operation_id="rounds_boards_list",
        responses={200: BOARDS, 403: ERROR, 404: ERROR},
        description="The round's boards (dealer, upcard, each seat's hand): the club's "
        "organisers at any time, a table's device the boards its table plays, everyone "
        "who may see the tournament once the round is closed.",
    )
    def get(self, request: Request, round_id: int) -> Response:
        round_ = _round(request, round_id)
        boards = _shown_boards(request, round_)
        return Response({**_head(round_), "boards": [_board_body(b) for b in boards]})


class RoundBoardView(ParsedBody, APIView):
    """The cards of one board of a round of a duplicate tournament."""

    permission_classes = [AllowAny]
    throttle_scope = "deals"

    @extend_schema(
        operation_id="rounds_boards_retrieve",
        responses={200: BOARD, 403: ERROR, 404: ERROR},
        description="One board's cards, visible as the round's boards are.",
    )
    def get(self, request: Request, round_id: int, board: int) -> Response:
        round_ = _round(request, round_id)
        return Response(_board_body(_board(_shown_boards(request, round_), board)))


class BoardTravellerView(ParsedBody, APIView):
    """Every table's result of one board, its match points and (closed rounds) its par."""

    permission_classes = [AllowAny]
    throttle_scope = "deals"

    @extend_schema(
        responses={200: TRAVELLER, 403: ERROR, 404: ERROR},
        description="The board's traveller: every table's result of it with each "
        "direction's match points, and its par once the round is closed. The club's "
        "organisers at any time, everyone who may see the tournament once the round is "
        "closed.",
    )
    def get(self, request: Request, round_id: int, board: int) -> Response:
        round_ = _round(request, round_id)
        if not travellers.may_see_travellers(request.user, round_):
            raise Forbidden("round_not_closed", NOT_CLOSED)
        if not 1 <= board <= round_.tournament.deals_per_match:
            raise NotFound("board_not_found", NO_BOARD, params={"board": board})
        found = travellers.traveller(round_, board)
        body = {
            **_head(round_),
            "board": _board_body(found["board_cards"]),
            "closed": found["closed"],
            "top": found["top"],
            "rows": [_traveller_row(row) for row in found["rows"]],
        }
        return Response(body)


def _traveller_row(row: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "table",
        "match",
        "sides",
        "trump",
        "outcome",
        "points",
        "deal_points",
        "match_points",
        "par",
        "par_deal_points",
    )
    out = {key: row[key] for key in keys}
    out["contract"] = row["contract_kind"]
    out["declarer"] = row["declarer_seat"]
    return out
