"""The printed summary of a simulation run."""

from __future__ import annotations

from typing import Any

from .checks import percentile
from .scenario import Report


def summary_lines(report: Report) -> list[str]:
    ms = [s * 1000 for s in report.latencies]
    statuses = ", ".join(f"{code}: {n}" for code, n in sorted(report.statuses.items()))
    chaos = ", ".join(f"{kind}: {n}" for kind, n in sorted(report.chaos.items())) or "none"
    lines = [
        f"tournament {report.tournament}",
        f"tables played      {report.tables}",
        f"deals stored       {report.deals_stored} (thrown in: {report.thrown_in})",
        f"submissions sent   {report.submissions} ({statuses})",
        f"  of which chaos   {chaos}; waited out 429: {report.throttled}",
        f"deals per second   {report.deals_per_second:.1f} "
        f"({report.deals_stored} deals in {report.play_seconds:.1f} s of play)",
        f"submission latency p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
        f"p99 {percentile(ms, 99):.1f} ms (2xx answers)",
        f"standings check    {report.standings_verdict}",
        "top 10:",
    ]
    lines += [f"  {top_line(row, report.names)}" for row in report.top] or ["  (no standings)"]
    return lines


def top_line(row: dict[str, Any], names: dict[int, str]) -> str:
    who = row.get("entrant", row.get("player", row.get("team")))
    name = names.get(who, str(who)) if isinstance(who, int) else str(who)
    points = row.get("tournament_points", row.get("league_points", ""))
    return (
        f"{row.get('rank', '?'):>3}. {name:<28} points {points}  "
        f"won {row.get('won', '?')}/{row.get('played', '?')}  "
        f"diff {row.get('point_difference', '')}"
    )
