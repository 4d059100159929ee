"""Whether to run the engine's mypyc-compiled modules, and where they are.

``scripts/build_engine.py`` compiles the modules named in ``COMPILED`` into
``build/engine-native/games/engine/`` and writes there a digest of the sources it
compiled. ``games/engine/__init__.py`` asks ``native_path()`` before it imports anything
else and puts that folder ahead of the sources on the package's ``__path__`` only when the
digest still matches the sources on disk and this interpreter, so a compiled module never
runs code older than its source. The compiled and the interpreted engine give the same
results (the test suite runs on both); the compiled one is faster.

This module decides nothing about rules and is never compiled itself.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
NATIVE_DIR: Final = HERE.parents[1] / "build" / "engine-native" / "games" / "engine"
STAMP: Final = NATIVE_DIR / "SOURCES"
#: The modules mypyc compiles: all but this one, ``__init__`` and ``__main__``.
COMPILED: Final = (
    "analysis.py",
    "analysis_answers.py",
    "belote.py",
    "belote_analysis.py",
    "cards.py",
    "combos.py",
    "contract.py",
    "contree.py",
    "contree_analysis.py",
    "dispatch.py",
    "errors.py",
    "jass.py",
    "keepers.py",
    "klaverjas.py",
    "klaverjas_analysis.py",
    "klaverjas_solver.py",
    "melds.py",
    "play.py",
    "randomdeal.py",
    "record.py",
    "reference_solver.py",
    "rules.py",
    "schieber.py",
    "scoring.py",
    "seatwalk.py",
    "solo.py",
    "solo_analysis.py",
    "solo_solver.py",
    "solver.py",
    "summary.py",
)
#: C sources built beside them as extension modules (``csolver.c`` is ``_csolver``, the
#: search of ``solver.py`` in C; ``kjsolver.c`` is ``_kjsolver``, that of
#: ``klaverjas_solver.py``; ``solocsolver.c`` is ``_solocsolver``, that of ``solo_solver.py``;
#: each solver uses its C search when it is importable).
C_EXTENSIONS: Final = {
    "csolver.c": "_csolver",
    "kjsolver.c": "_kjsolver",
    "solocsolver.c": "_solocsolver",
}
#: ``KLAMMERN_ENGINE=python`` runs the interpreted engine even when a build is current.
ENV_SWITCH: Final = "KLAMMERN_ENGINE"


def sources_digest() -> str:
    """A digest of the compiled modules' and C sources and of the interpreter building them."""
    digest = hashlib.sha256()
    digest.update(f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}".encode())
    for name in (*COMPILED, *C_EXTENSIONS):
        digest.update(name.encode() + b"\0" + (HERE / name).read_bytes() + b"\0")
    return digest.hexdigest()


def native_is_current() -> bool:
    """True when the compiled modules on disk were built from the sources on disk."""
    try:
        built = STAMP.read_text()
    except OSError:
        return False
    return built == sources_digest()


def native_path() -> str | None:
    """The folder of compiled modules to search first, or None to run the sources."""
    if os.environ.get(ENV_SWITCH, "") == "python":
        return None
    return str(NATIVE_DIR) if native_is_current() else None


def running_native() -> bool:
    """True when this process runs the compiled engine."""
    from . import record

    return not str(getattr(record, "__file__", "")).endswith(".py")
