"""Benchmark: the rules engine of this checkout against an earlier commit's, interleaved.

Usage: ``python bench/engine_ab.py [--base REV] [--rounds 8] [--count 2000]``.
Extracts ``games/`` of ``REV`` (default ``HEAD``) into a temporary directory, then times
``check`` over the same random records alternately with the old and the current engine,
each in a fresh interpreter (best of 5 passes per run). On a shared machine whose speed
drifts from minute to minute, the ratio of two runs taken back to back moves much less
than either figure; the median of the pairs' ratios is the number to read.
Does not judge the output: the golden test (tests/engine/test_golden.py) does that.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Times ``check`` in the engine under ``sys.argv[1]``; prints µs per check (best pass).
TIMER = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from games.engine import check, random_deal
rng = random.Random(1)
records = [random_deal(rng, dealer=i % 4) for i in range(int(sys.argv[2]))]
for record in records:
    check(record)
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    for record in records:
        check(record)
    best = min(best, time.perf_counter() - start)
print(best / len(records) * 1e6)
"""


def extract_engine(rev: str, into: Path) -> None:
    """Write ``games/`` as it was at ``rev`` below ``into``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "games"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def time_engine(root: Path, count: int) -> float:
    """µs per check of the engine below ``root``, in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", TIMER, str(root), str(count)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    return float(done.stdout)


def main() -> int:
    """Run the interleaved comparison and print both engines' figures and the ratio."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="HEAD")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        extract_engine(args.base, base)
        old, new = [], []
        for _ in range(args.rounds):
            old.append(time_engine(base, args.count))
            new.append(time_engine(ROOT, args.count))
    ratios = [n / o for o, n in zip(old, new, strict=True)]
    print(f"{args.base}: best {min(old):.1f} µs, median {statistics.median(old):.1f} µs")
    print(f"this checkout: best {min(new):.1f} µs, median {statistics.median(new):.1f} µs")
    print(f"ratio new/old per pair: {', '.join(f'{r:.3f}' for r in ratios)}")
    print(f"median ratio: {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
