"""Independent rules audit: hand-computed deal records run through the engine's command line.

Every case in ``tests/engine/audit/*.jsonl`` holds a record and
a subset of the expected result, computed by hand from RULES.md (see each case's ``why``).
All records go through one ``python -m games.engine check --jsonl`` call.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

AUDIT = Path(__file__).parent / "audit"
ROOT = Path(__file__).resolve().parents[2]


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(AUDIT.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                case = json.loads(line)
                case["_where"] = f"{path.name}:{n}"
                cases.append(case)
    return cases


CASES = load_cases()


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    stdin = "".join(json.dumps(c["record"]) + "\n" for c in CASES)
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "check", "--jsonl", "-"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == len(CASES), (proc.returncode, proc.stderr[-2000:], len(lines))
    return {c["name"]: json.loads(ln) for c, ln in zip(CASES, lines, strict=True)}


def actual(result: dict[str, Any], key: str) -> Any:
    if key == "melds.winning_team":
        return (result.get("melds") or {}).get("winning_team")
    if key == "trick_winners":
        return [t["winner"] for t in result.get("tricks") or []]
    if key == "error_codes_exact":
        return sorted({e["code"] for e in result.get("errors", [])})
    return result.get(key, "<absent>")


def matches(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got.get("code") != want["code"]:
        return False
    return "play" not in want or got.get("play") == want["play"]


def check_case(case: dict[str, Any], result: dict[str, Any]) -> list[str]:
    problems = []
    for key, want in case["expect"].items():
        if key == "errors":
            got = result.get("errors", [])
            for err in want:
                if not any(matches(g, err) for g in got):
                    problems.append(f"errors: want {err} in {got}")
            continue
        got = actual(result, key)
        if key == "error_codes_exact":
            want = sorted(want)
        if got != want:
            problems.append(f"{key}: want {want!r}, engine {got!r}")
    return problems


def test_names_unique() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))


def test_every_case_has_rule_and_why() -> None:
    for c in CASES:
        assert c.get("rule") and c.get("why") and c.get("expect"), c["name"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_audit_case(case: dict[str, Any], results: dict[str, dict[str, Any]]) -> None:
    problems = check_case(case, results[case["name"]])
    assert not problems, f"{case['name']} ({case['_where']}): " + "; ".join(problems)
