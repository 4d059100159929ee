"""Issue 35: a league reminder reaches each recipient in the language they read the site
in (the one they signed in with or switched to), one e-mail per language; a recipient
whose language the site does not know reads the site's language, German."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from tests.leagues.conftest import LeagueWorld
from tests.leagues.test_league_api import play_day
from tests.support.clients import Client
from tournaments.clubs import languages
from tournaments.leagues import reminders as league_reminders
from tournaments.leagues import services as leagues

pytestmark = pytest.mark.django_db


def with_emails(world: LeagueWorld) -> None:
    for role in ("captain_a", "captain_b", "league_organiser", "organiser"):
        user = world.users[role]
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])


def sign_in_dutch_and_french(world: LeagueWorld) -> None:
    """Captain A signs in on the login page with a Dutch browser; captain B signs in and
    switches the site to French."""
    dutch = Client(HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9")
    reply = dutch.post("/accounts/login/", {"username": "captain_a", "password": "pw"})
    assert reply.status_code == 302, reply.content
    french = Client()
    assert (
        french.post("/accounts/login/", {"username": "captain_b", "password": "pw"}).status_code
        == 302
    )
    assert french.get("/lang/fr/?next=/").status_code == 302
    assert languages.languages_of(
        [world.users["captain_a"].pk, world.users["captain_b"].pk, world.users["organiser"].pk]
    ) == {world.users["captain_a"].pk: "nl", world.users["captain_b"].pk: "fr"}


def mail_to(address: str) -> mail.EmailMessage:
    (message,) = [m for m in mail.outbox if address in m.to]
    return message


def test_the_day_before_reminder_is_dutch_for_one_captain_and_french_for_the_other(
    world: LeagueWorld,
) -> None:
    with_emails(world)
    sign_in_dutch_and_french(world)
    starts = timezone.make_aware(datetime(2026, 10, 3, 19, 0))
    leagues.update_match_day(match_day=world.first_day, changes={"starts_at": starts})
    assert league_reminders.send_reminder(
        match_day_id=world.first_day.pk, kind="day_before", now=starts - timedelta(hours=22)
    )
    assert len(mail.outbox) == 2
    dutch, french = mail_to("captain_a@example.org"), mail_to("captain_b@example.org")
    assert dutch.to == ["captain_a@example.org"] and french.to == ["captain_b@example.org"]
    assert dutch.subject == "Bodensee-Liga: Herzbube I – Schellen I morgen"
    assert dutch.body.startswith("Speeldag 1 van Bodensee-Liga, Herzbube I – Schellen I, is ")
    assert "Elk team stelt twee paren uit zijn selectie op." in dutch.body
    assert french.subject == "Bodensee-Liga\u00a0: Herzbube I – Schellen I demain"  # no-break space
    assert french.body.startswith(
        "La journée 1 de Bodensee-Liga, Herzbube I – Schellen I, a lieu demain, "
    )
    assert "Chaque équipe aligne deux paires de son effectif." in french.body
    # the date in each reader's own format
    assert "3-10-2026" in dutch.body and "03/10/2026" in french.body


def test_the_confirmation_reminder_is_dutch_french_and_german(world: LeagueWorld) -> None:
    with_emails(world)
    sign_in_dutch_and_french(world)
    day = world.first_day
    play_day(world, day, (True,) * 4)
    assert league_reminders.send_reminder(
        match_day_id=day.pk, kind="confirm", now=timezone.now() + timedelta(hours=25)
    )
    assert len(mail.outbox) == 3
    dutch = mail_to("captain_a@example.org")
    assert dutch.subject == "Bodensee-Liga: uitslag van Herzbube I – Schellen I bevestigen"
    assert dutch.body.startswith("De tafels van speeldag 1 van Bodensee-Liga")
    french = mail_to("captain_b@example.org")
    assert french.subject == (
        "Bodensee-Liga\u00a0: confirmer le résultat de Herzbube I – Schellen I"
    )
    assert french.body.startswith("Les tables de la journée 1 de Bodensee-Liga")
    german = mail_to("organiser@example.org")  # never signed in here: the site's language
    assert german.subject == "Bodensee-Liga: Ergebnis von Herzbube I – Schellen I bestätigen"
    assert german.to == ["organiser@example.org"]
    assert sorted(league_reminders.LeagueReminder.objects.get().recipients) == [
        "captain_a@example.org",
        "captain_b@example.org",
        "organiser@example.org",
    ]


def test_an_unknown_language_is_not_remembered(world: LeagueWorld) -> None:
    user = world.users["captain_a"]
    languages.remember_language(user.pk, "xx")
    assert languages.languages_of([user.pk]) == {}
    languages.remember_language(user.pk, "fr")
    languages.remember_language(user.pk, "klingon")
    assert languages.languages_of([user.pk]) == {user.pk: "fr"}
