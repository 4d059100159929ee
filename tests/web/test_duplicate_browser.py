"""A duplicate evening in the browser (RULES.md, "Duplicate tournaments"): the organiser
opens the round's boards from the console and prints them; three tables enter the same
two boards on phones (390x844), each sheet prefilled with its board's dealer and upcard;
after the close the standings, a traveller and the projector show the match points and
percentages worked out by hand in ``test_duplicate_pages`` (the same six results), in
German and English. Screenshots go to artifacts/screenshots/duplicate/."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.models import DealVersion
from tests.factories import UserFactory
from tests.support.boards import DuplicateEvent, make_duplicate_event
from tournaments.clubs.models import Club
from tournaments.common.engine_messages import card_rank
from tournaments.events import services
from tournaments.events.models import Match

from .conftest import SCREENSHOTS, assert_fits
from .test_browser import tap, wait_until
from .test_duplicate_pages import BOARD_1, BOARD_2, NS_POINTS, PERCENT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "duplicate"
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
LOCALES = {"de": "de-DE", "en": "en-GB"}


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts = []

    def open_(viewport: dict[str, int], language: str) -> Any:
        context = browser.new_context(viewport=viewport, locale=LOCALES[language])
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def shoot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def stored(match: Match) -> int:
    return DealVersion.objects.current().filter(deal__match=match).count()


def refuse_another_upcard(page: Any, event: DuplicateEvent, match: Match) -> None:
    """A table that changes board 1's upcard is told in words which upcard the board has,
    and nothing is stored."""
    board = event.board(1)
    other = next(r for r in "789" if r != board.upcard[0])
    tap(page, "declarer", (board.dealer + 1) % 4)
    tap(page, "kind", "orgi")
    tap(page, "up-rank", other)
    page.fill("#points0", "60")
    page.click("#entry button[type=submit]")
    error = page.locator("[data-error-for='upcard']")
    expect(error).to_contain_text("Die aufgedeckte Karte dieses Boards ist")
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "tablet-wrong-upcard-de.png"))
    assert stored(match) == 0
    tap(page, "up-rank", board.upcard[0])


def enter_board(page: Any, event: DuplicateEvent, match: Match, number: int, ns: int) -> None:
    """The sheet shows board ``number`` with its dealer and upcard already set; the table
    enters who played (forehand, an Orgi) and North-South's card points."""
    board = event.board(number)
    expect(page.locator(".entry-head h2 [data-bind='board']")).to_have_text(f"Board {number}")
    for pick, value in (("up-suit", board.upcard[1]), ("up-rank", board.upcard[0])):
        button = page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']")
        expect(button).to_have_attribute("aria-pressed", "true")
    tap(page, "declarer", (board.dealer + 1) % 4)
    tap(page, "kind", "orgi")
    page.fill("#points0", str(ns))
    page.click("#entry button[type=submit]")
    wait_until(page, lambda: stored(match) == number, timeout=15.0)


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/console/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    expect(page.locator("h1")).to_be_visible()


def test_a_duplicate_evening_at_three_tables(live_server: Any, open_page: Any) -> None:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    club.organisers.add(UserFactory(username="orga"))
    event = make_duplicate_event(club=club, deals=2)
    base = live_server.url

    # the organiser prints the boards for the dealer
    for language in ("de", "en"):
        console = open_page(PHONE, language)
        log_in(console, base)
        console.goto(f"{base}/console/rounds/{event.round.pk}/")
        label = "Boards zum Geben" if language == "de" else "Boards to deal"
        console.get_by_role("link", name=label).click()
        expect(console.locator(".board-diagram")).to_have_count(2)
        expect(console.locator(".board-hand")).to_have_count(8)
        board = event.board(1)
        west = console.locator("#board-1 .board-W .hand-row")
        expect(west).to_have_count(4)
        expect(console.locator("#board-1 .board-centre")).to_contain_text(
            "Geber: N" if language == "de" else "Dealer: N"
        )
        with translation.override(language):  # the rank in the page's alphabet (B for Bube)
            rank = card_rank(board.upcard)
        assert rank in console.locator("#board-1 .board-centre .playing-card").inner_text()
        assert_fits(console, PHONE["width"])
        shoot(console, f"print-boards-{language}")

    # three tables on phones (tables 1 and 3 in German, table 2 in English)
    matches = [Match.objects.get(table=table) for table in event.tables]
    tablets = []
    for index, code in enumerate(event.codes):
        page = open_page(PHONE, "en" if index == 1 else "de")
        page.goto(f"{base}/t/{code}/")
        expect(page.locator("#outbox")).to_be_visible()
        tablets.append(page)
    refuse_another_upcard(tablets[0], event, matches[0])
    for number, points in NS_POINTS.items():
        for page, match, ns in zip(tablets, matches, points, strict=True):
            enter_board(page, event, match, number, ns)
            if number == 1:
                page.locator("#board-hands summary").click()
                expect(page.locator("[data-board-view='2'] .board-diagram")).to_be_visible()
                assert_fits(page, PHONE["width"])
                shoot(page, f"tablet-board-2-{'en' if page is tablets[1] else 'de'}")
    results = [
        [v.result["points"] for v in DealVersion.objects.current().filter(deal__match=m)]
        for m in matches
    ]
    assert all(len(r) == 2 for r in results)
    services.close_round(round_=event.round, force=True)

    # the public pages after the close
    for language in ("de", "en"):
        page = open_page(PHONE, language)
        page.goto(f"{base}/tournaments/{event.tournament.pk}/standings/")
        rows = page.locator("#standings tbody tr")
        expect(rows).to_have_count(12)
        for (table, team), percent in PERCENT.items():
            shown = f"{percent:g}".replace(".", "," if language == "de" else ".")
            for seat in event.tables[table - 1].seats.order_by("position")[team::2]:
                row = page.locator(f"#standings tbody tr[data-entrant='{seat.player_id}']")
                expect(row.locator("td.num").nth(1)).to_have_text(shown)
        assert_fits(page, PHONE["width"])
        shoot(page, f"standings-{language}")

        boards = "Boards und Laufzettel" if language == "de" else "Boards and travellers"
        page.get_by_role("link", name=boards).click()
        page.get_by_role("link", name="Board 2").click()
        table = page.locator(".traveller-table tbody tr")
        expect(table).to_have_count(3)
        for row, (number, ns_mp, ew_mp, ns, ew) in zip(table.all(), BOARD_2, strict=True):
            cells = [
                row.locator(f"td.{name}").inner_text()
                for name in ("ns-points", "ew-points", "ns-mp", "ew-mp")
            ]
            assert cells == [str(ns), str(ew), str(ns_mp), str(ew_mp)], (number, cells)
            expect(row.locator("td.par-ns")).not_to_have_text("–")
        shoot(page, f"traveller-board-2-{language}")
        page.get_by_role("link", name="1", exact=True).click()
        expect(page.locator(".traveller-table tbody tr")).to_have_count(len(BOARD_1))
        assert [int(c) for c in page.locator(".traveller-table td.ew-mp").all_inner_texts()] == [
            ew_mp for _, _, ew_mp, _, _ in BOARD_1
        ]

    projector = open_page(PROJECTOR, "en")
    projector.goto(f"{base}/tournaments/{event.tournament.pk}/projector/?seconds=3")
    standings = projector.locator("section[data-slide='standings']")
    expect(standings).to_be_visible()
    projector.wait_for_function(  # the slide has faded in
        "() => getComputedStyle(document.querySelector(\"section[data-slide='standings']\"))"
        ".opacity === '1'"
    )
    expect(standings.locator("tbody tr").first.locator("td.num").nth(1)).to_have_text("62.5")
    shoot(projector, "projector-en", full=False)
