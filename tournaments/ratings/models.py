"""Club ratings as stored rows: rating lists, players' ratings, rated rounds and each
rating change."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games import profiles
from tournaments.clubs.models import Club, Player
from tournaments.events.models import Round

# --- ratings across changing partners (tournaments/ratings/elo.py, rating_services.py) -----


class RatingList(models.Model):
    """A club's rating list: the row that rating writes of the club lock, and how many
    closed rounds it counts."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, related_name="rating_list", verbose_name=_("club")
    )
    rounds = models.PositiveIntegerField(default=0, verbose_name=_("rounds"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")

    def __str__(self) -> str:
        return f"Wertungsliste {self.club}"


class PlayerRating(models.Model):
    """A player's current rating at a club (openskill Plackett-Luce; ``rating`` is the
    shown ordinal mu - 3 sigma)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="player_ratings", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    #: The game's rating pool (``GameProfile.rating_pool``): games rate in their own.
    pool = models.CharField(
        max_length=30, default=profiles.DEFAULT_RATING_POOL, verbose_name=_("rating pool")
    )
    mu = models.FloatField(verbose_name=_("mu (rating)"))
    sigma = models.FloatField(verbose_name=_("sigma (uncertainty)"))
    rating = models.FloatField(verbose_name=_("rating"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["club", "pool", "-rating", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "pool", "player"], name="one_rating_per_club_pool_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}: {self.rating:.1f}"


class RatedRound(models.Model):
    """A closed round counted in a club's ratings, ``sequence`` in closing order."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rated_rounds", verbose_name=_("club")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="rated", verbose_name=_("round")
    )
    sequence = models.PositiveIntegerField(verbose_name=_("sequence"))
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))
    #: The rating pool of the round's game ("" where its games are not rated).
    pool = models.CharField(
        max_length=30,
        default=profiles.DEFAULT_RATING_POOL,
        blank=True,
        verbose_name=_("rating pool"),
    )

    class Meta:
        verbose_name = _("rated round")
        verbose_name_plural = _("rated rounds")
        ordering = ["club", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["club", "round"], name="one_rating_step_per_round"),
            models.UniqueConstraint(fields=["club", "sequence"], name="rating_sequence_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: #{self.sequence} {self.round}"


class RatingChange(models.Model):
    """A player's rating after a rated round they played in (the rating history)."""

    rated_round = models.ForeignKey(
        RatedRound, on_delete=models.CASCADE, related_name="changes", verbose_name=_("rated round")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    mu = models.FloatField(verbose_name=_("mu (rating)"))
    sigma = models.FloatField(verbose_name=_("sigma (uncertainty)"))
    rating = models.FloatField(verbose_name=_("rating"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["rated_round", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["rated_round", "player"], name="one_rating_change_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rated_round}: {self.player} {self.rating:.1f}"
