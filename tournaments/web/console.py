"""The organiser console under ``/console/``: tournaments, registration and check-in,
rounds from draft to close with live progress, deal corrections, printouts and CSV.

Views are thin: they find the organiser's objects (404 for other clubs), call one service
and render or redirect. Service refusals are shown as messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from games import profiles
from games.models import DealVersion
from tournaments.access.authentication import find_usable_credential
from tournaments.clubs.models import ApiToken, Club, Player
from tournaments.common.errors import ApplicationError
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import (
    DeviceCredential,
    ForbiddenPairing,
    Registration,
    Round,
    Seat,
    Tournament,
)
from tournaments.events.selectors import round_progress, tournament_profile
from tournaments.formats import MATCH_POINTS, format_profile
from tournaments.leagues import reminders as league_reminders
from tournaments.leagues import selectors as league_selectors
from tournaments.pairs import finals

from . import csv_export, selectors
from .forms import (
    CloseRoundForm,
    RegisterPlayerForm,
    TournamentDetailsForm,
    TournamentForm,
    game_choices,
)
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
    "repeated_meetings": gettext_noop("Pairs meeting again"),
    "standing_distance": gettext_noop("Distance in the standings (Swiss)"),
    "rating_gap": gettext_noop("Rating gap between the teams (points, all tables)"),
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
        Round.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("tournament__club"),
        pk=pk,
    )


def _organised_registration(request: HttpRequest, pk: int) -> Registration:
    return get_object_or_404(
        Registration.objects.filter(
            tournament__in=Tournament.objects.organised_by(request.user)
        ).select_related("player", "tournament"),
        pk=pk,
    )


def form_problems(form: Any) -> str:
    """A form's errors in one line, for a message above the page."""
    return "; ".join(str(e) for errors in form.errors.values() for e in errors)


def service_message(error: ApplicationError) -> str:
    """A service's refusal as the console shows it: its message, chosen by its code."""
    if error.code == "tables_unfinished":
        return f"{error.message} {_('Tick the box to close anyway.')}"
    return error.message


def _attempt(request: HttpRequest, action: Callable[[], Any]) -> Any:
    """Run a service call; a refusal becomes a message and None."""
    try:
        return action()
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
        return None


# --- tournaments ----------------------------------------------------------------------


@organiser_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    clubs = list(_clubs(request.user))
    # the game the form is shown for: the one posted, or the one chosen (``?game=``)
    game = request.POST.get("rules_preset") or request.GET.get("game") or ""
    form = TournamentForm(
        request.POST or None,
        clubs=_clubs(request.user),
        game=game or profiles.DEFAULT_PRESET,
        initial=_typed_so_far(request),
    )
    if request.method == "POST" and form.is_valid():
        data = form.service_arguments()
        tournament = _attempt(request, lambda: services.create_tournament(**data))
        if tournament is not None:
            messages.success(request, _("Tournament created."))
            return redirect("console-tournament", pk=tournament.pk)
    tournaments = Tournament.objects.organised_by(request.user).select_related("club")
    return render(
        request,
        "console/tournaments.html",
        {
            "tournaments": tournaments.order_by("-created"),
            "form": form,
            "games": game_choices(form.game),
            "clubs": clubs,
            "leagues": league_selectors.leagues_involving(request.user).order_by("-created"),
            "league_waiting": league_reminders.waiting_for_user(request.user),
            "api_tokens": ApiToken.objects.live().filter(user=request.user),
        },
    )


def _typed_so_far(request: HttpRequest) -> dict[str, Any]:
    """What the organiser had typed when choosing another game (the game's switch sends
    the form's fields along), so that a name typed first is not lost."""
    if request.method != "GET":
        return {}
    return {key: request.GET[key] for key in request.GET if key not in ("game", "rules_preset")}


def _registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("player__name")


@organiser_required
def tournament_console(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    registrations = _registrations(tournament)
    known = Player.objects.filter(clubs=tournament.club).exclude(
        registrations__tournament=tournament
    )
    rounds = list(tournament.rounds.order_by("number"))
    open_round = tournament.rounds.open().first()
    return render(
        request,
        "console/tournament.html",
        {
            "tournament": tournament,
            "rules_label": format_profile(tournament).game_label(tournament_profile(tournament)),
            "suit_choices": _suit_choices(tournament),
            "registrations": registrations,
            "rounds": rounds,
            **_counts_context(tournament),
            "open_round": open_round,
            "all_rounds_played": tournament.status == Tournament.Status.RUNNING
            and open_round is None
            and bool(tournament.planned_rounds)
            and len(rounds) >= tournament.planned_rounds,
            "finals_played": finals.finals_played(tournament),
            "form": RegisterPlayerForm(),
            "known_players": known.order_by("name"),
            **_pairings_context(tournament),
        },
    )


def _counts_context(tournament: Tournament) -> dict[str, Any]:
    """The check-in counters: present, not here yet, withdrawn, late arrivals, rounds."""
    statuses = list(tournament.registrations.values_list("status", "late"))
    counts = {s: sum(status == s for status, _ in statuses) for s in Registration.Status}
    counts["late"] = sum(late for status, late in statuses if status != "withdrawn")
    return {"counts": counts, "round_count": tournament.rounds.count()}


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
    service = {
        "check-in": services.check_in_registration,
        "withdraw": services.withdraw_registration,
    }.get(action)
    if service is None:
        raise Http404("Unknown action.")
    registration = service(registration=registration)
    if request.htmx:  # the row, and the counters above the list out of band
        context = {"r": registration, "oob": True, **_counts_context(registration.tournament)}
        row = render_to_string("console/_registration_row.html", context, request)
        return HttpResponse(row + render_to_string("console/_counts.html", context, request))
    return redirect("console-tournament", pk=registration.tournament_id)


@organiser_required
@require_POST
def tournament_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    tournament = _tournament(request, pk)
    if command == "start":
        _attempt(request, lambda: services.start_tournament(tournament=tournament))
    elif command == "finish":
        _attempt(request, lambda: services.finish_tournament(tournament=tournament))
    elif command in ("allow-self-check-in", "stop-self-check-in"):
        allowed = command == "allow-self-check-in"
        _attempt(
            request, lambda: services.set_self_check_in(tournament=tournament, allowed=allowed)
        )
    elif command == "draw-settings":
        changes = {"balance_by_rating": "balance_by_rating" in request.POST}
        if _attempt(
            request, lambda: services.update_tournament(tournament=tournament, changes=changes)
        ):
            messages.success(request, _("The draw settings are saved for the next draw."))
    elif command == "details":
        _save_details(request, tournament)
    elif command == "delete":
        if "confirm" not in request.POST:
            messages.error(request, _("Tick the box to delete the tournament."))
        elif _attempt(request, lambda: services.delete_tournament(tournament=tournament) or True):
            messages.success(request, _("%(name)s is deleted.") % {"name": tournament.name})
            return redirect("console")
    elif command == "draw":
        round_ = _attempt(request, lambda: draw.start_and_draw_round(tournament=tournament))
        if round_ is not None:
            return redirect("console-round", pk=round_.pk)
    else:
        raise Http404("Unknown command.")
    return redirect("console-tournament", pk=pk)


def _suit_choices(tournament: Tournament) -> list[tuple[str, str]]:
    """The suits a tournament may show, when its game offers more than one style (the
    club's, or a style of its own); none otherwise."""
    styles = tournament_profile(tournament).suit_styles
    if len(styles) < 2:
        return []
    named = [(style, str(profiles.SUIT_STYLES[style])) for style in styles]
    return [("", str(_("As the club plays them"))), *named]


def _save_details(request: HttpRequest, tournament: Tournament) -> None:
    form = TournamentDetailsForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_problems(form))
        return
    changes = dict(form.cleaned_data)
    if "suits" not in request.POST:  # a game with one style of suits shows no choice
        changes.pop("suits")
    if _attempt(
        request, lambda: services.update_tournament(tournament=tournament, changes=changes)
    ):
        messages.success(request, _("The tournament's details are saved."))


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
    except ApplicationError as exc:
        error = service_message(exc)
    if request.htmx:
        return render(
            request, "console/_registration_row.html", {"r": registration, "table_error": error}
        )
    if error:
        messages.error(request, error)
    return redirect("console-tournament", pk=registration.tournament_id)


def _pairings_context(tournament: Tournament, error: str | None = None) -> dict[str, Any]:
    return {
        "pairings": tournament.forbidden_pairings.select_related("player_a", "player_b").order_by(
            "player_a__name", "player_b__name"
        ),
        "pairing_players": Player.objects.filter(
            registrations__tournament=tournament,
            registrations__status__in=[
                Registration.Status.REGISTERED,
                Registration.Status.CHECKED_IN,
            ],
        ).order_by("name"),
        "pairing_error": error,
    }


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
    except ApplicationError as exc:
        error = service_message(exc)
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
        {
            "r": r,
            "qr": qr_svg(
                request.build_absolute_uri(
                    reverse("console-check-in-scan", args=[check_in_token(r)])
                )
            ),
            "link": (
                link := request.build_absolute_uri(reverse("player-link", args=[r.link_token]))
            ),
            "link_qr": qr_svg(link),
        }
        for r in _registrations(tournament).exclude(status=Registration.Status.WITHDRAWN)
    ]
    return render(
        request, "console/print_player_cards.html", {"tournament": tournament, "cards": cards}
    )


# --- rounds ---------------------------------------------------------------------------


def _cost_rows(round_: Round) -> list[dict[str, Any]]:
    """The draw's cost per criterion, only for the criteria this tournament applies (a
    same-club count means nothing when same-club avoidance is off)."""
    cost = round_.cost if isinstance(round_.cost, dict) else {}
    breakdown = cost.get("cost", cost) if isinstance(cost.get("cost"), dict) else cost
    off = _criteria_off(round_.tournament)
    return [
        {"key": key, "label": _(COST_LABELS.get(key, key.replace("_", " "))), "value": value}
        for key, value in breakdown.items()
        if isinstance(value, int | float) and not isinstance(value, bool) and key not in off
    ]


def _criteria_off(tournament: Tournament) -> set[str]:
    off = set()
    if not tournament.avoid_same_club:
        off.add("same_club")
    if not tournament.avoid_same_household:
        off.add("same_household")
    if not tournament.forbidden_pairings.exists():
        off.add("forbidden")
    if not tournament.swiss:
        off.add("standing_distance")
    if not tournament.balance_by_rating:
        off.add("rating_gap")
    return off


@organiser_required
def round_console(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    cost_rows = _cost_rows(round_)
    progress = (
        selectors.with_tablet_presence(round_progress(round_))
        if round_.status != Round.Status.DRAFT
        else []
    )
    return render(
        request,
        "console/round.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "tables": seating_tables(round_),
            "byes": round_.byes.select_related("player"),
            "cost_rows": cost_rows,
            "draw_refusal": round_.draw_refusal(),
            "draw_is_perfect": bool(cost_rows) and not any(c["value"] for c in cost_rows),
            "rating_in_force": any(c["key"] == "rating_gap" for c in cost_rows),
            "progress": progress,
            "blockers": selectors.close_blockers(progress),
            "close_form": CloseRoundForm(),
        },
    )


@organiser_required
def round_progress_partial(request: HttpRequest, pk: int) -> HttpResponse:
    """The progress table, and the close form's list of blocking tables out of band."""
    round_ = _round(request, pk)
    progress = selectors.with_tablet_presence(round_progress(round_))
    context = {
        "round": round_,
        "progress": progress,
        "oob": True,
        "blockers": selectors.close_blockers(progress),
    }
    return HttpResponse(
        render_to_string("console/_progress.html", context, request)
        + render_to_string("console/_close_blockers.html", context, request)
    )


@organiser_required
@require_POST
def round_command(request: HttpRequest, pk: int, command: str) -> HttpResponse:
    round_ = _round(request, pk)
    if command == "redraw":
        if _attempt(request, lambda: draw.redraw_round(round_=round_)):
            messages.success(request, _("The round was drawn again."))
    elif command == "publish":
        if _attempt(request, lambda: services.publish_round(round_=round_)):
            messages.success(request, _("The seating is published. Print the table cards."))
    elif command == "close":
        form = CloseRoundForm(request.POST)
        force = form.is_valid() and form.cleaned_data["force"]
        progress = selectors.with_tablet_presence(round_progress(round_))
        holding = selectors.tables_holding_entries(selectors.close_blockers(progress))
        if _attempt(request, lambda: services.close_round(round_=round_, force=force)):
            messages.success(request, closed_message(holding))
    else:
        raise Http404("Unknown command.")
    return redirect("console-round", pk=pk)


def closed_message(holding: list[int]) -> str:
    """What a close says, naming the tables whose tablet holds entries or went offline
    before its match was finished: nothing is lost, their entries are taken later."""
    if not holding:
        return _("The round is closed.")
    return ngettext(
        "The round is closed. The tablet of table %(tables)s holds entries not sent yet "
        "or was offline: its entries are still accepted after the close until the "
        "tournament is finished.",
        "The round is closed. The tablets of tables %(tables)s hold entries not sent yet "
        "or were offline: their entries are still accepted after the close until the "
        "tournament is finished.",
        len(holding),
    ) % {"tables": ", ".join(str(number) for number in holding)}


@organiser_required
def table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Print the table cards. GET prints again with the codes this organiser's browser
    issued (kept in the session: only their hashes are stored) and gives a code only to a
    table that has no working one, so a reprint never stops a card that works. POST is the
    separate action that issues new codes for every table (the old cards stop working)."""
    round_ = _round(request, pk)
    if round_.status == Round.Status.CLOSED:
        # no new codes for a closed round: say so instead of a bare redirect
        context = {"round": round_, "tournament": round_.tournament}
        return render(request, "console/table_cards_closed.html", context, status=409)
    tables = list(seating_tables(round_))
    known = _known_codes(request, round_, tables)
    if request.method == "POST":
        wanted = tables
    else:
        working = _tables_with_working_codes(round_)
        wanted = [t for t in tables if t.pk not in known and t.pk not in working]
    for table in wanted:
        issued = _attempt(request, lambda t=table: services.issue_device_code(table=t))
        if issued is None:
            return redirect("console-round", pk=pk)
        known[table.pk] = issued[1]
    request.session[_codes_key(round_)] = {str(t): code for t, code in known.items()}
    if request.method == "POST":
        messages.success(request, _("New codes issued: the earlier table cards no longer work."))
        return redirect("console-table-cards", pk=pk)
    cards = [_table_card(request, table, known.get(table.pk)) for table in tables]
    return render(
        request,
        "console/print_table_cards.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "cards": cards,
            "unknown": sum(c["code"] is None for c in cards),
        },
    )


def _codes_key(round_: Round) -> str:
    return f"table-codes:{round_.pk}"


def _known_codes(request: HttpRequest, round_: Round, tables: list[Any]) -> dict[int, str]:
    """The codes this browser issued for the round's tables that still work."""
    stored = request.session.get(_codes_key(round_), {})
    known = {}
    for table in tables:
        code = stored.get(str(table.pk))
        credential = find_usable_credential(code) if code else None
        if credential is not None and credential.table_id == table.pk:
            known[table.pk] = code
    return known


def _tables_with_working_codes(round_: Round) -> set[int]:
    usable = DeviceCredential.objects.usable().filter(table__round=round_)
    return set(usable.values_list("table_id", flat=True))


def _table_card(request: HttpRequest, table: Any, code: str | None) -> dict[str, Any]:
    if code is None:
        return {"table": table, "code": None}
    url = request.build_absolute_uri(reverse("tablet", args=[code]))
    return {"table": table, "code": code, "url": url, "qr": qr_svg(url)}


@organiser_required
def seating_print(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    return render(
        request,
        "console/print_seating.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "tables": seating_tables(round_),
            "byes": round_.byes.select_related("player"),
        },
    )


# --- CSV ------------------------------------------------------------------------------
# In the request's language, with seat numbers 1-4, words for contracts and outcomes and
# formula-looking names neutralised (``csv_export``).


@organiser_required
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    profile = tournament_profile(tournament)
    players = profile.players
    response, writer = csv_export.csv_response(f"{tournament.slug}-results.csv")
    writer.writerow(
        [
            _("Round"),
            _("Table"),
            _("Deal"),
            _("Version"),
            *(_("Seat %(n)s") % {"n": n} for n in range(1, players + 1)),
            _("Dealer (seat)"),
            _("Contract"),  # not "Game": in German both it and "Deal" are "Spiel"
            _("Declarer (seat)"),
            _("Trump"),
            _("Outcome"),
            *profile.deal_headings(),
        ]
    )
    versions = (
        DealVersion.objects.current()
        .filter(deal__match__round__tournament=tournament)
        .select_related("deal__match__round", "deal__match__table")
        .order_by("deal__match__round__number", "deal__match__table__number", "deal__number")
    )
    names = _seat_names(tournament)
    for v in versions:
        writer.writerow(csv_export.row(_result_cells(v, names, profile=profile)))
    return response


def _result_cells(
    v: DealVersion, names: dict[int, list[str]], *, profile: profiles.GameProfile
) -> list[Any]:
    """A deal's row: where and who, the contract in words, and the game's score columns
    (``GameProfile.deal_columns``)."""
    m, contract = v.deal.match, v.record.get("contract") or {}
    seats = names.get(m.table_id, ["", "", "", ""])
    kind = contract.get("kind", "")
    return [
        m.round.number,
        m.table.number,
        v.deal.number,
        v.version,
        *seats[: profile.players],
        csv_export.seat_number(v.record.get("dealer")),
        csv_export.contract_word(kind, profile.contract_words),
        csv_export.seat_number(contract.get("declarer")),
        csv_export.suit_word(contract.get("trump", "")),
        csv_export.outcome_word(v.outcome),
        *profile.deal_cells(v.result or {}),
    ]


def _seat_names(tournament: Tournament) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for table_id, position, name in Seat.objects.filter(round__tournament=tournament).values_list(
        "table_id", "position", "player__name"
    ):
        names.setdefault(table_id, ["", "", "", ""])[position] = name
    return names


#: The standings CSV's name of each criterion (a game's own words come from its columns).
CSV_CRITERIA = {
    "tournament_points": gettext_lazy("Tournament points"),
    "games_won": gettext_lazy("Games won, byes included"),
    "point_difference": gettext_lazy("Point difference"),
    # Klammern's word; other languages say what it counts (Dutch: match points)
    "augen": pgettext_lazy("standings csv", "Augen"),
    "buchholz": gettext_lazy("Buchholz"),
    "head_to_head": gettext_lazy("Head-to-head among the tied"),
}


@organiser_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The table with every figure its ranking uses, bye credits included, the criteria
    in the order of the tournament's tie-break chain: sorting by those columns, left to
    right and highest first, reproduces the ranks."""
    tournament = _tournament(request, pk)
    view = selectors.with_full_names(tournament, selectors.standings_view(tournament))
    response, writer = csv_export.csv_response(f"{tournament.slug}-standings.csv")
    if format_profile(tournament).standings == MATCH_POINTS:
        _duplicate_standings_rows(writer, view)
        return response
    writer.writerow(
        [
            _("Rank"),
            _("Name"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            _("Byes"),
            *(
                column["title"] if column["own"] else str(CSV_CRITERIA[column["key"]])
                for column in view["columns"]
            ),
        ]
    )
    for row in view["rows"]:
        writer.writerow(
            csv_export.row(
                [
                    row["rank"],
                    row["name"],
                    row["played"],
                    row["won"],
                    row["drawn"],
                    row["lost"],
                    row["byes"],
                    *(row.get(column["key"]) for column in view["columns"]),
                ]
            )
        )
    return response


def _duplicate_standings_rows(writer: Any, view: dict[str, Any]) -> None:
    """A duplicate tournament's standings: boards, match points, their maximum and the
    percentage (RULES.md, "Duplicate tournaments")."""
    writer.writerow(
        [_("Rank"), _("Name"), _("Boards"), _("Match points"), _("Maximum"), _("Percentage")]
    )
    for row in view["rows"]:
        writer.writerow(
            csv_export.row(
                [
                    row["rank"],
                    row["name"],
                    row["played"],
                    row.get("duplicate_mp"),
                    row.get("maximum"),
                    row.get("percentage"),
                ]
            )
        )
