"""The table tablet: ``/t/<code>/`` opened from the QR code on the table card.

The page is rendered once with everything the browser needs (match id, seats, deals so
far, the device code); deals are then sent by ``tablet.js`` to the REST API with the
device code, and the score panel is refreshed from ``/t/<code>/state/`` through htmx.
The panel offers each deal's correction (the same sheet, sent by ``tablet.js`` as a PUT
with If-Match) while the API takes one from the device, and otherwise says who corrects.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from games import engine, profiles
from games.models import DealVersion
from tournaments.access import lockout
from tournaments.access.auth_views import too_many_failures_page
from tournaments.access.authentication import find_usable_credential
from tournaments.common.engine_messages import (
    entry_form_context,
    sheet_error_templates,
    sheet_strings,
    suit_names,
    suit_strings,
)
from tournaments.deals import travellers
from tournaments.deals.selectors import dealer_after, running_score
from tournaments.deals.services import device_correction_refusal
from tournaments.deals.travellers import board_view
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Match, Round, Tournament
from tournaments.events.selectors import (
    match_scores,
    tournament_board,
    tournament_options,
    tournament_profile,
    tournament_suits,
)
from tournaments.formats import FormatProfile, format_profile
from tournaments.formats import boards as duplicate

from . import preset_entry


def _credential(request: HttpRequest, code: str) -> DeviceCredential | HttpResponse:
    """The table's credential, or the page refusing the code (429 for an unusable code
    while failed codes lock the client's address, see ``tournaments.access.lockout``; a usable
    code is always accepted)."""
    credential = find_usable_credential(code)
    if credential is None:
        if wait := lockout.wait_after_unusable_code(request, code):
            return too_many_failures_page(request, wait)
        return _unusable(request)
    return credential


def _deals(match: Match) -> list[dict[str, Any]]:
    versions = DealVersion.objects.current().filter(deal__match=match).select_related("deal")
    return [
        {
            "number": v.deal.number,
            "version": v.version,
            "record": v.record,
            "result": v.result,
            "dealer": v.record.get("dealer"),
            "outcome": v.outcome,
            "winner_team": v.winner_team,
        }
        for v in versions.order_by("deal__number")
    ]


def deal_summaries(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``tablet.js`` needs of each deal to number and deal the next one."""
    return [
        {"number": d["number"], "dealer": d["dealer"], "thrownIn": d["outcome"] == "thrown_in"}
        for d in deals
    ]


def table_context(credential: DeviceCredential) -> dict[str, Any]:
    match = Match.objects.select_related("round__tournament__club", "table").get(
        table_id=credential.table_id
    )
    seats = {s.position: s.player for s in match.table.seats.select_related("player")}
    deals = _deals(match)
    score = running_score(match)
    summaries = deal_summaries(deals)
    profile = tournament_profile(match.round.tournament)
    fmt = format_profile(match.round.tournament)
    options = tournament_options(match.round.tournament)
    players = profile.players
    return {
        **_points_context(match, profile, score, deals, [seats.get(p) for p in range(players)]),
        "format_profile": fmt,
        "board_score": _board_score(match, fmt, profile, deals),
        "board_views": _board_views(match, len(deals)),
        "match": match,
        "suit_style": tournament_suits(match.round.tournament),
        "suit_names": suit_names(tournament_suits(match.round.tournament)),
        "round": match.round,
        "tournament": match.round.tournament,
        "seats": [seats.get(p) for p in range(players)],
        "deals": deals,
        # a thrown-in deal is recorded but is no planned deal (RULES.md)
        # in a duplicate tournament a thrown-in board is a board played
        "deals_played": sum(
            1 for d in deals if d["outcome"] != "thrown_in" or fmt.thrown_in_played
        ),
        "deals_thrown_in": sum(1 for d in deals if d["outcome"] == "thrown_in"),
        "deal_summaries": summaries,
        "deals_json": json.dumps(summaries),
        "next_dealer": _next_dealer(match, deals, options),
        "same_dealer_after_thrown_in": engine.same_dealer_after_thrown_in(options),
        "score": score,
        "small_big": score["small_big"],
        "liga": score.get("liga"),
        "hamburg": score.get("hamburg"),
        "team_names": [_team_name(seats, 0), _team_name(seats, 1)],
        "can_confirm": match.status == Match.Status.FINISHED,
        "summary": _confirm_summary(match, deals, seats),
        "confirmed_teams": sorted(c.team for c in match.confirmations.all()),
        "correction_lock": _correction_lock(match),
        # a closed round (or finished tournament) takes no new entries or confirmations
        # from the table: the tablet shows the closed state only
        "table_closed": match.round.status == Round.Status.CLOSED
        or match.round.tournament.status == Tournament.Status.FINISHED,
    }


def _next_dealer(match: Match, deals: list[dict[str, Any]], options: Any) -> int:
    """Who deals next: the next board's dealer in a duplicate tournament, else the
    engine's rotation after the deals entered."""
    tournament = match.round.tournament
    number = (deals[-1]["number"] if deals else 0) + 1
    board = tournament_board(tournament, round_number=match.round.number, number=number)
    if board is not None:
        return board.dealer
    return dealer_after([d["record"] for d in deals], options)


def _board_score(
    match: Match, fmt: FormatProfile, profile: profiles.GameProfile, deals: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """A duplicate table's running score (None where the table's own result counts):
    its boards played of those planned, each direction's board results summed (each
    deal gets its ``board_result``) and, once the round is closed (before, the other
    tables' results are sealed), its match points and their percentage."""
    if not fmt.boards:
        return None
    totals = [0, 0]
    for deal in deals:
        deal["board_result"] = profile.board_result(deal["result"] or {})
        totals = [totals[t] + deal["board_result"][t] for t in (0, 1)]
    table: dict[str, Any] = {}
    if not fmt.sealed(match.round.status):
        table = travellers.table_scores(match.round).get(match.table.number, {})
    return {
        "boards": len(deals),
        "planned": max(match.deals_planned or 0, len(deals)),
        "points": totals,
        "match_points": table.get("match_points"),
        "percentage": table.get("percentage"),
    }


def _board_views(match: Match, entered: int) -> list[dict[str, Any]]:
    """The boards this table plays in a duplicate tournament ([] otherwise): one per
    planned deal (a thrown-in board is one of them)."""
    tournament = match.round.tournament
    if not format_profile(tournament).boards:
        return []
    profile = tournament_profile(tournament)
    count = max(match.deals_planned or 0, entered)
    return [
        board_view(board, profile)
        for board in duplicate.round_boards(
            profile, seed=tournament.board_seed, round_number=match.round.number, count=count
        )
    ]


def _correction_lock(match: Match) -> str:
    """The code of the refusal a correction from this table would get now ("": none),
    so the score panel says in words who corrects instead of offering a dead button."""
    refusal = device_correction_refusal(match, round_status=match.round.status)
    return refusal.code if refusal else ""


def _points_context(
    match: Match,
    profile: profiles.GameProfile,
    score: dict[str, Any],
    deals: list[dict[str, Any]],
    players: list[Any],
) -> dict[str, Any]:
    """The game's sheet; for a points match also its state and the deals' rows."""
    context: dict[str, Any] = {"profile": profile, **profile.sheet.context()}
    if not profile.points_match:
        return context
    names = [p.name if p else "?" for p in players]
    state = score.get("points_match", {})
    sides = profile.side_names(names)
    winner = state.get("winner") if state.get("finished") else None
    return {
        **context,
        "points_match": state,
        "plan": _plan(tournament_options(match.round.tournament)),
        "deal_rows": preset_entry.deal_rows(deals, names, profile),
        "player_points": list(zip(names, state.get("points") or [0] * len(names), strict=False)),
        "winner_name": sides[winner] if winner is not None else "",
    }


def _plan(options: Any) -> dict[str, Any]:
    """A points match's length as its rules say: ``deals`` deals, or to ``target``."""
    return {
        "by_deals": options.match_by == "deals",
        "deals": options.deals_per_match,
        "target": options.target_points,
    }


def _confirm_summary(
    match: Match, deals: list[dict[str, Any]], seats: dict[int, Any]
) -> dict[str, Any] | None:
    """What both teams confirm once the match is over: its score in the match's own terms
    (big and small points, the Hamburg rounds or a Liga-Partie's Augen) and every deal."""
    if match.status == Match.Status.OPEN:
        return None
    names = {position: player.name for position, player in seats.items()}
    rows = [
        {
            **d,
            "declarer": names.get((d["record"].get("contract") or {}).get("declarer"), ""),
            "revoker": names.get((d["record"].get("revoke") or {}).get("seat"), ""),
        }
        for d in deals
    ]
    score = match_scores(Match.objects.filter(pk=match.pk)).get(match.pk, {})
    return {"score": score, "deals": rows}


def _team_name(seats: dict[int, Any], team: int) -> str:
    names = [seats[p].name for p in (team, team + 2) if p in seats]
    return " & ".join(names)


def _queued(request: HttpRequest) -> int | None:
    """The number of entries the tablet says it still holds (``?queued=n``), if it said."""
    value = request.GET.get("queued", "")
    return int(value) if value.isdigit() else None


def _unusable(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/unusable.html", status=404)


# The static files the tablet page loads: precached by the service worker. With manifest
# storage (DEBUG off) ``static()`` gives the hashed names, so a new deploy changes the
# worker script and the browser installs it (and its new cache) on its next check.
TABLET_ASSETS = (
    "tournaments/site.css",
    "tournaments/favicon.svg",
    "tournaments/htmx.min.js",
    "tournaments/sheet.js",
    "tournaments/tablet.js",
    *preset_entry.sheet_assets(),
)
# Raise when the worker's logic changes in a way the asset names do not show.
SERVICE_WORKER_VERSION = "1"


def service_worker_assets() -> list[str]:
    return [static(name) for name in TABLET_ASSETS]


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/t/sw.js``: keeps the tablet page and its static files for offline reloads.

    Only GET requests of the page, its state partial and ``/static/`` go through the
    worker's cache; deal entries (POST to ``/api/``) are never touched: the page's outbox
    sends them. ``never_cache`` keeps every update check going to the server.
    """
    assets = service_worker_assets()
    digest = hashlib.sha256("\n".join([SERVICE_WORKER_VERSION, *assets]).encode()).hexdigest()
    body = render_to_string(
        "tablet/sw.js",
        {"cache_name": f"klammern-tablet-{digest[:12]}", "assets_json": json.dumps(assets)},
        request=request,
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/t/"
    return response


def correction_strings() -> dict[str, str]:
    """Texts of correcting a deal at the table (``tablet.js``)."""
    return {
        "correcting": _("Correcting deal %(n)s"),
        "correctingNote": _(
            "The sheet shows the deal as it is stored now (version %(v)s). Change what was "
            "wrong and save the correction."
        ),
        "saveCorrection": _("Save correction"),
        "correctionSaved": _("Deal %(n)s corrected"),
        "correctionStale": _(
            "Deal %(n)s was corrected meanwhile, e.g. by the organiser. The sheet now shows "
            "the stored values: check them and save again if something is still wrong."
        ),
        "correctionOffline": _(
            "Corrections need a connection, and this table is offline: nothing was changed. "
            "Try again when it is back online. New deals can still be entered."
        ),
        "correctionNoAnswer": _(
            "The server did not answer: the correction was not saved. Try again."
        ),
        "correctionMissing": _("Deal %(n)s is not stored yet, so it cannot be corrected."),
        "lockedConfirmed": _(
            "Both teams confirmed this match: only the organiser can correct deals now."
        ),
        "lockedClosed": _("This round is closed: only the organiser can correct deals now."),
        "lockedFinished": _(
            "The tournament is finished: only the organiser can correct deals now."
        ),
        "changingQueued": _("Changing deal %(n)s before it is sent"),
        "changingQueuedNote": _(
            "This deal is not sent yet: your change replaces it on this device."
        ),
        "saveChange": _("Save change"),
        "queuedChanged": _("Deal %(n)s changed; it is sent when the table is online."),
        "beingSent": _("Deal %(n)s is being sent right now; correct it once it shows as saved."),
        "sentMeanwhile": _(
            "Deal %(n)s was sent meanwhile. Cancel, then correct it in the list of deals."
        ),
        "notSent": _("not sent yet"),
        "notAccepted": _("not accepted: see the sheet"),
        "change": _("Change"),
    }


@never_cache
def tablet(request: HttpRequest, code: str) -> HttpResponse:
    credential = _credential(request, code)
    if isinstance(credential, HttpResponse):
        return credential
    context = table_context(credential)
    match = context["match"]
    suits = tournament_suits(match.round.tournament)
    services.record_device_contact(credential=credential)
    context["code"] = code
    context["config"] = {
        "matchId": match.pk,
        "code": code,
        "lang": get_language(),
        "seats": [p.name if p else "?" for p in context["seats"]],
        "deals": context["deal_summaries"],
        "dealsPlanned": match.deals_planned,
        "mode": match.mode,
        "stateUrl": f"/t/{code}/state/",
        "serviceWorker": reverse("tablet-service-worker"),
        "errorTemplates": sheet_error_templates(context["profile"]),
        "strings": {
            **sheet_strings(context["profile"]),
            **correction_strings(),
            **suit_strings(suits),
        },
        "players": len(context["seats"]),
        # the rotation of ``engine.next_dealer``, for the deals the tablet holds offline
        "sameDealerAfterThrownIn": context["same_dealer_after_thrown_in"],
        # a deal's points scaled by its trump or mode (the rules' ``multipliers`` option)
        "multipliers": tournament_options(match.round.tournament).multipliers,
        "entry": context.get("entry_class", "DealEntry"),
        # a duplicate tournament's boards by deal number (the sheet takes their cards)
        "boards": {str(b["number"]): b["record"] for b in context["board_views"]},
        "duplicate": format_profile(match.round.tournament).boards,
    }
    context.update(
        entry_form_context(context["config"]["seats"], ranks=context["profile"].ranks, suits=suits)
    )
    return render(request, "tablet/table.html", context)


@never_cache
def tablet_state(request: HttpRequest, code: str) -> HttpResponse:
    credential = _credential(request, code)
    if isinstance(credential, HttpResponse):
        return credential
    services.record_device_contact(credential=credential, queued=_queued(request))
    context = table_context(credential)
    return render(request, context.get("state_template", "tablet/_state.html"), context)
