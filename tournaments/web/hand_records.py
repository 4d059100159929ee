"""Hand record pages: one deal (the four hands, the play, par against the result and
the costly plays; an analysed deal also step by step, ``?step=<plays>``), a round's hand
records to print on A4, and the same deal page for the table's tablet
(``/t/<code>/deals/<n>/``), which sees its own deals at once.

Who may see them is ``tournaments.deals.hand_records.may_see_hand_records``; anyone else gets 404,
as for a tournament they may not see.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from tournaments.access import lockout
from tournaments.access.auth_views import too_many_failures_page
from tournaments.access.authentication import find_usable_credential
from tournaments.common.engine_messages import rank_labels_json, suit_context
from tournaments.deals import hand_records, replay
from tournaments.events.models import DeviceCredential, Match
from tournaments.events.permissions import visible_tournaments
from tournaments.events.selectors import tournament_suits
from tournaments.formats import format_profile

from .public import seating_tables


def _match(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament__club", "table"),
        pk=match_id,
        round__tournament__in=visible_tournaments(request.user),
    )
    if not hand_records.may_see_hand_records(request.user, match):
        raise Http404("These hand records are not public (yet).")
    return match


def _deal_page(request: HttpRequest, match: Match, number: int, **extra: object) -> HttpResponse:
    version = hand_records.current_version(match, number)
    if version is None:
        raise Http404("No such deal.")
    seats, profile = hand_records.seat_views(match), hand_records.match_profile(match)
    board = hand_records.summary_board(match, version)
    deal = hand_records.hand_record(
        version,
        seats,
        profile,
        board=board,
        duplicate_board=format_profile(match.round.tournament).boards,
    )
    steps = replay.deal_replay(deal, request.GET.get("step", "0"), ranks=profile.ranks)
    return render(
        request,
        "hand_records/deal.html",
        {
            "match": match,
            "round": match.round,
            "tournament": match.round.tournament,
            "deal": deal,
            "replay": steps,
            "rank_labels_json": rank_labels_json(),
            **suit_context(tournament_suits(match.round.tournament)),
            **extra,
        },
    )


def deal_hand_record(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """``/matches/<m>/deals/<n>/hand/``: one deal's hand record."""
    return _deal_page(request, _match(request, match_id), number)


def round_hand_records(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's hand records, one deal per block, to print on A4."""
    tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
    round_ = get_object_or_404(tournament.rounds, number=number)
    tables = []
    for table in seating_tables(round_):
        match = getattr(table, "match", None)
        if match is None:
            continue
        match.round = round_
        if not hand_records.may_see_hand_records(request.user, match):
            raise Http404("These hand records are not public (yet).")
        tables.append({"table": table, "deals": hand_records.match_hand_records(match)})
    return render(
        request,
        "hand_records/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": tables,
            **suit_context(tournament_suits(tournament)),
        },
    )


@never_cache
def tablet_hand_record(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The table's own deal, for its tablet, while the round is still being played."""
    credential: DeviceCredential | None = find_usable_credential(code)
    if credential is None:  # a usable code is accepted even from a locked address
        if wait := lockout.wait_after_unusable_code(request, code):
            return too_many_failures_page(request, wait)
        raise Http404("Unknown table code.")
    match = get_object_or_404(
        Match.objects.select_related("round__tournament__club", "table"),
        table_id=credential.table_id,
    )
    return _deal_page(request, match, number, tablet_code=code)
