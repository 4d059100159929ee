"""Benchmark: microseconds per full-deal ``check()`` and deals per second, one core.

Usage: ``python bench/engine.py [--count 2000] [--repeat 9] [--seed 1] [--profile]
[--instructions]``. Generates records with ``random_deal`` (the CLI's generator), then
times ``check`` over them several times and reports the best and the median run (the best
is the figure to compare on a shared, noisy machine; the median shows how noisy it was).

``--instructions`` counts machine instructions per ``check()`` instead, under valgrind's
callgrind (Debian package ``valgrind``): the same records checked once and twice, the
difference divided by the count. The count does not move with the machine's other work,
so it compares two versions of the engine where timings on a shared machine cannot.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import check, random_deal, running_native  # noqa: E402


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--instructions", action="store_true")
    parser.add_argument("--passes", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.instructions:
        return count_instructions(args.count, args.seed)
    rng = random.Random(args.seed)
    records = [random_deal(rng, dealer=i % 4) for i in range(args.count)]
    full = sum(1 for r in records if r["contract"]["kind"] != "thrown_in")
    if args.passes:  # one measured child of --instructions
        for _ in range(args.passes):
            for record in records:
                check(record)
        return 0
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
    engine = "compiled (mypyc)" if running_native() else "interpreted (make engine compiles it)"
    print(f"{len(records)} records ({full} played, rest thrown in), {args.repeat} runs, {engine}")
    for label, seconds in (("best", min(runs)), ("median", statistics.median(runs))):
        per_deal = seconds / len(records) * 1e6
        print(f"{label:>6}: {per_deal:.1f} µs per check()  {len(records) / seconds:,.0f} deals/s")
    return 0


def count_instructions(count: int, seed: int) -> int:
    """Print instructions per ``check()``: callgrind totals of 2 passes minus 1 pass."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install -y valgrind)")
    totals = []
    for passes in (1, 2):
        command = [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            f"--count={count}",
            f"--seed={seed}",
            f"--passes={passes}",
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise SystemExit(f"no callgrind total in: {done.stderr[-500:]}")
        totals.append(int(found.group(1)))
    per_check = (totals[1] - totals[0]) / count
    print(f"{count} records, seed {seed}: {per_check:,.0f} instructions per check()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
