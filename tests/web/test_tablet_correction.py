"""Correcting a deal at the table, in headless Chromium against the live server.

A tablet (phone, 390x844) enters deals, taps one in its score panel, gets the entry sheet
prefilled with the stored values, changes it and saves: the tablet, the console's round
page and the public standings show the corrected deal. A correction based on a version
the organiser replaced meanwhile is refused with a message and the sheet shows what is
stored; offline, the tablet says that corrections need a connection, while a deal still
in its outbox is changed there. Once both teams confirmed, the panel says who corrects.
The Klaverjas sheet (Dutch and English) and the sheet of a table of three correct too.
Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.db.models import Sum
from playwright.sync_api import expect

from games.models import DealVersion
from tests.conftest import client_for, make_event
from tests.factories import UserFactory
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match, Seat

from .conftest import SCREENSHOTS
from .test_browser import enter_deal, tap, wait_until
from .test_browser_presets import evening, klaverjas_table, open_round, post_deal, solo_deal
from .test_tablet_offline import go_offline, go_online, network  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WORDS = {
    "de": {
        "deal": "Spiel",
        "correct": "Korrigieren",
        "correcting": "Spiel 2 korrigieren",
        "save": "Korrektur speichern",
        "corrected": "Spiel 2 korrigiert",
        "correction": "1 Korrektur",
        "locked": "Beide Teams haben bestätigt: Korrekturen macht jetzt die Turnierleitung.",
    },
    "en": {
        "deal": "Deal",
        "correct": "Correct",
        "correcting": "Correcting deal 2",
        "save": "Save correction",
        "corrected": "Deal 2 corrected",
        "correction": "1 correction",
        "locked": "Both teams confirmed: corrections now go through the organiser.",
    },
}


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    club.organisers.add(UserFactory(username="leiterin"))
    return club


def shoot(page: Any, name: str) -> None:
    """The correction's banner and the sheet below it as a player sees them, and the
    whole page."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.getElementById('correction-bar').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)


def open_tablet(contexts: Any, base: str, code: str, language: str) -> Any:
    page = contexts(PHONE, language).new_page()
    page.goto(f"{base}/lang/{language}/?next=/t/{code}/")
    expect(page.locator(".entry-head h2")).to_be_visible()
    return page


def enter_at_tablet(tablet: Any, match: Match, points: tuple[int, ...]) -> None:
    """Deals 1, 2, ... through the sheet, each stored before the next is entered."""
    for number, team0 in enumerate(points, start=1):
        expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text(str(number))
        enter_deal(tablet, declarer=number % 4, points0=team0)
        wait_until(tablet, lambda n=number: versions(match, n) == 1, timeout=20)


def stored(match: Match, number: int) -> DealVersion:
    return DealVersion.objects.current().get(deal__match=match, deal__number=number)


def versions(match: Match, number: int) -> int:
    return DealVersion.objects.filter(deal__match=match, deal__number=number).count()


def deal_row(page: Any, number: int) -> Any:
    return page.locator(f"#table-state li[data-deal='{number}']")


def tap_correct(page: Any, number: int, *, opens: bool = True) -> None:
    """Tap a stored deal's correct button; online, wait until its sheet holds the deal.

    The sheet is filled from the server's answer, so typing before it opens would type
    into the new-deal sheet (kept as its draft) instead of into the correction.
    """
    deal_row(page, number).locator("button[data-correct-deal]").click()
    if opens:
        expect(page.locator("#correction-bar")).to_be_visible()


def organiser_corrects(match: Match, number: int, *, version: int, points0: int) -> int:
    record = dict(stored(match, number).record, card_points=[points0, 164 - points0])
    organiser = client_for(match.round.tournament.club.organisers.get())
    response = organiser.put(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    return int(response.status_code)


def team_augen(match: Match, seat: Seat) -> int:
    current = DealVersion.objects.current().filter(deal__match=match)
    return current.aggregate(total=Sum(f"match_points_{seat.position % 2}"))["total"] or 0


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/console/")
    page.fill("#id_username", "leiterin")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    page.wait_for_url(re.compile(r".*/console/$"))


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_deal_is_corrected_at_the_tablet(
    live_server: Any, contexts: Any, club: Club, language: str
) -> None:
    words = WORDS[language]
    base = live_server.url
    event = make_event(club=club, deals=4)
    match = event.match1
    tablet = open_tablet(contexts, base, event.code1, language)
    enter_at_tablet(tablet, match, (100, 40, 90))
    expect(deal_row(tablet, 3)).to_be_visible()
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("4")
    before = stored(match, 2)
    assert before.record["card_points"] == [40, 124] and before.version == 1

    # deal 4 is half entered when the players notice the mistake in deal 2
    tap(tablet, "declarer", 1)
    # the panel's deal 2: the same sheet, prefilled with what is stored
    button = deal_row(tablet, 2).locator("button[data-correct-deal]")
    expect(button).to_contain_text(words["correct"])
    tap_correct(tablet, 2)
    bar = tablet.locator("#correction-bar")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text(words["correcting"])
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("2")
    expect(tablet.locator("#points0")).to_have_value("40")
    expect(tablet.locator("#points1")).to_have_value("124")
    declarer = tablet.locator("#entry button[data-pick='declarer'][data-value='2']")
    expect(declarer).to_have_attribute("aria-pressed", "true")
    expect(tablet.locator("#entry button[type=submit]")).to_have_text(words["save"])
    tablet.fill("#points0", "120")
    shoot(tablet, f"tablet-correction-{language}")
    tablet.click("#entry button[type=submit]")
    wait_until(tablet, lambda: versions(match, 2) == 2)

    after = stored(match, 2)
    assert after.version == 2 and after.record["card_points"] == [120, 44]
    assert after.created_by_device is not None and after.record["contract"]["declarer"] == 2
    assert DealVersion.objects.filter(deal__match=match).count() == 4  # nothing else written
    expect(tablet.locator("#toast")).to_contain_text(words["corrected"])
    expect(bar).to_be_hidden()
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("4")
    half_entered = tablet.locator("#entry button[data-pick='declarer'][data-value='1']")
    expect(half_entered).to_have_attribute("aria-pressed", "true")  # deal 4 is back
    points = after.result["points"]
    expect(deal_row(tablet, 2).locator(".pts")).to_have_text(f"{points[0]} : {points[1]}")
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "0")

    console = contexts(DESKTOP, language).new_page()
    log_in(console, base)
    console.goto(f"{base}/console/rounds/{event.round.pk}/")
    row = console.locator(f"#progress tr[data-table='{event.table1.number}']")
    expect(row).to_contain_text("3 / 4")
    expect(row).to_contain_text(words["correction"])

    seat = Seat.objects.select_related("player").get(table=event.table1, position=0)
    public = contexts(PHONE, language).new_page()
    public.goto(f"{base}/lang/{language}/?next=/tournaments/{event.tournament.pk}/standings/")
    standing = public.locator("#standings tbody tr", has_text=seat.player.name)
    expect(standing.locator("td.num").nth(5)).to_have_text(str(team_augen(match, seat)))

    # the last deal, then both teams confirm: the panel says who corrects now
    enter_deal(tablet, declarer=0, points0=64)
    wait_until(tablet, lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED)
    for team in (0, 1):
        reply = client_for(device_code=event.code1).post(
            f"/api/matches/{match.pk}/confirm/", {"team": team}, format="json"
        )
        assert reply.status_code == 200
    expect(tablet.locator("#table-state.htmx-request")).to_have_count(0)
    tablet.evaluate("htmx.trigger('#table-state', 'refresh')")
    lock = tablet.locator("[data-bind='correction-lock']")
    expect(lock).to_have_text(words["locked"], timeout=25_000)  # else the panel's next poll
    expect(tablet.locator("button[data-correct-deal]")).to_have_count(0)


def test_a_stale_correction_shows_the_stored_values(
    live_server: Any, contexts: Any, club: Club
) -> None:
    base = live_server.url
    event = make_event(club=club, deals=4)
    match = event.match1
    tablet = open_tablet(contexts, base, event.code1, "de")
    enter_at_tablet(tablet, match, (100, 40))
    expect(deal_row(tablet, 2)).to_be_visible()
    tap_correct(tablet, 2)
    expect(tablet.locator("#points0")).to_have_value("40")

    # meanwhile the organiser corrects deal 2 in the console
    assert organiser_corrects(match, 2, version=1, points0=30) == 200
    tablet.fill("#points0", "120")
    tablet.click("#entry button[type=submit]")
    error = tablet.locator("#correction-bar [data-bind='correction-error']")
    expect(error).to_contain_text("Spiel 2 wurde inzwischen korrigiert")
    expect(tablet.locator("#points0")).to_have_value("30")  # what is stored now
    expect(tablet.locator("#correction-bar")).to_contain_text("Version 2")
    current = stored(match, 2)
    assert current.version == 2 and current.record["card_points"] == [30, 134]
    assert versions(match, 2) == 2
    shoot(tablet, "tablet-correction-stale-de")

    # corrected on top of the organiser's version, it goes through
    tablet.fill("#points0", "120")
    tablet.click("#entry button[type=submit]")
    wait_until(tablet, lambda: versions(match, 2) == 3)
    assert stored(match, 2).record["card_points"] == [120, 44]
    expect(tablet.locator("#correction-bar")).to_be_hidden()

    # the same in English
    speak = f"{base}/lang/en/?next=/t/{event.code1}/"
    tablet.goto(speak)
    expect(deal_row(tablet, 2)).to_be_visible()
    tap_correct(tablet, 2)
    assert organiser_corrects(match, 2, version=3, points0=50) == 200
    tablet.fill("#points0", "60")
    tablet.click("#entry button[type=submit]")
    expect(tablet.locator("#correction-bar [data-bind='correction-error']")).to_contain_text(
        "Deal 2 was corrected meanwhile"
    )
    expect(tablet.locator("#points0")).to_have_value("50")
    assert stored(match, 2).version == 4
    shoot(tablet, "tablet-correction-stale-en")


def test_offline_a_correction_is_refused_in_words_and_a_queued_deal_is_changed(
    live_server: Any,
    contexts: Any,
    club: Club,
    network: None,  # noqa: F811 - the fixture imported above
) -> None:
    base = live_server.url
    event = make_event(club=club, deals=4)
    match = event.match1
    tablet = open_tablet(contexts, base, event.code1, "de")
    enter_deal(tablet, declarer=1, points0=100)
    wait_until(tablet, lambda: versions(match, 1) == 1)
    expect(deal_row(tablet, 1)).to_be_visible()

    # a correction started online, saved offline: said plainly, nothing changed
    tap_correct(tablet, 1)
    expect(tablet.locator("#points0")).to_have_value("100")
    tablet.fill("#points0", "80")
    go_offline(tablet.context)
    tablet.click("#entry button[type=submit]")
    expect(tablet.locator("#correction-bar [data-bind='correction-error']")).to_contain_text(
        "Korrekturen brauchen eine Verbindung"
    )
    assert versions(match, 1) == 1
    tablet.locator("#correction-bar [data-action='cancel-correction']").click()
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("2")

    # offline, tapping a stored deal says so instead of opening the sheet
    tap_correct(tablet, 1, opens=False)
    expect(tablet.locator("#toast")).to_contain_text("Korrekturen brauchen eine Verbindung")
    expect(tablet.locator("#correction-bar")).to_be_hidden()

    # a new deal waits in the outbox, is listed as not sent, and is changed there
    enter_deal(tablet, declarer=2, points0=40)
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "1")
    queued = tablet.locator("#table-state li[data-queued-deal='2']")
    expect(queued).to_contain_text("noch nicht gesendet")
    queued.locator("button[data-edit-queued]").click()
    bar = tablet.locator("#correction-bar")
    expect(bar).to_contain_text("Spiel 2 ändern, bevor es gesendet wird")
    expect(tablet.locator("#points0")).to_have_value("40")
    tablet.fill("#points0", "70")
    shoot(tablet, "tablet-correction-queued-de")
    tablet.click("#entry button[type=submit]")
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "1")
    outbox = tablet.evaluate("window.klammernTablet.outbox()")
    assert [item["record"]["card_points"] for item in outbox] == [[70, 94]]
    assert versions(match, 2) == 0

    go_online(tablet.context)
    tablet.evaluate("window.klammernTablet.flush()")
    wait_until(tablet, lambda: versions(match, 2) == 1, timeout=20)
    assert stored(match, 2).record["card_points"] == [70, 94]
    assert versions(match, 1) == 1 and stored(match, 1).record["card_points"] == [100, 64]
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "0")


@pytest.mark.parametrize("language", ["nl", "en"])
def test_klaverjas_sheet_corrects_a_deal(
    live_server: Any, contexts: Any, club: Club, language: str
) -> None:
    base = live_server.url
    match, code = klaverjas_table(club, deals=3)
    original = stored(match, 2).record
    tablet = open_tablet(contexts, base, code, language)
    tap_correct(tablet, 2)
    expect(tablet.locator("#correction-bar")).to_contain_text(
        {"nl": "Spel 2 corrigeren", "en": "Correcting deal 2"}[language]
    )
    expect(tablet.locator("#points0")).to_have_value(str(original["card_points"][0]))
    trump = tablet.locator(
        f"#entry button[data-pick='trump'][data-value='{original['contract']['trump']}']"
    )
    expect(trump).to_have_attribute("aria-pressed", "true")
    makers = (original["dealer"] + 1) % 2
    roem = tablet.locator(f"#entry [data-bind='roem'][data-team='{makers}']")
    expect(roem).to_have_text(str(original["roem"][makers]))
    tablet.locator(
        f"#entry button[data-action='roem'][data-team='{makers}'][data-value='50']"
    ).click()
    shoot(tablet, f"tablet-correction-klaverjas-{language}")
    tablet.click("#entry button[type=submit]")
    wait_until(tablet, lambda: versions(match, 2) == 2)
    after = stored(match, 2)
    assert after.record["roem"][makers] == original["roem"][makers] + 50
    assert after.record["card_points"] == original["card_points"]
    expect(tablet.locator("#toast")).to_contain_text(
        {"nl": "Spel 2 gecorrigeerd", "en": "Deal 2 corrected"}[language]
    )
    points = " : ".join(str(p) for p in after.result["points"])
    expect(deal_row(tablet, 2).locator(".pts")).to_contain_text(points)
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("4")


def test_three_player_sheet_corrects_a_deal(live_server: Any, contexts: Any, club: Club) -> None:
    base = live_server.url
    options = {"match_by": "deals", "deals_per_match": 3}
    tournament = evening(club, preset="klammern-3", names=list("ABCDEFGHI"), options=options)
    match = open_round(tournament, seed=1).matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    for number in (1, 2):
        post_deal(match, code, number, solo_deal(number, 1))
    original = stored(match, 1).record
    tablet = open_tablet(contexts, base, code, "de")
    tap_correct(tablet, 1)
    for seat, points in enumerate(original["card_points"]):
        expect(tablet.locator(f"#points{seat}")).to_have_value(str(points))
    tablet.fill("#points0", str(original["card_points"][0] + 10))
    tablet.click("#entry button[type=submit]")
    wait_until(tablet, lambda: versions(match, 1) == 2)
    assert stored(match, 1).record["card_points"][0] == original["card_points"][0] + 10
    expect(tablet.locator("#toast")).to_contain_text("Spiel 1 korrigiert")
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("3")
