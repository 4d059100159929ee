"""The traveller and the hand record say the same thing for the same table (issue 36):
a failed Klammern game's board result gives the defenders all the points (the traveller
compares it for the match points), while its deal points are each team's own (the hand
record's). Both pages label the two apart, show both, and link to each other; the boards
page says what each is. A Schieber traveller says in words why it has no par."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.api.test_duplicate_games import schieber
from tests.conftest import make_event
from tests.factories import summary_record
from tests.support.boards import board_summary, make_duplicate_event
from tests.support.clients import Client
from tournaments.deals import services
from tournaments.events import services as tournament_services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db


def cells(body: str, row_class: str) -> list[int]:
    row = re.search(rf'<tr class="{row_class}">(.*?)</tr>', body, re.S)
    assert row is not None, row_class
    return [int(x) for x in re.findall(r'<td class="num">(\d+)</td>', row.group(1))]


def test_a_failed_game_shows_its_board_result_and_its_deal_points(
    club_a: Any, organiser: Any, client: Client
) -> None:
    event = make_duplicate_event(club=club_a, players=8, deals=1)
    board = event.board(1)
    playing = (board.dealer + 1) % 2  # forehand's team plays the Orgi and gets 60 of 164
    points = [60, 104] if playing == 0 else [104, 60]
    match = Match.objects.get(table=event.tables[0])
    record = board_summary(board, team0_points=points[0])
    services.submit_deal(match=match, number=1, record=record)
    tournament_services.close_round(round_=event.round, force=True)
    board_result = [0, 164] if playing == 0 else [164, 0]

    english = {"HTTP_ACCEPT_LANGUAGE": "en"}
    traveller_url = f"/tournaments/{event.tournament.pk}/rounds/1/boards/1/"
    traveller = client.get(traveller_url, **english).content.decode()
    row = re.search(r'<tr data-table="1">(.*?)</tr>', traveller, re.S).group(1)
    shown = [
        int(re.search(rf'class="num {name}">(\d+)<', row).group(1))
        for name in ("ns-points", "ew-points")
    ]
    assert shown == board_result
    assert re.search(r'class="num deal-points small">(\d+) : (\d+)<', row).groups() == tuple(
        str(p) for p in points
    )
    assert "Board result" in traveller and "Deal points" in traveller
    hand_url = f"/matches/{match.pk}/deals/1/hand/"
    assert f'href="{hand_url}"' in row

    hand = client.get(hand_url, **english).content.decode()
    assert cells(hand, "actual-row") == points
    assert cells(hand, "board-result-row") == board_result
    assert "Deal points" in hand and "Board result" in hand
    assert f'href="{traveller_url}"' in hand
    # the par both ways: deal points on the hand record, as a board result on both pages
    par_deal = cells(hand, "par-row")
    par_board = cells(hand, "par-board-row")
    par_playing = par_deal[playing] > par_deal[1 - playing]
    assert par_board == (par_deal if par_playing else ([0, 164] if playing == 0 else [164, 0]))
    par_cells = [
        int(re.search(rf'class="num {name}">(\d+)<', row).group(1)) for name in ("par-ns", "par-ew")
    ]
    assert par_cells == par_board
    par_deal_cell = re.search(r'class="num par-deal-points small">(\d+) : (\d+)<', row)
    assert [int(x) for x in par_deal_cell.groups()] == par_deal

    boards = client.get(f"/tournaments/{event.tournament.pk}/boards/", **english).content.decode()
    assert "Board result: the points compared for the match points" in boards


def test_a_hand_record_outside_duplicate_has_no_board_result(club_a: Any, web: Client) -> None:
    event = make_event(club=club_a)
    services.submit_deal(match=event.match1, number=1, record=summary_record(dealer=0))
    response = web.get(f"/matches/{event.match1.pk}/deals/1/hand/", HTTP_ACCEPT_LANGUAGE="en")
    body = response.content.decode()
    assert response.status_code == 200 and "Deal 1" in body
    assert 'class="board-result-row"' not in body and "Board result" not in body


def test_a_schieber_traveller_says_why_it_has_no_par(
    club_a: Any, organiser: Any, client: Client
) -> None:
    event = make_duplicate_event(
        club=club_a, players=8, deals=1, preset="schieber", rules_options={"deals_per_match": 1}
    )
    board = event.board(1)
    assert board.upcard == "" and [len(h) for h in board.hands] == [9, 9, 9, 9]
    match = Match.objects.get(table=event.tables[0])
    services.submit_deal(match=match, number=1, record=schieber(board, 100))
    tournament_services.close_round(round_=event.round, force=True)
    url = f"/tournaments/{event.tournament.pk}/rounds/1/boards/1/"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="notice not-analysable"' in body and "Schieberjass" in body
    assert "Upcard" not in body  # nothing is turned up
    # the Schieber's hands as the deck has them: a 6 shows among the ranks
    assert re.search(r">\s*6\s", body) or " 6 " in re.sub(r"<[^>]+>", " ", body)
