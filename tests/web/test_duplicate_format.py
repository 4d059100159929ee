"""Duplicate shown as duplicate (issue 36, RULES.md "Duplicate tournaments", "Words"):
the tablet shows boards, board results and (once the round is closed) match points,
never small or big points; its confirm box says so; the player page lists a duplicate
round with the pair's match-point percentage, not "won"; the tournament page names the
game without "small and big points"; the traveller export equals a hand computation.

The evening of ``test_duplicate_pages`` (numbers worked by hand there): board 1 NS 60 /
70 / 60 at tables 1-3, EW 104 / 94 / 104; board 2 NS 100 / 0 (failed: EW all 164) / 90,
EW 64 / 164 / 74. Match points (NS, EW): board 1 table 1 (1, 3), 2 (4, 0), 3 (1, 3);
board 2 table 1 (4, 0), 2 (0, 4), 3 (2, 2). Table 1 NS: 5 of 8 = 62.5 %."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.conf import settings

from tests.support.boards import DuplicateEvent, board_summary, make_duplicate_event
from tests.support.clients import Client
from tournaments.deals import services
from tournaments.events import services as tournament_services
from tournaments.events.models import Match

pytestmark = pytest.mark.django_db

NS_POINTS = {1: (60, 70, 60), 2: (100, 80, 90)}
#: (board, table, NS board result, EW board result, NS MP, EW MP), by hand.
HAND = [
    (1, 1, 60, 104, 1, 3),
    (1, 2, 70, 94, 4, 0),
    (1, 3, 60, 104, 1, 3),
    (2, 1, 100, 64, 4, 0),
    (2, 2, 0, 164, 0, 4),
    (2, 3, 90, 74, 2, 2),
]


@pytest.fixture
def evening(club_a: Any, organiser: Any) -> DuplicateEvent:
    event = make_duplicate_event(club=club_a, deals=2)
    for number, points in NS_POINTS.items():
        board = event.board(number)
        for table, ns in zip(event.tables, points, strict=True):
            match = Match.objects.get(table=table)
            services.submit_deal(
                match=match, number=number, record=board_summary(board, team0_points=ns)
            )
    return event


def speaking(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def close(event: DuplicateEvent) -> None:
    tournament_services.close_round(round_=event.round, force=True)


def test_the_tablet_shows_boards_and_board_results_not_small_or_big_points(
    evening: DuplicateEvent, client: Client
) -> None:
    body = speaking(client, "de").get(f"/t/{evening.codes[0]}/").content.decode()
    assert 'id="boards-progress"' in body and "2 von 2 Boards gespielt" in body
    assert 'data-bind="board-points">160<' in body and 'data-bind="board-points">168<' in body
    assert "Matchpunkte, sobald die Runde geschlossen ist" in body
    words = ("große Punkte", "kleine Punkte", "groß</span>", "klein</span>", "Laube", "gewonnen")
    for word in words:
        assert word not in body, word
    # the confirm box says what duplicate means: board results, not "0 : 1 groß"
    assert 'id="confirm-summary"' in body
    assert "160 : 168</b> Boardergebnisse" in body


def test_after_the_close_the_tablet_shows_its_match_points(
    evening: DuplicateEvent, client: Client
) -> None:
    close(evening)
    body = speaking(client, "en").get(f"/t/{evening.codes[0]}/").content.decode()
    assert "5 · 62.5 % match points" in body and "3 · 37.5 % match points" in body
    assert "big point" not in body and "small point" not in body


def test_the_player_page_lists_the_round_with_the_pairs_percentage(
    evening: DuplicateEvent, client: Client
) -> None:
    close(evening)
    seats = list(evening.tables[0].seats.order_by("position"))
    north, east = seats[0].player, seats[1].player
    body = speaking(client, "en").get(f"/players/{north.pk}/").content.decode()
    assert "<b>62.5 %</b>" in body and "5 / 8 match points" in body
    assert ">won<" not in body and ">lost<" not in body and ">draw<" not in body
    assert '<th class="num" colspan="3">Match points</th>' in body
    assert ">Big</th>" not in body and ">Small</th>" not in body and ">Augen</th>" not in body
    body = speaking(client, "de").get(f"/players/{north.pk}/").content.decode()
    assert '<th class="num" colspan="3">Matchpunkte</th>' in body
    body = speaking(client, "en").get(f"/players/{east.pk}/").content.decode()
    assert "<b>37.5 %</b>" in body and "3 / 8 match points" in body


def test_the_tournament_page_names_no_small_and_big_points(
    evening: DuplicateEvent, client: Client
) -> None:
    body = speaking(client, "de").get(f"/tournaments/{evening.tournament.pk}/").content.decode()
    assert "kleine und große Punkte" not in body and "Liga" not in body
    assert "Duplicate, wechselnde Partner" in body and 'id="ranking-words"' in body


def test_the_traveller_export_equals_the_hand_computation(
    evening: DuplicateEvent, client: Client
) -> None:
    url = f"/tournaments/{evening.tournament.pk}/travellers.csv"
    before = speaking(client, "en").get(url).content.decode("utf-8-sig")
    assert len(list(csv.reader(io.StringIO(before)))) == 1  # sealed: the headings only
    close(evening)
    standings = client.get(f"/tournaments/{evening.tournament.pk}/standings/").content.decode()
    assert f'href="{url}"' in standings
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    assert rows[0][:2] == ["Round", "Board"] and rows[0][-4:] == [
        "Board result NS",
        "Board result EW",
        "Match points NS",
        "Match points EW",
    ]
    got = [(int(r[1]), int(r[2]), *(int(v) for v in r[-4:])) for r in rows[1:]]
    assert got == HAND
    assert all(r[0] == "1" and r[3] and r[4] for r in rows[1:])
    failed = next(r for r in rows[1:] if r[1:3] == ["2", "2"])
    assert failed[7] == "failed" and failed[8:10] == ["80", "84"]
