"""The layers of ARCHITECTURE (README, Layers): imports only point down, and no import cycles.

Every module of ``studybench/`` is parsed with :mod:`ast` (nothing is imported), and every
import statement becomes an edge of the module graph: top level, inside functions, and under
``TYPE_CHECKING``. ``from package import name`` is an edge to ``package.name`` when that is a
module; when ``package`` is a lazy ``__init__`` (:mod:`studybench.lazy`) it is an edge
to the module that defines ``name``, because that is what the import runs. Importing
``a.b.c`` is an edge to ``a.b.c`` only: Python also starts the ``__init__`` of ``a.b`` first,
which can close a cycle only when that ``__init__`` eagerly imports what imports ``a.b.c``;
the packages around the settings sections are lazy for that reason, and
``tests/test_package.py`` imports those modules first in fresh processes, the order in which
such a cycle would break.

The cycle check uses the edges that run (not those under ``TYPE_CHECKING``); the layer rules
use all of them, since a type-only import upwards is still a dependency upwards. The rules
are the table ``layers_rules.json``. ``python tests/test_layers.py`` prints the evidence.
"""

from __future__ import annotations

import ast
import json
import sys
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from studybench.lazy import is_type_checking, type_checking_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "studybench"
TABLE: dict[str, Any] = json.loads(Path(__file__).with_name("layers_rules.json").read_text())


@dataclass(frozen=True)
class Edge:
    """One import statement: ``source`` imports ``target`` (a studybench module, or the
    dotted name of a library) at ``line``; ``typing`` when under ``TYPE_CHECKING``."""

    source: str
    target: str
    line: int
    typing: bool

    def where(self) -> str:
        path = module_files()[self.source].relative_to(ROOT)
        return f"{path}:{self.line} {self.source} -> {self.target}"


@cache
def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


@cache
def lazy_names(package: str) -> dict[str, tuple[str, str]]:
    """The names a lazy ``__init__`` exports, by defining module; empty for other modules."""
    path = module_files().get(package)
    if path is None or path.name != "__init__.py" or "lazy_exports" not in path.read_text():
        return {}
    return type_checking_imports(path, package)


def _resolve_from(source: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    is_package = module_files()[source].name == "__init__.py"
    base = source.split(".") if is_package else source.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _targets(source: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _resolve_from(source, node)
    out = []
    for alias in node.names:
        if f"{base}.{alias.name}" in module_files():
            out.append(f"{base}.{alias.name}")
        elif alias.name in lazy_names(base):
            out.append(lazy_names(base)[alias.name][0])
        else:
            out.append(base)
    return out


@cache
def edges() -> tuple[Edge, ...]:
    """Every import statement of the package, as edges."""
    out = []
    for source, path in module_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and is_type_checking(node.test)
            for statement in node.body
            for inner in ast.walk(statement)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(source, node):
                    out.append(Edge(source, target, node.lineno, id(node) in typing_only))
    return tuple(out)


def _under(name: str, prefixes: list[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _runtime_graph() -> dict[str, dict[str, Edge]]:
    graph: dict[str, dict[str, Edge]] = {m: {} for m in module_files()}
    for edge in edges():
        if not edge.typing and edge.target in graph and edge.target != edge.source:
            graph[edge.source].setdefault(edge.target, edge)
    return graph


def _groups(graph: dict[str, dict[str, Edge]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # depth is bounded by the module count
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while not group or group[-1] != node:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def _shortest_cycle(graph: dict[str, dict[str, Edge]], group: list[str]) -> list[Edge]:
    """A shortest way from the group's first module round to itself (breadth first)."""
    start, members = group[0], set(group)
    reached_by: dict[str, Edge] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt, edge in graph[node].items():
            if nxt == start:
                path = [edge]
                while path[-1].source != start:
                    path.append(reached_by[path[-1].source])
                return path[::-1]
            if nxt in members and nxt not in reached_by:
                reached_by[nxt] = edge
                queue.append(nxt)
    raise AssertionError(f"{group} is strongly connected, so a way round exists")


def cycles() -> list[list[Edge]]:
    """One cycle (its edges, in order) per group of modules that run each other's imports."""
    graph = _runtime_graph()
    return [_shortest_cycle(graph, group) for group in _groups(graph)]


def test_no_import_cycle() -> None:
    found = cycles()
    assert not found, "import cycles:\n" + "\n\n".join(
        "\n".join(e.where() for e in cycle) for cycle in found
    )


def _governed(rule: dict[str, Any], module: str) -> bool:
    return _under(module, rule["from"]) and not _under(module, rule.get("except", []))


def _allowed(edge: Edge) -> bool:
    return any(
        edge.source == a["module"] and _under(edge.target, [a["imports"]]) for a in TABLE["allowed"]
    )


def violations(rule: dict[str, Any]) -> list[Edge]:
    """The imports of the governed modules that break ``rule`` (the allowed ones left out)."""
    leaves = list(TABLE["leaves"])
    out = []
    for edge in edges():
        if not _governed(rule, edge.source) or _allowed(edge):
            continue
        if "may_import" in rule:
            internal = _under(edge.target, ["studybench"])
            if internal and not _under(edge.target, [*rule["may_import"], *leaves]):
                out.append(edge)
        elif _under(edge.target, rule["must_not_import"]):
            out.append(edge)
    return out


@pytest.mark.parametrize("rule", TABLE["rules"], ids=lambda r: r["name"])
def test_layer_rule(rule: dict[str, Any]) -> None:
    broken = violations(rule)
    assert not broken, f"{rule['name']} ({rule['why']}):\n" + "\n".join(e.where() for e in broken)


def test_leaves_import_only_leaves() -> None:
    """A leaf anyone may import pulls in nothing but other leaves, the standard library and
    pydantic (so importing it can never close a cycle or load a framework)."""
    leaves = TABLE["leaves"]
    for leaf in leaves:
        assert leaf in module_files(), leaf
    broken = [
        e
        for e in edges()
        if e.source in leaves
        and e.target not in leaves
        and e.target.split(".")[0] not in {*sys.stdlib_module_names, "pydantic"}
    ]
    assert not broken, "\n".join(e.where() for e in broken)


def test_every_allowed_import_is_still_needed() -> None:
    """The allowlist only shrinks: an entry that no longer matches an import fails here."""
    for entry in TABLE["allowed"]:
        assert entry["why"], entry
        matching = [
            e
            for e in edges()
            if e.source == entry["module"] and _under(e.target, [entry["imports"]])
        ]
        assert matching, f"stale allowlist entry: {entry}"


def test_the_graph_sees_every_kind_of_import() -> None:
    """The parser finds function-level and lazy-package imports (or the rules see nothing):
    the secrets module reads the settings tree inside a function, ``data/release.py`` takes
    ``ReleaseSettings`` through the lazy ``studybench.config``, and the settings tree imports
    the benchmarks' sections."""
    found = {(e.source, e.target) for e in edges()}
    assert ("studybench.secrets", "studybench.config.settings") in found
    assert ("studybench.data.release", "studybench.config.paths") in found
    assert ("studybench.config.settings", "studybench.benchmarks.evalearn.settings") in found
    assert ("studybench.training.ready_marker", "transformers") in found


def evidence() -> str:
    """What the tests establish, as text for a review note."""
    runtime = [e for e in edges() if not e.typing and _under(e.target, ["studybench"])]
    lines = [
        f"{len(module_files())} modules, {len(runtime)} run-time imports between them "
        f"({sum(1 for e in edges() if e.typing)} more under TYPE_CHECKING)",
        f"import cycles: {len(cycles())}",
    ]
    for rule in TABLE["rules"]:
        lines.append(f"{rule['name']}: {len(violations(rule))} violating import(s)")
    lines.append(f"allowlisted exceptions: {len(TABLE['allowed'])}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(evidence())
