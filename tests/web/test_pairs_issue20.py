"""Issue 20, fixed pairs: the API offers the pairings the console's "Pairs and finals"
offers (a round robin, with or without home and away, instead of silently ignoring
``home_and_away``); a pair's players are listed in the order of its name on the pairs
page and in the API; after the final the console offers to finish the tournament, not a
next finals round that would be refused; the seating says which table is the final."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from tests.api.test_pairs_finals import pairs_tournament, play_round
from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Round, Tournament
from tournaments.pairs import finals
from tournaments.pairs import services as pairs

pytestmark = pytest.mark.django_db


def console(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


# --- 3. the pairing of rounds through the API ---------------------------------------------


def new_tournament(organiser: Any, club: Any, **options: Any) -> Any:
    body = {
        "club": club.pk,
        "name": "Paarturnier",
        "slug": f"paare-{uuid.uuid4().hex[:6]}",
        "format": "pairs",
        **options,
    }
    return client_for(organiser).post("/api/tournaments/", body, format="json")


def test_the_api_creates_a_round_robin_with_home_and_away(club_a: Any, organiser: Any) -> None:
    reply = new_tournament(organiser, club_a, round_robin=True, home_and_away=True)
    assert reply.status_code == 201, reply.json()
    assert (reply.json()["round_robin"], reply.json()["home_and_away"]) == (True, True)
    tournament = Tournament.objects.get(pk=reply.json()["id"])
    assert tournament.round_robin and tournament.home_and_away and not tournament.swiss
    for n in range(4):
        services.register_player(tournament=tournament, player=PlayerFactory(name=f"R{n}"))
    for registration in tournament.registrations.all():
        services.check_in_registration(registration=registration)
    pairs.draw_pairs(tournament=tournament, seed=2)
    services.start_tournament(tournament=tournament)
    assert draw.draw_round(tournament=tournament, seed=1).cost["kind"] == "round_robin"


def test_the_api_changes_the_pairing_as_the_console_does(club_a: Any, organiser: Any) -> None:
    tournament = pairs_tournament(club_a, players=4)
    client = client_for(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    reply = client.patch(url, {"round_robin": True}, format="json")
    assert reply.status_code == 200 and reply.json()["round_robin"] is True
    tournament.refresh_from_db()
    assert tournament.round_robin and not tournament.home_and_away
    reply = client.patch(url, {"round_robin": False, "swiss": True}, format="json")
    assert reply.status_code == 200
    tournament.refresh_from_db()
    assert tournament.swiss and not tournament.round_robin


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"home_and_away": True}, "home_and_away"),  # it was echoed and ignored
        ({"round_robin": True, "swiss": True}, "round_robin"),
    ],
)
def test_a_pairing_that_cannot_be_played_is_refused_in_words(
    club_a: Any, organiser: Any, options: dict[str, bool], field: str
) -> None:
    reply = new_tournament(organiser, club_a, **options)
    assert reply.status_code == 400
    body = reply.json()
    assert body["code"] == "invalid" and field in body and body["detail"]
    assert not Tournament.objects.filter(club=club_a).exists()


def test_a_round_robin_is_for_fixed_pairs(club_a: Any, organiser: Any) -> None:
    reply = new_tournament(organiser, club_a, format="individual", round_robin=True)
    assert reply.status_code == 400 and "round_robin" in reply.json()


# --- 5. one order of a pair's players ------------------------------------------------------


def test_the_pairs_page_and_the_api_list_a_pairs_players_in_the_order_of_its_name(
    club_a: Any, organiser: Any
) -> None:
    tournament = pairs_tournament(club_a, players=4)
    # players whose ids run against the order in which they are paired
    a, b = [r.player for r in tournament.registrations.order_by("-player_id")[:2]]
    reply = client_for(organiser).post(
        f"/api/tournaments/{tournament.pk}/pairs/", {"players": [a.pk, b.pk]}, format="json"
    )
    assert reply.status_code == 201
    assert reply.json()["name"] == f"{a.name} / {b.name}"
    assert [p["id"] for p in reply.json()["players"]] == [a.pk, b.pk]
    listed = client_for(organiser).get(f"/api/tournaments/{tournament.pk}/pairs/").json()
    assert [p["name"] for p in listed[0]["players"]] == [a.name, b.name]
    page = console(organiser).get(f"/console/tournaments/{tournament.pk}/pairs/")
    assert f"{a.name} &amp; {b.name}" in page.content.decode()
    c, d = [r.player for r in tournament.registrations.order_by("-player_id")[2:]]
    pairs.create_pair(tournament=tournament, players=[c, d])
    services.start_tournament(tournament=tournament)
    seats = {
        seat.player_id: seat.position
        for seat in draw.draw_round(tournament=tournament, seed=1).seats.all()
    }
    assert seats[a.pk] < seats[b.pk] and seats[c.pk] < seats[d.pk]  # A of "A / B" first


# --- 5. after the final -------------------------------------------------------------------


def tournament_after_the_final(club: Any) -> Tournament:
    """Two Swiss rounds, then finals of 4: semi-finals and the final round, all closed."""
    tournament = pairs_tournament(club, players=8, swiss=True)
    pairs.draw_pairs(tournament=tournament, seed=5)
    services.start_tournament(tournament=tournament)
    for number in (1, 2):
        play_round(draw.draw_round(tournament=tournament, seed=number))
    play_round(finals.start_finals(tournament=tournament, size=4), home_wins=False)
    final = finals.advance_finals(tournament=tournament)
    services.publish_round(round_=final)
    return tournament


def test_the_seating_says_which_table_is_the_final(club_a: Any) -> None:
    tournament = tournament_after_the_final(club_a)
    final = tournament.rounds.get(stage=Round.Stage.FINAL)
    for url in (f"/tournaments/{tournament.pk}/projector/", f"/tournaments/{tournament.pk}/"):
        html = Client().get(url).content.decode()
        if "finals-label" not in html:  # the tournament page links the round's seating
            html = Client().get(f"/tournaments/{tournament.pk}/rounds/{final.number}/").content
            html = html.decode()
        labels = dict(re.findall(r'data-slot="(\w+)">\s*<p class="finals-label">([^<]+)</p>', html))
        assert labels == {"F": "Finale", "P3": "Spiel um Platz 3"}, url


def test_after_the_final_the_console_offers_to_finish_the_tournament(
    club_a: Any, organiser: Any
) -> None:
    tournament = tournament_after_the_final(club_a)
    final = tournament.rounds.get(stage=Round.Stage.FINAL)
    web = console(organiser)
    page = web.get(f"/console/tournaments/{tournament.pk}/pairs/").content.decode()
    assert "/finish/" not in page  # the final is still being played
    services.close_round(round_=final, force=True)
    assert finals.finals_played(tournament)
    base = f"/console/tournaments/{tournament.pk}/"
    for url in (f"{base}pairs/", base):
        page = web.get(url).content.decode()
        assert "finals-next" not in page and f"/tournaments/{tournament.pk}/draw/" not in page
        assert f'action="/console/tournaments/{tournament.pk}/finish/"' in page
        assert "Finale und das Spiel um Platz 3 sind gespielt" in page
    finished = web.post(f"/console/tournaments/{tournament.pk}/finish/", {"confirm": "on"})
    assert finished.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    page = web.get(f"/console/tournaments/{tournament.pk}/pairs/").content.decode()
    assert "/finish/" not in page and "finals-next" not in page
