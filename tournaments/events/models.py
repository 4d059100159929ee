"""Tournaments, teams, registrations, forbidden pairings, rounds, tables, seats, byes,
matches, match confirmations and table devices as stored rows.

The database keeps what must always hold (unique numbers, one current round, codes
stored only as hashes); the services keep the rest."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import profiles
from tournaments.clubs.models import Club, Player, Season
from tournaments.common.errors import DRAW_REFUSALS, ApplicationError, draw_refusal
from tournaments.common.validators import validate_name, validate_slug
from tournaments.formats import FormatProfile, format_profile

#: The most deals a match of a fixed number of deals may have.
MAX_DEALS_PER_MATCH = 64

#: The highest target of match points a Liga-Partie may have.
MAX_LIGA_TARGET = 500


def new_board_seed() -> int:
    """A duplicate tournament's seed of its boards: 63 random bits."""
    return secrets.randbits(63)


def default_tiebreaks() -> list[str]:
    return [
        "match_points",
        "games_won",
        "point_difference",
        "points",
        "opponents_strength",
        "head_to_head",
    ]


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def public(self) -> TournamentQuerySet:
        return self.filter(is_public=True)

    def organised_by(self, user: object) -> TournamentQuerySet:
        if getattr(user, "is_superuser", False):
            return self
        return self.filter(club__organisers=user)


class Tournament(models.Model):
    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        PAIRS = "pairs", _("Fixed pairs")
        LEAGUE = "league", _("League")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class MatchMode(models.TextChoices):
        DEALS = "deals", _("Fixed number of deals")
        LIGA = "liga", _("Liga-Partie")

    class ByeScoreMode(models.TextChoices):
        AVERAGE = "average", _("Average")
        FIXED = "fixed", _("Fixed value")

    class FinalsSeeding(models.TextChoices):
        STANDINGS = "standings", _("Preliminary standings")
        RATING = "rating", _("Rating")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        verbose_name=_("season"),
    )
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    slug = models.SlugField(max_length=100, validators=[validate_slug], verbose_name=_("slug"))
    format = models.CharField(
        max_length=12, choices=Format.choices, default=Format.INDIVIDUAL, verbose_name=_("format")
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status")
    )
    is_public = models.BooleanField(default=True, verbose_name=_("public"))
    #: Whether everyone may see the hand records of closed rounds (the table's players
    #: and the organisers always may).
    hand_records_public = models.BooleanField(default=True, verbose_name=_("hand records public"))
    rules_preset = models.CharField(
        max_length=50, default=profiles.DEFAULT_PRESET, verbose_name=_("rules preset")
    )
    rules_options = models.JSONField(default=dict, blank=True, verbose_name=_("rules options"))
    #: The suits its sheets and pages show ("": the club's).
    suits = models.CharField(
        max_length=10,
        choices=list(profiles.SUIT_STYLES.items()),
        blank=True,
        default="",
        verbose_name=_("suits"),
        help_text=_("Empty: as the club plays them."),
    )
    rules_locked = models.BooleanField(default=False, verbose_name=_("rules locked"))
    locked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("locked at"))
    match_mode = models.CharField(
        max_length=8,
        choices=MatchMode.choices,
        default=MatchMode.DEALS,
        verbose_name=_("match mode"),
    )
    deals_per_match = models.PositiveSmallIntegerField(
        default=8,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_MATCH)],
        verbose_name=_("deals per match"),
    )
    liga_target = models.PositiveSmallIntegerField(
        default=51,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_LIGA_TARGET)],
        verbose_name=_("Liga target"),
    )
    bye_score_mode = models.CharField(
        max_length=8,
        choices=ByeScoreMode.choices,
        default=ByeScoreMode.AVERAGE,
        verbose_name=_("bye score mode"),
    )
    bye_fixed_points = models.IntegerField(default=0, verbose_name=_("bye fixed points"))
    tiebreaks = models.JSONField(
        default=default_tiebreaks, blank=True, verbose_name=_("tie-breaks")
    )
    avoid_same_club = models.BooleanField(default=False, verbose_name=_("avoid same club"))
    #: Players may check themselves in on their personal page (``/p/<token>/``).
    self_check_in = models.BooleanField(default=False, verbose_name=_("self check-in"))
    avoid_same_household = models.BooleanField(default=True, verbose_name=_("avoid same household"))
    home_and_away = models.BooleanField(default=False, verbose_name=_("home and away"))
    swiss = models.BooleanField(
        default=False,
        help_text=_("Fixed pairs: pairs close in the standings meet (Swiss)."),
        verbose_name=_("swiss"),
    )
    planned_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("planned rounds")
    )
    results_version = models.PositiveIntegerField(default=0, verbose_name=_("results version"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    round_robin = models.BooleanField(
        default=False,
        help_text=_("Fixed pairs: every pair meets every other (twice with home_and_away)."),
        verbose_name=_("round robin"),
    )
    #: docs/ratings.md, "Seeding and balancing by rating".
    seed_by_rating = models.BooleanField(
        default=False,
        help_text=_("Swiss pairs: round 1 and equal scores ordered by the pairs' ratings."),
        verbose_name=_("seed by rating"),
    )
    finals_seeding = models.CharField(
        max_length=10,
        choices=FinalsSeeding.choices,
        default=FinalsSeeding.STANDINGS,
        verbose_name=_("finals seeding"),
    )
    balance_by_rating = models.BooleanField(
        default=False,
        help_text=_("Individual draw: the two teams at a table as even in rating as possible."),
        verbose_name=_("balance by rating"),
    )

    #: RULES.md, "Duplicate tournaments": every table of a round plays the same boards,
    #: dealt from ``board_seed`` (``tournaments.formats.boards``).
    duplicate = models.BooleanField(
        default=False,
        help_text=_("Every table plays the same boards; the standings rank by match points."),
        verbose_name=_("duplicate"),
    )
    board_seed = models.BigIntegerField(default=new_board_seed, verbose_name=_("board seed"))

    objects = TournamentQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "slug"], name="unique_tournament_slug_per_club"
            ),
            models.CheckConstraint(
                condition=Q(deals_per_match__gte=1), name="deals_per_match_gte_1"
            ),
            models.CheckConstraint(condition=Q(liga_target__gte=1), name="liga_target_gte_1"),
            models.CheckConstraint(
                condition=Q(rules_locked=False) | Q(locked_at__isnull=False),
                name="locked_rules_have_timestamp",
            ),
        ]
        indexes = [models.Index(fields=["status", "is_public"])]

    def __str__(self) -> str:
        return self.name

    @property
    def format_profile(self) -> FormatProfile:
        """What its format answers (``tournaments.formats``): templates ask it."""
        return format_profile(self)

    @property
    def uses_teams(self) -> bool:
        """Whether its entrants are teams (fixed pairs, league teams): its format says."""
        return format_profile(self).teams

    #: The fields ``mark_started`` changes (for ``save(update_fields=...)``).
    START_FIELDS = ("status", "rules_locked", "locked_at")
    #: The fields fixed with the rules once the tournament has started (``rules_locked``):
    #: the game, how tables play and how the standings rank. The services refuse a
    #: change of any of them and the admin shows them read-only.
    RULE_FIELDS = (
        "format",
        "rules_preset",
        "rules_options",
        "match_mode",
        "deals_per_match",
        "liga_target",
        "bye_score_mode",
        "bye_fixed_points",
        "tiebreaks",
        "duplicate",
    )

    def mark_started(self) -> None:
        """Running from now on, its rules fixed; the caller saves ``START_FIELDS``."""
        self.status = self.Status.RUNNING
        self.rules_locked = True
        self.locked_at = timezone.now()


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(max_length=200, validators=[validate_name], verbose_name=_("name"))
    players = models.ManyToManyField(
        Player, through="TeamMember", related_name="teams", verbose_name=_("players")
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def pair_players(self) -> list[Player]:
        """The players in the order of the pair's name ("A / B"): the order they joined.
        Pages and the API list them so (prefetch ``members__player`` for a list)."""
        return [member.player for member in self.members.all()]


class TeamMember(models.Model):
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="team_memberships", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["pk"]  # the order of the pair's name
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="unique_team_member"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.team}"


def new_link_token() -> str:
    """A registration's personal-link secret: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class RegistrationQuerySet(models.QuerySet["Registration"]):
    def active(self) -> RegistrationQuerySet:
        return self.exclude(status=Registration.Status.WITHDRAWN)

    def checked_in(self) -> RegistrationQuerySet:
        return self.filter(status=Registration.Status.CHECKED_IN)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("player")
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registrations",
        verbose_name=_("team"),
    )
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTERED, verbose_name=_("status")
    )
    late = models.BooleanField(
        default=False, help_text=_("Registered after round 1 was drawn."), verbose_name=_("late")
    )
    checked_in_at = models.DateTimeField(null=True, blank=True, verbose_name=_("checked in at"))
    withdrawn_at = models.DateTimeField(null=True, blank=True, verbose_name=_("withdrawn at"))
    #: The secret of the player's personal page ``/p/<token>/`` (on their player card).
    link_token = models.CharField(
        max_length=32, unique=True, default=new_link_token, verbose_name=_("link token")
    )
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Always seat this player at this table number."),
        verbose_name=_("fixed table"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_registration"),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.player} → {self.tournament} ({self.get_status_display()})"


class ForbiddenPairing(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="forbidden_pairings",
        verbose_name=_("tournament"),
    )
    player_a = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player a")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player b")
    )

    class Meta:
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player_a", "player_b"], name="unique_forbidden_pairing"
            ),
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="forbidden_pairing_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} ≠ {self.player_b}"


class RoundQuerySet(models.QuerySet["Round"]):
    def open(self) -> RoundQuerySet:
        return self.exclude(status=Round.Status.CLOSED)

    def counted(self) -> RoundQuerySet:
        """Rounds whose results and byes count: published or closed."""
        return self.filter(status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])


class Round(models.Model):
    class Status(models.TextChoices):
        DRAWING = "drawing", _("Being drawn")
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        CLOSED = "closed", _("Closed")

    class Stage(models.TextChoices):
        PRELIMINARY = "preliminary", _("Preliminary round")
        QUARTER = "quarter", _("Quarter-final")
        SEMI = "semi", _("Semi-final")
        FINAL = "final", _("Final")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.DRAFT, verbose_name=_("status")
    )
    seed = models.BigIntegerField(default=0, verbose_name=_("seed"))
    attempt = models.PositiveSmallIntegerField(default=1, verbose_name=_("attempt"))
    cost = models.JSONField(default=dict, blank=True, verbose_name=_("cost"))
    published_at = models.DateTimeField(null=True, blank=True, verbose_name=_("published at"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    stage = models.CharField(
        max_length=12, choices=Stage.choices, default=Stage.PRELIMINARY, verbose_name=_("stage")
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=~Q(status="closed"),
                name="one_open_round_per_tournament",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – Runde {self.number}"

    def draw_refusal(self) -> ApplicationError | None:
        """Why the draw task seated nobody (a condition of the field that changed after
        the request, ``errors.DRAW_REFUSALS``), or None."""
        refused = self.cost.get("refused") if isinstance(self.cost, dict) else None
        if not isinstance(refused, dict) or refused.get("key") not in DRAW_REFUSALS:
            return None
        return draw_refusal(refused["key"], refused.get("params") or {})


class Table(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – Tisch {self.number}"


class Seat(models.Model):
    """A player's place at a table. ``round`` repeats ``table.round`` so that the
    database can refuse a player sitting twice in one round."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_round"),
            models.CheckConstraint(condition=Q(position__lte=3), name="seat_position_0_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, Platz {self.position}: {self.player}"

    @property
    def team(self) -> int:
        return self.position % 2


class Bye(models.Model):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="byes", verbose_name=_("player")
    )
    points = models.DecimalField(
        max_digits=8, decimal_places=2, default=0, verbose_name=_("points")
    )

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_bye_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: Freilos {self.player}"


class MatchQuerySet(models.QuerySet["Match"]):
    def unfinished(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.OPEN)


class Match(models.Model):
    """What one table plays in one round: a fixed number of deals or a Liga-Partie.
    Team 0 = seats 0 and 2, team 1 = seats 1 and 3."""

    class Mode(models.TextChoices):
        DEALS = "deals", _("Fixed number of deals")
        LIGA = "liga", _("Liga-Partie")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("match", "Open")
        FINISHED = "finished", pgettext_lazy("match", "Finished")
        CONFIRMED = "confirmed", _("Confirmed")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round")
    )
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="match", verbose_name=_("table")
    )
    mode = models.CharField(
        max_length=8, choices=Mode.choices, default=Mode.DEALS, verbose_name=_("mode")
    )
    deals_planned = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("deals planned")
    )
    target = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("target"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, verbose_name=_("status")
    )
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    home_team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="home_matches",
        verbose_name=_("home team"),
    )
    away_team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="away_matches",
        verbose_name=_("away team"),
    )
    bracket_slot = models.CharField(
        max_length=4,
        blank=True,
        help_text=_("Finals: QF1-QF4, SF1, SF2, F (final), P3 (third)."),
        verbose_name=_("bracket slot"),
    )
    home_seed = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("home seed"))
    away_seed = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("away seed"))

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table__number"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(mode="deals") & Q(deals_planned__gte=1))
                | (Q(mode="liga") & Q(target__gte=1)),
                name="match_mode_has_length",
            ),
        ]
        indexes = [models.Index(fields=["round", "status"])]

    def __str__(self) -> str:
        return f"Partie {self.table}"


class MatchConfirmation(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("match")
    )
    team = models.PositiveSmallIntegerField(
        choices=[(0, "Team 0 (Plätze 0+2)"), (1, "Team 1 (Plätze 1+3)")], verbose_name=_("team")
    )
    confirmed_at = models.DateTimeField(auto_now_add=True, verbose_name=_("confirmed at"))
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by user"),
    )
    confirmed_by_device = models.ForeignKey(
        "DeviceCredential",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by device"),
    )

    class Meta:
        verbose_name = _("match confirmation")
        verbose_name_plural = _("match confirmations")
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="one_confirmation_per_team"),
            models.CheckConstraint(condition=Q(team__lte=1), name="confirmation_team_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: Team {self.team} bestätigt"


def hash_device_code(code: str) -> str:
    """HMAC-SHA256 of a normalised device code, keyed with SECRET_KEY."""
    normalised = code.strip().upper().replace("-", "").replace(" ", "")
    return hmac.new(settings.SECRET_KEY.encode(), normalised.encode(), hashlib.sha256).hexdigest()


class DeviceCredentialQuerySet(models.QuerySet["DeviceCredential"]):
    def usable(self, *, now: datetime | None = None) -> DeviceCredentialQuerySet:
        now = now or timezone.now()
        # a closed round's codes stay usable until they expire: a tablet that was
        # offline at the close still sends the entries made at the table before it
        return self.filter(revoked_at__isnull=True, expires_at__gt=now)


class DeviceCredential(models.Model):
    """A table tablet's key for one table in one round. Only the hash is stored."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="device_credentials", verbose_name=_("table")
    )
    code_hash = models.CharField(max_length=64, unique=True, verbose_name=_("code hash"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))
    #: When a tablet last had its table open (page, poll or deal), and how many entries
    #: it said it was still holding (made offline, not yet sent).
    last_seen_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last seen at"))
    queued_entries = models.PositiveSmallIntegerField(default=0, verbose_name=_("queued entries"))

    objects = DeviceCredentialQuerySet.as_manager()

    class Meta:
        verbose_name = _("device credential")
        verbose_name_plural = _("device credentials")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Gerät {self.table} ({self.pk})"
