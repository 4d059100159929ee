"""Clubs, players, club memberships, seasons, organiser invitations and organisers' API
tokens as stored rows."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments.clubs.names import NameStyle, shown_name, stored_name
from tournaments.common.validators import (
    validate_embed_origins,
    validate_name,
    validate_slug,
    validate_text,
)

#: The KlammernBoss counts at most this many recent evenings (RULES.md: a club setting).
MAX_BOSS_WINDOW = 52


class Club(models.Model):
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    slug = models.SlugField(
        max_length=100, unique=True, validators=[validate_slug], verbose_name=_("slug")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_clubs",
        blank=True,
        verbose_name=_("organisers"),
    )
    #: How the club's cards show their suits (a game that offers the style shows it on
    #: its sheets and pages; the others keep French suits).
    suits = models.CharField(
        max_length=10,
        choices=list(profiles.SUIT_STYLES.items()),
        default=profiles.FRENCH,
        verbose_name=_("suits"),
    )
    boss_window = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_BOSS_WINDOW)],
        help_text=_("Number of recent playing evenings for the KlammernBoss."),
        verbose_name=_("KlammernBoss window"),
    )
    results_version = models.PositiveIntegerField(
        default=0,
        help_text=_("Bumped whenever a result of one of the club's tournaments changes."),
        verbose_name=_("results version"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    city = models.CharField(
        max_length=200, blank=True, validators=[validate_name], verbose_name=_("city")
    )
    #: RULES.md, "Clashes": how many league match days the club's venue hosts at once.
    venue_tables = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_("How many league match days the club's venue hosts at once."),
        verbose_name=_("match days at once at the venue"),
    )
    #: The venue's address (league match days at home; the calendar's LOCATION).
    venue_street = models.CharField(
        max_length=200, blank=True, validators=[validate_name], verbose_name=_("venue street")
    )
    venue_town = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_name],
        help_text=_("Empty: the club's city."),
        verbose_name=_("venue town"),
    )
    embed_origins = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_embed_origins],
        help_text=_("Web sites (https://…) that may show the club's tables in a frame."),
        verbose_name=_("embedding web sites"),
    )
    #: How a new player's name is shown to the public (each player may change it).
    default_name_style = models.CharField(
        max_length=16,
        choices=NameStyle.choices,
        default=NameStyle.FULL,
        help_text=_("How new players' names are shown on public pages; each player may change it."),
        verbose_name=_("name shown for new players"),
    )
    #: The imprint: who answers for the club's pages, and where.
    imprint_responsible = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_name],
        verbose_name=_("responsible person"),
    )
    imprint_address = models.TextField(
        max_length=1000, blank=True, validators=[validate_text], verbose_name=_("address")
    )
    imprint_contact = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_name],
        help_text=_("E-mail address or telephone number."),
        verbose_name=_("contact"),
    )
    privacy_text = models.TextField(
        max_length=20000, blank=True, validators=[validate_text], verbose_name=_("privacy notice")
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet["Player"]):
    def public_names(self, ids: object = None) -> dict[int, str]:
        """The public name (``names.shown_name``) of each player, by id: of those in
        ``ids``, or of the whole queryset."""
        return {pk: fields["name"] for pk, fields in self.stored_names(ids).items()}

    def stored_names(self, ids: object = None) -> dict[int, dict[str, Any]]:
        """Each player's name as a stored table keeps it (``names.stored_name``: the public
        name and an anonymised player's pseudonym number), by id: of those in ``ids``, or
        of the whole queryset."""
        rows = self if ids is None else self.filter(pk__in=ids)
        return {
            pk: stored_name(name, style, number)
            for pk, name, style, number in rows.values_list("pk", "name", "name_style", "pseudonym")
        }


class Player(models.Model):
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    #: How the public sees the name (``names.NameStyle``); the console shows it in full.
    name_style = models.CharField(
        max_length=16,
        choices=NameStyle.choices,
        default=NameStyle.FULL,
        verbose_name=_("name shown in public"),
    )
    #: Set once the player is anonymised: the public and the console see "Player <n>".
    pseudonym = models.PositiveIntegerField(
        null=True, blank=True, unique=True, editable=False, verbose_name=_("pseudonym")
    )
    anonymised_at = models.DateTimeField(
        null=True, blank=True, editable=False, verbose_name=_("anonymised at")
    )
    household = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_name],
        help_text=_("Players of one household are not seated together."),
        verbose_name=_("household"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        verbose_name=_("user"),
    )
    clubs = models.ManyToManyField(
        Club, through="ClubMembership", related_name="players", verbose_name=_("clubs")
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def public_name(self) -> str:
        """The name as the public sees it (``names.shown_name``)."""
        return shown_name(self.name, self.name_style, self.pseudonym)


class ClubMembership(models.Model):
    class Kind(models.TextChoices):
        MEMBER = "member", _("Member")
        GUEST = "guest", _("Guest")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    kind = models.CharField(
        max_length=10, choices=Kind.choices, default=Kind.MEMBER, verbose_name=_("kind")
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="unique_club_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club} ({self.get_kind_display()})"


class Season(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    starts_on = models.DateField(verbose_name=_("starts on"))
    ends_on = models.DateField(verbose_name=_("ends on"))
    best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Season table: the best N evenings count (empty: all)."),
        verbose_name=_("best N evenings"),
    )
    min_evenings = models.PositiveSmallIntegerField(
        default=1,
        help_text=_("Season table: ranked only with at least M evenings."),
        verbose_name=_("minimum evenings"),
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class OrganiserInvitation(models.Model):
    """A single-use link that makes whoever accepts it an organiser of ``club``.
    Only the HMAC-SHA256 of the token (keyed with SECRET_KEY) is stored."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("accepted at"))

    class Meta:
        verbose_name = _("organiser invitation")
        verbose_name_plural = _("organiser invitations")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Einladung {self.club} ({self.pk})"

    def is_usable(self, *, now: datetime | None = None) -> bool:
        return self.accepted_at is None and self.expires_at > (now or timezone.now())


def hash_api_token(key: str) -> str:
    """HMAC-SHA256 of an API token, keyed with SECRET_KEY: all that is stored of it."""
    return hmac.new(
        settings.SECRET_KEY.encode(), f"api-token:{key}".encode(), hashlib.sha256
    ).hexdigest()


def api_token_lifetime() -> timedelta:
    return timedelta(hours=settings.API_TOKEN_TTL_HOURS)


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def live(self, *, now: datetime | None = None) -> ApiTokenQuerySet:
        """The tokens that still authenticate (issued less than ``API_TOKEN_TTL_HOURS``
        ago)."""
        return self.filter(created__gt=(now or timezone.now()) - api_token_lifetime())

    def expired(self, *, now: datetime | None = None) -> ApiTokenQuerySet:
        return self.filter(created__lte=(now or timezone.now()) - api_token_lifetime())


class ApiToken(models.Model):
    """One client's API token (a script, a browser session) for ``Authorization: Token
    <token>``, named by its owner. A user holds any number of them, each revoked on its
    own. Only the HMAC-SHA256 of the token (keyed with SECRET_KEY) is stored; it
    authenticates for ``API_TOKEN_TTL_HOURS`` from ``created``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(
        max_length=100, blank=True, validators=[validate_name], verbose_name=_("name")
    )
    key_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    created = models.DateTimeField(default=timezone.now, verbose_name=_("created"))
    #: When the token last authenticated a request (to the minute, see
    #: ``tournaments.access.authentication``); empty until then.
    last_used = models.DateTimeField(null=True, blank=True, verbose_name=_("last used"))

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name or 'API token'} ({self.pk})"

    @property
    def expires_at(self) -> datetime:
        return self.created + api_token_lifetime()

    def is_expired(self, *, now: datetime | None = None) -> bool:
        return self.expires_at <= (now or timezone.now())


class UserLanguage(models.Model):
    """The language a user reads the site in, remembered at sign-in and at the language
    switch, for what reaches them outside a request (the league reminders by e-mail)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="reading_language",
        verbose_name=_("user"),
    )
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, verbose_name=_("language")
    )

    class Meta:
        verbose_name = _("user's language")
        verbose_name_plural = _("users' languages")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
