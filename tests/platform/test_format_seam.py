"""What differs between tournament formats lives in their profiles
(``tournaments/formats/``), nowhere else: no module of ``tournaments/`` outside the
formats package, the models and the migrations names a format (``Format.PAIRS``, a
comparison of a ``format`` with a value, a tournament's ``duplicate`` setting, a query
on ``tournament__duplicate`` or on a format's value) and no template compares a
tournament's format or reads its duplicate setting; they ask
``tournaments.formats.format_profile(tournament)`` (templates:
``tournament.format_profile``). A new format then touches its profile and what its
profile names, and nothing every format shares.

How: every line of the Python sources (docstrings and comments dropped) and of the
templates is matched against the patterns below; the patterns themselves are tested to
catch each way of naming a format, so the scan cannot pass by matching nothing."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
#: Where a format may be named: its profiles, the rows (models) and their migrations.
ALLOWED = ("tournaments/formats/", "/migrations/", "models.py")
PYTHON_PATTERNS = (
    re.compile(r"\bFormat\.(INDIVIDUAL|PAIRS|LEAGUE)\b"),
    re.compile(r"\.format\s*(==|!=)|\bformat\s*(==|!=)\s*[\"']"),
    re.compile(r"\btournament\.duplicate\b"),
    re.compile(r"__duplicate\b"),
    re.compile(r"__format\s*=\s*[\"']"),
)
TEMPLATE_PATTERNS = (
    re.compile(r"\.format\s*(==|!=)"),
    re.compile(r"tournament\.duplicate\b"),
    re.compile(r"standings\.duplicate\b"),
)


def code_lines(source: str) -> list[tuple[int, str]]:
    """The lines of a module without its comments and docstrings (strings for people
    may name a format)."""
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, (body[0].end_lineno or 0) + 1))
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            lines[row - 1] = lines[row - 1][:column]
    return [(n, line) for n, line in enumerate(lines, 1) if n not in docstrings]


def naming_lines(source: str) -> list[tuple[int, str]]:
    return [
        (number, line)
        for number, line in code_lines(source)
        if any(pattern.search(line) for pattern in PYTHON_PATTERNS)
    ]


@pytest.mark.parametrize(
    "line",
    [
        "ok = tournament.format == Tournament.Format.PAIRS",
        "ok = t.format != 'league'",
        "return bool(round_.tournament.duplicate)",
        "Round.objects.filter(tournament__duplicate=True)",
        'Team.objects.filter(tournament__format="league")',
        "{Format.INDIVIDUAL: seat}",
    ],
)
def test_the_scan_catches_each_way_of_naming_a_format(line: str) -> None:
    assert naming_lines(line + "\n")


def test_the_scan_leaves_profiles_questions_alone() -> None:
    source = (
        '"""A module naming tournament.duplicate in its docstring."""\n'
        "# Format.PAIRS in a comment\n"
        "if format_profile(tournament).boards:\n"
        "    seats = SEATERS[format_profile(tournament).seating]\n"
        "rows = Round.objects.filter(formats.unsealed())\n"
    )
    assert naming_lines(source) == []


def test_no_module_outside_the_format_profiles_names_a_format() -> None:
    found = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if any(part in relative for part in ALLOWED):
            continue
        for number, line in naming_lines(path.read_text(encoding="utf-8")):
            found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


def test_no_template_branches_on_a_format() -> None:
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(pattern.search(line) for pattern in TEMPLATE_PATTERNS):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{number}")
    assert found == []
