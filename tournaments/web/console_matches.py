"""The console's pages of one table: its deals (with the next one the organiser may enter)
and a deal's page, which enters a deal the table could not (a failed tablet, after a
forced close) or corrects an entered one, on the table's own score sheet; both send
through the REST API with the organiser's session (``console_deal.js``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import profiles
from games.models import Deal
from tournaments.common.engine_messages import (
    entry_form_context,
    sheet_error_templates,
    sheet_strings,
    suit_context,
    suit_strings,
)
from tournaments.deals import selectors as deal_selectors
from tournaments.events.models import Match, Tournament
from tournaments.events.selectors import tournament_options, tournament_profile, tournament_suits

from .console import organiser_required


def _match(request: HttpRequest, pk: int) -> Match:
    """A table match of a tournament the organiser runs, else 404."""
    return get_object_or_404(
        Match.objects.filter(
            round__tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("round__tournament", "table"),
        pk=pk,
    )


@organiser_required
def match_console(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    deals = Deal.objects.filter(match=match).prefetch_related("versions").order_by("number")
    can_enter = deal_selectors.organiser_can_enter(match)
    seats = [s.player for s in match.table.seats.select_related("player")]
    names = [player.name for player in seats]
    profile = tournament_profile(match.round.tournament)
    rows = []
    for deal in deals:
        current = next(v for v in deal.versions.all() if v.is_current)
        rows.append(
            {
                "deal": deal,
                "current": current,
                "count": len(deal.versions.all()),
                "player": _declarer_name(current.record, names) if profile.names_declarer else "",
                "revoker": _revoker_name(current.record, names),
                "cells": [
                    {"key": column.key, "value": value}
                    for column, value in zip(
                        profile.match_columns,
                        profile.match_cells(current.result or {}),
                        strict=True,
                    )
                ],
            }
        )
    return render(
        request,
        "console/match.html",
        {
            **suit_context(tournament_suits(match.round.tournament)),
            "match": match,
            "round": match.round,
            "tournament": match.round.tournament,
            "seats": seats,
            "deals": rows,
            "columns": [column.shown() for column in profile.match_columns],
            "next_number": deal_selectors.next_missing_number(match) if can_enter else None,
        },
    )


def _cells(profile: profiles.GameProfile, result: dict[str, Any]) -> list[dict[str, str]]:
    """The game's own columns of a deal (``GameProfile.match_columns``)."""
    cells = profile.match_cells(result)
    return [{"key": c.key, "value": v} for c, v in zip(profile.match_columns, cells, strict=True)]


def _declarer_name(record: dict[str, Any], names: list[str]) -> str:
    """Who played the deal (a player of the makers, or the taker)."""
    declarer = (record.get("contract") or {}).get("declarer")
    return names[declarer] if isinstance(declarer, int) and 0 <= declarer < len(names) else ""


def _revoker_name(record: dict[str, Any], names: list[str]) -> str:
    """Who revoked, for a deal that ended with a revoke ("" otherwise)."""
    seat = (record.get("revoke") or {}).get("seat")
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _sheet_config(
    match: Match, number: int, *, profile: profiles.GameProfile, seats: list[str]
) -> dict[str, Any]:
    """What the score sheet's script needs (``deal-config``): the table, its sheet and the
    texts it shows in the page's language."""
    return {
        "matchId": match.pk,
        "number": number,
        "seats": seats,
        "players": profile.players,
        "entry": profile.sheet.entry_class,
        "multipliers": tournament_options(match.round.tournament).multipliers,
        "errorTemplates": sheet_error_templates(profile),
        "strings": {
            **sheet_strings(profile),
            **suit_strings(tournament_suits(match.round.tournament)),
            "noAnswer": _(
                "The server did not answer: nothing was saved. Check the connection and save again."
            ),
        },
        "dealsPlanned": match.deals_planned,
        "backUrl": reverse("console-match", args=[match.pk]),
    }


@organiser_required
def deal_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A deal of a table in the console: an entered deal's history and the sheet to correct
    it (a PUT with If-Match), or the sheet to enter a deal the table has not entered (a
    POST), e.g. from the paper score sheet of a table whose tablet failed. Both go through
    the REST API with the organiser's session; the sheet is the table's own (Klammern,
    Klaverjas or 2/3 players)."""
    match = _match(request, pk)
    deal = Deal.objects.filter(match=match, number=number).first()
    if deal is None and not deal_selectors.may_be_entered(match, number):
        raise Http404
    tournament = match.round.tournament
    profile = tournament_profile(tournament)
    seats = [s.player.name for s in match.table.seats.select_related("player")]
    config = _sheet_config(match, number, profile=profile, seats=seats)
    context: dict[str, Any] = {
        "match": match,
        "deal": deal,
        "number": number,
        "round": match.round,
        "tournament": tournament,
        **profile.sheet.context(),
        **entry_form_context(seats, ranks=profile.ranks, suits=tournament_suits(tournament)),
    }
    if deal is None:
        config["dealer"] = deal_selectors.dealer_of(
            match, number, options=tournament_options(tournament)
        )
    else:
        versions = list(deal.versions.order_by("-version").select_related("created_by_user"))
        current = next(v for v in versions if v.is_current)
        config.update(version=current.version, record=current.record)
        history = [
            {
                "version": v,
                "player": _declarer_name(v.record, seats) if profile.names_declarer else "",
                "revoker": _revoker_name(v.record, seats),
            }
            for v in versions
        ]
        context.update(history=history, current=current)
    return render(request, "console/deal.html", {**context, "config": config})
