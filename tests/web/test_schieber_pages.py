"""A Schieberjass table's pages (issue 26): the tablet carries the Schieber's sheet with
36 cards' ranks and the Swiss words in German, in the suits the club plays (a club and
tournament setting; other games of the club keep French suits); the console's match
page lists each deal's Weis, Stöck and Match; the results CSV has their columns; a full
deal's hand record says in words that no analysis applies."""

from __future__ import annotations

import csv
import io
import random
import re
import uuid
from typing import Any

import pytest

from games.engine import random_deal
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match
from tournaments.events.selectors import tournament_suits
from tournaments.ratings import services as ratings
from tournaments.ratings.models import PlayerRating

pytestmark = pytest.mark.django_db

MATCH_DEAL = {  # Obenabe, forehand's team takes all 9 tricks: the Match, 257
    "format": "klammern-deal/1",
    "dealer": 2,
    "contract": {"kind": "schieber", "chooser": 3, "mode": "obenabe", "pushed": False},
    "card_points": [0, 157],
    "tricks_won": [0, 9],
}


def evening(club: Club, *, preset: str, suits: str = "") -> tuple[Match, str]:
    tournament = services.create_tournament(
        club=club, name=f"Jassabend {preset}", slug=f"jass-{preset}", rules_preset=preset
    )
    tournament.suits = suits
    tournament.save(update_fields=["suits"])
    for name in ("Urs", "Vreni", "Beat", "Heidi"):
        registration = services.register_player(
            tournament=tournament, player=PlayerFactory(name=name)
        )
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = services.publish_round(round_=draw.draw_round(tournament=tournament, seed=1))
    match = round_.matches.get()
    _, code = services.issue_device_code(table=match.table)
    return match, code


def enter(match: Match, code: str, number: int, record: dict[str, Any]) -> None:
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert reply.status_code == 201, reply.json()


@pytest.fixture
def club(organiser: Any) -> Club:
    club = Club.objects.create(name="Jassclub Gais", slug="jass-gais", suits="swiss")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def table(club: Club) -> tuple[Match, str]:
    match, code = evening(club, preset="schieber")
    rng = random.Random(26)
    enter(match, code, 1, random_deal(rng, dealer=0, rules="schieber"))
    enter(match, code, 2, random_deal(rng, dealer=1, rules="schieber"))
    enter(match, code, 3, MATCH_DEAL)
    return match, code


def speaking(web: Client, language: str) -> Client:
    web.cookies["django_language"] = language
    return web


def test_the_tablet_carries_the_schieber_sheet_in_swiss_suits_and_words(
    table: tuple[Match, str], web: Client
) -> None:
    _, code = table
    page = speaking(web, "de").get(f"/t/{code}/").content.decode()
    assert "entry-schieber" in page and "entry_schieber.js" in page
    for word in ("Trumpf", "Obenabe", "Undenufe", "geschoben", "Weis", "Stöck", "Match"):
        assert word in page, word
    for suit in ("Eicheln", "Rosen", "Schilten", "Schellen"):
        assert f'aria-label="{suit}"' in page, suit
    assert 'aria-label="Kreuz"' not in page
    assert 'data-pick="revoke-rank" data-value="6"' in page  # 36 cards: the Six too
    assert '"suitC": "Eicheln"' in page  # the script's texts name the club's suits


def test_a_tournament_may_show_french_suits_though_its_club_plays_swiss_ones(
    club: Club, web: Client
) -> None:
    _, code = evening(club, preset="schieber", suits="french")
    page = speaking(web, "de").get(f"/t/{code}/").content.decode()
    assert 'aria-label="Kreuz"' in page and 'aria-label="Eicheln"' not in page


def test_other_games_of_a_swiss_club_keep_french_suits_and_their_words(
    club: Club, web: Client
) -> None:
    _, code = evening(club, preset="klammern")
    page = speaking(web, "de").get(f"/t/{code}/").content.decode()
    assert 'aria-label="Kreuz"' in page and 'aria-label="Eicheln"' not in page
    assert "Obenabe" not in page and "geschoben" not in page
    assert 'data-pick="revoke-rank" data-value="6"' not in page


def test_the_console_match_page_lists_weis_stoeck_and_match(
    table: tuple[Match, str], web: Client
) -> None:
    match, _ = table
    page = speaking(web, "de").get(f"/console/matches/{match.pk}/").content.decode()
    assert "Weis" in page and "Stöck" in page and "Match" in page
    assert "Roem" not in page and "Capot" not in page
    outcomes = re.findall(r"<td>\s*(gespielt|played)\s*</td>", page)
    assert outcomes and set(outcomes) == {"gespielt"}  # the outcome in German, not English
    deal = match.deals.get(number=3).versions.get(is_current=True).result
    assert deal["match"] == 1 and deal["points"] == [0, 257]


def test_the_results_csv_has_points_weis_stoeck_and_match(
    table: tuple[Match, str], web: Client
) -> None:
    match, _ = table
    tournament = match.round.tournament
    reply = speaking(web, "de").get(f"/console/tournaments/{tournament.pk}/results.csv")
    assert reply.status_code == 200
    rows = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig")), delimiter=";"))
    head = rows[0]
    for heading in ("Punkte Plätze 1+3", "Weis Plätze 2+4", "Stöck Plätze 1+3", "Match Plätze 2+4"):
        assert heading in head, head


def test_a_full_deal_has_a_hand_record_without_analysis(
    table: tuple[Match, str], web: Client
) -> None:
    match, _ = table
    page = speaking(web, "de").get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    assert "keine Perfektspiel-Analyse für den Schieber" in page  # "not yet", in words
    assert 'suit-swiss">Eicheln<' in page  # the club's suits
    rows = re.findall(r'<div class="hand-row[^"]*">(.*?)</div>', page, re.S)
    shown = [r for row in rows for r in re.sub(r"<span.*?</span>", "", row).split()]
    assert len(shown) == 36 and shown.count("6") == 4  # 36 cards: the Sixes too


def test_the_club_sets_its_suits_and_a_new_tournament_may_choose_its_own(
    club: Club, web: Client
) -> None:
    page = web.get(f"/console/clubs/{club.pk}/").content.decode()
    assert 'name="suits"' in page and "Schilten" in page
    body = {"name": club.name, "city": "", "boss_window": "3", "suits": "french"}
    web.post(f"/console/clubs/{club.pk}/settings/", body)
    club.refresh_from_db()
    assert club.suits == "french"
    body.pop("suits")  # left out: unchanged
    web.post(f"/console/clubs/{club.pk}/settings/", body)
    club.refresh_from_db()
    assert club.suits == "french"
    tournament = {
        "club": club.pk,
        "name": "Jassabend im Rössli",
        "format": "individual",
        "match_mode": "deals",
        "deals_per_match": 8,
        "liga_target": 51,
        "is_public": "on",
        "rules_preset": "schieber",
        "suits": "swiss",
    }
    assert web.post("/console/", tournament).status_code == 302
    created = club.tournaments.get(name="Jassabend im Rössli")
    assert (created.rules_preset, created.suits, created.deals_per_match) == (
        "schieber",
        "swiss",
        12,
    )


def test_the_console_deal_page_carries_the_schieber_sheet_in_the_clubs_suits(
    table: tuple[Match, str], web: Client
) -> None:
    match, _ = table
    page = speaking(web, "de").get(f"/console/matches/{match.pk}/deals/3/").content.decode()
    assert "entry-schieber" in page and "entry_schieber.js" in page
    assert "Alle 9 Stiche (Match, 257)" in page and 'aria-label="Schellen"' in page
    assert '"suitD": "Schellen"' in page


def test_a_closed_schieber_round_rates_its_players_in_the_schieber_pool(
    table: tuple[Match, str],
) -> None:
    match, code = table
    rng = random.Random(12)
    for number in range(4, 13):
        enter(match, code, number, random_deal(rng, dealer=(number - 1) % 4, rules="schieber"))
    services.close_round(round_=match.round, force=True)
    ratings.rate_closed_round(round_id=match.round.pk)
    club = match.round.tournament.club
    pools = set(PlayerRating.objects.filter(club=club).values_list("pool", flat=True))
    assert pools == {"schieber"}


def test_the_api_sets_a_clubs_and_a_tournaments_suits_and_refuses_others(
    club: Club, organiser: Any
) -> None:
    api = client_for(organiser)
    assert (
        api.patch(f"/api/clubs/{club.pk}/", {"suits": "french"}, format="json").status_code == 200
    )
    match, _ = evening(club, preset="schieber")
    tournament = match.round.tournament
    assert tournament_suits(tournament) == "french"  # the club's, the tournament has none
    reply = api.patch(f"/api/tournaments/{tournament.pk}/", {"suits": "swiss"}, format="json")
    assert reply.status_code == 200 and reply.json()["suits"] == "swiss"
    tournament.refresh_from_db()
    assert tournament_suits(tournament) == "swiss"
    wrong = api.patch(f"/api/tournaments/{tournament.pk}/", {"suits": "tarot"}, format="json")
    assert wrong.status_code == 400 and "suits" in str(wrong.json())


def test_a_refused_weis_is_explained_in_the_schieber_words(club: Club) -> None:
    match, code = evening(club, preset="schieber")
    record = {**MATCH_DEAL, "dealer": 0, "card_points": [60, 97]}
    record["contract"] = {"kind": "schieber", "chooser": 1, "mode": "obenabe", "pushed": False}
    record.pop("tricks_won")
    record["weis"] = [{"seat": 1, "cards": ["6S", "7S", "9S"]}]
    reply = client_for(device_code=code).post(
        f"/api/matches/{match.pk}/deals/1/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert reply.status_code == 400
    assert "ist kein Weis" in str(reply.json())


def test_a_running_tournament_changes_its_suits_in_its_details(
    table: tuple[Match, str], web: Client
) -> None:
    match, _ = table
    tournament = match.round.tournament
    page = speaking(web, "de").get(f"/console/tournaments/{tournament.pk}/").content.decode()
    assert 'name="suits"' in page and "Wie der Verein spielt" in page
    details = {"name": tournament.name, "planned_rounds": "3", "is_public": "on"}
    web.post(f"/console/tournaments/{tournament.pk}/details/", {**details, "suits": "french"})
    tournament.refresh_from_db()
    assert tournament.suits == "french"
    web.post(f"/console/tournaments/{tournament.pk}/details/", details)  # no choice: unchanged
    tournament.refresh_from_db()
    assert (tournament.suits, tournament.planned_rounds) == ("french", 3)


def test_a_game_with_french_suits_only_offers_no_suits_in_its_details(
    club: Club, web: Client
) -> None:
    match, _ = evening(club, preset="klaverjas-rotterdam")
    tournament = match.round.tournament
    page = web.get(f"/console/tournaments/{tournament.pk}/").content.decode()
    assert 'id="id_details_suits"' not in page
