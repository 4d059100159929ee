"""Benchmark: full tournament standings for 1,000 players x 12 rounds (target: under 1 s).

Builds 12 rounds of 250 tables of synthetic results (seeded), then times one full
computation with every tie-break, Buchholz and head-to-head included.
Run: .venv/bin/python bench/standings.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.results.standings import DEFAULT_TIEBREAKS, GameResult, tournament_standings  # noqa: E402

PLAYERS = 1_000
ROUNDS = 12


def synthetic_games(rng: random.Random) -> list[GameResult]:
    games = []
    players = list(range(PLAYERS))
    for number in range(1, ROUNDS + 1):
        rng.shuffle(players)
        for table in range(PLAYERS // 4):
            a, b, c, d = players[4 * table : 4 * table + 4]
            big = (rng.randint(0, 3), rng.randint(0, 3))
            small = (rng.randint(0, 4), rng.randint(0, 4))
            points = (rng.randint(20, 90), rng.randint(20, 90))
            games.append(GameResult(number, table, ((a, c), (b, d)), big, small, points))
    return games


def main() -> None:
    games = synthetic_games(random.Random(12))
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        rows = tournament_standings(games, tiebreaks=DEFAULT_TIEBREAKS)
        runs.append(time.perf_counter() - start)
    shared = sum(1 for row in rows if row.decided_by is None) - 1
    print(f"{len(games)} games, {len(rows)} rows, chain {[c.value for c in DEFAULT_TIEBREAKS]}")
    print(f"full standings: best {min(runs) * 1000:.1f} ms, worst {max(runs) * 1000:.1f} ms")
    print(f"rows sharing a rank with the next: {shared}")


if __name__ == "__main__":
    main()
