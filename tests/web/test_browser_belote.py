"""A Belote evening in French on phones, in headless Chromium against the live server
(issue 21, "Belote, added through the seam"): 8 players, 2 rounds of 12 deals a table.
Most deals go in through the API; at table 1 of round 1 the last two are entered on the
tablet in French (a "dedans" with an announcement and belote-rebelote, then a capot after
the sheet's question "les 8 plis ?"), and both teams confirm there. The standings, the
player's page, the tournament page and the results CSV then show the engine's figures in
Belote's words: points, annonces, belote, capot, dedans; never Augen, roem or pit.

Screenshots go to ``artifacts/screenshots/belote-*`` (phone and desktop width)."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import pytest

from games.models import DealVersion
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament
from tournaments.results import snapshots

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Aurélie", "Bastien", "Camille", "Damien", "Élodie", "Fabrice", "Gaëlle", "Hugo"]
SUITS = "SHDC"


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Belote Club Lyon", slug="belote-lyon")


def evening(club: Club) -> Tournament:
    tournament = services.create_tournament(
        club=club, name="Soirée belote", slug="soiree", rules_preset="belote", rules_options={}
    )
    for name in NAMES:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def open_round(tournament: Tournament, seed: int) -> Round:
    return services.publish_round(round_=draw.draw_round(tournament=tournament, seed=seed))


def post_deal(match: Match, code: str, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


def belote_deal(number: int, seed: int) -> dict[str, Any]:
    """Deal ``number`` (dealer rotating from seat 0) as a score sheet sends it: the taker
    takes in the upcard's suit or another one; every third deal a tierce, every fourth
    belote-rebelote; now and then the takers go dedans."""
    dealer = (number - 1) % 4
    taker = (dealer + 1 + (number + seed) % 4) % 4
    up_suit = SUITS[(number + seed) % 4]
    second_round = (number * 3 + seed) % 4 == 0
    trump = SUITS[(SUITS.index(up_suit) + 1) % 4] if second_round else up_suit
    own = 60 if (number + seed) % 6 == 0 else 82 + (number * 7 + seed) % 50
    points = [0, 0]
    points[taker % 2], points[1 - taker % 2] = own, 162 - own
    record: dict[str, Any] = {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "upcard": "7" + up_suit,
        "contract": {
            "kind": "belote",
            "declarer": taker,
            "trump": trump,
            "round": 2 if second_round else 1,
        },
        "card_points": points,
    }
    side = next(s for s in SUITS if s not in (up_suit, trump))
    if number % 3 == 0:
        record["melds"] = [{"seat": taker, "cards": ["8" + side, "9" + side, "T" + side]}]
    if number % 4 == 0:
        record["bella"] = (taker + 1) % 4
    return record


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").first.click()


def results_of(match: Match) -> list[dict[str, Any]]:
    current = DealVersion.objects.current().filter(deal__match=match)
    return [v.result for v in current.order_by("deal__number")]


def test_a_belote_evening_in_french_on_phones(live_server: Any, contexts: Any, club: Club) -> None:
    base = live_server.url
    tournament = evening(club)
    phone = contexts(language="fr").new_page()
    for number in (1, 2):
        round_ = open_round(tournament, seed=number)
        for match in round_.matches.order_by("table__number"):
            _, code = services.issue_device_code(table=match.table)
            at_tablet = number == 1 and match.table.number == 1
            for deal in range(1, 11 if at_tablet else 13):
                post_deal(match, code, deal, belote_deal(deal, number + match.table.number))
            if at_tablet:
                play_dedans_and_capot_on_the_tablet(phone, base, code, match)
        services.close_round(round_=round_, force=True)

    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    leader = data["rows"][0]
    phone.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    assert "Classement" in phone.locator("h1, h2").first.inner_text() or "Classement" in (
        phone.locator("body").inner_text()
    )
    table = phone.locator("table.data").first
    header = table.locator("thead").inner_text().lower()
    assert "pm" in header and "points" in header
    assert "augen" not in header and "roem" not in header
    first = table.locator(f"tr[data-entrant='{leader['entrant']}']").inner_text()
    assert leader["name"] in first and str(leader["augen"]) in first
    screenshot(phone, "belote-standings-fr")

    phone.goto(f"{base}/tournaments/{tournament.pk}/")
    about = phone.locator("body").inner_text()
    assert "Belote" in about and "12 donnes" in about
    assert "Liga-Partie" not in about and "Augen" not in about
    screenshot(phone, "belote-tournament-fr")

    phone.goto(f"{base}/players/{leader['entrant']}/")
    results = phone.locator("td[data-points]").all_inner_texts()
    assert len(results) == 2 and all("points" in text for text in results)
    assert sum(int(text.split(":")[0]) for text in results) == leader["augen"]
    screenshot(phone, "belote-player-fr")

    phone.goto(f"{base}/tournaments/{tournament.pk}/rounds/1/")
    assert NAMES[0] in phone.locator("body").inner_text()
    screenshot(phone, "belote-round-fr")

    results_csv_speaks_belote(club, tournament)


def play_dedans_and_capot_on_the_tablet(page: Any, base: str, code: str, match: Match) -> None:
    page.goto(f"{base}/lang/fr/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    sheet = page.locator("#entry")
    words = sheet.inner_text().lower()  # section labels are shown in capitals
    assert "annonces" in words and "belote-rebelote" in words and "atout" in words
    assert "roem" not in words and "bella" not in words and "augen" not in words
    page.locator("#entry [data-bind='number']").filter(has_text="11").wait_for()
    # deal 11, dealt by seat 2: seat 3 takes in Spades on the second round (upcard 7♥);
    # seat 0 announces a tierce 7-8-9 of Diamonds, seat 3 has belote. 70+20 for the takers
    # against 92+20: dedans, the defenders score 162 + 20, the takers their belote.
    tap(page, "up-suit", "H")
    tap(page, "up-rank", "7")
    tap(page, "declarer", 3)
    tap(page, "trump", "S")
    assert "second tour" in sheet.locator("[data-bind='round']").text_content()
    page.fill("#points1", "70")
    assert page.input_value("#points0") == "92"
    sheet.locator("details.meld-box > summary").click()
    tap(page, "meld-seat", 0)
    tap(page, "meld-kind", "run")
    tap(page, "meld-length", 3)
    tap(page, "meld-suit", "D")
    tap(page, "meld-top", "9")
    sheet.locator("button[data-action='add-meld']").click()
    assert "Tierce (20)" in sheet.locator("[data-bind='melds']").inner_text()
    tap(page, "bella", 3)
    verdict = sheet.locator("[data-bind='verdict']")
    assert "dedans" in verdict.inner_text()
    screenshot(page, "belote-tablet-dedans-fr")
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="12").wait_for()

    # deal 12, dealt by seat 3: seat 0 takes the upcard 8♣ on the first round and her team
    # takes all 162 card points. The sheet asks whether that was all 8 tricks (capot) and
    # sends nothing before it is answered.
    tap(page, "up-suit", "C")
    tap(page, "up-rank", "8")
    tap(page, "declarer", 0)
    tap(page, "trump", "C")
    assert "premier tour" in sheet.locator("[data-bind='round']").text_content()
    question = sheet.locator("[data-section='all-tricks']")
    assert question.is_hidden()
    page.fill("#points0", "162")
    assert question.is_visible() and "les 8 plis" in question.text_content()
    page.click("#entry button[type=submit]")
    question.locator("[data-error-for='tricks_won']").filter(has_text="8 plis").wait_for()
    tap(page, "all-tricks", 8)
    assert "capot" in verdict.inner_text()
    screenshot(page, "belote-tablet-capot-fr")
    page.click("#entry button[type=submit]")
    page.locator("#table-state li[data-deal='12']").wait_for(timeout=20_000)

    results = results_of(match)
    assert len(results) == 12
    assert (results[10]["outcome"], results[10]["points"]) == ("failed", [182, 20])
    assert results[10]["melds"]["winning_team"] == 0 and results[10]["bella"]["seat"] == 3
    assert (results[11]["capot"], results[11]["points"]) == (0, [252, 0])
    stored = DealVersion.objects.current().get(deal__match=match, deal__number=12).record
    assert stored["tricks_won"] == [8, 0] and stored["contract"]["round"] == 1

    correct_the_dedans_on_the_tablet(page, match)
    results = results_of(match)
    state = page.locator("#table-state")
    dedans = state.locator("li[data-deal='11']").inner_text()
    assert "dedans" in dedans and "182 : 20" in dedans and "annonces 20 : 0" in dedans
    assert "belote 2+4" in dedans
    assert "nat" not in dedans and "roem" not in dedans
    assert "capot" in state.locator("li[data-deal='12']").inner_text()
    totals = [sum(r["points"][t] for r in results) for t in (0, 1)]
    assert f"{totals[0]}" in state.inner_text() and f"{totals[1]}" in state.inner_text()
    for team in (0, 1):
        button = page.locator(f"button[data-confirm-team='{team}']")
        assert "confirme" in button.inner_text()
        button.click()
        page.locator(f"button[data-confirm-team='{team}']").wait_for(state="detached")
    page.get_by_text("Les deux équipes ont confirmé").wait_for()
    assert page.locator("#entry [data-bind='takers']").is_hidden()  # no deal to take
    screenshot(page, "belote-tablet-confirmed-fr")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def correct_the_dedans_on_the_tablet(page: Any, match: Match) -> None:
    """The sheet reloads deal 11 as stored (upcard, taker, trump, the tierce, belote,
    the points); corrected to 90 card points for the takers, 90+20 against 72+20 is
    made (92 : 110), and corrected back it is dedans again."""
    page.locator("#table-state li[data-deal='11'] button[data-correct-deal]").click()
    page.locator("#correction-bar").wait_for()
    assert "Correction de la donne 11" in page.locator("#correction-bar").inner_text()
    pressed = page.locator("#entry button[aria-pressed='true']")
    picks = {(b.get_attribute("data-pick"), b.get_attribute("data-value")) for b in pressed.all()}
    expected = {
        ("up-suit", "H"),
        ("up-rank", "7"),
        ("declarer", "3"),
        ("trump", "S"),
        ("bella", "3"),
    }
    assert expected <= picks, picks
    assert page.input_value("#points1") == "70" and page.input_value("#points0") == "92"
    assert "Tierce (20)" in page.locator("#entry [data-bind='melds']").inner_text()
    page.fill("#points1", "90")
    assert "Hugo" in page.locator("#entry [data-bind='verdict']").inner_text()
    assert "dedans" not in page.locator("#entry [data-bind='verdict']").inner_text()
    page.click("#entry button[type=submit]")
    page.locator("#toast").filter(has_text="Donne 11 corrigée").wait_for()
    current = DealVersion.objects.current().get(deal__match=match, deal__number=11)
    assert current.result["outcome"] == "made" and current.result["points"] == [92, 110]
    assert current.record["melds"] == [{"seat": 0, "cards": ["7D", "8D", "9D"]}]
    # and back, as the table first had it
    page.locator("#table-state li[data-deal='11'] button[data-correct-deal]").click()
    page.locator("#correction-bar").wait_for()
    page.fill("#points1", "70")
    page.click("#entry button[type=submit]")
    page.locator("#toast").filter(has_text="Donne 11 corrigée").wait_for()
    page.locator("#table-state li[data-deal='11']").filter(has_text="182 : 20").wait_for()


def results_csv_speaks_belote(club: Club, tournament: Tournament) -> None:
    organiser = club.organisers.first() or _organiser(club)
    web = Client()
    web.force_login(organiser)
    reply = web.get(f"/console/tournaments/{tournament.pk}/results.csv", HTTP_ACCEPT_LANGUAGE="fr")
    assert reply.status_code == 200
    rows = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig")), delimiter=";"))
    head = rows[0]
    for heading in ("Points places 1+3", "Annonces places 2+4", "Capot places 1+3"):
        assert heading in head, head
    assert not [h for h in head if "Augen" in h or "Roem" in h or "Pit" in h], head
    capot = head.index("Capot places 1+3")
    assert sum(row[capot] == "oui" for row in rows[1:]) >= 1


def _organiser(club: Club) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("organisatrice", password="pw-belote-1")
    club.organisers.add(user)
    return user


@pytest.mark.parametrize(
    ("language", "words", "absent"),
    [
        ("de", ("ansagen", "belote-rebelote", "trumpf"), ("roem", "bella", "augen")),
        ("en", ("announcements", "belote-rebelote", "trump"), ("roem", "bella", "augen")),
        ("nl", ("meldingen", "belote-rebelote", "troef"), ("roem", "bella", "augen")),
    ],
)
def test_the_belote_sheet_fits_a_phone_in_every_language(
    live_server: Any,
    contexts: Any,
    club: Club,
    language: str,
    words: tuple[str, ...],
    absent: tuple[str, ...],
) -> None:
    tournament = evening(club)
    match = open_round(tournament, seed=1).matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    page = contexts(language=language).new_page()
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == language
    page.locator("#entry details.meld-box > summary").click()  # the widest part, open
    tap(page, "meld-kind", "four")
    tap(page, "up-suit", "D")
    tap(page, "declarer", 1)
    tap(page, "trump", "D")
    page.fill("#points1", "162")  # the question "all 8 tricks?" shows too
    text = page.locator("#entry").inner_text().lower()
    assert [w for w in words if w not in text] == [] and [w for w in absent if w in text] == []
    screenshot(page, f"belote-tablet-{language}")  # asserts nothing sticks out at 390 px
