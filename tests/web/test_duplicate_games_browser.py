"""Duplicate Klaverjas in Dutch and duplicate Belote in French on phones (390x844), in
headless Chromium against the live server (issue 36: duplicate for every partnership
game). 8 players at 2 tables play 2 boards; each table's tablet enters both boards on its
game's own sheet, which shows the board's number and takes its dealer (and Belote's
upcard) from the board; the round is closed. The traveller page then shows the board
result, the deal points and the match points that ``tests/api/test_duplicate_games.py``
works out by hand from RULES.md, the standings page and the standings CSV the players'
percentages. Screenshots go to artifacts/screenshots/duplicate-games/."""

from __future__ import annotations

import csv as csv_module
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client as DjangoClient
from playwright.sync_api import expect

from games.models import DealVersion
from tests.api.test_duplicate_games import GAMES, NS_CARD_POINTS, Game, expected, forehand
from tests.factories import UserFactory
from tests.support.boards import DuplicateEvent, make_duplicate_event
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import Match

from .conftest import PHONE, SCREENSHOTS, assert_fits
from .test_browser import tap, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "duplicate-games"


def stored(match: Match) -> int:
    return DealVersion.objects.current().filter(deal__match=match).count()


def klaverjas_sheet(page: Any, event: DuplicateEvent, number: int, ns: int) -> None:
    """Forehand's team plays (the board's dealer is set); the table picks trump (the
    upcard's suit) and types North-South's points."""
    tap(page, "trump", event.board(number).upcard[1])
    page.fill("#points0", str(ns))


def belote_sheet(page: Any, event: DuplicateEvent, number: int, ns: int) -> None:
    """The board's upcard is set; forehand takes in the first round."""
    board = event.board(number)
    for pick, value in (("up-suit", board.upcard[1]), ("up-rank", board.upcard[0])):
        button = page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']")
        expect(button).to_have_attribute("aria-pressed", "true")
    tap(page, "declarer", forehand(board))
    tap(page, "trump", board.upcard[1])
    page.fill("#points0", str(ns))


@dataclass(frozen=True)
class Evening:
    game: Game
    language: str
    sheet: Callable[[Any, DuplicateEvent, int, int], None]
    board_word: str
    headings: tuple[str, ...]


EVENINGS = [
    Evening(
        next(g for g in GAMES if g.preset == "klaverjas-rotterdam"),
        "nl",
        klaverjas_sheet,
        "Board",
        ("Spelresultaat", "Gespeelde punten"),
    ),
    Evening(
        next(g for g in GAMES if g.preset == "belote"),
        "fr",
        belote_sheet,
        "Donne",
        ("Résultat de l'étui", "Points de la donne"),
    ),
]


@pytest.mark.parametrize("evening", EVENINGS, ids=[e.game.preset for e in EVENINGS])
def test_a_duplicate_evening_of_another_game_on_phones(
    live_server: Any, contexts: Any, evening: Evening
) -> None:
    club = Club.objects.create(name="Club", slug="club")
    organiser = UserFactory(username="orga")
    club.organisers.add(organiser)
    game, language = evening.game, evening.language
    event = make_duplicate_event(
        club=club, players=8, deals=2, preset=game.preset, rules_options=game.rules_options
    )
    base = live_server.url
    matches = [Match.objects.get(table=table) for table in event.tables]
    tablets = []
    for code in event.codes:
        page = contexts(PHONE, language).new_page()
        page.goto(f"{base}/lang/{language}/?next=/t/{code}/")
        assert page.locator("html").get_attribute("lang") == language
        expect(page.locator("#outbox")).to_be_visible()
        tablets.append(page)
    for number in (1, 2):
        for table, (page, match) in enumerate(zip(tablets, matches, strict=True)):
            board = event.board(number)
            head = page.locator(".entry-head [data-bind='board']")
            expect(head).to_contain_text(str(number))
            dealer = page.locator(f"#entry button[data-pick='dealer'][data-value='{board.dealer}']")
            expect(dealer).to_have_attribute("aria-pressed", "true")
            evening.sheet(page, event, number, NS_CARD_POINTS[(table, number)])
            if number == 2 and table == 0:
                assert_fits(page, PHONE["width"])
                page.screenshot(path=str(SHOTS / f"{game.preset}-tablet-{language}.png"))
            page.click("#entry button[type=submit]")
            wait_until(page, lambda m=match, n=number: stored(m) == n, timeout=15.0)
    # the tablet shows only what duplicate means: boards and board results, no winner
    tablet = tablets[0]
    tablet.reload()
    expect(tablet.locator("#boards-progress")).to_be_visible()
    expect(tablet.locator(".match-winner")).to_have_count(0)
    expect(tablet.locator("[data-bind='board-points']")).to_have_count(2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    tablet.screenshot(path=str(SHOTS / f"{game.preset}-tablet-boards-{language}.png"))
    services.close_round(round_=event.round, force=True)
    want = expected(event, game)
    tablet.reload()
    expect(tablet.locator("[data-bind='match-points']").first).to_contain_text("%")
    tablet.screenshot(path=str(SHOTS / f"{game.preset}-tablet-closed-{language}.png"))

    phone = contexts(PHONE, language).new_page()
    phone.goto(f"{base}/lang/{language}/?next=/tournaments/{event.tournament.pk}/boards/")
    for number in (1, 2):
        phone.goto(f"{base}/tournaments/{event.tournament.pk}/rounds/1/boards/{number}/")
        head = phone.locator(".traveller-table thead").text_content() or ""
        assert all(words in head for words in evening.headings), head
        rows = phone.locator(".traveller-table tbody tr[data-table]")
        expect(rows).to_have_count(2)
        for table in (0, 1):
            row = phone.locator(f".traveller-table tbody tr[data-table='{table + 1}']")
            cells = [
                int(row.locator(f"td.{name}").inner_text())
                for name in ("ns-points", "ew-points", "ns-mp", "ew-mp")
            ]
            hand = want[(table, number)]
            assert cells == hand["points"] + hand["match_points"], (number, table, cells)
            deal = row.locator("td.deal-points").inner_text()
            assert deal == f"{hand['points'][0]} : {hand['points'][1]}"
        assert_fits(phone, PHONE["width"])
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(
            path=str(SHOTS / f"{game.preset}-traveller-{number}-{language}.png"), full_page=True
        )
        # the numbers to the right of the names: the table scrolls on a phone
        phone.locator(".traveller .table-wrap").evaluate(
            "e => { e.scrollLeft = e.querySelector('td.ns-points').offsetLeft - 8; }"
        )
        phone.locator(".traveller").screenshot(
            path=str(SHOTS / f"{game.preset}-traveller-{number}-{language}-scores.png")
        )

    # the standings: each player's percentage of 2 match points per board
    percent = {}
    for table in (0, 1):
        for seat in event.tables[table].seats.all():
            mp = sum(want[(table, number)]["match_points"][seat.position % 2] for number in (1, 2))
            percent[seat.player_id] = 100 * mp / 4
    phone.goto(f"{base}/tournaments/{event.tournament.pk}/standings/")
    for player, share in percent.items():
        row = phone.locator(f"#standings tbody tr[data-entrant='{player}']")
        shown = f"{share:g}".replace(".", ",")
        expect(row.locator("td.num").nth(1)).to_have_text(shown)
    phone.screenshot(path=str(SHOTS / f"{game.preset}-standings-{language}.png"), full_page=True)
    console = DjangoClient()
    console.force_login(organiser)
    csv = console.get(
        f"/console/tournaments/{event.tournament.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE="en"
    )
    lines = csv.content.decode("utf-8-sig").strip().splitlines()
    assert lines[0] == "Rank,Name,Boards,Match points,Maximum,Percentage"
    for table in (0, 1):
        for seat in event.tables[table].seats.select_related("player"):
            share = percent[seat.player_id]
            mp = int(share * 4 / 100)
            assert any(line.endswith(f",{seat.player.name},2,{mp},4,{share:g}") for line in lines)

    # the player page: the round with the pair's match-point percentage, not "won"
    seat = event.tables[0].seats.order_by("position").first()
    assert seat is not None
    mp = sum(want[(0, number)]["match_points"][0] for number in (1, 2))
    phone.goto(f"{base}/players/{seat.player_id}/")
    cell = phone.locator("td[data-percentage]")
    expect(cell).to_have_count(1)
    expect(cell).to_contain_text(f"{100 * mp / 4:.1f}".replace(".", ","))
    assert_fits(phone, PHONE["width"])
    phone.screenshot(path=str(SHOTS / f"{game.preset}-player-{language}.png"), full_page=True)

    # the traveller export equals the hand computation
    export = DjangoClient().get(
        f"/tournaments/{event.tournament.pk}/travellers.csv", HTTP_ACCEPT_LANGUAGE="en"
    )
    rows = list(csv_module.reader(io.StringIO(export.content.decode("utf-8-sig"))))
    got = {(int(r[2]) - 1, int(r[1])): [int(v) for v in r[-4:]] for r in rows[1:]}
    assert got == {key: hand["points"] + hand["match_points"] for key, hand in want.items()}, got
