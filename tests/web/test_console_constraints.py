"""The console's seating constraints: a player's fixed table (set and clear, with htmx
and without) and the forbidden pairings card (add, remove, refusals), for the club's
organiser and another club's organiser. German is the default language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import Event
from tests.factories import PlayerFactory
from tests.support.clients import Client
from tournaments.events import services
from tournaments.events.models import ForbiddenPairing, Registration, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def text(response: Any) -> str:
    return response.content.decode()


def regs(event: Event) -> list[Registration]:
    return list(event.tournament.registrations.select_related("player").order_by("player_id"))


def fixed_url(registration: Registration) -> str:
    return f"/console/registrations/{registration.pk}/fixed-table/"


def add_url(event: Event) -> str:
    return f"/console/tournaments/{event.tournament.pk}/forbidden-pairings/"


# --- the tournament page shows the controls -------------------------------------------


def test_tournament_page_has_table_controls_and_pairings_card(event: Event, web: Client) -> None:
    first, second = regs(event)[:2]
    services.fix_player_table(registration=first, table_number=2)
    services.forbid_pairing(
        tournament=event.tournament, player_a=first.player, player_b=second.player
    )

    page = text(web.get(f"/console/tournaments/{event.tournament.pk}/"))

    assert page.count('class="fixed-table actions"') == 8  # one per registered player
    assert f'id="fixed-table-{first.pk}"' in page and 'value="2"' in page
    assert "Tisch 2" in page  # the badge
    assert 'id="forbidden-pairings"' in page and "Verbotene Paarungen" in page
    assert f"<b>{first.player.name}</b> ≠ <b>{second.player.name}</b>" in page
    assert page.count('name="player_a"') == 1 and page.count('name="player_b"') == 1
    assert "Trennen" in page  # the add button, in German


def test_no_constraint_controls_for_pairs_tournaments(event: Event, web: Client) -> None:
    Tournament.objects.filter(pk=event.tournament.pk).update(format=Tournament.Format.PAIRS)

    reply = web.get(f"/console/tournaments/{event.tournament.pk}/")

    assert reply.status_code == 200
    page = text(reply)
    assert f"<h1>{event.tournament.name}</h1>" in page  # the tournament's page, rendered
    assert all(r.player.name in page for r in regs(event))  # its players listed
    assert "fixed-table" not in page and 'id="forbidden-pairings"' not in page
    assert "Verbotene Paarungen" not in page and 'name="player_a"' not in page


def test_finished_tournament_shows_pairings_without_forms(event: Event, web: Client) -> None:
    first, second = regs(event)[:2]
    services.forbid_pairing(
        tournament=event.tournament, player_a=first.player, player_b=second.player
    )
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.FINISHED)

    page = text(web.get(f"/console/tournaments/{event.tournament.pk}/"))

    assert f"<b>{first.player.name}</b> ≠" in page
    assert "fixed-table" not in page and 'name="player_a"' not in page and "Entfernen" not in page


# --- fixed table ------------------------------------------------------------------------


def test_set_and_clear_fixed_table_with_htmx(event: Event, web: Client) -> None:
    registration = regs(event)[0]

    response = web.post(fixed_url(registration), {"table": "3", "set": "1"}, **HTMX)

    assert response.status_code == 200
    assert text(response).lstrip().startswith(f'<tr id="reg-{registration.pk}"')
    assert "Tisch 3" in text(response) and 'name="clear"' in text(response)
    registration.refresh_from_db()
    assert registration.fixed_table == 3

    response = web.post(fixed_url(registration), {"table": "3", "clear": "1"}, **HTMX)

    assert response.status_code == 200 and "Tisch 3" not in text(response)
    assert 'name="clear"' not in text(response)
    registration.refresh_from_db()
    assert registration.fixed_table is None


def test_blank_table_clears_without_htmx(event: Event, web: Client) -> None:
    registration = regs(event)[0]
    services.fix_player_table(registration=registration, table_number=1)

    response = web.post(fixed_url(registration), {"table": ""})

    assert response.status_code == 302
    assert response["Location"] == f"/console/tournaments/{event.tournament.pk}/"
    registration.refresh_from_db()
    assert registration.fixed_table is None


@pytest.mark.parametrize("table", ["0", "1000", "zwei", "-2"])
def test_invalid_table_number_is_shown_in_the_row(event: Event, web: Client, table: str) -> None:
    registration = regs(event)[0]

    response = web.post(fixed_url(registration), {"table": table}, **HTMX)

    assert response.status_code == 200
    assert "Die Tischnummer muss zwischen 1 und 999 liegen." in text(response)
    registration.refresh_from_db()
    assert registration.fixed_table is None


def test_fifth_player_on_a_table_is_refused_with_a_message(event: Event, web: Client) -> None:
    players = regs(event)
    for registration in players[:4]:
        services.fix_player_table(registration=registration, table_number=1)

    response = web.post(fixed_url(players[4]), {"table": "1"}, follow=True)

    assert "An Tisch 1 sind schon vier Spieler fest gesetzt." in text(response)
    assert Registration.objects.filter(fixed_table=1).count() == 4


def test_other_club_cannot_fix_a_table(event: Event, rival: Client, client: Client) -> None:
    registration = regs(event)[0]

    assert rival.post(fixed_url(registration), {"table": "2"}, **HTMX).status_code == 404
    anonymous = client.post(fixed_url(registration), {"table": "2"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert rival.get(fixed_url(registration)).status_code == 405
    registration.refresh_from_db()
    assert registration.fixed_table is None


# --- forbidden pairings -----------------------------------------------------------------


def test_add_and_remove_a_forbidden_pairing_with_htmx(event: Event, web: Client) -> None:
    first, second = regs(event)[:2]

    response = web.post(
        add_url(event), {"player_a": second.player_id, "player_b": first.player_id}, **HTMX
    )

    assert response.status_code == 200
    assert text(response).lstrip().startswith('<section class="card" id="forbidden-pairings"')
    pairing = ForbiddenPairing.objects.get()
    assert (pairing.player_a_id, pairing.player_b_id) == (first.player_id, second.player_id)
    assert f'id="pairing-{pairing.pk}"' in text(response)

    response = web.post(f"/console/forbidden-pairings/{pairing.pk}/remove/", **HTMX)

    assert response.status_code == 200
    assert "Keine verbotenen Paarungen." in text(response)
    assert not ForbiddenPairing.objects.exists()


def test_add_and_remove_without_htmx(event: Event, web: Client) -> None:
    first, second = regs(event)[2:4]

    added = web.post(add_url(event), {"player_a": first.player_id, "player_b": second.player_id})

    assert added.status_code == 302
    assert added["Location"] == f"/console/tournaments/{event.tournament.pk}/"
    pairing = ForbiddenPairing.objects.get()
    removed = web.post(f"/console/forbidden-pairings/{pairing.pk}/remove/")
    assert removed.status_code == 302 and not ForbiddenPairing.objects.exists()


def test_duplicate_and_same_player_are_refused_with_messages(event: Event, web: Client) -> None:
    first, second = regs(event)[:2]
    web.post(add_url(event), {"player_a": first.player_id, "player_b": second.player_id})

    again = web.post(
        add_url(event), {"player_a": second.player_id, "player_b": first.player_id}, **HTMX
    )
    same = web.post(
        add_url(event), {"player_a": first.player_id, "player_b": first.player_id}, follow=True
    )
    empty = web.post(add_url(event), {"player_a": "", "player_b": first.player_id}, **HTMX)

    assert f"{first.player.name} und {second.player.name} sind schon getrennt." in text(again)
    assert "Zwei verschiedene Spieler wählen." in text(same)
    assert "Zwei Spieler wählen." in text(empty)
    assert ForbiddenPairing.objects.count() == 1


def test_player_of_another_tournament_is_refused(event: Event, web: Client) -> None:
    outsider = PlayerFactory(name="Fremde Spielerin")

    response = web.post(
        add_url(event), {"player_a": regs(event)[0].player_id, "player_b": outsider.pk}, **HTMX
    )

    assert "Fremde Spielerin ist in diesem Turnier nicht angemeldet." in text(response)
    assert not ForbiddenPairing.objects.exists()


def test_other_club_cannot_add_or_remove(event: Event, rival: Client, client: Client) -> None:
    first, second = regs(event)[:2]
    pairing = services.forbid_pairing(
        tournament=event.tournament, player_a=first.player, player_b=second.player
    )
    third, fourth = regs(event)[2:4]
    data = {"player_a": third.player_id, "player_b": fourth.player_id}

    assert rival.post(add_url(event), data, **HTMX).status_code == 404
    assert rival.post(f"/console/forbidden-pairings/{pairing.pk}/remove/").status_code == 404
    anonymous = client.post(f"/console/forbidden-pairings/{pairing.pk}/remove/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    page = rival.get(f"/console/tournaments/{event.tournament.pk}/")
    assert page.status_code == 404
    assert list(ForbiddenPairing.objects.values_list("pk", flat=True)) == [pairing.pk]


def test_english_console(event: Event, web: Client) -> None:
    web.cookies["django_language"] = "en"
    page = text(web.get(f"/console/tournaments/{event.tournament.pk}/"))
    assert "Forbidden pairings" in page and "Keep apart" in page
    assert re.search(r">\s*Table\s*</label>", page)
