"""The command line: check FILE, check --jsonl, random."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from tests.engine.helpers import TIE_RECORD

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_check_file_valid(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(TIE_RECORD))
    proc = run("check", str(path))
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert result["valid"] and result["points"] == [82, 82]
    assert proc.stdout.count("\n") == 1


def test_check_invalid_and_unreadable(tmp_path: Path) -> None:
    bad = copy.deepcopy(TIE_RECORD)
    bad["plays"][2] = "8S"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert run("check", str(path)).returncode == 1
    path.write_text("{not json")
    proc = run("check", str(path))
    assert proc.returncode == 2 and json.loads(proc.stdout)["errors"][0]["code"] == "bad_format"
    assert run("check", str(tmp_path / "missing.json")).returncode == 2


def test_check_stdin_dash() -> None:
    assert run("check", "-", stdin=json.dumps(TIE_RECORD)).returncode == 0


def test_jsonl_in_order() -> None:
    lines = [json.dumps(TIE_RECORD), "[1]", "{broken", json.dumps(TIE_RECORD)]
    proc = run("check", "--jsonl", stdin="\n".join(lines) + "\n")
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["valid"] for r in results] == [True, False, False, True]
    assert proc.returncode == 1


def test_random_is_deterministic_and_valid() -> None:
    first = run("random", "--seed", "3", "--count", "30").stdout
    assert first == run("random", "--seed", "3", "--count", "30").stdout
    assert len(first.splitlines()) == 30
    proc = run("check", "--jsonl", stdin=first)
    assert proc.returncode == 0
    assert all(json.loads(line)["valid"] for line in proc.stdout.splitlines())
