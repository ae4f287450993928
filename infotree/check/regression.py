"""A regression tree's measure claims (``--criterion squared-error``), exact: ``SSE(Y | node)`` = Σ(y − ȳ)²,
``Mean(Y | node)``, ``SSE(Y | split on A)``, ``ΔSSE(A)`` and rpart's improvement ΔSSE / SSE(node), read from
the builder's records at a node or from the rows."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .grammar import _Known, _Measure
from .names import Unreadable as _Unreadable
from .treeclaims import _branch_of
from .values import _exact_text


def _sse(stats):
    """Σ(y − ȳ)² = Σy² − (Σy)²/n from (n, Σy, Σy²)."""
    n, s, q = stats
    return Fraction(0) if not n else Fraction(q) - Fraction(s) ** 2 / n


class RegressionValues:
    """The checker's regression measures (a mixin of the checker)."""

    def regression_value(self, m: _Measure, quantity):
        """A regression tree's measures (exact): SSE(Y | node) = Σ(y − ȳ)², Mean(Y | node), SSE(Y | split on A)
        = SSE(left) + SSE(right), ΔSSE(A) and rpart's improvement ΔSSE / SSE(node)."""
        target = self.data.target
        if not self.regression:
            raise _Unreadable(f"{quantity}: SSE and Mean are a regression tree's measures; check with "
                              f"--criterion squared-error")
        if m.name not in ("SSE", "Mean", "Decrease", "Improvement") or (m.left != (target,) and m.name in (
                "SSE", "Mean")) or m.given:
            raise _Unreadable(f"{quantity}: a regression tree's measures are SSE({target} | node), "
                              f"Mean({target} | node), SSE({target} | split on A), ΔSSE(A) and Improvement(A)")
        if m.split_on or m.name in ("Decrease", "Improvement"):
            if m.split is not None:
                table, whole = self.split_table(m, quantity), self.stats(self.rows(m.fixed))
            else:
                c = self.candidate(m.fixed, m.split_on or m.left[0], quantity)
                table, whole = c.table, None
            parts = [_sse(r) for r in table]
            if m.split_on:
                return sum(parts, Fraction(0)), [" + ".join(_exact_text(p) for p in parts)], [], None
            parent = _sse([sum(col) for col in zip(*table)])
            decrease = parent - sum(parts, Fraction(0))
            if m.name == "Decrease":
                return decrease, [f"{_exact_text(parent)} - ({' + '.join(_exact_text(p) for p in parts)})"], [], \
                    ("-", parent, sum(parts, Fraction(0)))
            node_sse = _sse(whole) if whole is not None else c.node_sse
            return decrease / node_sse, [f"({_exact_text(decrease)})/({_exact_text(node_sse)})"], [], None
        stats = None
        if m.fixed and isinstance(m.fixed[-1][1], _Known):
            # the rows of the node with the feature known: its candidate's two sides together
            c = self.candidate(m.fixed[:-1], m.fixed[-1][0], quantity)
            stats = tuple(sum(col) for col in zip(*c.table))
        elif m.fixed and m.fixed == self.context:
            node = self.tree_node(m.fixed)
            stats = None if node is None else tuple(node.class_counts.tolist())
        elif m.fixed:
            node = self.tree_node(m.fixed[:-1])
            var, val = m.fixed[-1]
            if node is not None and var in self.data.features:
                for c in node.candidates():
                    b = _branch_of(c.split, var, val) if c.feature == var else None
                    if b is not None:
                        stats = c.table[b]
        if stats is None:
            stats = self.stats(self.rows(m.fixed))
        n, sy, sq = stats
        if m.name == "Mean":
            return Fraction(sy) / n, [f"{_exact_text(Fraction(sy))}/{_exact_text(Fraction(n))}"], [], None
        return _sse(stats), [f"{_exact_text(Fraction(sq))} - {_exact_text(Fraction(sy))}²/{_exact_text(Fraction(n))}"], \
            [], None

    def stats(self, mask):
        """(n, Σy, Σy²) of a regression target on the masked rows, exact."""
        ys = [self.y_numbers[c] for c in np.asarray(self.data.y)[mask].tolist()]
        return len(ys), sum(ys, Fraction(0)), sum((y * y for y in ys), Fraction(0))
