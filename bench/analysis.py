"""Benchmark: the par of a full deal and the whole par analysis of a deal, one core.

Usage: ``python bench/analysis.py [--count 40] [--seed 1] [--no-analysis] [--preset P]``.
Generates ``--count`` played random deals of the preset (``random_deal``, thrown-in deals
skipped; ``klammern`` by default, ``klaverjas-rotterdam`` or ``klaverjas-amsterdam`` for
Klaverjas, ``belote``, ``belote-contree``, ``klammern-2`` or ``klammern-3``), then times for
each: the par from the first lead with a fresh solver (``deal_par``, for Klaverjas, Belote
and Belote Contrée their ``deal_margin``, for 2 or 3 players ``deal_value``),
``analyse(record, best_cards=False)`` (the par before and after each of the 32 plays) and
``analyse(record)`` (the same plus every play's best cards and each legal card's value,
the perfect line after each costly play; for every game also the makeable table)
and, for Klammern, ``perfect_line`` from the middle of the deal. Prints the median, mean
and worst in milliseconds of wall time, the CPU time of this process for the whole
analysis of all deals, the sum of the whole analyses per 24 deals, then an evening: the
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
from games.engine.belote_analysis import deal_margin as belote_margin  # noqa: E402
from games.engine.contree_analysis import contree_margin  # noqa: E402
from games.engine.klaverjas_analysis import deal_margin  # noqa: E402
from games.engine.solo_analysis import deal_value  # noqa: E402

EVENING = 24


def _deals(count: int, seed: int, preset: str) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        record = random_deal(rng, dealer=len(out) % 4, rules={"preset": preset})
        if record["contract"]["kind"] != "thrown_in":
            out.append(record)
    return out


def _par(record: dict[str, Any]) -> None:
    hands = [sum(1 << CARD_BY_TEXT[t] for t in hand) for hand in record["hands"]]
    options = resolve_rules(record.get("rules"), include_engine_only=True)
    if options.players != 4:
        deal_value(
            hands,
            trump="CSHD".index(record["contract"]["trump"]),
            declarer=record["contract"]["declarer"],
            forehand=(record["dealer"] + 1) % options.players,
            options=options,
        )
        return
    solvers = {"klaverjas": deal_margin, "belote": belote_margin, "contree": contree_margin}
    solve = solvers.get(options.game, deal_par)
    solve(
        hands,
        trump="CSHD".index(record["contract"]["trump"]),
        forehand=(record["dealer"] + 1) % 4,
        options=options,
    )


def _time(label: str, records: list[dict[str, Any]], run: Callable[[Any], object]) -> list[float]:
    times = []
    for record in records:
        start = time.perf_counter()
        run(record)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"{label:<28} median {statistics.median(times):8.1f} ms   "
        f"mean {statistics.fmean(times):8.1f} ms   worst {max(times):8.1f} ms"
    )
    return times


def _evenings(times: list[float]) -> None:
    """The whole analyses summed per 24 deals (an evening's boards)."""
    sums = [sum(times[i : i + EVENING]) / 1000 for i in range(0, len(times) - EVENING + 1, EVENING)]
    if sums:
        shown = ", ".join(f"{s:.2f} s" for s in sums)
        print(f"per {EVENING} deals (analysis with best cards): {shown}")


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
    parser.add_argument("--preset", default="klammern", help="the deals' rules preset")
    args = parser.parse_args()
    records = _deals(args.count, args.seed, args.preset)
    engine = "compiled" if running_native() else "interpreted"
    print(f"{engine} engine, {len(records)} deals of {args.preset}, seed {args.seed}")
    if not analyse(records[0]).get("analysed"):
        print(f"no perfect-play analysis for {args.preset}: nothing to time")
        return 0
    _time("par (first lead)", records, _par)
    if not args.no_analysis:
        _time("analysis, no best cards", records, lambda r: analyse(r, best_cards=False))
        cpu = time.process_time()
        times = _time("analysis with best cards", records, analyse)
        cpu = time.process_time() - cpu
        print(f"CPU time of the analyses with best cards: {cpu:.2f} s for {len(records)} deals")
        _evenings(times)
        if args.preset.startswith("klammern"):
            _time("perfect line after play 16", records, lambda r: perfect_line(r, after=16))
        _evening(_deals(args.boards, args.seed + 1000, args.preset))
    return 0


if __name__ == "__main__":
    sys.exit(main())
