"""Benchmark: the par of a full deal and the whole par analysis of a deal, one core.

Usage: ``python bench/analysis.py [--count 40] [--seed 1] [--no-analysis]``. Generates
``--count`` played random deals (``random_deal``, thrown-in deals skipped), then times for
each: ``deal_par`` (the par from the first lead, a fresh solver), ``analyse(record,
best_cards=False)`` (the par before and after each of the 32 plays) and ``analyse(record)``
(the same plus every play's best cards, each legal card's value, the perfect line after
each costly play and the makeable table) and ``perfect_line`` from the middle of the deal.
Prints the median, mean and worst in milliseconds of wall time, then an evening: the
whole analysis of ``--boards`` deals (24) back to back, in CPU seconds of this process
(one core; other work on the machine does not count) and wall seconds.
``KLAMMERN_ENGINE=python`` times the interpreted engine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random  # noqa: E402

from games.engine import (  # noqa: E402
    CARD_BY_TEXT,
    analyse,
    deal_par,
    perfect_line,
    random_deal,
    resolve_rules,
    running_native,
)


def _deals(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        record = random_deal(rng, dealer=len(out) % 4)
        if record["contract"]["kind"] != "thrown_in":
            out.append(record)
    return out


def _par(record: dict[str, Any]) -> None:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    deal_par(
        hands,
        trump="CSHD".index(record["contract"]["trump"]),
        forehand=(record["dealer"] + 1) % 4,
        options=resolve_rules(record.get("rules")),
    )


def _time(label: str, records: list[dict[str, Any]], run: Callable[[Any], object]) -> None:
    times = []
    for record in records:
        start = time.perf_counter()
        run(record)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"{label:<28} median {statistics.median(times):8.1f} ms   "
        f"mean {statistics.fmean(times):8.1f} ms   worst {max(times):8.1f} ms"
    )


def _evening(records: list[dict[str, Any]]) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    for record in records:
        analyse(record)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"evening of {len(records)} boards, whole analysis: {cpu:.2f} s CPU, {wall:.2f} s wall")


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", type=int, default=24, help="deals of the evening")
    parser.add_argument("--no-analysis", action="store_true", help="time the par only")
    args = parser.parse_args()
    records = _deals(args.count, args.seed)
    engine = "compiled" if running_native() else "interpreted"
    print(f"{engine} engine, {len(records)} deals, seed {args.seed}")
    _time("par (deal_par)", records, _par)
    if not args.no_analysis:
        _time("analysis, no best cards", records, lambda r: analyse(r, best_cards=False))
        _time("analysis with best cards", records, analyse)
        _time("perfect line after play 16", records, lambda r: perfect_line(r, after=16))
        _evening(_deals(args.boards, args.seed + 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
