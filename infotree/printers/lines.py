"""A tree as indented lines, in Weka's style: ``outlook = sunny`` and ``humidity = high: no (3)``.

The text and Markdown printers write these lines with ``|  `` (Weka) or J48's own
indents; LaTeX writes them in its own markup.  Branch conditions come from the split
nodes' tests, leaf counts as J48 prints them (two decimals) or exactly.
"""

from __future__ import annotations

from ..data import number_text
from ..forms import counts_text
from .cells import TEXT, Markup, _integral, condition_markup, _java_round2, java_double_to_string, weight_text

__all__ = ["branch_text", "j48_line", "leaf_text", "probabilities_text", "smoothing_line", "tree_lines", "weka_line",
           "write_tree_lines"]


def leaf_text(node, weights: str = "decimal") -> str:
    """A leaf's ``label (weight)`` or ``label (weight/errors)``.

    ``yes (4)``, ``no (5/2)`` with training errors, ``yes (0, empty)`` for an empty leaf.
    Fractional weights (C4.5 with missing values) print as ``bad (15.27/2.27)`` (two
    places, rounded half up exactly; an integer weight stays ``2``), or with
    ``weights="exact"`` as ``bad (855/56, errors 127/56)`` (the comma keeps the fractions
    apart).  ``weights="j48"`` is J48's text: ``bad (2.0)``, ``bad (15.27/2.27)``,
    ``bad (0.0)`` for an empty leaf, ``/e`` only when e > 1e-6.
    """
    label = node.label_name
    if getattr(node.tree.criterion, "counts_events", False):  # Poisson, exp: a rate, events, exposure
        from .poisson import leaf_text as rate_leaf

        return rate_leaf(node)
    if node.tree.criterion.regression:  # rpart prints n, deviance, yval
        if node.is_empty:
            return f"{label} (0, empty)"
        return f"{label} (n = {weight_text(node.n, 'exact')}, SSE = {number_text(node.risk)})"
    if weights == "j48":
        if node.is_empty:
            return f"{label} (0.0)"
        e = node.errors
        tail = f"/{_java_round2(e)}" if float(e) > 1e-6 else ""
        return f"{label} ({_java_round2(node.n)}{tail})"
    if node.is_empty:
        return f"{label} (0, empty)"
    n, e = node.n, node.errors
    if weights == "exact" and not (_integral(n) and _integral(e)):
        return f"{label} ({counts_text(n)}, errors {counts_text(e)})" if e else f"{label} ({counts_text(n)})"
    if e:
        return f"{label} ({weight_text(n, weights)}/{weight_text(e, weights)})"
    return f"{label} ({weight_text(n, weights)})"


def branch_text(tree, node, markup: Markup = TEXT, weights: str = "decimal") -> str:
    """The condition of the branch that leads to ``node``: ``outlook = sunny``, ``humidity <= 75``,
    ``at least 2 of {outlook = sunny, windy = TRUE}`` below an M-of-N test."""
    f, v = node.step
    parent = node.parent
    op, t = parent.test.condition(v) if parent is not None else ("=", tree.domains[f][v])
    if weights == "j48" and parent.threshold is not None:  # J48 prints thresholds as Java's doubleToString
        t = java_double_to_string(parent.threshold)
    return condition_markup(markup, None if parent.m_of_n else tree.features[f], op, t)


def tree_lines(tree, markup: Markup = TEXT, weights: str = "decimal", smoothing=None):
    """``(node, depth, line)`` for every node below the root, pre-order, in Weka's style.

    ``outlook = sunny`` for an internal node, ``humidity = high: no (3)`` for a leaf,
    ``humidity <= 75`` / ``humidity > 75`` for a numeric split's branches; a tree that
    is a single leaf is the one line ``(root, 0, ": yes (14)")``.  With a ``smoothing``
    (:mod:`infotree.smoothing`) a leaf ends with its class probabilities:
    ``yes (4) [no 1/6, yes 5/6]``.
    """
    root = tree.root
    if root.is_leaf:
        yield root, 0, f": {_leaf(root, markup, weights, smoothing)}"
        return
    for node in root.walk():
        if node is root:
            continue
        line = branch_text(tree, node, markup, weights)
        if node.is_leaf:
            line += f": {_leaf(node, markup, weights, smoothing)}"
        yield node, node.depth - 1, line


def write_tree_lines(tree, out, line_of, markup: Markup = TEXT, weights: str = "decimal",
                     smoothing=None) -> tuple[int, int]:
    """Write ``line_of(depth, line)`` for each of :func:`tree_lines`; return (leaves, nodes)."""
    root = tree.root
    size, leaves = 1, 0
    for node, depth, line in tree_lines(tree, markup, weights, smoothing):
        out.write(line_of(depth, line))
        size += node is not root
        leaves += node.is_leaf
    return leaves, size


def weka_line(depth: int, line: str) -> str:
    """A tree line in Weka's style: ``|  `` once per level."""
    return "|  " * depth + line + "\n"


def j48_line(depth: int, line: str) -> str:
    """A tree line exactly as J48 indents it: ``|   `` once per level."""
    return "|   " * depth + line + "\n"


def _leaf(node, markup, weights="decimal", smoothing=None):
    text = leaf_text(node, weights)
    label = node.label_name
    if text.startswith(label):  # (a Poisson leaf starts with its rate's decimal instead)
        text = markup.name(label) + text[len(label):]
    return text if smoothing is None else f"{text} [{probabilities_text(node, smoothing, markup)}]"


def probabilities_text(node, smoothing, markup: Markup = TEXT) -> str:
    """``no 1/6, yes 5/6``: a node's class probabilities under ``smoothing``, exact, in class order."""
    tree = node.tree
    return ", ".join(f"{markup.name(k)} {counts_text(p)}" for k, p in zip(tree.classes, tree.probabilities(node, smoothing)))


def smoothing_line(tree, smoothing, markup: Markup = TEXT) -> str:
    """The sentence under a tree whose leaves show probabilities: which estimate, and its prior."""
    return markup.name(smoothing.describe(tree.classes, tree.root.class_counts.tolist()))


# -- a node's derivation -------------------------------------------------------------------
