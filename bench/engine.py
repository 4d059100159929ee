"""Benchmark: microseconds per full-deal ``check()`` and deals per second, one core.

Usage: ``python bench/engine.py [--count 2000] [--repeat 9] [--seed 1] [--profile]``.
Generates records with ``random_deal`` (the CLI's generator), then times ``check`` over
them several times and reports the best and the median run (the best is the figure to
compare on a shared, noisy machine; the median shows how noisy it was).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import check, random_deal  # noqa: E402


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records = [random_deal(rng, dealer=i % 4) for i in range(args.count)]
    full = sum(1 for r in records if r["contract"]["kind"] != "thrown_in")
    if args.profile:
        cProfile.runctx(
            "for r in records: check(r)",
            globals(),
            {"records": records, "check": check},
            "/tmp/engine.prof",
        )
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(15)
        return 0
    for record in records:
        result = check(record)
        if not result["valid"]:
            raise SystemExit(f"invalid record in benchmark: {result['errors']}")
    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for record in records:
            check(record)
        runs.append(time.perf_counter() - start)
    print(f"{len(records)} records ({full} played, rest thrown in), {args.repeat} runs")
    for label, seconds in (("best", min(runs)), ("median", statistics.median(runs))):
        per_deal = seconds / len(records) * 1e6
        print(f"{label:>6}: {per_deal:.1f} µs per check()  {len(records) / seconds:,.0f} deals/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
