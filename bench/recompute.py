"""Benchmark: a full standings recompute for 1,000 players and 12 rounds (target < 1 s).

Creates a club, a tournament of ``--players`` checked-in players and ``--rounds`` closed
rounds of random tables of four with ``--deals`` deals each (bulk_create, plausible score
columns), then times ``snapshots.compute_tournament_standings`` (the pure read and
ranking) and ``snapshots.recompute_standings`` (read, rank and store the snapshot).
Everything happens in one transaction that is rolled back at the end, so the database
(``DATABASE_URL``, PostgreSQL for meaningful figures) is left as it was.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klammern .venv/bin/python bench/recompute.py
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klammern_site.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.models import Deal, DealVersion  # noqa: E402
from tournaments.clubs.models import Club, Player  # noqa: E402
from tournaments.events.models import Bye, Match, Registration, Round, Seat, Table, Tournament  # noqa: E402
from tournaments.results import snapshots  # noqa: E402
from tournaments.results.models import StandingsSnapshot  # noqa: E402


def deal_columns(rng: random.Random) -> dict[str, object]:
    winner = rng.randrange(2)
    made = rng.random() < 0.7
    small = [0, 0]
    small[winner] = (1 if made else 2) * rng.choice((1, 1, 1, 2))
    points = [rng.randrange(20, 80), 0]
    points[1] = 164 - points[0]
    if (points[winner] < points[1 - winner]) == made:
        points.reverse()
    return {
        "points_0": points[0],
        "points_1": points[1],
        "small_0": small[0],
        "small_1": small[1],
        "match_points_0": (points[0] + 5) // 10,
        "match_points_1": (points[1] + 5) // 10,
        "winner_team": winner,
        "outcome": "made" if made else "failed",
    }


def build(players: int, rounds: int, deals: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    club = Club.objects.create(name="Bench club", slug=f"bench-{seed}-{time.time_ns()}")
    tournament = Tournament.objects.create(
        club=club,
        name="Bench",
        slug="bench",
        status="running",
        deals_per_match=deals,
        rules_locked=True,
        locked_at="2026-01-01T00:00Z",
        results_version=rounds * 1000,
    )
    people = Player.objects.bulk_create(Player(name=f"P{i}") for i in range(players))
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, status="checked_in") for p in people
    )
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="closed")
        order = list(people)
        rng.shuffle(order)
        table_count = len(order) // 4
        tables = Table.objects.bulk_create(
            Table(round=round_, number=n + 1) for n in range(table_count)
        )
        Seat.objects.bulk_create(
            Seat(table=t, round=round_, position=pos, player=order[4 * i + pos])
            for i, t in enumerate(tables)
            for pos in range(4)
        )
        Bye.objects.bulk_create(Bye(round=round_, player=p) for p in order[4 * table_count :])
        matches = Match.objects.bulk_create(
            Match(round=round_, table=t, deals_planned=deals, status="finished") for t in tables
        )
        rows = Deal.objects.bulk_create(
            Deal(match=m, number=n) for m in matches for n in range(1, deals + 1)
        )
        DealVersion.objects.bulk_create(
            DealVersion(
                deal=d,
                version=1,
                record={},
                result={},
                engine_version="bench",
                is_current=True,
                **deal_columns(rng),
            )
            for d in rows
        )
    return tournament


def timed(label: str, function: object, repeat: int) -> list[float]:
    times, cpu = [], []
    for _ in range(repeat):
        StandingsSnapshot.objects.all().filter(tournament__name="Bench").delete()
        start, start_cpu = time.perf_counter(), time.process_time()
        function()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(
        f"{label:34s} wall best {min(times) * 1000:6.0f} ms  median "
        f"{statistics.median(times) * 1000:6.0f} ms  worst {max(times) * 1000:6.0f} ms"
        f"  | python CPU median {statistics.median(cpu) * 1000:6.0f} ms"
    )
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"database: {connection.vendor} {connection.settings_dict['NAME']}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    with transaction.atomic():
        start = time.perf_counter()
        tournament = build(args.players, args.rounds, args.deals, args.seed)
        deals = DealVersion.objects.filter(deal__match__round__tournament=tournament).count()
        print(
            f"built {args.players} players x {args.rounds} rounds, {deals} deals "
            f"in {time.perf_counter() - start:.1f} s"
        )
        tid = tournament.pk
        with CaptureQueriesContext(connection) as queries:
            data = snapshots.compute_tournament_standings(tournament_id=tid)
        print(f"rows {len(data['rows'])}, games {data['games']}, queries {len(queries)}")
        compute = timed(
            "compute_tournament_standings",
            lambda: snapshots.compute_tournament_standings(tournament_id=tid),
            args.repeat,
        )
        store = timed(
            "recompute_standings (incl. store)",
            lambda: snapshots.recompute_standings(tournament_id=tid),
            args.repeat,
        )
        transaction.set_rollback(True)
    worst = max(statistics.median(compute), statistics.median(store))
    verdict = "OK" if worst < 1.0 else "SLOW"
    print(f"target < 1 s for a full recompute: {verdict} (median {worst * 1000:.0f} ms)")
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
