r"""TikZ: the tree drawn by the LaTeX ``forest`` package (a fragment, or a document).

The boxes say what the SVG/PNG drawings say (:func:`infotree.printers.drawing.facts`):
an internal node its feature in bold, ``n``, the class counts and the measure that
chose it (``exact=True`` adds its exact value, in math); a leaf its class in bold,
``n`` and the counts, rounded and grey; an empty leaf dashed.  Edges carry the
branch value.  The branch value stands just above its child (a wide fan-out keeps its values
apart).  The fragment needs ``\usepackage{forest}``; ``standalone=True``
writes a document that compiles with pdflatex: with the ``standalone`` class a
page the size of the tree, else (no ``standalone.cls``) a landscape A4/letter page.  Names are escaped as in the LaTeX printer.

    >>> import io
    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> out = io.StringIO()
    >>> write(build_tree(load("tests/data/weather.csv")), out)
    >>> print(out.getvalue().splitlines()[7].strip())
    [{\textbf{outlook}\\$n = 14$\\no: 5, yes: 9\\$\mathrm{IG} = 0.2467$}
"""

from __future__ import annotations

from fractions import Fraction

from .cells import latex_escape
from .drawing import (count_boxes, count_lines, edge_label, facts, fill_of, look, mean_scale, shown_children, size_check,
                      summary_lines)

__all__ = ["write"]

# The standalone class (TeX Live's latex-extra) crops the page to the tree; where it is
# missing, an article page in landscape (forest itself is in Debian's texlive-pictures).
_PREAMBLE = r"""\IfFileExists{standalone.cls}{\documentclass[border=4pt]{standalone}}{%
  \documentclass{article}\usepackage[landscape,margin=1cm]{geometry}\pagestyle{empty}}
\usepackage[T1]{fontenc}
\usepackage{forest}
\begin{document}
"""

# Boxes as in the drawings: black on white (and grey leaves), so a black-and-white print reads.
_STYLE = r"""\begin{forest}
  for tree={draw, align=center, font=\footnotesize, inner sep=3pt, s sep=3mm, l sep=11mm,
            edge={thin}, parent anchor=south, child anchor=north},
  leaf/.style={rounded corners=3pt, fill=black!8},
  empty/.style={leaf, dashed},
  branch/.style={label={[fill=white, inner sep=1pt, font=\scriptsize, yshift=1pt]above:{#1}}},
"""


def _latex(value) -> str:
    """An exact value in math mode: an Exact or Ratio knows its LaTeX; a Fraction (CART's Gini) is a \\frac."""
    if hasattr(value, "latex"):
        return value.latex()
    q = Fraction(value)
    return str(q.numerator) if q.denominator == 1 else rf"{'-' if q < 0 else ''}\frac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def _content(tree, node, digits, exact, weights, show="counts") -> str:
    f = facts(tree, node, digits=digits, weights=weights, show=show)
    lines = [rf"\textbf{{{latex_escape(f.title)}}}"]
    if f.empty:
        lines.append("$n = 0$: empty branch")
    else:
        lines.append(f"$n = {f.n}$")
        lines += count_lines([f"{latex_escape(k)}: {c}" for k, c in f.counts])
        if f.measure is not None:
            name, decimal, value = f.measure
            # "ΔGini" (CART) is \Delta\mathrm{Gini}: pdflatex has no Δ in math.
            symbol = rf"\Delta\mathrm{{{name[1:]}}}" if name.startswith("Δ") else rf"\mathrm{{{name}}}"
            lines.append(rf"${symbol} = {decimal}$")
            if exact:
                lines.append(f"${_latex(value)}$")
    return r"\\".join(lines)


def _fill(color: str) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"fill={{rgb,255:red,{r};green,{g};blue,{b}}}"


def write(tree, out, *, digits=4, exact=False, standalone=False, weights="decimal", **opts) -> None:
    """The ``forest`` environment (inside a document with ``standalone``); ``opts`` as the drawings'
    (:class:`~infotree.printers.drawing.Look`: display depth, empty branches, colours, shares)."""
    lk = look(**opts)
    scale = mean_scale(tree) if lk.color == "class" and tree.criterion.regression else None
    size_check(tree, count_boxes(tree, **opts), opts)
    if standalone:
        out.write(_PREAMBLE)
    else:
        out.write(f"% infotree: decision tree for {latex_escape(tree.target)}; needs \\usepackage{{forest}}\n")
    out.write(_STYLE)
    if lk.max_depth is not None:
        out.write("  summary/.style={dotted},\n")
    # Pre-order with an explicit stack (deep trees): a node opens a bracket, a marker closes it.
    stack = [(tree.root, None, 1)]
    while stack:
        node, edge, depth = stack.pop()
        kids = shown_children(node, depth - 1, lk) if node is not None else None
        pad = "  " * depth
        if node is None:
            out.write(f"{pad}]\n")
            continue
        style = []
        if edge is not None:
            style.append(f"branch={{{latex_escape(edge)}}}")
        if node.is_leaf:
            style.append("empty" if node.n == 0 else "leaf")
        if kids is None:
            style.append("summary")
            title, *rest = summary_lines(tree, node, weights=weights, show=lk.show)
            content = r"\\".join([rf"\textbf{{{latex_escape(title[:-2])}}} \dots", *map(latex_escape, rest)])
        else:
            content = _content(tree, node, digits, exact, weights, lk.show)
        if lk.color == "class":
            style.append(_fill(fill_of(tree, node, scale)))
        head = f"{pad}[{{{content}}}" + (", " + ", ".join(style) if style else "")
        if not kids:
            out.write(head + "]\n")
            continue
        out.write(head + "\n")
        stack.append((None, None, depth))
        for v, child in reversed(kids):
            stack.append((child, edge_label(node, v), depth + 1))
    out.write("\\end{forest}\n")
    if standalone:
        out.write("\\end{document}\n")
