"""seed_demo builds the demo club through the services and is idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import DealVersion
from tournaments.clubs.models import Club, Player
from tournaments.events.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Tournament.objects.count(),
        Round.objects.count(),
        DealVersion.objects.exclude(outcome="thrown_in").count(),  # the played deals
    )


def test_seed_demo_twice(settings: object) -> None:
    call_command("seed_demo", force=True)
    first = snapshot()
    call_command("seed_demo", force=True)

    assert snapshot() == first == (1, 16, 4, 6, 2 * 2 * 4 * 8 + 4 * 3 + 2 * 8)
    assert Tournament.objects.filter(status="finished").count() == 3
    klaverjas = Tournament.objects.get(rules_preset="klaverjas-rotterdam")
    assert klaverjas.status == "finished" and klaverjas.registrations.count() == 8
    running = Tournament.objects.get(status="running")
    assert running.rounds.get().status == "published"
    assert Match.objects.filter(round__tournament=running, status="open").count() == 4
    assert Match.objects.filter(status="confirmed").count() == 16 + 2
