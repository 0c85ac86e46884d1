"""The house's structure, drawn from its imports: no import circles, and rooms that import downward only.

Every import of a railledger module counts, at module level or inside a function (an import moved
into a function to break a circle is still a circle); only those under ``if TYPE_CHECKING:``,
which never run, do not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "railledger"

ROOMS = ("ingest", "replay", "records", "selfplay", "analytics", "pipeline", "events", "reports", "dashboard",
         "crosscheck", "bench", "cli")
"""railledger's rooms, lowest first (docs/architecture.md): each imports only rooms before it."""


def module_name(path: Path) -> str:
    parts = ["railledger", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _known(name: str) -> str | None:
    """The module of the house that importing ``name`` runs (a name inside a module: that module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, tree: ast.AST) -> Iterator[str]:
    """The house's modules that ``module`` imports, anywhere in its code but under TYPE_CHECKING."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in _nodes(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}".rstrip(".")
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            found = _known(name)
            if found is not None and found != module:
                yield found


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node.test):
            for other in node.orelse:
                yield other
                yield from _nodes(other)
            continue
        yield node
        yield from _nodes(node)


GRAPH = {module: set(_imports(module, ast.parse(path.read_text(encoding="utf-8")))) for module, path in MODULES.items()}


def _circles() -> list[list[str]]:
    """Every set of modules that import one another, directly or around (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(GRAPH[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return circles


def _room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def test_no_modules_import_each_other() -> None:
    assert _circles() == []


def test_every_room_imports_only_the_rooms_below_it() -> None:
    upward = sorted(f"{module} imports {imported}" for module, imports in GRAPH.items() for imported in imports
                    if (room := _room(module)) is not None and (other := _room(imported)) is not None
                    and ROOMS.index(other) > ROOMS.index(room))
    assert upward == []


def test_every_package_folder_is_a_room() -> None:
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(ROOMS)


def test_only_the_package_itself_reaches_every_room() -> None:
    """The lazy API (``railledger/__init__.py``) loads from the rooms; no room imports it back."""
    assert sorted(module for module, imports in GRAPH.items() if "railledger" in imports) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_says_why_it_exists(module: str) -> None:
    assert ast.get_docstring(ast.parse(MODULES[module].read_text(encoding="utf-8"))), f"{module} has no docstring"


def test_the_probe_finds_a_circle_and_an_upward_import() -> None:
    """The checks above could fail: a made-up circle and upward import are found."""
    GRAPH["railledger.ingest.model"].add("railledger.cli.app")
    GRAPH["railledger.cli.app"].add("railledger.ingest.model")
    try:
        assert any("railledger.ingest.model" in circle for circle in _circles())
        with pytest.raises(AssertionError):
            test_every_room_imports_only_the_rooms_below_it()
    finally:
        GRAPH["railledger.ingest.model"].discard("railledger.cli.app")
        GRAPH["railledger.cli.app"].discard("railledger.ingest.model")
