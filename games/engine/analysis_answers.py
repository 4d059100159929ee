"""The answers every game's analysis gives around its search: one error under a stable code
for a valid record it does not search (a summary record has no hands and plays to analyse;
docs/analysis.md), and the versions stamped on an analysis (an engine bug becomes an
``internal_error``).
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
