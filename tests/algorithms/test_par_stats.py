"""Points lost against par over evenings and seasons (tournaments/deals/par_stats.py):
pure, no database. Deals without ``values`` (older analyses), thrown-in deals and deals
without an analysis are part of every table."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.analysis_services import seat_costs
from tests.support.hand_records import COSTLY_DEAL
from tournaments.deals import par_stats
from tournaments.deals.par_stats import DealLoss, DealRef, Total

ALICE, BOB, CARL, DORA, EMIL = 1, 2, 3, 4, 5


def ref(tournament: int = 1, number: int = 1, *, match: int = 10, round_: int = 1) -> DealRef:
    return DealRef(tournament=tournament, round=round_, match=match, number=number)


def play(
    seat: int, card: str, cost: int, values: dict[str, int] | None = None, trick: int = 1
) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "card": card, "cost": cost, "trick": trick}
    if values is not None:
        entry["values"] = values
    return entry


def analysis(*plays: dict[str, Any], outcome: str = "made") -> dict[str, Any]:
    return {"analysed": True, "par_outcome": outcome, "plays": list(plays)}


SEATING = {0: ALICE, 1: BOB, 2: CARL, 3: DORA}


def deal(
    *plays: dict[str, Any], players: dict[int, int] = SEATING, **where: Any
) -> par_stats.PlayedDeal:
    made = par_stats.played_deal(ref(**where), players, analysis(*plays))
    assert made is not None
    return made


# --- what counts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "counted"),
    [
        (None, False),  # not analysed yet
        ({}, False),
        ({"valid": True, "analysed": False, "errors": [{"code": "summary_not_analysable"}]}, False),
        ({"analysed": True, "par_outcome": "thrown_in", "plays": []}, False),
        ({"analysed": True, "par_outcome": "made", "plays": []}, True),
        ({"analysed": True, "par_outcome": "failed", "plays": [play(0, "7H", 3)]}, True),
    ],
)
def test_only_analysed_played_deals_count(stored: dict[str, Any] | None, counted: bool) -> None:
    assert par_stats.counts(stored) is counted
    assert (par_stats.played_deal(ref(), SEATING, stored) is not None) is counted


def test_seat_losses_add_each_seats_plays() -> None:
    plays = [play(0, "7H", 3), play(1, "8H", 0), play(0, "9S", 4), play(3, "KS", 11)]
    assert par_stats.seat_losses(plays) == (7, 0, 0, 11)


def test_the_engines_own_analysis_gives_the_stored_costs() -> None:
    stored = engine.analyse(COSTLY_DEAL)
    made = par_stats.played_deal(ref(), SEATING, stored)
    assert made is not None
    assert list(made.costs) == seat_costs(stored)
    assert made.costs[1] == 26  # the costly deal's seat 2 lost 26 points
    assert len(made.plays) == 32


# --- per player and per evening -------------------------------------------------------


def test_seats_map_to_whoever_sat_there_in_that_match() -> None:
    # an individual evening: Alice is at seat 0 in round 1, at seat 3 in round 2
    round1 = deal(play(0, "7H", 5), play(3, "8H", 2), round_=1, match=10)
    round2 = deal(
        play(0, "7H", 1),
        play(3, "8H", 9),
        players={0: EMIL, 1: CARL, 2: BOB, 3: ALICE},
        round_=2,
        match=11,
    )
    losses = par_stats.player_losses([round1, round2], ALICE)
    assert [(loss.ref.match, loss.lost) for loss in losses] == [(10, 5), (11, 9)]
    assert par_stats.player_losses([round1, round2], EMIL)[0].lost == 1


def test_a_player_who_did_not_sit_at_the_table_has_no_deals() -> None:
    assert par_stats.player_losses([deal(play(0, "7H", 5))], EMIL) == []


def test_per_tournament_totals_in_the_order_of_the_evenings() -> None:
    losses = [
        DealLoss(ref(2, 1), ALICE, 4),
        DealLoss(ref(1, 1), ALICE, 0),
        DealLoss(ref(2, 2), ALICE, 3),
    ]
    totals = par_stats.per_tournament(losses)
    assert totals == [Total(2, 2, 7), Total(1, 1, 0)]
    assert [t.average for t in totals] == [3.5, 0.0]


def test_all_losses_names_every_seated_player() -> None:
    made = deal(play(0, "7H", 2), play(2, "8H", 6))
    losses = list(par_stats.all_losses([made]))
    assert {(loss.player, loss.lost) for loss in losses} == {
        (ALICE, 2),
        (BOB, 0),
        (CARL, 6),
        (DORA, 0),
    }


# --- leaders --------------------------------------------------------------------------


def losses_of(player: int, *lost: int) -> list[DealLoss]:
    return [DealLoss(ref(number=n), player, x) for n, x in enumerate(lost, 1)]


def test_leaders_need_the_minimum_of_deals() -> None:
    losses = losses_of(ALICE, 0) + losses_of(BOB, 2, 4, 0) + losses_of(CARL, 1, 1, 1)
    rows = par_stats.leaders(losses, min_deals=3)
    assert [(t.key, t.deals, t.lost) for t in rows] == [(CARL, 3, 3), (BOB, 3, 6)]


def test_leaders_tie_goes_to_more_deals_then_fixed_order() -> None:
    losses = losses_of(ALICE, 2, 2) + losses_of(BOB, 2, 2, 2) + losses_of(DORA, 2, 2)
    rows = par_stats.leaders(losses, min_deals=1, limit=2)
    assert [t.key for t in rows] == [BOB, ALICE]


def test_the_same_loss_per_deal_shares_a_rank() -> None:
    totals = [Total(ALICE, 2, 2), Total(BOB, 4, 4), Total(CARL, 3, 6), Total(DORA, 1, 2)]
    assert [rank for rank, _ in par_stats.ranked(totals)] == [1, 1, 3, 3]
    assert par_stats.ranked([]) == []


def test_leaders_refuse_a_minimum_below_one() -> None:
    with pytest.raises(ValueError, match="min_deals"):
        par_stats.leaders([], min_deals=0)


# --- best play and slip ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (play(0, "JH", 0), None),  # an older analysis: no values
        (play(0, "JH", 0, {"JH": 0, "7H": 12, "AS": 30}), (12, True)),
        (play(0, "JH", 0, {"JH": 0, "9H": 0, "7H": 12, "AS": 8}), (8, False)),
        (play(0, "JH", 0, {"JH": 0, "9H": 0}), None),  # nothing else would have lost
        (play(0, "JH", 0, {"JH": 0}), None),  # the only legal card
        (play(0, "7H", 12, {"JH": 0, "7H": 12}), None),  # a slip is no best play
        (play(0, "JH", 0, {"JH": 0, "7H": True}), None),  # not a number of points
        ({**play(0, "JH", 0), "values": ["JH", "7H"]}, None),  # not a card's value each
    ],
)
def test_saving(entry: dict[str, Any], expected: tuple[int, bool] | None) -> None:
    assert par_stats.saving(entry) == expected


def test_best_plays_rank_by_what_the_other_cards_would_have_cost() -> None:
    first = deal(
        play(0, "JH", 0, {"JH": 0, "7H": 10}, trick=1),
        play(1, "AS", 0, {"AS": 0, "7S": 20}, trick=1),
        number=1,
    )
    older = deal(play(2, "9H", 0), play(3, "KS", 30), number=2)  # no values: no best play
    second = deal(play(2, "TC", 0, {"TC": 0, "9C": 20, "AD": 25}, trick=3), number=3)
    best = par_stats.best_plays([first, older, second])
    assert [(h.player, h.card, h.saved, h.only) for h in best] == [
        (BOB, "AS", 20, True),  # the earlier of two plays saving 20
        (CARL, "TC", 20, True),
        (ALICE, "JH", 10, True),
    ]
    assert best[1].ref.number == 3 and best[1].trick == 3 and best[1].seat == 2
    assert [h.card for h in par_stats.best_plays([first, second], player=ALICE)] == ["JH"]
    assert len(par_stats.best_plays([first, second], limit=1)) == 1


def test_no_best_play_from_analyses_without_values() -> None:
    assert par_stats.best_plays([deal(play(0, "JH", 0), play(1, "7H", 14))]) == []


def test_the_most_expensive_slip_is_the_largest_cost_the_earliest_on_a_tie() -> None:
    one = deal(play(0, "7H", 4), play(1, "8H", 26), number=1)
    two = deal(play(3, "9S", 26), number=2)
    slip = par_stats.most_expensive_slip([one, two])
    assert slip is not None
    assert (slip.player, slip.card, slip.cost, slip.ref.number) == (BOB, "8H", 26, 1)


def test_no_slip_in_perfect_play_thrown_in_or_unanalysed_deals() -> None:
    thrown = par_stats.played_deal(ref(), SEATING, analysis(outcome="thrown_in"))
    missing = par_stats.played_deal(ref(), SEATING, None)
    deals = [d for d in (thrown, missing) if d is not None]
    assert deals == []
    assert par_stats.most_expensive_slip([deal(play(0, "7H", 0))]) is None


# --- charts ---------------------------------------------------------------------------


def test_the_deal_chart_scales_bars_to_the_largest_loss() -> None:
    chart = par_stats.deal_chart([DealLoss(ref(number=1), ALICE, 26), DealLoss(ref(), ALICE, 0)])
    assert chart is not None and chart.top == 26
    assert [m["h"] for m in chart.marks] == ["100.0", "0.0"]
    assert par_stats.deal_chart([]) is None


def test_the_deal_chart_shows_the_last_deals_only() -> None:
    losses = [DealLoss(ref(number=n), ALICE, n) for n in range(1, 51)]
    chart = par_stats.deal_chart(losses, last=40)
    assert chart is not None and len(chart.marks) == 40
    assert chart.marks[0]["loss"].ref.number == 11


def test_the_evening_chart_is_a_line_from_two_evenings() -> None:
    assert par_stats.evening_chart([Total(1, 4, 8)]) is None
    chart = par_stats.evening_chart([Total(1, 4, 8), Total(2, 2, 0)])
    assert chart is not None and chart.top == 5.0  # at least 5 points per deal high
    assert chart.line == "12.0,67.2 308.0,104.0"  # 2.0 of 5.0 over a 92-point height
    chart = par_stats.evening_chart([Total(1, 1, 5), Total(2, 1, 10), Total(3, 1, 0)])
    assert chart is not None and chart.line == "12.0,58.0 160.0,12.0 308.0,104.0"
    assert [m["total"].key for m in chart.marks] == [1, 2, 3]
