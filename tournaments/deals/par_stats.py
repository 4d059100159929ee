"""Points lost against par over an evening and a season, from stored par analyses.

Pure functions over small frozen dataclasses (standard library only): the selectors in
``tournaments/deals/par_selectors.py`` load the rows and say which deals may be shown;
this module only counts. It computes, per player (seats mapped to the players who sat
there in that match): the points lost per deal and per evening, the players with the
least lost per deal (with a minimum number of deals), a deal's or an evening's best play
and most expensive slip, and the coordinates of the small SVG charts.

What counts: a deal the engine analysed and that was played (a thrown-in deal has
nothing to lose; a summary record or a deal not analysed yet is left out). A play's
``cost`` is the deal points it lost against the best card (0 for a best card). A "best
play" needs the analysis' ``values`` (the cost of every legal card at that moment;
analyses stored before it existed have none and give no best play): a best card played
where every other legal card would have cost at least ``saved`` points, the largest
``saved`` being the best. It does not decide who may see a deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

#: Deal points lost by the plays of one seat, as the analysis' plays add them up.
SEATS = 4


@dataclass(frozen=True)
class DealRef:
    """Where a deal is: its tournament, round, match and number (for links)."""

    tournament: int
    round: int
    match: int
    number: int


@dataclass(frozen=True)
class PlayedDeal:
    """One analysed, played deal: who sat at each seat, each seat's points lost and (when
    loaded) the analysis' plays."""

    ref: DealRef
    players: Mapping[int, int]  # seat position -> player id
    costs: tuple[int, ...]
    plays: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class DealLoss:
    ref: DealRef
    player: int
    lost: int


@dataclass(frozen=True)
class Total:
    """Deals and points lost of one key (a tournament or a player); ``average`` per deal."""

    key: int
    deals: int
    lost: int

    @property
    def average(self) -> float:
        return round(self.lost / self.deals, 1) if self.deals else 0.0


@dataclass(frozen=True)
class Highlight:
    """One play worth showing: who played which card in which trick of which deal, what
    it cost, and for a best play what every other card would have cost at least."""

    ref: DealRef
    player: int | None
    seat: int
    trick: int
    card: str
    cost: int
    saved: int = 0
    only: bool = False  # the only card that did not lose points


def counts(analysis: Mapping[str, Any] | None) -> bool:
    """Whether a stored analysis is of a deal that was analysed and played."""
    if not analysis or not analysis.get("analysed"):
        return False
    return analysis.get("par_outcome") != "thrown_in"


def seat_losses(plays: Iterable[Mapping[str, Any]]) -> tuple[int, ...]:
    """The deal points each seat's plays lost against par."""
    costs = [0] * SEATS
    for play in plays:
        costs[play["seat"]] += play["cost"]
    return tuple(costs)


def played_deal(
    ref: DealRef, players: Mapping[int, int], analysis: Mapping[str, Any] | None
) -> PlayedDeal | None:
    """A deal from its stored analysis; ``None`` when it does not count (see ``counts``)."""
    if analysis is None or not counts(analysis):
        return None
    plays = tuple(analysis.get("plays") or ())
    return PlayedDeal(ref, players, seat_losses(plays), plays)


def player_losses(deals: Iterable[PlayedDeal], player: int) -> list[DealLoss]:
    """The points ``player`` lost in each deal he or she played, in the order given."""
    out = []
    for deal in deals:
        for seat, who in deal.players.items():
            if who == player and seat < len(deal.costs):
                out.append(DealLoss(deal.ref, player, deal.costs[seat]))
    return out


def all_losses(deals: Iterable[PlayedDeal]) -> Iterator[DealLoss]:
    """Every seated player's loss in every deal."""
    for deal in deals:
        for seat, who in deal.players.items():
            if seat < len(deal.costs):
                yield DealLoss(deal.ref, who, deal.costs[seat])


def per_tournament(losses: Iterable[DealLoss]) -> list[Total]:
    """Deals and points lost per tournament, in the order the tournaments first appear."""
    return _totals(losses, key=lambda loss: loss.ref.tournament)


def per_player(losses: Iterable[DealLoss]) -> list[Total]:
    return _totals(losses, key=lambda loss: loss.player)


def _totals(losses: Iterable[DealLoss], *, key: Any) -> list[Total]:
    deals: dict[int, int] = {}
    lost: dict[int, int] = {}
    for loss in losses:
        k = key(loss)
        deals[k] = deals.get(k, 0) + 1
        lost[k] = lost.get(k, 0) + loss.lost
    return [Total(k, deals[k], lost[k]) for k in deals]


def leaders(losses: Iterable[DealLoss], *, min_deals: int, limit: int = 10) -> list[Total]:
    """The players who lost the least per deal, among those with at least ``min_deals``
    deals (so one lucky deal does not top it); more deals first on a tie."""
    if min_deals < 1:
        raise ValueError("min_deals must be at least 1")
    ranked = [t for t in per_player(losses) if t.deals >= min_deals]
    ranked.sort(key=lambda t: (t.lost / t.deals, -t.deals, t.key))
    return ranked[:limit]


def ranked(totals: Sequence[Total]) -> list[tuple[int, Total]]:
    """``leaders`` with their ranks: the same loss per deal shares a rank (1, 1, 3)."""
    out: list[tuple[int, Total]] = []
    for i, total in enumerate(totals, 1):
        same = bool(out) and Fraction(out[-1][1].lost, out[-1][1].deals) == Fraction(
            total.lost, total.deals
        )
        out.append((out[-1][0] if same else i, total))
    return out


# --- plays ----------------------------------------------------------------------------


def saving(play: Mapping[str, Any]) -> tuple[int, bool] | None:
    """For a best card played: the least any other legal card would have cost, and
    whether it was the only best card; ``None`` for a costly play, a play without
    ``values`` (older analyses) or one where no other card would have cost anything."""
    values = play.get("values")
    if play.get("cost") != 0 or not isinstance(values, dict):  # dict: JSON, and fast
        return None
    costs = [v for v in values.values() if isinstance(v, int) and not isinstance(v, bool)]
    worse = [v for v in costs if v > 0]
    if not worse:
        return None
    return min(worse), sum(1 for v in costs if v == 0) == 1


def _highlight(deal: PlayedDeal, play: Mapping[str, Any], **extra: Any) -> Highlight:
    seat = play["seat"]
    return Highlight(
        ref=deal.ref,
        player=deal.players.get(seat),
        seat=seat,
        trick=play.get("trick", 0),
        card=play["card"],
        cost=play["cost"],
        **extra,
    )


def best_plays(
    deals: Iterable[PlayedDeal], *, player: int | None = None, limit: int = 5
) -> list[Highlight]:
    """The plays that saved the most (see ``saving``), of ``player`` or of everyone;
    the earlier first on a tie."""
    found: list[tuple[int, int, Highlight]] = []
    for deal in deals:
        for play in deal.plays:
            if player is not None and deal.players.get(play["seat"]) != player:
                continue
            saved = saving(play)
            if saved is None:
                continue
            found.append(
                (-saved[0], len(found), _highlight(deal, play, saved=saved[0], only=saved[1]))
            )
    found.sort(key=lambda item: item[:2])
    return [h for _, _, h in found[:limit]]


def most_expensive_slip(deals: Iterable[PlayedDeal]) -> Highlight | None:
    """The play that lost the most points (the earliest on a tie); ``None`` if none lost."""
    worst: tuple[PlayedDeal, Mapping[str, Any]] | None = None
    for deal in deals:
        for play in deal.plays:
            if play["cost"] > 0 and (worst is None or play["cost"] > worst[1]["cost"]):
                worst = (deal, play)
    return _highlight(*worst) if worst else None


# --- charts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    """An SVG chart's frame and its marks (coordinates as strings, never localized)."""

    width: int
    height: int
    baseline: int
    top: float
    marks: Sequence[Mapping[str, Any]]
    line: str = ""


def deal_chart(
    losses: Sequence[DealLoss], *, width: int = 320, height: int = 120, last: int = 40
) -> Chart | None:
    """Bars of the points lost in the last ``last`` deals, oldest first."""
    losses = losses[-last:]
    if not losses:
        return None
    top = max(max(loss.lost for loss in losses), 10)
    baseline = height - 16
    step = (width - 8) / len(losses)
    marks = []
    for i, loss in enumerate(losses):
        h = (height - 20) * loss.lost / top
        marks.append(
            {
                "x": f"{4 + i * step:.1f}",
                "y": f"{baseline - h:.1f}",
                "w": f"{max(step - 2, 1):.1f}",
                "h": f"{h:.1f}",
                "loss": loss,
            }
        )
    return Chart(width, height, baseline, top, marks)


def evening_chart(
    evenings: Sequence[Total], *, width: int = 320, height: int = 120, last: int = 20
) -> Chart | None:
    """A line of the points lost per deal, evening after evening (oldest first): how a
    player's play develops over a season. ``None`` for fewer than two evenings."""
    evenings = evenings[-last:]
    if len(evenings) < 2:
        return None
    top = max(max(e.average for e in evenings), 5.0)
    baseline = height - 16
    step = (width - 24) / (len(evenings) - 1)
    marks = []
    for i, evening in enumerate(evenings):
        marks.append(
            {
                "x": f"{12 + i * step:.1f}",
                "y": f"{baseline - (height - 28) * evening.average / top:.1f}",
                "total": evening,
            }
        )
    line = " ".join(f"{m['x']},{m['y']}" for m in marks)
    return Chart(width, height, baseline, top, marks, line)
