"""The par analysis (``games.engine.analyse``) and ``python -m games.engine analyse``."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.engine import NOT_ANALYSABLE, Options, analyse, check, random_deal
from games.engine.analysis import DealAnalysis, Position
from tests.engine.helpers import TIE_RECORD

ROOT = Path(__file__).resolve().parents[2]


def _late_deal(seed: int, **want: Any) -> dict[str, Any]:
    """The first random deal whose fields match ``want`` (True/False: present or not)."""
    rng = random.Random(seed)
    while True:
        record = random_deal(rng)
        if all(
            (k in record) == v if isinstance(v, bool) else record.get(k) == v
            for k, v in want.items()
        ):
            return record


def test_the_par_of_a_deal_is_consistent_with_check() -> None:
    result = check(TIE_RECORD)
    out = analyse(TIE_RECORD)
    assert out["valid"] and out["analysed"] and out["errors"] == []
    assert out["actual"]["points"] == result["points"] == [82, 82]
    assert sum(out["par_card_points"]) == 164
    assert out["par"] == out["par_card_points"]  # no melds, no Bella
    assert len(out["plays"]) == 32
    assert out["par_outcome"] in ("made", "failed")
    # the par after the last card is what was actually taken
    assert out["plays"][-1]["par"] == result["points"]


def test_each_play_costs_the_difference_of_the_pars() -> None:
    out = analyse(TIE_RECORD)
    before = out["par"]
    for entry in out["plays"]:
        team = entry["seat"] & 1
        assert entry["cost"] == before[team] - entry["par"][team] >= 0
        assert (entry["cost"] == 0) == (entry["card"] in entry["best"])
        before = entry["par"]
    costs = sum(e["cost"] for e in out["plays"])
    assert costs >= 0


def test_melds_and_bella_are_fixed_additions() -> None:
    record = _late_deal(5, bella=True, revoke=False, march=False)
    record = copy.deepcopy(record)
    result, out = check(record), analyse(record)
    extra = [p - c for p, c in zip(result["points"], _card_points(result), strict=True)]
    assert [p - c for p, c in zip(out["par"], out["par_card_points"], strict=True)] == extra
    assert out["plays"][-1]["par"] == result["points"]


def _card_points(result: dict[str, Any]) -> list[int]:
    points = [0, 0]
    for trick in result["tricks"]:
        points[trick["winner"] & 1] += trick["points"]
    return points


def test_an_invalid_record_gets_checks_errors_unchanged() -> None:
    bad = copy.deepcopy(TIE_RECORD)
    bad["plays"][2] = "8S"
    assert analyse(bad) == check(bad)
    assert analyse("nonsense") == check("nonsense")


def test_a_summary_cannot_be_analysed() -> None:
    summary = {
        "format": "klammern-deal/1",
        "dealer": 0,
        "upcard": "7H",
        "contract": {"kind": "orgi", "declarer": 1, "trump": "H"},
        "card_points": [100, 64],
    }
    assert check(summary)["valid"]
    out = analyse(summary)
    assert out["valid"] and not out["analysed"]
    assert [e["code"] for e in out["errors"]] == [NOT_ANALYSABLE]
    assert "par" not in out


def test_a_thrown_in_deal_has_a_nil_par() -> None:
    record = copy.deepcopy(TIE_RECORD)
    record["contract"] = {"kind": "thrown_in"}
    record["plays"] = []
    out = analyse(record)
    assert out["analysed"] and out["par"] == [0, 0] and out["plays"] == []
    assert out["par_outcome"] == "thrown_in"


def test_a_revoke_deal_analyses_the_plays_before_it() -> None:
    record = _late_deal(11, revoke=True)
    out = analyse(record)
    assert out["analysed"]
    assert len(out["plays"]) == len(record["plays"])
    assert out["revoke"]["play"] == len(record["plays"])
    assert out["revoke"]["card"] == record["revoke"]["card"]
    assert out["revoke"]["card"] not in out["revoke"]["best"]
    assert out["actual"]["outcome"] == "revoke"
    assert out["par_outcome"] in ("made", "failed")


def test_a_march_says_whether_it_can_be_forced() -> None:
    record = _late_deal(3, march=True, revoke=False)
    out = analyse(record)
    assert isinstance(out["par_march"], bool)
    assert out["par_outcome"] == ("march_won" if out["par_march"] else "march_lost")
    assert all("march" in e for e in out["plays"])
    for entry in out["plays"]:
        assert entry["par_outcome"] == ("march_won" if entry["march"] else "march_lost")
    took_all = check(record)["outcome"] == "march_won"
    assert out["plays"][-1]["march"] == took_all


def test_the_march_solver_on_a_hand_that_holds_every_trick() -> None:
    # seat 0 holds all Hearts (trump) and leads: its team takes every trick
    hands = [0xFF << 16, 0xFF, 0xFF << 8, 0xFF << 24]
    deal = DealAnalysis(hands, 2, 0, Options(), march_team=0)
    start = Position((1 << 32) - 1, 0, [], 0)
    assert deal.march_holds(start, False)
    assert deal.card_par(start) == 164
    deal1 = DealAnalysis(hands, 2, 0, Options(), march_team=1)
    assert not deal1.march_holds(start, False)


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_cli_analyse_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(TIE_RECORD))
    proc = _run(str(path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == analyse(TIE_RECORD)


def test_cli_analyse_jsonl_keeps_order_and_errors() -> None:
    bad = copy.deepcopy(TIE_RECORD)
    bad["plays"][2] = "8S"
    lines = [json.dumps(TIE_RECORD), json.dumps(bad), "", "{not json"]
    proc = _run("--jsonl", "--no-best", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 3
    assert out[0]["par"] == analyse(TIE_RECORD)["par"] and "best" not in out[0]["plays"][0]
    assert out[1] == check(bad)
    assert out[2]["errors"][0]["code"] == "bad_format"
