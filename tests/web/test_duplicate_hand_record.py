"""A duplicate board entered as a summary (points only): its hand record shows the hands
dealt for the board (from the tournament's board seed) and the board's par in the
contract played, as its traveller has it, instead of "no hands"; a summary outside a
duplicate tournament still says there is nothing to show."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games import engine
from games.engine.cards import CARD_BY_TEXT, DEAL_POINTS, SUIT_BY_TEXT
from tests.conftest import make_event
from tests.factories import summary_record
from tests.support.boards import DuplicateEvent, board_summary, make_duplicate_event
from tests.support.clients import Client
from tournaments.common.engine_messages import card_rank
from tournaments.deals import services
from tournaments.events import services as tournament_services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db

NS_POINTS = 70


@pytest.fixture
def played(club_a: Any, organiser: Any) -> tuple[DuplicateEvent, Match]:
    event = make_duplicate_event(club=club_a, deals=2)
    match = Match.objects.get(table=event.tables[0])
    record = board_summary(event.board(1), team0_points=NS_POINTS)
    services.submit_deal(match=match, number=1, record=record)
    return event, match


def perfect_card_points(event: DuplicateEvent) -> int:
    """North-South's card points with perfect play in the summary's contract (an Orgi in
    the upcard's suit): the par, worked out from the board's hands here."""
    board = event.board(1)
    hands = [sum(1 << CARD_BY_TEXT[c] for c in hand) for hand in board.hands]
    return engine.deal_par(
        hands,
        trump=SUIT_BY_TEXT[board.upcard[1]],
        forehand=(board.dealer + 1) % 4,
        options=engine.resolve_rules("klammern"),
    )


def hand_cards(body: str) -> list[str]:
    """The text of each hand's block on the page, in seat order."""
    return re.findall(r'<div class="hand hand-seat-\d">(.*?)</div>\s*</div>', body, re.S)


def test_the_summary_of_a_board_shows_its_hands_and_par(
    played: tuple[DuplicateEvent, Match], web: Client
) -> None:
    event, match = played
    body = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    board = event.board(1)
    blocks = hand_cards(body)
    assert len(blocks) == 4
    for block, hand in zip(blocks, board.hands, strict=True):
        for card in hand:  # each card's rank, in German letters, in its suit's row
            with translation.override("de"):
                assert card_rank(card) in block
        assert block.count("–") == sum(1 for s in "SHDC" if not any(c[1] == s for c in hand))
    assert 'class="notice not-analysable"' not in body  # not "nothing to analyse"
    assert 'class="notice board-summary"' in body and "Board 1" in body
    own = perfect_card_points(event)
    par_row = re.search(r'<tr class="par-row">(.*?)</tr>', body, re.S)
    assert par_row is not None
    cells = [int(x) for x in re.findall(r'<td class="num">(\d+)</td>', par_row.group(1))]
    assert cells == [own, DEAL_POINTS - own]


def test_the_traveller_shows_the_same_par(
    played: tuple[DuplicateEvent, Match], web: Client
) -> None:
    event, match = played
    tournament_services.close_round(round_=event.round, force=True)
    own = perfect_card_points(event)
    playing = (event.board(1).dealer + 1) % 2  # forehand's team plays the Orgi
    made = 2 * (own if playing == 0 else DEAL_POINTS - own) > DEAL_POINTS
    want = (
        (own, DEAL_POINTS - own)
        if made
        else ((0, DEAL_POINTS) if playing == 0 else (DEAL_POINTS, 0))
    )
    body = web.get(f"/api/rounds/{event.round.pk}/boards/1/traveller/").json()
    assert [tuple(r["par"]) for r in body["rows"]] == [want]
    page = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    outcome = "gemacht" if made else "verloren"
    assert re.search(r'<tr class="par-row">.*?' + outcome, page, re.S)


def test_a_summary_outside_duplicate_still_has_no_hands(club_a: Any, web: Client) -> None:
    event = make_event(club=club_a)
    services.submit_deal(match=event.match1, number=1, record=summary_record(dealer=0))
    body = web.get(f"/matches/{event.match1.pk}/deals/1/hand/").content.decode()
    assert hand_cards(body) == []
    assert 'class="par-row"' not in body and 'class="notice not-analysable"' in body
