"""A Belote Contrée table's pages (issue 38): the tablet and the console's deal page carry
contrée's sheet (the contract's value or capot, trump, who bid last, coinche or
surcoinche, 162 − x) in the page's language; the tablet's list marks each deal's
contract, coinche, "chuté" and capot; the console's match page shows contract, coinche
and capot; the results CSV shows each deal's contract, made or failed, coinche and the
scores as RULES.md counts them (counted here by hand); an API refusal of a broken auction
or a value nobody may bid speaks contrée's words."""

from __future__ import annotations

import csv
import io
import random
import re
import uuid
from typing import Any

import pytest

from games import engine
from games.engine import random_deal
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tests.support.game_words import forbidden, offences
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Seat

pytestmark = pytest.mark.django_db

BASE = {"format": "klammern-deal/1"}


def contract(declarer: int, trump: str, value: int | str, doubling: int = 0) -> dict[str, Any]:
    return {"kind": "contree", "declarer": declarer, "trump": trump, "value": value} | {
        "doubling": doubling
    }


#: The deals of the table, dealt in turn from seat 0 (a thrown-in deal passes the deal on),
#: with each one's score counted by hand from RULES.md, "Belote Contrée".
DEALS: list[tuple[dict[str, Any], list[int]]] = [
    # 100 ♥ by seat 2 (team 2+4), made with 104: 58 → 60, 160 − 60 = 100
    ({"contract": contract(1, "H", 100), "card_points": [58, 104]}, [60, 100]),
    # 120 ♠ by seat 1, coinched, 110 made: failed, the defenders 2 × 160
    ({"contract": contract(0, "S", 120, 1), "card_points": [110, 52]}, [0, 320]),
    # four passes: nothing
    ({"contract": {"kind": "thrown_in"}}, [0, 0]),
    # 90 ♦ by seat 3, surcoinched, 95 made: 4 × 160
    ({"contract": contract(2, "D", 90, 2), "card_points": [95, 67]}, [640, 0]),
    # capot ♣ by seat 4, all 8 tricks: 250
    (
        {"contract": contract(3, "C", "capot"), "card_points": [0, 162], "tricks_won": [0, 8]},
        [0, 250],
    ),
]


@pytest.fixture
def table(organiser: Any) -> tuple[Match, Club, str]:
    club = Club.objects.create(name="Cercle de la Coinche", slug="coinche-lyon")
    club.organisers.add(organiser)
    tournament = services.create_tournament(
        club=club, name="Concours", slug="concours", rules_preset="belote-contree"
    )
    for name in ("Aline", "Bruno", "Chloé", "Denis"):
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.get()
    _, code = services.issue_device_code(table=match.table)
    dealer = 0
    for number, (record, _) in enumerate(DEALS, start=1):
        post(match, code, number, {**BASE, "dealer": dealer, **record}, 201)
        dealer = (dealer + 1) % 4
    return match, club, code


def post(match: Match, code: str, number: int, record: dict[str, Any], status: int) -> Any:
    api = client_for(device_code=code)
    reply = api.post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert reply.status_code == status, reply.json()
    return reply.json()


def speaking(web: Client, language: str) -> Client:
    web.cookies["django_language"] = language
    return web


def test_the_scores_are_as_counted_by_hand(table: tuple[Match, Club, str]) -> None:
    match, _, _ = table
    stored = [
        d.versions.get(is_current=True).result["points"] for d in match.deals.order_by("number")
    ]
    assert stored == [points for _, points in DEALS]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("Qui a fait la dernière enchère", "Coinché", "Surcoinché", "Atout", "Capot")),
        ("de", ("Wer machte das letzte Gebot", "Coinchiert", "Surcoinchiert", "Trumpf")),
        ("nl", ("Wie deed het laatste bod", "Gecoincheerd", "Gesurcoincheerd", "Troef")),
        ("en", ("Who made the last bid", "Coinched", "Surcoinched", "Trump")),
    ],
)
def test_the_tablet_carries_contrees_sheet(
    table: tuple[Match, Club, str], web: Client, language: str, words: tuple[str, ...]
) -> None:
    _, _, code = table
    page = speaking(web, language).get(f"/t/{code}/").content.decode()
    assert "entry-contree" in page and "entry_contree.js" in page and "ContreeEntry" in page
    sheet = page.split('<form class="entry')[1].split("</form>")[0]
    assert [w for w in words if w not in sheet] == []
    values = [f'data-pick="value" data-value="{v}"' for v in (*range(80, 161, 10), "capot")]
    assert [v for v in values if v not in sheet] == []
    assert 'data-pick="doubling" data-value="2"' in sheet
    assert 'data-pick="up-suit"' not in sheet and "meld" not in sheet  # no upcard, no melds
    assert offences([sheet], forbidden("belote-contree", language)) == []


def test_the_tablets_list_marks_contract_coinche_failed_and_capot(
    table: tuple[Match, Club, str], web: Client
) -> None:
    _, _, code = table
    page = speaking(web, "fr").get(f"/t/{code}/").content.decode()
    deals = page.split('data-section="deals"')[1].split("</ul>")[0]
    row = {n: deals.split(f'data-deal="{n}"')[1].split("</li>")[0] for n in range(1, 6)}
    assert "100" in row[1] and "60 : 100" in row[1] and "points de cartes 58 : 104" in row[1]
    assert "coinché" in row[2] and "chuté" in row[2] and "0 : 320" in row[2]
    assert "donne annulée" in row[3].lower() or "annul" in row[3].lower()
    assert "surcoinché" in row[4] and "640 : 0" in row[4]
    assert row[5].count("capot") == 2 and "0 : 250" in row[5]  # the contract and the mark
    words = re.sub(r"<[^>]+>", " ", deals)
    assert "dedans" not in words and "roem" not in words and "annonces" not in words


def test_the_console_match_page_shows_contract_coinche_and_capot(
    table: tuple[Match, Club, str], web: Client
) -> None:
    match, _, _ = table
    page = speaking(web, "fr").get(f"/console/matches/{match.pk}/").content.decode()
    assert "Contrat" in page and "Coinche" in page and "Capot" in page
    assert "100 ♥" in page and "120 ♠" in page and "capot ♣" in page
    assert "surcoinché" in page and "coinché" in page
    assert "Annonces" not in page and "Roem" not in page


def test_the_console_deal_page_carries_contrees_sheet(
    table: tuple[Match, Club, str], web: Client
) -> None:
    match, _, _ = table
    page = speaking(web, "fr").get(f"/console/matches/{match.pk}/deals/4/").content.decode()
    assert "entry-contree" in page and "entry_contree.js" in page
    assert "Surcoinché" in page and "Les 8 plis (capot)" in page


def test_the_results_csv_shows_contract_failed_and_coinche(
    table: tuple[Match, Club, str], web: Client
) -> None:
    match, _, _ = table
    tournament = match.round.tournament
    reply = speaking(web, "fr").get(f"/console/tournaments/{tournament.pk}/results.csv")
    assert reply.status_code == 200
    rows = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig")), delimiter=";"))
    head, body = rows[0], rows[1:]
    column = {name: head.index(name) for name in head}
    assert len(body) == len(DEALS)
    for row, (_, points) in zip(body, DEALS, strict=True):
        assert [int(row[column["Points places 1+3"]]), int(row[column["Points places 2+4"]])] == (
            points
        )
    pick = ("Contrat places 1+3", "Contrat places 2+4", "Chute places 1+3", "Chute places 2+4")
    pick += ("Coinche places 1+3", "Coinche places 2+4", "Capot places 2+4")
    cells = [[row[column[name]] for name in pick] for row in body]
    assert cells == [
        ["", "100", "", "non", "", "", "non"],
        ["120", "", "oui", "", "", "coinche", "non"],
        ["", "", "", "", "", "", "non"],
        ["90", "", "non", "", "surcoinche", "coinche", "non"],
        ["", "capot", "", "non", "", "", "oui"],
    ]
    outcomes = [row[column["Issue"]] for row in body]
    assert outcomes == ["réussie", "chutée", "annulée", "réussie", "réussie"]
    assert [row[column["Contrat"]] for row in body[:2]] == ["Belote contrée"] * 2
    assert not [h for h in head if "Augen" in h or "Annonces" in h or "Dedans" in h], head


def test_an_api_refusal_speaks_contree(table: tuple[Match, Club, str]) -> None:
    """A summary with a value nobody bids, and a full record whose third bid is not
    higher than the second: refused in French in contrée's words."""
    match, _, code = table
    number, dealer = len(DEALS) + 1, len(DEALS) % 4
    odd = {**BASE, "dealer": dealer, "contract": contract(0, "H", 85), "card_points": [90, 72]}
    errors = post(match, code, number, odd, 400)["errors"]
    assert [e["code"] for e in errors] == ["bid_value_not_allowed"]
    assert "80, 90, … 160 ou capot" in errors[0]["message"]
    rng = random.Random(3)
    record = random_deal(rng, dealer=dealer, rules="belote-contree")
    while len([c for c in record.get("bids", []) if isinstance(c, dict)]) < 2:
        record = random_deal(rng, dealer=dealer, rules="belote-contree")
    record.pop("rules", None)
    bids = record["bids"]
    second = [i for i, c in enumerate(bids) if isinstance(c, dict)][1]
    bids[second] = {"value": 80, "trump": bids[second]["trump"]}
    errors = post(match, code, number, record, 400)["errors"]
    assert errors[0]["code"] == "bid_not_higher", errors
    assert "ne dépasse pas" in errors[0]["message"] and "chaque enchère" in errors[0]["message"]
    messages = [e["message"] for e in errors]
    assert offences(messages, forbidden("belote-contree", "fr")) == []


def test_contree_is_created_in_the_console_with_its_own_match_length(
    client: Any, organiser: Any
) -> None:
    club = Club.objects.create(name="Cercle de la Coinche", slug="coinche-lyon")
    club.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get("/console/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'value="belote-contree"' in page and "Belote contrée" in page
    body = {
        "club": club.pk,
        "name": "Concours",
        "format": "individual",
        "match_mode": "deals",
        "deals_per_match": 8,
        "liga_target": 51,
        "is_public": "on",
        "rules_preset": "belote-contree",
    }
    assert client.post("/console/", body).status_code == 302
    tournament = club.tournaments.get()
    assert (tournament.rules_preset, tournament.match_mode) == ("belote-contree", "deals")
    assert tournament.deals_per_match == 12


def test_a_contree_match_to_2000_points_through_the_api(organiser: Any) -> None:
    club = Club.objects.create(name="Cercle de la Coinche", slug="coinche-lyon")
    club.organisers.add(organiser)
    body = {"club": club.pk, "name": "Concours", "slug": "concours"}
    body |= {"rules_preset": "belote-contree", "rules_options": {"match_by": "target"}}
    reply = client_for(organiser).post("/api/tournaments/", body, format="json")
    assert reply.status_code == 201, reply.json()
    tournament = club.tournaments.get()
    assert (tournament.match_mode, tournament.liga_target) == ("liga", 2000)


def test_a_full_contree_deal_has_a_hand_record_with_its_par(
    table: tuple[Match, Club, str], web: Client
) -> None:
    """A full record with its auction goes in through the API; the sweep analyses it
    (perfect play for the contract as bid) and its hand record shows the par."""
    from games.analysis_services import analyse_missing_deals

    match, _, code = table
    number, dealer = len(DEALS) + 1, len(DEALS) % 4
    rng = random.Random(11)
    record = random_deal(rng, dealer=dealer, rules="belote-contree")
    while not record.get("plays"):
        record = random_deal(rng, dealer=dealer, rules="belote-contree")
    assert record["rules"] == "belote-contree"  # the sweep analyses the record as stored
    post(match, code, number, record, 201)
    analyse_missing_deals()
    version = match.deals.get(number=number).versions.get(is_current=True)
    analysis = version.analysis.analysis
    assert analysis["analysed"], analysis
    for language, word in (("fr", "Donne"), ("de", "Spiel"), ("nl", "Spel"), ("en", "Deal")):
        reply = speaking(web, language).get(f"/matches/{match.pk}/deals/{number}/hand/")
        assert reply.status_code == 200
        body = reply.content.decode()
        assert word in body and "not-analysable" not in body and 'class="par-row"' in body
        par = body.split('class="par-row"')[1].split("</tr>")[0]
        assert [f'<td class="num">{p}</td>' in par for p in analysis["par"]] == [True, True]
    # at a step, the makeable table: the highest value each team makes in each trump
    step = speaking(web, "en").get(f"/matches/{match.pk}/deals/{number}/hand/?step=1")
    assert "The highest contract each team makes with perfect play" in step.content.decode()
    table = step.content.decode().split('class="data makeable"')[1].split("</table>")[0]
    makeable = engine.analyse(version.record)["makeable"]
    assert table.count("<td") == len(makeable) == 8
    assert table.count('class="num is-own"') == 1  # the deal's own trump and takers
    for row in makeable:
        if row["value"] is not None:
            assert f'{row["value"]} <span class="made">made</span>' in table, row


def test_a_duplicate_contree_evening_scores_each_board_by_the_deals_score(
    organiser: Any,
) -> None:
    """Duplicate: both tables play the same two boards (32 cards dealt 3-2-3, none turned
    up); a board's result for a team is the deal's score as the rules count it (by hand
    below); on each board a team scores 2 match points for the other team of its
    direction that scored less, 1 when equal."""
    from tournaments.events.selectors import tournament_board
    from tournaments.web import selectors as web_selectors

    club = Club.objects.create(name="Cercle de la Coinche", slug="coinche-lyon")
    club.organisers.add(organiser)
    tournament = services.create_tournament(
        club=club,
        name="Duplicate",
        slug="duplicate",
        rules_preset="belote-contree",
        deals_per_match=2,
        duplicate=True,
    )
    for name in NAMES8:
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=2))
    boards = [tournament_board(tournament, round_number=1, number=n) for n in (1, 2)]
    assert all(b is not None and b.upcard == "" for b in boards)
    assert all(sorted(len(h) for h in b.hands) == [8, 8, 8, 8] for b in boards if b)
    # board 1, 100 ♥ by seat 1 (North–South): at table 1 made with 104 (the defenders' 58
    # rounds to 60, the takers 160 − 60 = 100), at table 2 failed with 90 (160 to E–W);
    # board 2, 80 ♠ by seat 2 made with 100 at both tables: 62 → 60, 160 − 60 = 100
    played = [([104, 58], [100, 60]), ([90, 72], [0, 160])]
    matches = list(round_.matches.order_by("table__number"))
    for match, (cards, expected) in zip(matches, played, strict=True):
        _, code = services.issue_device_code(table=match.table)
        record = {**BASE, "dealer": boards[0].dealer, "card_points": cards}
        record["contract"] = contract(0, "H", 100)
        assert post(match, code, 1, record, 201)["result"]["points"] == expected
        same = {**BASE, "dealer": boards[1].dealer, "contract": contract(1, "S", 80)}
        assert post(match, code, 2, same | {"card_points": [62, 100]}, 201)["result"]["points"] == [
            60,
            100,
        ]
    services.close_round(round_=round_, force=True)
    tournament.refresh_from_db()
    view = web_selectors.standings_view(tournament)
    assert view["duplicate"] is True
    # N–S of table 1: 2 (100 > 0) + 1 (60 = 60) of 4; E–W of table 2: 2 (160 > 60) + 1
    by_table = {}
    for match in matches:
        seats = Seat.objects.filter(table=match.table, round=round_).order_by("position")
        by_table[match.table.number] = [seat.player_id for seat in seats]
    percent = {row["entrant"]: row["percentage"] for row in view["rows"]}
    assert [percent[p] for p in by_table[1]] == [75, 25, 75, 25]
    assert [percent[p] for p in by_table[2]] == [25, 75, 25, 75]


NAMES8 = ("Aline", "Bruno", "Chloé", "Denis", "Élise", "Félix", "Gisèle", "Henri")
