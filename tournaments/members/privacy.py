"""A member's rights as services: how their name is shown, and their erasure.

``set_name_style`` changes how the public sees a player's name (the member on their
personal page, or the organiser with the member's word). ``anonymise_player`` erases a
player on request: the name becomes a stable pseudonym ("Spieler 17"), the household and
the user link are cleared, and every table is recomputed under the pseudonym. Figures do
not change: the deal history (append-only, names are not in it), the seats, the ratings
and the league rosters keep pointing at the same player row. It cannot be undone.

Both rename a pair whose name is still its default ("A / B", ``default_pair_name``) and
bump the tables of the player's tournaments (``events.services.update_player``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Player
from tournaments.clubs.names import NameStyle, pseudonym
from tournaments.common.errors import Conflict, Refused
from tournaments.events.models import Team
from tournaments.events.services import update_player
from tournaments.pairs.services import default_pair_name


def _default_named_teams(player: Player) -> list[Team]:
    """The player's pairs that still carry their default name."""
    teams = Team.objects.filter(members__player=player).prefetch_related("members__player")
    return [team for team in teams if team.name == default_pair_name(team.pair_players)]


def _rename_default_pairs(teams: list[Team]) -> None:
    for team in Team.objects.filter(pk__in=[t.pk for t in teams]).prefetch_related(
        "members__player"
    ):
        name = default_pair_name(team.pair_players)
        if name != team.name and not team.tournament.teams.filter(name=name).exists():
            team.name = name
            team.save(update_fields=["name"])


@transaction.atomic
def set_name_style(*, player: Player, style: str) -> Player:
    """Show the player's name to the public in ``style`` (``names.NameStyle``)."""
    if style not in NameStyle.values:
        raise Refused("unknown_name_style", _("Choose how the name is shown."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.pseudonym is not None:
        raise Conflict("player_anonymised", _("This player is anonymised."))
    teams = _default_named_teams(player)
    player = update_player(player=player, changes={"name_style": style})
    _rename_default_pairs(teams)
    return player


@transaction.atomic
def anonymise_player(*, player: Player) -> Player:
    """Erase the player's personal data for good, keeping every figure: the name becomes
    "Player <id>" (stored in the site's language, shown in the reader's: the stored
    tables keep its number, ``names.stored_name``), the household and the user link are
    cleared. Refused for a player anonymised already."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.pseudonym is not None:
        raise Conflict("player_anonymised", _("This player is anonymised."))
    teams = _default_named_teams(player)
    Player.objects.filter(pk=player.pk).update(pseudonym=player.pk, anonymised_at=timezone.now())
    player.pseudonym = player.pk
    with translation.override(settings.LANGUAGE_CODE):
        stored = pseudonym(player.pk)
    player = update_player(
        player=player,
        changes={"name": stored, "household": "", "user": None, "name_style": NameStyle.FULL},
    )
    with translation.override(settings.LANGUAGE_CODE):  # stored as the player's name is
        _rename_default_pairs(teams)
    return player
