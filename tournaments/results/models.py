"""Stored results: a tournament's standings snapshot and a club's leaderboards."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club
from tournaments.events.models import Tournament


class StandingsSnapshot(models.Model):
    """Standings computed by the standings task for ``computed_version`` of the results."""

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="standings_snapshot",
        verbose_name=_("tournament"),
    )
    computed_version = models.PositiveIntegerField(default=0, verbose_name=_("computed version"))
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))
    computed_at = models.DateTimeField(default=timezone.now, verbose_name=_("computed at"))

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"Rangliste {self.tournament} (v{self.computed_version})"


class ClubSnapshot(models.Model):
    """A club's leaderboards (all-time table, KlammernBoss history, league tables per
    season) computed by the leaderboards task for ``computed_version`` of
    ``Club.results_version``."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, related_name="snapshot", verbose_name=_("club")
    )
    computed_version = models.PositiveIntegerField(default=0, verbose_name=_("computed version"))
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))
    computed_at = models.DateTimeField(default=timezone.now, verbose_name=_("computed at"))

    class Meta:
        verbose_name = _("club snapshot")
        verbose_name_plural = _("club snapshots")

    def __str__(self) -> str:
        return f"Bestenlisten {self.club} (v{self.computed_version})"
