"""The template filter ``public_name``: a player as the public sees them (a builtin of the
site's templates, see ``TEMPLATES`` in the settings). ``{{ player|public_name }}`` is
``Player.public_name``; the console's templates write ``{{ player.name }}``."""

from __future__ import annotations

from django import template

from tournaments.clubs.models import Player

register = template.Library()


@register.filter
def public_name(player: Player | None) -> str:
    return "" if player is None else player.public_name
