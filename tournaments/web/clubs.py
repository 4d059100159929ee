"""Onboarding pages: sign up, create a club, invite organisers by link and accept an
invitation, the club's seasons in the console, and the public season table (page part
and CSV). Thin views: a form validates, one service call, render or redirect."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import clubs, league_selectors, seasons
from tournaments.errors import ApplicationError
from tournaments.models import Club, Season

from . import csv_export
from .console import organiser_required, service_message


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=gettext_lazy("Email"))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the club"), max_length=200)
    slug = forms.SlugField(
        label=gettext_lazy("Web address (letters, digits, dashes)"), max_length=100, required=False
    )
    city = forms.CharField(label=gettext_lazy("City"), max_length=200, required=False)


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    starts_on = forms.DateField(
        label=gettext_lazy("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=gettext_lazy("To"), widget=forms.DateInput(attrs={"type": "date"})
    )
    best_of = forms.IntegerField(
        label=gettext_lazy("Best N evenings count (empty: all)"), min_value=1, required=False
    )
    min_evenings = forms.IntegerField(
        label=gettext_lazy("Minimum evenings to be ranked"), min_value=1, initial=1
    )


def signup(request: HttpRequest) -> HttpResponse:
    """A new account; then straight on to creating a club (or to a pending invitation)."""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = clubs.sign_up(
                username=data["username"], email=data["email"], password=data["password1"]
            )
        except ApplicationError as exc:
            form.add_error("username", service_message(exc))
        else:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            next_url = request.GET.get("next", "")
            if next_url.startswith("/console/invitations/"):
                return redirect(next_url)
            return redirect("console-club-new")
    return render(request, "registration/signup.html", {"form": form})


@organiser_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        slug = data["slug"] or slugify(data["name"])[:100] or "club"
        try:
            club = clubs.create_club(
                user=request.user, name=data["name"], slug=slug, city=data["city"]
            )
        except ApplicationError as exc:
            form.add_error("slug", service_message(exc))
        else:
            messages.success(
                request, _("%(club)s is created. You are its organiser.") % {"club": club.name}
            )
            return redirect("console")
    return render(request, "console/club_new.html", {"form": form})


def _club(request: HttpRequest, pk: int) -> Club:
    queryset = (
        Club.objects.all()
        if request.user.is_superuser
        else Club.objects.filter(organisers=request.user)
    )
    return get_object_or_404(queryset, pk=pk)


@organiser_required
def club_console(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            clubs.create_season(club=club, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(None, service_message(exc))
        else:
            messages.success(request, _("The season is created."))
            return redirect("console-club", pk=club.pk)
    return render(
        request,
        "console/club.html",
        {
            "club": club,
            "organisers": club.organisers.order_by("username"),
            "seasons": club.seasons.all(),
            "leagues": league_selectors.leagues_of_club(club.pk).order_by("-created"),
            "form": form,
            "invitation_url": request.session.pop("invitation_url", None),
        },
    )


@organiser_required
@require_POST
def club_invite(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    _invitation, token = clubs.invite_organiser(club=club, invited_by=request.user)
    url = request.build_absolute_uri(reverse("console-invitation", args=[token]))
    request.session["invitation_url"] = url  # shown once on the club page
    return redirect("console-club", pk=club.pk)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: log in or sign up, then accept with one tap."""
    try:
        found = clubs.find_invitation(token)
    except ApplicationError as exc:
        return render(request, "console/invitation.html", {"error": exc.message}, status=404)
    if request.method == "POST" and request.user.is_authenticated:
        try:
            club = clubs.accept_invitation(token=token, user=request.user)
        except ApplicationError as exc:
            messages.error(request, service_message(exc))
        else:
            messages.success(
                request, _("You are now an organiser of %(club)s.") % {"club": club.name}
            )
            return redirect("console")
    return render(
        request,
        "console/invitation.html",
        {
            "invitation": found,
            "usable": found.is_usable(),
            "path": request.path,
        },
    )


def season_table_context(season: Season) -> dict[str, Any]:
    return {"season": season, "season_table": seasons.season_table(season)}


def season_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), club__slug=slug, pk=season_id)
    table = seasons.season_table(season)
    response, writer = csv_export.csv_response(
        f"{slug}-{slugify(season.name) or season.pk}-season.csv"
    )
    writer.writerow(
        csv_export.row(
            [_("Rank"), _("Name"), _("Evenings"), _("Points (best evenings)"), _("Best evening")]
        )
    )
    for row in table["rows"]:
        writer.writerow(
            csv_export.row(
                [row["rank"] or "", row["name"], row["evenings"], row["total"], row["best"]]
            )
        )
    return response
