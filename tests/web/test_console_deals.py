"""The organiser's deal page in the console: entering a deal a table could not enter
(its tablet failed; the round was closed without it) and correcting deals on the table's
own score sheet, Klammern and Klaverjas, in German and English, in Chromium against the
live server; and the page's limits through the test client."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import DealVersion
from tests.conftest import make_event
from tests.factories import UserFactory, summary_record
from tournaments.clubs.models import Club
from tournaments.deals import services as games_services
from tournaments.events import services
from tournaments.events.models import Match, Round

from .conftest import DESKTOP, SCREENSHOTS
from .test_browser import enter_deal, wait_until
from .test_browser_presets import evening, klaverjas_table, open_round, post_deal, solo_deal
from .test_pages import enter, text
from .test_tablet_correction import open_tablet
from .test_tablet_offline import go_offline, go_online, network  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = SCREENSHOTS / "console-deals"
WORDS = {
    "de": {"enter": "Spiel {n} eintragen", "saved": "Spiel {n} gespeichert"},
    "en": {"enter": "Enter deal {n}", "saved": "Deal {n} saved"},
}


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="KC Herzbube", slug="herzbube")
    club.organisers.add(UserFactory(username="leiterin"))
    return club


def console_page(contexts: Any, base: str, language: str, size: Any = DESKTOP) -> Any:
    """A browser page of the club's organiser, logged in, speaking ``language``."""
    page = contexts(size, language).new_page()
    page.goto(f"{base}/lang/{language}/?next=/accounts/login/")
    page.fill("#id_username", "leiterin")
    page.fill("#id_password", "pw")
    page.click("form button.btn-primary")
    page.wait_for_url(re.compile(r".*/console/$"))
    return page


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def current(match: Match) -> list[DealVersion]:
    return list(DealVersion.objects.current().filter(deal__match=match).order_by("deal__number"))


@pytest.mark.browser
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_organiser_enters_the_deals_a_failed_tablet_could_not(
    live_server: Any, contexts: Any, club: Club, language: str
) -> None:
    base = live_server.url
    event = make_event(club=club, deals=4)
    match = event.match1
    enter(event, 1, team0_points=100)
    enter(event, 2, team0_points=40)
    # the tablet of table 1 fails; the organiser closes the round without it
    services.close_round(round_=event.round, force=True)
    words = WORDS[language]
    console = console_page(contexts, base, language)
    console.goto(f"{base}/console/matches/{match.pk}/")
    button = console.locator("#enter-deal")
    expect(button).to_have_text(f"+ {words['enter'].format(n=3)}")
    shoot(console, f"match-before-{language}")
    button.click()
    expect(console.locator("h1")).to_contain_text(words["enter"].format(n=3))
    expect(console.locator(".entry-head [data-bind='number']")).to_have_text("3")
    seats = [s.player.name for s in match.table.seats.order_by("position")]
    expect(console.locator("#entry [data-bind='dealer-name']")).to_contain_text(seats[2])
    shoot(console, f"enter-deal-{language}")

    enter_deal(console, declarer=1, points0=120)
    expect(console.locator("#toast")).to_contain_text(words["saved"].format(n=3))
    console.wait_for_url(re.compile(rf".*/console/matches/{match.pk}/$"))
    deals = current(match)
    assert [d.deal.number for d in deals] == [1, 2, 3]
    organiser = get_user_model().objects.get(username="leiterin")
    assert deals[2].created_by_user == organiser and deals[2].created_by_device is None
    assert deals[2].record["dealer"] == 2 and deals[2].record["card_points"] == [120, 44]

    # the last one: the match is then complete and the button is gone
    console.locator("#enter-deal").click()
    expect(console.locator(".entry-head [data-bind='number']")).to_have_text("4")
    enter_deal(console, declarer=0, points0=90)
    console.wait_for_url(re.compile(rf".*/console/matches/{match.pk}/$"))
    expect(console.locator("tbody tr")).to_have_count(4)
    expect(console.locator("#enter-deal")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    shoot(console, f"match-after-{language}")

    # the public standings count them
    console.goto(f"{base}/tournaments/{event.tournament.pk}/standings/")
    expect(console.locator("tbody tr").first).to_contain_text("1")


@pytest.mark.browser
def test_a_refused_entry_is_shown_in_words_and_nothing_is_stored(
    live_server: Any, contexts: Any, club: Club
) -> None:
    base = live_server.url
    event = make_event(club=club, deals=4)
    console = console_page(contexts, base, "de")
    console.goto(f"{base}/console/matches/{event.match1.pk}/deals/1/")
    enter(event, 1, team0_points=64)  # the tablet was faster
    enter_deal(console, declarer=1, points0=120)
    expect(console.locator("[data-error-for='_general']")).to_contain_text("Spiel 1")
    assert [d.record["card_points"] for d in current(event.match1)] == [[64, 100]]


@pytest.mark.browser
@pytest.mark.parametrize("language", ["de", "en"])
def test_a_klaverjas_deal_is_corrected_on_the_klaverjas_sheet(
    live_server: Any, contexts: Any, club: Club, language: str
) -> None:
    base = live_server.url
    match, _ = klaverjas_table(club, deals=2)
    original = current(match)[1].record
    console = console_page(contexts, base, language)
    console.goto(f"{base}/console/matches/{match.pk}/deals/2/")
    expect(console.locator("#entry.entry-klaverjas")).to_be_visible()
    expect(console.locator("#points0")).to_have_value(str(original["card_points"][0]))
    makers = (original["dealer"] + 1) % 2
    console.locator(
        f"#entry button[data-action='roem'][data-team='{makers}'][data-value='20']"
    ).click()
    console.fill("#reason", "Roem vergessen")
    shoot(console, f"correct-klaverjas-{language}")
    console.click("#entry button[type=submit]")
    wait_until(console, lambda: current(match)[1].version == 2)
    after = current(match)[1]
    assert after.record["roem"][makers] == original["roem"][makers] + 20
    assert after.record["card_points"] == original["card_points"]
    assert after.reason == "Roem vergessen"

    # and deal 3, which the table has not entered, on the same sheet
    console.goto(f"{base}/console/matches/{match.pk}/")
    console.locator("#enter-deal").click()
    expect(console.locator("#entry.entry-klaverjas")).to_be_visible()
    console.locator("#entry button[data-pick='trump'][data-value='H']").click()
    console.fill("#points0", "100")
    console.click("#entry button[type=submit]")
    wait_until(console, lambda: len(current(match)) == 3)
    third = current(match)[2].record
    assert third["dealer"] == 2 and third["contract"]["trump"] == "H"


def test_the_page_offers_only_deals_that_can_be_entered(club: Club, client: Any) -> None:
    event = make_event(club=club, deals=2)
    client.force_login(club.organisers.get())
    match = event.match1
    page = f"/console/matches/{match.pk}/deals"
    assert client.get(f"{page}/1/").status_code == 200  # the first
    assert client.get(f"{page}/2/").status_code == 404  # not before deal 1
    assert client.get(f"{page}/0/").status_code == 404
    enter(event, 1, team0_points=64)
    body = text(client.get(f"/console/matches/{match.pk}/"))
    assert f'href="{page}/2/"' in body
    config = re.search(
        r'id="deal-config" type="application/json">(.*?)</script>',
        text(client.get(f"{page}/2/")),
        re.S,
    )
    assert json.loads(config.group(1))["dealer"] == 1
    enter(event, 2, team0_points=64)  # the match is complete
    assert 'id="enter-deal"' not in text(client.get(f"/console/matches/{match.pk}/"))
    assert client.get(f"{page}/3/").status_code == 404
    assert client.get(f"{page}/2/").status_code == 200  # corrections stay

    other = event.match2
    services.close_round(round_=event.round, force=True)
    assert client.get(f"/console/matches/{other.pk}/deals/1/").status_code == 200
    services.finish_tournament(tournament=event.tournament)
    assert 'id="enter-deal"' not in text(client.get(f"/console/matches/{other.pk}/"))
    assert client.get(f"/console/matches/{other.pk}/deals/1/").status_code == 404
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.CLOSED


def test_another_clubs_organiser_gets_404(club: Club, client: Any) -> None:
    event = make_event(club=club, deals=2)
    client.force_login(UserFactory())
    assert client.get(f"/console/matches/{event.match1.pk}/deals/1/").status_code == 404


def test_tables_of_three_show_each_players_points(club: Club, client: Any) -> None:
    """The console's round and table pages count a 2/3-player table in points per
    player, not in the big and small points of Klammern, and name who took each deal."""
    options = {"match_by": "deals", "deals_per_match": 2}
    tournament = evening(club, preset="klammern-3", names=list("ABCDEFGHI"), options=options)
    match = open_round(tournament, seed=1).matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    for number in (1, 2):
        post_deal(match, code, number, solo_deal(number, 1))
    results = [v.result["points"] for v in current(match)]
    totals = [sum(points) for points in zip(*results, strict=True)]
    names = [s.player.name for s in match.table.seats.order_by("position")]
    client.force_login(club.organisers.get())

    progress = plain(client.get(f"/console/rounds/{match.round.pk}/"))
    assert f"{' : '.join(map(str, totals))} Punkte" in progress
    assert "groß" not in progress and "klein" not in progress
    rows = plain(client.get(f"/console/matches/{match.pk}/"))
    for version in current(match):
        taker = names[version.record["contract"]["declarer"]]
        assert (
            f"{taker} ♥" in rows
            or f"{taker} ♣" in rows
            or f"{taker} ♠" in rows
            or f"{taker} ♦" in rows
        )
        assert " : ".join(map(str, version.result["points"])) in rows
    assert "Take" not in rows
    # players of a table of three are not partners: no team colours on the seating
    seating = text(client.get(f"/tournaments/{tournament.pk}/rounds/1/"))
    assert "seat-no" in seating and 'class="team-' not in seating
    player = text(client.get(f"/players/{match.table.seats.get(position=0).player_id}/"))
    assert '<th class="num" colspan="3">Punkte</th>' in player and ">Groß<" not in player

    export = client.get(f"/console/tournaments/{tournament.pk}/results.csv")
    lines = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig")), delimiter=";"))
    header = lines[0]
    assert header[4:7] == ["Platz 1", "Platz 2", "Platz 3"] and "Platz 4" not in header
    assert header[-3:] == ["Punkte Platz 1", "Punkte Platz 2", "Punkte Platz 3"]
    first = dict(zip(header, lines[1], strict=True))
    assert first["Spielart"] == "genommen"
    assert [int(first[f"Punkte Platz {n}"]) for n in (1, 2, 3)] == results[0]


def plain(response: Any) -> str:
    """A page's text without tags and with spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(response)))


@pytest.mark.browser
def test_a_deal_the_organiser_entered_meanwhile_is_not_shown_as_refused_at_the_tablet(
    live_server: Any,
    contexts: Any,
    club: Club,
    network: None,  # noqa: F811 - the fixture imported above
) -> None:
    """The German tablet held deal 2 offline while the organiser entered it from the
    paper sheet: on reconnect the tablet says it was entered on another device and
    reloads, by the answer's code (it matched the English text before, so a German
    tablet marked its entry "not accepted" with a message about a closed round)."""
    event = make_event(club=club, deals=4)
    match = event.match1
    enter(event, 1, team0_points=100)
    tablet = open_tablet(contexts, live_server.url, event.code1, "de")
    expect(tablet.locator(".entry-head [data-bind='number']")).to_have_text("2")
    go_offline(tablet.context)
    enter_deal(tablet, declarer=1, points0=70)
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "1")
    organiser = club.organisers.get()
    games_services.submit_deal(
        match=match, number=2, record=summary_record(dealer=1, team0_points=40), user=organiser
    )
    go_online(tablet.context)
    tablet.evaluate("window.klammernTablet.flush()")
    expect(tablet.locator("#toast")).to_contain_text(
        "Spiel 2 wurde schon auf einem anderen Gerät eingetragen"
    )
    expect(tablet.locator("#outbox")).to_have_attribute("data-waiting", "0")
    expect(tablet.locator("#table-state li[data-deal='2']")).to_be_visible()
    assert [d.record["card_points"] for d in current(match)] == [[100, 64], [40, 124]]
