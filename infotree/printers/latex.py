r"""LaTeX: a fragment (tree, worked solution, tables), or a whole document.

The fragment needs ``\usepackage{amsmath,booktabs,longtable,array}``; ``standalone=True``
writes a complete ``article`` that compiles with pdflatex (run it twice, or latexmk:
longtable settles its column widths on the second run).  The tree is one paragraph
per node (nested lists stop at four levels; trees go deeper), tables are
``longtable`` with booktabs rules (they break across pages), exact values and
textbook forms are inline math (``\log_2``, ``\frac{}{}``), and rounded decimals
follow ``\approx``.  Names are escaped (``_ & % # $ { } ~ ^ \`` and ``< > |``).
"""

from __future__ import annotations

from .cells import LATEX, has_derivation, latex_escape, node_title, select_nodes
from .entropy import node_view
from .lines import smoothing_line, write_tree_lines
from .steps import node_steps
from .tables import latex_table as write_table

__all__ = ["PACKAGES", "write", "write_node", "write_table"]

#: what the fragment needs from the preamble
PACKAGES = ("amsmath", "booktabs", "longtable", "array")

_PREAMBLE = rf"""\documentclass{{article}}
\usepackage[utf8]{{inputenc}}
\usepackage{{{",".join(PACKAGES)}}}
\usepackage[margin=2cm]{{geometry}}
\begin{{document}}
"""

def write_node(tree, node, out, *, digits=4, heading="subsubsection") -> None:
    """One node's derivation: heading, facts, three tables, notes and the decision."""
    m = LATEX
    if not has_derivation(node):
        out.write(f"\\{heading}*{{{latex_escape(node.describe_path())}}}\n{latex_escape(node.reason)}; "
                  f"no candidates to compare.\\par\n")
        return
    v = node_view(tree, node, digits=digits, markup=m)
    out.write(f"\\{heading}*{{{v.title}}}\n{{\\sloppy\n\\begin{{itemize}}\n")
    for fact in v.facts:
        out.write(f"\\item {fact}\n")
    out.write("\\end{itemize}\n")
    n_classes = len(tree.classes)
    write_table(v.branches, out, {4 + n_classes: "0.28"})
    # The C4.5 columns (filter, validity) take room from the textbook form.
    write_table(v.summary, out, {2: "0.2" if len(v.summary.headers) <= 7 else "0.14"})
    write_table(v.exact, out, {1: "0.22", 2: "0.26", 3: "0.22"})
    if v.corrections is not None:
        write_table(v.corrections, out, {5: "0.22", 6: "0.14"})
    if v.tried is not None:
        write_table(v.tried, out, {})
    if node.mofn is not None:  # an M-of-N tree's node: the search that grew its test
        from .mofn import write as write_search

        write_search(node.mofn, out, target=tree.target, where=node.describe_path(), digits=digits, fmt="latex")
    out.write("\\begin{itemize}\n")
    for note in v.notes:
        out.write(f"\\item {note}\n")
    out.write(f"\\item \\textbf{{decision:}} {v.decision}\n\\end{{itemize}}")
    if v.pruning is not None:
        write_table(v.pruning, out, {0: "0.5"})
    out.write("}\n")


def _tree_line(depth: int, line: str) -> str:
    indent = f"\\hspace*{{{1.5 * depth:g}em}}" if depth else ""
    return f"{indent}{line}\\par\n"


def write(tree, out, *, digits=4, nodes="all", steps=False, standalone=False, weights="decimal",
          smoothing=None) -> None:
    """The tree, the worked solution if asked for, then the derivation of the selected nodes."""
    if standalone:
        out.write(_PREAMBLE)
        out.write(f"\\section*{{Decision tree for {latex_escape(tree.target)}}}\n")
    else:
        out.write(f"% infotree: decision tree for {latex_escape(tree.target)}; "
                  f"needs \\usepackage{{{','.join(PACKAGES)}}}\n")
    out.write("\\subsection*{Tree}\n{\\setlength{\\parindent}{0pt}\n")
    leaves, size = write_tree_lines(tree, out, _tree_line, LATEX, weights, smoothing)
    out.write("}\n\\medskip\n")
    if smoothing is not None:
        out.write(f"{smoothing_line(tree, smoothing, LATEX)}.\\par\n")
    if tree.root.is_leaf:
        out.write(f"Single leaf: {latex_escape(tree.root.reason)}.\\par\n")
    out.write(f"{leaves} leaves, {size} nodes.\\par\n")
    if steps:
        out.write("\\subsection*{Worked solution}\n")
        for node in select_nodes(tree, "all" if nodes == "none" else nodes):
            out.write(f"\\subsubsection*{{{node_title(node, LATEX)}}}\n{{\\setlength{{\\parindent}}{{0pt}}\\sloppy\n")
            for line in node_steps(tree, node, digits=digits, markup=LATEX):
                out.write(f"{line}\\par\n" if line else "\\smallskip\n")
            out.write("}\n")
    first = True
    for node in select_nodes(tree, nodes):
        if first:
            out.write("\\subsection*{Derivations}\n")
            first = False
        write_node(tree, node, out, digits=digits)
    if standalone:
        out.write("\\end{document}\n")

