"""Issue 20, the evening findings, where the behaviour is in the browser: headless
Chromium on a phone (390x844) against the live server, in German and English.

- a thrown-in deal through to the confirmation: the sheet stays open until the planned
  deals are played, then both teams confirm;
- a tablet that reconnects after a forced close sends what it held and then shows the
  closed state only (no sheet, no confirm buttons);
- a player checks in from the personal link (the form's CSRF check passes), and a form
  that fails the check gets our own page;
- the organiser's round page shows a match decided on Augen, tablets that are done or
  offline, names the latter in the close message, and the closed round's table cards
  say why there are none.

Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Deal
from tests.conftest import client_for, make_event
from tests.factories import UserFactory, summary_record
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Match, Registration, Round

from .test_browser import enter_deal, tap, wait_until
from .test_tablet_offline import go_offline, go_online, network  # noqa: F401 - a fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "evening-issue20-browser"
PHONE = {"width": 390, "height": 844}

WORDS = {
    "de": {
        "deal": "Spiel",
        "complete": "Alle Spiele dieses Tisches sind eingetragen.",
        "thrown": "3 / 4 · 1 eingeworfen",
        "done": "4 / 4 · 1 eingeworfen",
        "confirmed": "Beide Teams haben bestätigt. Danke!",
        "closed": "Diese Runde ist abgeschlossen",
        "check_in": "Check mich ein",
        "checked_in": "Du bist eingecheckt. Einen schönen Abend!",
        "refused": "Das Formular konnte nicht gesendet werden",
    },
    "en": {
        "deal": "Deal",
        "complete": "All deals of this table are entered.",
        "thrown": "3 / 4 · 1 thrown in",
        "done": "4 / 4 · 1 thrown in",
        "confirmed": "Both teams confirmed. Thank you!",
        "closed": "This round is closed",
        "check_in": "Check me in",
        "checked_in": "You are checked in. Have a good evening!",
        "refused": "The form could not be sent",
    },
}
LOCALES = {"de": "de-DE", "en": "en-GB"}


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="KC Herzbube", slug="herzbube")


@pytest.fixture
def phone(browser: Any) -> Any:
    opened: list[Any] = []

    def open_(language: str) -> Any:
        context = browser.new_context(viewport=PHONE, locale=LOCALES[language])
        context.set_default_timeout(15_000)
        opened.append(context)
        return context

    yield open_
    for context in opened:
        context.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def open_tablet(context: Any, live_server: Any, code: str) -> Any:
    """The table's page in the context's language (the browser's Accept-Language)."""
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{code}/")
    return page


def stored(match: Match) -> int:
    return Deal.objects.filter(match=match).count()


# --- a thrown-in deal through to the confirmation ---------------------------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_thrown_in_deal_through_to_the_confirmation(
    live_server: Any, phone: Any, club: Club, language: str
) -> None:
    words = WORDS[language]
    event = make_event(club=club, deals=4)
    page = open_tablet(phone(language), live_server, event.code1)
    head = page.locator(".entry-head h2")
    expect(head).to_contain_text(f"{words['deal']} 1")

    tap(page, "thrown", 1)
    tap(page, "up-suit", "H")
    tap(page, "up-rank", "7")
    page.click("#entry button[type=submit]")
    wait_until(page, lambda: stored(event.match1) == 1)
    for number, declarer in ((2, 1), (3, 2), (4, 3)):
        expect(head).to_contain_text(f"{words['deal']} {number}")
        enter_deal(page, declarer=declarer, points0=100)
        wait_until(page, lambda n=number: stored(event.match1) == n, timeout=20)

    # three played deals of four: the sheet stays, for deal 5 (the fourth planned one)
    expect(head).to_contain_text(f"{words['deal']} 5")
    expect(page.locator("#entry .complete-note")).to_be_hidden()
    expect(page.locator("#entry button[type=submit]")).to_be_visible()
    expect(page.locator("[data-bind='deals-played']")).to_have_text(words["thrown"])
    expect(page.locator("[data-confirm-team]")).to_have_count(0)
    shoot(page, f"thrown-in-3-of-4-{language}")

    enter_deal(page, declarer=0, points0=100)
    wait_until(page, lambda: stored(event.match1) == 5)
    expect(page.locator("#entry .complete-note")).to_have_text(words["complete"])
    expect(page.locator("[data-bind='deals-played']")).to_have_text(words["done"])
    buttons = page.locator("[data-confirm-team]")
    expect(buttons).to_have_count(2)
    shoot(page, f"thrown-in-confirm-{language}")
    buttons.first.click()
    expect(page.locator("[data-confirm-team]")).to_have_count(1)
    page.locator("[data-confirm-team]").click()
    expect(page.locator("#table-state")).to_contain_text(words["confirmed"])
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.CONFIRMED
    shoot(page, f"thrown-in-confirmed-{language}")


# --- a tablet reconnecting after a forced close -------------------------------------------------


@pytest.mark.usefixtures("network")
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_tablet_reconnecting_after_a_forced_close_shows_the_closed_state_only(
    live_server: Any, phone: Any, club: Club, language: str
) -> None:
    words = WORDS[language]
    event = make_event(club=club, deals=4)
    context = phone(language)
    page = open_tablet(context, live_server, event.code1)
    head = page.locator(".entry-head h2")
    for number in (1, 2, 3):
        expect(head).to_contain_text(f"{words['deal']} {number}")
        enter_deal(page, declarer=number % 4, points0=100)
        wait_until(page, lambda n=number: stored(event.match1) == n, timeout=20)
    expect(head).to_contain_text(f"{words['deal']} 4")

    go_offline(context)
    enter_deal(page, declarer=0, points0=100)  # the fourth deal waits on the tablet
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "1")
    services.close_round(round_=event.round, force=True)  # the organiser closes anyway
    assert stored(event.match1) == 3

    go_online(context)
    wait_until(page, lambda: stored(event.match1) == 4, timeout=20)  # taken after the close
    expect(page.locator("[data-bind='table-closed']")).to_contain_text(words["closed"])
    expect(page.locator(".tablet-entry")).to_be_hidden()
    expect(page.locator(".entry-head h2")).to_be_hidden()
    expect(page.locator("[data-confirm-team]")).to_have_count(0)
    expect(page.locator("#outbox")).to_have_attribute("data-waiting", "0")
    shoot(page, f"tablet-after-forced-close-{language}")

    page.reload()  # and so it stays
    expect(page.locator("[data-bind='table-closed']")).to_be_visible()
    expect(page.locator(".tablet-entry")).to_be_hidden()
    expect(page.locator("[data-confirm-team]")).to_have_count(0)
    event.round.refresh_from_db()
    assert event.round.status == Round.Status.CLOSED


# --- self check-in from the personal link ------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_player_checks_in_from_the_personal_link(
    live_server: Any, phone: Any, club: Club, language: str
) -> None:
    words = WORDS[language]
    event = make_event(club=club)
    services.set_self_check_in(tournament=event.tournament, allowed=True)
    registration = event.tournament.registrations.order_by("pk").first()
    assert registration is not None
    Registration.objects.filter(pk=registration.pk).update(status=Registration.Status.REGISTERED)
    page = phone(language).new_page()
    url = f"{live_server.url}/p/{registration.link_token}/"
    requests: list[Any] = []
    page.on("request", lambda r: requests.append(r) if r.method == "POST" else None)
    page.goto(url)
    shoot(page, f"self-check-in-before-{language}")
    page.get_by_role("button", name=words["check_in"]).click()
    expect(page.locator(".messages")).to_contain_text(words["checked_in"])
    registration.refresh_from_db()
    assert registration.status == Registration.Status.CHECKED_IN
    # the browser sent the page's own origin, not "null", and no referrer left the site
    origin = requests[0].header_value("origin")
    assert origin == live_server.url, origin
    shoot(page, f"self-check-in-done-{language}")


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_form_failing_its_csrf_check_gets_our_own_page(
    live_server: Any, phone: Any, club: Club, language: str
) -> None:
    words = WORDS[language]
    event = make_event(club=club)
    services.set_self_check_in(tournament=event.tournament, allowed=True)
    registration = event.tournament.registrations.order_by("pk").first()
    assert registration is not None
    Registration.objects.filter(pk=registration.pk).update(status=Registration.Status.REGISTERED)
    context = phone(language)
    page = context.new_page()
    page.goto(f"{live_server.url}/p/{registration.link_token}/")
    # the CSRF cookie is gone (blocked or expired) while the page stays open
    csrf = [c for c in context.cookies() if c["name"] == "csrftoken"]
    assert csrf
    context.clear_cookies()
    page.get_by_role("button", name=words["check_in"]).click()
    expect(page.locator("h1")).to_have_text(words["refused"])
    assert "CSRF" not in page.content()
    expect(page.locator("header.topbar")).to_be_visible()  # the site's layout
    shoot(page, f"csrf-failure-{language}")
    page.locator(".error-page a.btn").click()
    expect(page).to_have_url(f"{live_server.url}/p/{registration.link_token}/")
    registration.refresh_from_db()
    assert registration.status == Registration.Status.REGISTERED


# --- the organiser's round page: Augen, the tablet column, the close, the table cards --------

#: 4 deals ending 0:0 big and 3:3 small, Augen 30:34 (see test_evening_issue20.py).
#: (declarer, team 0's card points) of four deals dealt in turn: level on big points
LEVEL_DEALS = [(0, 100), (1, 100), (2, 40), (3, 40)]
CONSOLE_WORDS = {
    "de": {
        "wins": "gewinnt nach Augen",
        "done": "fertig",
        "offline": "offline",
        "closed": "Die Runde ist abgeschlossen. Das Tablet von Tisch 2 ",
        "cards": "Diese Runde ist abgeschlossen",
    },
    "en": {
        "wins": "wins on Augen",
        "done": "done",
        "offline": "offline",
        "closed": "The round is closed. The tablet of table 2 ",
        "cards": "This round is closed",
    },
}


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_round_page_shows_augen_tablets_and_why_no_cards(
    live_server: Any, phone: Any, club: Club, language: str
) -> None:
    words = CONSOLE_WORDS[language]
    event = make_event(club=club, deals=4)
    user = UserFactory(username="orga")
    club.organisers.add(user)
    device = client_for(device_code=event.code1)
    for number, (declarer, points) in enumerate(LEVEL_DEALS, start=1):
        response = device.post(
            f"/api/matches/{event.match1.pk}/deals/{number}/",
            summary_record(dealer=number - 1, declarer=declarer, team0_points=points),
            format="json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert response.status_code == 201
    long_ago = timezone.now() - timedelta(minutes=10)
    for table in (event.table1, event.table2):  # both tablets opened their table, then left
        DeviceCredential.objects.filter(table=table).update(last_seen_at=long_ago)

    page = phone(language).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/console/rounds/{event.round.pk}/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    row = page.locator("#progress tr[data-table='1']")
    expect(row.locator("[data-bind='augen']")).to_have_text("30 : 34 Augen")
    expect(row.locator("[data-bind='augen-winner']")).to_contain_text(words["wins"])
    expect(row.locator("[data-bind='tablet']")).to_have_text(words["done"])
    other = page.locator("#progress tr[data-table='2'] [data-bind='tablet']")
    expect(other).to_have_text(words["offline"])
    expect(page.locator("#close-blockers [data-bind='maybe-waiting']")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, f"console-round-augen-{language}")
    tablet = page.context.new_page()
    tablet.goto(f"{live_server.url}/t/{event.code1}/")
    summary = tablet.locator("#confirm-summary")
    expect(summary.locator("[data-bind='augen']")).to_have_text("30 : 34 Augen")
    expect(summary.locator("[data-bind='augen-winner']")).to_contain_text(words["wins"])
    shoot(tablet, f"tablet-summary-augen-{language}")
    tablet.close()

    page.check("#close-force")
    page.click("#close-form button")
    expect(page.locator(".messages")).to_contain_text(words["closed"])
    shoot(page, f"console-round-closed-{language}")

    page.goto(f"{live_server.url}/console/rounds/{event.round.pk}/table-cards/")
    expect(page.locator("[data-page='table-cards-closed'] h2")).to_have_text(words["cards"])
    shoot(page, f"table-cards-closed-{language}")
    page.locator("[data-page='table-cards-closed'] .btn-primary").click()
    expect(page).to_have_url(f"{live_server.url}/console/rounds/{event.round.pk}/")
