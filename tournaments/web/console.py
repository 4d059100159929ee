"""The organiser console under ``/console/``: tournaments, registration and check-in,
rounds from draft to close with live progress, deal corrections, printouts and CSV.

Views are thin: they find the organiser's objects (404 for other clubs), call one service
and render or redirect. Service refusals are shown as messages.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from games.models import Deal, DealVersion
from tournaments import services
from tournaments.models import (
    Club,
    ForbiddenPairing,
    Match,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournaments.selectors import round_progress

from . import selectors
from .engine_messages import entry_form_context, error_templates, ui_strings
from .forms import CloseRoundForm, RegisterPlayerForm, TournamentForm
from .public import seating_tables
from .qr import qr_svg

LOGIN = "login"
CHECK_IN_SALT = "klammern.check-in"
COST_LABELS = {
    "repeated_partners": gettext_noop("Repeated partners"),
    "repeated_opponents": gettext_noop("Repeated opponents"),
    "same_club": gettext_noop("Same club at a table"),
    "same_household": gettext_noop("Same household at a table"),
    "seat_imbalance": gettext_noop("Seat imbalance"),
    "forbidden": gettext_noop("Forbidden pairings"),
}

organiser_required = login_required(login_url=LOGIN)


def _clubs(user: Any) -> QuerySet[Club]:
    return Club.objects.all() if user.is_superuser else Club.objects.filter(organisers=user)


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.organised_by(request.user).select_related("club"), pk=pk
    )


def _round(request: HttpRequest, pk: int) -> Round:
    return get_object_or_404(
        Round.objects.filter(tournament__in=Tournament.objects.organised_by(request.user))
        .select_related("tournament__club"),
        pk=pk,
    )  # fmt: skip


def _match(request: HttpRequest, pk: int) -> Match:
    return get_object_or_404(
        Match.objects.filter(round__tournament__in=Tournament.objects.organised_by(request.user))
        .select_related("round__tournament", "table"),
        pk=pk,
    )  # fmt: skip


def _organised_registration(request: HttpRequest, pk: int) -> Registration:
    return get_object_or_404(
        Registration.objects.filter(tournament__in=Tournament.objects.organised_by(request.user))
        .select_related("player", "tournament"),
        pk=pk,
    )  # fmt: skip


# Refusals of the services, in English there; listed so that they are translated here.
SERVICE_MESSAGES = [
    gettext_noop("The tournament has already started."),
    gettext_noop("Only a running tournament can be finished."),
    gettext_noop("Close the current round first."),
    gettext_noop("Start the tournament before drawing a round."),
    gettext_noop("Close the current round before drawing the next one."),
    gettext_noop("Not enough checked-in players for a single table."),
    gettext_noop("Only a draft round can be drawn again."),
    gettext_noop("The round is already published."),
    gettext_noop("Only a published round can be closed."),
    gettext_noop("The round is closed."),
    gettext_noop("The tournament is finished."),
    gettext_noop("Fixed tables apply only to individual tournaments."),
    gettext_noop("Forbidden pairings apply only to individual tournaments."),
    gettext_noop("The table number must be between 1 and 999."),
    gettext_noop("Choose two different players."),
]
UNFINISHED_TABLES = re.compile(r"^Tables ([\d, ]+) have not finished")
ALREADY_REGISTERED = re.compile(r"^(.+) is already registered\.$")
TABLE_FULL = re.compile(r"^Four players are already fixed to table (\d+)\.$")
NOT_REGISTERED = re.compile(r"^(.+) is not registered in this tournament\.$")
KEPT_APART = re.compile(r"^(.+?) and (.+) are already kept apart\.$")


def service_message(detail: str) -> str:
    if match := UNFINISHED_TABLES.match(detail):
        return _("Tables %(tables)s have not finished; tick the box to close anyway.") % {
            "tables": match.group(1)}  # fmt: skip
    if match := ALREADY_REGISTERED.match(detail):
        return _("%(name)s is already registered.") % {"name": match.group(1)}
    if match := TABLE_FULL.match(detail):
        return _("Four players are already fixed to table %(table)s.") % {
            "table": match.group(1)}  # fmt: skip
    if match := NOT_REGISTERED.match(detail):
        return _("%(name)s is not registered in this tournament.") % {"name": match.group(1)}
    if match := KEPT_APART.match(detail):
        return _("%(first)s and %(second)s are already kept apart.") % {
            "first": match.group(1), "second": match.group(2)}  # fmt: skip
    return _(detail)


def _attempt(request: HttpRequest, action: Callable[[], Any]) -> Any:
    """Run a service call; a refusal becomes a message and None."""
    try:
        return action()
    except services.ServiceError as exc:
        messages.error(request, service_message(exc.detail))
        return None


# --- tournaments ----------------------------------------------------------------------


@organiser_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    clubs = list(_clubs(request.user))
    form = TournamentForm(request.POST or None, clubs=_clubs(request.user))
    if request.method == "POST" and form.is_valid():
        data = form.service_arguments()
        tournament = _attempt(request, lambda: services.create_tournament(**data))
        if tournament is not None:
            messages.success(request, _("Tournament created."))
            return redirect("console-tournament", pk=tournament.pk)
    tournaments = Tournament.objects.organised_by(request.user).select_related("club")
    return render(request, "console/tournaments.html", {
        "tournaments": tournaments.order_by("-created"), "form": form, "clubs": clubs,
    })  # fmt: skip


def _registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("player__name")


@organiser_required
def tournament_console(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    registrations = _registrations(tournament)
    known = Player.objects.filter(clubs=tournament.club).exclude(
        registrations__tournament=tournament
    )
    return render(request, "console/tournament.html", {
        "tournament": tournament, "registrations": registrations,
        "counts": {s: sum(r.status == s for r in registrations) for s in Registration.Status},
        "rounds": tournament.rounds.order_by("number"),
        "open_round": tournament.rounds.open().first(),
        "form": RegisterPlayerForm(), "known_players": known.order_by("name"),
        **_pairings_context(tournament),
    })  # fmt: skip


@organiser_required
@require_POST
def register_player(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = RegisterPlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter the player's name."))
        return redirect("console-tournament", pk=pk)
    name = form.cleaned_data["name"].strip()
    player = Player.objects.filter(clubs=tournament.club, name__iexact=name).first()

    def register() -> Registration:
        found = player or services.create_player(
            club=tournament.club, name=name, household=form.cleaned_data["household"]
        )
        return services.register_player(tournament=tournament, player=found)

    registration = _attempt(request, register)
    if registration is not None and form.cleaned_data["check_in"]:
        services.check_in_registration(registration=registration)
    if registration is not None:
        messages.success(request, _("%(name)s is registered.") % {"name": name})
    return redirect("console-tournament", pk=pk)


@organiser_required
@require_POST
def registration_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    registration = _organised_registration(request, pk)
    service = {"check-in": services.check_in_registration,
               "withdraw": services.withdraw_registration}.get(action)  # fmt: skip
    if service is None:
        raise Http404("Unknown action.")
    registration = service(registration=registration)
    if request.htmx:
        return render(request, "console/_registration_row.html", {"r": registration})
    return redirect("console-tournament", pk=registration.tournament_id)


@organiser_required
@require_POST
def tournament_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    tournament = _tournament(request, pk)
    if command == "start":
        _attempt(request, lambda: services.start_tournament(tournament=tournament))
    elif command == "finish":
        _attempt(request, lambda: services.finish_tournament(tournament=tournament))
    elif command == "draw":
        if tournament.status == Tournament.Status.DRAFT:
            _attempt(request, lambda: services.start_tournament(tournament=tournament))
        round_ = _attempt(request, lambda: services.draw_round(tournament=tournament))
        if round_ is not None:
            return redirect("console-round", pk=round_.pk)
    else:
        raise Http404("Unknown command.")
    return redirect("console-tournament", pk=pk)


# --- seating constraints: fixed tables and forbidden pairings ----------------------------
# They take effect from the next draw (see ``services.fix_player_table``).


def _table_number(value: str) -> int | None:
    """The submitted table number; blank clears; anything else not a number is 0, which
    the service refuses with its message."""
    value = value.strip()
    if not value:
        return None
    return int(value) if value.isdigit() else 0


@organiser_required
@require_POST
def registration_fixed_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Set (``table``) or clear (``clear`` button or a blank ``table``) a fixed table."""
    registration = _organised_registration(request, pk)
    table = None if "clear" in request.POST else _table_number(request.POST.get("table", ""))
    error = None
    try:
        registration = services.fix_player_table(registration=registration, table_number=table)
    except services.ServiceError as exc:
        error = service_message(exc.detail)
    if request.htmx:
        return render(request, "console/_registration_row.html",
                      {"r": registration, "table_error": error})  # fmt: skip
    if error:
        messages.error(request, error)
    return redirect("console-tournament", pk=registration.tournament_id)


def _pairings_context(tournament: Tournament, error: str | None = None) -> dict[str, Any]:
    return {
        "pairings": tournament.forbidden_pairings.select_related("player_a", "player_b")
        .order_by("player_a__name", "player_b__name"),
        "pairing_players": Player.objects.filter(
            registrations__tournament=tournament,
            registrations__status__in=[Registration.Status.REGISTERED,
                                       Registration.Status.CHECKED_IN],
        ).order_by("name"),
        "pairing_error": error,
    }  # fmt: skip


def _pairings_response(
    request: HttpRequest, tournament: Tournament, error: str | None
) -> HttpResponse:
    """The pairings card for htmx, else back to the tournament with the error shown."""
    if request.htmx:
        context = {"tournament": tournament, **_pairings_context(tournament, error)}
        return render(request, "console/_forbidden_pairings.html", context)
    if error:
        messages.error(request, error)
    return redirect("console-tournament", pk=tournament.pk)


@organiser_required
@require_POST
def forbidden_pairing_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    ids = [request.POST.get("player_a", ""), request.POST.get("player_b", "")]
    if not all(i.isdigit() for i in ids):
        return _pairings_response(request, tournament, _("Choose two players."))
    players = Player.objects.in_bulk([int(i) for i in ids])
    if len(players) < len(set(ids)):
        return _pairings_response(request, tournament, _("Choose two players."))
    error = None
    try:
        services.forbid_pairing(
            tournament=tournament, player_a=players[int(ids[0])], player_b=players[int(ids[1])]
        )
    except services.ServiceError as exc:
        error = service_message(exc.detail)
    return _pairings_response(request, tournament, error)


@organiser_required
@require_POST
def forbidden_pairing_remove(request: HttpRequest, pk: int) -> HttpResponse:
    pairing = get_object_or_404(
        ForbiddenPairing.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("tournament__club"),
        pk=pk,
    )
    tournament = pairing.tournament
    services.allow_pairing(pairing=pairing)
    return _pairings_response(request, tournament, None)


# --- check-in by QR code ----------------------------------------------------------------


def check_in_token(registration: Registration) -> str:
    return signing.dumps(registration.pk, salt=CHECK_IN_SALT)


@organiser_required
def check_in_scan(request: HttpRequest, token: str) -> HttpResponse:
    """The URL in a player's QR code: the organiser's phone opens it and taps once."""
    try:
        pk = signing.loads(token, salt=CHECK_IN_SALT)
    except signing.BadSignature as exc:
        raise Http404("Unknown check-in code.") from exc
    registration = _organised_registration(request, pk)
    if request.method == "POST":
        registration = services.check_in_registration(registration=registration)
        messages.success(request, _("%(name)s is checked in.") % {"name": registration.player})
    return render(request, "console/check_in.html", {"r": registration})


@organiser_required
def player_qr_cards(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    cards = [
        {"r": r, "qr": qr_svg(request.build_absolute_uri(
            reverse("console-check-in-scan", args=[check_in_token(r)])))}
        for r in _registrations(tournament).exclude(status=Registration.Status.WITHDRAWN)
    ]  # fmt: skip
    return render(request, "console/print_player_cards.html",
                  {"tournament": tournament, "cards": cards})  # fmt: skip


# --- rounds ---------------------------------------------------------------------------


def _cost_rows(round_: Round) -> list[dict[str, Any]]:
    cost = round_.cost if isinstance(round_.cost, dict) else {}
    breakdown = cost.get("cost", cost) if isinstance(cost.get("cost"), dict) else cost
    return [
        {"label": _(COST_LABELS.get(key, key.replace("_", " "))), "value": value}
        for key, value in breakdown.items()
        if isinstance(value, int | float)
    ]


@organiser_required
def round_console(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    return render(request, "console/round.html", {
        "round": round_, "tournament": round_.tournament, "tables": seating_tables(round_),
        "byes": round_.byes.select_related("player"), "cost_rows": _cost_rows(round_),
        "progress": round_progress(round_) if round_.status != Round.Status.DRAFT else [],
        "close_form": CloseRoundForm(),
    })  # fmt: skip


@organiser_required
def round_progress_partial(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    return render(request, "console/_progress.html",
                  {"round": round_, "progress": round_progress(round_)})  # fmt: skip


@organiser_required
@require_POST
def round_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    round_ = _round(request, pk)
    if command == "redraw":
        if _attempt(request, lambda: services.redraw_round(round_=round_)):
            messages.success(request, _("The round was drawn again."))
    elif command == "publish":
        if _attempt(request, lambda: services.publish_round(round_=round_)):
            messages.success(request, _("The seating is published. Print the table cards."))
    elif command == "close":
        form = CloseRoundForm(request.POST)
        force = form.is_valid() and form.cleaned_data["force"]
        if _attempt(request, lambda: services.close_round(round_=round_, force=force)):
            messages.success(request, _("The round is closed."))
    else:
        raise Http404("Unknown command.")
    return redirect("console-round", pk=pk)


@organiser_required
@require_POST
def table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Issue a new code per table (old ones stop working) and print the table cards."""
    round_ = _round(request, pk)
    cards = []
    for table in seating_tables(round_):
        issued = _attempt(request, lambda t=table: services.issue_device_code(table=t))
        if issued is None:
            return redirect("console-round", pk=pk)
        url = request.build_absolute_uri(reverse("tablet", args=[issued[1]]))
        cards.append({"table": table, "code": issued[1], "url": url, "qr": qr_svg(url)})
    return render(request, "console/print_table_cards.html",
                  {"round": round_, "tournament": round_.tournament, "cards": cards})  # fmt: skip


@organiser_required
def seating_print(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    return render(request, "console/print_seating.html", {
        "round": round_, "tournament": round_.tournament, "tables": seating_tables(round_),
        "byes": round_.byes.select_related("player"),
    })  # fmt: skip


# --- matches and corrections ------------------------------------------------------------


@organiser_required
def match_console(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    deals = Deal.objects.filter(match=match).prefetch_related("versions").order_by("number")
    return render(request, "console/match.html", {
        "match": match, "round": match.round, "tournament": match.round.tournament,
        "seats": [s.player for s in match.table.seats.select_related("player")],
        "deals": [{"deal": d, "current": next(v for v in d.versions.all() if v.is_current),
                   "count": len(d.versions.all())} for d in deals],
    })  # fmt: skip


@organiser_required
def deal_correction(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """History of a deal and the entry form; the form PUTs to the REST API with If-Match."""
    match = _match(request, pk)
    deal = get_object_or_404(Deal, match=match, number=number)
    versions = list(deal.versions.order_by("-version").select_related("created_by_user"))
    current = next(v for v in versions if v.is_current)
    seats = [s.player.name for s in match.table.seats.select_related("player")]
    return render(request, "console/correction.html", {
        "match": match, "deal": deal, "versions": versions, "current": current,
        "round": match.round, "tournament": match.round.tournament, "seat_names": seats,
        "config": {"matchId": match.pk, "number": number, "version": current.version,
                   "record": current.record, "seats": seats, "errorTemplates": error_templates(),
                   "strings": ui_strings(), "dealsPlanned": match.deals_planned,
                   "backUrl": reverse("console-match", args=[match.pk])},
        **entry_form_context(seats),
    })  # fmt: skip


# --- CSV ------------------------------------------------------------------------------


def _csv_response(name: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response.write("\ufeff")  # Excel opens UTF-8 with a BOM correctly
    return response, csv.writer(response, delimiter=";")


@organiser_required
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    response, writer = _csv_response(f"{tournament.slug}-results.csv")
    writer.writerow([_("Round"), _("Table"), _("Deal"), _("Version"), _("Seat 0"),
                     _("Seat 1"), _("Seat 2"), _("Seat 3"), _("Dealer"), _("Game"),
                     _("Declarer"), _("Trump"), _("Outcome"), _("Points team 0+2"),
                     _("Points team 1+3"), _("Small points 0+2"), _("Small points 1+3"),
                     _("Match points 0+2"), _("Match points 1+3")])  # fmt: skip
    versions = (
        DealVersion.objects.current()
        .filter(deal__match__round__tournament=tournament)
        .select_related("deal__match__round", "deal__match__table")
        .order_by("deal__match__round__number", "deal__match__table__number", "deal__number")
    )
    names = _seat_names(tournament)
    for v in versions:
        m, contract = v.deal.match, v.record.get("contract") or {}
        seats = names.get(m.table_id, ["", "", "", ""])
        writer.writerow([m.round.number, m.table.number, v.deal.number, v.version, *seats,
                         v.record.get("dealer"), contract.get("kind", ""),
                         contract.get("declarer", ""), contract.get("trump", ""), v.outcome,
                         v.points_0, v.points_1, v.small_0, v.small_1, v.match_points_0,
                         v.match_points_1])  # fmt: skip
    return response


def _seat_names(tournament: Tournament) -> dict[int, list[str]]:
    from tournaments.models import Seat

    names: dict[int, list[str]] = {}
    for table_id, position, name in Seat.objects.filter(round__tournament=tournament).values_list(
        "table_id", "position", "player__name"
    ):
        names.setdefault(table_id, ["", "", "", ""])[position] = name
    return names


@organiser_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    response, writer = _csv_response(f"{tournament.slug}-standings.csv")
    writer.writerow([_("Rank"), _("Name"), _("Played"), _("Won"), _("Drawn"), _("Lost"),
                     _("Byes"), _("Tournament points"), _("Point difference"), _("Augen"),
                     _("Buchholz")])  # fmt: skip
    for row in selectors.standings_view(tournament)["rows"]:
        writer.writerow([row["rank"], row["name"], row["played"], row["won"], row["drawn"],
                         row["lost"], row["byes"], row["tournament_points"],
                         row["point_difference"], row["augen"], row["buchholz"]])  # fmt: skip
    return response
