"""The admin: organisers are staff restricted to their own clubs' objects."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Event
from tests.factories import TournamentFactory
from tests.support.clients import Client

pytestmark = pytest.mark.django_db


def admin_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_organiser_sees_only_own_club(event: Event, organiser: Any, club_b: Any) -> None:
    foreign = TournamentFactory(club=club_b, name="Fremdes Turnier")
    client = admin_client(organiser)

    listing = client.get("/admin/tournaments/tournament/")

    assert listing.status_code == 200
    assert b"Herbstturnier" in listing.content and b"Fremdes Turnier" not in listing.content
    assert client.get(f"/admin/tournaments/tournament/{foreign.pk}/change/").status_code == 302
    assert (
        client.get(f"/admin/tournaments/tournament/{event.tournament.pk}/change/").status_code
        == 200
    )


@pytest.mark.parametrize(
    "path",
    [
        "tournaments/club/",
        "tournaments/player/",
        "tournaments/registration/",
        "tournaments/round/",
        "tournaments/table/",
        "tournaments/match/",
        "tournaments/seat/",
        "tournaments/devicecredential/",
        "tournaments/team/",
        "tournaments/bye/",
        "tournaments/clubmembership/",
        "tournaments/matchconfirmation/",
        "tournaments/forbiddenpairing/",
        "tournaments/teammember/",
        "tournaments/standingssnapshot/",
        "games/deal/",
        "games/dealversion/",
    ],
)
def test_every_changelist_opens_for_organiser(event: Event, organiser: Any, path: str) -> None:
    assert admin_client(organiser).get(f"/admin/{path}").status_code == 200


def test_stranger_staff_sees_nothing(event: Event, django_user_model: Any) -> None:
    staff = django_user_model.objects.create_user("staff", password="x", is_staff=True)
    assert admin_client(staff).get("/admin/tournaments/tournament/").status_code == 403


def test_superuser_sees_idempotency_records(django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root", password="x")
    assert admin_client(root).get("/admin/games/idempotencyrecord/").status_code == 200


@pytest.mark.parametrize(
    ("language", "shown", "not_shown"),
    [
        ("en", ["Running", "Fixed pairs", "Checked in"], ["Läuft", "Feste Paare", "Anwesend"]),
        ("de", ["Läuft", "Feste Paare", "Anwesend"], ["Running", "Fixed pairs"]),
        ("nl", ["Bezig", "Vaste koppels", "Aanwezig"], ["Läuft", "Anwesend"]),
        ("fr", ["En cours", "Paires fixes", "Pointé"], ["Läuft", "Running", "Anwesend"]),
    ],
)
def test_choice_labels_are_in_the_pages_language(
    event: Event, organiser: Any, language: str, shown: list[str], not_shown: list[str]
) -> None:
    client = admin_client(organiser)
    headers = {"Accept-Language": language}
    page = client.get("/admin/tournaments/tournament/", headers=headers).content.decode()
    page += client.get("/admin/tournaments/registration/", headers=headers).content.decode()
    assert [text for text in shown if text not in page] == []
    assert [text for text in not_shown if text in page] == []


@pytest.mark.parametrize(
    ("language", "shown", "not_shown"),
    [
        ("en", ["Deals per match", "Planned rounds", "Rules preset"], ["Spiele pro Partie"]),
        ("de", ["Spiele pro Partie", "Geplante Runden", "Regelwerk"], ["Deals per match"]),
        ("nl", ["Spellen per partij", "Geplande rondes", "Regelset"], ["Deals per match"]),
        ("fr", ["Donnes par partie", "Rondes prévues", "Règles prédéfinies"], ["Deals per match"]),
    ],
)
def test_field_labels_are_in_the_pages_language(
    event: Event, organiser: Any, language: str, shown: list[str], not_shown: list[str]
) -> None:
    """The admin's forms name every field in the page's language, as the console does."""
    page = (
        admin_client(organiser)
        .get(
            f"/admin/tournaments/tournament/{event.tournament.pk}/change/",
            headers={"Accept-Language": language},
        )
        .content.decode()
    )
    assert [text for text in shown if text not in page] == []
    assert [text for text in not_shown if text in page] == []
