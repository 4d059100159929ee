"""``simulate_tournament`` against a live server: a small tournament with retries,
duplicates and invalid first tries ends with every deal stored once; a deal lost between
submission and verification makes the command fail."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Deal, DealVersion
from tests.factories import ClubFactory
from tournaments.deals.services import deleting_history
from tournaments.events.models import Match, Round, Tournament
from tournaments.management.commands.simulate_tournament import Command
from tournaments.simulation.scenario import Simulation

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PLAYERS, ROUNDS, DEALS = 12, 2, 3


@pytest.fixture
def eager_celery(settings: Any) -> None:
    from klammern_site.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True


def simulate(live_server: Any, django_user_model: Any, **extra: Any) -> tuple[str, str]:
    club = ClubFactory(slug="sim-club")
    organiser = django_user_model.objects.create_user("sim-organiser", password="pw-sim-1")
    club.organisers.add(organiser)
    out, err = StringIO(), StringIO()
    call_command(
        "simulate_tournament",
        "--players",
        str(PLAYERS),
        "--rounds",
        str(ROUNDS),
        "--deals",
        str(DEALS),
        "--seed",
        "5",
        "--chaos",
        "0.6",
        "--concurrency",
        "4",
        "--base-url",
        live_server.url,
        "--organiser-user",
        "sim-organiser",
        "--organiser-password",
        "pw-sim-1",
        "--club",
        "sim-club",
        stdout=out,
        stderr=err,
    )
    return out.getvalue(), err.getvalue()


def test_small_tournament_is_stored_exactly(
    live_server: Any, django_user_model: Any, eager_celery: None
) -> None:
    out, _ = simulate(live_server, django_user_model)

    tables = ROUNDS * PLAYERS // 4
    assert f"tables played      {tables}" in out
    assert f"deals stored       {tables * DEALS} (thrown in: 0)" in out
    assert "all checks passed" in out
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    assert list(Round.objects.values_list("status", flat=True)) == ["closed"] * ROUNDS
    assert Match.objects.filter(status=Match.Status.CONFIRMED).count() == tables
    assert Deal.objects.count() == DealVersion.objects.count() == tables * DEALS
    assert tournament.results_version >= tables * DEALS


def test_a_lost_deal_fails_the_run(
    live_server: Any, django_user_model: Any, eager_celery: None, monkeypatch: Any
) -> None:
    def lose_one_deal(simulation: Simulation) -> None:
        with deleting_history():  # the database refuses it otherwise
            Deal.objects.filter(pk=Deal.objects.order_by("pk").values("pk")[:1]).delete()

    monkeypatch.setattr(Command, "before_verify", staticmethod(lose_one_deal))

    with pytest.raises(CommandError, match="inconsistencies found"):
        simulate(live_server, django_user_model)
