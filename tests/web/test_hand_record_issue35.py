"""Hand records, issue 35: the Klaverjas par graph plots the margin (a nat par's points
stay 0 while the margin moves), the 3-player makeable table says how far each contract
is from making, the Schieber's hand record speaks the page's language and names the
chooser's role, the step-through counts tricks and card points per side at every step,
and one rank alphabet per language writes every card (hand records, the round's print
page, the step-through's script, the tablet, a duplicate board's print page and
traveller)."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from django.utils import translation

from games import engine
from games.analysis_services import analyse_missing_deals
from tests.support.boards import make_duplicate_event
from tests.support.clients import Client
from tests.web.test_game_hand_records import played_match
from tournaments.clubs.models import Club
from tournaments.common.engine_messages import card_rank, rank_labels
from tournaments.deals import replay
from tournaments.deals.hand_records import SeatView
from tournaments.deals.services import submit_deal
from tournaments.events.models import Match

#: Jack, Queen, King, Ace in each language (German Bube Dame König Ass, Dutch boer
#: vrouw heer aas, French valet dame roi as).
LETTERS = {"de": "BDKA", "en": "JQKA", "nl": "BVHA", "fr": "VDRA"}
LANGUAGES = sorted(LETTERS)


def seats(players: int, *, teams: bool) -> list[SeatView]:
    return [SeatView(p, p + 1, f"P{p}", p % 2 if teams else p) for p in range(players)]


# --- pure ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_rank_alphabet_per_language(language: str) -> None:
    with translation.override(language):
        assert [card_rank(c) for c in ("JH", "QS", "KD", "AC")] == list(LETTERS[language])
        assert card_rank("TC") == card_rank("10C") == "10"
        assert card_rank("7D") == "7"
        assert "".join(rank_labels()[r] for r in "JQKA") == LETTERS[language]


def test_the_running_tally_counts_complete_tricks_per_side() -> None:
    tricks = [
        {"winner": 1, "points": 20},
        {"winner": 3, "points": 11},
        {"winner": 0, "points": 30},
    ]
    four = seats(4, teams=True)
    assert replay.running_tally(tricks, 0, four) == [
        {"side": 1, "tricks": 0, "points": 0},
        {"side": 2, "tricks": 0, "points": 0},
    ]
    assert replay.running_tally(tricks, 7, four)[1] == {"side": 2, "tricks": 1, "points": 20}
    assert replay.running_tally(tricks, 8, four) == [
        {"side": 1, "tricks": 0, "points": 0},
        {"side": 2, "tricks": 2, "points": 31},
    ]
    assert replay.running_tally(tricks, 12, four)[0] == {"side": 1, "tricks": 1, "points": 30}
    three = seats(3, teams=False)
    tally = replay.running_tally([{"winner": 2, "points": 14}], 3, three)
    assert tally == [
        {"side": 1, "tricks": 0, "points": 0},
        {"side": 2, "tricks": 0, "points": 0},
        {"side": 3, "tricks": 1, "points": 14},
    ]


def test_a_margin_graph_moves_where_the_points_stay_flat() -> None:
    """Team 1 (index 1) plays and goes nat all along: its points par is 0 at every
    step, its margin (team 0's, turned) moves by 20 and by 126."""
    plays = [
        {"par": [162, 0], "margin": 38, "cost": 20},
        {"par": [162, 0], "margin": 164, "cost": 126},
    ]
    analysis = {"par": [162, 0], "par_margin": 18, "plays": plays}
    points = replay.par_graph(analysis, 1, 0, [], unit="points")
    assert len({p["y"] for p in points["points"]}) == 1  # the flat line of the finding
    graph = replay.par_graph(analysis, 1, 2, [], unit="margin")
    assert [p["value"] for p in graph["points"]] == [-18, -38, -164]
    assert len({p["y"] for p in graph["points"]}) == 3
    assert graph["unit"] == "margin"
    assert float(graph["beet_y"]) < min(float(p["y"]) for p in graph["points"])  # 0 above
    assert replay.signed(12) == "+12" and replay.signed(-23) == "−23" and replay.signed(0) == "±0"


def test_a_single_players_makeable_cell_says_how_far_it_is_from_making() -> None:
    analysis = {
        "trump": "C",
        "playing_team": 2,
        "makeable": [
            {"trump": "C", "team": t, "points": [0, 0, 0], "margin": m, "outcome": o}
            for t, m, o in ((0, -23, "failed"), (1, 0, "failed"), (2, 12, "made"))
        ],
    }
    cells = replay.makeable_rows(analysis, teams=False)[0]["teams"]
    assert [c["margin"] for c in cells] == ["−23", "±0", "+12"]
    assert [c["own"] for c in cells] == [False, False, True]
    assert replay.makeable_rows(analysis, teams=True)[0]["teams"][0]["margin"] is None


# --- pages -----------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


def klaverjas_nat() -> dict[str, Any]:
    """A full Klaverjas record whose par is nat and whose margin moves over the play."""
    for seed in range(200):
        record = engine.random_deal(random.Random(seed), dealer=0, rules="klaverjas-rotterdam")
        analysis = engine.analyse(record)
        plays = analysis.get("plays") or []
        if analysis.get("par_outcome") == "failed" and len({p["margin"] for p in plays}) > 2:
            return record
    raise AssertionError("no nat deal among 200 seeds")


def circles(body: str) -> list[float]:
    return [float(y) for y in re.findall(r'<circle class="pt[^"]*" cx="[^"]+" cy="([^"]+)"', body)]


@pytestmark_db
def test_the_klaverjas_nat_graph_plots_the_margin(club_a: Club, web: Client) -> None:
    match = played_match(club_a, "klaverjas-rotterdam", 4)
    record = klaverjas_nat()
    submit_deal(match=match, number=1, record=record)
    assert analyse_missing_deals() == 1
    analysis = engine.analyse(record)
    team = analysis["playing_team"]
    assert {p["par"][team] for p in analysis["plays"]} == {0}  # nat: the points stay 0
    body = web.get(f"/matches/{match.pk}/deals/1/hand/?step=3").content.decode()
    replay_html = body.split('id="replay"')[1].split("</section>")[0]
    ys = circles(replay_html)
    assert len(ys) == len(analysis["plays"]) + 1 and len(set(ys)) > 2
    sign = 1 if team == 0 else -1
    margins = [sign * analysis["par_margin"]] + [sign * p["margin"] for p in analysis["plays"]]
    titles = re.findall(r"<title>(\d+): (-?\d+)</title>", replay_html)
    assert [int(v) for _, v in titles] == margins
    assert f"Abstand von Team {team + 1} {replay.signed(margins[3])}" in replay_html
    assert "gleichauf mit dem anderen Team" in replay_html


@pytestmark_db
def test_the_three_player_makeable_table_shows_each_contracts_margin(
    club_a: Club, web: Client
) -> None:
    match = played_match(club_a, "klammern-3", 3)
    record = next(
        r
        for r in (
            engine.random_deal(random.Random(s), dealer=0, rules="klammern-3") for s in range(100)
        )
        if len(r["plays"]) == 27
    )
    submit_deal(match=match, number=1, record=record)
    assert analyse_missing_deals() == 1
    analysis = engine.analyse(record)
    body = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    table = body.split('class="data makeable"')[1].split("</table>")[0]
    cells = re.findall(r'<td class="num[^"]*">(.*?) <span class="(made|failed)"', table)
    assert [c for c, _ in cells] == [replay.signed(r["margin"]) for r in analysis["makeable"]]
    assert len(cells) == 12 and len({c for c, _ in cells}) > 1
    assert [o == "made" for _, o in cells] == [r["margin"] > 0 for r in analysis["makeable"]]
    assert "über (+) oder unter (−)" in body


def schieber_match(club: Club) -> Match:
    match = played_match(club, "schieber", 4)
    for seed in range(50):
        record = engine.random_deal(random.Random(seed), dealer=0, rules="schieber")
        if engine.check(record).get("outcome") == "played":
            submit_deal(match=match, number=1, record=record)
            return match
    raise AssertionError("no played Schieber deal")


@pytestmark_db
@pytest.mark.parametrize(
    ("language", "role"),
    [
        ("de", "hat angesagt"),
        ("fr", "a choisi l’atout"),
        ("nl", "koos troef"),
        ("en", "chose trump"),
    ],
)
def test_the_schieber_hand_record_speaks_the_pages_language(
    club_a: Club, web: Client, language: str, role: str
) -> None:
    match = schieber_match(club_a)
    body = web.get(
        f"/matches/{match.pk}/deals/1/hand/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    record = body.split('class="card hand-record"')[1].split("</section>")[0]
    assert f'<span class="badge playing">{role}</span>' in record
    assert record.count(role) == 2  # the badge and the actual result's line
    if language != "en":
        text = re.sub(r"<[^>]+>", " ", record)
        for english in ("played", "playing", "Team 1 (", "made", "failed", "Seat "):
            assert english not in text, english
    assert ">spielt<" not in record and "(spielt)" not in record


def hand_tokens(body: str) -> set[str]:
    """Every rank written in the hands' rows (suit signs and tags left out)."""
    rows = re.findall(r'<div class="hand-row[^"]*">(.*?)</div>', body, re.S)
    text = " ".join(re.sub(r"<span class=\"suit[^>]*>[^<]*</span>|<[^>]+>", " ", r) for r in rows)
    return {t for t in text.split() if t != "–"}


def expected_ranks(language: str) -> set[str]:
    return {"7", "8", "9", "10", *LETTERS[language]}


@pytestmark_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_hand_record_page_writes_the_languages_ranks(
    club_a: Club, web: Client, language: str
) -> None:
    match = played_match(club_a, "klammern-3", 3)
    record = next(
        r
        for r in (
            engine.random_deal(random.Random(s), dealer=0, rules="klammern-3") for s in range(100)
        )
        if len(r["plays"]) == 27
    )
    submit_deal(match=match, number=1, record=record)
    analyse_missing_deals()
    lang = {"HTTP_ACCEPT_LANGUAGE": language}
    deal = web.get(f"/matches/{match.pk}/deals/1/hand/?step=5", **lang).content.decode()
    dealt = {card_rank_in(language, c) for hand in record["hands"] for c in hand}
    assert hand_tokens(deal.split('id="replay"')[0]) == dealt <= expected_ranks(language)
    labels = re.search(r"data-rank-labels='([^']+)'", deal)  # for replay.js
    assert labels is not None
    shown = json.loads(html.unescape(labels.group(1)))
    assert "".join(shown[r] for r in "JQKA") == LETTERS[language]
    played = re.findall(r'<span class="playing-card">(10|[^<]{1})<', deal)
    assert played and set(played) <= expected_ranks(language)
    round_page = web.get(
        f"/tournaments/{match.round.tournament_id}/rounds/1/hand-records/", **lang
    ).content.decode()
    assert hand_tokens(round_page) == dealt


def card_rank_in(language: str, card: str) -> str:
    with translation.override(language):
        return card_rank(card)


@pytestmark_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_boards_travellers_and_the_tablet_write_the_languages_ranks(
    club_a: Club, web: Client, language: str
) -> None:
    event = make_duplicate_event(club=club_a, deals=1)
    lang = {"HTTP_ACCEPT_LANGUAGE": language}
    board = event.board(1)
    dealt = {card_rank_in(language, c) for hand in board.hands for c in hand}
    assert dealt == expected_ranks(language)
    boards = web.get(f"/console/rounds/{event.round.pk}/boards/", **lang).content.decode()
    assert hand_tokens(boards) == dealt
    upcard = card_rank_in(language, board.upcard)
    assert f'<span class="playing-card">{upcard}<' in boards
    traveller = web.get(
        f"/tournaments/{event.tournament.pk}/rounds/1/boards/1/", **lang
    ).content.decode()
    assert hand_tokens(traveller) == dealt
    tablet = Client().get(f"/t/{event.codes[0]}/", **lang).content.decode()
    labels = re.search(r"data-rank-labels='([^']+)'", tablet)
    assert labels is not None, "the tablet's sheet carries no rank letters"
    shown = json.loads(html.unescape(labels.group(1)))
    assert "".join(shown[r] for r in "JQKA") == LETTERS[language]
