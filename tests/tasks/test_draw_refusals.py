"""The draw tells a condition of the field from a bug. A condition that arises between
the request and the task (players withdrew) leaves a draft without tables that says why,
with a stable code, in the organiser's language, on the console and in the API; anything
else the seating raises is a bug: the task fails and the failure is logged as an error."""

from __future__ import annotations

import logging
from typing import Any
from unittest import mock

import pytest
from django.utils import translation

from tests.conftest import client_for
from tests.factories import PlayerFactory
from tests.support.clients import Client, committed
from tournaments import tasks
from tournaments.common.errors import Conflict
from tournaments.draw import seating
from tournaments.draw import services as draw
from tournaments.events import services
from tournaments.events.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def requested(club: Any, players: int = 4) -> tuple[Tournament, Round]:
    tournament = services.create_tournament(club=club, name="T", slug="t")
    for _ in range(players):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    with mock.patch.object(tasks.draw_round_task, "delay"), committed():
        round_ = draw.request_round_draw(tournament=tournament, seed=5)
    return tournament, round_


def test_too_few_players_at_the_draw_leave_a_draft_that_says_why(
    club_a: Any, organiser: Any
) -> None:
    tournament, round_ = requested(club_a)
    services.withdraw_registration(registration=Registration.objects.first())

    tasks.draw_round_task(round_.pk)

    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and not round_.tables.exists()
    assert round_.cost == {"refused": {"key": "too_few_players", "params": {}}}
    reply = client_for(organiser).get(f"/api/rounds/{round_.pk}/", HTTP_ACCEPT_LANGUAGE="nl")
    assert reply.json()["draw_refusal"] == {
        "code": "too_few_players",
        "detail": "Niet genoeg aangemelde spelers voor één tafel.",
    }
    web = Client()
    web.force_login(organiser)
    page = web.get(f"/console/rounds/{round_.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'id="draw-refusal" data-code="too_few_players"' in page
    assert "Zu wenige eingecheckte Spieler für einen einzigen Tisch." in page
    with translation.override("en"):
        with pytest.raises(Conflict) as refused:
            services.publish_round(round_=round_)
        assert refused.value.code == "nobody_seated"
        assert refused.value.message == (
            "The draw seated nobody: Not enough checked-in players for a single table."
        )


def test_a_bug_in_the_seating_fails_the_task_loudly(
    club_a: Any, caplog: pytest.LogCaptureFixture, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = services.create_tournament(club=club_a, name="T", slug="t")
    for _ in range(4):
        registration = services.register_player(tournament=tournament, player=PlayerFactory())
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("entrant ids must be unique")

    with (
        mock.patch.dict(seating.METHODS, {"individual": broken}),
        caplog.at_level(logging.ERROR),
        django_capture_on_commit_callbacks(execute=True),
    ):
        round_ = draw.request_round_draw(tournament=tournament, seed=5)

    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAWING  # not a draft that hides the bug
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures and any(r.exc_info and isinstance(r.exc_info[1], ValueError) for r in failures)
    with (
        pytest.raises(ValueError, match="entrant ids"),
        mock.patch.dict(seating.METHODS, {"individual": broken}),
    ):
        tasks.draw_round_task(round_.pk)
