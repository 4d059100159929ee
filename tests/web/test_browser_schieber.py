"""A Schieber evening in German on phones with Swiss suits, in headless Chromium against
the live server (issue 26): 8 players, 1 round of 12 deals a table, at a club that plays
Swiss German suits. Most deals go in through the API; at table 1 the last two are
entered on the tablet in German (a pushed choice in Rosen trumps with a Weis and the
Stöck, then Obenabe where forehand's team takes all 9 tricks after the sheet's question
"alle 9 Stiche?"), and both teams confirm there. The standings then rank by total
points, in the Schieber's words.

Screenshots go to ``artifacts/screenshots/schieber-*`` (phone and desktop width)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import DealVersion
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Tournament
from tournaments.results import snapshots

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Urs", "Vreni", "Beat", "Heidi", "Ruedi", "Margrit", "Köbi", "Trudi"]
SUITS = "SHDC"
MODES = ("trump", "trump", "obenabe", "trump", "undenufe")


def evening(club: Club) -> Tournament:
    tournament = services.create_tournament(
        club=club, name="Jassabend", slug="jassabend", rules_preset="schieber", rules_options={}
    )
    for name in NAMES:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def post_deal(match: Match, code: str, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


def schieber_deal(number: int, seed: int) -> dict[str, Any]:
    """Deal ``number`` (dealer rotating from seat 0) as a score sheet sends it: forehand
    chooses or (every third deal) pushes; trumps, Obenabe or Undenufe in turn; every
    fourth deal a Weis of three."""
    dealer = (number - 1) % 4
    pushed = number % 3 == 0
    chooser = (dealer + 1 + (2 if pushed else 0)) % 4
    mode = MODES[(number + seed) % len(MODES)]
    contract: dict[str, Any] = {"kind": "schieber", "chooser": chooser, "mode": mode}
    contract["pushed"] = pushed
    if mode == "trump":
        contract["trump"] = SUITS[(number + seed) % 4]
    own = 40 + (number * 13 + seed * 7) % 78
    points = [0, 0]
    points[chooser % 2], points[1 - chooser % 2] = own, 157 - own
    record: dict[str, Any] = {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "contract": contract,
        "card_points": points,
    }
    if number % 4 == 0:
        side = next(s for s in SUITS if s != contract.get("trump"))
        record["weis"] = [{"seat": chooser, "cards": ["6" + side, "7" + side, "8" + side]}]
    return record


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").first.click()


def test_a_schieber_evening_in_german_with_swiss_suits_on_phones(
    live_server: Any, contexts: Any
) -> None:
    base = live_server.url
    club = Club.objects.create(name="Jassclub Appenzell", slug="jass-appenzell", suits="swiss")
    tournament = evening(club)
    phone = contexts(language="de").new_page()
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    for match in round_.matches.order_by("table__number"):
        _, code = services.issue_device_code(table=match.table)
        at_tablet = match.table.number == 1
        for deal in range(1, 11 if at_tablet else 13):
            post_deal(match, code, deal, schieber_deal(deal, match.table.number))
        if at_tablet:
            play_two_deals_on_the_tablet(phone, base, code, match)
    services.close_round(round_=round_, force=True)

    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"][:2] == ["augen", "tournament_points"]
    rows = data["rows"]
    assert [r["augen"] for r in rows] == sorted((r["augen"] for r in rows), reverse=True)
    leader = rows[0]
    phone.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    assert phone.locator("html").get_attribute("lang") == "de"
    table = phone.locator("table.data").first
    header = table.locator("thead").inner_text().lower()
    assert "punkte" in header and "augen" not in header
    first = table.locator(f"tr[data-entrant='{leader['entrant']}']").inner_text()
    assert leader["name"] in first and str(leader["augen"]) in first
    screenshot(phone, "schieber-standings-de")

    phone.goto(f"{base}/tournaments/{tournament.pk}/")
    assert "Schieber" in phone.locator("body").inner_text()
    screenshot(phone, "schieber-tournament-de")


def play_two_deals_on_the_tablet(page: Any, base: str, code: str, match: Match) -> None:
    page.goto(f"{base}/lang/de/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == "de"
    sheet = page.locator("#entry")
    words = sheet.inner_text().lower()
    for word in ("trumpf", "obenabe", "undenufe", "weis", "geschoben"):
        assert word in words, word
    assert "belote" not in words and "roem" not in words and "augen" not in words
    for suit in ("Eicheln", "Rosen", "Schilten", "Schellen"):
        assert sheet.locator(f"button[data-pick='trump'][aria-label='{suit}']").count() == 1
    page.locator("#entry [data-bind='number']").filter(has_text="11").wait_for()
    # deal 11, dealt by seat 2: forehand (seat 3) pushes, partner seat 1 chooses Rosen;
    # seat 1 shows a Dreiblatt 6-7-8 of Schilten, seat 3 has the Stöck; 57 : 100 card
    # points, so 57 : 140.
    tap(page, "pushed", 1)
    tap(page, "trump", "S")
    assert "(geschoben)" in sheet.locator("[data-bind='chooser']").inner_text()
    assert "Stöck" in sheet.locator("[data-section='stoeck']").text_content()  # trumps: Stöck
    page.fill("#points1", "100")
    assert page.input_value("#points0") == "57"
    sheet.locator("details.meld-box > summary").click()
    tap(page, "meld-seat", 1)
    tap(page, "meld-kind", "run")
    tap(page, "meld-length", 3)
    tap(page, "meld-suit", "H")
    tap(page, "meld-top", "8")
    sheet.locator("button[data-action='add-meld']").click()
    assert "3-Blatt (20)" in sheet.locator("[data-bind='melds']").inner_text()
    tap(page, "stoeck", 3)
    verdict = sheet.locator("[data-bind='verdict']").inner_text()
    assert "Weis zählt" in verdict and "Stöck" in verdict
    screenshot(page, "schieber-tablet-pushed-de")
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="12").wait_for()

    # deal 12, dealt by seat 3: forehand (seat 0) chooses Obenabe and her team takes all
    # 157 card points; the sheet asks whether that was all 9 tricks (the Match, 257).
    tap(page, "pushed", 0)
    tap(page, "mode", "obenabe")
    assert sheet.locator("[data-section='stoeck']").is_hidden()  # no Stöck without trumps
    question = sheet.locator("[data-section='all-tricks']")
    assert question.is_hidden()
    page.fill("#points0", "157")
    assert question.is_visible() and "alle 9 Stiche" in question.text_content()
    page.click("#entry button[type=submit]")
    question.locator("[data-error-for='tricks_won']").filter(has_text="9 Stiche").wait_for()
    tap(page, "all-tricks", 8)
    assert "Match" in sheet.locator("[data-bind='verdict']").inner_text()
    screenshot(page, "schieber-tablet-match-de")
    page.click("#entry button[type=submit]")
    page.locator("#table-state li[data-deal='12']").wait_for(timeout=20_000)

    current = DealVersion.objects.current().filter(deal__match=match)
    results = [v.result for v in current.order_by("deal__number")]
    assert len(results) == 12
    assert results[10]["pushed"] and results[10]["points"] == [57, 140]
    assert results[10]["weis"]["winning_team"] == 1 and results[10]["stoeck"]["seat"] == 3
    assert (results[11]["match"], results[11]["points"]) == (0, [257, 0])
    state = page.locator("#table-state")
    pushed = state.locator("li[data-deal='11']").inner_text()
    assert "geschoben" in pushed and "Weis 0 : 20" in pushed and "Stöck 2+4" in pushed
    assert "Match" in state.locator("li[data-deal='12']").inner_text()
    for team in (0, 1):
        page.locator(f"button[data-confirm-team='{team}']").click()
        page.locator(f"button[data-confirm-team='{team}']").wait_for(state="detached")
    screenshot(page, "schieber-tablet-confirmed-de")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("trump", "obenabe", "weis", "pushed", "all 9 tricks")),
        ("nl", ("troef", "obenabe", "weis", "geschoven", "alle 9 slagen")),
        ("fr", ("atout", "obenabe", "weis", "chibré", "les 9 plis")),
    ],
)
def test_the_schieber_sheet_fits_a_phone_in_every_language(
    live_server: Any, contexts: Any, language: str, words: tuple[str, ...]
) -> None:
    club = Club.objects.create(name="Jassclub Bern", slug="jass-bern", suits="swiss")
    tournament = evening(club)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    page = contexts(language=language).new_page()
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == language
    page.locator("#entry details.meld-box > summary").click()  # the widest part, open
    tap(page, "pushed", 1)
    tap(page, "trump", "H")
    page.fill("#points0", "157")  # the question "all 9 tricks?" shows too
    text = page.locator("#entry").text_content().lower()
    assert [w for w in words if w not in text] == []
    assert "belote" not in text and "roem" not in text
    screenshot(page, f"schieber-tablet-{language}")  # asserts nothing sticks out at 390 px


def test_the_sheet_counts_weis_and_stoeck_with_the_multipliers(
    live_server: Any, contexts: Any
) -> None:
    """With ``multipliers`` on, the sheet's preview scales the Stöck and the Weis as the
    engine will (Rosen/Spades x2, Obenabe x3); without them it shows them plain."""
    club = Club.objects.create(name="Jassclub Chur", slug="jass-chur", suits="swiss")
    tournament = services.create_tournament(
        club=club,
        name="Jassabend mit Multiplikatoren",
        slug="jass-multi",
        rules_preset="schieber",
        rules_options={"multipliers": True},
    )
    for name in NAMES:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    page = contexts(language="de").new_page()
    page.goto(f"{live_server.url}/lang/de/?next=/t/{code}/")
    verdict = page.locator("#entry [data-bind='verdict']")
    tap(page, "pushed", 0)
    tap(page, "trump", "S")  # Rosen: x2
    tap(page, "stoeck", 1)
    expect(verdict).to_contain_text("Stöck")
    assert "40 (×2)" in verdict.inner_text()
    tap(page, "trump", "D")  # Schellen: x1
    assert "20" in verdict.inner_text() and "×" not in verdict.inner_text()
    screenshot(page, "schieber-tablet-multipliers-de")
