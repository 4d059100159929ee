"""The answers every game's analysis gives around its search: one error under a stable code
for a valid record it does not search (a summary record has no hands and plays to analyse;
docs/analysis.md), the versions stamped on an analysis (an engine bug becomes an
``internal_error``), and the choice of a perfect line's next card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .errors import Code, Problem
from .record import unchecked

Json = dict[str, Any]

#: The error code of a record that is valid but cannot be analysed (a summary).
NOT_ANALYSABLE: Final = "summary_not_analysable"


def unanalysed(result: Json, problem: Problem, *, code: str, version: str) -> Json:
    """The answer for a valid record (``result`` is its ``check`` result) that is not
    analysed: ``problem`` under ``code``; ``version`` is the analysis version."""
    error = problem.to_dict()
    error["code"] = code
    return {
        "valid": True,
        "analysed": False,
        "errors": [error],
        "mode": result["mode"],
        "rules": result["rules"],
        "engine_version": result["engine_version"],
        "analysis_version": version,
    }


def summary_answer(result: Json, version: str) -> Json:
    """The answer for a valid summary record: it has no hands and plays to analyse."""
    problem = Problem(
        Code.BAD_FORMAT,
        "a summary record has no hands and plays: only a full record can be analysed",
        field="hands",
    )
    return unanalysed(result, problem, code=NOT_ANALYSABLE, version=version)


def stamped(result: Json, version: str, analyse: Callable[[], Json]) -> Json:
    """``analyse()`` for a valid record (``result`` is its ``check`` result) with the rules,
    engine and analysis versions added; an exception becomes an ``internal_error``."""
    try:
        out = analyse()
    except Exception as exc:  # noqa: BLE001 - the analysis must answer every input
        return unchecked(
            Problem(Code.INTERNAL_ERROR, f"the analysis failed on this record: {exc!r}")
        )
    out["rules"] = result["rules"]
    out["engine_version"] = result["engine_version"]
    out["analysis_version"] = version
    return out


def first_keeping(
    ordered: list[int], classes: list[list[int]], keeps: Callable[[int], bool]
) -> int:
    """The first card of ``ordered`` (the legal cards in display order) for which
    ``keeps`` holds (it keeps the position's exact value). ``classes`` are the solver's
    equivalent cards, which keep the value or not together: a card whose class failed is
    not searched again, and the last class left keeps it without a search (some legal card
    does: the value is one card's value)."""
    class_of: dict[int, int] = {}
    for index, members in enumerate(classes):
        for c in members:
            class_of[c] = index
    left = len(classes)
    failed: set[int] = set()
    for c in ordered:
        index = class_of[c]
        if index in failed:
            continue
        if left == 1 or keeps(c):
            return c
        failed.add(index)
        left -= 1
    raise AssertionError("no legal card keeps the value")
