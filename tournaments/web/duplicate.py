"""The pages of a duplicate tournament (RULES.md, "Duplicate tournaments"): the boards
of a round to print for the dealer (console, A4, as bridge hand records), the list of
a tournament's boards and each board's traveller (every table's result of it, match
points and par), linked from the standings.

The reads are ``tournaments.deals.travellers``; a tournament that is not played in
duplicate has none of these pages (404).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.common.engine_messages import suit_context
from tournaments.common.permissions import organises_club, visible_tournaments
from tournaments.deals import travellers
from tournaments.events.models import Round, Tournament
from tournaments.events.selectors import tournament_suits

from .console import organiser_required
from .selectors import COUNTED


def _duplicate_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(visible_tournaments(request.user).select_related("club"), pk=pk)
    if not tournament.duplicate:
        raise Http404("This tournament is not played in duplicate.")
    return tournament


def _shown_rounds(request: HttpRequest, tournament: Tournament) -> list[Round]:
    rounds = tournament.rounds.filter(stage=Round.Stage.PRELIMINARY).order_by("number")
    if not organises_club(request.user, tournament.club_id):
        rounds = rounds.filter(status__in=COUNTED)
    return list(rounds)


def boards_index(request: HttpRequest, pk: int) -> HttpResponse:
    """``/tournaments/<t>/boards/``: every round's boards, each linked to its traveller."""
    tournament = _duplicate_tournament(request, pk)
    rounds = _shown_rounds(request, tournament)
    board_rounds = [
        {
            "round": round_,
            "boards": range(1, tournament.deals_per_match + 1),
            "visible": travellers.may_see_travellers(request.user, round_),
        }
        for round_ in rounds
    ]
    context = {"tournament": tournament, "rounds": rounds, "board_rounds": board_rounds}
    return render(request, "public/boards.html", context)


def board_traveller(request: HttpRequest, pk: int, number: int, board: int) -> HttpResponse:
    """``/tournaments/<t>/rounds/<r>/boards/<b>/``: one board's traveller."""
    tournament = _duplicate_tournament(request, pk)
    round_ = next((r for r in _shown_rounds(request, tournament) if r.number == number), None)
    if round_ is None or not 1 <= board <= tournament.deals_per_match:
        raise Http404("No such board.")
    round_.tournament = tournament
    visible = travellers.may_see_travellers(request.user, round_)
    context = {
        "tournament": tournament,
        "round": round_,
        "number": board,
        "visible": visible,
        "traveller": travellers.traveller(round_, board) if visible else None,
        "boards": range(1, tournament.deals_per_match + 1),
        **suit_context(tournament_suits(tournament)),
    }
    return render(request, "public/traveller.html", context)


@organiser_required
def print_boards(request: HttpRequest, pk: int) -> HttpResponse:
    """``/console/rounds/<r>/boards/``: the round's boards for the dealer, on A4."""
    round_ = get_object_or_404(
        Round.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("tournament__club"),
        pk=pk,
    )
    if not round_.tournament.duplicate:
        raise Http404("This tournament is not played in duplicate.")
    context = {
        "round": round_,
        "tournament": round_.tournament,
        "boards": travellers.round_board_views(round_),
        **suit_context(tournament_suits(round_.tournament)),
    }
    return render(request, "console/print_boards.html", context)
