"""The import graph of ``search`` and ``cpmodels``: no circle, and no import of a
project module hidden inside a function.

The graph is read with ``ast`` from the sources, deferred imports included, so a
circle cannot hide behind a function-level import.  The layers themselves (which
floor may import which) are ``lint-imports``'s contract in ``pyproject.toml``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("search", "cpmodels")

# The only loading by name: the registry's (``load("module:attribute")``, the puzzle
# kinds), the drawing module of a puzzle and the compiled kernels' loader (the
# extension, or its source by path).  Everything else imports at the top.
DYNAMIC_LOADERS = frozenset({"search.core.contract", "search.core.registry", "search.draw",
                             "search.core.compiled"})
# The lab's sweep modules still defer imports to break their two circles
# (bench <-> report, peers <-> sweep_child); once those are cut, this set is empty.
@dataclass(frozen=True)
class Edge:
    source: str  # importing module
    target: str  # imported project module
    line: int
    deferred: bool  # inside a function (runs at call time, not import time)


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project's packages."""
    found = {}
    for package in PACKAGES:
        for file in sorted((ROOT / package).rglob("*.py")):
            parts = file.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = file
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             modules: set[str]) -> list[str]:
    """The project modules an import statement loads (a ``from`` import of a
    submodule counts as that submodule, else as the package it names)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = module.split(".") if is_package else module.split(".")[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join(here + ([base] if base else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                 for alias in node.names]
    out = []
    for name in names:
        while name and name not in modules:  # "import a.b.c" of a non-module attribute
            name = name.rpartition(".")[0]
        if name:
            out.append(name)
    return out


def _walk(node: ast.AST, deferred: bool = False):
    """Every import statement below ``node``, and whether a function holds it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, deferred
        inner = deferred or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield from _walk(child, inner)


def trees() -> dict[str, ast.Module]:
    return {module: ast.parse(file.read_text(encoding="utf-8"), str(file))
            for module, file in module_files().items()}


def edges() -> list[Edge]:
    files = module_files()
    modules = set(files)
    out = set()
    for module, tree in trees().items():
        is_package = files[module].name == "__init__.py"
        for node, deferred in _walk(tree):
            for target in _targets(node, module, is_package, modules):
                if target != module:
                    out.add(Edge(module, target, node.lineno, deferred))
    return sorted(out, key=lambda e: (e.source, e.line, e.target))


def graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, deferred imports included."""
    out: dict[str, set[str]] = {}
    for edge in edges():
        out.setdefault(edge.source, set()).add(edge.target)
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph (a list of modules, first == last), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_module_graph_has_no_circle():
    cycle = find_cycle(graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or ())


def test_no_project_module_is_imported_inside_a_function():
    """Heavy or optional packages (ortools, numpy, matplotlib, dask, networkx)
    may load late; a module of the project may not: a late import hides a circle."""
    hidden = [f"{e.source}:{e.line} imports {e.target}" for e in edges()
              if e.deferred]
    assert not hidden, "function-level imports of project modules:\n" + "\n".join(hidden)


def test_only_the_registry_loads_modules_by_name():
    """``importlib.import_module`` outside the registry would be an import the
    graph above cannot see."""
    loaders = {module for module, tree in trees().items() for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr == "import_module"
               or isinstance(node, ast.Name) and node.id == "__import__"}
    assert loaders <= DYNAMIC_LOADERS, sorted(loaders - DYNAMIC_LOADERS)


def test_the_graph_reader_sees_deferred_imports_and_circles():
    """The checks above can fail: a known circle and a known deferred import are found."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None
    tree = ast.parse("import os\ndef f():\n    from search.core import contract\n")
    found = [(type(node).__name__, deferred) for node, deferred in _walk(tree)]
    assert found == [("Import", False), ("ImportFrom", True)]
    modules = {"search.core", "search.core.contract"}
    node = tree.body[1].body[0]
    assert _targets(node, "x", False, modules) == ["search.core.contract"]


if __name__ == "__main__":  # list every hidden import and circle
    every: dict[str, set[str]] = {}
    for edge in edges():
        every.setdefault(edge.source, set()).add(edge.target)
        if edge.deferred:
            print(f"deferred {edge.source}:{edge.line} -> {edge.target}")
    while cycle := find_cycle(every):
        print("circle:", " -> ".join(cycle))
        every[cycle[-2]].discard(cycle[-1])
