"""In headless Chromium, German and Dutch, phone and desktop: a Klaverjas hand record whose
par is nat (issue 35). Its cards are written in the language's letters (B D K A, B V H
A); stepping with the script's "Next" swaps in the tricks and card points each team has
taken so far, and the graph plots the playing team's margin, which moves. Screenshots go
to artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.web.test_game_hand_records import played_match
from tests.web.test_hand_record_issue35 import LETTERS, klaverjas_nat
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.events import services as events

from .conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "de": {"so_far": "Bisher", "tricks": "1 Stich", "start": "0 Stiche"},
    "nl": {"so_far": "Tot nu toe", "tricks": "1 slag", "start": "0 slagen"},
}


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.mark.parametrize("language", ["de", "nl"])
def test_a_klaverjas_nat_hand_record_steps_with_its_tally(
    live_server: Any, contexts: Any, language: str
) -> None:
    club = Club.objects.create(name="KC Rotterdam", slug="rotterdam")
    match = played_match(club, "klaverjas-rotterdam", 4)
    version = submit_deal(match=match, number=1, record=klaverjas_nat())
    assert analyse_missing_deals() == 1
    code = events.issue_device_code(table=match.table)[1]
    words = WORDS[language]

    page = contexts(PHONE, language).new_page()
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/{code}/deals/1/%3Fstep%3D0")
    rows = page.locator(".hand-record .hand-row").all_inner_texts()
    written = {t for row in rows for t in row.split()[1:] if t != "–"}
    assert written == {"7", "8", "9", "10", *LETTERS[language]}
    replay = page.locator("#replay")
    tally = replay.locator(".replay-tally")
    expect(tally).to_contain_text(words["so_far"])
    expect(tally).to_contain_text(words["start"])
    ys = replay.locator(".par-graph circle.pt").evaluate_all(
        "cs => cs.map(c => c.getAttribute('cy'))"
    )
    assert len(set(ys)) > 2  # the margin moves; a nat par's points would stay flat
    for step in range(1, 5):  # one whole trick, by the script, a step at a time
        replay.locator(".replay-nav a[rel='next']").click()
        prev = replay.locator(".replay-nav a[rel='prev']")
        expect(prev).to_have_attribute("data-step", str(step - 1))
    winner_team = version.result["tricks"][0]["winner"] % 2 + 1
    points = version.result["tricks"][0]["points"]
    figure = tally.locator(".team-figure").nth(winner_team - 1)
    expect(figure).to_contain_text(words["tricks"])
    expect(figure).to_contain_text(str(points))
    assert "?step=4" in page.url
    screenshot(page, f"hand-record-klaverjas-nat-{language}")
