""" "A club evening without a flaw", where the behaviour is in the browser: headless
Chromium against the live server, a phone (390x844) for the tablet and the standings and
1920x1080 for the projector. Screenshots (German and English) go to artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import Event, make_event
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.events import services

from .conftest import CHROMIUM_ARGS  # noqa: F401 - the same browser as test_browser.py

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "evening-browser"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
LOCALES = {"de": "de-DE", "en": "en-GB"}


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="KC Herzbube", slug="herzbube")


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts = []

    def open_(viewport: dict[str, int], language: str, *, javascript: bool = True) -> Any:
        context = browser.new_context(
            viewport=viewport, locale=LOCALES[language], java_script_enabled=javascript
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def no_sideways_scrolling(page: Any) -> None:
    widths = page.evaluate("""() => ({
        page: document.documentElement.scrollWidth,
        tables: Array.from(document.querySelectorAll('.table-wrap'))
          .map(w => w.scrollWidth - w.clientWidth)})""")
    assert widths["page"] <= PHONE["width"], widths
    assert all(extra <= 1 for extra in widths["tables"]), widths


CONTRAST = """el => {
  const rgb = c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= .03928 ? v / 12.92
    : Math.pow((v + .055) / 1.055, 2.4); }; return .2126 * f(r) + .7152 * f(g) + .0722 * f(b); };
  let bg = el, color = rgb(getComputedStyle(el).color);
  while (bg && getComputedStyle(bg).backgroundColor.match(/rgba\\(.*, 0\\)|transparent/)) {
    bg = bg.parentElement; }
  const back = rgb(getComputedStyle(bg || document.body).backgroundColor);
  const [a, b] = [lum(color), lum(back)].sort((x, y) => y - x);
  return (a + .05) / (b + .05);
}"""


# --- standings on a phone ------------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_standings_fit_a_phone_without_sideways_scrolling(
    live_server: Any, open_page: Any, club: Club, language: str
) -> None:
    event = make_event(club=club, players=8)
    page = open_page(PHONE, language)
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/standings/")
    expect(page.locator(".tiebreak-order")).to_be_visible()
    no_sideways_scrolling(page)
    expect(page.locator("#standings .row-extra").first).to_be_visible()
    shoot(page, f"standings-phone-{language}")


# --- projector -------------------------------------------------------------------------------


def projector_event(club: Club) -> Event:
    return make_event(club=club, players=24)


@pytest.mark.parametrize("language", ["de", "en"])
def test_projector_pages_through_24_players_and_is_readable(
    live_server: Any, open_page: Any, club: Club, language: str
) -> None:
    event = projector_event(club)
    page = open_page(PROJECTOR, language)
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/projector/?seconds=3")
    shoot(page, f"projector-seating-{language}")
    word = {"de": "Rangliste · Seite", "en": "Standings · page"}[language]
    label = page.locator("#proj-label")
    expect(label).to_contain_text(f"{word} 1/", timeout=8_000)
    pages = int(page.locator(".proj-slide[data-slide='standings']").get_attribute("data-pages"))
    shoot(page, f"projector-standings-1-{language}")
    assert pages == 2, "24 players at 1920x1080: two pages"
    seen = []
    for number in range(1, pages + 1):
        expect(label).to_have_text(f"{word} {number}/{pages}", timeout=8_000)
        seen.append(visible_rows(page))
        shoot(page, f"projector-standings-{number}-{language}")
    assert sorted(sum(seen, [])) == sorted(set(sum(seen, []))) and len(sum(seen, [])) == 24
    assert page.locator(".proj-dots i").count() == 1 + pages
    name = page.locator("#standings tbody tr:not(.is-off-page) td.name a").first
    assert name.evaluate(CONTRAST) >= 7, "names must be readable on the dark background"


def test_the_projector_of_a_finished_tournament_pages_through_the_final_standings(
    live_server: Any, open_page: Any, club: Club
) -> None:
    event = projector_event(club)
    services.close_round(round_=event.round, force=True)
    services.finish_tournament(tournament=event.tournament)
    page = open_page(PROJECTOR, "de")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/tournaments/{event.tournament.pk}/projector/?seconds=3")
    label = page.locator("#proj-label")
    expect(label).to_have_text("Endstand · Seite 1/2", timeout=8_000)
    expect(label).to_have_text("Endstand · Seite 2/2", timeout=8_000)
    assert page.locator(".proj-slide[data-slide='seating']").count() == 0
    assert page.locator(".proj-dots i").count() == 2 and not errors
    shoot(page, "projector-final-de")


def visible_rows(page: Any) -> list[str]:
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('#standings tbody tr'))
        .filter(r => r.getBoundingClientRect().height > 0)
        .map(r => [r.dataset.entrant, r.getBoundingClientRect().bottom])""")
    assert rows and all(bottom <= PROJECTOR["height"] for _, bottom in rows), rows
    return [entrant for entrant, _ in rows]


# --- the table tablet --------------------------------------------------------------------------


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").click()


@pytest.mark.parametrize("language", ["de", "en"])
def test_tablet_explains_impossible_points_and_sends_a_march(
    live_server: Any, open_page: Any, club: Club, language: str
) -> None:
    from games.models import DealVersion

    event = make_event(club=club, deals=4)
    page = open_page(PHONE, language)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    expect(page.locator("#outbox")).to_be_visible()
    tap(page, "declarer", 1)
    tap(page, "kind", "orgi")
    tap(page, "up-suit", "H")
    tap(page, "up-rank", "7")
    page.fill("#points0", "170")
    expect(page.locator("#points1")).to_have_value("")  # not "-6"
    error = page.locator("[data-error-for='card_points']")
    expect(error).to_contain_text("164")
    expect(error).to_contain_text("170")
    page.locator("[data-section='points']").scroll_into_view_if_needed()
    shoot(page, f"tablet-points-error-{language}")
    page.click("#entry button[type=submit]")
    expect(error).to_contain_text("164")
    assert not DealVersion.objects.filter(deal__match=event.match1).exists()

    page.fill("#points0", "0")
    expect(page.locator("#points1")).to_have_value("164")
    tap(page, "march", 1)
    expect(page.locator("#entry button[data-pick='march']")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.click("#entry button[type=submit]")
    deadline = 50
    while not DealVersion.objects.filter(deal__match=event.match1).exists() and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    version = DealVersion.objects.get(deal__match=event.match1, is_current=True)
    assert version.record["march"] is True and version.outcome == "march_won"
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    shoot(page, f"tablet-after-march-{language}")


@pytest.mark.parametrize(
    ("language", "warning", "sent"),
    [
        ("de", "JavaScript ist ausgeschaltet", "Alle Eingaben gesendet"),
        ("en", "JavaScript is switched off", "All entries sent"),
    ],
)
def test_tablet_without_javascript(
    live_server: Any, open_page: Any, club: Club, language: str, warning: str, sent: str
) -> None:
    event = make_event(club=club, deals=4)
    page = open_page(PHONE, language, javascript=False)
    page.goto(f"{live_server.url}/t/{event.code1}/")
    expect(page.get_by_text(warning)).to_be_visible()
    expect(page.locator("#outbox")).to_be_hidden()
    assert sent not in page.locator("body").inner_text()
    shoot(page, f"tablet-noscript-{language}")


# --- the organiser's console -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "heading", "check_in"),
    [("de", "Ihre Turniere", "Einchecken"), ("en", "Your tournaments", "Check in")],
)
def test_console_counts_check_ins_live_and_confirms_withdrawals(
    live_server: Any, open_page: Any, club: Club, language: str, heading: str, check_in: str
) -> None:
    from tests.factories import PlayerFactory, UserFactory
    from tournaments.events import services
    from tournaments.events.models import Registration

    event = make_event(club=club, players=8)
    club.organisers.add(UserFactory(username="orga"))
    late = services.register_player(tournament=event.tournament, player=PlayerFactory())
    page = open_page(PHONE, language)
    page.goto(f"{live_server.url}/accounts/login/?next=/console/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    expect(page.locator("h1")).to_contain_text(heading)
    page.goto(f"{live_server.url}/console/tournaments/{event.tournament.pk}/")
    present = page.locator("#reg-counts [data-count='checked_in']")
    expect(present).to_have_text("8")
    expect(page.locator("#reg-counts [data-count='late']")).to_have_text("1")
    page.locator(f"#reg-{late.pk}").get_by_role("button", name=check_in).click()
    expect(present).to_have_text("9")  # no reload
    shoot(page, f"console-tournament-{language}")

    dialogs: list[str] = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.locator(f"#reg-{late.pk} .btn-danger").first.click()
    page.wait_for_timeout(300)
    assert dialogs and late.player.name in dialogs[0]
    assert Registration.objects.get(pk=late.pk).status == "checked_in"  # dismissed: kept
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#reg-{late.pk} .btn-danger").first.click()
    expect(page.locator("#reg-counts [data-count='withdrawn']")).to_have_text("1")
    page.goto(f"{live_server.url}/console/rounds/{event.round.pk}/")
    shoot(page, f"console-round-{language}")
