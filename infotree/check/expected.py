"""The expected tree's nodes as the grader sees them (:class:`Expected`: its split and its acceptable
splits, tied exactly, its leaf classes, its children) and their text (``outlook = sunny``,
``humidity <= 75``, ``outlook in {sunny, rainy}``).

The builder's surface used here: a Node's ``split``, ``split_feature``, ``ties``, ``threshold``, ``test``,
``children``, ``class_counts``, ``n``, ``errors``, ``mean``, ``label_name``, ``reason``, ``candidates()``
(``decrease``, ``split``, ``ties``), ``tree`` (``features``, ``classes``, ``domains``, ``criterion``).
"""

from __future__ import annotations

from fractions import Fraction

from ..decimals import decimal_text

__all__ = ["Expected", "binary_choices", "complement", "cond_text", "number_text", "split_condition", "where",
           "where_the"]


class Expected:
    """What the node at ``conds`` is: a view of a builder Node (None: no training row reaches it)."""

    def __init__(self, grower, conds, node, parent_labels=(), forced=None):
        self.grower, self.conds, self.node = grower, tuple(conds), node
        self.parent_labels = parent_labels
        self.forced = forced or {}   # CART: the student's splits this node's tree was grown with (see Grower.forced)

    @property
    def n(self):
        return 0 if self.node is None else self.node.n

    @property
    def errors(self):
        return 0 if self.node is None else self.node.errors

    @property
    def feature(self):
        return None if self.node is None else self.node.split_feature

    @property
    def splits(self) -> tuple:
        """Acceptable split features, the builder's choice first (ties follow)."""
        if self.feature is None:
            return ()
        feats = self.node.tree.features
        return (self.feature,) + tuple(feats[j] for j in self.node.ties)

    @property
    def threshold(self):
        return None if self.node is None else self.node.threshold

    @property
    def leaf_text(self) -> str:
        """``a leaf of class yes``, or (regression) ``a leaf predicting 187.5``."""
        if self.node is not None and self.node.tree.criterion.regression:
            return f"a leaf predicting {_or(self.labels)}"
        return f"a leaf of class {_or(self.labels)}"

    def has_label(self, text) -> bool:
        """Whether a leaf's class (a regression leaf's mean, as written) is one this node takes."""
        if self.node is not None and self.node.tree.criterion.regression:
            return self.n and _matches(self.node.mean, text)
        return text in self.labels

    @property
    def labels(self) -> tuple:
        """Acceptable leaf classes: every class of maximal count (an empty node: its parent's);
        a regression node's mean."""
        if self.node is None or not self.n:
            return self.parent_labels or ((self.node.label_name,) if self.node is not None else ())
        if self.node.tree.criterion.regression:
            return (self.node.label_name,)
        classes = self.node.tree.classes
        counts = [Fraction(c) for c in self.node.class_counts.tolist()]
        top = max(counts)
        first = self.node.label_name
        return (first,) + tuple(c for c, k in zip(classes, counts) if k == top and c != first)

    @property
    def reason(self) -> str:
        if self.node is None:
            return "empty branch: no training rows; labelled with the parent's majority class"
        return self.node.reason

    def child(self, key) -> "Expected":
        """The builder's child along ``key`` (``("=", value)``, ``("<=", "")``, ``(">", "")``; CART:
        ``("side", 0 or 1)``)."""
        node = self.node
        op, value = key
        if op == "side":
            return Expected(self.grower, self.conds + (split_condition(node.test, value, self.feature),),
                            node.children[value], self.labels, self.forced)
        if op == "=":
            idx = node.tree.domains[node.split].index(value)
            cond = (self.feature, "=", value)
        else:
            idx = 0 if op == "<=" else 1
            cond = (self.feature, op, node.threshold)
        child = node.children[idx]
        return Expected(self.grower, self.conds + (cond,), child, self.labels)

    def describe(self) -> str:
        if self.feature is None:
            return f"is {self.leaf_text}"
        if self.grower.binary:
            left = cond_text(split_condition(self.node.test, 0, self.feature))
            return f"splits on {left} ({cond_text(split_condition(self.node.test, 1, self.feature))})"
        at = f" at {number_text(self.threshold)}" if self.threshold is not None else ""
        if len(self.splits) > 1:
            return f"splits on {_or(self.splits)} (tied exactly)"
        return f"splits on {self.feature}{at}"


def number_text(q) -> str:
    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    d = q.denominator
    k = 0
    while d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
        k += 1
    return decimal_text(q, k) if d == 1 and k <= 30 else f"{q.numerator}/{q.denominator}"


def cond_text(cond) -> str:
    """``outlook = sunny``, ``humidity <= 75``, ``outlook in {sunny, rainy}``."""
    f, op, v = cond
    if op in ("in", "not in"):
        return f"{f} {op} {{{', '.join(v)}}}"
    if op == "known":
        return f"{f} known"
    return f"{f} {op} {v}" if op == "=" else f"{f} {op} {number_text(v)}"


def where(conds) -> str:
    return ", ".join(map(cond_text, conds))


def split_condition(test, side, feature) -> tuple:
    """(feature, op, value) of branch ``side`` (0 left, 1 right) of a CART split."""
    if getattr(test, "threshold", None) is not None:
        return (feature, "<=" if side == 0 else ">", test.threshold)
    return (feature, "in" if side == 0 else "not in", test.left_values)


def where_the(conds) -> str:
    return f"the node {where(conds)}" if conds else "the root"


def _or(names) -> str:
    return " or ".join(names)


def complement(cond) -> tuple:
    """The other branch of a binary split: ``x <= t`` for ``x > t``, ``not in S`` for ``in S``."""
    f, op, v = cond
    return (f, {"<=": ">", ">": "<=", "<": ">=", ">=": "<", "in": "not in", "not in": "in"}[op], v)


def binary_choices(exp) -> list:
    """The splits the builder could take at a CART node: each of maximal decrease (ties included),
    the builder's own first, as (feature, test); none at a leaf."""
    node = exp.node
    if node is None or node.split is None:
        return []
    cands = node.candidates()
    best = max(c.decrease for c in cands)
    out = [(exp.feature, node.test)]
    for c in cands:
        if c.decrease == best:
            out.extend((c.feature, t) for t in (c.split,) + tuple(c.ties) if t != node.test)
    return out


def _matches(value, text: str) -> bool:
    """A count (or a mean) as written (``3``, ``3.0``, ``3.38``, ``370/3``, ``-2.5``) is the value rounded to
    the decimals written, or the value itself."""
    decimals = len(text.partition(".")[2]) if "/" not in text else 0
    try:
        return decimal_text(Fraction(value), decimals) == text or Fraction(text) == Fraction(value)
    except ZeroDivisionError:  # "SSE = 1/0"
        return False
