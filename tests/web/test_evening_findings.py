""" "A club evening without a flaw", the findings of the whole-evening journey, each in the
console's, the tablet's or a player's HTML (the journey itself is
``test_whole_evening.py``)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.utils.translation import override

from tests.conftest import Event, client_for
from tests.factories import PlayerFactory, summary_record
from tests.support.clients import Client
from tournaments.clubs.models import Club
from tournaments.common import engine_messages
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Match, Registration, Tournament
from tournaments.events.selectors import match_scores

pytestmark = pytest.mark.django_db


def speaking(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


# --- a refused command changes nothing --------------------------------------------------------


def test_a_refused_first_draw_leaves_the_tournament_a_draft(web: Client, club_a: Club) -> None:
    tournament = services.create_tournament(club=club_a, name="Abend", slug="abend")
    for _ in range(3):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    response = speaking(web, "de").post(f"/console/tournaments/{tournament.pk}/draw/", follow=True)
    assert "Zu wenige eingecheckte Spieler" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.rules_locked is False and tournament.locked_at is None
    assert not tournament.rounds.exists()
    assert "Entwurf" in response.content.decode()


# --- the console names the waiting tables before the close ------------------------------------


def table_row(body: str, table: int, *, within: str = 'id="progress"') -> str:
    part = body[body.index(within) :]
    start = part.index(f'data-table="{table}"')
    return part[start : part.index("</tr>" if "progress" in within else "</li>", start)]


@pytest.mark.parametrize(
    ("language", "waiting", "contact", "override"),
    [
        ("de", "3 Einträge warten auf dem Tablet", "letzter Kontakt", "Abschließen, obwohl"),
        ("en", "3 entries waiting on the tablet", "last contact", "Close even though"),
    ],
)
def test_round_page_and_close_form_name_the_waiting_table(
    web: Client, event: Event, language: str, waiting: str, contact: str, override: str
) -> None:
    credential = DeviceCredential.objects.usable().get(table=event.table2)
    services.record_device_contact(credential=credential, queued=3)
    client = speaking(web, language)
    body = client.get(f"/console/rounds/{event.round.pk}/").content.decode()
    progress = table_row(body, 2)
    assert waiting in progress and contact in progress
    assert 'data-bind="score"' in progress
    close_form = body[
        body.index('id="close-form"') : body.index("</form>", body.index('id="close-form"'))
    ]
    blockers = table_row(close_form, 2, within='id="close-blockers"')
    assert waiting in blockers and contact in blockers
    assert 'data-table="1"' in close_form  # table 1 has not finished either
    assert 'name="force"' in close_form and override in close_form
    # the partial the page polls carries both, the close form's list out of band
    partial = client.get(f"/console/rounds/{event.round.pk}/progress/").content.decode()
    assert waiting in table_row(partial, 2)
    assert 'id="close-blockers" hx-swap-oob="true"' in partial
    # closing without the override is refused by name, and the round stays open
    refused = client.post(f"/console/rounds/{event.round.pk}/close/", follow=True)
    text = refused.content.decode()
    assert {"de": "auf dem Tablet warten: 2", "en": "waiting on the tablet: 2"}[language] in text
    event.round.refresh_from_db()
    assert event.round.status == "published"


# --- confirming shows the result that is confirmed ----------------------------------------------


def enter(event: Event, number: int, team0_points: int) -> None:
    device = client_for(device_code=event.code1)
    response = device.post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        summary_record(dealer=(number - 1) % 4, team0_points=team0_points),
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    ("language", "heading", "big", "game"),
    [
        ("de", "Ihr bestätigt dieses Ergebnis", "groß", "Orgi"),
        ("en", "You confirm this result", "big", "Orgi"),
    ],
)
def test_the_tablet_shows_the_summary_before_the_confirm_buttons(
    event: Event, client: Client, language: str, heading: str, big: str, game: str
) -> None:
    body = speaking(client, language).get(f"/t/{event.code1}/state/").content.decode()
    assert "confirm-summary" not in body  # nothing to confirm while the match is open
    for number, points in enumerate([100, 100, 30, 100], start=1):
        enter(event, number, points)
    body = speaking(client, language).get(f"/t/{event.code1}/state/").content.decode()
    summary = body[body.index('id="confirm-summary"') : body.index('data-confirm-team="0"')]
    assert heading in summary
    # 4 deals: three made by the declarer (seat 1, 2 and 0/2 team alternately) give small
    # points; the score is in big and small points, as the console shows it
    scores = match_scores(Match.objects.filter(pk=event.match1.pk))[event.match1.pk]
    assert f"{scores['big'][0]} : {scores['big'][1]}</b> {big}" in summary
    assert f"{scores['small'][0]} : {scores['small'][1]}" in summary
    assert summary.count("data-deal=") == 4 and game in summary
    assert ">100</td>" in summary and ">134</td>" in summary


# --- engine messages name seats 1-4 (or the players) in both languages --------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_engine_error_with_a_seat_has_a_template_in_every_language(language: str) -> None:
    """The engine's words say ``seat 0``-``seat 3``: no page may show them. Each code
    whose params name a seat or a card has a template the browser fills with the
    players' names (``Seat 1``-``Seat 4`` without names), English pages included."""
    with override(language):
        templates = engine_messages.error_templates()
    seated = {
        *("wrong_card_count", "duplicate_card", "card_not_in_hand", "illegal_play"),
        *("revoke_wrong_seat", "revoke_not_illegal", "not_a_meld", "meld_not_held"),
        *("meld_not_maximal", "duplicate_meld", "bella_not_held", "contract_mismatch"),
    }
    assert seated <= set(templates)
    rules = {"follow_suit", "trump", "overtrump", "no_undertrump", "partner_no_undertrump"}
    assert {f"illegal_play.{rule}" for rule in rules} <= set(templates)
    for template in templates.values():
        assert not re.search(r"\bseat [0-3]\b", template, re.I), template
    with override(language):
        seat = engine_messages.ui_strings()["seat"]
    assert seat % {"n": 1} == {"de": "Platz 1", "en": "Seat 1"}[language]


# --- players' personal links -------------------------------------------------------------------


def registration_of(event: Event, position: int = 1) -> Registration:
    player = event.table1.seats.get(position=position).player
    return Registration.objects.get(tournament=event.tournament, player=player)


@pytest.mark.parametrize(
    ("language", "where", "partner"),
    [("de", "Tisch 1, Platz 2", "Partner"), ("en", "Table 1, seat 2", "Partner")],
)
def test_the_personal_page_shows_table_seat_and_results(
    event: Event, client: Client, language: str, where: str, partner: str
) -> None:
    registration = registration_of(event, 1)
    assert len(registration.link_token) >= 20
    enter(event, 1, 30)  # seat 1's team (1 and 3) takes 134 of 164
    response = speaking(client, language).get(f"/p/{registration.link_token}/")
    assert response.status_code == 200 and response["X-Robots-Tag"].startswith("noindex")
    body = response.content.decode()
    assert where in body
    mate = event.table1.seats.get(position=3).player.name
    assert f"{partner}: <b>{mate}</b>" in body
    results = body[body.index('id="my-results"') :]
    assert 'data-round="1"' in results and mate in results
    assert "self-check-in" not in body  # the organiser has not allowed it
    assert Client().get("/p/not-a-token/").status_code == 404


def test_the_player_card_carries_the_personal_link(event: Event, web: Client) -> None:
    registration = registration_of(event, 2)
    body = web.get(f"/console/tournaments/{event.tournament.pk}/players/qr/").content.decode()
    assert f"/p/{registration.link_token}/" in body
    assert body.count("<svg") >= 2 * event.tournament.registrations.count()


def test_self_check_in_only_when_the_organiser_allows_it(
    club_a: Club, web: Client, client: Client
) -> None:
    tournament = services.create_tournament(club=club_a, name="Abend", slug="abend")
    registration = services.register_player(tournament=tournament, player=PlayerFactory())
    page = f"/p/{registration.link_token}/"
    speaking(client, "de")
    refused = client.post(f"{page}check-in/", follow=True).content.decode()
    assert "checkt der Organisator die Spieler ein" in refused
    registration.refresh_from_db()
    assert registration.status == Registration.Status.REGISTERED

    web.post(f"/console/tournaments/{tournament.pk}/allow-self-check-in/")
    tournament.refresh_from_db()
    assert tournament.self_check_in is True
    body = client.get(page).content.decode()
    assert 'id="self-check-in"' in body and "Check mich ein" in body
    done = client.post(f"{page}check-in/", follow=True).content.decode()
    assert "Du bist eingecheckt" in done and 'id="self-check-in"' not in done
    registration.refresh_from_db()
    assert registration.status == Registration.Status.CHECKED_IN

    services.withdraw_registration(registration=registration)
    client.post(f"{page}check-in/")
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN  # the organiser decides
    web.post(f"/console/tournaments/{tournament.pk}/stop-self-check-in/")
    tournament.refresh_from_db()
    assert tournament.self_check_in is False
