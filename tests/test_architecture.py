"""The layers hold: the import-linter contracts are kept, no module of the project takes
part in an import cycle, and imports sit inside functions only where the contracts say
why (a Celery task body, ``AppConfig.ready``, the engine's compiled-module switch)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import networkx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "tournaments", "klammern_site")
#: The edges the layers contract ignores: services queue their tasks at module level,
#: the task imports its service inside its body.
TASK_EDGES = {
    ("tournaments.events.versions", "tournaments.tasks"),
    ("tournaments.draw.services", "tournaments.tasks"),
    ("tournaments.leagues.reminders", "tournaments.tasks"),
    ("games.analysis_services", "games.tasks"),
}
#: (file, function) that may import inside their body, and why.
FUNCTION_IMPORTS = {
    ("tournaments/tasks.py", "*"): "a task imports the service that queues it",
    ("games/tasks.py", "*"): "a task imports the service that queues it",
    ("tournaments/apps.py", "ready"): "AppConfig.ready registers the schema extension",
    ("games/engine/native.py", "running_native"): "runs before the compiled path is set",
}


def test_import_contracts_are_kept() -> None:
    result = subprocess.run(  # noqa: S603 - fixed command
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


def test_no_import_cycles() -> None:
    graph = grimp.build_graph(*PACKAGES)
    edges = networkx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            internal = imported.startswith(PACKAGES) and not _is_parent(imported, module)
            if internal and (module, imported) not in TASK_EDGES:
                edges.add_edge(module, imported)
    cycles = [cycle for cycle in networkx.simple_cycles(edges) if len(cycle) > 1]
    assert cycles == [], cycles[:5]


def _is_parent(package: str, module: str) -> bool:
    """A module importing its own package's ``__init__`` (``from . import x``)."""
    return module.startswith(package + ".")


def test_imports_inside_functions_only_where_documented() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            relative = path.relative_to(ROOT).as_posix()
            for function, line in _function_imports(path):
                allowed = (relative, "*") in FUNCTION_IMPORTS or (
                    relative,
                    function,
                ) in FUNCTION_IMPORTS
                if not allowed:
                    found.append(f"{relative}:{line} in {function}()")
    assert found == []


def _function_imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text())
    return [
        (function.name, node.lineno)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]


def _task_functions() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in ("tournaments/tasks.py", "games/tasks.py"):
        tree = ast.parse((ROOT / path).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and getattr(d.func, "id", "") == "shared_task"
                for d in node.decorator_list
            ):
                found.append((f"{path}:{node.name}", node))
    return found


def test_tasks_take_ids_and_call_one_service() -> None:
    """Each task body is its docstring, the import of its service and one call of it
    (returned or not): the work, the logging and the checks live in the service."""
    tasks = _task_functions()
    assert len(tasks) >= 8
    for name, task in tasks:
        body = [
            node
            for node in task.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        ]
        imports = [node for node in body if isinstance(node, ast.ImportFrom)]
        rest = [node for node in body if not isinstance(node, ast.ImportFrom)]
        assert len(imports) == 1, name
        assert len(rest) == 1, name
        call = rest[0].value if isinstance(rest[0], ast.Expr | ast.Return) else None
        assert isinstance(call, ast.Call), name
        imported = {alias.asname or alias.name for alias in imports[0].names}
        assert isinstance(call.func, ast.Name) and call.func.id in imported, name
        assert all(isinstance(arg, ast.Name) for arg in call.args), name
        assert all(isinstance(kw.value, ast.Name) for kw in call.keywords), name


def test_every_module_is_in_the_layers_contract() -> None:
    """Every module of the three packages sits in a layer of the layers contract (a layer
    that names a package holds its sub-modules). Left out: the three root packages (the
    site's ``__init__`` loads the Celery app) and packages whose ``__init__`` imports
    nothing, as there is nothing in them to place."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in contracts["contracts"] if c["type"] == "layers")["layers"]
    named = {
        name.strip().strip("()")
        for layer in layers
        for group in layer.split("|")
        for name in group.split(":")
    }
    graph = grimp.build_graph(*PACKAGES)
    missing = sorted(
        module
        for module in graph.modules
        if module not in PACKAGES
        and not any(module == name or module.startswith(name + ".") for name in named)
        and not (
            graph.find_children(module) and not graph.find_modules_directly_imported_by(module)
        )
    )
    assert missing == []


def test_every_module_the_contracts_name_exists() -> None:
    """No contract names a module of the project that is gone: import-linter passes over a
    missing module in silence, and the contract then says something untrue."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    graph = grimp.build_graph(*PACKAGES)
    named = {
        name.strip().strip("()")
        for contract in contracts["contracts"]
        for key in ("layers", "source_modules", "forbidden_modules")
        for entry in contract.get(key, [])
        for group in entry.split("|")
        for name in group.split(":")
    }
    ours = {name for name in named if name.split(".")[0] in PACKAGES}
    assert sorted(name for name in ours if name not in graph.modules) == []
