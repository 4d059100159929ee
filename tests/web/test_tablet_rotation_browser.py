"""The tablet proposes the dealer the server expects (``engine.next_dealer``), also for
deals it holds itself: at a table of three the deal passes on after a thrown-in deal, and
the sheet's deal goes in with the next seat as dealer (the server refuses a dealer out of
turn with ``wrong_dealer``)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import DealVersion
from tournaments.clubs.models import Club
from tournaments.events import services

from .test_browser_presets import TRIO, enter_solo_points, evening, open_round, post_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Skatfreunde Nord", slug="nord")


def test_after_a_thrown_in_deal_of_three_the_next_seat_deals(
    live_server: Any, page: Any, club: Club
) -> None:
    options = {"match_by": "deals", "deals_per_match": 3}
    tournament = evening(club, preset="klammern-3", names=TRIO[:3], options=options)
    match = open_round(tournament, seed=1).matches.get()
    _, code = services.issue_device_code(table=match.table)
    post_deal(
        match,
        code,
        1,
        {
            "format": "klammern-deal/1",
            "dealer": 0,
            "card_points": [30, 100, 32],
            "contract": {"kind": "take", "declarer": 1, "trump": "H"},
        },
    )
    post_deal(
        match,
        code,
        2,
        {"format": "klammern-deal/1", "dealer": 1, "contract": {"kind": "thrown_in"}},
    )

    page.goto(f"{live_server.url}/t/{code}/")
    page.locator("#entry [data-bind='number']").filter(has_text="3").wait_for()
    enter_solo_points(page, (20, 90, 40))
    page.locator("#table-state li[data-deal='3']").wait_for(timeout=20_000)

    stored = DealVersion.objects.current().get(deal__match=match, deal__number=3)
    assert stored.record["dealer"] == 2
