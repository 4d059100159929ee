"""Players' names in the API's answers: ``PlayerNameField`` says a player's name in full to
an organiser of one of the player's clubs, and as the public sees it
(``Player.public_name``, ``tournaments.clubs.names``) to every other caller."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.clubs.models import ClubMembership, Player
from tournaments.clubs.permissions import organised_club_ids


def organised_player_ids(user: Any) -> set[int]:
    """The players of the clubs ``user`` organises (none for an anonymous caller)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    rows = ClubMembership.objects.filter(club__in=organised_club_ids(user))
    return set(rows.values_list("player_id", flat=True))


def name_for(user: Any, player: Player) -> str:
    """``player``'s name as ``user`` may read it."""
    return player.name if player.pk in organised_player_ids(user) else player.public_name


@extend_schema_field(serializers.CharField())
class PlayerNameField(serializers.Field):  # type: ignore[type-arg]
    """A player's name as the caller may read it: in full for an organiser of one of the
    player's clubs, else as the public sees it (``Player.public_name``)."""

    CONTEXT_KEY = "organised_player_ids"

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, player: Player) -> str:
        return player.name if player.pk in self._organised_players() else player.public_name

    def _organised_players(self) -> set[int]:
        """The players of the caller's clubs, read once per answer."""
        context = self.context
        if self.CONTEXT_KEY not in context:
            user = getattr(context.get("request"), "user", None)
            context[self.CONTEXT_KEY] = organised_player_ids(user)
        ids: set[int] = context[self.CONTEXT_KEY]
        return ids
