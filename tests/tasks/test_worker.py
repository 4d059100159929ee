"""A real worker against Redis and PostgreSQL: results reach the public standings, and
neither a worker killed mid-recompute nor a flushed Redis leaves the snapshot behind a
fresh full recompute."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from tests.conftest import client_for, make_event
from tests.factories import ClubFactory, summary_record
from tests.tasks.conftest import wait_until
from tournaments import tasks
from tournaments.deals.services import submit_deal
from tournaments.events.models import Match, Tournament
from tournaments.results import snapshots
from tournaments.results.models import ClubSnapshot, StandingsSnapshot

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def fresh(tournament: Tournament) -> dict[str, Any]:
    data = snapshots.compute_tournament_standings(tournament_id=tournament.pk)
    return json.loads(json.dumps(data))


def snapshot_of(tournament: Tournament) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(tournament=tournament).first()


def settled(tournament: Tournament) -> bool:
    """The snapshot holds the current version and equals a fresh full recompute."""
    snapshot = snapshot_of(tournament)
    version = Tournament.objects.get(pk=tournament.pk).results_version
    return (
        snapshot is not None
        and snapshot.computed_version == version
        and snapshot.data == fresh(tournament)
    )


def play(event: Any, match: Match, deals: range) -> None:
    for number in deals:
        submit_deal(match=match, number=number, record=summary_record(dealer=(number - 1) % 4))


def test_deal_through_api_reaches_public_standings(start_worker: Any) -> None:
    start_worker()
    event = make_event(club=ClubFactory())
    device = client_for(device_code=event.code1)

    entered = device.post(
        f"/api/matches/{event.match1.pk}/deals/1/",
        summary_record(),
        format="json",
        HTTP_IDEMPOTENCY_KEY="worker-1",
    )
    assert entered.status_code == 201, entered.content[:300]

    url = f"/api/tournaments/{event.tournament.pk}/standings/"
    body = wait_until(
        lambda: (b := client_for().get(url).json())["up_to_date"] and b["data"] and b,
        timeout=30,
        what="the public standings to include the deal",
    )
    assert body["computed_version"] == body["results_version"] == 1
    assert body["data"]["games"] == 1
    seats = list(event.table1.seats.order_by("position").values_list("player_id", flat=True))
    rows = {row["entrant"]: row for row in body["data"]["rows"]}
    assert rows[seats[1]]["won"] == 1 and rows[seats[0]]["lost"] == 1  # team 1 made 100:64
    assert rows[seats[1]]["augen"] == 10  # 100 Augen -> 10 match points
    assert settled(event.tournament)
    wait_until(
        lambda: ClubSnapshot.objects.filter(club=event.club, computed_version__gte=1).exists(),
        timeout=30,
        what="the club leaderboards",
    )


def test_worker_killed_mid_recompute_then_restarted(start_worker: Any) -> None:
    event = make_event(club=ClubFactory())  # no worker yet: the tasks wait in Redis
    play(event, event.match1, range(1, 5))
    play(event, event.match2, range(1, 3))

    slow = start_worker(KLAMMERN_TEST_RECOMPUTE_DELAY="30")
    wait_until(
        lambda: "Recomputing standings" in slow.output(), timeout=30, what="the recompute to start"
    )
    slow.kill()  # SIGKILL in the middle of the recompute, before it stored anything
    assert snapshot_of(event.tournament) is None

    start_worker()
    tasks.requeue_lagging_snapshots.delay()  # what beat sends every 30 s
    wait_until(
        lambda: settled(event.tournament),
        timeout=45,
        what="the snapshot to equal a fresh recompute",
    )
    assert snapshot_of(event.tournament).data["games"] == 2  # type: ignore[union-attr]


def test_flushed_redis_is_caught_up_by_the_beat_task(
    start_worker: Any, worker_redis: redis.Redis
) -> None:
    worker = start_worker()
    event = make_event(club=ClubFactory())
    play(event, event.match1, range(1, 2))
    wait_until(lambda: settled(event.tournament), timeout=30, what="the first snapshot")
    worker.stop()

    play(event, event.match1, range(2, 5))
    play(event, event.match2, range(1, 4))
    worker_redis.flushdb()  # queued recomputes and their flags are gone
    start_worker()
    lagging = snapshot_of(event.tournament)
    assert lagging is not None and lagging.computed_version == 1

    tasks.requeue_lagging_snapshots.delay()
    wait_until(
        lambda: settled(event.tournament),
        timeout=45,
        what="the snapshot to equal a fresh recompute",
    )
    assert snapshot_of(event.tournament).computed_version == 7  # type: ignore[union-attr]
    club = event.club
    club.refresh_from_db()
    wait_until(
        lambda: ClubSnapshot.objects.filter(club=club, computed_version=club.results_version),
        timeout=30,
        what="the club leaderboards to catch up",
    )
