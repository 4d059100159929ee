"""Reads for points lost against par over an evening and a season: the player page (per
deal, per evening, over time, the player's best plays), a tournament's overview (the
evening's best play and most expensive slip) and the club page (the season's and the
all-time par leaders).

Only deals whose hand records everyone may see are read: a closed round of a public
tournament whose ``hand_records_public`` allows it (``hand_records.hand_records_public``
says the same of one match); nothing else is counted, linked or named. Each page costs a
fixed number of statements, whatever the number of deals. The counting itself is
``tournaments/deals/par_stats.py``; nothing here writes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db.models import QuerySet

from games.models import DealAnalysis
from tournaments.clubs.models import Club, Player, Season
from tournaments.clubs.names import shown_name
from tournaments.common.engine_messages import card_rank
from tournaments.deals import par_stats
from tournaments.events.models import Round, Seat, Tournament

#: A club's par leaders need at least this many analysed deals.
MIN_DEALS = 8
#: How many leaders and best plays a page lists.
LEADERS = 10
BEST_PLAYS = 5

_REF = {
    "tournament": "version__deal__match__round__tournament_id",
    "round": "version__deal__match__round__number",
    "match": "version__deal__match_id",
    "number": "version__deal__number",
}
_TABLE = "version__deal__match__table_id"
_SEASON = "version__deal__match__round__tournament__season_id"
_ORDER = (
    "version__deal__match__round__tournament__created",
    "version__deal__match__round__tournament_id",
    "version__deal__match__round__number",
    "version__deal__match__table__number",
    "version__deal__number",
)


def public_seats() -> QuerySet[Seat]:
    """Seats of closed rounds of public tournaments with public hand records."""
    return Seat.objects.filter(
        round__status=Round.Status.CLOSED,
        round__tournament__is_public=True,
        round__tournament__hand_records_public=True,
    )


def _analyses(seats: QuerySet[Seat], *fields: str) -> Iterable[dict[str, Any]]:
    """The current analysed versions of the deals at the tables of ``seats`` (one
    statement), oldest first, with their place and ``fields``."""
    return (
        DealAnalysis.objects.filter(
            analysed=True,
            version__is_current=True,
            version__deal__match__table__in=seats.values("table_id"),
        )
        .values(*_REF.values(), _TABLE, *fields)
        .order_by(*_ORDER)
    )


def _ref(row: Mapping[str, Any]) -> par_stats.DealRef:
    return par_stats.DealRef(**{key: row[field] for key, field in _REF.items()})


def _full_deals(
    seats: QuerySet[Seat], players: Mapping[int, Mapping[int, int]]
) -> list[par_stats.PlayedDeal]:
    """Deals with their plays (the analysis JSON), seats mapped to ``players``."""
    deals = []
    for row in _analyses(seats, "analysis"):
        deal = par_stats.played_deal(_ref(row), players.get(row[_TABLE], {}), row["analysis"])
        if deal is not None:
            deals.append(deal)
    return deals


def _seated(seats: QuerySet[Seat]) -> tuple[dict[int, dict[int, int]], dict[int, str]]:
    """Who sat where (table -> position -> player) and the players' public names."""
    tables: dict[int, dict[int, int]] = {}
    names: dict[int, str] = {}
    for table, position, player, name, style, number in seats.values_list(
        "table_id",
        "position",
        "player_id",
        "player__name",
        "player__name_style",
        "player__pseudonym",
    ):
        tables.setdefault(table, {})[position] = player
        names[player] = shown_name(name, style, number)
    return tables, names


def _card(text: str) -> dict[str, str]:
    """A card as the page shows it, its rank in the reader's language (``card_rank``)."""
    return {"text": text, "rank": card_rank(text), "suit": text[-1]}


def highlight_view(
    highlight: par_stats.Highlight,
    *,
    names: Mapping[int, str],
    tournaments: Mapping[int, Tournament],
) -> dict[str, Any]:
    """A best play or a slip as a page shows it: who, which card, where (for links)."""
    return {
        "play": highlight,
        "ref": highlight.ref,
        "name": names.get(highlight.player, "") if highlight.player is not None else "",
        "seat": highlight.seat + 1,
        "card": _card(highlight.card),
        "tournament": tournaments.get(highlight.ref.tournament),
    }


# --- the player page ------------------------------------------------------------------


def player_par(player: Player) -> dict[str, Any] | None:
    """The player's points lost against par: per evening (newest first, each with its
    deals), the two charts and the best plays; ``None`` if no public deal is analysed.
    Three statements."""
    seats = public_seats().filter(player=player)
    deals = _full_deals(
        seats, {t: {p: player.pk} for t, p in seats.values_list("table_id", "position")}
    )
    losses = par_stats.player_losses(deals, player.pk)
    if not losses:
        return None
    tournaments = Tournament.objects.in_bulk({loss.ref.tournament for loss in losses})
    evenings = par_stats.per_tournament(losses)
    total = par_stats.Total(player.pk, len(losses), sum(loss.lost for loss in losses))
    best = par_stats.best_plays(deals, player=player.pk, limit=BEST_PLAYS)
    return {
        "evenings": [
            {
                "tournament": tournaments[e.key],
                "total": e,
                "deals": [loss for loss in losses if loss.ref.tournament == e.key],
            }
            for e in reversed(evenings)
        ],
        "total": total,
        "deal_chart": _named(par_stats.deal_chart(losses), "loss", tournaments),
        "evening_chart": _named(par_stats.evening_chart(evenings), "total", tournaments),
        "best_plays": [
            highlight_view(h, names={player.pk: player.public_name}, tournaments=tournaments)
            for h in best
        ],
    }


def _named(
    chart: par_stats.Chart | None, key: str, tournaments: Mapping[int, Tournament]
) -> par_stats.Chart | None:
    """The chart with each mark's tournament (for its label)."""
    if chart is None:
        return None
    marks = []
    for mark in chart.marks:
        item = mark[key]
        pk = item.ref.tournament if key == "loss" else item.key
        marks.append({**mark, "tournament": tournaments[pk]})
    return dataclasses.replace(chart, marks=marks)


# --- an evening -----------------------------------------------------------------------


def evening_highlights(tournament: Tournament) -> dict[str, Any] | None:
    """The evening's best play and most expensive slip with the players' names, from the
    closed rounds; ``None`` where its hand records are not public or nothing stands
    out. Two statements (none for a tournament whose hand records are private)."""
    if not (tournament.is_public and tournament.hand_records_public):
        return None
    seats = public_seats().filter(round__tournament=tournament)
    tables, names = _seated(seats)
    deals = _full_deals(seats, tables)
    best = par_stats.best_plays(deals, limit=1)
    slip = par_stats.most_expensive_slip(deals)
    if not best and slip is None:
        return None
    known = {tournament.pk: tournament}
    return {
        "tournament": tournament,
        "best": highlight_view(best[0], names=names, tournaments=known) if best else None,
        "slip": highlight_view(slip, names=names, tournaments=known) if slip else None,
    }


def latest_evening_highlights(club: Club) -> dict[str, Any] | None:
    """``evening_highlights`` of the club's latest tournament with an analysed deal in a
    closed round whose hand records everyone may see. Three statements."""
    tournament = (
        Tournament.objects.filter(
            club=club,
            is_public=True,
            hand_records_public=True,
            rounds__status=Round.Status.CLOSED,
            rounds__matches__deals__versions__is_current=True,
            rounds__matches__deals__versions__analysis__analysed=True,
        )
        .order_by("-created", "-pk")
        .first()
    )
    return evening_highlights(tournament) if tournament is not None else None


# --- the club page --------------------------------------------------------------------


def club_par_leaders(
    club: Club, *, seasons: Sequence[Season], min_deals: int | None = None
) -> dict[str, Any] | None:
    """The club's players who lost the least against par per deal over all time and in
    the season of its latest analysed evening (one of ``seasons``, the club's; none if
    that evening belongs to no season), each with at least ``min_deals`` deals (default
    ``MIN_DEALS``); ``None`` when no public deal of the club is analysed. Two statements
    (the stored per-seat costs, not the plays)."""
    min_deals = MIN_DEALS if min_deals is None else min_deals
    seats = public_seats().filter(round__tournament__club=club)
    tables, names = _seated(seats)
    by_season: dict[int | None, list[par_stats.DealLoss]] = {}
    latest: int | None = None
    for row in _analyses(seats, "costs", "analysis__par_outcome", _SEASON):
        if row["analysis__par_outcome"] == "thrown_in" or not row["costs"]:
            continue
        deal = par_stats.PlayedDeal(_ref(row), tables.get(row[_TABLE], {}), tuple(row["costs"]))
        latest = row[_SEASON]
        by_season.setdefault(latest, []).extend(par_stats.all_losses([deal]))
    if not by_season:
        return None
    season = next((s for s in seasons if s.pk == latest), None)
    return {
        "min_deals": min_deals,
        "season": season,
        "season_rows": _leader_rows(by_season.get(latest, []), names, min_deals) if season else [],
        "all_time_rows": _leader_rows(
            [loss for losses in by_season.values() for loss in losses], names, min_deals
        ),
    }


def _leader_rows(
    losses: list[par_stats.DealLoss], names: Mapping[int, str], min_deals: int
) -> list[dict[str, Any]]:
    return [
        {"rank": i, "player": t.key, "name": names.get(t.key, ""), "total": t}
        for i, t in par_stats.ranked(par_stats.leaders(losses, min_deals=min_deals, limit=LEADERS))
    ]
