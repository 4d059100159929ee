"""Who may see a deal's cards, play and result, and from when (RULES.md, "Duplicate
tournaments", "Who sees a board when").

One rule for every page, export and API answer that shows a deal or a table's result:

- the club's organisers always, and the device of the table that played it always;
- everyone else who may see the tournament and the round once the tournament's format
  says its deals are no longer sealed (``tournaments.formats``: a duplicate round's until
  it is closed, as the other tables still play the same boards; no other format seals).

What it does not do: it does not decide who may see a tournament or a round at all
(``events.permissions.visible_tournaments``, the rounds' states), nor the hand records'
own publication setting (``hand_records.hand_records_public``). Nothing here writes.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments import formats
from tournaments.clubs.permissions import organises_club
from tournaments.common.errors import Forbidden
from tournaments.events.models import DeviceCredential, Match, Round

#: The refusal of a sealed deal, for whoever is neither its table nor an organiser.
SEALED = _(
    "This board is still being played at other tables: its cards and results are shown "
    "once the round is closed."
)


def sealed(round_: Round) -> bool:
    """Whether the round's deals are still hidden from everyone but their tables and the
    organisers (the format profile says: a duplicate round until it is closed)."""
    return formats.sealed(round_)


def unsealed(prefix: str = "") -> Q:
    """A filter for the rows (rounds, or rows reached through ``prefix``, e.g.
    ``"round__"``) whose deals everyone who may see them may see now."""
    return formats.unsealed(prefix)


def may_see_deals(user: Any, match: Match, *, device: DeviceCredential | None = None) -> bool:
    """Whether the caller may see the deals of ``match`` now (its cards, play, results),
    given that it may see the match's round at all."""
    if device is not None:
        return device.table_id == match.table_id
    if organises_club(user, match.round.tournament.club_id):
        return True
    return not sealed(match.round)


def require_deals_visible(
    user: Any, match: Match, *, device: DeviceCredential | None = None
) -> None:
    """Refuse (403 ``round_not_closed``) a caller who may not see the match's deals yet."""
    if not may_see_deals(user, match, device=device):
        raise Forbidden("round_not_closed", SEALED)
