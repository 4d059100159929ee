"""Pure checks of a simulated tournament: what was sent against what the API stores, the
standings snapshot against a fresh recompute, and latency percentiles. No I/O here, so
the checks themselves can be tested with deliberately broken inputs."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

DealKey = tuple[int, int]
"""(match id, deal number)."""


def verify_deals(
    expected: Mapping[DealKey, dict[str, Any]], stored: Mapping[int, Sequence[dict[str, Any]]]
) -> list[str]:
    """Problems found when every match's listed deals (``stored``: match id -> the deal
    list endpoint's items) are compared with the records expected to be stored once."""
    problems: list[str] = []
    counts = Counter((match, deal["number"]) for match, deals in stored.items() for deal in deals)
    for key, count in sorted(counts.items()):
        if count > 1:
            problems.append(f"match {key[0]} deal {key[1]}: stored {count} times")
        if key not in expected:
            problems.append(f"match {key[0]} deal {key[1]}: stored but never accepted")
    for key in sorted(expected):
        if key not in counts:
            problems.append(f"match {key[0]} deal {key[1]}: accepted but not stored (lost)")
    for match, deals in stored.items():
        for deal in deals:
            problems += _deal_problems(expected.get((match, deal["number"])), match, deal)
    return problems


def _deal_problems(record: dict[str, Any] | None, match: int, deal: dict[str, Any]) -> list[str]:
    where = f"match {match} deal {deal['number']}"
    problems = []
    if record is not None and deal.get("record") != record:
        problems.append(f"{where}: stored record differs from the one accepted")
    if deal.get("version") != 1 or len(deal.get("history", [])) != 1:
        problems.append(f"{where}: {len(deal.get('history', []))} versions, expected 1")
    return problems


def verify_standings(
    snapshot: dict[str, Any], fresh: dict[str, Any] | None
) -> tuple[list[str], str]:
    """Problems and a one-line verdict. ``fresh`` is the organiser's ``?fresh=1`` answer,
    or None when the server does not offer a fresh recompute (then only the snapshot's
    own up-to-date flag can be checked, and the verdict says so)."""
    problems = []
    if snapshot.get("computed_version") is None:
        problems.append("standings: no snapshot was ever computed")
    elif not snapshot.get("up_to_date"):
        problems.append(
            f"standings: snapshot v{snapshot['computed_version']} is behind "
            f"results v{snapshot['results_version']}"
        )
    if fresh is None:
        return problems, "snapshot only (the server offers no fresh recompute yet)"
    flags = fresh_flags(snapshot, fresh)
    if not flags:
        problems.append("standings: the fresh answer says nothing about the snapshot")
    problems += [
        f"standings: fresh recompute reports {name}=false" for name, ok in flags.items() if not ok
    ]
    if "data" in fresh and fresh["data"] != snapshot.get("data"):
        problems.append("standings: fresh recompute differs from the snapshot")
    return problems, "snapshot compared with a fresh full recompute"


def fresh_flags(snapshot: dict[str, Any], fresh: dict[str, Any]) -> dict[str, bool]:
    """The yes/no answers only the fresh response carries (e.g. whether it matches)."""
    return {k: v for k, v in fresh.items() if isinstance(v, bool) and k not in snapshot}


def offers_fresh(snapshot: dict[str, Any], fresh: dict[str, Any]) -> bool:
    """Whether the server honoured ``?fresh=1`` (its answer has fields the plain one has
    not); an older server ignores the parameter and serves the snapshot."""
    return bool(set(fresh) - set(snapshot))


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def standing_rows(data: Any) -> list[dict[str, Any]]:
    """The ranked rows inside a snapshot's ``data``, whatever it is wrapped in."""
    if isinstance(data, list):
        return [row for row in data if isinstance(row, dict)]
    if isinstance(data, dict):
        for key in ("rows", "standings", "table", "ranking"):
            if isinstance(data.get(key), list):
                return standing_rows(data[key])
    return []
