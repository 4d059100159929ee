"""Everything stored about one player, for the member's own download (their personal
page): the player row and club memberships, registrations, the deals at their tables
(every stored version: the history is append-only; a sealed round's once it is closed),
ratings with their changes, and league rosters. ``player_data`` reads (no writes);
``flat_rows`` lays it out as the rows of one CSV (section, item, field, value)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from games.models import DealVersion
from tournaments.clubs.models import Player
from tournaments.deals import visibility
from tournaments.events.models import Registration, Seat
from tournaments.leagues.models import LeagueTeam
from tournaments.ratings.models import PlayerRating, RatingChange


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _player(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "public_name": player.public_name,
        "name_style": player.name_style,
        "household": player.household,
        "user": player.user.get_username() if player.user else None,
        "created": _when(player.created),
        "anonymised_at": _when(player.anonymised_at),
        "clubs": [
            {"club": m.club.name, "kind": m.kind, "since": _when(m.created)}
            for m in player.memberships.select_related("club").order_by("created")
        ],
    }


def _registrations(player: Player) -> list[dict[str, Any]]:
    rows = Registration.objects.filter(player=player).select_related("tournament__club", "team")
    return [
        {
            "tournament": r.tournament.name,
            "club": r.tournament.club.name,
            "status": r.status,
            "late": r.late,
            "pair": r.team.name if r.team else None,
            "registered": _when(r.created),
            "checked_in_at": _when(r.checked_in_at),
            "withdrawn_at": _when(r.withdrawn_at),
        }
        for r in rows.order_by("created", "pk")
    ]


def _deals(player: Player) -> list[dict[str, Any]]:
    """The deals at the player's tables whose round everyone may see (a duplicate round
    still played is sealed, ``visibility``: its deals follow once it is closed)."""
    seated = Seat.objects.filter(visibility.unsealed("round__"), player=player)
    seats = {s.table_id: s for s in seated.select_related("round__tournament", "table")}
    versions = (
        DealVersion.objects.filter(deal__match__table_id__in=seats)
        .select_related("deal__match")
        .order_by("deal__match__table_id", "deal__number", "version")
    )
    out = []
    for v in versions:
        seat = seats[v.deal.match.table_id]
        out.append(
            {
                "tournament": seat.round.tournament.name,
                "round": seat.round.number,
                "table": seat.table.number,
                "seat": seat.position + 1,
                "deal": v.deal.number,
                "version": v.version,
                "current": v.is_current,
                "outcome": v.outcome,
                "record": v.record,
                "result": v.result,
                "entered": _when(v.created),
            }
        )
    return out


def _ratings(player: Player) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {
            "club": r.club.name,
            "pool": r.pool,
            "rating": r.rating,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "updated_at": _when(r.updated_at),
        }
        for r in PlayerRating.objects.filter(player=player).select_related("club")
    ]
    changes = RatingChange.objects.filter(player=player).select_related(
        "rated_round__club", "rated_round__round__tournament"
    )
    for c in changes.order_by("rated_round__sequence"):
        rows.append(
            {
                "club": c.rated_round.club.name,
                "pool": c.rated_round.pool,
                "after_round": f"{c.rated_round.round.tournament.name} "
                f"{c.rated_round.round.number}",
                "rating": c.rating,
                "mu": c.mu,
                "sigma": c.sigma,
                "games": c.games,
            }
        )
    return rows


def _rosters(player: Player) -> list[dict[str, Any]]:
    teams = LeagueTeam.objects.filter(roster=player).select_related("division__league", "club")
    return [
        {
            "league": str(t.division.league),
            "division": t.division.name,
            "team": t.name,
            "club": t.club.name,
        }
        for t in teams.order_by("created", "pk")
    ]


def player_data(player: Player) -> dict[str, Any]:
    """Everything stored about ``player``, as plain JSON values."""
    return {
        "player": _player(player),
        "registrations": _registrations(player),
        "deals": _deals(player),
        "ratings": _ratings(player),
        "league_rosters": _rosters(player),
    }


def flat_rows(data: dict[str, Any]) -> Iterator[tuple[str, int, str, str]]:
    """``player_data`` as (section, item, field, value) rows; nested values as JSON."""
    for section, content in data.items():
        items = content if isinstance(content, list) else [content]
        for index, item in enumerate(items, start=1):
            for field, value in item.items():
                shown = (
                    json.dumps(value, ensure_ascii=False, sort_keys=True)
                    if isinstance(value, dict | list)
                    else ("" if value is None else str(value))
                )
                yield section, index, field, shown
