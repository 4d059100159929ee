"""Read-side helpers for deals: the current results of a match and its running score,
kept by the rules engine's scorekeepers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import engine
from games.models import DealVersion
from tournaments.events.models import Match, Round, Tournament
from tournaments.events.selectors import tournament_options, tournament_profile


def current_results(match: Match) -> list[dict[str, Any]]:
    """The engine results of a match's current deal versions, in deal order."""
    versions = DealVersion.objects.current().filter(deal__match=match).order_by("deal__number")
    return [v.result for v in versions]


def running_score(match: Match) -> dict[str, Any]:
    """The match's running score as its game's keepers count it (small/big points with
    the Hamburg rounds or a Liga-Partie's match points, or a points match), for the
    tablet (``GameProfile.running_score``)."""
    tournament = match.round.tournament
    return tournament_profile(tournament).running_score(
        current_results(match),
        tournament_options(tournament),
        mode=match.mode,
        target=match.target or 51,
    )


def organiser_can_enter(match: Match) -> bool:
    """Whether the organiser may enter a new deal at this table: its match is still open,
    its round published or closed, and the tournament not finished (what
    ``services.submit_deal`` accepts; it stays the judge of every entry)."""
    round_ = match.round
    return (
        match.status == Match.Status.OPEN
        and round_.status in (Round.Status.PUBLISHED, Round.Status.CLOSED)
        and round_.tournament.status != Tournament.Status.FINISHED
    )


def next_missing_number(match: Match) -> int:
    """The lowest deal number of the match that has not been entered."""
    entered = set(match.deals.values_list("number", flat=True))
    return next(n for n in range(1, len(entered) + 2) if n not in entered)


def may_be_entered(match: Match, number: int) -> bool:
    """Whether deal ``number`` is one the organiser could enter now: a gap among the
    entered numbers or the one after the last (the service still judges the entry)."""
    if number < 1 or not organiser_can_enter(match):
        return False
    entered = set(match.deals.values_list("number", flat=True))
    return number not in entered and number <= max(entered, default=0) + 1


def is_thrown_in(record: dict[str, Any]) -> bool:
    return (record.get("contract") or {}).get("kind") == "thrown_in"


def dealer_after(records: Sequence[dict[str, Any]], options: engine.Options) -> int:
    """The seat that deals after these deal records (in deal order), by the rules'
    rotation (``engine.next_dealer``); the first dealer before any deal."""
    if not records:
        return engine.FIRST_DEALER
    last = records[-1]
    return engine.next_dealer(int(last["dealer"]), thrown_in=is_thrown_in(last), options=options)


def dealer_of(match: Match, number: int, *, options: engine.Options) -> int:
    """The seat that deals deal ``number``: the next after the deals entered before it
    (before a gap a proposal only: the deals missing in it may have been thrown in)."""
    records = [
        v.record
        for v in DealVersion.objects.current()
        .filter(deal__match=match, deal__number__lt=number)
        .order_by("deal__number")
    ]
    return dealer_after(records, options)
