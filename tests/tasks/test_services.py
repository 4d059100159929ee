"""Draws through the seating algorithms, standings and leaderboard snapshots, the
coalescing of recomputes and the beat task, with eager Celery (no worker needed)."""

from __future__ import annotations

import json
import os
import socket
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import transaction
from django_redis.cache import RedisCache
from redis.client import Pipeline, Redis

from games import engine
from games.models import DealVersion
from tests.conftest import Event
from tests.factories import PlayerFactory, summary_record
from tests.support.clients import committed
from tournaments import tasks
from tournaments.common.errors import Conflict
from tournaments.deals.services import submit_deal
from tournaments.draw import services as draw
from tournaments.events import selectors, services
from tournaments.events import versions as results
from tournaments.events.models import ForbiddenPairing, Match, Round, Team, TeamMember, Tournament
from tournaments.results import snapshots
from tournaments.results.models import ClubSnapshot, StandingsSnapshot

pytestmark = pytest.mark.django_db


def running(club: Any, players: int, **options: Any) -> tuple[Tournament, list[Any]]:
    tournament = services.create_tournament(club=club, name="T", slug="t", **options)
    people = [PlayerFactory() for _ in range(players)]
    for player in people:
        registration = services.register_player(tournament=tournament, player=player)
        services.check_in_registration(registration=registration)
    services.start_tournament(tournament=tournament)
    return tournament, people


def seats(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("player_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


def play_round(round_: Round) -> None:
    services.publish_round(round_=round_)
    for match in Match.objects.filter(round=round_):
        for n in range(1, match.deals_planned + 1):
            submit_deal(match=match, number=n, record=summary_record(dealer=(n - 1) % 4))
        for team in (0, 1):
            services.confirm_match(match=match, team=team)
    services.close_round(round_=round_)


# --- draws ----------------------------------------------------------------------------


def test_draw_is_queued_then_seated_by_the_task(club_a: Any) -> None:
    tournament, people = running(club_a, 9, deals_per_match=1)
    with mock.patch.object(tasks.draw_round_task, "delay") as delay, committed():
        round_ = draw.request_round_draw(tournament=tournament, seed=5)
    delay.assert_called_once_with(round_.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAWING and not round_.tables.exists()
    with pytest.raises(Conflict) as refused:
        services.publish_round(round_=round_)
    assert refused.value.code == "still_drawing"

    tasks.draw_round_task(round_.pk)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.tables.count() == 2
    assert round_.byes.count() == 1 and round_.cost["kind"] == "individual"
    first = seats(round_)
    tasks.draw_round_task(round_.pk)  # redelivered: nothing changes
    assert seats(round_) == first and round_.tables.count() == 2


def test_draw_is_reproducible_and_redraw_changes_attempt(club_a: Any) -> None:
    tournament, _ = running(club_a, 16)
    round_ = draw.draw_round(tournament=tournament, seed=11)
    first = seats(round_)
    redrawn = draw.redraw_round(round_=round_)
    assert redrawn.attempt == 2 and redrawn.status == Round.Status.DRAFT
    assert seats(redrawn) != first
    assert set(redrawn.cost) >= {"repeated_partners", "repeated_opponents", "seat_imbalance"}


def test_later_rounds_avoid_repeats_and_forbidden_pairs(club_a: Any) -> None:
    tournament, people = running(club_a, 16, deals_per_match=1)
    a, b = people[0], people[1]
    ForbiddenPairing.objects.create(tournament=tournament, player_a=a, player_b=b)
    for number in range(1, 4):
        round_ = draw.draw_round(tournament=tournament, seed=3)
        assert round_.number == number
        assert round_.cost["repeated_partners"] == 0 and round_.cost["forbidden"] == 0
        assert not any({a.pk, b.pk} <= set(table) for table in seats(round_))
        play_round(round_)


def test_late_arrival_joins_next_round_and_withdrawn_leaves(club_a: Any) -> None:
    tournament, people = running(club_a, 8, deals_per_match=1)
    round_ = draw.draw_round(tournament=tournament, seed=1)
    late = PlayerFactory()
    registration = services.register_player(tournament=tournament, player=late)
    services.check_in_registration(registration=registration)
    assert late.pk not in {p for t in seats(round_) for p in t}
    play_round(round_)
    services.withdraw_registration(registration=tournament.registrations.get(player=people[0]))

    second = draw.draw_round(tournament=tournament, seed=1)
    drawn = {p for t in seats(second) for p in t} | set(
        second.byes.values_list("player_id", flat=True)
    )
    assert late.pk in drawn and people[0].pk not in drawn


def test_fixed_table_pin(club_a: Any) -> None:
    tournament, people = running(club_a, 12)
    registration = tournament.registrations.get(player=people[5])
    registration.fixed_table = 2
    registration.save()
    round_ = draw.draw_round(tournament=tournament, seed=9)
    assert people[5].pk in seats(round_)[1]


def test_pairs_tournament_seats_partners_opposite(club_a: Any) -> None:
    tournament, people = running(club_a, 12, format=Tournament.Format.PAIRS, swiss=True)
    for i in range(0, 12, 2):
        team = Team.objects.create(tournament=tournament, name=f"Paar {i}")
        TeamMember.objects.create(team=team, player=people[i])
        TeamMember.objects.create(team=team, player=people[i + 1])
    round_ = draw.draw_round(tournament=tournament, seed=2)
    assert round_.tables.count() == 3 and round_.cost["kind"] == "pairs"
    for match in round_.matches.select_related("table"):
        s = list(match.table.seats.order_by("position").values_list("player_id", flat=True))
        home = set(match.home_team.players.values_list("pk", flat=True))
        assert {s[0], s[2]} == home


def test_league_round_follows_the_fixture_list(club_a: Any) -> None:
    tournament, people = running(club_a, 8, format=Tournament.Format.LEAGUE)
    teams = []
    for i in range(0, 8, 2):
        team = Team.objects.create(tournament=tournament, name=f"Team {i}")
        TeamMember.objects.create(team=team, player=people[i])
        TeamMember.objects.create(team=team, player=people[i + 1])
        teams.append(team)
    round_ = draw.draw_round(tournament=tournament)
    fixtures = draw.league_schedule(tournament)[0]
    pairs = set(round_.matches.values_list("home_team_id", "away_team_id"))
    assert pairs == set(fixtures.matches) and round_.matches.first().mode == "liga"


def test_async_draw_api_returns_202_and_hides_drawing_rounds(
    organiser_client: Any, anonymous: Any, club_a: Any
) -> None:
    tournament, _ = running(club_a, 8)
    with mock.patch.object(tasks.draw_round_task, "delay"):
        response = organiser_client.post(f"/api/tournaments/{tournament.pk}/rounds/")
    assert response.status_code == 202 and response.json()["status"] == "drawing"
    rid = response.json()["id"]
    assert anonymous.get(f"/api/rounds/{rid}/").status_code == 404
    assert organiser_client.get(f"/api/rounds/{rid}/").json()["status"] == "drawing"


# --- standings --------------------------------------------------------------------------


def test_match_scores_come_from_the_engine_keeper(event: Event) -> None:
    for n in range(1, 5):
        submit_deal(match=event.match1, number=n, record=summary_record(dealer=(n - 1) % 4))
    results_ = list(DealVersion.objects.filter(deal__match=event.match1).order_by("deal__number"))
    state = engine.score_small_big([v.result for v in results_])
    (scored,) = selectors.scored_matches(Match.objects.filter(pk=event.match1.pk))
    assert (scored.big, scored.small) == (state.big, state.small)
    assert scored.deals == 4


def test_deal_updates_snapshot_and_public_standings(event: Event, anonymous: Any) -> None:
    with committed():
        submit_deal(match=event.match1, number=1, record=summary_record())
    body = anonymous.get(f"/api/tournaments/{event.tournament.pk}/standings/").json()
    assert body["up_to_date"] and body["computed_version"] == 1
    assert body["data"]["games"] == 1 and len(body["data"]["rows"]) == 8
    assert body["data"]["tiebreaks"][0] == "tournament_points"
    snapshot = StandingsSnapshot.objects.get(tournament=event.tournament)
    assert snapshot.data == json.loads(
        json.dumps(snapshots.compute_tournament_standings(tournament_id=event.tournament.pk))
    )


def test_fresh_standings_for_organisers_only(
    event: Event, organiser_client: Any, stranger_client: Any
) -> None:
    with committed():
        submit_deal(match=event.match1, number=1, record=summary_record())
    url = f"/api/tournaments/{event.tournament.pk}/standings/?fresh=1"
    assert stranger_client.get(url).status_code == 403
    body = organiser_client.get(url).json()
    assert body["fresh"] and body["equals_snapshot"] and body["data"]["results_version"] == 1


def test_snapshot_never_goes_backwards(event: Event) -> None:
    tid = event.tournament.pk
    assert snapshots.store_snapshot(
        StandingsSnapshot, owner={"tournament_id": tid}, data={"v": 5}, version=5
    )
    assert not snapshots.store_snapshot(
        StandingsSnapshot, owner={"tournament_id": tid}, data={"v": 4}, version=4
    )
    assert StandingsSnapshot.objects.get(tournament_id=tid).data == {"v": 5}


def test_a_burst_of_results_queues_one_recompute(event: Event) -> None:
    with mock.patch.object(tasks.recompute_standings_task, "delay") as delay:
        for n in range(1, 4):  # three requests, each committed
            with committed():
                submit_deal(match=event.match1, number=n, record=summary_record(dealer=n - 1))
    assert delay.call_count == 1  # the flag stays until the task starts
    tasks.recompute_standings_task(event.tournament.pk)
    assert cache.get(results.STANDINGS_FLAG.format(event.tournament.pk)) is None
    assert StandingsSnapshot.objects.get(tournament=event.tournament).computed_version == 3


def test_beat_task_requeues_lagging_snapshots(event: Event) -> None:
    with mock.patch.object(tasks.recompute_standings_task, "delay"):
        submit_deal(match=event.match1, number=1, record=summary_record())
    cache.clear()  # Redis lost its queue and the flags
    queued = tasks.requeue_lagging_snapshots()
    assert queued["standings"] >= 1
    assert StandingsSnapshot.objects.get(tournament=event.tournament).computed_version == 1
    assert tasks.requeue_lagging_snapshots()["standings"] == 0


def test_club_leaderboards_snapshot_and_endpoint(event: Event, anonymous: Any) -> None:
    with committed():
        for n in range(1, 5):
            submit_deal(match=event.match1, number=n, record=summary_record(dealer=(n - 1) % 4))
        submit_deal(match=event.match2, number=1, record=summary_record())
    running = anonymous.get(f"/api/clubs/{event.club.pk}/leaderboards/").json()
    assert running["data"]["all_time"] == []  # a running evening is not in the club tables
    assert running["data"]["boss"]["history"] == []
    with committed():
        services.close_round(round_=event.round, force=True)  # table 2 closed after 1 deal
        services.finish_tournament(tournament=event.tournament)
    body = anonymous.get(f"/api/clubs/{event.club.pk}/leaderboards/").json()
    assert (
        body["up_to_date"]
        and body["computed_version"]
        == event.club.__class__.objects.get(pk=event.club.pk).results_version
    )
    assert len(body["data"]["all_time"]) == 8  # both tables count, the closed one too
    games = {row["player"]: row["played"] for row in body["data"]["all_time"]}
    assert set(games.values()) == {1}
    assert body["data"]["boss"]["current"] in {r["player"] for r in body["data"]["all_time"]}
    assert ClubSnapshot.objects.filter(club=event.club).exists()


def _redis_cache(url: str, **options: Any) -> Any:
    """A django-redis cache as production configures it (``IGNORE_EXCEPTIONS``)."""
    return RedisCache(
        url,
        {
            "KEY_PREFIX": f"test-flags-{os.getpid()}",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, **options},
        },
    )


@pytest.fixture
def redis_flags(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The queued flags in a real Redis (a key prefix of their own), as in production."""
    redis_cache = _redis_cache(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    monkeypatch.setattr(results, "cache", redis_cache)
    yield redis_cache
    redis_cache.delete_many([results.STANDINGS_FLAG.format(1), results.LEADERBOARDS_FLAG.format(2)])


def test_a_result_sets_both_flags_and_queues_once(redis_flags: Any) -> None:
    sent: list[tuple[str, int]] = []
    with mock.patch.object(results, "_send_recompute", lambda t, o: sent.append((t.name, o))):
        results.enqueue_result_recomputes(tournament_id=1, club_id=2)
        results.enqueue_result_recomputes(tournament_id=1, club_id=2)  # both queued already

    assert sent == [
        (tasks.recompute_standings_task.name, 1),
        (tasks.recompute_club_leaderboards_task.name, 2),
    ]
    assert isinstance(redis_flags.get(results.STANDINGS_FLAG.format(1)), float)
    assert not results.enqueue_standings_recompute(tournament_id=1)  # the same flag
    assert results.enqueue_leaderboards_recompute(club_id=2, force=True) is False  # fresh


def test_a_result_asks_every_flag_in_one_round_trip(redis_flags: Any) -> None:
    """The recomputes' flags and what the change queues with them (a deal's analysis
    sweep): one pipelined round trip, each sent once while its flag is set."""
    calls: list[str] = []
    execute, command = Pipeline.execute, Redis.execute_command
    sent: list[str] = []
    sweep = results.QueuedWith("test-sweep-flag", lambda: sent.append("sweep"), 60)

    def counted_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append("pipeline")
        return execute(self, *args, **kwargs)

    def counted_command(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(str(args[0]))
        return command(self, *args, **kwargs)

    with (
        mock.patch.object(Pipeline, "execute", counted_execute),
        mock.patch.object(Redis, "execute_command", counted_command),
        mock.patch.object(results, "_send_recompute", lambda t, o: sent.append(t.name)),
    ):
        results.enqueue_result_recomputes(tournament_id=1, club_id=2, also=[sweep])
        results.enqueue_result_recomputes(tournament_id=1, club_id=2, also=[sweep])

    assert calls == ["pipeline", "pipeline"]
    assert sent == [
        tasks.recompute_standings_task.name,
        tasks.recompute_club_leaderboards_task.name,
        "sweep",
    ]
    assert redis_flags.get(results.LEADERBOARDS_FLAG.format(2)) is not None
    assert 0 < redis_flags.ttl("test-sweep-flag") <= 60
    redis_flags.delete("test-sweep-flag")


def test_held_back_notifications_of_one_tournament_bump_once_and_queue_all(
    redis_flags: Any,
) -> None:
    """Within ``results_changes_last`` two changes of one tournament bump its versions
    once, and what each asked to queue is queued once after the commit."""
    sent: list[str] = []
    first = results.QueuedWith("test-first-flag", lambda: sent.append("first"), 60)
    second = results.QueuedWith("test-second-flag", lambda: sent.append("second"), 60)
    bumps: list[int] = []

    def counted_bump(**kwargs: Any) -> int:
        bumps.append(kwargs["tournament_id"])
        return 2

    with (
        mock.patch.object(results, "bump_results_versions", counted_bump),
        mock.patch.object(results, "_send_recompute", lambda t, o: None),
        committed(),
        transaction.atomic(),
        results.results_changes_last(),
    ):
        results.notify_results_changed(tournament_id=1, club_id=2, also=[first])
        results.notify_results_changed(tournament_id=1, club_id=2, also=[first, second])
    assert bumps == [1]
    assert sent == ["first", "second"]
    redis_flags.delete_many(["test-first-flag", "test-second-flag"])


def test_a_refused_send_drops_its_flag_and_the_other_is_still_queued(redis_flags: Any) -> None:
    sent = []

    def send(task: Any, owner_id: int) -> None:
        if task is tasks.recompute_standings_task:
            raise ConnectionError("broker down")
        sent.append(owner_id)

    with mock.patch.object(results, "_send_recompute", send), pytest.raises(ConnectionError):
        results.enqueue_result_recomputes(tournament_id=1, club_id=2)

    assert sent == [2]
    assert redis_flags.get(results.STANDINGS_FLAG.format(1)) is None  # the beat task retries
    assert redis_flags.get(results.LEADERBOARDS_FLAG.format(2)) is not None


def test_unreachable_redis_queues_nothing_and_raises_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = _redis_cache(f"redis://127.0.0.1:{port}/0", SOCKET_CONNECT_TIMEOUT=0.2)
    monkeypatch.setattr(results, "cache", dead)
    with mock.patch.object(results, "_send_recompute") as send:
        results.enqueue_result_recomputes(tournament_id=1, club_id=2)
    assert send.call_count == 0  # as cache.add answers "not added": the beat task requeues
