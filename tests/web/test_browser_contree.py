"""A Belote Contrée evening in French on phones, in headless Chromium against the live
server (issue 38): 8 players, one round of 4 played deals a table. Table 2's deals go in
through the API; at table 1 every deal is entered on the tablet in French: a made 100 ♥,
a 120 ♠ that fails (entered without its coinche, then corrected to coinché), a deal
thrown in after four passes, a 90 ♦ coinched and surcoinched, and a capot bid and made
after the sheet's question "les 8 plis ?". Before each one is sent the sheet previews
the score as RULES.md counts it; both teams confirm. The standings and the results CSV
then equal the scores counted here by hand from RULES.md ("Belote Contrée"), not by the
engine; table 2's tablet names the player who revoked on its deal 4.

Screenshots go to ``artifacts/screenshots/contree-*`` (phone and desktop width)."""

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
from tournaments.events.models import Match, Seat, Tournament
from tournaments.results import snapshots

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Aurélie", "Bastien", "Camille", "Damien", "Élodie", "Fabrice", "Gaëlle", "Hugo"]

#: RULES.md, "Belote Contrée", by hand. Points made: card points (162 with the last
#: trick), 252 with all 8 tricks. Made when the takers' points reach the value (capot:
#: all 8 tricks): the defenders' points rounded to ten (5 up), the takers 160 minus that
#: (250 with all 8 tricks). Failed: the defenders 160 (250 for capot). Coinched ×2,
#: surcoinched ×4 the game's value (160 or 250) to the winners, 0 to the others. A revoke:
#: the game's value times the doubling to the clean team.
TABLET = [
    [60, 100],  # 1: seat 2 bids 100 ♥ and makes 104; 58 → 60, 160 − 60 = 100
    [0, 320],  # 2: seat 3 bids 120 ♠, coinched, makes 110: failed, 2 × 160 to the defenders
    [0, 0],  # 3: four passes
    [640, 0],  # 4: seat 1 bids 90 ♦, coinched and surcoinched, makes 95: 4 × 160
    [0, 250],  # 5: seat 4 bids capot in ♣ and takes all 8 tricks: 250
]
#: Table 2, through the API: (record, its score by hand).
API_DEALS: list[tuple[dict[str, Any], list[int]]] = [
    # 80 ♣ by seat 2, made with 92: 70 stays 70, 160 − 70 = 90
    ({"contract": [1, "C", 80, 0], "card_points": [70, 92]}, [70, 90]),
    # 110 ♥ by seat 3, made with 115: 47 → 50, 160 − 50 = 110
    ({"contract": [2, "H", 110, 0], "card_points": [115, 47]}, [110, 50]),
    # 100 ♠ by seat 4, coinched, 72 made: failed, 2 × 160 to seats 1+3
    ({"contract": [3, "S", 100, 1], "card_points": [90, 72]}, [320, 0]),
    # 80 ♦ by seat 1; seat 2 revokes with 8♣: 160 to the clean team
    (
        {"contract": [0, "D", 80, 0], "card_points": [40, 20], "revoke": {"seat": 1, "card": "8C"}},
        [160, 0],
    ),
]


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Cercle de la Coinche", slug="coinche-lyon")


def evening(club: Club) -> Tournament:
    tournament = services.create_tournament(
        club=club,
        name="Concours de contrée",
        slug="concours",
        rules_preset="belote-contree",
        rules_options={"deals_per_match": 4},
    )
    for name in NAMES:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def api_record(dealer: int, deal: dict[str, Any]) -> dict[str, Any]:
    declarer, trump, value, doubling = deal["contract"]
    record = {"format": "klammern-deal/1", "dealer": dealer, **deal}
    record["contract"] = {"kind": "contree", "declarer": declarer, "trump": trump} | {
        "value": value,
        "doubling": doubling,
    }
    return record


def post_deal(match: Match, code: str, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


def tap(page: Any, pick: str, value: Any) -> None:
    page.locator(f"#entry button[data-pick='{pick}'][data-value='{value}']").first.click()


def seat_names(match: Match) -> list[str]:
    seats = Seat.objects.filter(table=match.table, round=match.round).order_by("position")
    return [seat.player.name for seat in seats]


def results_of(match: Match) -> list[list[int]]:
    current = DealVersion.objects.current().filter(deal__match=match)
    return [v.result["points"] for v in current.order_by("deal__number")]


def test_a_contree_evening_in_french_on_phones(live_server: Any, contexts: Any, club: Club) -> None:
    base = live_server.url
    tournament = evening(club)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    first, second = round_.matches.order_by("table__number")
    _, code = services.issue_device_code(table=second.table)
    for number, (deal, _) in enumerate(API_DEALS, start=1):
        post_deal(second, code, number, api_record((number - 1) % 4, deal))
    assert results_of(second) == [points for _, points in API_DEALS]

    phone = contexts(language="fr").new_page()
    _, code = services.issue_device_code(table=first.table)
    play_the_evening_on_the_tablet(phone, base, code, first)
    services.close_round(round_=round_, force=True)

    # by hand: each team's points are the sum of its deals; the team with more wins the
    # match (2 match points each, 0 to the losers)
    expected: dict[str, tuple[int, int]] = {}
    for match, deals in ((first, TABLET), (second, [p for _, p in API_DEALS])):
        totals = [sum(points[team] for points in deals) for team in (0, 1)]
        names = seat_names(match)
        for seat, name in enumerate(names):
            team = seat % 2
            won = totals[team] > totals[1 - team]
            expected[name] = (2 if won else 0, totals[team])
    assert expected[seat_names(first)[0]] == (2, 700)  # 60 + 0 + 0 + 640 + 0
    assert expected[seat_names(first)[1]] == (0, 670)  # 100 + 320 + 0 + 0 + 250
    assert expected[seat_names(second)[0]] == (2, 660)  # 70 + 110 + 320 + 160

    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    rows = {row["name"]: (row["tournament_points"], row["augen"]) for row in data["rows"]}
    assert rows == expected
    leader = data["rows"][0]
    assert leader["augen"] == 700

    # table 2's tablet names who revoked on deal 4 (seat 2), not the taker (seat 1)
    _, code = services.issue_device_code(table=second.table)
    phone.goto(f"{base}/t/{code}/")
    revoke = phone.locator("#table-state li[data-deal='4']").inner_text()
    assert f"renonce : {seat_names(second)[1]}" in revoke and "160 : 0" in revoke, revoke
    screenshot(phone, "contree-tablet-revoke-fr")

    phone.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    table = phone.locator("table.data").first
    header = table.locator("thead").inner_text().lower()
    assert "pm" in header and "points" in header and "augen" not in header
    for name, (mp, points) in expected.items():
        row = table.locator("tbody tr").filter(has_text=name).first.inner_text()
        assert str(points) in row and str(mp) in row, (name, row)
    screenshot(phone, "contree-standings-fr")

    phone.goto(f"{base}/tournaments/{tournament.pk}/")
    about = phone.locator("body").inner_text()
    assert "Belote contrée" in about and "4 donnes" in about
    screenshot(phone, "contree-tournament-fr")

    results_csv_equals_the_hand_count(club, tournament, first, second)


def play_the_evening_on_the_tablet(page: Any, base: str, code: str, match: Match) -> None:
    names = seat_names(match)
    team = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    page.goto(f"{base}/lang/fr/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    sheet = page.locator("#entry")
    words = sheet.inner_text().lower()
    assert "dernière enchère" in words and "coinché" in words and "surcoinché" in words
    assert "annonces" not in words and "belote-rebelote" not in words and "roem" not in words
    verdict = sheet.locator("[data-bind='verdict']")
    score = verdict.locator(".verdict-line.is-score")

    # deal 1: seat 2 (team 2+4) bids 100 ♥ and makes 104 card points; the sheet fills
    # 162 − 104 = 58 for the defenders and previews 60 : 100
    page.locator("#entry [data-bind='number']").filter(has_text="1").wait_for()
    tap(page, "declarer", 1)
    tap(page, "value", 100)
    tap(page, "trump", "H")
    assert "100 ♥" in sheet.locator("[data-bind='takers']").inner_text()
    page.fill("#points1", "104")
    assert page.input_value("#points0") == "58"
    assert "réussi" in verdict.inner_text()
    assert f"{team[0]} 60 : 100 {team[1]}" in score.inner_text()
    screenshot(page, "contree-tablet-made-fr")
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="2").wait_for()

    # deal 2: seat 3 bids 120 ♠ and makes only 110: "chute", the defenders 160 (the
    # coinche forgotten here, corrected below)
    tap(page, "declarer", 2)
    tap(page, "value", 120)
    tap(page, "trump", "S")
    page.fill("#points0", "110")
    assert "chute" in verdict.inner_text() and "0 : 160" in score.inner_text()
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="3").wait_for()

    # deal 3: four passes, thrown in
    tap(page, "thrown", 1)
    assert sheet.locator("[data-section='value']").is_hidden()
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="4").wait_for()

    # deal 4: seat 1 bids 90 ♦, coinched and surcoinched, makes 95: 4 × 160
    tap(page, "declarer", 0)
    tap(page, "value", 90)
    tap(page, "trump", "D")
    tap(page, "doubling", 2)
    page.fill("#points0", "95")
    assert "surcoinché" in sheet.locator("[data-bind='takers']").inner_text()
    assert "640 : 0" in score.inner_text()
    screenshot(page, "contree-tablet-surcoinche-fr")
    page.click("#entry button[type=submit]")
    page.locator("#entry [data-bind='number']").filter(has_text="5").wait_for()

    # deal 5: seat 4 bids capot in ♣; her team has all 162 card points. The sheet asks
    # whether that was all 8 tricks and sends nothing before it is answered.
    tap(page, "declarer", 3)
    tap(page, "value", "capot")
    tap(page, "trump", "C")
    question = sheet.locator("[data-section='all-tricks']")
    assert question.is_hidden()
    page.fill("#points1", "162")
    assert question.is_visible() and "les 8 plis" in question.text_content()
    page.click("#entry button[type=submit]")
    question.locator("[data-error-for='tricks_won']").filter(has_text="8 plis").wait_for()
    tap(page, "all-tricks", 7)  # 7 tricks only: a capot contract fails
    assert "chute" in verdict.inner_text() and "250 : 0" in score.inner_text()
    tap(page, "all-tricks", 8)
    assert "capot" in verdict.inner_text() and "0 : 250" in score.inner_text()
    screenshot(page, "contree-tablet-capot-fr")
    page.click("#entry button[type=submit]")
    page.locator("#table-state li[data-deal='5']").wait_for(timeout=20_000)
    assert results_of(match) == [[60, 100], [0, 160], [0, 0], [640, 0], [0, 250]]
    stored = DealVersion.objects.current().get(deal__match=match, deal__number=5).record
    assert stored["tricks_won"] == [0, 8] and stored["contract"]["value"] == "capot"

    correct_the_coinche(page, match)
    assert results_of(match) == TABLET

    state = page.locator("#table-state")
    deal = {n: state.locator(f"li[data-deal='{n}']").inner_text() for n in range(1, 6)}
    assert "100" in deal[1] and "60 : 100" in deal[1]
    assert "coinché" in deal[2] and "chuté" in deal[2] and "0 : 320" in deal[2]
    assert "annulée" in deal[3]
    assert "surcoinché" in deal[4] and "640 : 0" in deal[4]
    assert "capot" in deal[5] and "0 : 250" in deal[5]
    assert "dedans" not in state.inner_text() and "roem" not in state.inner_text()
    assert "700" in state.inner_text() and "670" in state.inner_text()
    for side in (0, 1):
        button = page.locator(f"button[data-confirm-team='{side}']")
        assert "confirme" in button.inner_text()
        button.click()
        page.locator(f"button[data-confirm-team='{side}']").wait_for(state="detached")
    page.get_by_text("Les deux équipes ont confirmé").wait_for()
    screenshot(page, "contree-tablet-confirmed-fr")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def correct_the_coinche(page: Any, match: Match) -> None:
    """The sheet reloads deal 2 as stored (taker, value, trump, no coinche, the points);
    the table adds the coinche: the defenders now score 2 × 160."""
    page.locator("#table-state li[data-deal='2'] button[data-correct-deal]").click()
    page.locator("#correction-bar").wait_for()
    assert "Correction de la donne 2" in page.locator("#correction-bar").inner_text()
    pressed = page.locator("#entry button[aria-pressed='true']")
    picks = {(b.get_attribute("data-pick"), b.get_attribute("data-value")) for b in pressed.all()}
    assert {("declarer", "2"), ("value", "120"), ("trump", "S"), ("doubling", "0")} <= picks
    assert page.input_value("#points0") == "110" and page.input_value("#points1") == "52"
    tap(page, "doubling", 1)
    score = page.locator("#entry .verdict-line.is-score")
    assert "0 : 320" in score.inner_text()
    screenshot(page, "contree-tablet-correction-fr")
    page.click("#entry button[type=submit]")
    page.locator("#toast").filter(has_text="Donne 2 corrigée").wait_for()
    page.locator("#table-state li[data-deal='2']").filter(has_text="0 : 320").wait_for()
    current = DealVersion.objects.current().get(deal__match=match, deal__number=2)
    assert current.record["contract"]["doubling"] == 1 and current.version == 2


def results_csv_equals_the_hand_count(
    club: Club, tournament: Tournament, first: Match, second: Match
) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("organisatrice", password="pw-contree-1")
    club.organisers.add(user)
    web = Client()
    web.force_login(user)
    reply = web.get(f"/console/tournaments/{tournament.pk}/results.csv", HTTP_ACCEPT_LANGUAGE="fr")
    assert reply.status_code == 200
    rows = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig")), delimiter=";"))
    head, body = rows[0], rows[1:]
    column = {name: head.index(name) for name in head}
    points = [
        [int(row[column["Points places 1+3"]]), int(row[column["Points places 2+4"]])]
        for row in body
    ]
    tables = [int(row[column["Table"]]) for row in body]
    assert tables == [1] * 5 + [2] * 4
    assert points == TABLET + [p for _, p in API_DEALS]
    coinche = [
        (row[column["Coinche places 1+3"]], row[column["Coinche places 2+4"]]) for row in body
    ]
    assert coinche[1] == ("", "coinche") and coinche[3] == ("surcoinche", "coinche")
    bids = [row[column["Contrat places 1+3"]] + row[column["Contrat places 2+4"]] for row in body]
    assert bids[:5] == ["100", "120", "", "90", "capot"]
    assert [row[column["Chute places 1+3"]] for row in body[:5]] == ["", "oui", "", "non", ""]
    assert [row[column["Issue"]] for row in body[5:]] == ["réussie", "réussie", "chutée"] + [
        "renonce"
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ("letzte gebot", "coinchiert", "surcoinchiert", "trumpf", "wertung")),
        ("en", ("last bid", "coinched", "surcoinched", "trump", "score")),
        ("nl", ("laatste bod", "gecoincheerd", "gesurcoincheerd", "troef", "mislukt")),
    ],
)
def test_the_contree_sheet_fits_a_phone_in_every_language(
    live_server: Any, contexts: Any, club: Club, language: str, words: tuple[str, ...]
) -> None:
    """The widest state: a capot contract surcoinched, all 162 points to one team and
    7 tricks (failed: the question and the verdict both show)."""
    tournament = evening(club)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.order_by("table__number").first()
    _, code = services.issue_device_code(table=match.table)
    page = contexts(language=language).new_page()
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/{code}/")
    assert page.locator("html").get_attribute("lang") == language
    tap(page, "declarer", 1)
    tap(page, "value", "capot")
    tap(page, "trump", "H")
    tap(page, "doubling", 2)
    page.fill("#points1", "162")
    tap(page, "all-tricks", 7)
    score = page.locator("#entry .verdict-line.is-score").inner_text()
    assert "1000 : 0" in score  # failed capot, surcoinched: 4 × 250 to the defenders
    text = page.locator("#entry").inner_text().lower()
    assert [w for w in words if w not in text] == []
    assert "belote-rebelote" not in text and "roem" not in text and "augen" not in text
    screenshot(page, f"contree-tablet-{language}")  # asserts nothing sticks out at 390 px
