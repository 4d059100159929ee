"""Benchmark: draw round 12 for 1,000 players after 11 earlier rounds (target: under 2 s).

Run: .venv/bin/python bench/seating.py   (prints the time of the round-12 draw only)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.draw.seating import (  # noqa: E402
    Entrant,
    SeatingOptions,
    Table,
    draw_individual,
    history_from_tables,
)

PLAYERS = 1_000
ROUND = 12
CLUBS = 40


def main() -> None:
    entrants = [Entrant(id=i, club=i % CLUBS) for i in range(PLAYERS)]
    options = SeatingOptions(planned_rounds=ROUND)
    rounds: list[tuple[Table, ...]] = []
    build = time.perf_counter()
    for number in range(1, ROUND):
        draw = draw_individual(
            entrants, history_from_tables(rounds), round_number=number, seed=7, options=options
        )
        rounds.append(draw.tables)
    build = time.perf_counter() - build
    history = history_from_tables(rounds)
    start = time.perf_counter()
    draw = draw_individual(entrants, history, round_number=ROUND, seed=7, options=options)
    elapsed = time.perf_counter() - start
    print(f"rounds 1-{ROUND - 1} drawn in {build:.2f} s ({build / (ROUND - 1):.3f} s a round)")
    print(f"round {ROUND} draw for {PLAYERS} players: {elapsed:.3f} s")
    print(f"cost: {draw.cost.to_dict()}")


if __name__ == "__main__":
    main()
