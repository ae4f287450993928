"""The printers import one way: no module of infotree/printers imports one that imports it back."""

import ast
from pathlib import Path

PRINTERS = Path(__file__).resolve().parent.parent / "infotree" / "printers"


def imports_of(path: Path) -> set[str]:
    """The printer modules ``path`` imports, at module level or inside a function (``from .x import``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out & {p.stem for p in PRINTERS.glob("*.py")}


def cycles(graph: dict) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_among_the_printers():
    """cells, impurity, regression, mofn, text, markdown, latex, html, drawing: imports flow one way."""
    graph = {p.stem: imports_of(p) - {p.stem} for p in PRINTERS.glob("*.py") if p.stem != "__init__"}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    """A two-module and a three-module cycle are found; a chain is not a cycle."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_printer_modules_stay_under_600_lines():
    """One concept a module: no printer module over 600 lines."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PRINTERS.glob("*.py")}
    assert {k: v for k, v in sizes.items() if v > 600} == {}
