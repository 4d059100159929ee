"""The committed sample files are what ``scripts/history_sample.py`` makes, and read as
the import reads them (three evenings, one refused row)."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

from tournaments.history import parsing

ROOT = Path(__file__).resolve().parents[2]


def script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "history_sample", ROOT / "scripts" / "history_sample.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_samples_are_what_the_script_makes() -> None:
    sample = script()
    assert (ROOT / "docs" / "history-sample.csv").read_bytes() == sample.sample_csv()
    assert (ROOT / "docs" / "history-sample.xlsx").read_bytes() == sample.sample_xlsx()


def test_the_samples_hold_three_evenings_and_one_refused_row() -> None:
    for name in ("history-sample.csv", "history-sample.xlsx"):
        cells = parsing.read_cells((ROOT / "docs" / name).read_bytes())
        parsed = parsing.parse_rows(cells, today=date(2026, 12, 6))
        plan = parsing.plan_import(parsed, known_players={}, existing_dates=(), create_players=True)
        assert len(plan.evenings) == 3 and len(plan.players) == 8, name
        assert [(r.code, r.line) for r in plan.refusals] == [("bad_date", 10)], name
