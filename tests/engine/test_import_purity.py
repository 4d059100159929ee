"""Importing games.engine loads no Django, DRF or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
import games.engine
import games.engine.__main__
bad = sorted(m for m in sys.modules
             if m.split('.')[0] in {'django', 'rest_framework', 'celery', 'kombu'})
print(','.join(bad))
"""


def test_import_loads_no_framework() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert proc.stdout.strip() == ""


def test_games_package_init_is_empty() -> None:
    assert (ROOT / "games" / "__init__.py").read_text() == ""
