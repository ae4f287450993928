"""Printers: a grown tree and the derivation of its splits, in every form people read.

``render(tree, out, fmt=...)`` writes to a file-like ``out`` node by node (a printer
never builds the whole document in memory and never computes a measure: it reads
the records of :mod:`infotree.tree`).  Formats: ``text`` (Weka-style tree and
tabulate tables), ``markdown`` (GitHub), ``latex`` (a fragment, or a document with
``standalone=True``), ``json`` (the contract of :mod:`infotree.printers.json`),
``dot`` (Graphviz), ``rules`` (if-then rules), ``python`` (a predict function),
``tikz`` (the LaTeX ``forest`` package), ``svg`` and ``png`` (drawings, through
matplotlib), ``html`` (the report: a zoomable tree, every derivation).

    >>> import io
    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> out = io.StringIO()
    >>> render(build_tree(load("tests/data/weather.csv")), out, nodes="none")
    >>> print(out.getvalue(), end="")
    outlook = sunny
    |  humidity = high: no (3)
    |  humidity = normal: yes (2)
    outlook = overcast: yes (4)
    outlook = rainy
    |  windy = FALSE: yes (3)
    |  windy = TRUE: no (2)
    <BLANKLINE>
    Number of leaves: 5
    Size of the tree: 8
"""

from __future__ import annotations

import io

from ..errors import InfotreeError
from ..escape import SafeWriter
from .cells import NODE_SELECTIONS, WEIGHTS

__all__ = ["FORMATS", "latex_of", "markdown_of", "render", "render_node"]

FORMATS = ("text", "markdown", "latex", "json", "dot", "rules", "python", "tikz", "svg", "png", "html")
#: the formats that draw boxes, and can show the chosen measure's exact value in them
DRAWN = ("tikz", "svg", "png")
#: the formats that draw the tree, and take a display depth, hidden empty branches, colours and shares
PICTURES = ("dot", "tikz", "svg", "png", "html")
#: the formats that can show each leaf's (smoothed) class probabilities
SMOOTHED = ("text", "markdown", "latex", "json", "dot")


def _weights(weights, exact_weights) -> str:
    if weights is None:
        return "exact" if exact_weights else "decimal"
    if weights not in WEIGHTS:
        raise InfotreeError(f"unknown weights style {weights!r}; allowed: {', '.join(WEIGHTS)}")
    if exact_weights and weights != "exact":
        raise InfotreeError(f"exact_weights=True asks for exact weights; it cannot be combined with weights={weights!r}")
    return weights


def _check(fmt, digits, nodes, table_format, standalone):
    if fmt not in FORMATS:
        raise InfotreeError(f"unknown format {fmt!r}; allowed: {', '.join(FORMATS)}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 50:
        raise InfotreeError(f"digits {digits!r} is not allowed; give an integer from 0 to 50")
    if nodes not in NODE_SELECTIONS:
        raise InfotreeError(f"unknown node selection {nodes!r}; allowed: {', '.join(NODE_SELECTIONS)}")
    if isinstance(table_format, str):
        from tabulate import tabulate_formats

        if table_format not in tabulate_formats:
            raise InfotreeError(f"unknown table format {table_format!r}; allowed: {', '.join(tabulate_formats)}")
    if standalone and fmt not in ("latex", "tikz"):
        raise InfotreeError(f"standalone=True makes a complete LaTeX document (formats latex and tikz), not {fmt!r}")


def render(tree, out, *, fmt="text", digits=4, nodes="all", steps=False, table_format="simple",
           standalone=False, exact_weights=False, weights=None, exact=False, smoothing=None,
           max_display_depth=None, hide_empty=False, color="none", show="counts") -> None:
    """Write ``tree`` to ``out`` in format ``fmt``.

    ``nodes``: ``"all"`` (a derivation for every internal node and every impure leaf
    with candidates), ``"root"`` or ``"none"`` (the tree only).  ``steps`` adds the
    worked solution (text, Markdown, LaTeX) for the same nodes, or for all of them
    when ``nodes="none"``.  ``table_format`` is a tabulate format (text only).

    Leaf weights in the tree lines (text, Markdown, LaTeX, DOT): integers as they are,
    fractional weights (C4.5 with missing values) rounded half up to two places as J48
    prints them; ``exact_weights=True`` (same as ``weights="exact"``) prints exact
    fractions; ``weights="j48"`` (text) writes the tree block exactly as Weka's J48
    does.  JSON is always exact.

    ``rules``: one if-then rule per leaf with its coverage; ``python``: a ``predict``
    function; ``tikz``: the ``forest`` package; ``svg`` and ``png``: drawings (need
    matplotlib).  ``exact=True`` adds the chosen measure's exact value to the boxes
    of the drawn formats.  ``png`` is binary: ``out`` is a binary file or a text
    file with a ``buffer``.

    ``smoothing`` (``"none"``, ``"laplace"``, ``"m=M"``; formats text, markdown, latex,
    json, dot) adds each leaf's exact class probabilities (:mod:`infotree.smoothing`).

    The pictures (dot, tikz, svg, png, html) take ``max_display_depth`` (nodes deeper than
    this are not drawn; a cut subtree is one summary box with its leaf and class counts),
    ``hide_empty`` (leave out branches no training row reached), ``color`` (``"none"``,
    black and white, or ``"class"``: fill by majority class, paler the less pure, with a
    key) and ``show`` (``"counts"``, ``"proportions"`` or ``"percent"``, as rpart.plot's
    ``extra``).  ``html`` is the report of :func:`infotree.printers.html.write_report`.
    """
    _check(fmt, digits, nodes, table_format, standalone)
    if smoothing is not None:
        from ..smoothing import smoothing_named

        smoothing = smoothing_named(smoothing)
        if fmt not in SMOOTHED:
            raise InfotreeError(f"smoothing prints leaf probabilities in formats {', '.join(SMOOTHED)}, not {fmt!r}")
        if tree.criterion.regression:
            raise InfotreeError("smoothing gives class probabilities; a regression tree's leaves hold means")
    w = _weights(weights, exact_weights)
    if exact and fmt not in DRAWN:
        raise InfotreeError(f"exact=True shows exact values in drawn boxes (formats {', '.join(DRAWN)}), not {fmt!r}")
    if w == "j48" and fmt not in ("text", "markdown"):
        raise InfotreeError(f"weights='j48' writes J48's own tree text; it applies to formats text and markdown, not {fmt!r}")
    if w == "j48" and smoothing is not None:
        raise InfotreeError("weights='j48' writes J48's own tree text, which has no leaf probabilities; "
                            "drop the smoothing or use weights='decimal' or 'exact'")
    pictures = dict(max_depth=max_display_depth, hide_empty=hide_empty, color=color, show=show)
    if fmt not in PICTURES and (max_display_depth is not None or hide_empty or color != "none" or show != "counts"):
        raise InfotreeError(f"max_display_depth, hide_empty, color and show shape drawings (formats "
                            f"{', '.join(PICTURES)}), not {fmt!r}")
    from .drawing import look

    look(**pictures)
    if fmt != "png":  # names and values from data files: control, ANSI and bidi characters escaped
        out = SafeWriter(out, fmt)
    if fmt == "text":
        from .text import write

        write(tree, out, digits=digits, nodes=nodes, steps=steps, table_format=table_format, weights=w,
              smoothing=smoothing)
    elif fmt == "markdown":
        from .markdown import write

        write(tree, out, digits=digits, nodes=nodes, steps=steps, weights=w, smoothing=smoothing)
    elif fmt == "latex":
        from .latex import write

        write(tree, out, digits=digits, nodes=nodes, steps=steps, standalone=standalone, weights=w,
              smoothing=smoothing)
    elif fmt == "json":
        from .json import write

        write(tree, out, nodes=nodes, smoothing=smoothing)
    elif fmt == "dot":
        from .dot import write

        write(tree, out, digits=digits, weights=w, smoothing=smoothing, **pictures)
    elif fmt == "rules":
        from .rules import write

        write(tree, out, weights=w)
    elif fmt == "python":
        from .python_code import write

        write(tree, out)
    elif fmt == "tikz":
        from .tikz import write

        write(tree, out, digits=digits, exact=exact, standalone=standalone, weights=w, **pictures)
    elif fmt == "html":
        from .html import write_report

        write_report(tree, out, digits=digits, weights=w, **pictures)
    else:
        from .drawing import write_png, write_svg

        (write_svg if fmt == "svg" else write_png)(tree, out, digits=digits, exact=exact, weights=w, **pictures)


def render_node(tree, node, out, *, fmt="text", digits=4, table_format="simple") -> None:
    """Write the derivation of one node (``infotree measures --at``): text, markdown or latex."""
    _check(fmt, digits, "all", table_format, False)
    out = SafeWriter(out, fmt)
    if fmt == "text":
        from .text import write_node

        write_node(tree, node, out, digits=digits, table_format=table_format)
    elif fmt == "markdown":
        from .markdown import write_node

        write_node(tree, node, out, digits=digits)
    elif fmt == "latex":
        from .latex import write_node

        write_node(tree, node, out, digits=digits)
    else:
        raise InfotreeError(f"format {fmt!r} prints whole trees; one node's derivation prints as text, markdown or latex")


def markdown_of(tree, **opts) -> str:
    """The Markdown rendering as one string (for ``Tree._repr_markdown_``)."""
    buf = io.StringIO()
    render(tree, buf, fmt="markdown", **opts)
    return buf.getvalue()


def latex_of(tree, **opts) -> str:
    """The LaTeX rendering as one string (for ``Tree._repr_latex_``)."""
    buf = io.StringIO()
    render(tree, buf, fmt="latex", **opts)
    return buf.getvalue()
