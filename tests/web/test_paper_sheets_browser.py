"""Paper score sheets in headless Chromium: printed to PDF at A4, a round of two tables
gives exactly two pages (one per table, a match of 16 or 30 deals included), and the sheet
seen at A4 size (794x1123) shows its rows and signature lines."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.web.conftest import SCREENSHOTS
from tests.web.test_browser import login
from tests.web.test_browser_presets import evening, open_round
from tests.web.test_pairs_issue20 import tournament_after_the_final
from tournaments.clubs.models import Club
from tournaments.events.models import Match
from tournaments.web.paper import match_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "paper-sheets-browser"
A4 = {"width": 794, "height": 1123}


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize(
    ("preset", "deals", "names", "signatures"),
    [
        ("klammern", 16, "ABCDEFGH", 2),
        ("klaverjas-rotterdam", 16, "ABCDEFGH", 2),
        ("klammern-3", 30, "ABCDEF", 3),
    ],
)
def test_one_a4_page_per_table(
    live_server: Any, page: Any, club_a: Club, preset: str, deals: int, names: str, signatures: int
) -> None:
    club_a.organisers.add(UserFactory(username="orga"))
    tournament = evening(club_a, preset=preset, names=list(names), options={})
    tournament.deals_per_match = deals
    tournament.save(update_fields=["deals_per_match"])
    round_ = open_round(tournament, seed=2)
    login(page, live_server.url, "orga")
    page.set_viewport_size(A4)
    page.goto(f"{live_server.url}/console/rounds/{round_.pk}/score-sheets/")
    sheet = page.locator(".score-sheet").first
    first = round_.matches.order_by("table__number").first()
    assert sheet.locator("tbody tr").count() == match_rows(tournament, first)
    assert sheet.locator(".signature-line").count() == signatures
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(media="print")
    page.screenshot(path=str(SHOTS / f"score-sheet-{preset}.png"))
    assert pdf_pages(page.pdf(format="A4", print_background=True)) == round_.tables.count() == 2


def test_the_finals_bracket_prints_on_one_a4_page(
    live_server: Any, page: Any, club_a: Club
) -> None:
    club_a.organisers.add(UserFactory(username="orga"))
    tournament = tournament_after_the_final(club_a)
    login(page, live_server.url, "orga")
    page.set_viewport_size(A4)
    page.goto(f"{live_server.url}/console/tournaments/{tournament.pk}/bracket/print/")
    slots = Match.objects.filter(round__tournament=tournament).exclude(bracket_slot="")
    assert page.locator(".bracket-sheet .bracket-match").count() == slots.count() >= 3
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(media="print")
    page.screenshot(path=str(SHOTS / "bracket.png"))
    assert pdf_pages(page.pdf(format="A4", print_background=True)) == 1
