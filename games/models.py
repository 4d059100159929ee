"""Deals as stored rows: each deal of a match, its versions and idempotency records.

A deal's record and the engine's result live in ``DealVersion``; a correction adds a new
version and flips ``is_current``. The database refuses two deals with the same number in
one match, two current versions of one deal, and two requests with the same idempotency
key in one scope. On PostgreSQL its own triggers (migration ``0006``, not django-pgtrigger,
whose ``pgtrigger.ignore`` session setting would lift them) also keep the history
append-only: a version is never deleted, the only change it takes is ``is_current`` going
from true to false, and only in a transaction that also makes its successor current; a
deal keeps its number and match; neither table can be truncated. Deleting a whole club
or tournament in the admin lifts the guard for its own transaction only: the setting
``HISTORY_DELETION_SETTING`` must hold that transaction's id
(``tournaments.deals.services.deleting_history``), which a plain ``SET`` cannot know. Writing these
rows is the job of ``tournaments/deals/services.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: The transaction-local PostgreSQL setting under which deal versions may be deleted with
#: the club or tournament they belong to (``tournaments.deals.services.deleting_history``).
HISTORY_DELETION_SETTING = "klammern.delete_history"


class Deal(models.Model):
    match = models.ForeignKey(
        "tournaments.Match", on_delete=models.CASCADE, related_name="deals", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_deal_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.match}, Spiel {self.number}"


class DealVersionQuerySet(models.QuerySet["DealVersion"]):
    def current(self) -> DealVersionQuerySet:
        return self.filter(is_current=True)


class DealVersion(models.Model):
    """One submitted version of a deal. Scores the standings need are copied from the
    engine's result into plain columns."""

    class Outcome(models.TextChoices):
        MADE = "made", _("made")
        FAILED = "failed", _("failed")
        REVOKE = "revoke", _("revoke")
        THROWN_IN = "thrown_in", _("thrown in")
        MARCH_WON = "march_won", _("March won")
        MARCH_LOST = "march_lost", _("March lost")

    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="versions", verbose_name=_("deal")
    )
    version = models.PositiveSmallIntegerField(verbose_name=_("version"))
    record = models.JSONField(verbose_name=_("record"))
    result = models.JSONField(verbose_name=_("result"))
    engine_version = models.CharField(max_length=40, verbose_name=_("engine version"))
    is_current = models.BooleanField(default=True, verbose_name=_("current"))
    created_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by user"),
    )
    created_by_device = models.ForeignKey(
        "tournaments.DeviceCredential",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="deal_versions",
        verbose_name=_("created by device"),
    )
    reason = models.TextField(blank=True, verbose_name=_("reason"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    points_0 = models.IntegerField(default=0, verbose_name=_("points (seats 1+3)"))
    points_1 = models.IntegerField(default=0, verbose_name=_("points (seats 2+4)"))
    small_0 = models.IntegerField(default=0, verbose_name=_("small points (seats 1+3)"))
    small_1 = models.IntegerField(default=0, verbose_name=_("small points (seats 2+4)"))
    match_points_0 = models.IntegerField(default=0, verbose_name=_("match points (seats 1+3)"))
    match_points_1 = models.IntegerField(default=0, verbose_name=_("match points (seats 2+4)"))
    outcome = models.CharField(max_length=12, choices=Outcome.choices, verbose_name=_("outcome"))
    winner_team = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("winning team")
    )

    objects = DealVersionQuerySet.as_manager()

    class Meta:
        verbose_name = _("deal version")
        verbose_name_plural = _("deal versions")
        ordering = ["deal", "version"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "version"], name="unique_deal_version"),
            models.UniqueConstraint(
                fields=["deal"], condition=Q(is_current=True), name="one_current_deal_version"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="deal_version_gte_1"),
            models.CheckConstraint(
                condition=Q(winner_team__isnull=True) | Q(winner_team__lte=1),
                name="deal_winner_team_0_or_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal} v{self.version}{' (aktuell)' if self.is_current else ''}"


class IdempotencyRecord(models.Model):
    """The first response to a request with a given ``Idempotency-Key`` in a scope
    (``device:<id>`` or ``user:<id>``), replayed for retries."""

    scope = models.CharField(max_length=64, verbose_name=_("scope"))
    key = models.CharField(max_length=255, verbose_name=_("key"))
    request_hash = models.CharField(max_length=64, verbose_name=_("request hash"))
    status_code = models.PositiveSmallIntegerField(verbose_name=_("status code"))
    response_body = models.JSONField(verbose_name=_("response body"))
    etag = models.CharField(max_length=40, blank=True, verbose_name=_("ETag"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["created"])]

    def __str__(self) -> str:
        return f"{self.scope}/{self.key} → {self.status_code}"


class DealAnalysis(models.Model):
    """The engine's par analysis of one deal version (``games.engine.analyse``), written
    by ``games/analysis_services.py``. Each version has its own: a correction adds a
    version, and with it a new analysis; the old one stays with the old version.
    ``analysed`` is false for a summary record (no hands to analyse). ``costs`` are the
    deal points each seat's plays lost against par (0–3; empty when not analysed)."""

    version = models.OneToOneField(
        DealVersion, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("version")
    )
    analysis = models.JSONField(verbose_name=_("analysis"))
    analysis_version = models.CharField(max_length=40, verbose_name=_("analysis version"))
    engine_version = models.CharField(max_length=40, verbose_name=_("engine version"))
    analysed = models.BooleanField(verbose_name=_("analysed"))
    costs = models.JSONField(default=list, blank=True, verbose_name=_("costs"))
    created = models.DateTimeField(auto_now=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("deal analysis")
        verbose_name_plural = _("deal analyses")

    def __str__(self) -> str:
        return f"{self.version}: Analyse {self.analysis_version}"
