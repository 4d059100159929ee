"""In headless Chromium on a phone (390 px): the hand record of a table of three opens
from its tablet, with three hands, a par table of one column per player with the par of
the analysis, and the step-through with three hands and three-card tricks; nothing
sticks out sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.web.conftest import SCREENSHOTS
from tests.web.test_game_hand_records import full_deal, played_match
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.events import services

from .conftest import PHONE, assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "game-hand-records-browser"


def test_the_three_player_hand_record_on_a_phone(live_server: Any, contexts: Any) -> None:
    club = Club.objects.create(name="KC Dreier", slug="dreier")
    match = played_match(club, "klammern-3", 3)
    submit_deal(match=match, number=1, record=full_deal("klammern-3"))
    assert analyse_missing_deals() == 1
    _, code = services.issue_device_code(table=match.table)
    page = contexts(PHONE, "de").new_page()
    page.goto(f"{live_server.url}/lang/de/?next=/t/{code}/deals/1/")
    expect(page.locator(".hands > .hand")).to_have_count(3)
    expect(page.locator("p.contract")).to_contain_text("Genommen")  # the contract in words
    heads = page.locator("table.par-table thead th.num")
    expect(heads).to_have_count(3)
    expect(heads.nth(0)).to_contain_text("Sitz 1")
    expect(page.locator("tr.par-row td.num")).to_have_count(3)
    expect(page.locator(".not-analysable")).to_have_count(0)
    assert_fits(page, PHONE["width"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "hand-record-three-phone.png"), full_page=True)
    page.get_by_role("link", name="Schritt für Schritt").click()
    replay = page.locator("#replay")
    expect(replay.locator(".replay-where")).to_have_text("Stich 1 · Karte 1 von 27")
    expect(replay.locator(".replay-hand")).to_have_count(3)
    for step in range(1, 5):
        replay.locator(".replay-nav a[rel='next']").click()
        where = f"Stich {step // 3 + 1} · Karte {step + 1} von 27"
        expect(replay.locator(".replay-where")).to_have_text(where)
    expect(replay.locator(".trick-played")).to_have_count(1)  # seat to lead played, two to go
    expect(replay.locator(".replay-par .team-figure")).to_have_count(3)
    expect(replay.locator(".replay-par")).to_contain_text("Sitz 3")
    expect(replay.locator("table.makeable thead th.num")).to_have_count(3)
    assert_fits(page, PHONE["width"])
    replay.screenshot(path=str(SHOTS / "hand-record-three-replay-phone.png"))
