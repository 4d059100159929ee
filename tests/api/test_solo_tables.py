"""Klammern for three players: tables of 3 drawn for the field, matches to the target
kept by the engine, standings by tables won then points, club tables one game per table,
and the tablet's sheet with one points entry per player."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Bye, Match, Round, Tournament
from tournaments.results import snapshots

pytestmark = pytest.mark.django_db


def solo_record(dealer: int, declarer: int, points: list[int]) -> dict[str, Any]:
    return {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "contract": {"kind": "take", "declarer": declarer, "trump": "H"},
        "card_points": points,
    }


def solo_tournament(club: Club, players: int) -> Tournament:
    tournament = services.create_tournament(
        club=club,
        name="Zu dritt",
        slug="zu-dritt",
        rules_preset="klammern-3",
        rules_options={"target_points": 150},
    )
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament


def next_round(tournament: Tournament, seed: int) -> Round:
    round_ = draw.draw_round(tournament=tournament, seed=seed)
    services.publish_round(round_=round_)
    return round_


def test_ten_players_sit_at_three_tables_of_three_and_one_sits_out(club_a: Club) -> None:
    tournament = solo_tournament(club_a, 10)
    round_ = next_round(tournament, 1)
    sizes = [t.seats.count() for t in round_.tables.order_by("number")]
    assert sizes == [3, 3, 3] and Bye.objects.filter(round=round_).count() == 1
    positions = sorted({s.position for t in round_.tables.all() for s in t.seats.all()})
    assert positions == [0, 1, 2]
    assert round_.cost["table_size"] == 3 and round_.cost["repeated_opponents"] == 0


def test_a_table_is_won_by_the_player_with_most_points(club_a: Club) -> None:
    tournament = solo_tournament(club_a, 3)
    match = next_round(tournament, 1).matches.get()
    assert (match.mode, match.target) == ("liga", 150)  # to a target of points
    submit_deal(match=match, number=1, record=solo_record(0, 1, [30, 100, 32]))
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    submit_deal(match=match, number=2, record=solo_record(1, 2, [30, 32, 100]))
    submit_deal(match=match, number=3, record=solo_record(2, 1, [20, 120, 22]))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # seat 1: 252, first over 150 alone
    seats = list(match.table.seats.order_by("position").values_list("player_id", flat=True))
    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"] == ["tournament_points", "augen", "buchholz", "head_to_head"]
    assert [r["entrant"] for r in data["rows"]] == [seats[1], seats[2], seats[0]]
    assert [(r["won"], r["augen"]) for r in data["rows"]] == [(1, 252), (0, 154), (0, 80)]
    services.close_round(round_=match.round, force=True)  # club tables: finished evenings
    services.finish_tournament(tournament=tournament)
    club = snapshots.compute_club_leaderboards(club_id=club_a.pk)
    assert club["boss"]["current"] == seats[1]
    assert {r["player"]: (r["played"], r["won"]) for r in club["all_time"]} == {
        seats[0]: (1, 0),
        seats[1]: (1, 1),
        seats[2]: (1, 0),
    }


def test_the_tablet_has_one_points_entry_per_player(client: Any, club_a: Club) -> None:
    tournament = solo_tournament(club_a, 3)
    match = next_round(tournament, 1).matches.get()
    submit_deal(match=match, number=1, record=solo_record(0, 1, [30, 100, 32]))
    _, code = services.issue_device_code(table=match.table)
    page = client.get(f"/t/{code}/").content.decode()
    assert 'class="entry entry-solo"' in page and "entry_solo" in page
    assert all(f'name="points{n}"' in page for n in range(3)) and 'name="points3"' not in page
    assert '"players": 3' in page
    state = client.get(f"/t/{code}/state/").content.decode()
    assert state.count('class="solo-player') == 3 and "30 : 100 : 32" in state
