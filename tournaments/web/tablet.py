"""The table tablet: ``/t/<code>/`` opened from the QR code on the table card.

The page is rendered once with everything the browser needs (match id, seats, deals so
far, the device code); deals are then sent by ``tablet.js`` to the REST API with the
device code, and the score panel is refreshed from ``/t/<code>/state/`` through htmx.
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
from django.views.decorators.cache import never_cache

from games.models import DealVersion
from games.selectors import running_score
from tournaments.authentication import find_usable_credential
from tournaments.models import DeviceCredential, Match

from .engine_messages import entry_form_context, error_templates, ui_strings


def next_dealer(records: list[dict[str, Any]]) -> int:
    """Seat of the next dealer: clockwise after each deal, the same after a thrown-in one."""
    if not records:
        return 0
    last = records[-1]
    thrown_in = (last.get("contract") or {}).get("kind") == "thrown_in"
    return int(last.get("dealer", 0)) % 4 if thrown_in else (int(last.get("dealer", 0)) + 1) % 4


def _credential(code: str) -> DeviceCredential | None:
    return find_usable_credential(code)


def _deals(match: Match) -> list[dict[str, Any]]:
    versions = DealVersion.objects.current().filter(deal__match=match).select_related("deal")
    return [
        {"number": v.deal.number, "version": v.version, "record": v.record, "result": v.result,
         "dealer": v.record.get("dealer"), "outcome": v.outcome, "winner_team": v.winner_team}
        for v in versions.order_by("deal__number")
    ]  # fmt: skip


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
    return {
        "match": match,
        "round": match.round,
        "tournament": match.round.tournament,
        "seats": [seats.get(p) for p in range(4)],
        "deals": deals,
        "deal_summaries": summaries,
        "deals_json": json.dumps(summaries),
        "next_dealer": next_dealer([d["record"] for d in deals]),
        "score": score,
        "small_big": score["small_big"],
        "liga": score.get("liga"),
        "hamburg": score.get("hamburg"),
        "team_names": [_team_name(seats, 0), _team_name(seats, 1)],
        "can_confirm": match.status == Match.Status.FINISHED,
        "confirmed_teams": sorted(c.team for c in match.confirmations.all()),
    }


def _team_name(seats: dict[int, Any], team: int) -> str:
    names = [seats[p].name for p in (team, team + 2) if p in seats]
    return " & ".join(names)


def _unusable(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/unusable.html", status=404)


# The static files the tablet page loads: precached by the service worker. With manifest
# storage (DEBUG off) ``static()`` gives the hashed names, so a new deploy changes the
# worker script and the browser installs it (and its new cache) on its next check.
TABLET_ASSETS = (
    "tournaments/site.css",
    "tournaments/htmx.min.js",
    "tournaments/entry.js",
    "tournaments/tablet.js",
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


@never_cache
def tablet(request: HttpRequest, code: str) -> HttpResponse:
    credential = _credential(code)
    if credential is None:
        return _unusable(request)
    context = table_context(credential)
    match = context["match"]
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
        "errorTemplates": error_templates(),
        "strings": ui_strings(),
    }
    context.update(entry_form_context(context["config"]["seats"]))
    return render(request, "tablet/table.html", context)


@never_cache
def tablet_state(request: HttpRequest, code: str) -> HttpResponse:
    credential = _credential(code)
    if credential is None:
        return _unusable(request)
    context = table_context(credential)
    return render(request, "tablet/_state.html", context)
