"""On a phone (390 x 844, touch) in headless Chromium: the table's tablet opens the hand
record of a Klaverjas deal (Rotterdam rules, KLAVERJAS_TURNING below) and steps through
it with "Weiter" trick by trick: the value of each legal card for the seat to play, the
perfect line from there, the slips before it and the play that turned the par from made
into nat (seat 2's A♥ in trick 6, costing 144); the roem of the deal and of the par, and
the makeable table of each trump (the deal's with points, the others made or nat). The same
in English. No CSP violation. Screenshots go
to artifacts/screenshots/.

The deal (``random_deal(Random(70), dealer=0, rules="klaverjas-rotterdam")``): Hearts
trump, seat 2 plays (team 2: seats 2 and 4); par 32 : 170 made (team 2's roem 40: the
stuk of Q♥ K♥ and a three-card run), as played 222 : 0, nat, roem 40 : 20."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.analysis_services import analyse_missing_deals
from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.deals import services
from tournaments.draw import services as draw
from tournaments.events import services as events
from tournaments.events.models import Match

from .conftest import LOCALES, PHONE, screenshot
from .test_csp import RECORD_VIOLATIONS, assert_no_violation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KLAVERJAS_TURNING: dict[str, Any] = {
    "format": "klammern-deal/1",
    "rules": "klaverjas-rotterdam",
    "dealer": 0,
    "hands": [
        ["TD", "TS", "AS", "9C", "7D", "KD", "7C", "9H"],
        ["7H", "JH", "AH", "QC", "7S", "8C", "8D", "8H"],
        ["AD", "JS", "QS", "KC", "TH", "QD", "QH", "9D"],
        ["TC", "9S", "JC", "JD", "KS", "KH", "8S", "AC"],
    ],
    "upcard": "9H",
    "contract": {"kind": "klaverjas", "declarer": 1, "trump": "H"},
    # fmt: off
    "plays": [
        "QC",
        "KC",
        "AC",
        "7C",
        "JC",
        "9C",
        "8C",
        "TH",
        "JS",
        "KS",
        "AS",
        "7S",
        "7D",
        "8D",
        "AD",
        "JD",
        "QS",
        "8S",
        "TS",
        "7H",
        "AH",
        "QH",
        "KH",
        "9H",
        "TD",
        "JH",
        "QD",
        "9S",
        "8H",
        "9D",
        "TC",
        "KD",
    ],
    # fmt: on
}
TURN = 20  # seat 2's A♥, leading trick 6: made into nat
#: The values of seat 2's legal cards at the turn, as the page shows them (0 = best).
TURN_VALUES = {"JH": "B♥ beste", "8H": "8♥ −102", "AH": "A♥ −144"}


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """Each step is a request to a machine that may be busy: wait up to 15 s for it."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def table_code() -> str:
    """A Klaverjas evening's table with KLAVERJAS_TURNING entered and analysed; its code."""
    club = Club.objects.create(name="KC Rotterdam", slug="rotterdam")
    tournament = events.create_tournament(
        club=club, name="Klaverjasavond", slug="klaverjas", rules_preset="klaverjas-rotterdam"
    )
    for _ in range(4):
        registration = events.register_player(tournament=tournament, player=PlayerFactory())
        events.check_in_registration(registration=registration)
    events.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    events.publish_round(round_=round_)
    match = Match.objects.get(round=round_)
    services.submit_deal(match=match, number=1, record=KLAVERJAS_TURNING)
    assert analyse_missing_deals() == 1
    return events.issue_device_code(table=match.table)[1]


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A touch phone in a language, recording CSP violations."""
    opened: list[Any] = []

    def open_(language: str) -> Any:
        context = browser.new_context(
            viewport=PHONE, locale=LOCALES[language], has_touch=True, is_mobile=True
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


def test_stepping_through_a_klaverjas_deal_finds_the_play_that_went_nat(
    live_server: Any, table_code: str, phone: Any
) -> None:
    page, console = phone("de")
    page.goto(f"{live_server.url}/t/{table_code}/deals/1/")
    record = page.locator(".hand-record")
    expect(record.locator(".par-table tbody tr").first).to_contain_text("Team 2 (spielt): nat")
    expect(record.locator(".par-row")).to_contain_text("Team 2 (spielt): gemacht")
    roem = record.locator(".roem-row td")  # played · par, per team
    expect(roem.nth(0)).to_have_text("40 · 0")
    expect(roem.nth(1)).to_have_text("20 · 40")
    page.get_by_role("link", name="Schritt für Schritt").tap()
    replay = page.locator("#replay")
    expect(replay.locator(".replay-where")).to_have_text("Stich 1 · Karte 1 von 32")
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 32 · Team 2 170")
    slips = 0
    for step in range(1, 33):
        replay.locator(".replay-nav a[rel='next']").tap()
        where = f"Stich {step // 4 + 1} · Karte {step + 1} von 32" if step < 32 else "Ende"
        expect(replay.locator(".replay-where")).to_contain_text(where)
        if replay.locator(".slip-note").count():
            slips += 1
        if replay.locator(".replay-choice.is-turning").count():
            break
    assert step == TURN and slips >= 3
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 42 · Team 2 180")
    choice = replay.locator(".replay-choice")
    expect(choice).to_contain_text("Sitz 2")
    for card, shown in TURN_VALUES.items():
        expect(choice.locator(f".card-value[data-card='{card}']")).to_contain_text(shown)
    expect(choice.locator(".card-value")).to_have_count(len(TURN_VALUES))
    expect(choice.locator(".card-value.is-played")).to_contain_text("A♥ −144 gespielt")
    expect(choice.locator(".turn-note")).to_contain_text(
        "Diese Karte hat das Spiel gedreht: A♥ kostete 144 Punkte"
    )
    line = replay.locator(".perfect-line li")
    expect(line).to_have_count(3)  # tricks 6 to 8
    expect(line.first).to_contain_text("Stich 6")
    expect(line.first.locator(".line-card").first).to_contain_text("2B♥")
    expect(replay.locator(".turning-plays li")).to_have_count(1)
    expect(replay.locator(".turning-plays li")).to_contain_text("A♥ — gemacht → nat")
    makeable = replay.locator(".makeable tbody tr")
    expect(makeable).to_have_count(4)
    expect(replay.locator(".makeable td.is-own")).to_have_text("170 gemacht")
    expect(makeable.first.locator("td").nth(1)).to_have_text("0 nat")  # clubs, team 2
    # another trump than the deal's: the outcome only (made has no points to show)
    expect(makeable.first.locator("td").nth(0)).to_have_text("gemacht")
    expect(replay.locator(".makeable").locator("xpath=../following-sibling::p[1]")).to_contain_text(
        "Bei den anderen Trümpfen nur, ob die spielende Partei es macht."
    )
    screenshot(page, "klaverjas-turning-de")

    replay.locator(".replay-nav a[rel='next']").tap()
    expect(replay.locator(".replay-par")).to_contain_text("Team 1 222 · Team 2 0")
    expect(replay.locator(".replay-par")).to_contain_text("(Team 2 (spielt): nat)")
    assert_no_violation(page, console)


def test_the_klaverjas_turn_in_english(live_server: Any, table_code: str, phone: Any) -> None:
    page, console = phone("en")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/t/{table_code}/deals/1/?step={TURN}")
    replay = page.locator("#replay")
    expect(replay.locator(".turn-note")).to_contain_text(
        "This play turned the game: A♥ cost 144 points"
    )
    expect(replay.locator(".card-value[data-card='JH']")).to_contain_text("J♥ best")
    expect(replay.locator(".turning-plays li")).to_contain_text("made → nat")
    expect(replay.locator(".makeable td.is-own")).to_have_text("170 made")
    expect(page.locator(".roem-row th")).to_contain_text("Roem")
    expect(page.locator(".par-row")).to_contain_text("Team 2 (playing): made")
    screenshot(page, "klaverjas-turning-en")
    assert_no_violation(page, console)
