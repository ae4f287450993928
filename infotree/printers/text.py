"""Plain text: the tree in Weka's style, then one section of tables per node.

    outlook = sunny
    |  humidity = high: no (3)
    |  humidity = normal: yes (2)
    outlook = overcast: yes (4)

A leaf shows ``label (n)``, ``(n/errors)`` when it misclassifies training rows and
``(0, empty)`` when no row reached it.  A numeric split's branches read
``humidity <= 75`` and ``humidity > 75``.  Fractional weights (C4.5 with missing
values) print to two places as J48 does, rounded half up exactly
(``bad (15.27/2.27)``; an integral weight stays ``2``); ``weights="exact"`` prints
them as fractions (``bad (855/56, errors 127/56)``).  ``weights="j48"`` writes the
tree block exactly as Weka's J48 prints it (``|   `` indentation, ``(2.0)``,
thresholds by ``Utils.doubleToString(t, 6)``, J48's two count lines), so it can be
compared with J48's output line by line.  Tables go through tabulate, strings only;
the default ``simple`` format of one-line cells is drawn here, exactly as tabulate
draws it (tabulate's per-cell work was most of a derivation's time).
"""

from __future__ import annotations

import re

from tabulate import tabulate

from .cells import TEXT, Table, has_derivation, node_view, select_nodes
from .lines import j48_line, smoothing_line, weka_line, write_tree_lines
from .steps import node_steps

__all__ = ["write", "write_node", "write_steps", "write_tree"]

_ALIGN = {"l": "left", "r": "right"}


def write_tree(tree, out, *, weights="decimal", smoothing=None) -> None:
    """The tree, one line per node below the root, then its size."""
    if weights == "j48":
        leaves, size = write_tree_lines(tree, out, j48_line, TEXT, "j48")
        out.write(f"\nNumber of Leaves  : \t{leaves}\n\nSize of the tree : \t{size}\n")
        return
    leaves, size = write_tree_lines(tree, out, weka_line, TEXT, weights, smoothing)
    if tree.root.is_leaf:
        out.write(f"single leaf: {tree.root.reason}\n")
    if smoothing is not None:
        out.write(f"\n{smoothing_line(tree, smoothing)}\n")
    out.write(f"\nNumber of leaves: {leaves}\nSize of the tree: {size}\n")


def _table(t: Table, table_format) -> str:
    if table_format == "simple":
        out = _simple(t)
        if out is not None:
            return out
    return tabulate(t.rows, t.headers, tablefmt=table_format, disable_numparse=True,
                    colalign=[_ALIGN[a] for a in t.align])


# Characters tabulate measures as one column wide (with wcwidth or without), none of
# them whitespace but the space: printable ASCII and the symbols the printers write.
_SYMBOLS = "·×—−≈≡≥≠…∣²"
_safe = None


def _safe_text():
    global _safe
    if _safe is None:
        import tabulate as tb

        ok = _SYMBOLS
        if tb.WIDE_CHARS_MODE:
            ok = "".join(ch for ch in _SYMBOLS if tb.wcwidth.wcswidth(ch) == 1)
        _safe = re.compile(f"[ -~{ok}]*").fullmatch
    return _safe


def _simple(t: Table) -> str | None:
    """``tabulate(rows, headers, tablefmt="simple", disable_numparse=True, colalign=...)`` for the
    tables the printers make, byte for byte, or None when tabulate must decide.

    Tabulate's per-cell work (type detection, ANSI and wide-character widths) is the
    bulk of printing a derivation; a table of one-line cells in printable ASCII and
    the printers' symbols needs none of it: each column is as wide as its widest
    stripped cell, or its header plus two; cells are stripped and padded to that
    width, columns are joined by two spaces, lines are right-stripped.
    """
    headers, rows, align = t.headers, t.rows, t.align
    k = len(headers)
    if not rows or not k or len(align) != k or any(len(r) != k for r in rows) or not set(align) <= {"l", "r"}:
        return None
    cells = [c for r in rows for c in r]
    if not all(type(c) is str for c in cells) or not all(type(h) is str for h in headers):
        return None
    if not _safe_text()(" ".join(cells) + " " + " ".join(headers)):
        return None
    cols = [[c.strip() for c in col] for col in zip(*rows)]
    widths = [max(len(h) + 2, max(map(len, col))) for h, col in zip(headers, cols)]
    lines = ["  ".join(h.ljust(w) if a == "l" else h.rjust(w) for h, w, a in zip(headers, widths, align)).rstrip(),
             "  ".join("-" * w for w in widths)]
    padded = [[c.ljust(w) for c in col] if a == "l" else [c.rjust(w) for c in col]
              for col, w, a in zip(cols, widths, align)]
    lines += ["  ".join(r).rstrip() for r in zip(*padded)]
    return "\n".join(lines)


def write_node(tree, node, out, *, digits=4, table_format="simple") -> None:
    """One node's derivation: facts, the branch, candidate and exact-value tables, the decision."""
    if not has_derivation(node):
        out.write(f"{node.describe_path()}: {node.reason}; no candidates to compare\n")
        return
    v = node_view(tree, node, digits=digits, markup=TEXT)
    title = f"Node: {v.title}"
    out.write(f"{title}\n{'=' * len(title)}\n")
    for fact in v.facts:
        out.write(fact + "\n")
    for t in (v.branches, v.summary, v.exact, v.corrections, v.tried):
        if t is not None:
            out.write(f"\n{t.title}:\n{_table(t, table_format)}\n")
    if node.mofn is not None:  # an M-of-N tree's node: the search that grew its test
        from .mofn import write as write_search

        out.write("\n")
        write_search(node.mofn, out, target=tree.target, where=node.describe_path(), digits=digits)
    out.write("\n")
    for note in v.notes:
        out.write(note + "\n")
    out.write(f"decision: {v.decision}\n")
    if v.pruning is not None:
        out.write(f"\n{v.pruning.title}:\n{_table(v.pruning, table_format)}\n")


def write_steps(tree, out, *, digits=4, nodes="all") -> None:
    """The worked solution, node after node."""
    out.write("Worked solution\n===============\n")
    for node in select_nodes(tree, nodes):
        out.write("\n")
        for line in node_steps(tree, node, digits=digits):
            out.write(line + "\n")


def write(tree, out, *, digits=4, nodes="all", steps=False, table_format="simple", weights="decimal",
          smoothing=None) -> None:
    """The tree, the worked solution if asked for, then the derivation of the selected nodes."""
    write_tree(tree, out, weights=weights, smoothing=smoothing)
    if steps:
        out.write("\n")
        write_steps(tree, out, digits=digits, nodes="all" if nodes == "none" else nodes)
    for node in select_nodes(tree, nodes):
        out.write("\n")
        write_node(tree, node, out, digits=digits, table_format=table_format)
