"""Pages of a member's rights and a club's legal pages.

- On the personal page (``/p/<token>/``): how the player's name is shown to the public,
  and the download of everything stored about them (JSON, CSV).
- In the console: a club's imprint and privacy notice (prefilled from the template in
  the organiser's language, ``templates/privacy/notice_<lang>.txt``), and the erasure of
  a player (``privacy.anonymise_player``, after an irreversible-warning confirmation).
- Public: ``/clubs/<slug>/imprint/`` and ``/clubs/<slug>/privacy/``, linked from the
  footer of the club's pages and from its embeds.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments.clubs.models import Club
from tournaments.clubs.names import NameStyle
from tournaments.common.errors import ApplicationError
from tournaments.common.validators import validate_name, validate_text
from tournaments.events import services as event_services
from tournaments.events.models import Registration
from tournaments.members import privacy
from tournaments.members.data_export import flat_rows, player_data

from . import csv_export
from .clubs import organised_club
from .console import form_problems, organiser_required, service_message

NOTICE_LANGUAGES = ("de", "en", "fr", "nl")


class NameStyleForm(forms.Form):
    name_style = forms.ChoiceField(
        label=gettext_lazy("How your name is shown in public"),
        choices=NameStyle.choices,
        widget=forms.RadioSelect,
    )


class ImprintForm(forms.Form):
    imprint_responsible = forms.CharField(
        label=gettext_lazy("Responsible person"),
        max_length=200,
        required=False,
        validators=[validate_name],
    )
    imprint_address = forms.CharField(
        label=gettext_lazy("Address"),
        max_length=1000,
        required=False,
        validators=[validate_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    imprint_contact = forms.CharField(
        label=gettext_lazy("Contact (e-mail or telephone)"),
        max_length=200,
        required=False,
        validators=[validate_name],
    )
    privacy_text = forms.CharField(
        label=gettext_lazy("Privacy notice"),
        max_length=20000,
        required=False,
        validators=[validate_text],
        widget=forms.Textarea(attrs={"rows": 16}),
        help_text=gettext_lazy("Prefilled from a template: adapt it to your club."),
    )


class AnonymiseForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("I understand that this cannot be undone."), required=True
    )


def privacy_notice_template(club: Club) -> str:
    """The template privacy notice for ``club`` in the active language (German for a
    language without one)."""
    language = (get_language() or "de")[:2]
    language = language if language in NOTICE_LANGUAGES else "de"
    return render_to_string(f"privacy/notice_{language}.txt", {"club": club}).strip()


# --- the personal page --------------------------------------------------------------


def registration_of(token: str) -> Registration:
    """The registration the personal link ``token`` belongs to (404 if none)."""
    return get_object_or_404(
        Registration.objects.select_related("player", "tournament__club"), link_token=token
    )


@require_POST
def player_name_style(request: HttpRequest, token: str) -> HttpResponse:
    """The member chooses how the public sees their name."""
    registration = registration_of(token)
    form = NameStyleForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_problems(form))
        return redirect("player-link", token=token)
    try:
        privacy.set_name_style(player=registration.player, style=form.cleaned_data["name_style"])
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
    else:
        messages.success(request, _("Saved: your name is shown so from now on."))
    return redirect("player-link", token=token)


def _private(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "same-origin"
    return response


@never_cache
def player_data_json(request: HttpRequest, token: str) -> HttpResponse:
    """Everything stored about the player, as JSON."""
    player = registration_of(token).player
    body = json.dumps(player_data(player), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    return _private(response, f"player-{player.pk}.json")


@never_cache
def player_data_csv(request: HttpRequest, token: str) -> HttpResponse:
    """Everything stored about the player, as CSV: one row per value."""
    player = registration_of(token).player
    response, writer = csv_export.csv_response(f"player-{player.pk}.csv")
    writer.writerow([_("Section"), _("Item"), _("Field"), _("Value")])
    for section, item, field, value in flat_rows(player_data(player)):
        writer.writerow(csv_export.row([section, item, field, value]))
    return _private(response, f"player-{player.pk}.csv")


# --- the console --------------------------------------------------------------------


@organiser_required
def club_imprint(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's imprint and privacy notice (an empty notice starts from the template)."""
    club = organised_club(request, pk)
    fields = ("imprint_responsible", "imprint_address", "imprint_contact", "privacy_text")
    if request.method == "POST":
        form = ImprintForm(request.POST)
        if form.is_valid():
            event_services.update_club(club=club, changes=form.cleaned_data)
            messages.success(request, _("The imprint and the privacy notice are saved."))
            return redirect("console-club-imprint", pk=club.pk)
        messages.error(request, form_problems(form))
    else:
        initial = {field: getattr(club, field) for field in fields}
        initial["privacy_text"] = club.privacy_text or privacy_notice_template(club)
        form = ImprintForm(initial=initial)
    return render(request, "console/club_imprint.html", {"club": club, "form": form})


@organiser_required
def anonymise_player(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Erase a player of the club for good: the page warns that it cannot be undone and
    asks for the confirmation; the confirmed form anonymises."""
    club = organised_club(request, pk)
    membership = get_object_or_404(club.memberships.select_related("player"), player_id=player_pk)
    form = AnonymiseForm(request.POST or None)
    if request.method != "POST" or not form.is_valid():
        if request.method == "POST":
            messages.error(request, _("Tick the box to confirm: anonymising cannot be undone."))
        return render(
            request,
            "console/anonymise.html",
            {"club": club, "player": membership.player, "form": form},
        )
    try:
        player = privacy.anonymise_player(player=membership.player)
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
    else:
        messages.success(
            request, _("The player is anonymised as %(name)s.") % {"name": player.public_name}
        )
    return redirect(f"{reverse('console-club-players', args=[club.pk])}#player-{player_pk}")


# --- public -------------------------------------------------------------------------


def imprint(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return render(request, "public/imprint.html", {"club": club})


def privacy_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    text = club.privacy_text or privacy_notice_template(club)
    return render(request, "public/privacy.html", {"club": club, "text": text})
