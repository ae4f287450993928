"""Graphviz DOT: one statement per node, written in pre-order.

Node ids are pre-order numbers (``n0`` is the root).  An internal node shows its
feature and the information gain of the split (and the gain ratio under the
gain-ratio criteria), an edge its value, a leaf ``label (n)`` (``(n/errors)`` and
the class counts when it misclassifies training rows); an empty leaf is dashed.  A
numeric split's edges read ``<= 75`` and ``> 75``; fractional weights (C4.5 with
missing values) print to two places (``bad (15.27/2.27)``), or exact with
``weights="exact"``.

    >>> import io
    >>> from infotree.data import load
    >>> from infotree import build_tree
    >>> out = io.StringIO()
    >>> write(build_tree(load("tests/data/weather.csv")), out)
    >>> print(out.getvalue().splitlines()[4])
      n0 [shape=box, label="outlook\\nIG = 0.2467"];
"""

from __future__ import annotations

from ..exact import decimal_text
from ..records import BinaryCandidate
from .cells import class_counts_text
from .drawing import facts, fill_of, legend, look, mean_scale, shown_children, summary_lines
from .lines import leaf_text, probabilities_text, smoothing_line

__all__ = ["quote", "write"]


def quote(s: str) -> str:
    """``s`` as a DOT double-quoted string (backslash, quote and line breaks escaped)."""
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
    return f'"{s}"'


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _node_label(tree, node, digits, weights="decimal", smoothing=None) -> str:
    if node.is_leaf:
        text = leaf_text(node, weights)
        if node.errors:
            text += "\n" + class_counts_text(tree, node.class_counts, weights=weights)
        if smoothing is not None:
            text += f"\nP: {probabilities_text(node, smoothing)}"
        return text
    c = node.chosen
    if c is None:  # a loaded model keeps no candidates
        return node.split_feature
    if isinstance(c, BinaryCandidate):  # CART: the decrease of the criterion's impurity
        la = "" if c.lookahead is None else f"\nΔ{tree.criterion.symbol} (lookahead) = {decimal_text(c.lookahead, digits)}"
        return f"{node.split_feature}\nΔ{tree.criterion.symbol} = {decimal_text(c.decrease, digits)}{la}"
    text = f"{node.split_feature}\nIG = {decimal_text(c.gain, digits)}"
    if tree.criterion.ratio and c.gain_ratio is not None:
        text += f"\nGR = {decimal_text(c.gain_ratio, digits)}"
    if c.lookahead is not None:
        text += f"\nIG (lookahead) = {decimal_text(c.lookahead, digits)}"
    return text


def _shares(tree, node, lk) -> str:
    """The line ``show`` adds (rpart.plot's ``extra``): the node's class proportions, or its share of all rows."""
    f = facts(tree, node, weights="exact", show=lk.show)
    if lk.show == "percent":
        return f"\nn = {f.n}"
    return "\n" + ", ".join(f"{k}: {c}" for k, c in f.counts) if lk.show == "proportions" and node.n else ""


def write(tree, out, *, digits=4, weights="decimal", smoothing=None, **opts) -> None:
    """The tree as a ``digraph``; ids and order are the same on every run.  ``opts`` as the drawings'
    (:class:`~infotree.printers.drawing.Look`): a cut subtree is one dotted box, ``color="class"``
    fills the nodes (and a key lists the classes' colours)."""
    lk = look(**opts)
    scale = mean_scale(tree) if lk.color == "class" and tree.criterion.regression else None
    out.write(f"digraph {quote('infotree: ' + tree.target)} {{\n")
    out.write('  node [fontname="Helvetica"];\n  edge [fontname="Helvetica"];\n')
    out.write(f"  // criterion {tree.criterion.name}\n")
    if smoothing is not None:
        out.write(f"  // {smoothing_line(tree, smoothing)}\n")
    key = legend(tree, lk)
    if key:
        rows = "".join(f'<tr><td bgcolor="{c}">  </td><td align="left">{_html(t)}</td></tr>' for t, c in key)
        out.write(f'  key [shape=plaintext, label=<<table border="0" cellspacing="2">{rows}</table>>];\n')
    stack = [(tree.root, None, None, 0)]  # (node, parent id, edge value, depth)
    next_id = 0
    while stack:
        node, parent, value, depth = stack.pop()
        me = next_id
        next_id += 1
        kids = shown_children(node, depth, lk)
        attrs = "shape=box" if not node.is_leaf else "shape=ellipse"
        styles = ["dashed"] if node.is_empty else ["dotted"] if kids is None else []
        if lk.color == "class":
            styles.append("filled")
            attrs += f', fillcolor="{fill_of(tree, node, scale)}"'
        if styles:
            attrs += f", style={quote(','.join(styles)) if len(styles) > 1 else styles[0]}"
        label = ("\n".join(summary_lines(tree, node, weights=weights, show=lk.show)) if kids is None else
                 _node_label(tree, node, digits, weights, smoothing) + _shares(tree, node, lk))
        out.write(f"  n{me} [{attrs}, label={quote(label)}];\n")
        if parent is not None:
            out.write(f"  n{parent} -> n{me} [label={quote(value)}];\n")
        if kids:
            # an M-of-N node's box names its test: its edges say how many conditions hold
            values = tuple(f"{op} {node.test.m}" for op, _ in map(node.test.condition, (0, 1))) if node.m_of_n \
                else node.test.labels
            stack.extend((child, me, values[child.step[1]], depth + 1) for _, child in reversed(kids))
    out.write("}\n")
