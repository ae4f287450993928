"""Pruning a grown tree: C4.5's error-based pruning (as J48) and reduced-error pruning.

``pessimistic`` (C4.5, J48's default; ``docs/c45_rules.md`` section 6.3)
    Bottom-up.  At every internal node, with the node's training rows (fractional
    weights for missing values), three estimates of the errors it would make are
    compared: as a leaf, as its subtree, and as its largest branch's subtree fed
    with all of the node's rows (*subtree raising*).  A leaf wins when it is at most
    0.1 worse than both others; otherwise the largest branch replaces the node when
    it is at most 0.1 worse than the subtree, the rows are sent down it again and it
    is pruned again.  The estimate for N rows (weight) with E errors is
    ``E + addErrs(N, E, CF)``, the upper limit of a confidence interval for the error
    rate (Weka's ``Stats.addErrs``, with the normal quantile z of 1 − CF):

    * E = 0: ``N·(1 − CF^(1/N))``; 0 < E < 1: linear between E = 0 and E = 1;
    * E + 0.5 ≥ N: ``max(N − E, 0)``;
    * otherwise, with f = (E + 0.5)/N:
      ``N·(f + z²/2N + z·sqrt(f/N − f²/N + z²/4N²)) / (1 + z²/N) − E``.

    The estimates involve a square root and a normal quantile: they are floats (and
    printed as estimates), compared as J48 compares them (within 1e-6).  The rows and
    weights that reach each node stay exact.
``reduced-error``
    Bottom-up, on a separate validation set: a node becomes a leaf (labelled with its
    training majority) when the validation rows reaching it would make no more errors
    than its subtree makes on them.  Error counts are exact (Fractions when validation
    rows have missing values and are split by C4.5's weights).

Each pruned, raised or examined node keeps its record in ``node.pruned`` (a
:class:`~infotree.records.Pessimistic` or :class:`~infotree.records.ReducedError`).
C4.5's collapse of a grown tree (:func:`collapse`) is here too: it is the first,
training-error-only pruning J48 applies.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from .errors import InfotreeError
from .records import Complexity, Pessimistic, ReducedError
from .routing import FRACTIONAL_WEIGHTS

__all__ = ["add_errs", "collapse", "cp_prune", "estimated_errors", "prune_tree"]

_SLACK = 0.1    # C4.5's preference for the simpler tree, in errors
_TOL = 1e-6     # Weka's Utils.smOrEq tolerance


def add_errs(n: float, e: float, cf: float) -> float:
    """Weka's ``Stats.addErrs(N, e, CF)``: extra errors at confidence CF (a float estimate)."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (add_errs(n, 1, cf) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = NormalDist().inv_cdf(1 - cf)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return r * n - e


def estimated_errors(dist, cf: float) -> float:
    """C4.5's pessimistic error estimate of a leaf with class weights ``dist``."""
    n = sum(dist)
    if n == 0:
        return 0.0
    e = n - max(dist)
    return float(e) + add_errs(float(n), float(e), cf)


def _le(a: float, b: float) -> bool:
    return a - b < _TOL


def prune_tree(tree, data, *, method, confidence=Fraction(1, 4), validation=None) -> None:
    """Prune ``tree`` (grown on ``data``) in place; see the module docstring."""
    if method == "pessimistic":
        cf = float(confidence)
        if not 1e-15 <= cf <= 0.5:  # below, 1 - CF rounds to 1 and the normal quantile is infinite
            raise InfotreeError(f"confidence {cf:g} is not allowed; give a value from 1e-15 to 0.5 "
                                f"(C4.5's default is 0.25)")
        _Pessimistic(tree, data, cf).prune(tree.root, np.arange(len(data.y), dtype=np.int64), None)
    elif method == "reduced-error":
        if validation is None:
            raise InfotreeError("reduced-error pruning needs a validation set (validation=..., or --validation FILE)")
        _ReducedError(tree, validation).run()
    else:
        raise InfotreeError(f"prune {method!r} is not allowed; allowed: none, pessimistic, reduced-error")


class _Router:
    """Sends weighted training rows down a tree as C4.5 does (shares from the rows themselves)."""

    def __init__(self, tree, data):
        self.t = tree
        self.X = np.asarray(data.X)
        self.y = np.asarray(data.y, dtype=np.int64)
        self.nc = len(tree.classes)
        self._rank = {}

    def dist(self, rows, w) -> list:
        """Class weights of the cases (exact)."""
        if w is None:
            return [int(c) for c in np.bincount(self.y[rows], minlength=self.nc)]
        out = [Fraction(0)] * self.nc
        for c, x in zip(self.y[rows].tolist(), w.tolist()):
            out[c] += x
        return out

    def split(self, node, rows, w):
        """The children's cases: known values by branch; missing ones down every branch
        with weight × (the branch's share of these cases' known weight)."""
        j = node.split
        x = self.X[rows, j].astype(np.int64)
        if node.threshold is not None:
            key = (j, node.threshold)
            if key not in self._rank:
                import bisect

                self._rank[key] = bisect.bisect_right(self.t.numbers[j], node.threshold) - 1
            x = np.where(x < 0, -1, (x > self._rank[key]).astype(np.int64))
        nb = len(node.children)
        miss = x < 0
        out = []
        if not miss.any():
            for b in range(nb):
                sel = x == b
                out.append((rows[sel], None if w is None else w[sel]))
            return out
        known_w = []
        for b in range(nb):
            sel = x == b
            known_w.append(int(sel.sum()) if w is None else sum(w[sel].tolist(), Fraction(0)))
        shares = FRACTIONAL_WEIGHTS.shares(known_w)
        mrows = rows[miss]
        mw = np.array([Fraction(1)] * len(mrows), dtype=object) if w is None else w[miss]
        for b in range(nb):
            sel = x == b
            r = rows[sel]
            wb = np.empty(int(sel.sum()), dtype=object)
            wb[:] = [Fraction(1)] * len(wb) if w is None else w[sel].tolist()
            if shares[b]:
                r = np.concatenate([r, mrows])
                extra = np.empty(len(mrows), dtype=object)
                extra[:] = [v * shares[b] for v in mw.tolist()]
                wb = np.concatenate([wb, extra])
            out.append((r, wb))
        return out


class _Pessimistic(_Router):
    def __init__(self, tree, data, cf):
        super().__init__(tree, data)
        self.cf = cf

    def est(self, dist) -> float:
        return estimated_errors(dist, self.cf)

    def leaves_estimate(self, node) -> float:
        if node.split is None:
            return self.est(node.class_counts.tolist())
        return sum(self.leaves_estimate(c) for c in node.children)

    def branch_estimate(self, node, rows, w) -> float:
        """Estimated errors of node's subtree on these cases (getEstimatedErrorsForBranch)."""
        if node.split is None:
            return self.est(self.dist(rows, w))
        return sum(self.branch_estimate(c, r, cw) for c, (r, cw) in zip(node.children, self.split(node, rows, w)))

    def prune(self, node, rows, w) -> None:
        if node.split is None:
            return
        for child, (r, cw) in zip(node.children, self.split(node, rows, w)):
            self.prune(child, r, cw)
        # maxBag: the last branch of largest weight (Weka scans with >=)
        weights = [c.n for c in node.children]
        largest = max(range(len(weights)), key=lambda i: (weights[i], i))
        e_largest = self.branch_estimate(node.children[largest], rows, w)
        e_leaf = self.est(node.class_counts.tolist())
        e_tree = self.leaves_estimate(node)
        before = node.pruned if node.pruned is not None and node.pruned.action == "raised" else None

        def record(action, **more):
            return Pessimistic(action, e_leaf, e_tree, e_largest,
                               (self.t.features[node.split], *node.branch_condition(largest)), self.cf,
                               after_raising=before, **more)  # before: pruned again after a raise

        if _le(e_leaf, e_tree + _SLACK) and _le(e_leaf, e_largest + _SLACK):
            _make_leaf(node, record("leaf"))
            return
        if _le(e_largest, e_tree + _SLACK):
            son = node.children[largest]
            _raise(node, son, record("raised", raised_from=son.step))
            self.redistribute(node, rows, w)
            self.prune(node, rows, w)
            return
        node.pruned = record("kept")

    def redistribute(self, node, rows, w) -> None:
        """New class weights for a raised subtree from the rows now reaching it (newDistribution)."""
        counts = self.dist(rows, w)
        node.class_counts = np.array(counts, dtype=object if w is not None else np.int64)
        if node.n:
            node.label = _first_max(counts)
        elif node.parent is not None:
            node.label = node.parent.label
            node.stop = "empty" if node.split is None else node.stop
        if node.split is not None:
            for child, (r, cw) in zip(node.children, self.split(node, rows, w)):
                self.redistribute(child, r, cw)


def _first_max(counts) -> int:
    best = 0
    for i, c in enumerate(counts):
        if c > counts[best]:
            best = i
    return best


def _make_leaf(node, record) -> None:
    node.pruned = record
    node.make_leaf("pruned")


def _raise(node, son, record) -> None:
    """Replace node's split and children by those of its branch ``son`` (subtree raising)."""
    node.pruned = record
    node.test, node.ties = son.test, son.ties
    node.tables, node.considered, node.cuts, node.scale = son.tables, son.considered, son.cuts, son.scale
    node._valid, node._gain_ok = son._valid, son._gain_ok
    node._candidates = son._candidates  # None: made again from the son's counts when asked for
    node.children = son.children
    node.stop = son.stop
    for c in node.children:
        c.parent = node
    # The paths follow (a node's path is its parent's and its step); the depths do not.
    stack = [node]
    while stack:
        p = stack.pop()
        for c in p.children:
            c.depth = p.depth + 1
            stack.append(c)


class _ReducedError:
    """Reduced-error pruning on validation rows, exact error weights."""

    def __init__(self, tree, validation):
        self.t = tree
        codes = tree._codes(validation, "majority")
        index = {c: i for i, c in enumerate(tree.classes)}
        ys = []
        for i, c in enumerate(validation.y.tolist()):
            name = validation.classes[c]
            if name not in index:
                raise InfotreeError(f"validation row {i + 1}: class {name!r} was not seen in training; "
                                    f"classes are: {', '.join(tree.classes)}")
            ys.append(index[name])
        self.cases = [(c, y, Fraction(1)) for c, y in zip(codes, ys)]

    def run(self) -> None:
        self.prune(self.t.root, self.cases)

    def route(self, node, cases):
        """The children's validation cases, and those with a value unseen in training."""
        out = [[] for _ in node.children]
        unseen = []
        shares = None
        for codes, y, w in cases:
            child = self.t._child(node, codes)
            if child is None:  # missing: every branch, by its share of the training weight
                if shares is None:
                    shares = FRACTIONAL_WEIGHTS.shares([ch.n for ch in node.children])
                for i, wi in FRACTIONAL_WEIGHTS.spread(w, shares):
                    out[i].append((codes, y, wi))
            elif child == -1:  # unseen value: prediction stops here, at the node's majority
                unseen.append((codes, y, w))
            else:
                out[node.children.index(child)].append((codes, y, w))
        return out, unseen

    def errors_as_leaf(self, node, cases) -> Fraction:
        return sum((w for _, y, w in cases if y != node.label), Fraction(0))

    def prune(self, node, cases) -> Fraction:
        """Prune below node; return the validation errors of what remains."""
        as_leaf = self.errors_as_leaf(node, cases)
        if node.split is None:
            return as_leaf
        routed, unseen_cases = self.route(node, cases)
        unseen = self.errors_as_leaf(node, unseen_cases)
        subtree = unseen + sum((self.prune(c, r) for c, r in zip(node.children, routed)), Fraction(0))
        weight = sum((w for _, _, w in cases), Fraction(0))
        if as_leaf <= subtree:
            _make_leaf(node, ReducedError("leaf", as_leaf, subtree, weight))
            return as_leaf
        node.pruned = ReducedError("kept", as_leaf, subtree, weight)
        return subtree


def collapse(root) -> None:
    """C4.5's collapse: a subtree no better than a leaf on the training rows becomes one.

    J48 walks top-down and collapses a node when its subtree's training errors are at
    least its own as a leaf less 1/1000 (``errorsOfSubtree >= errorsOfTree - 1E-3``;
    the slack matters with fractional weights only).  The subtree's errors are the
    grown leaves' errors, summed once bottom-up.
    """
    sub = {}
    for node in reversed(list(root.walk())):  # children before parents
        sub[id(node)] = node.errors if node.split is None else sum(sub[id(c)] for c in node.children)
    slack = Fraction(1, 1000)
    stack = [root]
    while stack:
        node = stack.pop()
        if node.split is None:
            continue
        s, e = sub[id(node)], node.errors
        if (s >= e) if isinstance(s, int) and isinstance(e, int) else (s >= e - slack):
            node.collapsed_errors = s
            node.make_leaf("collapsed")
        else:
            stack.extend(node.children)


def _exact(risk):
    """A node's risk as an exact value: a Fraction, or a Poisson deviance (kept as it is)."""
    return Fraction(risk) if isinstance(risk, (int, Fraction)) else risk


def cp_prune(tree, cp=None, *, alpha=None) -> None:
    """rpart's complexity-parameter rule (``partition.c``), exactly, on a grown CART tree.

    rpart applies it while growing: with α = cp·R(root) (R the misclassified rows; regression: the SSE), a
    node whose risk, or the bound its parent passes down, is at most α is never split;
    after its children are grown, a node whose subtree's complexity
    (R(t) − R(leaves)) / (number of splits) is at most α loses its subtree.  The bounds
    follow rpart's weakest-link bookkeeping, left child first (``docs/cart_rules.md``,
    section 8).  A split decided on a node's own rows does not depend on what happens
    elsewhere, so pruning the fully grown tree in the same order gives rpart's tree.
    Each node examined keeps a :class:`~infotree.records.Complexity` record.
    ``alpha`` gives α itself instead (rpart's cross-validation grows each fold's tree
    with the whole tree's α scaled by the weight kept).
    """
    if alpha is None:
        alpha = Fraction(cp) * tree.root.risk
    out = {}  # id(node) -> the complexity its own partition set

    def part(t, bound):
        risk = _exact(t.risk)
        tempcp = first = risk if bound is None else min(risk, bound)
        if t.split is None:
            out[id(t)] = alpha
            return 0, risk
        if tempcp <= alpha:
            t.pruned = Complexity("not tried", risk, tempcp, alpha)
            t.make_leaf("cp")
            out[id(t)] = alpha
            return 0, risk
        own = risk if bound is None else bound  # t.complexity on entry: R(root) at the root
        left, right = t.children
        s_l, r_l = part(left, tempcp - alpha)
        tempcp = min(max((risk - r_l) / (s_l + 1), risk - left.risk), own)
        s_r, r_r = part(right, tempcp - alpha)
        c_l, c_r = out[id(left)], out[id(right)]
        c = (risk - (r_l + r_r)) / (s_l + s_r + 1)
        if c_r > c_l:  # the weaker child is taken as a leaf first
            if c > c_l:
                r_l, s_l = _exact(left.risk), 0
                c = (risk - (r_l + r_r)) / (s_l + s_r + 1)
                if c > c_r:
                    r_r, s_r = _exact(right.risk), 0
        elif c > c_r:
            r_r, s_r = _exact(right.risk), 0
            c = (risk - (r_l + r_r)) / (s_l + s_r + 1)
            if c > c_l:
                r_l, s_l = _exact(left.risk), 0
        c = (risk - (r_l + r_r)) / (s_l + s_r + 1)
        out[id(t)] = c
        if c <= alpha:
            t.pruned = Complexity("collapsed", risk, first, alpha, c, r_l + r_r, s_l + s_r + 1)
            t.make_leaf("cp")
            return 0, risk
        t.pruned = Complexity("kept", risk, first, alpha, c, r_l + r_r, s_l + s_r + 1)
        return s_l + s_r + 1, r_l + r_r

    part(tree.root, None)
