"""GitHub Markdown: the tree as a fenced block, then a section with tables per node.

Tables are written here, not by tabulate (tabulate 0.10 does not escape ``|``):
every ``|`` inside a cell is written ``\\|``, so a row always has one more
unescaped ``|`` than it has cells.  Formulas and exact values are code spans
(their ``*`` stays literal); names are backslash-escaped.
"""

from __future__ import annotations

import re

from .cells import MARKDOWN, TEXT, has_derivation, node_title, select_nodes
from .entropy import node_view
from .lines import j48_line, smoothing_line, weka_line, write_tree_lines
from .steps import node_steps
from .tables import markdown_table as write_table

__all__ = ["write", "write_node", "write_table"]

def _fence(tree) -> str:
    """A code fence longer than any run of backticks in the tree's names."""
    names = [tree.target, *tree.features, *tree.classes, *(v for d in tree.domains for v in d)]
    run = max((len(r) for s in names for r in re.findall("`+", s)), default=0)
    return "`" * max(3, run + 1)


def write_node(tree, node, out, *, digits=4, heading="###") -> None:
    """One node's derivation: heading, facts, three tables, notes and the decision."""
    m = MARKDOWN
    if not has_derivation(node):
        out.write(f"{heading} {m.name(node.describe_path())}\n\n{m.name(node.reason)}; no candidates to compare.\n")
        return
    v = node_view(tree, node, digits=digits, markup=m)
    out.write(f"{heading} {v.title}\n\n")
    for fact in v.facts:
        out.write(f"- {fact}\n")
    for t in (v.branches, v.summary, v.exact, v.corrections, v.tried):
        if t is not None:
            out.write(f"\n**{t.title}**\n\n")
            write_table(t, out)
    if node.mofn is not None:  # an M-of-N tree's node: the search that grew its test
        from .mofn import write as write_search

        out.write("\n")
        write_search(node.mofn, out, target=tree.target, where=node.describe_path(), digits=digits, fmt="markdown",
                     level=len(heading) + 1)
    out.write("\n")
    for note in v.notes:
        out.write(f"- {note}\n")
    out.write(f"- **decision:** {v.decision}\n")
    if v.pruning is not None:
        out.write(f"\n**{v.pruning.title}**\n\n")
        write_table(v.pruning, out)


def write(tree, out, *, digits=4, nodes="all", steps=False, weights="decimal", smoothing=None) -> None:
    """The tree, the worked solution if asked for, then the derivation of the selected nodes."""
    fence = _fence(tree)
    out.write(f"## Tree\n\n{fence}text\n")
    leaves, size = write_tree_lines(tree, out, j48_line if weights == "j48" else weka_line, TEXT, weights, smoothing)
    out.write(f"{fence}\n\n")
    if smoothing is not None:
        out.write(f"{smoothing_line(tree, smoothing, MARKDOWN)}.\n\n")
    if tree.root.is_leaf:
        out.write(f"Single leaf: {MARKDOWN.name(tree.root.reason)}.\n\n")
    out.write(f"{leaves} leaves, {size} nodes.\n")
    if steps:
        out.write("\n## Worked solution\n")
        for node in select_nodes(tree, "all" if nodes == "none" else nodes):
            out.write(f"\n### {node_title(node, MARKDOWN)}\n\n{fence}text\n")
            for line in node_steps(tree, node, digits=digits, markup=TEXT):
                out.write(line + "\n")
            out.write(f"{fence}\n")
    first = True
    for node in select_nodes(tree, nodes):
        if first:
            out.write("\n## Derivations\n")
            first = False
        out.write("\n")
        write_node(tree, node, out, digits=digits)

