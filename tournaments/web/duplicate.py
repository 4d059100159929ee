"""The pages of a duplicate tournament (RULES.md, "Duplicate tournaments"): the boards
of a round to print for the dealer (console, A4, as bridge hand records), the list of
a tournament's boards and each board's traveller (every table's result of it, match
points and par), linked from the standings.

The reads are ``tournaments.deals.travellers``; a tournament that is not played in
duplicate has none of these pages (404).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments.clubs.permissions import organises_club
from tournaments.common.engine_messages import suit_context
from tournaments.deals import travellers
from tournaments.events.models import Round, Tournament
from tournaments.events.permissions import visible_tournaments
from tournaments.events.selectors import tournament_suits
from tournaments.formats import format_profile

from . import csv_export
from .console import organiser_required
from .selectors import COUNTED


def _duplicate_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(visible_tournaments(request.user).select_related("club"), pk=pk)
    if not format_profile(tournament).boards:
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


def traveller_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """``/tournaments/<t>/travellers.csv``: every board's traveller of the rounds the
    caller may see (closed ones; the organisers' also while played), one row per table
    and board: round, board, table, the pairs, contract, result, each direction's board
    result and match points."""
    tournament = _duplicate_tournament(request, pk)
    rounds = [
        r
        for r in _shown_rounds(request, tournament)
        if travellers.may_see_travellers(request.user, r)
    ]
    for round_ in rounds:
        round_.tournament = tournament
    response, writer = csv_export.csv_response(f"{tournament.slug}-travellers.csv")
    writer.writerow([str(heading) for heading in TRAVELLER_HEADINGS])
    for row in travellers.traveller_rows(rounds):
        writer.writerow(csv_export.row(_traveller_line(row)))
    return response


#: The traveller export's columns, in the reader's language.
TRAVELLER_HEADINGS = (
    pgettext_lazy("traveller csv", "Round"),
    pgettext_lazy("traveller csv", "Board"),
    pgettext_lazy("traveller csv", "Table"),
    pgettext_lazy("traveller csv", "North-South"),
    pgettext_lazy("traveller csv", "East-West"),
    pgettext_lazy("traveller csv", "Contract"),
    pgettext_lazy("traveller csv", "Declarer"),
    pgettext_lazy("traveller csv", "Result"),
    pgettext_lazy("traveller csv", "Deal points NS"),
    pgettext_lazy("traveller csv", "Deal points EW"),
    pgettext_lazy("traveller csv", "Board result NS"),
    pgettext_lazy("traveller csv", "Board result EW"),
    pgettext_lazy("traveller csv", "Match points NS"),
    pgettext_lazy("traveller csv", "Match points EW"),
)


def _traveller_line(row: dict[str, Any]) -> list[Any]:
    """One table's result of a board in the export's columns, in words."""
    if row["thrown_in"]:
        contract = _("thrown in")
    else:
        contract = f"{row['contract']} {csv_export.suit_word(row['trump'])}".strip()
    return [
        row["round"],
        row["number"],
        row["table"],
        row["sides"][0],
        row["sides"][1],
        contract,
        row["declarer"],
        csv_export.outcome_word(row["outcome"]),
        *row["deal_points"],
        *row["points"],
        *row["match_points"],
    ]


@organiser_required
def print_boards(request: HttpRequest, pk: int) -> HttpResponse:
    """``/console/rounds/<r>/boards/``: the round's boards for the dealer, on A4."""
    round_ = get_object_or_404(
        Round.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("tournament__club"),
        pk=pk,
    )
    if not format_profile(round_.tournament).boards:
        raise Http404("This tournament is not played in duplicate.")
    context = {
        "round": round_,
        "tournament": round_.tournament,
        "boards": travellers.round_board_views(round_),
        **suit_context(tournament_suits(round_.tournament)),
    }
    return render(request, "console/print_boards.html", context)
