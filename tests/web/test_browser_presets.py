"""Two evenings of the other presets in headless Chromium against the live server:

- a Klaverjas evening in Dutch: 8 players, 2 rounds, 16 deals a table; most deals go in
  through the API, one nat and one pit are entered at the table on the tablet page; the
  tablet, the standings, the player page and the projector show the engine's figures;
- a Klammern evening for three: 9 players, 3 rounds at tables of 3, one deal entered on
  the tablet, and the standings rank by tables won then points.

Screenshots go to artifacts/screenshots/ (phone and desktop width)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.models import DealVersion
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.web.conftest import SCREENSHOTS
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament
from tournaments.results import snapshots

from .conftest import DESKTOP, PHONE, assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = SCREENSHOTS / "browser-presets"
DUTCH = ["Anneke", "Bram", "Cor", "Dirk", "Els", "Femke", "Gert", "Hanna"]
TRIO = ["Anna", "Bernd", "Carla", "Dieter", "Elke", "Franz", "Gisela", "Hans", "Ilse"]


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(150)
        assert_fits(page, size["width"])
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(before)


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="KV De Troefboer", slug="troefboer")


def evening(club: Club, *, preset: str, names: list[str], options: dict[str, Any]) -> Tournament:
    tournament = services.create_tournament(
        club=club, name=f"Avond {preset}", slug=preset, rules_preset=preset, rules_options=options
    )
    for name in names:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def open_round(tournament: Tournament, seed: int) -> Round:
    round_ = draw.draw_round(tournament=tournament, seed=seed)
    return services.publish_round(round_=round_)


def post_deal(match: Match, code: str, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


def klaverjas_deal(number: int, seed: int) -> dict[str, Any]:
    """Deal ``number`` (dealer rotating from seat 0): the makers take 90 + some, or go nat."""
    dealer = (number - 1) % 4
    makers = (dealer + 1) % 2
    own = 60 if (number + seed) % 5 == 0 else 82 + (number * 7 + seed) % 40
    points = [0, 0]
    points[makers], points[1 - makers] = own, 162 - own
    roem = [0, 0]
    roem[makers] = 20 if number % 3 == 0 else 0
    contract = {"kind": "klaverjas", "declarer": (dealer + 1) % 4, "trump": "SHDC"[number % 4]}
    return {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "card_points": points,
        "roem": roem,
        "contract": contract,
    }


def klaverjas_table(club: Club, *, deals: int) -> tuple[Match, str]:
    """Table 1 of a Klaverjas evening of 8, its code and its first ``deals`` deals entered."""
    tournament = evening(club, preset="klaverjas-rotterdam", names=list("ABCDEFGH"), options={})
    match = open_round(tournament, seed=1).matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    for number in range(1, deals + 1):
        post_deal(match, code, number, klaverjas_deal(number, 1))
    return match, code


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").click()


def enter_solo_points(page: Any, points: tuple[int, ...]) -> None:
    """At a 3-player table: seat 2 (button 1) declares with Clubs, each seat's card points."""
    tap(page, "declarer", 1)
    tap(page, "trump", "C")
    for seat, value in enumerate(points):
        page.fill(f"#points{seat}", str(value))
    page.click("#entry button[type=submit]")


def test_klaverjas_evening_in_dutch(live_server: Any, page: Any, club: Club) -> None:
    base = live_server.url
    tournament = evening(club, preset="klaverjas-rotterdam", names=DUTCH, options={})
    for number in (1, 2):
        round_ = open_round(tournament, seed=number)
        for match in round_.matches.order_by("table__number"):
            _, code = services.issue_device_code(table=match.table)
            at_tablet = number == 1 and match.table.number == 1
            for deal in range(1, 15 if at_tablet else 17):
                post_deal(match, code, deal, klaverjas_deal(deal, number + match.table.number))
            if at_tablet:
                play_nat_and_pit_on_the_tablet(page, base, code, match)
        services.close_round(round_=round_, force=True)  # not confirmed at the tables

    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    leader, last = data["rows"][0], data["rows"][-1]
    page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    table = page.locator("table.data").first
    header = table.locator("thead").inner_text().lower()  # shown in capitals
    assert "mp" in header and "punten" in header and "augen" not in header
    first = table.locator(f"tr[data-entrant='{leader['entrant']}']").inner_text()
    assert leader["name"] in first and str(leader["augen"]) in first
    assert str(leader["tournament_points"]) in first
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    assert leader["tournament_points"] >= last["tournament_points"]
    shoot(page, "klaverjas-standings")

    page.goto(f"{base}/players/{leader['entrant']}/")
    results = page.locator("td[data-points]").all_inner_texts()
    assert len(results) == 2 and all("punten" in text for text in results)
    own_points = sum(int(text.split(":")[0]) for text in results)
    assert own_points == leader["augen"]
    shoot(page, "klaverjas-player")
    page.goto(f"{base}/tournaments/{tournament.pk}/projector/?seconds=5")
    assert leader["name"] in page.locator("body").inner_text()
    shoot(page, "klaverjas-projector")


def play_nat_and_pit_on_the_tablet(page: Any, base: str, code: str, match: Match) -> None:
    page.goto(f"{base}/lang/nl/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert "roem" in page.locator("#entry").inner_text().lower()
    # deal 15, dealt by seat 2: seat 3's team plays and takes 62 of 162, with 20 roem: nat
    page.locator("#entry [data-bind='number']").filter(has_text="15").wait_for()
    tap(page, "trump", "H")
    page.fill("#points0", "100")
    assert page.input_value("#points1") == "62"
    page.locator("#entry button[data-action='roem'][data-team='1'][data-value='20']").click()
    assert "nat" in page.locator("[data-bind='verdict']").inner_text()
    shoot(page, "klaverjas-tablet-nat")
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="16").wait_for()
    # deal 16, dealt by seat 3: seat 0's team plays and takes every trick: pit. With all
    # 162 points to one team the sheet asks whether it took all 8 tricks (RULES.md) and
    # does not send before it is answered.
    tap(page, "trump", "S")
    question = page.locator("#entry [data-section='all-tricks']")
    assert question.is_hidden()
    page.fill("#points0", "162")
    page.locator("#entry button[data-action='roem'][data-team='0'][data-value='50']").click()
    assert question.is_visible()
    assert "pit" not in page.locator("[data-bind='verdict']").inner_text()
    page.click("#entry button[type=submit]")
    question.locator("[data-error-for='tricks_won']").filter(has_text="8").wait_for()
    tap(page, "all-tricks", 7)
    assert "pit" not in page.locator("[data-bind='verdict']").inner_text()
    tap(page, "all-tricks", 8)
    assert "pit" in page.locator("[data-bind='verdict']").inner_text()
    shoot(page, "klaverjas-tablet-all-tricks")
    page.click("#entry button[type=submit]")
    page.locator("#table-state li[data-deal='16']").wait_for(timeout=20_000)
    results = [
        v.result
        for v in DealVersion.objects.current().filter(deal__match=match).order_by("deal__number")
    ]
    assert results[14]["outcome"] == "failed" and results[14]["points"] == [182, 0]
    assert results[15]["pit"] == 0 and results[15]["points"] == [162 + 150, 0]
    assert DealVersion.objects.current().get(deal__match=match, deal__number=16).record[
        "tricks_won"
    ] == [8, 0]
    state = page.locator("#table-state")
    assert "nat" in state.locator("li[data-deal='15']").inner_text()
    assert "pit" in state.locator("li[data-deal='16']").inner_text()
    totals = [sum(r["points"][t] for r in results) for t in (0, 1)]
    shown = state.locator("[data-bind='team-points']").all_inner_texts()
    assert shown == [str(totals[0]), str(totals[1])]
    assert "Gewonnen door" in state.inner_text() or "Gelijkspel" in state.inner_text()
    shoot(page, "klaverjas-tablet")


def solo_deal(number: int, seed: int) -> dict[str, Any]:
    dealer = (number - 1) % 3
    declarer = (dealer + 1 + seed) % 3
    points = [30, 30, 30]
    points[declarer] = 70 + (number * 11 + seed * 7) % 30
    return {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "card_points": points,
        "contract": {"kind": "take", "declarer": declarer, "trump": "H"},
    }


def test_three_player_evening(live_server: Any, page: Any, club: Club) -> None:
    base = live_server.url
    options = {"match_by": "deals", "deals_per_match": 3}
    tournament = evening(club, preset="klammern-3", names=TRIO, options=options)
    for number in (1, 2, 3):
        round_ = open_round(tournament, seed=number)
        assert [t.seats.count() for t in round_.tables.all()] == [3, 3, 3]
        for match in round_.matches.order_by("table__number"):
            _, code = services.issue_device_code(table=match.table)
            at_tablet = number == 1 and match.table.number == 1
            for deal in range(1, 3 if at_tablet else 4):
                post_deal(match, code, deal, solo_deal(deal, number + match.table.number))
            if at_tablet:
                page.goto(f"{base}/t/{code}/")
                page.locator("#entry [data-bind='number']").filter(has_text="3").wait_for()
                enter_solo_points(page, (20, 90, 40))
                page.locator("#table-state li[data-deal='3']").wait_for(timeout=20_000)
                results = [
                    v.result
                    for v in DealVersion.objects.current()
                    .filter(deal__match=match)
                    .order_by("deal__number")
                ]
                totals = [str(sum(r["points"][s] for r in results)) for s in range(3)]
                shown = page.locator("[data-bind='player-points']").all_inner_texts()
                assert shown == totals
                assert "Gewonnen von" in page.locator("#table-state").inner_text()
                shoot(page, "trio-tablet")
        services.close_round(round_=round_)

    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"] == ["tournament_points", "augen", "buchholz", "head_to_head"]
    assert sum(row["won"] + row["drawn"] for row in data["rows"]) >= 9
    leader = data["rows"][0]
    page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    header = page.locator("table.data thead").first.inner_text().lower()
    assert "pkt." in header and "punkte" in header  # tournament points, then points
    first = page.locator(f"table.data tr[data-entrant='{leader['entrant']}']").first.inner_text()
    assert leader["name"] in first and str(leader["augen"]) in first
    shoot(page, "trio-standings")
    page.goto(f"{base}/players/{leader['entrant']}/")
    results = page.locator("td[data-points]").all_inner_texts()
    assert len(results) == 3
    assert sum(int(text.split(":")[0]) for text in results) == leader["augen"]
    shoot(page, "trio-player")


def test_the_preset_sheets_show_the_servers_refusal_in_words(
    live_server: Any, page: Any, club: Club
) -> None:
    """A deal the engine refuses comes back from the server with error codes; the
    Klaverjas and 3-player sheets put the message next to the field, in the page's
    language and with the game's own numbers (162 card points in Klaverjas), and keep what
    was typed (nothing is stored)."""
    base = live_server.url
    klaverjas = evening(club, preset="klaverjas-rotterdam", names=DUTCH[:4], options={})
    match = open_round(klaverjas, seed=1).matches.get()
    _, code = services.issue_device_code(table=match.table)
    page.goto(f"{base}/lang/nl/?next=/t/{code}/")
    page.locator("#entry [data-bind='number']").filter(has_text="1").wait_for()
    tap(page, "trump", "H")
    page.fill("#points0", "170")
    page.click("#entry button[type=submit]")
    error = page.locator("#entry [data-error-for='card_points']")
    error.filter(has_text="162").wait_for(timeout=20_000)
    assert error.inner_text().startswith("Een spel Klaverjas heeft samen 162 punten")
    assert page.input_value("#points0") == "170"
    assert not DealVersion.objects.filter(deal__match=match).exists()
    shoot(page, "klaverjas-tablet-refused")

    trio = Club.objects.create(name="KC Dreier", slug="dreier")
    solo = evening(trio, preset="klammern-3", names=TRIO[:3], options={})
    match = open_round(solo, seed=1).matches.get()
    _, code = services.issue_device_code(table=match.table)
    page.goto(f"{base}/lang/en/?next=/t/{code}/")
    page.locator("#entry [data-bind='number']").filter(has_text="1").wait_for()
    enter_solo_points(page, (20, 300, 40))
    error = page.locator("#entry [data-error-for='card_points']")
    error.filter(has_text="each player's card points").wait_for(timeout=20_000)
    assert not DealVersion.objects.filter(deal__match=match).exists()
    shoot(page, "trio-tablet-refused")
