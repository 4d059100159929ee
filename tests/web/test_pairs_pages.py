"""The console and public pages of onboarding, pairs, finals and seasons: other clubs'
organisers get 404 and change nothing, anonymous visitors are sent to the login; the
invitation link works once; the club page shows the season table as computed by hand,
and its CSV."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.factories import PlayerFactory, UserFactory
from tests.support.clients import Client
from tournaments.clubs import services as clubs
from tournaments.clubs.models import Club, OrganiserInvitation, Season
from tournaments.events import services
from tournaments.events.models import Team, Tournament
from tournaments.pairs import services as pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs_event(club_a: Club, organiser: Any) -> Tournament:
    tournament = services.create_tournament(
        club=club_a, name="Paare", slug="paare", format=Tournament.Format.PAIRS
    )
    for _ in range(4):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    return tournament


def test_rival_and_anonymous_cannot_touch_pairs_or_club(
    pairs_event: Tournament, club_a: Club, rival: Client
) -> None:
    team = pairs.create_pair(
        tournament=pairs_event, players=[r.player for r in pairs_event.registrations.all()[:2]]
    )
    before = (Team.objects.count(), OrganiserInvitation.objects.count(), Season.objects.count())
    for client, expected in ((rival, 404), (Client(), 302)):
        pk = pairs_event.pk
        answers = [
            client.get(f"/console/tournaments/{pk}/pairs/"),
            client.post(f"/console/tournaments/{pk}/pairs/draw/", {"method": "cards"}),
            client.post(f"/console/tournaments/{pk}/pairs/finals/", {"size": "4"}),
            client.post(f"/console/pairs/{team.pk}/rename/", {"name": "X"}),
            client.post(f"/console/pairs/{team.pk}/dissolve/"),
            client.get(f"/console/clubs/{club_a.pk}/"),
            client.post(f"/console/clubs/{club_a.pk}/invite/"),
            client.post(
                f"/console/clubs/{club_a.pk}/",
                {
                    "name": "S",
                    "starts_on": "2025-01-01",
                    "ends_on": "2025-12-31",
                    "min_evenings": 1,
                },
            ),
        ]
        assert [a.status_code for a in answers] == [expected] * len(answers)
    after = (Team.objects.count(), OrganiserInvitation.objects.count(), Season.objects.count())
    assert after == before and Team.objects.get(pk=team.pk).name == team.name


def test_organiser_draws_pairs_and_invites_by_link(
    pairs_event: Tournament, club_a: Club, web: Client
) -> None:
    response = web.post(f"/console/tournaments/{pairs_event.pk}/pairs/draw/", {"method": "cards"})
    assert response.status_code == 302
    assert pairs_event.teams.count() == 2
    page = web.get(f"/console/tournaments/{pairs_event.pk}/pairs/")
    assert page.status_code == 200 and "2 Paare" in page.content.decode()

    web.post(f"/console/clubs/{club_a.pk}/invite/")
    club_page = web.get(f"/console/clubs/{club_a.pk}/").content.decode()
    link = club_page.split('id="invitation-url"')[1].split(">")[1].split("<")[0]
    path = link.split("testserver")[1]
    newcomer = UserFactory(username="neu")
    browser = Client()
    assert browser.get(path).status_code == 200
    browser.force_login(newcomer)
    assert browser.post(path).status_code == 302
    assert club_a.organisers.filter(pk=newcomer.pk).exists()
    again = Client()
    again.force_login(UserFactory(username="spaet"))
    again.post(path)
    assert not club_a.organisers.filter(username="spaet").exists()


def test_signup_page_creates_the_account_and_leads_to_the_new_club() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "anna",
            "email": "a@example.org",
            "password1": "Kreuz-Bube-77",
            "password2": "Kreuz-Bube-77",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/console/clubs/new/"
    response = client.post("/console/clubs/new/", {"name": "KC Schellen Ass", "city": "Lindau"})
    assert response.status_code == 302
    club = Club.objects.get(slug="kc-schellen-ass")
    assert club.city == "Lindau" and club.organisers.get().username == "anna"


def evening(club: Club, season: Season, slug: str, points: dict[Any, int]) -> Tournament:
    """A finished evening whose standings give each player ``points`` (by a fixed bye)."""
    tournament = services.create_tournament(club=club, name=slug, slug=slug, season=season)
    for player in points:
        services.register_player(tournament=tournament, player=player)
    services.start_tournament(tournament=tournament)
    services.finish_tournament(tournament=tournament)
    return tournament


def test_club_page_season_table_equals_a_hand_computation(
    club_a: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    season = clubs.create_season(
        club=club_a,
        name="Saison 2025",
        starts_on=date(2025, 1, 1),
        ends_on=date(2025, 12, 31),
        best_of=2,
        min_evenings=2,
    )
    anna, bernd, clara = (PlayerFactory(name=n) for n in ("Anna", "Bernd", "Clara"))
    scores = {"e1": {anna: 6, bernd: 4, clara: 8}, "e2": {anna: 2, bernd: 4}, "e3": {anna: 4}}
    tournaments = {slug: evening(club_a, season, slug, points) for slug, points in scores.items()}
    by_id = {tournaments[s].pk: {p.pk: v for p, v in pts.items()} for s, pts in scores.items()}
    monkeypatch.setattr(
        "tournaments.results.seasons.evening_points", lambda tournament: by_id[tournament.pk]
    )
    # By hand: Anna best two of 6, 2, 4 = 10; Bernd 4 + 4 = 8; Clara one evening: unranked.
    page = Client().get(f"/clubs/{club_a.slug}/").content.decode()
    table = page.split('class="data season-table"')[1].split("</table>")[0]
    rows = [r.split("</tr>")[0] for r in table.split("<tr")[2:]]
    assert ["Anna" in rows[0], "Bernd" in rows[1], "Clara" in rows[2]] == [True] * 3
    assert "<b>10</b>" in rows[0] and "<b>8</b>" in rows[1] and "<b>8</b>" in rows[2]
    assert 'class="rank">–' in rows[2]
    csv = Client().get(f"/clubs/{club_a.slug}/seasons/{season.pk}/table.csv").content.decode()
    # one column per evening (e1, e2, e3), then the evenings that counted (best 2)
    lines = csv.splitlines()
    assert lines[0].split(";")[5:] == ["1: e1", "2: e2", "3: e3", "Gewertete Abende"]
    assert lines[1:] == [
        "1;Anna;3;10;6;6;2;4;1 3",
        "2;Bernd;2;8;4;4;4;;1 2",
        ";Clara;1;8;8;8;;;1",
    ]
    season_page = Client().get(f"/clubs/{club_a.slug}/seasons/{season.pk}/").content.decode()
    assert f"/clubs/{club_a.slug}/seasons/{season.pk}/table.csv" in season_page
