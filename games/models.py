"""Deals as stored rows: each deal of a match, its versions and idempotency records.

A deal's record and the engine's result live in ``DealVersion``; a correction adds a new
version and flips ``is_current``. The database refuses two deals with the same number in
one match, two current versions of one deal, and two requests with the same idempotency
key in one scope. Writing these rows is the job of ``games/services.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Deal(models.Model):
    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
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
        MADE = "made", "gemacht"
        FAILED = "failed", "verloren"
        REVOKE = "revoke", "Renonce"
        THROWN_IN = "thrown_in", "eingeworfen"
        MARCH_WON = "march_won", "Marsch gewonnen"
        MARCH_LOST = "march_lost", "Marsch verloren"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveSmallIntegerField()
    record = models.JSONField()
    result = models.JSONField()
    engine_version = models.CharField(max_length=40)
    is_current = models.BooleanField(default=True)
    created_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by_device = models.ForeignKey(
        "tournaments.DeviceCredential",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="deal_versions",
    )
    reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    points_0 = models.IntegerField(default=0)
    points_1 = models.IntegerField(default=0)
    small_0 = models.IntegerField(default=0)
    small_1 = models.IntegerField(default=0)
    match_points_0 = models.IntegerField(default=0)
    match_points_1 = models.IntegerField(default=0)
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = DealVersionQuerySet.as_manager()

    class Meta:
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

    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    etag = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["created"])]

    def __str__(self) -> str:
        return f"{self.scope}/{self.key} → {self.status_code}"
