"""On a phone (390 x 844, touch) in headless Chromium: the table's tablet opens the hand
record of a deal whose par turned from made into failed on one play (TURNING_DEAL),
steps through it trick by trick with "Weiter" until it finds that play, marked apart
from the earlier slips, asks what perfect play would have followed the better card and
the one played, and jumps there from a column of the par graph and from the list of
turning plays; the same in
English, and without JavaScript (each step a page load). No CSP violation. Screenshots
go to artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.conftest import Event, make_event
from tests.factories import summary_record
from tests.support.hand_records import TURNING_DEAL
from tournaments.clubs.models import Club
from tournaments.deals import services

from .conftest import LOCALES, PHONE, screenshot
from .test_csp import RECORD_VIOLATIONS, assert_no_violation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN = 22  # TURNING_DEAL's QS by seat 1 (people count from 1): made into failed


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """Each step is a request to a machine that may be busy: wait up to 15 s for it."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def event() -> Event:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    event = make_event(club=club, deals=4)
    services.submit_deal(match=event.match1, number=1, record=summary_record(dealer=0))
    services.submit_deal(match=event.match1, number=2, record=TURNING_DEAL)
    analyse_missing_deals()
    return event


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A touch phone in a language, recording CSP violations."""
    opened: list[Any] = []

    def open_(language: str = "de", *, javascript: bool = True) -> Any:
        context = browser.new_context(
            viewport=PHONE,
            locale=LOCALES[language],
            has_touch=True,
            is_mobile=True,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(15_000)
        context.add_init_script(RECORD_VIOLATIONS)
        opened.append(context)
        page = context.new_page()
        console: list[str] = []
        page.on(
            "console", lambda m: console.append(m.text) if "Content Security" in m.text else None
        )
        return page, console

    yield open_
    for context in opened:
        context.close()


def test_stepping_through_finds_the_play_that_turned_the_game(
    live_server: Any, event: Event, phone: Any
) -> None:
    page, console = phone("de")
    page.goto(f"{live_server.url}/t/{event.code1}/deals/2/")
    page.get_by_role("link", name="Schritt für Schritt").tap()
    replay = page.locator("#replay")
    expect(replay.locator(".replay-where")).to_have_text("Stich 1 · Karte 1 von 32")
    expect(replay.locator(".replay-hand")).to_have_count(4)
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 122 · Team 2 82")
    slips = 0
    for step in range(1, 33):
        replay.locator(".replay-nav a[rel='next']").tap()
        where = f"Stich {step // 4 + 1} · Karte {step + 1} von 32" if step < 32 else "Ende"
        expect(replay.locator(".replay-where")).to_contain_text(where)
        if replay.locator(".slip-note").count():
            slips += 1
        if replay.locator(".replay-choice.is-turning").count():
            break
    assert step == TURN and slips >= 1
    choice = replay.locator(".replay-choice")
    expect(choice).to_contain_text("Sitz 1")
    expect(choice.locator(".turn-note")).to_contain_text(
        "Diese Karte hat das Spiel gedreht: D♠ kostete 3 Punkte"  # German letters
    )
    expect(choice.locator(".card-value.is-played")).to_contain_text("D♠ −3")
    expect(choice.locator(".card-value.is-best")).to_contain_text("7♠ beste")
    expect(replay.locator(".trick-played")).to_have_count(2)  # trick 6: seats 3 and 4 played
    expect(replay.locator(".trick-played").first).to_contain_text("Sitz 3")
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 105 · Team 2 99")
    expect(replay.locator(".replay-hand.is-to-play")).to_contain_text("Sitz 1")
    expect(replay.locator(".par-graph .pt.is-turning")).to_have_count(1)
    choice.locator(".card-value[data-card='7S']").tap()  # what if 7♠ had been played?
    what_if = choice.locator(".what-if")
    expect(what_if).to_contain_text("Perfektes Spiel nach 7♠ (0):")
    expect(what_if).to_contain_text("Stich 8:")
    choice.locator(".card-value[data-card='QS']").tap()
    expect(what_if).to_contain_text("Perfektes Spiel nach D♠ (−3):")  # replay.js, German letters
    screenshot(page, "hand-record-turning-de")

    replay.locator(".replay-nav a[rel='next']").tap()
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 102 · Team 2 102")
    replay.locator(".replay-nav a[data-step='0']").tap()
    expect(replay.locator(".replay-where")).to_have_text("Stich 1 · Karte 1 von 32")
    replay.locator(f".par-graph a[data-step='{TURN - 4}'] .hit").tap()  # a column of the graph
    expect(replay.locator(".replay-where")).to_have_text(f"Stich 5 · Karte {TURN - 3} von 32")
    replay.locator(".turning-plays a").first.tap()  # jump straight to the turning play
    expect(replay.locator(".turn-note")).to_be_visible()
    assert page.url.endswith(f"?step={TURN}#replay")
    assert_no_violation(page, console)


def test_the_turning_play_in_english(live_server: Any, event: Event, phone: Any) -> None:
    page, console = phone("en")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/t/{event.code1}/deals/2/?step={TURN}")
    replay = page.locator("#replay")
    expect(replay.locator(".turn-note")).to_contain_text(
        "This play turned the game: Q♠ cost 3 points"
    )
    expect(replay.locator(".makeable tbody tr")).to_have_count(4)
    expect(replay.locator(".makeable td.is-own")).to_contain_text("made")
    expect(replay.locator(".perfect-line li").first).to_contain_text("Trick 6")
    screenshot(page, "hand-record-turning-en")
    assert_no_violation(page, console)


def test_without_javascript_each_step_is_a_page(live_server: Any, event: Event, phone: Any) -> None:
    page, _ = phone("de", javascript=False)
    page.goto(f"{live_server.url}/t/{event.code1}/deals/2/?step={TURN - 1}")
    page.locator("#replay .replay-nav a[rel='next']").tap()
    expect(page.locator("#replay .turn-note")).to_be_visible()
    assert page.url.endswith(f"?step={TURN}#replay")
