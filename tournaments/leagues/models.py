"""Leagues as stored rows: divisions, league teams, match days and their confirmations."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import profiles
from tournaments.clubs.models import Club, Player
from tournaments.common.validators import validate_name, validate_slug
from tournaments.events.models import MAX_LIGA_TARGET, Tournament

# --- the league of clubs ----------------------------------------------------------------
#
# A league between clubs (RULES.md, "League of clubs"): divisions, teams entered by clubs,
# a double round robin of match days per division. A match day is played on the home
# club's tablets: its four Liga-Partien are the matches of one hidden tournament of the
# home club (``MatchDay.tournament``, not public): two sittings (rounds) of two tables, as
# each pair plays twice, so device codes, the tablet and the deal API work unchanged.


class LeagueQuerySet(models.QuerySet["League"]):
    def visible_to(self, user: object) -> LeagueQuerySet:
        if getattr(user, "is_superuser", False):
            return self
        if not getattr(user, "is_authenticated", False):
            return self.filter(is_public=True)
        return self.filter(Q(is_public=True) | Q(organisers=user)).distinct()


class League(models.Model):
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    slug = models.SlugField(
        max_length=100, unique=True, validators=[validate_slug], verbose_name=_("slug")
    )
    season = models.CharField(
        max_length=100,
        blank=True,
        validators=[validate_name],
        help_text=_("e.g. 2025/26"),
        verbose_name=_("season"),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_leagues",
        blank=True,
        verbose_name=_("organisers"),
    )
    is_public = models.BooleanField(default=True, verbose_name=_("public"))
    rules_preset = models.CharField(
        max_length=50, default=profiles.DEFAULT_PRESET, verbose_name=_("rules preset")
    )
    rules_options = models.JSONField(default=dict, blank=True, verbose_name=_("rules options"))
    liga_target = models.PositiveSmallIntegerField(
        default=51,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_LIGA_TARGET)],
        verbose_name=_("Liga target"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    #: RULES.md, "Postponement": match days not played by this date are settled.
    last_day = models.DateField(
        null=True,
        blank=True,
        help_text=_("The season's last date: match days not played by then are settled."),
        verbose_name=_("last date of the season"),
    )
    previous = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="next_season",
        help_text=_("The season this one was created from (its final tables)."),
        verbose_name=_("previous season"),
    )

    objects = LeagueQuerySet.as_manager()

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(liga_target__gte=1), name="league_liga_target_gte_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()


class Division(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("league")
    )
    name = models.CharField(max_length=100, validators=[validate_name], verbose_name=_("name"))
    order = models.PositiveSmallIntegerField(default=1, verbose_name=_("order"))
    #: RULES.md, "Promotion and relegation": how many teams go up and down (default 1, 1).
    promoted = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(20)], verbose_name=_("promoted")
    )
    relegated = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(20)], verbose_name=_("relegated")
    )

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["league", "order", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="unique_division_name"),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class LeagueTeam(models.Model):
    """A club's team in one division of a league: a captain and a roster of the club's
    players."""

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="teams", verbose_name=_("division")
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="league_teams", verbose_name=_("club")
    )
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="captained_league_teams",
        verbose_name=_("captain"),
    )
    roster = models.ManyToManyField(
        Player, related_name="league_teams", blank=True, verbose_name=_("roster")
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    #: A team carried over into a new season confirms its roster before the fixtures.
    roster_confirmed = models.BooleanField(default=True, verbose_name=_("roster confirmed"))
    #: RULES.md, "Withdrawal": when the team withdrew during the season (null: it plays).
    withdrawn_at = models.DateTimeField(null=True, blank=True, verbose_name=_("withdrawn at"))
    results_struck = models.BooleanField(
        default=False,
        help_text=_("Withdrawn before half of its match days: all its results are struck."),
        verbose_name=_("results struck"),
    )

    class Meta:
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        ordering = ["division", "name"]
        constraints = [
            models.UniqueConstraint(fields=["division", "name"], name="unique_league_team_name"),
        ]

    def __str__(self) -> str:
        return self.name


class MatchDay(models.Model):
    """One fixture of the list: the home team meets the away team at the home venue."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        OPEN = "open", _("Tables open")
        CONFIRMED = "confirmed", _("Confirmed")
        FINAL = "final", pgettext_lazy("match day", "Final")
        NOT_PLAYED = "not_played", _("Not played")

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="match_days", verbose_name=_("division")
    )
    round = models.PositiveSmallIntegerField(
        help_text=_("Spieltag of the fixture list"), verbose_name=_("round")
    )
    home = models.ForeignKey(
        LeagueTeam, on_delete=models.PROTECT, related_name="home_days", verbose_name=_("home")
    )
    away = models.ForeignKey(
        LeagueTeam, on_delete=models.PROTECT, related_name="away_days", verbose_name=_("away")
    )
    starts_at = models.DateTimeField(null=True, blank=True, verbose_name=_("starts at"))
    venue = models.CharField(
        max_length=300, blank=True, validators=[validate_name], verbose_name=_("venue")
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.SCHEDULED, verbose_name=_("status")
    )
    pairs = models.JSONField(
        default=dict,
        blank=True,
        help_text=_('{"home": [[id, id], [id, id]], "away": [...]}'),
        verbose_name=_("pairs"),
    )
    tournament = models.OneToOneField(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="league_match_day",
        verbose_name=_("tournament"),
    )
    home_partien = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("home Partien")
    )
    away_partien = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("away Partien")
    )
    home_augen = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("home Augen"))
    away_augen = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("away Augen"))
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("accepted at"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    sent_back_reason = models.CharField(
        max_length=500,
        blank=True,
        help_text=_("Why the league's organiser sent the confirmed result back (empty if never)"),
        verbose_name=_("sent back reason"),
    )
    sent_back_at = models.DateTimeField(null=True, blank=True, verbose_name=_("sent back at"))
    #: RULES.md, "Forfeit": the team that did not appear (or could not field two pairs).
    forfeited_by = models.ForeignKey(
        LeagueTeam,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="forfeits",
        verbose_name=_("forfeited by"),
    )
    forfeit_reason = models.CharField(
        max_length=500, blank=True, validators=[validate_name], verbose_name=_("forfeit reason")
    )
    #: RULES.md, "Postponement": the team at whose request the match day was moved.
    postponed_by = models.ForeignKey(
        LeagueTeam,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="postponements_asked",
        verbose_name=_("postponed at the request of"),
    )

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["division", "round", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["division", "home", "away"], name="one_match_day_per_home_away"
            ),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_day_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.home} – {self.away} (Spieltag {self.round})"


class MatchDayConfirmation(models.Model):
    """A captain (home or away) or the venue's organiser confirms the match day's result."""

    class Side(models.TextChoices):
        HOME = "home", _("Home")
        AWAY = "away", _("Away")
        VENUE = "venue", _("Venue organiser")

    match_day = models.ForeignKey(
        MatchDay,
        on_delete=models.CASCADE,
        related_name="confirmations",
        verbose_name=_("match day"),
    )
    side = models.CharField(max_length=5, choices=Side.choices, verbose_name=_("side"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    confirmed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("confirmed at"))

    class Meta:
        verbose_name = _("match day confirmation")
        verbose_name_plural = _("match day confirmations")
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "side"], name="one_match_day_confirmation_per_side"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_day}: {self.get_side_display()}"


class MatchDayPostponement(models.Model):
    """RULES.md, "Postponement": one team asks to move a match day to another date, the
    other team consents or refuses, the league's organiser grants or declines."""

    class Status(models.TextChoices):
        ASKED = "asked", _("Asked")
        CONSENTED = "consented", _("Consented")
        REFUSED = "refused", _("Refused by the other team")
        GRANTED = "granted", _("Granted")
        DECLINED = "declined", _("Declined")

    match_day = models.ForeignKey(
        MatchDay,
        on_delete=models.CASCADE,
        related_name="postponements",
        verbose_name=_("match day"),
    )
    asked_by = models.ForeignKey(
        LeagueTeam, on_delete=models.CASCADE, related_name="+", verbose_name=_("asked by")
    )
    starts_at = models.DateTimeField(verbose_name=_("new date"))
    reason = models.CharField(max_length=500, validators=[validate_name], verbose_name=_("reason"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.ASKED, verbose_name=_("status")
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    answered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))

    class Meta:
        verbose_name = _("postponement")
        verbose_name_plural = _("postponements")
        ordering = ["match_day", "-created"]

    def __str__(self) -> str:
        return f"{self.match_day}: {self.get_status_display()}"


class LeagueReminder(models.Model):
    """A reminder sent for a match day, once per kind (the beat task never repeats one)."""

    class Kind(models.TextChoices):
        DAY_BEFORE = "day_before", _("Match day tomorrow")
        CONFIRM = "confirm", _("Result waits for confirmation")
        ACCEPT = "accept", _("Result waits for acceptance")

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="reminders", verbose_name=_("match day")
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, verbose_name=_("kind"))
    sent_at = models.DateTimeField(auto_now_add=True, verbose_name=_("sent at"))
    recipients = models.JSONField(default=list, blank=True, verbose_name=_("recipients"))

    class Meta:
        verbose_name = _("league reminder")
        verbose_name_plural = _("league reminders")
        constraints = [
            models.UniqueConstraint(fields=["match_day", "kind"], name="one_reminder_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day}: {self.get_kind_display()}"
