"""A player's personal page ``/p/<token>/``, the link and QR code on their player card
(as Tabbycat's private URLs): their table and seat this round, their results, and a
check-in button when the organiser allows players to check themselves in.

The token is the only key: whoever holds the card sees that one player's page. The page
is not cached and not indexed; it writes only through ``services.self_check_in`` and
``privacy.set_name_style`` (how the public sees the name; the data download is
``privacy.py``'s too).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments.common.errors import ApplicationError
from tournaments.events import services
from tournaments.events.models import Registration, Tournament

from . import selectors
from .privacy import NameStyleForm, registration_of


@never_cache
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    registration = registration_of(token)
    tournament = registration.tournament
    response = render(
        request,
        "public/player_link.html",
        {
            "r": registration,
            "tournament": tournament,
            "player": registration.player,
            "seat": selectors.current_seat(registration.player, tournament),
            "results": selectors.tournament_results(registration.player, tournament),
            "name_form": NameStyleForm(initial={"name_style": registration.player.name_style}),
            "can_check_in": tournament.self_check_in
            and tournament.status != Tournament.Status.FINISHED
            and registration.status == Registration.Status.REGISTERED,
        },
    )
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The token in the address stays on this site: other sites get no referrer at all,
    # while this site's own forms keep their origin. ("no-referrer" made the browser send
    # "Origin: null" with the check-in form, and Django's CSRF check refused every one.)
    response["Referrer-Policy"] = "same-origin"
    return response


@require_POST
def player_check_in(request: HttpRequest, token: str) -> HttpResponse:
    registration = registration_of(token)
    try:
        services.self_check_in(registration=registration)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are checked in. Have a good evening!"))
    return redirect("player-link", token=token)
