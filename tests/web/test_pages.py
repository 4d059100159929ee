"""Every web page for every role: anonymous visitors, the club's organiser, another club's
organiser and table tablets with a valid, wrong, replaced or expired code. Each test
asserts the status, what the page shows and, for commands, the database afterwards."""

from __future__ import annotations

import html
import json
import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django.utils.translation import override

from games import engine
from games.engine import Code
from games.models import DealVersion
from tests.conftest import Event, client_for
from tests.factories import PlayerFactory, summary_record
from tests.support.clients import Client
from tournaments.clubs.models import Season
from tournaments.common import engine_messages
from tournaments.deals.selectors import dealer_after
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Match, Registration, Round, Team, Tournament
from tournaments.results.models import StandingsSnapshot
from tournaments.web.console import check_in_token

pytestmark = pytest.mark.django_db


def enter(event: Event, number: int, **record: Any) -> None:
    device = client_for(device_code=event.code1)
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        summary_record(dealer=(number - 1) % 4, **record),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201, response.content


def text(response: Any) -> str:
    return response.content.decode()


# --- public pages -----------------------------------------------------------------------


def public_urls(event: Event) -> list[str]:
    t = event.tournament
    return [
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/rounds/1/",
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/standings/table/",
        f"/tournaments/{t.pk}/projector/",
    ]


def test_public_pages_of_a_public_tournament_for_anonymous(event: Event, client: Client) -> None:
    for url in ["/", *public_urls(event), f"/clubs/{event.club.slug}/"]:
        response = client.get(url)
        assert response.status_code == 200, url
    home = text(client.get("/"))
    assert "Herbstturnier" in home and "KC Herzbube" in home
    seating = text(client.get(f"/tournaments/{event.tournament.pk}/rounds/1/"))
    for seat in event.table1.seats.select_related("player"):
        assert seat.player.name in seating
    assert "Tisch 2" in seating


def test_private_tournament_is_hidden_from_anonymous_and_other_clubs(
    event: Event, client: Client, web: Client, rival: Client
) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(is_public=False)
    for url in public_urls(event):
        assert client.get(url).status_code == 404, url
        assert rival.get(url).status_code == 404, url
        assert web.get(url).status_code == 200, url
    assert "Herbstturnier" not in text(client.get("/"))


def test_draft_round_is_seen_by_its_organiser_only(
    event: Event, client: Client, web: Client, rival: Client
) -> None:
    services.close_round(round_=event.round, force=True)
    draft = draw.draw_round(tournament=event.tournament, seed=3)
    draft.refresh_from_db()
    assert draft.status == Round.Status.DRAFT
    url = f"/tournaments/{event.tournament.pk}/rounds/2/"
    assert client.get(url).status_code == 404
    assert rival.get(url).status_code == 404
    assert web.get(url).status_code == 200


def test_standings_show_results_after_a_deal(event: Event, client: Client) -> None:
    url = f"/tournaments/{event.tournament.pk}/standings/table/"
    before = text(client.get(url))
    assert "Noch keine Ergebnisse" in before
    assert set(re.findall(r'data-played="(\d+)"', before)) == {"0"}
    enter(event, 1, team0_points=64)  # team 1 (seats 1 and 3) makes its Orgi
    body = text(client.get(url))
    assert "Noch keine Ergebnisse" not in body
    seats = {s.position: s.player for s in event.table1.seats.select_related("player")}
    rows = re.findall(r'data-entrant="(\d+)"', body)
    assert {int(r) for r in rows[:2]} == {seats[1].pk, seats[3].pk}
    assert 'hx-trigger="every 3s"' in body


def test_standings_prefer_an_up_to_date_snapshot(event: Event, client: Client) -> None:
    from tournaments.results.models import StandingsSnapshot

    player = event.table1.seats.first().player
    event.tournament.refresh_from_db()
    StandingsSnapshot.objects.update_or_create(
        tournament=event.tournament,
        defaults={
            "computed_version": event.tournament.results_version,
            "data": {
                "rows": [
                    {
                        "rank": 1,
                        "entrant": player.pk,
                        "played": 9,
                        "won": 9,
                        "drawn": 0,
                        "lost": 0,
                        "byes": 0,
                        "tournament_points": 18,
                        "point_difference": 77,
                        "augen": 99,
                        "buchholz": 0,
                    }
                ]
            },
        },
    )
    body = text(client.get(f"/tournaments/{event.tournament.pk}/standings/table/"))
    assert player.name in body and "<b>18</b>" in body


def test_standings_columns_follow_the_chain_and_mark_the_decider(
    event: Event, client: Client
) -> None:
    a, b = (s.player for s in event.table1.seats.order_by("position")[:2])
    event.tournament.refresh_from_db()
    row = {
        "played": 1,
        "won": 1,
        "drawn": 0,
        "lost": 0,
        "byes": 0,
        "tournament_points": 2,
        "games_won": 1,
        "augen": 10,
        "buchholz": 0,
        "head_to_head": 0,
    }
    StandingsSnapshot.objects.update_or_create(
        tournament=event.tournament,
        defaults={
            "computed_version": event.tournament.results_version,
            "data": {
                "tiebreaks": ["tournament_points", "point_difference", "augen"],
                "rows": [
                    {
                        **row,
                        "rank": 1,
                        "entrant": a.pk,
                        "point_difference": 7,
                        "decided_by": "point_difference",
                    },
                    {**row, "rank": 2, "entrant": b.pk, "point_difference": 3, "decided_by": None},
                ],
            },
        },
    )
    body = text(client.get(f"/tournaments/{event.tournament.pk}/standings/table/"))
    headers = re.findall(r'<th class="num[^"]*" title="[^"]*">([^<]+)</th>', body)
    assert headers == ["Pkt.", "Diff.", "Augen"]
    assert re.findall(r'<td class="num[^"]* decides"[^>]*>(\d+)</td>', body) == ["7"]


def test_player_page_shows_results_and_rank_chart(event: Event, client: Client) -> None:
    enter(event, 1, team0_points=64)
    seat = event.table1.seats.select_related("player").get(position=1)
    body = text(client.get(f"/players/{seat.player.pk}/"))
    assert seat.player.name in body
    assert "gewonnen" in body
    assert "<polyline" in body and "Platzierung über die Runden" in body
    nobody = PlayerFactory()
    assert client.get(f"/players/{nobody.pk}/").status_code == 404


def test_club_page_shows_all_time_table_and_boss(event: Event, client: Client) -> None:
    for number in range(1, 5):
        enter(event, number, team0_points=64)  # team 1 wins every deal of table 1
    services.close_round(round_=event.round, force=True)
    services.finish_tournament(tournament=event.tournament)
    body = text(client.get(f"/clubs/{event.club.slug}/"))
    winners = {
        s.player.name for s in event.table1.seats.select_related("player") if s.position % 2 == 1
    }
    assert "Ewige Tabelle" in body and "KlammernBoss" in body
    boss = re.search(r'<b><a href="/players/\d+/">([^<]+)</a></b>', body).group(1)
    assert boss in winners
    assert client.get("/clubs/nowhere/").status_code == 404


def test_league_table_of_a_season(club_a: Any, client: Client) -> None:
    season = Season.objects.create(
        club=club_a, name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    tournament = services.create_tournament(
        club=club_a, name="Liga", slug="liga", format=Tournament.Format.LEAGUE, season=season
    )
    for name in ("Herz-Asse", "Schellen-Buben"):
        Team.objects.create(tournament=tournament, name=name)
    body = text(client.get(f"/clubs/{club_a.slug}/seasons/{season.pk}/"))
    assert "Ligatabelle" in body and "Herz-Asse" in body and "Schellen-Buben" in body


def test_english_is_switchable(event: Event, client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = text(client.get(f"/tournaments/{event.tournament.pk}/standings/"))
    assert "Standings" in body and "Rangliste" not in body
    assert 'lang="en"' in body


# --- table tablet -------------------------------------------------------------------------


def tablet_config(response: Any) -> dict[str, Any]:
    raw = re.search(
        r'<script id="tablet-config" type="application/json">(.*?)</script>', text(response), re.S
    ).group(1)
    return json.loads(raw)


def test_tablet_page_for_a_valid_code(event: Event, client: Client) -> None:
    enter(event, 1)
    response = client.get(f"/t/{event.code1}/")
    assert response.status_code == 200
    config = tablet_config(response)
    seats = [
        s.player.name for s in event.table1.seats.order_by("position").select_related("player")
    ]
    assert config["matchId"] == event.match1.pk and config["code"] == event.code1
    assert config["seats"] == seats
    assert config["deals"] == [{"number": 1, "dealer": 0, "thrownIn": False}]
    assert config["errorTemplates"]["impossible_points"].startswith("Die Kartenpunkte")
    body = text(response)
    assert "Tisch 1" in body and "Runde 1" in body and "Spiel speichern" in body
    assert "Nächster Geber" in body and seats[1] in body
    state = client.get(f"/t/{event.code1}/state/")
    assert state.status_code == 200 and "data-deals=" in text(state)
    deals = re.search(r'data-deals="([^"]*)"', text(state))
    assert deals and json.loads(html.unescape(deals.group(1))) == config["deals"]


@pytest.mark.parametrize("how", ["wrong", "replaced", "expired", "finished"])
def test_tablet_page_refuses_unusable_codes(event: Event, client: Client, how: str) -> None:
    code = event.code1
    if how == "wrong":
        code = "ZZZZZZZZ"
    elif how == "replaced":
        services.issue_device_code(table=event.table1)
    elif how == "expired":
        DeviceCredential.objects.filter(table=event.table1).update(
            expires_at=timezone.now() - timedelta(minutes=1)
        )
    else:  # a closed round's code still sends late deals; a finished tournament's not
        services.close_round(round_=event.round, force=True)
        services.finish_tournament(tournament=event.tournament)
    for url in (f"/t/{code}/", f"/t/{code}/state/"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Dieser Tischcode funktioniert nicht" in text(response)
        assert "tablet-config" not in text(response)


def test_a_closed_rounds_tablet_still_opens(event: Event, client: Client) -> None:
    """A tablet that was offline at the close still sends what it holds (its code lives
    until it expires, see ``DeviceCredentialQuerySet.usable``)."""
    services.close_round(round_=event.round, force=True)
    for url in (f"/t/{event.code1}/", f"/t/{event.code1}/state/"):
        assert client.get(url).status_code == 200


def test_tablet_shows_confirmation_when_finished(event: Event, client: Client) -> None:
    for number in range(1, 5):
        enter(event, number)
    body = text(client.get(f"/t/{event.code1}/state/"))
    assert 'data-confirm-team="0"' in body and 'data-confirm-team="1"' in body
    services.confirm_match(match=event.match1, team=0)
    body = text(client.get(f"/t/{event.code1}/state/"))
    assert 'data-confirm-team="0"' not in body and 'data-confirm-team="1"' in body


def test_next_dealer_rotates_except_after_thrown_in() -> None:
    klammern, three = engine.PRESETS["klammern"], engine.PRESETS["klammern-3"]
    assert dealer_after([], klammern) == 0
    assert dealer_after([{"dealer": 0, "contract": {"kind": "orgi"}}], klammern) == 1
    assert dealer_after([{"dealer": 3, "contract": {"kind": "besser"}}], klammern) == 0
    assert dealer_after([{"dealer": 2, "contract": {"kind": "thrown_in"}}], klammern) == 2
    assert dealer_after([{"dealer": 2, "contract": {"kind": "thrown_in"}}], three) == 0


def test_every_engine_error_code_has_a_german_template() -> None:
    with override("de"):
        templates = engine_messages.error_templates()
    assert {str(code) for code in Code} <= set(templates)
    with override("en"):
        english = engine_messages.error_templates()
    # English pages too name seats by the people's numbering (test_evening_findings.py)
    assert set(english) == set(templates) - engine_messages.ENGINE_WORDS_IN_ENGLISH
    with override("de"):
        for template in templates.values():
            assert not re.search(r"[A-Za-z]+ [a-z]+ not ", template), template  # translated


# --- organiser console --------------------------------------------------------------------


def console_urls(event: Event) -> list[str]:
    t, r, m = event.tournament.pk, event.round.pk, event.match1.pk
    return [
        f"/console/tournaments/{t}/",
        f"/console/tournaments/{t}/players/qr/",
        f"/console/tournaments/{t}/results.csv",
        f"/console/tournaments/{t}/standings.csv",
        f"/console/rounds/{r}/",
        f"/console/rounds/{r}/progress/",
        f"/console/rounds/{r}/seating/",
        f"/console/matches/{m}/",
        f"/console/matches/{m}/deals/1/",
    ]


def test_console_needs_a_login(event: Event, client: Client) -> None:
    enter(event, 1)
    for url in ["/console/", *console_urls(event)]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    assert client.get("/accounts/login/").status_code == 200


def test_console_pages_for_the_organiser(event: Event, web: Client) -> None:
    enter(event, 1)
    for url in ["/console/", *console_urls(event)]:
        assert web.get(url).status_code == 200, url
    assert "Herbstturnier" in text(web.get("/console/"))
    progress = text(web.get(f"/console/rounds/{event.round.pk}/progress/"))
    assert re.search(r'data-table="1">.*?data-bind="entered">1<', progress, re.S)
    assert 'hx-trigger="every 4s"' in progress


def test_console_hides_other_clubs(event: Event, rival: Client) -> None:
    enter(event, 1)
    assert "Herbstturnier" not in text(rival.get("/console/"))
    for url in console_urls(event):
        assert rival.get(url).status_code == 404, url
    registration = event.tournament.registrations.first()
    assert rival.post(f"/console/registrations/{registration.pk}/withdraw/").status_code == 404
    assert rival.post(f"/console/rounds/{event.round.pk}/close/").status_code == 404
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.PUBLISHED


def test_create_tournament_and_register_players(club_a: Any, web: Client) -> None:
    response = web.post(
        "/console/",
        {
            "club": club_a.pk,
            "name": "Sommer Cup",
            "format": "individual",
            "match_mode": "deals",
            "deals_per_match": 6,
            "liga_target": 51,
            "is_public": "on",
        },
    )
    tournament = Tournament.objects.get(name="Sommer Cup")
    assert (
        response.status_code == 302
        and response["Location"] == f"/console/tournaments/{tournament.pk}/"
    )
    assert (tournament.slug, tournament.deals_per_match, tournament.club) == (
        "sommer-cup",
        6,
        club_a,
    )
    web.post(f"/console/tournaments/{tournament.pk}/register/", {"name": "Anna", "check_in": "on"})
    web.post(f"/console/tournaments/{tournament.pk}/register/", {"name": "Bernd"})
    statuses = dict(tournament.registrations.values_list("player__name", "status"))
    assert statuses == {"Anna": "checked_in", "Bernd": "registered"}
    again = web.post(
        f"/console/tournaments/{tournament.pk}/register/", {"name": "anna"}, follow=True
    )
    assert "Anna ist schon angemeldet" in text(again)
    assert tournament.registrations.count() == 2


def test_create_tournament_form_errors_are_shown(club_a: Any, web: Client) -> None:
    response = web.post("/console/", {"club": club_a.pk, "name": "", "deals_per_match": 0})
    assert response.status_code == 200
    assert Tournament.objects.count() == 0
    assert "errorlist" in text(response)


def test_check_in_and_withdraw_with_htmx(event: Event, web: Client) -> None:
    registration = event.tournament.registrations.first()
    response = web.post(
        f"/console/registrations/{registration.pk}/withdraw/", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert text(response).lstrip().startswith(f'<tr id="reg-{registration.pk}"')
    assert "Zurückgezogen" in text(response)
    assert Registration.objects.get(pk=registration.pk).status == Registration.Status.WITHDRAWN
    response = web.post(
        f"/console/registrations/{registration.pk}/check-in/", HTTP_HX_REQUEST="true"
    )
    assert "Anwesend" in text(response)
    assert Registration.objects.get(pk=registration.pk).status == Registration.Status.CHECKED_IN


def test_check_in_by_scanning_a_player_qr(
    event: Event, web: Client, rival: Client, client: Client
) -> None:
    registration = event.tournament.registrations.first()
    services.withdraw_registration(registration=registration)
    cards = text(web.get(f"/console/tournaments/{event.tournament.pk}/players/qr/"))
    token = check_in_token(registration)
    assert cards.count("<svg") >= 7
    url = f"/console/check-in/{token}/"
    assert client.get(url).status_code == 302  # the camera opens it; log in first
    assert rival.get(url).status_code == 404
    assert web.get("/console/check-in/forged-token/").status_code == 404
    page = web.get(url)
    assert page.status_code == 200 and registration.player.name in text(page)
    assert Registration.objects.get(pk=registration.pk).status == Registration.Status.WITHDRAWN
    done = web.post(url)
    assert "ist eingecheckt" in text(done)
    assert Registration.objects.get(pk=registration.pk).status == Registration.Status.CHECKED_IN


def test_round_from_draw_to_close(event: Event, web: Client) -> None:
    services.close_round(round_=event.round, force=True)
    response = web.post(f"/console/tournaments/{event.tournament.pk}/draw/")
    round_ = Round.objects.get(tournament=event.tournament, number=2)
    assert response["Location"] == f"/console/rounds/{round_.pk}/"
    page = text(web.get(f"/console/rounds/{round_.pk}/"))
    assert "Entwurf der Sitzordnung" in page and "Kosten dieser Auslosung" in page
    web.post(f"/console/rounds/{round_.pk}/redraw/")
    round_.refresh_from_db()
    assert round_.attempt == 2 and round_.status == Round.Status.DRAFT
    web.post(f"/console/rounds/{round_.pk}/publish/")
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
    refused = web.post(f"/console/rounds/{round_.pk}/close/", follow=True)
    assert "Nicht alle Tische sind fertig" in text(refused)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
    web.post(f"/console/rounds/{round_.pk}/close/", {"force": "on"})
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_table_cards_issue_working_codes(event: Event, web: Client, client: Client) -> None:
    response = web.post(f"/console/rounds/{event.round.pk}/table-cards/", follow=True)
    assert response.status_code == 200
    codes = re.findall(r'<span class="code">([A-Z0-9]{8})</span>', text(response))
    assert len(codes) == 2 and text(response).count("<svg") == 2
    assert client.get(f"/t/{codes[0]}/").status_code == 200
    assert client.get(f"/t/{event.code1}/").status_code == 404  # the old card stops working
    seating = text(web.get(f"/console/rounds/{event.round.pk}/seating/"))
    assert 'data-action="print"' in seating


def test_deal_correction_page_shows_history(event: Event, web: Client) -> None:
    enter(event, 1, team0_points=64)
    services_correct = __import__(
        "tournaments.deals.services", fromlist=["correct_deal"]
    ).correct_deal
    services_correct(
        match=event.match1,
        number=1,
        expected_version=1,
        record=summary_record(team0_points=100),
        reason="Punkte vertauscht",
    )
    body = text(web.get(f"/console/matches/{event.match1.pk}/deals/1/"))
    assert "Version 2" in body and "Version 1" in body and "Punkte vertauscht" in body
    config = json.loads(
        re.search(r'id="deal-config" type="application/json">(.*?)</script>', body, re.S).group(1)
    )
    assert config["version"] == 2 and config["record"]["card_points"] == [100, 64]
    # the form PUTs through the API with the organiser's session and If-Match
    web_api = client_for(event.tournament.club.organisers.first())
    response = web_api.put(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(team0_points=90),
        format="json",
        HTTP_IF_MATCH='"2"',
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert response.status_code == 200
    assert DealVersion.objects.get(deal__match=event.match1, is_current=True).points_0 == 90


def test_csv_exports(event: Event, web: Client) -> None:
    enter(event, 1, team0_points=64)
    results = text(web.get(f"/console/tournaments/{event.tournament.pk}/results.csv"))
    lines = results.lstrip("\ufeff").strip().splitlines()
    assert lines[0].startswith("Runde;Tisch;Spiel;Version")
    assert lines[1].split(";")[:4] == ["1", "1", "1", "1"] and ";gemacht;64;100;" in lines[1]
    standings = text(web.get(f"/console/tournaments/{event.tournament.pk}/standings.csv"))
    rows = standings.lstrip("\ufeff").strip().splitlines()
    assert rows[0].startswith("Rang;Name") and len(rows) == 1 + 8  # every entrant
    assert rows[1].split(";")[2:4] == ["1", "1"]  # played 1, won 1
    assert Match.objects.count() == 2
