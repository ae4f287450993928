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

from .cells import TEXT, has_derivation, select_nodes
from .entropy import node_view
from .lines import j48_line, smoothing_line, weka_line, write_tree_lines
from .steps import node_steps
from .tables import text_table as _table

__all__ = ["write", "write_node", "write_steps", "write_tree"]

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
