"""The imported history of a club: an import (one confirmed file, removable as a whole),
its evenings (a date, optionally a past season: its name as the file has it and the
club's ``Season`` it counts in) and each player's line of an evening (games played and
won, point difference, rank).

An imported evening holds no tables and no deals: it counts in the club tables
(KlammernBoss window, all-time table, title history) through ``snapshots``, which feeds
its lines to the pure standings as ``ImportedTally`` values, and in its season's table
through ``seasons``. Nothing here computes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, Player, Season


class HistoryImport(models.Model):
    """One confirmed import of a club's spreadsheet."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="history_imports", verbose_name=_("club")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("imported by"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    file_name = models.CharField(max_length=200, blank=True, verbose_name=_("file name"))
    file_sha256 = models.CharField(max_length=64, verbose_name=_("file checksum"))
    #: The players this import created (removed with it unless they played since).
    created_players = models.ManyToManyField(
        Player, blank=True, related_name="+", verbose_name=_("players created")
    )
    #: The past seasons this import created (removed with it unless used since).
    created_seasons = models.ManyToManyField(
        Season, blank=True, related_name="history_imports", verbose_name=_("seasons created")
    )

    class Meta:
        verbose_name = _("history import")
        verbose_name_plural = _("history imports")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.club} {self.file_name} ({self.created:%Y-%m-%d})"


class ImportedEvening(models.Model):
    """A past playing evening from the club's spreadsheet."""

    batch = models.ForeignKey(
        HistoryImport, on_delete=models.CASCADE, related_name="evenings", verbose_name=_("import")
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="imported_evenings", verbose_name=_("club")
    )
    date = models.DateField(verbose_name=_("date"))
    season = models.CharField(max_length=200, blank=True, verbose_name=_("season"))
    #: The club's season the evening counts in (created by an import, or one the club
    #: had of the same name); its season table counts it as a played evening.
    club_season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imported_evenings",
        verbose_name=_("club season"),
    )

    class Meta:
        verbose_name = _("imported evening")
        verbose_name_plural = _("imported evenings")
        ordering = ["date", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="unique_imported_evening_date"),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"


class ImportedResult(models.Model):
    """One player's line of an imported evening."""

    evening = models.ForeignKey(
        ImportedEvening,
        on_delete=models.CASCADE,
        related_name="results",
        verbose_name=_("evening"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="imported_results", verbose_name=_("player")
    )
    played = models.PositiveIntegerField(verbose_name=_("games played"))
    won = models.PositiveIntegerField(verbose_name=_("games won"))
    point_difference = models.IntegerField(verbose_name=_("point difference"))
    rank = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("rank"))

    class Meta:
        verbose_name = _("imported result")
        verbose_name_plural = _("imported results")
        ordering = ["evening", "rank", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player"], name="unique_imported_result_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening}: {self.player}"
