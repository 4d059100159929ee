"""Compile the rules engine with mypyc into ``build/engine-native/`` (optional speed-up).

The engine (``games/engine/``) is plain, ``mypy --strict`` Python and runs as it is. This
script compiles the same sources with mypyc (part of mypy, a pinned dev requirement; it
needs gcc and setuptools) into C extension modules, and builds the engine's own C sources
(``csolver.c``, the double-dummy search) beside them. ``games/engine/__init__.py`` puts the
compiled modules ahead of the sources only while they were built from exactly the sources
on disk by this interpreter (``SOURCES`` holds their digest), so an edited engine is never
shadowed by an old build; it falls back to the sources otherwise, or when
``KLAMMERN_ENGINE=python`` is set.

Usage: ``python scripts/build_engine.py [--force] [--check]``. Without ``--force`` it does
nothing when the build on disk is current. ``--check`` only says whether it is (exit 1 when
not). The package's ``__init__`` and ``__main__`` stay interpreted: they only import and
parse arguments.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine.native import (  # noqa: E402
    C_EXTENSIONS,
    COMPILED,
    NATIVE_DIR,
    STAMP,
    native_is_current,
    sources_digest,
)

ENGINE = ROOT / "games" / "engine"
BUILD = NATIVE_DIR.parents[1]  # build/engine-native


def main() -> int:
    """Build the compiled engine unless it is current; print what was done."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even when current")
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args()
    current = native_is_current()
    if args.check:
        print("compiled engine is current" if current else "compiled engine is missing or old")
        return 0 if current else 1
    if current and not args.force:
        print(f"compiled engine is current ({NATIVE_DIR.relative_to(ROOT)})")
        return 0
    build()
    if not native_is_current():
        raise SystemExit("the compiled engine was built but does not match its sources")
    print(f"compiled engine built into {NATIVE_DIR.relative_to(ROOT)}")
    return 0


def build() -> None:
    """Compile every module named in ``COMPILED`` and the C sources in ``C_EXTENSIONS``
    into a fresh ``build/engine-native``."""
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:  # pragma: no cover - a dev requirement is missing
        raise SystemExit(f"building the engine needs mypy and setuptools: {exc}") from exc
    digest = sources_digest()
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.rmtree(BUILD.parent / "engine-native-c", ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="engine-native-") as temp:
        paths = [str((ENGINE / name).relative_to(ROOT)) for name in COMPILED]
        previous = Path.cwd()
        os.chdir(ROOT)  # mypyc names modules by their path from here
        try:
            modules = mypycify(
                ["--cache-dir", str(Path(temp) / "mypy-cache"), *paths],
                opt_level="3",
                group_name="games.engine.native",
                target_dir=str(BUILD.parent / "engine-native-c"),
            )
            setup(
                name="klammern-engine-native",
                packages=[],
                py_modules=[],
                ext_modules=[*modules, *c_extensions()],
                script_args=[
                    "--quiet",
                    "build_ext",
                    "--build-lib",
                    str(BUILD),
                    "--build-temp",
                    str(Path(temp) / "o"),
                ],
            )
        finally:
            os.chdir(previous)
    STAMP.write_text(digest)


def c_extensions() -> list[Any]:
    """The engine's C sources as setuptools extensions (``C_EXTENSIONS``), built -O3."""
    from setuptools import Extension

    return [
        Extension(
            f"games.engine.{module}",
            [str((ENGINE / source).relative_to(ROOT))],
            extra_compile_args=["-O3"],
        )
        for source, module in C_EXTENSIONS.items()
    ]


if __name__ == "__main__":
    sys.exit(main())
