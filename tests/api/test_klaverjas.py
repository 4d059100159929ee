"""A Klaverjas tournament: matches kept by the engine's points keeper, standings by match
points won then total points (as Dutch competitions do), and the tablet's Klaverjas
score sheet."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory
from tournaments.clubs.models import Club
from tournaments.common.errors import InvalidRecord
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Round, Tournament
from tournaments.results import snapshots

pytestmark = pytest.mark.django_db


def klaverjas_record(
    dealer: int,
    points: list[int],
    roem: list[int] | None = None,
    tricks: list[int] | None = None,
) -> dict[str, Any]:
    record = {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "contract": {"kind": "klaverjas", "declarer": (dealer + 1) % 4, "trump": "H"},
        "card_points": points,
        "roem": roem or [0, 0],
    }
    if tricks is not None:  # required when one team has all 162 card points
        record["tricks_won"] = tricks
    return record


def klaverjas_round(club: Club, *, players: int = 8, deals: int = 2) -> tuple[Tournament, Round]:
    tournament = services.create_tournament(
        club=club,
        name="Klaverjasavond",
        slug="klaverjas",
        rules_preset="klaverjas-rotterdam",
        rules_options={"deals_per_match": deals},
    )
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=3)
    services.publish_round(round_=round_)
    return tournament, round_


def seats_of(match: Match) -> list[int]:
    return list(match.table.seats.order_by("position").values_list("player_id", flat=True))


def test_matches_finish_after_the_rules_deals_and_rank_by_match_points_then_points(
    club_a: Club,
) -> None:
    tournament, round_ = klaverjas_round(club_a)
    first, second = round_.matches.order_by("table__number")
    # table 1: 40:122 then 100:62, both made: 140 : 184, team 1 wins
    submit_deal(match=first, number=1, record=klaverjas_record(0, [40, 122]))
    submit_deal(match=first, number=2, record=klaverjas_record(1, [100, 62]))
    # table 2: 62:100 made, then 150:12 with 20 roem made: 232 : 112, team 0 wins
    submit_deal(match=second, number=1, record=klaverjas_record(0, [62, 100]))
    submit_deal(match=second, number=2, record=klaverjas_record(1, [150, 12], [20, 0]))
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED
    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert data["tiebreaks"][:2] == ["tournament_points", "augen"]
    rows = {row["entrant"]: row for row in data["rows"]}
    a, b = seats_of(first), seats_of(second)
    order = [row["entrant"] for row in data["rows"]]
    # winners first (2 match points), the one with more points ahead; losers by points
    assert set(order[:2]) == {b[0], b[2]} and set(order[2:4]) == {a[1], a[3]}
    assert set(order[4:6]) == {a[0], a[2]} and set(order[6:]) == {b[1], b[3]}
    assert (rows[b[0]]["tournament_points"], rows[b[0]]["augen"]) == (2, 232)
    assert (rows[a[1]]["tournament_points"], rows[a[1]]["augen"]) == (2, 184)
    assert (rows[a[0]]["tournament_points"], rows[a[0]]["augen"]) == (0, 140)
    assert rows[b[1]]["augen"] == 112
    assert data["rows"][1]["decided_by"] == "augen"  # partners share their rank


def test_a_nat_deal_gives_the_defenders_everything_and_a_draw_is_one_match_point(
    club_a: Club,
) -> None:
    tournament, round_ = klaverjas_round(club_a, players=4)
    match = round_.matches.get()
    # dealer 0: team 1 plays; 70+0 is not more than 92: nat, team 0 scores 162
    version = submit_deal(match=match, number=1, record=klaverjas_record(0, [92, 70]))
    assert version.result["outcome"] == "failed"
    assert version.result["points"] == [162, 0]
    # dealer 1: team 0 plays and goes nat too: 162 : 162, a draw
    submit_deal(match=match, number=2, record=klaverjas_record(1, [70, 92]))
    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    assert [row["tournament_points"] for row in data["rows"]] == [1, 1, 1, 1]
    assert {row["augen"] for row in data["rows"]} == {162}


@pytest.mark.parametrize("name", ["weis", "melds", "bella", "turned"])
def test_a_field_of_another_game_is_refused_in_a_klaverjas_record(club_a: Club, name: str) -> None:
    _, round_ = klaverjas_round(club_a)
    match = round_.matches.order_by("table__number").first()
    with pytest.raises(InvalidRecord) as refused:
        submit_deal(match=match, number=1, record={**klaverjas_record(0, [92, 70]), name: []})
    assert refused.value.code == "unknown_field"
    assert [(e["code"], e["field"]) for e in refused.value.errors or []] == [
        ("unknown_field", name)
    ]


def test_klaverjas_with_a_target_ends_when_a_team_reaches_it(club_a: Club) -> None:
    tournament = services.create_tournament(
        club=club_a,
        name="Kort",
        slug="kort",
        rules_preset="klaverjas-amsterdam",
        rules_options={"match_by": "target", "target_points": 300},
    )
    for _ in range(4):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    services.publish_round(round_=round_)
    match = round_.matches.get()
    assert (match.mode, match.target) == ("liga", 300)
    submit_deal(match=match, number=1, record=klaverjas_record(0, [62, 100]))
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    submit_deal(match=match, number=2, record=klaverjas_record(1, [162, 0], [50, 0], [8, 0]))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_the_tablet_shows_the_klaverjas_score_sheet(client: Any, club_a: Club) -> None:
    tournament, round_ = klaverjas_round(club_a, players=4)
    match = round_.matches.get()
    submit_deal(match=match, number=1, record=klaverjas_record(0, [92, 70]))
    _, code = services.issue_device_code(table=match.table)
    page = client.get(f"/t/{code}/").content.decode()
    assert 'class="entry entry-klaverjas"' in page
    assert "entry_klaverjas" in page and 'data-action="roem"' in page
    assert 'max="162"' in page and 'data-value="orgi"' not in page
    state = client.get(f"/t/{code}/state/").content.decode()
    assert "is-nat" in state and "162 : 0" in state
