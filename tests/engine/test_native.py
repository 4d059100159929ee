"""The compiled engine (mypyc, ``games/engine/native.py``): when it runs, that it is never
older than the sources, and that it answers exactly as the interpreted engine does."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from games.engine import check, random_deal, running_native
from games.engine import native as native_module

from .helpers import cli_both_engines

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_compiled_engine() -> None:
    # .ci/run builds it (make test depends on make engine): the suite must test it there
    if os.environ.get("CI") != "true" or os.environ.get(native_module.ENV_SWITCH) == "python":
        assert running_native() == (native_module.native_path() is not None)
        return
    assert native_module.native_is_current(), "build/engine-native is missing or old"
    assert running_native()


def test_a_build_of_other_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stamp = tmp_path / "SOURCES"
    monkeypatch.setattr(native_module, "STAMP", stamp)
    monkeypatch.delenv(native_module.ENV_SWITCH, raising=False)
    assert native_module.native_path() is None  # no build at all
    stamp.write_text("0" * 64)
    assert native_module.native_path() is None  # a build of other sources
    stamp.write_text(native_module.sources_digest())
    assert native_module.native_path() == str(native_module.NATIVE_DIR)


def test_the_switch_runs_the_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native_module.ENV_SWITCH, "python")
    assert native_module.native_path() is None


def _records() -> list[object]:
    """Random legal deals, each also broken in a few ways, and some that are no record."""
    rng = random.Random(77)
    records: list[object] = [None, [], "deal", {"format": "klammern-deal/1"}]
    for n in range(150):
        record = random_deal(rng, dealer=n % 4)
        records.append(record)
        if record["contract"]["kind"] == "thrown_in":
            continue
        swapped = json.loads(json.dumps(record))
        i, j = rng.randrange(len(record["plays"])), rng.randrange(len(record["plays"]))
        swapped["plays"][i], swapped["plays"][j] = swapped["plays"][j], swapped["plays"][i]
        short = {**record, "plays": record["plays"][: rng.randrange(32)]}
        bad_card = {**record, "upcard": "10X"}
        records += [swapped, short, bad_card, {**record, "hands": record["hands"][:3]}]
    return records


def test_compiled_and_interpreted_engines_answer_alike() -> None:
    records = _records()
    lines = "".join(json.dumps(r) + "\n" for r in records)
    # 1: some records are invalid
    interpreted, default = cli_both_engines("check", lines, returncode=1)
    assert len(interpreted) == len(records)
    assert interpreted == default
    # and this process (compiled when built) agrees with the interpreted CLI
    assert [json.loads(line) for line in interpreted] == [check(r) for r in records]
