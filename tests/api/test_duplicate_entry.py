"""Duplicate tournaments at the table: the setting (which games, which match mode, fixed
with the rules), and deal entry against the round's boards: a record whose dealer,
upcard or hands differ from its board is refused with ``board_mismatch`` and nothing is
stored; a record that fits is stored; a thrown-in board does not move the next board's
dealer; a correction is held to the board too."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.models import Deal, DealVersion
from tests.conftest import client_for
from tests.support.boards import (
    DuplicateEvent,
    board_full_record,
    board_summary,
    make_duplicate_event,
)
from tournaments.common.errors import ApplicationError
from tournaments.events import services
from tournaments.events.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def duplicate_event(club_a: Any, organiser: Any) -> DuplicateEvent:
    return make_duplicate_event(club=club_a)


def post(code: str, match: Match, number: int, record: dict, **headers: Any) -> Any:
    client = client_for(device_code=code)
    return client.post(
        f"/api/matches/{match.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


def match_of(event: DuplicateEvent, table: int) -> Match:
    return Match.objects.get(table=event.tables[table])


# --- the setting ----------------------------------------------------------------------


def test_a_duplicate_tournament_plays_a_fixed_number_of_deals(club_a: Any) -> None:
    with pytest.raises(ApplicationError) as caught:
        services.create_tournament(
            club=club_a, name="Liga", slug="liga", duplicate=True, match_mode="liga"
        )
    assert caught.value.code == "duplicate_needs_deals"
    assert not Tournament.objects.filter(slug="liga").exists()


def test_a_game_without_duplicate_is_refused(club_a: Any) -> None:
    with pytest.raises(ApplicationError) as caught:
        services.create_tournament(
            club=club_a, name="Zu dritt", slug="drei", duplicate=True, rules_preset="klammern-3"
        )
    assert caught.value.code == "duplicate_not_offered"


def test_the_setting_is_fixed_with_the_rules(duplicate_event: DuplicateEvent) -> None:
    with pytest.raises(ApplicationError) as caught:
        services.update_tournament(
            tournament=duplicate_event.tournament, changes={"duplicate": False}
        )
    assert caught.value.code == "rules_locked"
    assert Tournament.objects.get(pk=duplicate_event.tournament.pk).duplicate is True


def test_the_api_shows_and_takes_the_setting(organiser_client: Any, club_a: Any) -> None:
    response = organiser_client.post(
        "/api/tournaments/",
        {"club": club_a.pk, "name": "Doppel", "slug": "doppel", "duplicate": True},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["duplicate"] is True
    assert Tournament.objects.get(slug="doppel").duplicate is True


# --- entering boards --------------------------------------------------------------------


def test_a_summary_that_fits_the_board_is_stored(duplicate_event: DuplicateEvent) -> None:
    board = duplicate_event.board(1)
    match = match_of(duplicate_event, 0)
    response = post(duplicate_event.codes[0], match, 1, board_summary(board, team0_points=90))
    assert response.status_code == 201, response.content
    assert DealVersion.objects.current().filter(deal__match=match).count() == 1


@pytest.mark.parametrize("field", ["upcard", "dealer"])
def test_a_summary_with_another_upcard_or_dealer_is_refused(
    duplicate_event: DuplicateEvent, field: str
) -> None:
    board = duplicate_event.board(1)
    record = board_summary(board, team0_points=90)
    if field == "upcard":
        other = next(c for c in board.hands[board.dealer] if c[1] != board.upcard[1])
        record["upcard"] = other
        record["contract"]["trump"] = other[1]  # a valid record: only the board differs
    else:
        record["dealer"] = (board.dealer + 1) % 4
        record["contract"]["declarer"] = (board.dealer + 2) % 4
    match = match_of(duplicate_event, 0)
    response = post(duplicate_event.codes[0], match, 1, record, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "board_mismatch"
    assert "board 1" in body["detail"]
    assert [e["field"] for e in body["errors"]] == [field]
    assert not Deal.objects.filter(match=match).exists()


def test_a_full_record_with_other_hands_is_refused(duplicate_event: DuplicateEvent) -> None:
    board = duplicate_event.board(1)
    hands = [list(hand) for hand in board.hands]
    i0 = next(i for i, c in enumerate(hands[0]) if c != board.upcard)
    i2 = next(i for i, c in enumerate(hands[2]) if c != board.upcard)
    hands[0][i0], hands[2][i2] = hands[2][i2], hands[0][i0]
    match = match_of(duplicate_event, 1)
    record = board_full_record(board, hands=hands)
    response = post(duplicate_event.codes[1], match, 1, record, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "board_mismatch"
    assert [(e["field"], e["params"]["seat"]) for e in body["errors"]] == [
        ("hands", 0),
        ("hands", 2),
    ]
    assert "Spiel 1 ist Board 1" in body["detail"]
    assert not Deal.objects.filter(match=match).exists()


@pytest.mark.analysis
def test_a_full_record_of_the_board_is_stored_and_analysed(
    duplicate_event: DuplicateEvent,
) -> None:
    board = duplicate_event.board(1)
    match = match_of(duplicate_event, 1)
    response = post(duplicate_event.codes[1], match, 1, board_full_record(board))
    assert response.status_code == 201, response.content
    version = DealVersion.objects.current().get(deal__match=match)
    assert version.record["hands"] == [list(hand) for hand in board.hands]
    assert version.analysis.analysed is True


def test_a_thrown_in_board_is_a_board_played_and_the_next_keeps_its_dealer(
    duplicate_event: DuplicateEvent,
) -> None:
    """Outside duplicate the same dealer deals again after a thrown-in deal, which is no
    planned deal; a duplicate table plays board 2 next, dealt by board 2's dealer (seat
    1): board 2 is refused from the seat that dealt board 1. The thrown-in board scores 0
    for both teams and counts among the match's boards."""
    first, second = duplicate_event.board(1), duplicate_event.board(2)
    match = match_of(duplicate_event, 2)
    code = duplicate_event.codes[2]
    thrown = {
        "format": "klammern-deal/1",
        "dealer": first.dealer,
        "upcard": first.upcard,
        "contract": {"kind": "thrown_in"},
    }
    assert post(code, match, 1, thrown).status_code == 201
    again = board_summary(second, team0_points=70, dealer=first.dealer, upcard=second.upcard)
    again["contract"]["declarer"] = (first.dealer + 1) % 4
    refused = post(code, match, 2, again)
    assert refused.status_code == 400 and refused.json()["code"] == "board_mismatch"
    assert post(code, match, 2, board_summary(second, team0_points=70)).status_code == 201
    # the thrown-in board is one of the four boards: after boards 3 and 4 the match is
    # finished and has no deal 5
    for number in (3, 4):
        board = duplicate_event.board(number)
        assert post(code, match, number, board_summary(board, team0_points=70)).status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    fifth = duplicate_event.board(5)
    refused = post(code, match, 5, board_summary(fifth, team0_points=70))
    assert refused.status_code in (400, 409) and refused.json()["code"] in (
        "too_many_deals",
        "match_finished",
    )


def test_a_correction_is_held_to_the_board(duplicate_event: DuplicateEvent) -> None:
    board = duplicate_event.board(1)
    match = match_of(duplicate_event, 0)
    code = duplicate_event.codes[0]
    assert post(code, match, 1, board_summary(board, team0_points=90)).status_code == 201
    other = next(c for c in board.hands[board.dealer] if c[1] != board.upcard[1])
    wrong = board_summary(board, team0_points=50, upcard=other)
    wrong["contract"]["trump"] = other[1]
    client = client_for(device_code=code)
    response = client.put(
        f"/api/matches/{match.pk}/deals/1/",
        wrong,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "board_mismatch"
    assert DealVersion.objects.current().get(deal__match=match).record["card_points"] == [90, 74]
