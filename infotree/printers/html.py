"""HTML: a tree's derivations as tables, for notebooks, and the one-file report.

:func:`node_html` is one node's derivation (the tables of the text printer, as
HTML tables), :func:`tree_html` a fragment with the drawing (inline SVG, when
matplotlib is installed), the tree and the selected derivations, and
:func:`write_report` a whole self-contained document an instructor hands out
(``infotree report``): the drawing, the tree, the worked solution in prose and
every node's derivation, with a small stylesheet and nothing fetched from
anywhere.  Every string is escaped; the SVG is matplotlib's, inlined.
:func:`show` wraps a tree or a node for Jupyter (``_repr_html_``, ``_repr_svg_``).

    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> tree = build_tree(load("tests/data/weather.csv"))
    >>> node_html(tree, tree.root).splitlines()[0]
    '<section class="infotree-node"><h3>Node: root</h3>'
"""

from __future__ import annotations

import io
from html import escape

from ..errors import InfotreeError
from .cells import TEXT, Table, has_derivation, node_view, select_nodes
from .lines import tree_lines, weka_line
from .steps import node_steps

__all__ = ["STYLE", "Shown", "node_html", "show", "tree_html", "write_report"]

#: black on white with grey rules: the report prints in black and white
STYLE = """\
.infotree { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #111;
  max-width: 100%; line-height: 1.4; }
.infotree h1 { font-size: 1.5em; } .infotree h2 { font-size: 1.25em; border-bottom: 1px solid #999; }
.infotree h3 { font-size: 1.05em; margin-bottom: 0.3em; }
.infotree table { border-collapse: collapse; margin: 0.4em 0 0.8em; font-size: 0.9em; }
.infotree caption { text-align: left; font-weight: bold; padding-bottom: 0.2em; }
.infotree th, .infotree td { border-top: 1px solid #bbb; border-bottom: 1px solid #bbb; padding: 0.15em 0.6em;
  vertical-align: top; }
.infotree th { border-bottom: 1.5px solid #333; text-align: left; }
.infotree td.r, .infotree th.r { text-align: right; font-variant-numeric: tabular-nums; }
.infotree code, .infotree pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
.infotree pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; }
.infotree .drawing { overflow-x: auto; margin: 0.5em 0; }
.infotree .drawing svg { max-width: none; height: auto; }
.infotree .decision { font-weight: bold; }
"""


#: the most nodes a report derives: connect-4's whole tree (41,236 nodes) made 813 MB in 420 s
REPORT_NODES = 5000

#: the report's policy: its own inline script and styles, images only as data; nothing is fetched
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def _table(t: Table, out) -> None:
    out.write(f"<table><caption>{escape(t.title)}</caption>\n<thead><tr>")
    for h, a in zip(t.headers, t.align):
        out.write(f'<th class="{a}">{escape(h)}</th>')
    out.write("</tr></thead>\n<tbody>\n")
    for row in t.rows:
        out.write("<tr>" + "".join(f'<td class="{a}">{escape(c)}</td>' for c, a in zip(row, t.align)) + "</tr>\n")
    out.write("</tbody></table>\n")


def node_html(tree, node, *, digits=4, anchor=None) -> str:
    """One node's derivation: its facts, the branch, candidate and exact-value tables, the decision.
    ``anchor``: the section's ``id`` (the report's ``node-K``, K the node's pre-order number)."""
    out = io.StringIO()
    ident = f' id="{escape(anchor)}"' if anchor else ""
    if not has_derivation(node):
        out.write(f'<section class="infotree-node"{ident}><h3>{escape(node.describe_path())}</h3>\n'
                  f"<p>{escape(node.reason)}; no candidates to compare.</p></section>\n")
        return out.getvalue()
    v = node_view(tree, node, digits=digits, markup=TEXT)
    out.write(f'<section class="infotree-node"{ident}><h3>Node: {escape(v.title)}</h3>\n<ul>\n')
    for fact in v.facts:
        out.write(f"<li>{escape(fact)}</li>\n")
    out.write("</ul>\n")
    for t in (v.branches, v.summary, v.exact, v.corrections, v.tried):
        if t is not None:
            _table(t, out)
    if node.mofn is not None:  # an M-of-N tree's node: the search that grew its test, as text
        from .mofn import write as write_search

        text = io.StringIO()
        write_search(node.mofn, text, target=tree.target, where=node.describe_path(), digits=digits)
        out.write(f'<pre class="infotree-mofn">{escape(text.getvalue())}</pre>\n')
    out.write("<ul>\n")
    for note in v.notes:
        out.write(f"<li>{escape(note)}</li>\n")
    out.write(f'</ul>\n<p class="decision">decision: {escape(v.decision)}</p>\n')
    if v.pruning is not None:
        _table(v.pruning, out)
    out.write("</section>\n")
    return out.getvalue()


def _svg(tree, digits, weights, **opts) -> str | None:
    """The drawing as an inline ``<svg>`` element (no XML prolog); None without matplotlib or past
    the drawings' box limit."""
    try:
        from .drawing import svg_text

        text = svg_text(tree, digits=digits, weights=weights, **opts)
    except InfotreeError:
        return None
    return text[text.index("<svg"):]


def _tree_text(tree, weights) -> str:
    lines = [weka_line(depth, line) for _, depth, line in tree_lines(tree, TEXT, weights)]
    return "".join(lines)


def tree_html(tree, *, nodes="root", digits=4, drawing=True, weights="decimal", **opts) -> str:
    """A fragment for a notebook: the drawing (when matplotlib is there), the tree, the derivations.
    ``opts`` shape the drawing (:class:`infotree.printers.drawing.Look`: ``max_depth``, ``hide_empty``,
    ``color``, ``show``)."""
    out = io.StringIO()
    out.write(f'<div class="infotree"><style>{STYLE}</style>\n')
    svg = _svg(tree, digits, weights, **opts) if drawing else None
    if svg is not None:
        out.write(f'<div class="drawing">{svg}</div>\n')
    out.write(f"<pre>{escape(_tree_text(tree, weights))}</pre>\n")
    if tree.root.is_leaf:
        out.write(f"<p>Single leaf: {escape(tree.root.reason)}.</p>\n")
    for node in select_nodes(tree, nodes):
        out.write(node_html(tree, node, digits=digits))
    out.write("</div>\n")
    return out.getvalue()


def write_report(tree, out, *, digits=4, title=None, source=None, weights="decimal", **opts) -> None:
    """The whole report: one HTML file with the tree to explore (zoom, pan, open and close subtrees,
    a node's derivation on click; :mod:`infotree.printers.explore`), the tree as text, the worked
    solution and every derivation.  ``opts`` as the drawings' (display depth, empty branches,
    colours, shares: :class:`infotree.printers.drawing.Look`)."""
    from .drawing import shown_nodes
    from .explore import SCRIPT, STYLE as EXPLORE, data_script

    shown = shown_nodes(tree, **opts)
    if len(shown) > REPORT_NODES:
        depth, fits = 0, 1
        while True:  # the deepest display depth whose report stays within the limit
            n = len(shown_nodes(tree, **dict(opts, max_depth=depth + 1)))
            if n > REPORT_NODES:
                break
            depth, fits = depth + 1, n
        raise InfotreeError(f"the report would hold {len(shown):,} nodes' derivations; a report holds at most "
                            f"{REPORT_NODES:,}: give --max-display-depth {depth} ({fits:,} node{'s' * (fits != 1)}; deeper subtrees "
                            f"shown as one box each), or --hide-empty")
    title = title or f"Decision tree for {tree.target}"
    out.write(f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
              f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
              f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
              f"<title>{escape(title)}</title>\n<style>\nbody {{ margin: 2em; }}\n{STYLE}{EXPLORE}</style>\n</head>\n"
              f'<body class="infotree">\n<h1>{escape(title)}</h1>\n')
    leaves = sum(1 for _ in tree.leaves())
    size = len(tree)
    about = f"criterion {tree.criterion.name}; {leaves} lea{'f' if leaves == 1 else 'ves'}, {size} node{'s' * (size != 1)}"
    if source:
        about = f"data {source}; " + about
    out.write(f"<p>{escape(about)}. Made by infotree: every value is exact, decimals are rounded from the exact "
              f"values.</p>\n")
    svg = _svg(tree, digits, weights, **opts)
    out.write("<h2>The tree</h2>\n<div id=\"infotree-tree\">\n")
    if svg is not None:  # what a browser without JavaScript shows
        out.write(f'<div class="drawing static">{svg}</div>\n')
    out.write("</div>\n")
    out.write(data_script(tree, digits=digits, weights=weights, **opts))
    out.write(f"<script>{SCRIPT}</script>\n")
    out.write(f"<pre>{escape(_tree_text(tree, weights))}</pre>\n")
    out.write("<h2>Worked solution</h2>\n")
    for node in tree.nodes():
        if id(node) not in shown or not has_derivation(node):  # the shown nodes only: asking costs
            continue
        lines = list(node_steps(tree, node, digits=digits))
        out.write(f'<section class="infotree-steps"><h3>{escape(lines[0])}</h3>\n')
        # A blank line ends a group of equations: one paragraph each, a line per equation.
        text = "\n".join(lines[1:]).strip("\n")
        for group in text.split("\n\n"):
            out.write("<p>" + "<br>\n".join(escape(line) for line in group.split("\n")) + "</p>\n")
        out.write("</section>\n")
    out.write("<h2>Derivations</h2>\n")
    for k, node in enumerate(tree.nodes()):
        if id(node) in shown and has_derivation(node):
            out.write(node_html(tree, node, digits=digits, anchor=f"node-{k}"))
    out.write("</body>\n</html>\n")


class Shown:
    """A tree or a node as a notebook shows it: ``_repr_html_`` (and ``_repr_svg_`` for a tree's drawing)."""

    def __init__(self, html: str, svg: str | None = None):
        self.html, self.svg = html, svg

    def _repr_html_(self) -> str:
        return self.html

    def _repr_svg_(self) -> str | None:
        return self.svg

    def __repr__(self):
        return f"<infotree display: {len(self.html)} characters of HTML{', a drawing' if self.svg else ''}>"


def show(obj, *, nodes="root", digits=4, drawing=True, weights="decimal", **opts) -> Shown:
    """A tree (drawing, tree, the derivations ``nodes`` selects) or a node (its derivation), for Jupyter.

    ``infotree.show(tree, nodes="all")`` as a cell's last line displays every derivation;
    ``opts`` shape the drawing: ``max_depth``, ``hide_empty``, ``color="class"``, ``show="percent"``.
    """
    from .cells import NODE_SELECTIONS
    from .drawing import look

    if nodes not in NODE_SELECTIONS:
        raise InfotreeError(f"unknown node selection {nodes!r}; allowed: {', '.join(NODE_SELECTIONS)}")
    look(**opts)
    if hasattr(obj, "root") and hasattr(obj, "nodes"):
        svg = _svg(obj, digits, weights, **opts) if drawing else None
        return Shown(tree_html(obj, nodes=nodes, digits=digits, drawing=drawing, weights=weights, **opts), svg)
    if hasattr(obj, "tree") and hasattr(obj, "children"):
        return Shown(f'<div class="infotree"><style>{STYLE}</style>\n{node_html(obj.tree, obj, digits=digits)}</div>\n')
    raise InfotreeError(f"show() takes a Tree or a Node, not {type(obj).__name__}")
