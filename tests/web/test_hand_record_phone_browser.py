"""In headless Chromium on a phone (390 px), German and English: a hand record's par
table shows both teams' figures without scrolling sideways, names the playing team and
says whose result the outcome is; the play shows who played each card (it was only in a
hover title). Issue 20. Screenshots go to artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.conftest import make_event
from tests.support.hand_records import COSTLY_DEAL
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.deals import services

from .conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "hand-record-phone-browser"
WORDS = {
    "de": {"team": "Team {n}", "playing": "spielt", "outcome": "Team {n} (spielt):"},
    "en": {"team": "Team {n}", "playing": "playing", "outcome": "Team {n} (playing):"},
}


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_hand_record_on_a_phone(live_server: Any, contexts: Any, language: str) -> None:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = make_event(club=club, deals=4)
    version = services.submit_deal(match=event.match1, number=1, record=COSTLY_DEAL)
    analyse_missing_deals()
    playing = version.result["declarer"] % 2 + 1
    words = WORDS[language]

    page = contexts(PHONE, language).new_page()
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/{event.code1}/deals/1/")
    table = page.locator("table.par-table")
    heads = table.locator("thead th.num")
    expect(heads).to_have_count(2)
    for n in (1, 2):
        expect(heads.nth(n - 1)).to_contain_text(words["team"].format(n=n))
    wrap = table.locator("xpath=..")
    # every figure of both teams lies within the phone's width and its scroll box
    cells = table.locator("th.num, td.num")
    expect(cells).to_have_count(2 + 2 * table.locator("tbody tr").count())
    sticking_out = cells.evaluate_all(
        """(cells) => { const box = cells[0].closest('.table-wrap').getBoundingClientRect();
        return cells.filter(c => { const r = c.getBoundingClientRect();
          return r.left < box.left - 1 || r.right > Math.min(box.right, innerWidth) + 1; })
          .map(c => c.textContent); }"""
    )
    assert sticking_out == []
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")  # nothing hidden sideways
    expect(heads.nth(playing - 1)).to_contain_text(words["playing"])
    expect(heads.nth(2 - playing)).not_to_contain_text(words["playing"])
    outcome = table.locator("tbody tr").first.locator(".outcome")
    expect(outcome).to_contain_text(words["outcome"].format(n=playing))

    first_trick = page.locator("table.tricks tbody tr").first
    seats = first_trick.locator(".trick-seat")
    expect(seats).to_have_count(4)
    leader = int(first_trick.locator("td").nth(1).inner_text().split()[-1])
    expect(seats.first).to_be_visible()
    assert [seats.nth(k).inner_text() for k in range(4)] == [
        str((leader - 1 + k) % 4 + 1) for k in range(4)
    ]
    screenshot(page, f"hand-record-phone-{language}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"hand-record-phone-{language}.png"), full_page=True)
