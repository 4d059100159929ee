"""What differs between games lives in their profiles (``games/profiles/``) and the
engine, nowhere else: no module, shared template or shared script of the platform names
a game kind or a rules preset, or branches on the old game switches. A new game then
touches its profile, its engine preset and the sheet its profile names, and nothing
that every game shares.

How: the Python modules of ``games/`` (outside the engine and the profiles),
``tournaments/`` and ``klammern_site/`` are parsed, and every string constant that is a
preset's or a game's name, and every identifier that names a game or an old switch
(``is_points_game``, ``game_of``, ``hamburg_target``, ``Game.KLAVERJAS``) fails the test;
docstrings, comments and texts for people are free to mention a game. The templates and
scripts that every game shares (all but those a profile names as its sheet) must not
hold a game's name inside a template tag or a script's string, nor test ``game``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

from games import engine, profiles

ROOT = Path(settings.BASE_DIR)
PYTHON_ROOTS = ("games", "tournaments", "klammern_site")
OUTSIDE = ("games/engine/", "games/profiles/", "/migrations/")
#: Game kinds: the engine's ``Options.game`` values, and the platform's old family names.
KINDS = {"klammern", "klaverjas", "belote", "contree", "schieberjass", "solo"}
NAMES = KINDS | set(engine.ALL_PRESETS) | set(profiles.PROFILES)
IDENTIFIER = re.compile(
    r"(?i:klaverjas|belote|contree|hamburg|schieber|^solo)|^is_points_game$|^game_of$"
)
#: "klammern" is the platform's own name too: these constants name the platform.
PLATFORM_NAME = {
    ("tournaments/web/league.py", 'UID_DOMAIN = "klammern"'),
    (
        "tournaments/management/commands/seed_demo.py",
        'USERNAME, PASSWORD = "organiser", "klammern"',
    ),
    (  # the platform's name on the pictures shared of club and tournament tables
        "tournaments/web/publishing.py",
        'SITE_LABEL = "Klammern"',
    ),
}


def python_files() -> list[Path]:
    files = [p for root in PYTHON_ROOTS for p in (ROOT / root).rglob("*.py")]
    return [p for p in files if not any(part in p.as_posix() for part in OUTSIDE)]


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the constants that are docstrings (free text)."""
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                ids.add(id(value))
    return ids


def _identifiers(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.rsplit(".", 1)[-1]]
    if isinstance(node, ast.arg):
        return [node.arg]
    return []


def game_names_in(path: Path, *, relative: str = "") -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    relative = relative or path.relative_to(ROOT).as_posix()
    free = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        where = f"{relative}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in free:
            line = lines[node.lineno - 1].strip()
            if node.value.lower() in NAMES and (relative, line) not in PLATFORM_NAME:
                found.append(f"{where}: {node.value!r}")
        for name in _identifiers(node):
            if IDENTIFIER.search(name):
                found.append(f"{where}: {name}")
    return found


def test_no_module_outside_the_profiles_and_the_engine_names_a_game() -> None:
    found = [hit for path in python_files() for hit in game_names_in(path)]
    assert found == []


def test_the_scan_finds_a_game_named_in_code(tmp_path: Path) -> None:
    """The scan itself: a branch on a preset, a switch's name and a family's name are
    found; the same names in a docstring, a comment or a text for people are not."""
    module = tmp_path / "probe.py"
    module.write_text(
        '"""Klaverjas and klammern-2 in a docstring are free."""\n'
        "# klaverjas in a comment is free\n"
        'LABEL = "Klaverjas, Rotterdam rules"\n'
        "def f(preset: str, options: object) -> bool:\n"
        '    return preset == "klaverjas-rotterdam" or is_points_game(options)\n'
        'KIND = "solo"\n',
        encoding="utf-8",
    )
    found = game_names_in(module, relative="tournaments/probe.py")
    assert sorted(hit.split(": ", 1)[1] for hit in found) == [
        "'klaverjas-rotterdam'",
        "'solo'",
        "is_points_game",
    ]


def sheet_files() -> set[str]:
    """The templates and scripts a profile names as a game's own sheet."""
    names = set()
    for profile in profiles.PROFILES.values():
        sheet = profile.sheet
        names |= {f"templates/{sheet.entry_template}", f"templates/{sheet.state_template}"}
        if sheet.entry_script:
            names.add(f"tournaments/static/{sheet.entry_script}")
    return names


TAG = re.compile(r"{%.*?%}", re.S)
JS_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")
GAME_TEST = re.compile(r"\bgame\s*==|==\s*game\b")


def shared_hits(path: Path, pieces: list[str], *, strings: bool) -> list[str]:
    """The pieces (template tags, or a script's strings) that test ``game`` or hold a
    game's name as a whole string (a tag's quoted string, or a bare word of a kind)."""
    relative = path.relative_to(ROOT).as_posix()
    hits = []
    for piece in pieces:
        quoted = [m.group(2) for m in JS_STRING.finditer(piece)] if not strings else [piece]
        words = set() if strings else set(re.findall(r"\b\w+\b", JS_STRING.sub("", piece)))
        named = {q.lower() for q in quoted} & NAMES or words & (KINDS - {"klammern"})
        if named or GAME_TEST.search(piece):
            hits.append(f"{relative}: {piece.strip()[:80]}")
    return hits


def test_no_shared_template_or_script_names_a_game() -> None:
    own = sheet_files()
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        if path.relative_to(ROOT).as_posix() not in own:
            text = re.sub(r"{#.*?#}", "", path.read_text(encoding="utf-8"), flags=re.S)
            found += shared_hits(path, TAG.findall(text), strings=False)
    for path in sorted((ROOT / "tournaments" / "static").rglob("*.js")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in own or path.name.endswith(".min.js"):
            continue
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        found += shared_hits(path, [m.group(2) for m in JS_STRING.finditer(text)], strings=True)
    assert found == []
