"""Hand records of every game render: tables of 3 and of 2 players lay out as many hands
and par columns as the game seats (no loop over four seats), Klaverjas its two teams; a
Klaverjas deal is analysed (par per team, costly plays), a deal for 3 players too (par
per player, a step-through of three-card tricks)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.analysis_services import analyse_missing_deals
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.deals.hand_records import turning_plays
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Match, Tournament
from tournaments.web import selectors as web_selectors

pytestmark = pytest.mark.django_db


def played_match(club: Club, preset: str, players: int) -> Match:
    tournament: Tournament = services.create_tournament(
        club=club, name=f"Spielbericht {preset}", slug=f"bericht-{preset}", rules_preset=preset
    )
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    services.publish_round(round_=round_)
    return round_.matches.get()


def full_deal(preset: str) -> dict[str, Any]:
    """A random full record of the preset in which somebody played (tricks to show)."""
    for seed in range(100):
        record = engine.random_deal(random.Random(seed), dealer=0, rules=preset)
        if engine.check(record)["tricks"]:
            return record
    raise AssertionError("no played deal among 100 seeds")


@pytest.mark.parametrize(("preset", "players"), [("klammern-3", 3), ("klammern-2", 2)])
def test_the_hand_record_of_a_small_table_renders(
    club_a: Club, web: Client, preset: str, players: int
) -> None:
    match = played_match(club_a, preset, players)
    record = full_deal(preset)
    submit_deal(match=match, number=1, record=record)
    response = web.get(f"/matches/{match.pk}/deals/1/hand/")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('class="hand hand-seat-') == players
    assert body.count('class="trick-seat"') == len(record["plays"])
    assert "noch nicht fertig" in body  # the analysis is queued, not refused
    assert "not-analysable" not in body
    round_page = web.get(f"/tournaments/{match.round.tournament_id}/rounds/1/hand-records/")
    assert round_page.status_code == 200


def test_a_three_player_hand_record_shows_the_par_per_player_and_steps_through(
    club_a: Club, web: Client
) -> None:
    """Klammern for 3 players is analysed: a par column per player, tricks of three cards
    in the step-through, each legal card's value, a makeable row per trump with a column
    per player as declarer, and the graph of the declarer's margin over the best other."""
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
    assert analysis["analysed"]
    body = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    par_cells = body.split('class="par-row"')[1].split("</tr>")[0]
    assert par_cells.count('<td class="num">') == 3
    assert [f'<td class="num">{p}</td>' in par_cells for p in analysis["par"]] == [True] * 3
    costly = [p for p in analysis["plays"] if p["cost"] > 0]
    assert body.count('class="trick-card is-costly') == len(costly)
    step = 4  # the second card of the second trick
    body = web.get(f"/matches/{match.pk}/deals/1/hand/?step={step}").content.decode()
    replay = body.split('id="replay"')[1].split("</section>")[0]
    assert replay.count('class="hand replay-hand') == 3
    assert "Stich 2:" in replay and replay.count('class="trick-played') == 1
    assert replay.count('<li class="card-value') == len(analysis["plays"][step]["values"])
    assert replay.count('class="line-card"') == 27 - step
    assert replay.count('<circle class="pt') == 28
    par = analysis["plays"][step - 1]["par"]
    assert all(f"Sitz {s + 1} <strong>{p}</strong>" in replay for s, p in enumerate(par))
    assert "Team 1" not in replay
    makeable = replay.split('class="data makeable"')[1].split("</table>")[0]
    assert makeable.count("<tr>") == 5 and makeable.count("Sitz 3 spielt") == 1


def test_the_klaverjas_hand_record_shows_two_teams(club_a: Club, web: Client) -> None:
    match = played_match(club_a, "klaverjas-rotterdam", 4)
    submit_deal(match=match, number=1, record=full_deal("klaverjas-rotterdam"))
    body = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    assert body.count('class="hand hand-seat-') == 4
    assert body.count("Sitze 1 &amp; 3") == 1 and body.count("Sitze 2 &amp; 4") == 1


def test_a_klaverjas_hand_record_shows_the_par_per_team(club_a: Club, web: Client) -> None:
    match = played_match(club_a, "klaverjas-amsterdam", 4)
    record = full_deal("klaverjas-amsterdam")
    submit_deal(match=match, number=1, record=record)
    assert analyse_missing_deals() == 1
    analysis = engine.analyse(record)
    body = web.get(f"/matches/{match.pk}/deals/1/hand/").content.decode()
    assert 'class="par-row"' in body and "not-analysable" not in body
    par_cells = body.split('class="par-row"')[1].split("</tr>")[0]
    assert [f'<td class="num">{p}</td>' in par_cells for p in analysis["par"]] == [True, True]
    costly = [p for p in analysis["plays"] if p["cost"] > 0]
    assert body.count('class="trick-card is-costly') == len(costly)
    # each play's par outcome is stored, so the plays that turned it are marked too
    assert body.count(' is-turning"><span class="trick-seat') == len(turning_plays(analysis))


def test_a_player_at_a_table_of_three_has_no_partner(club_a: Club) -> None:
    """The player's own page names the partner and opponents as the game seats them: at a
    table of 3 no partner, the two others are opponents (not "seat + 2" as partner)."""
    match = played_match(club_a, "klammern-3", 3)
    seats = list(match.table.seats.order_by("position").select_related("player"))
    seat = web_selectors.current_seat(seats[0].player, match.round.tournament)
    assert seat is not None and seat["partner"] == ""
    assert sorted(seat["opponents"]) == sorted([seats[1].player.name, seats[2].player.name])


def test_a_klaverjas_hand_record_steps_through_with_card_values(club_a: Club, web: Client) -> None:
    """The step-through works for Klaverjas as for Klammern: each legal card's value (in
    the analysis' margin), the perfect line to the end and the par's outcome per play."""
    match = played_match(club_a, "klaverjas-rotterdam", 4)
    record = full_deal("klaverjas-rotterdam")
    submit_deal(match=match, number=1, record=record)
    assert analyse_missing_deals() == 1
    analysis = engine.analyse(record)
    step = next(i for i, p in enumerate(analysis["plays"]) if len(p["values"]) > 1)
    body = web.get(f"/matches/{match.pk}/deals/1/hand/?step={step}").content.decode()
    assert 'id="replay"' in body and "Schritt für Schritt" in body
    replay = body.split('id="replay"')[1].split("</section>")[0]
    values = analysis["plays"][step]["values"]
    assert replay.count('<li class="card-value') == len(values)
    for card, cost in values.items():
        item = replay.split(f'data-card="{card}"')[1].split("</li>")[0]
        assert ("beste" in item) if cost == 0 else (f"−{cost}</span>" in item), card
    assert replay.count('class="line-card"') == 32 - step
    assert replay.count('<circle class="pt') == 33
    par = analysis["plays"][step - 1]["par"] if step else analysis["par"]
    assert f"Team 1 <strong>{par[0]}</strong>" in replay
    assert f"Team 2 <strong>{par[1]}</strong>" in replay
    last = analysis["plays"][-1]
    assert last["par"] == analysis["actual"]["points"]
