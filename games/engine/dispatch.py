"""Checking a deal record of any preset: ``check`` picks the game's checker.

The record's ``rules`` name the preset; Klammern (4 players, ``klammern`` and
``klammern-hamburg``) is checked by ``record``, Klaverjas by ``klaverjas``, Belote by
``belote``, Belote Contrée by ``contree``, the Schieber by ``schieber``, Klammern for 2
or 3 players by ``solo``.
``check`` never raises: a bug becomes an ``internal_error``.
"""

from __future__ import annotations

from typing import Any

from .belote import check_belote
from .contree import check_contree
from .errors import Code, Problem
from .klaverjas import check_klaverjas
from .record import check_klammern, resolve_record_rules, unchecked
from .schieber import check_schieber
from .solo import check_solo

Json = dict[str, Any]


def _check(record: object) -> Json:
    resolved = resolve_record_rules(record)
    if isinstance(resolved, dict):
        return resolved
    assert isinstance(record, dict)
    preset, options = resolved
    if options.game == "klaverjas":
        return check_klaverjas(record, preset, options)
    if options.game == "belote":
        return check_belote(record, preset, options)
    if options.game == "contree":
        return check_contree(record, preset, options)
    if options.game == "schieber":
        return check_schieber(record, preset, options)
    if options.players != 4:
        return check_solo(record, preset, options)
    return check_klammern(record, preset, options)


def check(record: object) -> Json:
    """Validate one deal record of any preset and compute its result; never raises."""
    try:
        return _check(record)
    except Exception as exc:  # noqa: BLE001 - check() must answer every input
        return unchecked(Problem(Code.INTERNAL_ERROR, f"the engine failed on this record: {exc!r}"))


__all__ = ["check"]
