"""Issue 20, the evening findings of the outside testers (a whole club evening on phone
tablets), as the pages and the API answer them; what lives in JavaScript is in
``test_evening_issue20_browser.py``.

- a thrown-in deal is no planned deal on the tablet, in the console and in the API;
- the console's tablet column tells connected, done and offline apart, and the close
  box and the close message name tables whose tablet may hold entries;
- a match level on big and small points shows its Augen and who wins on them;
- an unknown rules preset is refused wholly in the caller's language; an empty
  tie-break chain is refused with a stable code;
- table cards of a closed round say why there are none;
- a tablet of a closed round shows the closed state only;
- the player's page keeps its token private without breaking the check-in form, and a
  failed CSRF check is a page of our own.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from tests.conftest import Event, client_for
from tests.factories import summary_record
from tests.support.clients import APIClient, Client
from tournaments.clubs.models import Club
from tournaments.events import services
from tournaments.events.models import DeviceCredential, Match, Registration, Tournament

pytestmark = pytest.mark.django_db


def speaking(client: Any, language: str) -> Any:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def post_deal(event: Event, number: int, record: dict[str, Any]) -> Any:
    device = client_for(device_code=event.code1)
    return device.post(
        f"/api/matches/{event.match1.pk}/deals/{number}/",
        record,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


def thrown_in(dealer: int) -> dict[str, Any]:
    return {
        "format": "klammern-deal/1",
        "dealer": dealer,
        "upcard": "7H",
        "contract": {"kind": "thrown_in"},
    }


def enter(event: Event, number: int, record: dict[str, Any]) -> None:
    response = post_deal(event, number, record)
    assert response.status_code == 201, response.content


def text(response: Any) -> str:
    return response.content.decode()


def progress_row(body: str, table: int) -> str:
    part = body[body.index('id="progress"') :]
    start = part.index(f'data-table="{table}"')
    return part[start : part.index("</tr>", start)]


def blocker_row(body: str, table: int) -> str:
    part = body[body.index('id="close-blockers"') :]
    start = part.index(f'data-table="{table}"')
    return part[start : part.index("</li>", start)]


# --- a thrown-in deal is no planned deal ----------------------------------------------------


@pytest.mark.parametrize(("language", "thrown"), [("de", "1 eingeworfen"), ("en", "1 thrown in")])
def test_a_thrown_in_deal_is_no_planned_deal_anywhere(
    event: Event, web: Client, client: Client, organiser: Any, language: str, thrown: str
) -> None:
    enter(event, 1, thrown_in(dealer=0))  # the same dealer deals again
    for number in (2, 3, 4):
        enter(event, number, summary_record(dealer=number - 2, team0_points=100))
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.OPEN  # 3 of 4 planned deals are played

    state = text(speaking(client, language).get(f"/t/{event.code1}/state/"))
    count = re.search(r'data-bind="deals-played">(.*?)</span>', state, re.S)
    assert count and count[1].split("·")[0].strip() == "3 / 4", count
    assert thrown in count[1]
    assert "confirm-summary" not in state and "data-confirm-team" not in state

    console = text(speaking(web, language).get(f"/console/rounds/{event.round.pk}/"))
    row = progress_row(console, 1)
    assert re.search(r'<b data-bind="entered">3</b> / 4', row)
    assert f"+ {thrown}" in row
    assert re.search(r"\(3 / 4 [^)]*\+ " + thrown, blocker_row(console, 1))

    api = client_for(organiser).get(f"/api/rounds/{event.round.pk}/progress/")
    first = next(r for r in api.json() if r["table"] == 1)
    assert (first["deals_entered"], first["deals_thrown_in"]) == (3, 1)
    assert first["deals_expected"] == 4 and first["status"] == "open"

    enter(event, 5, summary_record(dealer=3, team0_points=100))  # the fourth planned deal
    state = text(speaking(client, language).get(f"/t/{event.code1}/state/"))
    assert re.search(r'data-bind="deals-played">4 / 4 ·', state)
    assert "data-confirm-team" in state
    first = client_for(organiser).get(f"/api/rounds/{event.round.pk}/progress/").json()[0]
    assert (first["deals_entered"], first["deals_thrown_in"], first["status"]) == (
        4,
        1,
        "finished",
    )


# --- the console's tablet column tells the truth --------------------------------------------


def seen(event: Event, table: Any, *, ago: timedelta, queued: int | None = None) -> None:
    credential = DeviceCredential.objects.usable().get(table=table)
    services.record_device_contact(credential=credential, queued=queued)
    DeviceCredential.objects.filter(pk=credential.pk).update(last_seen_at=timezone.now() - ago)


@pytest.mark.parametrize(
    ("language", "done", "offline", "connected", "maybe"),
    [
        ("de", "fertig", "offline", "verbunden", "Tablet offline: es hält vielleicht"),
        ("en", "done", "offline", "connected", "tablet offline: it may hold entries"),
    ],
)
def test_the_tablet_column_says_done_offline_or_connected(
    event: Event,
    web: Client,
    language: str,
    done: str,
    offline: str,
    connected: str,
    maybe: str,
) -> None:
    for number in range(1, 5):  # table 1 entered every deal, then closed the page
        enter(event, number, summary_record(dealer=number - 1, team0_points=100))
    seen(event, event.table1, ago=timedelta(minutes=10))
    seen(event, event.table2, ago=timedelta(seconds=5))  # table 2: open and in touch
    url = f"/console/rounds/{event.round.pk}/"
    body = text(speaking(web, language).get(url))
    assert re.search(rf'data-bind="tablet"><span class="badge is-ok"[^>]*>{done}<', body)
    assert f">{connected}<" in progress_row(body, 2)
    assert "nicht geöffnet" not in progress_row(body, 1)

    # table 2's tablet went offline a minute ago with its match open: not "connected"
    seen(event, event.table2, ago=timedelta(seconds=70))
    body = text(speaking(web, language).get(url))
    row = progress_row(body, 2)
    assert 'class="badge is-warn"' in row and f">{offline}<" in row
    assert f">{connected}<" not in row
    assert maybe in blocker_row(body, 2)
    assert "may hold" not in blocker_row(body, 1) and "vielleicht" not in blocker_row(body, 1)

    # a forced close names the table whose tablet may still hold entries
    closed = speaking(web, language).post(
        f"/console/rounds/{event.round.pk}/close/", {"force": "on"}, follow=True
    )
    message = re.search(r'<div class="message is-success"[^>]*>(.*?)</div>', text(closed), re.S)
    assert message and re.search(r"\b2\b", message[1]), message
    assert {"de": "nach dem Abschluss", "en": "after the close"}[language] in message[1]


def test_the_close_message_is_plain_when_no_tablet_holds_anything(
    event: Event, web: Client
) -> None:
    for match, code in ((event.match1, event.code1), (event.match2, event.code2)):
        device = client_for(device_code=code)
        for number in range(1, 5):
            response = device.post(
                f"/api/matches/{match.pk}/deals/{number}/",
                summary_record(dealer=number - 1, team0_points=100),
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert response.status_code == 201
        for team in (0, 1):
            assert device.post(f"/api/matches/{match.pk}/confirm/", {"team": team}).status_code
    closed = speaking(web, "en").post(f"/console/rounds/{event.round.pk}/close/", follow=True)
    assert '<div class="message is-success" role="status">The round is closed.</div>' in text(
        closed
    )


# --- level on big and small points: the Augen decide ----------------------------------------


#: 4 deals ending 0:0 big and 3:3 small: team 0 makes one (1:0), team 1 fails one (3:0),
#: team 0 fails one (3:2), team 1 makes one (3:3). Augen 10+16+0+4 : 6+0+16+12 = 30:34.
#: (declarer, team 0's card points); the deal passes clockwise from seat 0.
LEVEL_DEALS = [(0, 100), (1, 100), (2, 40), (3, 40)]


@pytest.mark.parametrize(
    ("language", "wins"), [("de", "gewinnt nach Augen"), ("en", "wins on Augen")]
)
def test_a_match_level_on_small_points_shows_its_augen_and_winner(
    event: Event, web: Client, client: Client, language: str, wins: str
) -> None:
    for number, (declarer, points) in enumerate(LEVEL_DEALS, start=1):
        record = summary_record(dealer=number - 1, declarer=declarer, team0_points=points)
        enter(event, number, record)
    event.match1.refresh_from_db()
    assert event.match1.status == Match.Status.FINISHED

    console = text(speaking(web, language).get(f"/console/rounds/{event.round.pk}/"))
    score = progress_row(console, 1)
    assert re.search(r"<b>0 : 0</b>", score) and "3 : 3" in score
    assert re.search(r'data-bind="augen"[^>]*>30 : 34 Augen<', score)
    assert re.search(rf'data-bind="augen-winner">\w+ 2 {wins}<', score), score

    state = text(speaking(client, language).get(f"/t/{event.code1}/state/"))
    summary = state[state.index('id="confirm-summary"') :]
    summary = summary[: summary.index("</div>", summary.index('data-bind="confirm-score"'))]
    assert re.search(r'data-bind="augen"[^>]*>30 : 34 Augen<', summary)
    team1 = " & ".join(
        s.player.name for s in event.table1.seats.select_related("player").order_by("position")
    ).split(" & ")
    winners = f"{team1[1]} &amp; {team1[3]}"
    assert f'data-bind="augen-winner">{winners} {wins}<' in summary


def test_no_augen_line_while_big_or_small_points_decide(event: Event, web: Client) -> None:
    enter(event, 1, summary_record(declarer=0, team0_points=100))
    console = text(web.get(f"/console/rounds/{event.round.pk}/"))
    assert 'data-bind="augen"' not in progress_row(console, 1)


# --- rules and tie-breaks are refused in the caller's language, with stable codes ----------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", "Es gibt kein Regelwerk klammern-bogus"),
        ("en", "There is no rules preset klammern-bogus"),
    ],
)
def test_an_unknown_preset_is_refused_wholly_in_the_callers_language(
    organiser_client: APIClient, club_a: Club, language: str, words: str
) -> None:
    response = organiser_client.post(
        "/api/tournaments/",
        {"club": club_a.pk, "name": "Abend", "slug": "abend", "rules_preset": "klammern-bogus"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "unknown_rules"
    assert body["detail"].startswith(words), body
    assert "klaverjas-rotterdam" in body["detail"]  # the known presets are named
    assert "unknown rules preset" not in body["detail"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"nonsense": True}, "Es gibt keine Regeloption nonsense"),
        ({"players": 3}, "Die Regeloption players ist durch das Regelwerk festgelegt"),
        ({"partner_exempt": "ja"}, "Die Regeloption partner_exempt hat einen Wert"),
    ],
)
def test_an_unknown_or_bad_option_is_refused_in_german(
    organiser_client: APIClient, club_a: Club, options: dict[str, Any], words: str
) -> None:
    response = organiser_client.post(
        "/api/tournaments/",
        {"club": club_a.pk, "name": "Abend", "slug": "abend", "rules_options": options},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "unknown_rules"
    assert response.json()["detail"].startswith(words), response.json()


def test_an_empty_tiebreak_chain_is_refused_with_a_stable_code(
    organiser_client: APIClient, club_a: Club
) -> None:
    created = organiser_client.post(
        "/api/tournaments/",
        {"club": club_a.pk, "name": "Abend", "slug": "abend", "tiebreaks": []},
        format="json",
    )
    assert created.status_code == 400 and created.json()["code"] == "empty_tiebreaks"
    assert not Tournament.objects.filter(slug="abend").exists()

    created = organiser_client.post(
        "/api/tournaments/", {"club": club_a.pk, "name": "Abend", "slug": "abend"}, format="json"
    )
    url = f"/api/tournaments/{created.json()['id']}/"
    patched = organiser_client.patch(
        url, {"tiebreaks": []}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert patched.status_code == 400, patched.content
    assert patched.json()["code"] == "empty_tiebreaks"
    assert "Wertungskriterium" in patched.json()["detail"]
    tournament = Tournament.objects.get(slug="abend")
    assert tournament.tiebreaks  # unchanged

    # a tournament stored with an empty chain before this check cannot start
    Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=[])
    started = organiser_client.post(f"/api/tournaments/{tournament.pk}/start/", {}, format="json")
    assert started.status_code == 400 and started.json()["code"] == "empty_tiebreaks"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


# --- table cards of a closed round ----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "heading", "why"),
    [
        ("de", "Diese Runde ist abgeschlossen", "keine neuen Codes"),
        ("en", "This round is closed", "no new codes are issued"),
    ],
)
def test_table_cards_of_a_closed_round_say_why(
    event: Event, web: Client, language: str, heading: str, why: str
) -> None:
    services.close_round(round_=event.round, force=True)
    for method in ("get", "post"):
        response = getattr(speaking(web, language), method)(
            f"/console/rounds/{event.round.pk}/table-cards/"
        )
        assert response.status_code == 409
        body = text(response)
        assert heading in body and why in body
        assert f'href="/console/rounds/{event.round.pk}/"' in body
    assert DeviceCredential.objects.usable().filter(table__round=event.round).count() == 2


# --- a tablet of a closed round shows the closed state only ---------------------------------


@pytest.mark.parametrize(
    ("language", "closed"),
    [("de", "Diese Runde ist abgeschlossen"), ("en", "This round is closed")],
)
def test_a_tablet_of_a_closed_round_shows_the_closed_state_only(
    event: Event, client: Client, language: str, closed: str
) -> None:
    for number in range(1, 5):
        enter(event, number, summary_record(dealer=number - 1, team0_points=100))
    before = text(speaking(client, language).get(f"/t/{event.code1}/state/"))
    assert "data-confirm-team" in before and 'data-closed="0"' in before
    services.close_round(round_=event.round, force=True)
    state = text(speaking(client, language).get(f"/t/{event.code1}/state/"))
    assert 'data-closed="1"' in state and closed in state
    assert "data-confirm-team" not in state
    page = text(speaking(client, language).get(f"/t/{event.code1}/"))
    assert '<div class="tablet-entry" hidden>' in page


# --- the player's page: the token stays private, the check-in form works --------------------


@pytest.fixture
def self_check_in(event: Event) -> Registration:
    services.set_self_check_in(tournament=event.tournament, allowed=True)
    registration = event.tournament.registrations.first()
    assert registration is not None
    Registration.objects.filter(pk=registration.pk).update(status=Registration.Status.REGISTERED)
    registration.refresh_from_db()
    return registration


def test_the_player_page_keeps_its_referrer_on_this_site(self_check_in: Registration) -> None:
    response = Client().get(f"/p/{self_check_in.link_token}/")
    # other sites get no referrer (the token stays private); this site's forms keep
    # their origin, which Django's CSRF check needs ("no-referrer" sent Origin: null)
    assert response["Referrer-Policy"] in ("same-origin", "strict-origin")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", "Das Formular konnte nicht gesendet werden"),
        ("en", "The form could not be sent"),
    ],
)
def test_a_failed_csrf_check_is_our_own_page(
    self_check_in: Registration, language: str, words: str
) -> None:
    browser = speaking(Client(enforce_csrf_checks=True), language)
    page = f"/p/{self_check_in.link_token}/"
    browser.get(page)
    token = browser.cookies[settings.CSRF_COOKIE_NAME].value
    refused = browser.post(
        f"{page}check-in/",
        {"csrfmiddlewaretoken": token},
        HTTP_ORIGIN="null",
        HTTP_REFERER=f"http://testserver{page}",
    )
    assert refused.status_code == 403
    body = text(refused)
    assert words in body and "CSRF verification failed" not in body
    assert f'href="http://testserver{page}"' in body  # back to the page the form was on
    assert '<main class="container">' in body  # the site's layout
    self_check_in.refresh_from_db()
    assert self_check_in.status == Registration.Status.REGISTERED
    # the same form with the origin the browser now sends goes through
    done = browser.post(
        f"{page}check-in/", {"csrfmiddlewaretoken": token}, HTTP_ORIGIN="http://testserver"
    )
    assert done.status_code == 302
    self_check_in.refresh_from_db()
    assert self_check_in.status == Registration.Status.CHECKED_IN


def test_a_failed_csrf_check_never_links_to_another_site(self_check_in: Registration) -> None:
    browser = Client(enforce_csrf_checks=True)
    refused = browser.post(
        f"/p/{self_check_in.link_token}/check-in/", HTTP_REFERER="https://evil.example/x"
    )
    assert refused.status_code == 403
    assert "evil.example" not in text(refused)
