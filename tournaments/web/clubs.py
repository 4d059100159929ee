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

from games import profiles
from tournaments.clubs import services as clubs
from tournaments.clubs.models import MAX_BOSS_WINDOW, Club, ClubMembership, Season
from tournaments.clubs.names import NameStyle
from tournaments.common.errors import ApplicationError
from tournaments.common.validators import (
    normalize_origin,
    validate_embed_origins,
    validate_name,
    validate_slug,
)
from tournaments.events import services
from tournaments.leagues import selectors as league_selectors
from tournaments.members import privacy
from tournaments.results import seasons

from . import csv_export, publishing
from .console import form_problems, organiser_required, service_message


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=gettext_lazy("Email"), max_length=254)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class ClubForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name of the club"), max_length=200, validators=[validate_name]
    )
    slug = forms.SlugField(
        label=gettext_lazy("Web address (letters, digits, dashes)"),
        max_length=100,
        required=False,
        validators=[validate_slug],
    )
    city = forms.CharField(
        label=gettext_lazy("City"), max_length=200, required=False, validators=[validate_name]
    )


class ClubSettingsForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name of the club"), max_length=200, validators=[validate_name]
    )
    city = forms.CharField(
        label=gettext_lazy("City"), max_length=200, required=False, validators=[validate_name]
    )
    suits = forms.ChoiceField(
        label=gettext_lazy("Suits as the club plays them"),
        choices=list(profiles.SUIT_STYLES.items()),
        required=False,  # left out: unchanged
        help_text=gettext_lazy(
            "Shown on the sheets and pages of the games that offer them (Schieberjass); "
            "the other games keep French suits. A tournament may choose its own."
        ),
    )
    boss_window = forms.IntegerField(
        label=gettext_lazy("KlammernBoss: the club's last N evenings count"),
        min_value=1,
        max_value=MAX_BOSS_WINDOW,
        help_text=gettext_lazy(
            "The KlammernBoss is who won the most games over these evenings; the club's "
            "tables are counted again when it changes."
        ),
    )
    venue_tables = forms.IntegerField(
        label=gettext_lazy("League: match days the club's venue hosts at once"),
        min_value=1,
        max_value=50,
        required=False,  # left empty: unchanged
        help_text=gettext_lazy(
            "A league match day is refused on a date when the venue already hosts as many."
        ),
    )
    venue_street = forms.CharField(
        label=gettext_lazy("League venue: street and number"),
        max_length=200,
        required=False,
        validators=[validate_name],
    )
    venue_town = forms.CharField(
        label=gettext_lazy("League venue: postcode and town"),
        max_length=200,
        required=False,
        validators=[validate_name],
        help_text=gettext_lazy(
            "New fixture lists give home match days this address; the public page links it "
            "to a map and the calendar names it."
        ),
    )
    default_name_style = forms.ChoiceField(
        label=gettext_lazy("Names of new players on public pages"),
        choices=NameStyle.choices,
        required=False,  # left out: unchanged
        help_text=gettext_lazy(
            "Each player may choose otherwise on their personal page; the console always "
            "shows full names."
        ),
    )
    embed_origins = forms.CharField(
        label=gettext_lazy("Web sites that may show the club's tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "https://www.my-club.de"}),
        help_text=gettext_lazy(
            "One address per line, such as https://www.my-club.de. Only these sites can "
            "show the tables below in a frame."
        ),
    )

    def clean_embed_origins(self) -> list[str]:
        """One origin a line, written as a browser writes it, checked by the model's rule."""
        lines = self.cleaned_data["embed_origins"].splitlines()
        origins = list(dict.fromkeys(normalize_origin(line) for line in lines if line.strip()))
        validate_embed_origins(origins)
        return origins

    def clean_suits(self) -> str | None:
        """Left out: the club's suits stay as they are."""
        return self.cleaned_data.get("suits") or None

    def clean_default_name_style(self) -> str | None:
        """Left out: the club's default stays as it is."""
        return self.cleaned_data.get("default_name_style") or None


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200, validators=[validate_name])
    household = forms.CharField(
        label=gettext_lazy("Household (optional)"),
        max_length=200,
        required=False,
        validators=[validate_name],
        help_text=gettext_lazy("Players of one household are not seated together."),
    )
    name_style = forms.ChoiceField(
        label=gettext_lazy("Name on public pages (with the player's word)"),
        choices=NameStyle.choices,
        required=False,  # left out: the club's default for a new player, else unchanged
    )
    kind = forms.ChoiceField(
        label=gettext_lazy("Member or guest"),
        choices=ClubMembership.Kind.choices,
        initial=ClubMembership.Kind.MEMBER,
    )


#: ``<input type=date>`` takes its value as ISO 8601 only, whatever the page's language
#: (a localised "01/01/2026" shows an empty field).
ISO_DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200, validators=[validate_name])
    starts_on = forms.DateField(label=gettext_lazy("From"), widget=ISO_DATE)
    ends_on = forms.DateField(label=gettext_lazy("To"), widget=ISO_DATE)
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
            return redirect("console-club", pk=club.pk)  # where the invitations are made
    return render(request, "console/club_new.html", {"form": form})


def organised_club(request: HttpRequest, pk: int) -> Club:
    """The club ``pk`` if the caller organises it (every club for a superuser), else 404."""
    queryset = (
        Club.objects.all()
        if request.user.is_superuser
        else Club.objects.filter(organisers=request.user)
    )
    return get_object_or_404(queryset, pk=pk)


@organiser_required
def club_console(request: HttpRequest, pk: int) -> HttpResponse:
    club = organised_club(request, pk)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            clubs.create_season(club=club, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(None, service_message(exc))
        else:
            messages.success(request, _("The season is created."))
            return redirect("console-club", pk=club.pk)
    return _club_page(request, club, season_form=form)


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    season_form: SeasonForm | None = None,
    settings_form: ClubSettingsForm | None = None,
) -> HttpResponse:
    fields = (
        "name",
        "city",
        "suits",
        "boss_window",
        "venue_tables",
        "venue_street",
        "venue_town",
        "default_name_style",
    )
    initial: dict[str, object] = {field: getattr(club, field) for field in fields}
    initial["embed_origins"] = "\n".join(club.embed_origins)
    return render(
        request,
        "console/club.html",
        {
            "club": club,
            "organisers": club.organisers.order_by("username"),
            "seasons": [
                {"season": season, "form": _season_form(season)} for season in club.seasons.all()
            ],
            "leagues": league_selectors.leagues_of_club(club.pk).order_by("-created"),
            "form": season_form or SeasonForm(),
            "settings_form": settings_form or ClubSettingsForm(initial=initial),
            "members": club.memberships.filter(kind=ClubMembership.Kind.MEMBER).count(),
            "guests": club.memberships.filter(kind=ClubMembership.Kind.GUEST).count(),
            "invitation_url": request.session.pop("invitation_url", None),
            "embeds": publishing.embed_snippets(request, club),
        },
    )


def _season_form(season: Season) -> SeasonForm:
    fields = ("name", "starts_on", "ends_on", "best_of", "min_evenings")
    initial = {field: getattr(season, field) for field in fields}
    return SeasonForm(initial=initial, prefix=f"s{season.pk}")


@organiser_required
@require_POST
def club_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's name, city, KlammernBoss window and the sites that may embed its tables."""
    club = organised_club(request, pk)
    form = ClubSettingsForm(request.POST)
    if not form.is_valid():
        return _club_page(request, club, settings_form=form)
    changes = {field: value for field, value in form.cleaned_data.items() if value is not None}
    services.update_club(club=club, changes=changes)
    messages.success(request, _("The club's settings are saved."))
    return redirect("console-club", pk=club.pk)


@organiser_required
@require_POST
def season_edit(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    """Change a season of the club (its name, dates, best N and minimum evenings)."""
    club = organised_club(request, pk)
    season = get_object_or_404(club.seasons, pk=season_pk)
    form = SeasonForm(request.POST, prefix=f"s{season.pk}")
    if form.is_valid():
        try:
            clubs.update_season(season=season, changes=form.cleaned_data)
        except ApplicationError as exc:
            messages.error(request, f"{season.name}: {service_message(exc)}")
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": form.cleaned_data["name"]})
    else:
        messages.error(request, f"{season.name}: {form_problems(form)}")
    return redirect(f"{reverse('console-club', args=[club.pk])}#season-{season.pk}")


@organiser_required
def club_players(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's members and guests: add one, correct a name or a household, make a
    guest a member (or back)."""
    club = organised_club(request, pk)
    form = PlayerForm(request.POST or None, prefix="new")
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        style = data.pop("name_style")
        player = services.create_player(club=club, **data)
        if style and style != player.name_style:
            player = privacy.set_name_style(player=player, style=style)
        messages.success(request, _("%(name)s is added.") % {"name": player.name})
        return redirect("console-club-players", pk=club.pk)
    memberships = club.memberships.select_related("player").order_by("player__name", "player_id")
    rows = [
        {
            "membership": m,
            "form": PlayerForm(
                initial={
                    "name": m.player.name,
                    "household": m.player.household,
                    "name_style": m.player.name_style,
                    "kind": m.kind,
                },
                prefix=f"p{m.player_id}",
            ),
        }
        for m in memberships
    ]
    return render(request, "console/club_players.html", {"club": club, "form": form, "rows": rows})


@organiser_required
@require_POST
def club_player(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """Save one row of the players page."""
    club = organised_club(request, pk)
    membership = get_object_or_404(club.memberships.select_related("player"), player_id=player_pk)
    form = PlayerForm(request.POST, prefix=f"p{player_pk}")
    if form.is_valid():
        data = form.cleaned_data
        player = membership.player
        changes = {f: data[f] for f in ("name", "household") if data[f] != getattr(player, f)}
        if changes:
            services.update_player(player=player, changes=changes)
        if data["name_style"] and data["name_style"] != player.name_style:
            privacy.set_name_style(player=player, style=data["name_style"])
        clubs.set_membership(club=club, player=player, kind=data["kind"])
        messages.success(request, _("%(name)s is saved.") % {"name": player.name})
    else:
        messages.error(request, f"{membership.player.name}: {form_problems(form)}")
    return redirect(f"{reverse('console-club-players', args=[club.pk])}#player-{player_pk}")


@organiser_required
@require_POST
def club_invite(request: HttpRequest, pk: int) -> HttpResponse:
    club = organised_club(request, pk)
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
    """The season table of club evenings: rank, name, evenings, points of the best evenings
    and the best evening, then one column per evening (its points; empty where the player
    did not play) and the numbers of the evenings that counted (RULES.md: best N)."""
    season = get_object_or_404(Season.objects.select_related("club"), club__slug=slug, pk=season_id)
    table = seasons.season_table(season)
    numbers = {e["evening"]: n for n, e in enumerate(table["evenings"], start=1)}
    response, writer = csv_export.csv_response(
        f"{slug}-{slugify(season.name) or season.pk}-season.csv"
    )
    evenings = [
        f"{n}: {e['name']}" + (f" ({_('imported')})" if e.get("imported") else "")
        for n, e in enumerate(table["evenings"], start=1)
    ]
    writer.writerow(
        csv_export.row(
            [_("Rank"), _("Name"), _("Evenings"), _("Points (best evenings)"), _("Best evening")]
            + evenings
            + [_("Evenings counted")]
        )
    )
    for row in table["rows"]:
        counted = sorted(numbers[e] for e in row["counted"] if e in numbers)
        writer.writerow(
            csv_export.row(
                [row["rank"] or "", row["name"], row["evenings"], row["total"], row["best"]]
                + list(row.get("scores", []))
                + [" ".join(str(n) for n in counted)]
            )
        )
    return response
