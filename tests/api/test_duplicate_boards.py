"""The boards and travellers of a duplicate tournament over the API, visible exactly as
their pages are: the cards of a round's boards for the club's organisers at any time,
for a table's device the boards its table plays, for everyone else once the round is
closed; a traveller (with the par) for the organisers at any time and for everyone once
the round is closed. Refusals keep their codes: ``round_not_closed``, ``not_your_round``,
``board_not_found``, ``not_duplicate``, ``not_found``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import client_for, make_event
from tests.support.boards import DuplicateEvent, board_summary, make_duplicate_event
from tournaments.deals import services
from tournaments.events import services as tournament_services
from tournaments.events.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db

#: North-South card points of board 1 at tables 1-3 (all made by East-West, the
#: forehand's side): NS match points 1, 4, 1 and EW 3, 0, 3 (tests/web/test_duplicate_pages).
NS_POINTS = (60, 70, 60)


@pytest.fixture
def evening(club_a: Any, organiser: Any) -> DuplicateEvent:
    event = make_duplicate_event(club=club_a, deals=2)
    board = event.board(1)
    for table, ns in zip(event.tables, NS_POINTS, strict=True):
        match = Match.objects.get(table=table)
        services.submit_deal(match=match, number=1, record=board_summary(board, team0_points=ns))
    return event


def boards_url(event: DuplicateEvent, board: int | None = None) -> str:
    base = f"/api/rounds/{event.round.pk}/boards/"
    return base if board is None else f"{base}{board}/"


def traveller_url(event: DuplicateEvent, board: int) -> str:
    return f"{boards_url(event, board)}traveller/"


def close(event: DuplicateEvent) -> None:
    tournament_services.close_round(round_=event.round, force=True)


def cards(event: DuplicateEvent, number: int) -> dict[str, Any]:
    board = event.board(number)
    hands = [list(hand) for hand in board.hands]
    return {
        "number": number,
        "dealer": board.dealer,
        "upcard": board.upcard,
        "hands": hands,
        "stock": [],
    }


def code_of(response: Any) -> str:
    return str(response.json()["code"])


# --- the cards of the boards ------------------------------------------------------------


def test_the_organiser_reads_the_boards_before_the_round_is_closed(
    evening: DuplicateEvent, organiser: Any
) -> None:
    response = client_for(organiser).get(boards_url(evening))
    assert response.status_code == 200
    body = response.json()
    assert body["round"] == evening.round.pk and body["round_number"] == 1
    assert body["tournament"] == evening.tournament.pk
    assert body["boards"] == [cards(evening, 1), cards(evening, 2)]
    one = client_for(organiser).get(boards_url(evening, 2))
    assert one.status_code == 200 and one.json() == cards(evening, 2)


def test_a_table_device_reads_the_boards_its_table_plays(evening: DuplicateEvent) -> None:
    device = client_for(device_code=evening.codes[0])
    response = device.get(boards_url(evening))
    assert response.status_code == 200
    assert response.json()["boards"] == [cards(evening, 1), cards(evening, 2)]
    assert device.get(boards_url(evening, 1)).json() == cards(evening, 1)
    missing = device.get(boards_url(evening, 3))
    assert missing.status_code == 404 and code_of(missing) == "board_not_found"


def test_a_device_of_another_round_sees_no_boards(
    evening: DuplicateEvent, club_a: Any, organiser: Any
) -> None:
    other = make_event(club=club_a, seed=3)
    response = client_for(device_code=other.code1).get(boards_url(evening))
    assert response.status_code == 403 and code_of(response) == "not_your_round"


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_organiser"])
def test_everyone_else_sees_the_boards_once_the_round_is_closed(
    evening: DuplicateEvent, who: str, request: pytest.FixtureRequest
) -> None:
    client = client_for(None if who == "anonymous" else request.getfixturevalue(who))
    early = client.get(boards_url(evening))
    assert early.status_code == 403 and code_of(early) == "round_not_closed"
    assert code_of(client.get(boards_url(evening, 1))) == "round_not_closed"
    close(evening)
    response = client.get(boards_url(evening))
    assert response.status_code == 200
    assert response.json()["boards"] == [cards(evening, 1), cards(evening, 2)]


def test_a_private_tournament_is_not_found_for_others(
    evening: DuplicateEvent, other_organiser: Any, organiser: Any
) -> None:
    Tournament.objects.filter(pk=evening.tournament.pk).update(is_public=False)
    close(evening)
    for client in (client_for(), client_for(other_organiser)):
        for url in (boards_url(evening), boards_url(evening, 1), traveller_url(evening, 1)):
            response = client.get(url)
            assert response.status_code == 404 and code_of(response) == "not_found", url
    assert client_for(organiser).get(traveller_url(evening, 1)).status_code == 200


def test_a_draft_round_is_the_organisers_only(evening: DuplicateEvent, organiser: Any) -> None:
    Round.objects.filter(pk=evening.round.pk).update(status=Round.Status.DRAFT)
    response = client_for().get(boards_url(evening))
    assert response.status_code == 404 and code_of(response) == "not_found"
    assert client_for(organiser).get(boards_url(evening)).status_code == 200


def test_a_tournament_not_played_in_duplicate_has_no_boards(club_a: Any, organiser: Any) -> None:
    event = make_event(club=club_a)
    for url in (
        f"/api/rounds/{event.round.pk}/boards/",
        f"/api/rounds/{event.round.pk}/boards/1/traveller/",
    ):
        response = client_for(organiser).get(url)
        assert response.status_code == 404 and code_of(response) == "not_duplicate"


def test_an_unknown_round_is_not_found(db: Any) -> None:
    response = client_for().get("/api/rounds/999999/boards/")
    assert response.status_code == 404 and code_of(response) == "not_found"


# --- travellers -------------------------------------------------------------------------


def test_the_organiser_reads_the_traveller_at_once_without_par(
    evening: DuplicateEvent, organiser: Any
) -> None:
    response = client_for(organiser).get(traveller_url(evening, 1))
    assert response.status_code == 200
    body = response.json()
    assert body["closed"] is False and body["top"] == 4
    assert body["board"] == cards(evening, 1)
    rows = [(r["table"], *r["points"], *r["match_points"]) for r in body["rows"]]
    assert rows == [(1, 60, 104, 1, 3), (2, 70, 94, 4, 0), (3, 60, 104, 1, 3)]
    assert all(r["par"] is None for r in body["rows"])
    board = evening.board(1)
    first = body["rows"][0]
    assert first["contract"] == "orgi" and first["trump"] == board.upcard[1]
    assert first["declarer"] == (board.dealer + 1) % 4 and first["outcome"] == "made"
    assert len(first["sides"]) == 2 and all(" & " in side for side in first["sides"])


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_organiser", "device"])
def test_everyone_reads_the_traveller_and_its_par_once_the_round_is_closed(
    evening: DuplicateEvent, who: str, request: pytest.FixtureRequest
) -> None:
    if who == "device":
        client = client_for(device_code=evening.codes[0])
    else:
        client = client_for(None if who == "anonymous" else request.getfixturevalue(who))
    early = client.get(traveller_url(evening, 1))
    assert early.status_code == 403 and code_of(early) == "round_not_closed"
    close(evening)
    body = client.get(traveller_url(evening, 1)).json()
    assert body["closed"] is True
    pars = [row["par"] for row in body["rows"]]
    assert all(isinstance(par, list) and sum(par) >= 164 for par in pars)
    assert len(set(map(tuple, pars))) == 1  # the same contract at every table: one par


def test_a_board_outside_the_round_has_no_traveller(
    evening: DuplicateEvent, organiser: Any
) -> None:
    for board in (0, 3):
        response = client_for(organiser).get(traveller_url(evening, board))
        assert response.status_code == 404 and code_of(response) == "board_not_found"
