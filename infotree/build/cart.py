"""The fast CART builder: the reference builder's trees and records, level by level.

The reference builder (:mod:`infotree.build.reference`) is the specification; this one
grows the identical tree with the identical records (candidates, ties, stop reasons,
surrogates with agree, adj and the rows they routed), and ``tests/test_cart_builder.py``
checks that it does, printers included.  What makes it fast:

* **Each numeric column is sorted once**, at the root.  Every open node of a depth is a
  segment of one array of rows per numeric feature, in the feature's order (rows whose
  value is missing at the segment's end); a split partitions each array stably, so the
  children's segments stay sorted.
* **All cuts of all nodes of a depth at once**: cumulative class counts along each
  array give every cut's left and right counts; the criterion's n·I in floats
  (``n_impurity_floats``) with one certified bound per node (``improvement_error``)
  scores them; a node's best cut, a node's best feature, the sign of an improvement are
  read from the floats only where the bounds separate, and decided exactly where they do
  not (``n_impurity_ratio``: integers; entropy: ``n_impurity_exact``, exact logarithms;
  a decrease's sign by strict concavity, an integer test): a decision never rests on a
  float alone.
* **Subsets in bulk**: the nominal features with V values have one (feature, value,
  class) table per node; every subset of the values a bit mask (more than two classes:
  the present values first, the subsets are a prefix of one list of masks), or Breiman's
  ordering (two classes: value proportions of denominators below 2^26 order exactly as
  floats).
* **Histogram subtraction**: only the root's tables are counted whole.  A split node's
  rows are counted on its smaller side (one ``bincount`` per depth); the other side is
  its table less those and less the rows without the primary's value.  The two sides
  give the nominal surrogates' agreements, and, with the rows the surrogates route, the
  children's tables.
* **Surrogates in bulk** from the same sorted arrays: the primary's direction along each
  other numeric feature's segment, cumulated, gives every surrogate cut's agreement.
* **Records when asked for**: a node keeps its row in its depth's arrays; its candidate
  and surrogate records are made when a printer or a user reads them.
* **Regression** (``squared_error``, numeric features): targets as shifted integers; a
  cut's decrease is (S_L·n_R − S_R·n_L)² / (n_L·n_R·n) with an exact integer numerator.
* **Per node, only what must be a Python object**: the split nodes' midpoints from int64
  numerators and denominators with one vectorised gcd; stops and ties set from arrays;
  regression children's statistics summed along their parents' segments; the cyclic
  garbage collector paused while the nodes are made (it would re-traverse all of them).

A nominal feature with more than :data:`_MASK_VALUES` values takes the reference's
splitter node by node.  Sample weights (``build_tree`` sends weighted fits to the
reference builder), ``every_split``, regression with nominal features or huge targets,
2^26 rows or more, and a subset search past ``max_subsets`` (:class:`Refused`) are grown
by the reference builder.
"""

from __future__ import annotations

import gc
import math
from dataclasses import replace
from functools import lru_cache, partial
from fractions import Fraction

import numpy as np

from ..criteria import Entropy, Gini
from ..errors import InfotreeError
from ..measures import is_independent
from ..node import Node, draws
from ..records import BinaryCandidate, RegressionCandidate, Surrogate
from ..routing import SURROGATES
from ..splits import SubsetSplit, ThresholdSplit
from ..splitters import best_subset

__all__ = ["CARTBuilder", "Refused"]

_U = 2.0 ** -53
# Strictly concave impurities: a split decreases them unless both sides have the parent's proportions.
_CONCAVE = (Gini, Entropy)
# Nominal features with at most this many values get their subsets as bit masks in
# bulk (2^V masks per node); wider ones are split node by node by the reference's splitter.
_MASK_VALUES = 10
# Counts below 2^26: sums of squares stay exact in floats, and proportions of different
# values order exactly as floats (two fractions of such denominators differ by > 2^-52).
_COUNT_LIMIT = 1 << 26
_POSITIONS = _COUNT_LIMIT - 1  # as a mask: the low 26 bits
# Sort keys below this are sorted as uint16: numpy radix-sorts them, several times faster.
_KEY16 = 1 << 16
# Value sets of nominal features with at most this many values are kept as int64 bit masks.
_BITS = 62


@lru_cache(maxsize=1 << 12)  # a tree's subset splits repeat a few (feature, value set) pairs
def _subset_split(j, bits, values) -> SubsetSplit:
    return SubsetSplit(j, frozenset(i for i in range(bits.bit_length()) if bits >> i & 1), values)


def _short_sum(a, axis):
    """a.sum(axis) over a short axis, as one addition per slice: numpy's reduction over a
    short axis costs several times more."""
    a = np.moveaxis(a, axis, 0)
    if not len(a):  # a feature with no value (every row missing)
        return np.zeros(a.shape[1:], np.int64)
    out = a[0].astype(np.int64)
    for x in a[1:]:
        out += x
    return out


def _cumcount(mask):
    """np.cumsum of a bool array, fast: as int8 into int32 (counts stay below 2^26)."""
    return np.cumsum(mask.view(np.int8), dtype=np.int32)


def _seg_starts(group):
    """Indices where a non-decreasing group array changes (the first item of each run)."""
    if not len(group):
        return np.zeros(0, np.int64)
    changes = np.flatnonzero(group[1:] != group[:-1])
    changes += 1
    return np.concatenate(([0], changes))


def _first_best(group, val, bnd, exact, starts=None):
    """Per group of items (sorted by group, then in tie order): the first item of maximal
    exact value.  ``val ± bnd`` holds each item's exact value; ``exact(items)`` gives the
    exact values of the listed items (only those the floats cannot separate are asked):
    a list of exact numbers, or (numerators, denominators) as arrays of ints.
    ``starts``: each group's first item, if the caller has them.
    Returns (groups, winner item per group, mask of the items exactly equal to their
    group's winner, winner included)."""
    n = len(group)
    eq = np.zeros(n, bool)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), eq
    if starts is None:
        starts = _seg_starts(group)
    floor = np.maximum.reduceat(val - bnd, starts)
    # The items that may be their group's best (each group has one: its float maximum),
    # usually one a group: the rest of the work is on these.
    items = np.flatnonzero(val + bnd >= np.repeat(floor, np.diff(starts, append=n)))
    g_of = np.searchsorted(starts, items, side="right") - 1
    s1 = _seg_starts(g_of)
    win = np.zeros(len(starts), np.int64)
    many = np.zeros(len(starts), bool)
    win[g_of[s1]] = items[s1]
    many[g_of[s1]] = np.diff(s1, append=len(items)) > 1
    eq[items[s1][~many[g_of[s1]]]] = True
    if many.any():
        sel = many[g_of]
        items, g_of = items[sel], g_of[sel]
        values = exact(items)
        if isinstance(values, tuple):  # rationals: each against its group's float leader, in integers
            num, den = values
            s2 = _seg_starts(g_of)
            rep = np.repeat(np.arange(len(s2)), np.diff(s2, append=len(items)))
            v = val[items]
            top = np.maximum.reduceat(v, s2)
            lead = np.minimum.reduceat(np.where(v == top[rep], np.arange(len(items)), len(items)), s2)[rep]
            diff = num * den[lead] - num[lead] * den
            above = (diff > 0).astype(bool)
            same = (diff == 0).astype(bool)
            bad = np.add.reduceat(above.astype(np.int64), s2) > 0
            ok = ~bad[rep]
            eq[items[same & ok]] = True
            firsts = np.minimum.reduceat(np.where(same, np.arange(len(items)), len(items)), s2)
            good = np.flatnonzero(~bad)
            win[g_of[s2[good]]] = items[firsts[good]]
            if bad.any():  # the floats misordered within their bounds: compare every one exactly
                sel = np.flatnonzero(bad[rep])
                _python_best(items[sel], g_of[sel], [Fraction(int(a), int(b)) for a, b in zip(num[sel], den[sel])], win, eq)
        else:
            _python_best(items, g_of, values, win, eq)
    return group[starts], win, eq


def _decreases(SL, nL, SR, nR):
    """Exact regression decreases d² / (n_L·n_R·n) of cuts (d = S_L·n_R − S_R·n_L, n = n_L + n_R;
    int64 sums of a side's rows, exact) as _first_best's (numerators, denominators): int64
    where every cross product of a numerator and a denominator fits (small nodes, whose
    cuts tie exactly most often), else Python ints."""
    nLf, nRf = nL.astype(np.float64), nR.astype(np.float64)
    # Bounds of |d| and of the denominators, in floats (a few roundings: 2^62 leaves room)
    top_d = (np.abs(SL) * nRf + np.abs(SR) * nLf).max(initial=0)
    top_n = (nLf * nRf * (nLf + nRf)).max(initial=0)
    if max(top_d, 1.0) ** 2 * top_n < 2.0 ** 62:  # the denominators themselves fit too
        d = SL * nR - SR * nL
        return d * d, nL * nR * (nL + nR)
    SL, nL, SR, nR = (a.astype(object) for a in (SL, nL, SR, nR))
    d = SL * nR - SR * nL
    return d * d, nL * nR * (nL + nR)


def _python_best(items, g_of, values, win, eq):
    best = {}
    for i, g, v in zip(items.tolist(), g_of.tolist(), values):
        b = best.get(g)
        if b is None or v > b[1]:
            best[g] = (i, v)
    for i, g, v in zip(items.tolist(), g_of.tolist(), values):
        if v == best[g][1]:
            eq[i] = True
    for g, (i, _) in best.items():
        win[g] = i


class _Level:
    """The candidate data of one depth's examined nodes (K nodes × m features), from which
    a node's candidate records are made when asked for."""

    __slots__ = ("b", "has", "L", "R", "U", "tried", "lo", "hi", "mask", "wide")

    def __init__(self, b, K, m, nc):
        self.b = b
        self.has = np.zeros((K, m), bool)
        self.L = np.zeros((K, m, nc), np.int64)
        self.R = np.zeros((K, m, nc), np.int64)
        self.U = np.zeros((K, m, nc), np.int64)
        self.tried = np.zeros((K, m), np.int64)
        self.lo = np.zeros((K, m), np.int64)    # numeric: ranks either side of the cut
        self.hi = np.zeros((K, m), np.int64)
        self.mask = np.zeros((K, m), np.int64)  # nominal: the left value codes as bits
        self.wide = {}                          # or, past _BITS values, (k, j) -> left value codes

    def split(self, k, j):
        b = self.b
        if b.numeric[j]:
            lo, hi = int(self.lo[k, j]), int(self.hi[k, j])
            if b.midpoint:
                x, z = b.t.numbers[j][lo], b.t.numbers[j][hi]
                return ThresholdSplit(j, Fraction(x.numerator * z.denominator + z.numerator * x.denominator,
                                                  2 * x.denominator * z.denominator))
            return ThresholdSplit(j, b.t.threshold_between(j, lo, hi))
        if b.nv[j] > _BITS:
            return SubsetSplit(j, self.wide[k, j], b.t.domains[j])
        return _subset_split(j, int(self.mask[k, j]), b.t.domains[j])

    def splits(self, ks, js):
        """split(k, j) of many nodes: numeric midpoints' numerators and denominators in
        int64 arrays (where the features' exact values allow), reduced by one vectorised gcd."""
        b = self.b
        if not b.midpoint:
            return [self.split(k, j) for k, j in zip(ks, js.tolist())]
        lo, hi = self.lo[ks, js], self.hi[ks, js]
        small = b.small_fractions
        fast = small[js]
        out = [None] * len(ks)
        if fast.any():
            at = b.fraction_offsets[js[fast]]
            xn, xd = b.fraction_num[at + lo[fast]], b.fraction_den[at + lo[fast]]
            zn, zd = b.fraction_num[at + hi[fast]], b.fraction_den[at + hi[fast]]
            num, den = xn * zd + zn * xd, 2 * xd * zd
            g = np.gcd(num, den)
            num //= g
            den //= g
            for i, j, n, d in zip(np.flatnonzero(fast).tolist(), js[fast].tolist(), num.tolist(), den.tolist()):
                out[i] = ThresholdSplit(j, Fraction(n, d))
        if not fast.all():
            rest = np.flatnonzero(~fast)
            masks = self.mask[np.asarray(ks)[rest], js[rest]].tolist()
            for i, j, m in zip(rest.tolist(), js[rest].tolist(), masks):
                out[i] = (self.split(ks[i], j) if b.numeric[j] or b.nv[j] > _BITS
                          else _subset_split(j, m, b.t.domains[j]))
        return out

    def record(self, k, j, split=None):
        b = self.b
        row = b.exact_stats if b.reg else tuple
        u = self.U[k, j].tolist()
        return (RegressionCandidate if b.reg else BinaryCandidate)(
            b.t.features[j], j, split or self.split(k, j), (row(self.L[k, j].tolist()), row(self.R[k, j].tolist())),
            b.crit, int(self.tried[k, j]), unknown=row(u) if u[0] or (not b.reg and any(u)) else None)

    def records(self, k):
        return [self.record(k, j) for j in np.flatnonzero(self.has[k]).tolist()]


class CARTBuilder:
    """Grows a CART tree (a binary criterion) level by level; see the module docstring."""

    def __init__(self, tree, X, y):
        self.t = tree
        X = np.asarray(X)
        self.y = np.asarray(y, dtype=np.int64)
        self.crit, self.p = tree.criterion, tree.params
        self.nc, self.m = len(tree.classes), len(tree.features)
        self.numeric = [k == "numeric" for k in tree.kinds]
        self.reg = self.crit.regression
        if len(self.y) >= _COUNT_LIMIT:  # the float bounds assume smaller counts
            raise Refused
        if self.reg:
            self.regression_targets()
        tree.missing_slot = bool(X.size and X.min() < 0)
        # int32 codes (as the Dataset's): a depth gathers them along every feature's order,
        # and half the bytes gather faster
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int32).reshape(self.m, len(self.y))
        self.nv = [len(d) for d in tree.domains]
        self.min_leaf = self.p.get("min_leaf", 1)
        self.w = None  # each row's multiplicity (run_many), or None: every row once
        self.considered = np.ones(self.m, bool)
        self.steps = [((j, 0), (j, 1)) for j in range(self.m)]  # a child's step, shared
        # Cuts' thresholds: the exact midpoint of two values, one normalisation (not two)
        self.midpoint = self.p.get("threshold") == "midpoint"
        self.has_missing = tree.missing_slot
        # Numeric values as int64 numerators and denominators, all features end to end, for
        # the features whose values are below 2^30 in both (their midpoints fit in int64).
        self.small_fractions = np.zeros(self.m, bool)
        self.fraction_offsets = np.zeros(self.m, np.int64)
        num, den, at = [], [], 0
        for j in range(self.m):
            vals = tree.numbers[j] if self.numeric[j] else None
            self.fraction_offsets[j] = at
            if not vals:
                continue
            nums, dens = [v.numerator for v in vals], [v.denominator for v in vals]
            if max(map(abs, nums)) < 1 << 30 and max(dens) < 1 << 30:
                self.small_fractions[j] = True
                num += nums
                den += dens
                at += len(vals)
        self.fraction_num, self.fraction_den = np.array(num, np.int64), np.array(den, np.int64)
        # A nominal value and the class in one code (-1: missing), and the nominal
        # features in groups of equal domain size: one bincount per group counts a set of
        # rows.  Per group, each row's cells in a node's block (feature, value, class; a
        # missing value has the slot after the values, if any is missing), row by row:
        # a set of rows is gathered in whole rows of cells.
        sizes = sorted({v for v, num in zip(self.nv, self.numeric) if not num})
        self.nominal_groups = [[j for j in range(self.m) if not self.numeric[j] and self.nv[j] == v] for v in sizes]
        self.group_of = {j: (g, f) for g, js in enumerate(self.nominal_groups) for f, j in enumerate(js)}
        self.cells = []
        for js in self.nominal_groups:
            V1 = self.nv[js[0]] + self.has_missing
            wide = len(js) * V1 * self.nc >= 1 << 31
            cells = np.array(X.reshape(len(self.y), self.m)[:, js], dtype=np.int64 if wide else np.int32, order="C")
            if self.has_missing:
                cells[cells < 0] = V1 - 1
            cells += np.arange(len(js)) * V1
            cells *= self.nc
            cells += self.y[:, None]
            self.cells.append(cells)

    def regression_targets(self):
        """Regression: the targets as integers (times D, the least common denominator of
        their exact values, less a middle one), so that a node's statistics (n, Σy, Σy²) are sums of int64 and
        a split's decrease SSE − SSE_L − SSE_R = (S_L·n_R − S_R·n_L)² / (n_L·n_R·n), with S
        the sums of y, is an exact integer over an integer: no cancellation.  Nominal
        features, or targets too large for int64 sums, go to the reference builder."""
        vals = self.t.values
        D = math.lcm(*(v.denominator for v in vals)) if vals else 1
        Y = [v.numerator * (D // v.denominator) for v in vals]
        # Shifted by a middle value (SSEs and decreases do not change; the statistics are
        # shifted back exactly): targets such as 10^9 + small differences stay small.
        self.shift = sorted(Y)[len(Y) // 2] if Y else 0
        Y = [v - self.shift for v in Y]
        top, n = max(map(abs, Y), default=0), max(len(self.y), 1)
        if not all(self.numeric) or top * top * n >= 1 << 62 or top * n * n >= 1 << 62:
            raise Refused
        self.D = D
        self.nc = 3                              # a node's "counts": n, Σy·D, Σy²·D²
        self.yv = np.array(Y, dtype=np.int64)[self.y] if Y else np.zeros(0, np.int64)
        self.yq = self.yv * self.yv
        # gathered along every feature's order at every depth: int32 (top² · n < 2^62, so
        # top < 2^31), half the bytes
        self.y_gather = self.yv.astype(np.int32)

    def exact_stats(self, row):
        """A node side's statistics (n, Σy, Σy²), exact, from the scaled integers."""
        n, S, Q = row
        c = self.shift
        return (n, Fraction(S + c * n, self.D), Fraction(Q + 2 * c * S + c * c * n, self.D * self.D))

    def stats(self, rows, sizes):
        """(n, S, Q) of consecutive groups of rows (sizes: each group's, all positive)."""
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        return np.stack([np.asarray(sizes, np.int64), np.add.reduceat(self.yv[rows], starts),
                         np.add.reduceat(self.yq[rows], starts)], axis=1)

    def node_counts(self, stats):
        return np.array(self.exact_stats(stats), dtype=object)

    # -- the level loop --
    def run(self, rows=None, path=(), weights=None):
        if weights is not None:
            raise ValueError("the fast CART builder takes no sample weights")  # build_tree never asks
        rows = np.arange(len(self.y), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        self.run_many([(self.t, rows)], path)

    def run_many(self, roots, path=(), multiplicity=None):
        """Grow one tree per (tree, rows) root, all of them together, level by level: a
        depth's open nodes of every tree are one batch, so numpy's per-call cost is paid
        once per depth, not once per depth and tree (a forest's trees are small).  The
        roots' rows are disjoint; every tree shares this builder's features, domains and
        numbers, and has a draw (Tree.draw) if any has.  ``multiplicity``: how many times
        each row counts (a bootstrap sample's repeated rows as one row each: a third fewer
        rows to sort and partition); classification without surrogates only."""
        if multiplicity is not None:
            if self.reg or self.p.get("surrogates", 5):
                raise ValueError("rows count once each in regression and with surrogates")
            self.w = np.asarray(multiplicity, dtype=np.int64)
            if self.w.sum() < 1 << 31:  # every cumulative count fits: int32 sums run several times faster
                self.w = self.w.astype(np.int32)
        nodes, parts = [], []
        for tree, rows in roots:
            root = self.plant(tree, rows, path)
            if root.stop is None:
                nodes.append(root)
                parts.append(rows)
        if not nodes:
            return
        self.drawn = nodes[0].tree.draw is not None
        if any((node.tree.draw is not None) != self.drawn for node in nodes):
            raise ValueError("the trees grown together either all have a feature draw or none has")
        rows = np.concatenate(parts)
        sizes = np.array([len(r) for r in parts])
        seg = np.repeat(np.arange(len(parts), dtype=np.int64), sizes) if len(parts) > 1 else 0
        # Each numeric column sorted once per root (stable: rows of equal value keep row
        # order), its missing values last; every later depth only partitions these arrays.
        # A forest's nodes (without surrogates, which read every feature) sort instead only
        # what they drew, depth by depth (drawn_order).
        ords = None if self.drawn and not self.p.get("surrogates", 5) else {}
        for j in range(self.m if ords is not None else 0):
            if self.numeric[j]:
                x = self.Xt[j, rows]
                key = np.where(x < 0, self.nv[j], x) + seg * (self.nv[j] + 1)
                if len(parts) * (self.nv[j] + 1) <= _KEY16:
                    key = key.astype(np.uint16)
                ords[j] = rows[np.argsort(key, kind="stable")]
        self.tables = [None] * len(self.nominal_groups)  # the roots' counted in subset_cuts
        # The cyclic collector paused while the trees grow: it would traverse every node
        # made so far, again and again (a sixth of a 200,000-node fit); the nodes' parent
        # links are cycles it collects later as usual.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while nodes:
                nodes, rows, ords, sizes = self.level(nodes, rows, ords, sizes)
        finally:
            if collecting:
                gc.enable()

    def plant(self, tree, rows, path):
        """The root of ``tree`` on ``rows``; a leaf already when they are pure."""
        if self.reg:
            root = Node(tree, tuple(path), len(path), self.node_counts(self.stats(rows, [len(rows)])[0].tolist()))
            if len(rows) == 0 or self.yv[rows].min() == self.yv[rows].max():
                root.stop = "pure"
        else:
            root = Node(tree, tuple(path), len(path), self.count(self.y[rows], self.nc, rows))
            counts = root.class_counts.tolist()
            root.label = counts.index(max(counts))
            if sum(1 for c in counts if c) <= 1:
                root.stop = "pure"
        if tree is not self.t:  # its own data's flag, as a builder of its rows alone would set it
            tree.missing_slot = bool(len(rows) and self.Xt[:, rows].min() < 0)
        tree.root = root
        return root

    def level(self, nodes, rows, ords, sizes):
        """Decide one depth's open nodes (rows: theirs, node by node); the next depth's."""
        p, nc = self.p, self.nc
        K = len(nodes)
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        nid = np.repeat(np.arange(K), sizes)
        CC = self.stats(rows, sizes) if self.reg else self.count(nid * nc + self.y[rows], K * nc, rows).reshape(K, nc)
        lv = _Level(self, K, self.m, nc)
        self.sorted_values, self.between = {}, {}
        # Per node and feature: the best split's improvement, in floats with a bound.
        imp = np.full((K, self.m), -np.inf)
        bnd = np.zeros((K, self.m))
        # A forest's node sees its drawn features only (Tree.draw): its candidates, as in the reference.
        drawn = draws(nodes) if self.drawn else None
        for j in range(self.m):
            if not self.numeric[j]:
                continue
            if ords is None:  # the rows of the nodes that drew feature j, sorted now
                order, v, nid_j, starts_j = self.drawn_order(j, rows, nid, K, drawn[:, j])
                self.numeric_cuts(j, order, nid_j, starts_j, K, CC, lv, imp, bnd, v)
            else:
                self.numeric_cuts(j, ords[j], nid, starts, K, CC, lv, imp, bnd)
        for g in range(len(self.nominal_groups)):
            self.subset_cuts(g, rows, nid, K, CC, lv, imp, bnd)
        if drawn is not None:
            lv.has &= drawn
        considered = self.considered
        for k, node in enumerate(nodes):
            node._considered = considered
            node._records = (lv, k)
        depth = nodes[0].depth
        if p["max_depth"] is not None and depth >= p["max_depth"]:
            for node in nodes:
                node.stop = "max_depth"
            return [], None, None, None
        small = (sizes if self.w is None else CC.sum(axis=1)) < p["min_samples_split"]
        offered = lv.has
        # Positive improvements only; the best per node, first feature on an exact tie.
        has = offered.copy()
        has[small] = False
        unsure = has & (imp - bnd <= 0)
        if unsure.any():
            ks, js = np.nonzero(unsure)
            has[ks, js] = self.positive(lv, ks, js)
        ks, js = np.nonzero(has)  # row-major: node by node, features in column order
        groups, win, eq = _first_best(ks, imp[ks, js], bnd[ks, js],
                                      lambda items: self.exact_improvements(lv, ks[items], js[items]))
        chosen = np.full(K, -1, np.int64)
        chosen[groups] = js[win]
        # Each node's features tied exactly with its chosen one, as a run of tk.
        tie = np.flatnonzero(eq & (js != chosen[ks]))
        tk, tj = ks[tie], js[tie].tolist()
        at = _seg_starts(tk)
        ties = {k: tuple(tj[a:b]) for k, a, b in zip(tk[at].tolist(), at.tolist(), np.r_[at[1:], len(tk)].tolist())}
        # The stops the floats and counts decide, set on those nodes only.
        stops = np.where(small, 0, np.where(chosen >= 0, -1, np.where(offered.any(axis=1), 1, 2)))
        reasons = ("min_samples_split", "no_decrease", "no_split")
        for k, code in zip(np.flatnonzero(stops >= 0).tolist(), stops[stops >= 0].tolist()):
            nodes[k].stop = reasons[code]
        split = np.flatnonzero(stops < 0).tolist()
        if p["stop_at_zero_gain"] or p["min_gain"] is not None:
            kept = []
            for k in split:  # the reference's extra stops, on the chosen record
                node, j = nodes[k], int(chosen[k])
                best = lv.record(k, j)
                if p["stop_at_zero_gain"] and is_independent(best.table):
                    node.stop = "zero_gain"
                elif p["min_gain"] is not None and best.gain < p["min_gain"]:
                    node.stop = "min_gain"
                else:
                    kept.append(k)
            split = kept
        if not split:
            return [], None, None, None
        for k, test in zip(split, lv.splits(split, chosen[split])):
            node = nodes[k]
            node.test = test
            if k in ties:
                node.ties = ties[k]
        return self.partition(nodes, split, chosen, lv, rows, ords, nid, starts, sizes)

    def drawn_order(self, j, rows, nid, K, want):
        """The rows of the nodes that drew numeric feature j (``want``: per node), node by
        node, each node's sorted by value (stable; missing last); their values, the node
        ids of that array and each node's start in it.  A forest's node draws a few features, so
        sorting those rows at each depth costs less than keeping every feature's rows
        sorted through every partition."""
        sel = np.flatnonzero(want[nid])
        r, k = rows[sel], nid[sel]
        x = self.Xt[j].take(r)
        top = self.nv[j]
        o = np.argsort(k * (top + 1) + (np.where(x < 0, top, x) if self.has_missing else x), kind="stable")
        k = k[o]
        return r[o], x[o], k, np.searchsorted(k, np.arange(K))

    def count(self, idx, size, rows=None, weights=None):
        """np.bincount(idx) of the listed rows (or of the given weights), each counted as
        many times as it stands for (run_many's multiplicities)."""
        if weights is None and (self.w is None or rows is None):
            return np.bincount(idx, minlength=size).astype(np.int64, copy=False)
        w = self.w.take(rows) if weights is None else weights
        return np.bincount(idx, weights=w, minlength=size).astype(np.int64)  # exact: sums below 2^53

    # -- candidates --
    def _floats(self, counts):
        """n·I in floats of an integer count matrix (rows × classes)."""
        f = counts.astype(np.float64)
        return self.crit.n_impurity_floats([f[:, c] for c in range(self.nc)])

    def _improvements(self, P, L, R):
        """Float improvements of cuts (parent, left, right counts: G × classes) and bounds."""
        return (self._floats(P) - self._floats(L) - self._floats(R),
                self.crit.improvement_error(P.sum(axis=1).astype(np.float64), self.nc))

    def _exact(self, P, L, R):
        """Exact improvements n·I(P) − n·I(L) − n·I(R) of the listed cuts: (numerators,
        denominators) of Python ints, or a list of exact values (entropy)."""
        ratio = self.crit.n_impurity_ratio
        p = ratio(P)
        if p is not None:
            (a, b), (c, d), (e, f) = p, ratio(L), ratio(R)
            return a * d * f - c * b * f - e * b * d, b * d * f
        ex = self.crit.n_impurity_exact
        return [p - l - r for p, l, r in zip(ex(map(tuple, P.tolist())), ex(map(tuple, L.tolist())),
                                             ex(map(tuple, R.tolist())))]

    def exact_improvements(self, lv, ks, js):
        L, R = lv.L[ks, js], lv.R[ks, js]
        if self.reg:  # the decreases d² / (n_L·n_R·n), their common scale D² left out
            return _decreases(L[:, 1], L[:, 0], R[:, 1], R[:, 0])
        return self._exact(L + R, L, R)

    def positive(self, lv, ks, js):
        """Whether the listed best splits decrease the impurity, exactly.  Gini and entropy
        are strictly concave: they decrease unless both sides have the same class
        proportions, an integer test."""
        L, R = lv.L[ks, js], lv.R[ks, js]
        if self.reg:  # d ≠ 0: the sides' means differ
            return L[:, 1] * R[:, 0] != R[:, 1] * L[:, 0]
        if isinstance(self.crit, _CONCAVE):
            nL, nR = L.sum(axis=1), R.sum(axis=1)
            return (L * nR[:, None] != R * nL[:, None]).any(axis=1)
        ex = self._exact(L + R, L, R)
        return np.array([x > 0 for x in (ex[0] if isinstance(ex, tuple) else ex)], bool)

    def cuttable(self, j, v, nid):
        """Where a cut may fall along a depth's array sorted by feature j (v: its value
        codes): between two different known values of one node; the positions (the last
        row below each cut), their nodes and where each node's cuts start.  Kept for the
        depth's surrogates."""
        between = (v[:-1] != v[1:]) & (nid[:-1] == nid[1:])  # two values of one node
        if self.has_missing:
            between &= v[1:] >= 0
        cut = np.flatnonzero(between)
        k_of = nid[cut]
        self.between[j] = cut, k_of, _seg_starts(k_of)
        return self.between[j]

    def numeric_cuts(self, j, order, nid, starts, K, CC, lv, imp, bnd, v=None):
        """Every node's best cut of numeric feature j, from its rows sorted by value (v:
        their values, when known)."""
        nc, ml = self.nc, self.min_leaf
        if v is None:
            v = self.Xt[j].take(order)
        self.sorted_values[j] = v   # kept for this depth's surrogates
        if self.reg:
            return self.numeric_cuts_regression(j, order, v, nid, starts, K, CC, lv, imp, bnd)
        yo = self.y.take(order)
        wo = None if self.w is None else self.w.take(order)
        cut, k_of, first = self.cuttable(j, v, nid)
        if self.has_missing:
            known = v >= 0
        nz = starts > 0
        # Cumulative class counts (the last class is the rest).  A bool array is summed as
        # int8 into int32: numpy's cumsum of bool (or of floats) is ten times slower.
        if wo is None:
            cums = [_cumcount(yo == c) for c in range(nc - 1)]
        else:
            cums = [np.cumsum(wo * (yo == c), dtype=wo.dtype) for c in range(nc - 1)]
            cw = np.cumsum(wo, dtype=wo.dtype)
            w_before = np.zeros(K, np.int64)
            w_before[nz] = cw[starts[nz] - 1]
        before = np.zeros((nc - 1, K), np.int64)
        for c in range(nc - 1):
            before[c, nz] = cums[c][starts[nz] - 1]
        if self.has_missing:
            k_rows = np.bincount(nid[known], minlength=K)  # a node's known rows lead its segment
            kn = k_rows if wo is None else self.count(nid[known], K, weights=wo[known])
            P = np.zeros((K, nc), np.int64)
            some = k_rows > 0
            for c in range(nc - 1):
                P[some, c] = cums[c][starts[some] + k_rows[some] - 1] - before[c, some]
            P[:, nc - 1] = kn - P[:, :nc - 1].sum(axis=1)
            lv.U[:, j] = CC - P
        else:
            kn, P = CC.sum(axis=1), CC
        n_left = cut + 1 - starts[k_of] if wo is None else cw[cut] - w_before[k_of]
        if ml > 1:  # else every cut between known rows leaves one on each side
            ok = (n_left >= ml) & (kn[k_of] - n_left >= ml)
            cut, k_of, n_left = cut[ok], k_of[ok], n_left[ok]
            first = _seg_starts(k_of)
        if not len(cut):
            return
        Pf = P.astype(np.float64)
        Lf = [(cums[c][cut] - before[c][k_of]).astype(np.float64) for c in range(nc - 1)]
        last = n_left.astype(np.float64)
        for x in Lf:
            last -= x
        Lf.append(last)
        Rf = [Pf[:, c][k_of] - Lf[c] for c in range(nc)]
        Lc = Lf
        f = self.crit.n_impurity_floats
        knf = kn.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):  # nodes without a known value have no cut
            vp = f([Pf[:, c] for c in range(nc)], knf)
        nlf = n_left.astype(np.float64)
        val = vp[k_of] - f(Lf, nlf) - f(Rf, knf[k_of] - nlf)
        b = self.crit.improvement_error(knf, nc)[k_of]

        def exact(items):
            L = np.stack([x[items] for x in Lc], axis=1).astype(np.int64)
            Pk = P[k_of[items]]
            return self._exact(Pk, L, Pk - L)

        groups, win, _ = _first_best(k_of, val, b, exact, first)
        lv.has[groups, j] = True
        lv.tried[groups, j] = np.diff(first, append=len(cut))
        L = np.stack([x[win] for x in Lc], axis=1).astype(np.int64)
        lv.L[groups, j], lv.R[groups, j] = L, P[groups] - L
        at = cut[win]
        lv.lo[groups, j], lv.hi[groups, j] = v[at], v[at + 1]
        imp[groups, j], bnd[groups, j] = val[win], b[win]

    def numeric_cuts_regression(self, j, order, v, nid, starts, K, CC, lv, imp, bnd):
        """numeric_cuts for regression: decrease = d² / (n_L·n_R·n), d = S_L·n_R − S_R·n_L
        an exact integer; in floats only a few roundings from the exact value."""
        ml = self.min_leaf
        cut, k_of, first = self.cuttable(j, v, nid)
        if self.has_missing:
            known = v >= 0
            kn = np.bincount(nid[known], minlength=K)
        else:
            kn = CC[:, 0]
        yo = self.y_gather.take(order)
        cumS, cumQ = np.cumsum(yo, dtype=np.int64), np.cumsum(np.square(yo, dtype=np.int64))
        nz = starts > 0
        bS, bQ = np.zeros(K, np.int64), np.zeros(K, np.int64)
        bS[nz], bQ[nz] = cumS[starts[nz] - 1], cumQ[starts[nz] - 1]
        if self.has_missing:
            P = np.zeros((K, 3), np.int64)
            some = kn > 0
            last = starts[some] + kn[some] - 1
            P[:, 0] = kn
            P[some, 1], P[some, 2] = cumS[last] - bS[some], cumQ[last] - bQ[some]
            lv.U[:, j] = CC - P
        else:
            P = CC
        n_left = cut + 1 - starts[k_of]
        if ml > 1:
            ok = (n_left >= ml) & (kn[k_of] - n_left >= ml)
            cut, k_of, n_left = cut[ok], k_of[ok], n_left[ok]
            first = _seg_starts(k_of)
        if not len(cut):
            return
        SL = cumS[cut] - bS[k_of]
        SR = P[:, 1].take(k_of) - SL
        nP = kn.take(k_of)
        n_right = nP - n_left
        d = SL * n_right - SR * n_left
        df = d.astype(np.float64)
        val = df * df / (n_left.astype(np.float64) * n_right * nP)
        b = 2.0 ** -48 * val     # d is exact; a square, a product and a division round

        def exact(items):
            return _decreases(SL[items], n_left[items], SR[items], n_right[items])

        groups, win, _ = _first_best(k_of, val, b, exact, first)
        lv.has[groups, j] = True
        lv.tried[groups, j] = np.diff(first, append=len(cut))
        at = cut[win]
        # column by column: numpy assigns a block of rows into (K, m, 3) far slower
        for c, x in enumerate((n_left[win], SL[win], cumQ[at] - bQ[groups])):
            lv.L[groups, j, c] = x
            lv.R[groups, j, c] = P[groups, c] - x
        lv.lo[groups, j], lv.hi[groups, j] = v[at], v[at + 1]
        imp[groups, j], bnd[groups, j] = val[win], b[win]

    def subset_cuts(self, g, rows, nid, K, CC, lv, imp, bnd):
        """Every node's best subset split of the g-th group of nominal features (all with
        V values)."""
        js = self.nominal_groups[g]
        nc, V, ml, F = self.nc, self.nv[js[0]], self.min_leaf, len(js)
        T = self.tables[g]   # derived by the parents' partition, or counted here (the root)
        if T is None:
            T = self.tables[g] = self.nominal_count(g, rows, nid, K)
        T = T[:, :, :V]
        if self.has_missing:
            P = _short_sum(T, 2)                            # K × F × classes: the known rows
            lv.U[:, js] = CC[:, None, :] - P
        else:
            P = np.broadcast_to(CC[:, None, :], (K, F, nc))
        n_v = _short_sum(T, 3)
        present = n_v > 0
        k_present = _short_sum(present.view(np.int8), 2)
        live = k_present >= 2
        if not live.any():
            return
        if V > _MASK_VALUES:
            for f, j in enumerate(js):
                self.subsets_one_by_one(j, T[:, f], np.flatnonzero(live[:, f]), lv, imp, bnd)
            return
        pmask = _short_sum(present * np.left_shift(1, np.arange(V)), 2)[:, :, None]   # K × F × 1
        if nc == 2:
            # Breiman: values by their exact share of the first class (equal shares keep
            # value order); the k − 1 prefixes of that order.
            with np.errstate(divide="ignore", invalid="ignore"):
                share = np.where(present, T[..., 0] / np.where(present, n_v, 1), np.inf)
            order = np.argsort(share, axis=2, kind="stable")
            sortedT = np.take_along_axis(T, order[..., None], axis=2)
            prefix = np.cumsum(sortedT, axis=2)[:, :, :-1]              # K × F × (V−1) × classes
            bits = np.cumsum(np.left_shift(1, order), axis=2)[:, :, :-1]  # the prefixes' value masks
            valid = np.arange(1, V) <= (k_present - 1)[..., None]
            lowest = np.left_shift(1, np.argmax(present, axis=2))[..., None]
            flip = (bits & lowest) == 0        # the side written is the one with the first present value
            Lm = np.where(flip[..., None], P[:, :, None, :] - prefix, prefix)
            written = np.where(flip, pmask & ~bits, bits)

            def masks(ks, fs, cs):
                return written[ks, fs, cs]
        else:
            if ((1 << (k_present[live] - 1)) - 1 > self.p.get("max_subsets", 1 << 15)).any():
                raise Refused
            # The present values first, in value order: the reference's subsets (those
            # holding the lowest present value, all but the whole, by mask) are the odd masks
            # below 2^k − 1 over these k positions, in the same order (an order-keeping map
            # of bits keeps the order of masks): a prefix of one list for every node.
            Tc = T
            gaps = live & (pmask[..., 0] != (1 << k_present) - 1)   # an absent value below a present one
            if gaps.any():
                gk, gf = np.nonzero(gaps)
                order = np.argsort(~present[gk, gf], axis=1, kind="stable")
                Tc = T.copy()
                Tc[gk, gf] = np.take_along_axis(T[gk, gf], order[..., None], axis=1)
            M = list(range(1, (1 << V) - 2, 2))
            Lm = np.empty((len(M), K, F, nc), np.int64)   # mask first: each one a contiguous block
            Lm[0] = Tc[:, :, 0]
            for i, m in enumerate(M[1:], 1):   # the mask without its top position, plus that one
                top = m.bit_length() - 1
                np.add(Lm[M.index(m ^ 1 << top)], Tc[:, :, top], out=Lm[i])
            Lm = Lm.transpose(1, 2, 0, 3)
            valid = np.arange(len(M)) < ((1 << k_present) >> 1)[..., None] - 1
            M = np.array(M)

            def masks(ks, fs, cs):  # the subsets' value codes as bits: position i is the i-th present value
                m, rest, out = M[cs], pmask[ks, fs, 0], 0
                for i in range(V):
                    low = rest & -rest
                    out |= np.where(m >> i & 1, low, 0)
                    rest ^= low
                return out
        if ml > 1:
            nL = _short_sum(Lm, 3)
            valid = valid & (nL >= ml) & (_short_sum(P, 2)[..., None] - nL >= ml)
        valid &= live[..., None]
        ks, fs, cs = np.nonzero(valid)
        if not len(ks):
            return
        L = Lm[ks, fs, cs]
        Pi = P[ks, fs]
        R = Pi - L
        val, b = self._improvements(Pi, L, R)
        groups, win, _ = _first_best(ks * F + fs, val, b, lambda items: self._exact(Pi[items], L[items], R[items]))
        gk, gf = np.divmod(groups, F)
        at = gk * self.m + np.asarray(js)[gf]   # (node, feature) cells, flat
        lv.has.ravel()[at] = True
        lv.tried[:, js] = np.bincount(ks * F + fs, minlength=K * F).reshape(K, F)
        lv.L.reshape(-1, nc)[at], lv.R.reshape(-1, nc)[at] = L[win], R[win]
        imp.ravel()[at], bnd.ravel()[at] = val[win], b[win]
        lv.mask.ravel()[at] = masks(ks[win], fs[win], cs[win])

    def subsets_one_by_one(self, j, T, live, lv, imp, bnd):
        """A wide nominal feature: the reference's splitter at each node."""
        crit = self.crit
        for k in live.tolist():
            try:
                found = best_subset(tuple(map(tuple, T[k].tolist())), self.min_leaf, crit.cut_key,
                                    self.p.get("max_subsets", 1 << 15), order=crit.subset_order,
                                    floats=getattr(crit, "cut_floats", None))
            except InfotreeError:
                raise Refused from None
            if found is None:
                continue
            left, (l, r), tried = found
            lv.has[k, j] = True
            if len(self.t.domains[j]) > _BITS:
                lv.wide[k, j] = frozenset(left)
            else:
                lv.mask[k, j] = sum(1 << i for i in left)
            lv.L[k, j], lv.R[k, j], lv.tried[k, j] = l, r, tried
            L, R = np.array([l]), np.array([r])
            val, b = self._improvements(L + R, L, R)
            imp[k, j], bnd[k, j] = val[0], b[0]

    # -- partition and surrogates --
    def partition(self, nodes, split, chosen, lv, rows, ords, nid, starts, sizes):
        """The split nodes' children, their surrogates, and the next depth's rows."""
        p, nc, y = self.p, self.nc, self.y
        K = len(nodes)
        is_split = np.zeros(K, bool)
        is_split[split] = True
        f_of = chosen.copy()
        f_of[~is_split] = 0
        # The primary's direction of each row (-1: its value is missing), by node row order.
        fr = f_of[nid]
        x = self.Xt.ravel().take(fr * self.Xt.shape[1] + rows)  # one 1-d gather, faster than Xt[fr, rows]
        lo = lv.lo[np.arange(K), f_of][nid]
        d = np.full(len(rows), -1, np.int64)
        num = np.array(self.numeric, bool)[fr]
        kn = x >= 0
        d[kn & num] = (x[kn & num] > lo[kn & num])
        nom = kn & ~num
        if nom.any():
            narrow = nom & (np.array(self.nv)[fr] <= _BITS)
            d[narrow] = 1 - ((lv.mask[nid[narrow], fr[narrow]] >> x[narrow]) & 1)
            for i in np.flatnonzero(nom & ~narrow).tolist():
                d[i] = 0 if x[i] in lv.wide[nid[i], fr[i]] else 1
        d[~is_split[nid]] = -1
        dir_row = np.full(len(self.y), -1, np.int64)  # by row number, for the sorted arrays
        dir_row[rows] = d
        sides = self.side_tables(split, chosen, lv, rows, nid, d)
        most = p.get("surrogates", 5)
        if most > 0:
            self.surrogates(nodes, split, chosen, lv, rows, ords, nid, starts, sizes, d, dir_row, most, sides)
        # Rows whose primary value is missing: by the surrogates (rpart's usesurrogate).
        miss = np.flatnonzero(is_split[nid] & (d < 0))
        if len(miss):
            use = p.get("use_surrogate", 2)
            routed = {}
            for i, r, k in zip(miss.tolist(), rows[miss].tolist(), nid[miss].tolist()):
                node = nodes[k]

                def value_of(j, r=r):
                    c = int(self.Xt[j, r])
                    return None if c < 0 else self.t.numbers[j][c] if self.numeric[j] else c

                dd, by = SURROGATES.route(node, value_of, use)
                if dd is not None:
                    dir_row[r] = dd
                    if by is not None:
                        routed.setdefault(k, [0] * len(node.surrogates))[by] += 1
            for k, counts in routed.items():
                node = nodes[k]
                node.surrogates = tuple(replace(s, routed=c) for s, c in zip(node.surrogates, counts))
        # Children: 2s (left) and 2s + 1 (right) of the s-th split node.
        slot = np.full(K, -1, np.int64)
        slot[split] = np.arange(len(split))
        d_now = dir_row[rows]
        go = is_split[nid] & (d_now >= 0)
        child = np.where(go, 2 * slot[nid] + d_now, -1)
        S2 = 2 * len(split)
        kept = child >= 0
        if self.reg:  # each child's statistics, summed along its parent's segment (no sort)
            yr, yq = self.yv.take(rows), self.yq.take(rows)
            block = np.empty((S2, 3), np.int64)
            for side in (0, 1):
                on = go & (d_now == side)
                block[side::2, 0] = np.add.reduceat(on.view(np.int8), starts, dtype=np.int64)[split]
                block[side::2, 1] = np.add.reduceat(np.where(on, yr, 0), starts)[split]
                block[side::2, 2] = np.add.reduceat(np.where(on, yq, 0), starts)[split]
            ns, S, Q = block[:, 0], block[:, 1], block[:, 2]
            # Pure (one value of y): S = n·c and Q = n·c² for an integer c, as then Σ(y − c)² = 0.
            n1 = np.maximum(ns, 1)
            c = S // n1
            pure = ((S == c * n1) & (Q == n1 * c * c)).tolist()
            labels = [0] * S2
            stats = _Stats(self, block)
        else:
            block = self.count(child[kept] * nc + y[rows[kept]], S2 * nc, rows[kept]).reshape(S2, nc)
            labels = block.argmax(axis=1).tolist()
            ns = block.sum(axis=1)
            pure = ((block > 0).sum(axis=1) <= 1).tolist()
        n_l = ns.tolist()
        remap = np.full(S2, -1, np.int64)
        open_next = []
        counts = stats if self.reg else block
        depth = nodes[0].depth + 1
        steps = self.steps
        c = 0
        for k, j in zip(split, chosen[split].tolist()):
            node = nodes[k]
            kids = []
            for step in steps[j]:
                kid = Node(node.tree, None, depth, counts, parent=node)
                kid._ci = c
                kid._n = n_l[c]
                kid.step = step
                if not n_l[c]:
                    kid.stop, kid.label = "empty", node.label
                else:
                    kid.label = labels[c]
                    if pure[c]:
                        kid.stop = "pure"
                    else:
                        remap[c] = len(open_next)
                        open_next.append(kid)
                kids.append(kid)
                c += 1
            node.children = kids
        if not open_next:
            return [], None, None, None
        child_of = np.where(kept, remap[np.maximum(child, 0)], -1)  # each row's open child, in rows' order
        self.tables = self.child_tables(sides, rows, child, d, remap)
        # The rows of no open child last (the dtype's largest value): a stable sort groups an
        # array by next node and the rows of none are cut off (cheaper than dropping them first).
        dtype = np.uint16 if len(open_next) < _KEY16 - 1 else np.int64
        none = np.iinfo(dtype).max
        key = np.where(child_of >= 0, child_of, none).astype(dtype)
        n_next = int(np.count_nonzero(child_of >= 0))

        def regroup(order, c):
            return order[np.argsort(c, kind="stable")[:n_next]]

        rows_next = regroup(rows, key)
        ords_next = None
        if ords is not None:
            new_id = np.full(len(self.y), none, dtype)
            new_id[rows] = key
            ords_next = {j: regroup(o, new_id.take(o)) for j, o in ords.items()}
        sizes_next = np.bincount(child_of[child_of >= 0], minlength=len(open_next))
        return open_next, rows_next, ords_next, sizes_next

    def nominal_count(self, g, rows, at, K):
        """The g-th nominal group's counts of the rows into K tables (at: each row's table),
        one bincount (each row counted as many times as it stands for): K × features ×
        values (and missing, if any row has it) × classes."""
        js = self.nominal_groups[g]
        F, V1, nc = len(js), self.nv[js[0]] + self.has_missing, self.nc
        block = F * V1 * nc
        cells = self.cells[g].take(rows, axis=0)
        if cells.dtype != np.int64 and K * block >= 1 << 31:
            cells = cells.astype(np.int64)
        cells += (at * block).astype(cells.dtype)[:, None]
        w = None if self.w is None else np.repeat(self.w.take(rows), F)   # run_many's multiplicities
        return self.count(cells.ravel(), K * block, weights=w).reshape(K, F, V1, nc)

    def side_tables(self, split, chosen, lv, rows, nid, d):
        """Per nominal group, each split node's tables of its rows by the primary's direction
        d (S × 2 × features × values (and missing) × classes; rows without a direction in
        neither).  Histogram subtraction: the smaller side is counted, the other is its
        node's table less it and less the rows without a direction."""
        if not self.nominal_groups:
            return []
        K, S = len(self.tables[0]), len(split)
        slot = np.full(K, -1, np.int64)
        slot[split] = np.arange(S)
        small = np.full(K, -2, np.int64)   # the side counted; -2 (no direction has it) off split nodes
        js = chosen[split]                 # the chosen cut's sides are the rows with a direction
        small[split] = lv.R[split, js].sum(axis=1) < lv.L[split, js].sum(axis=1)
        counted = np.flatnonzero(d == small[nid])
        lost = np.flatnonzero((d < 0) & (slot[nid] >= 0))
        at, s, side = slot[nid[counted]], np.arange(S), small[split]
        out = []
        for g, T in enumerate(self.tables):
            A = self.nominal_count(g, rows[counted], at, S)
            B = T.take(split, axis=0)
            B -= A
            if len(lost):
                B -= self.nominal_count(g, rows[lost], slot[nid[lost]], S)
            D = np.empty((S, 2) + A.shape[1:], np.int64)
            D[s, side], D[s, 1 - side] = A, B
            out.append(D)
        self.tables = [None] * len(out)   # this depth's are spent: freed before the children's are made
        return out

    def child_tables(self, sides, rows, child, d, remap):
        """The next depth's nominal tables: each open child's side table (child 2s + side of
        the s-th split node, as in partition), plus the rows without the primary's direction
        that the surrogates sent it."""
        at = np.flatnonzero(remap >= 0)    # the open children, in the next depth's order
        routed = np.flatnonzero((child >= 0) & (d < 0))
        out = []
        for g, D in enumerate(sides):
            C = D.reshape((-1,) + D.shape[2:])
            if len(routed):
                C = C + self.nominal_count(g, rows[routed], child[routed], len(C))
            out.append(C[at])
        return out

    def surrogates(self, nodes, split, chosen, lv, rows, ords, nid, starts, sizes, d, dir_row, most, sides):
        """Every split node's surrogates (rpart's choose_surg, as infotree.surrogates), in bulk."""
        K = len(nodes)
        style = self.p.get("surrogate_style", 0)
        is_split = np.zeros(K, bool)
        is_split[split] = True
        # rpart's orientation: its left is the side of smaller mean class index (equal: the
        # high side of a cut, a subset's own side).
        ks = np.array(split)
        js = chosen[ks]
        L, R = lv.L[ks, js], lv.R[ks, js]
        if self.reg:  # the sides' means, Σy / n
            sL, sR, nL, nR = L[:, 1], R[:, 1], L[:, 0], R[:, 0]
        else:         # the sides' mean class index, Σ c·n_c / n
            ci = np.arange(self.nc)
            sL, sR = L @ ci, R @ ci
            nL, nR = L.sum(axis=1), R.sum(axis=1)
        a, b = sL * nR, sR * nL
        is_num = np.array(self.numeric, bool)[js]
        flip_s = (b < a) | ((a == b) & is_num)
        flip = np.zeros(K, bool)
        flip[ks] = flip_s
        # Majority of the primary's directions (infotree's orientation), per node: the
        # chosen cut's sides.
        d0, d1 = np.zeros((2, K), np.int64)
        d0[ks], d1[ks] = nL, nR
        n0 = d0 + d1
        maj0 = np.maximum(d0, d1)
        # Directions in rpart's orientation, by row number.
        fdir = np.full(len(self.y), -1, np.int64)
        fdir[rows] = np.where(d >= 0, d ^ flip[nid].astype(np.int64), -1)
        sv = _Surrogates(self, K, flip)
        sv.slot[ks] = np.arange(len(ks))
        for j in range(self.m):
            if self.numeric[j]:
                self.numeric_surrogates(j, ords[j], nid, starts, fdir, is_split & (chosen != j), sv)
        other = js[:, None] != np.arange(self.m)   # split nodes × features: all but the primary
        for g, group in enumerate(self.nominal_groups):
            self.nominal_surrogates(g, sides[g], ks, flip_s, other[:, group], sv)
        # Ranked by agreement (agree/n: fractions of denominators below 2^26 order exactly
        # as floats), ties in column order; adj > 0 means agree > majority.
        if style == 0:
            n, majority = np.repeat(n0[:, None], self.m, axis=1), np.repeat(maj0[:, None], self.m, axis=1)
        else:
            n, majority = sv.both, sv.most
        ok = sv.found & (n != majority) & (sv.agree > majority)
        kk, jj = np.nonzero(ok)
        ratio = sv.agree[kk, jj] / n[kk, jj]
        order = np.lexsort((jj, -ratio, kk))
        kk, jj = kk[order], jj[order]
        first = _seg_starts(kk)
        rank = np.arange(len(kk)) - np.repeat(first, np.diff(first, append=len(kk)))
        top = rank < most
        sv.n, sv.majority = n, majority
        kk, sv.ranked = kk[top], jj[top].tolist()      # a node's surrogates: a run of ranked
        sv.first = np.searchsorted(kk, np.arange(K + 1)).tolist()
        first, records = sv.first, sv.records
        side = np.where(d0 > d1, 0, 1).tolist()   # the primary's majority direction
        tied = (d0 == d1).tolist()
        for k in split:
            node = nodes[k]
            node.majority = None if tied[k] else side[k]
            node._surrogates = partial(records, k) if first[k + 1] > first[k] else ()  # made when read

    def numeric_surrogates(self, j, order, nid, starts, fdir, want, sv):
        """Each wanted node's best surrogate cut on numeric feature j (into ``sv``): the
        lowest cut of most directed rows sent the primary's way, either side left."""
        v = self.sorted_values[j]
        dd = fdir.take(order)
        left, right = dd == 0, dd == 1
        if self.has_missing:  # only rows with a known value count
            known = v >= 0
            left &= known
            right &= known
        c0, c1 = _cumcount(left), _cumcount(right)
        before0 = np.where(starts > 0, c0[np.maximum(starts - 1, 0)], 0)
        before1 = np.where(starts > 0, c1[np.maximum(starts - 1, 0)], 0)
        ends = np.append(starts[1:], len(order)) - 1
        T0, T1 = c0[ends] - before0, c1[ends] - before1
        sv.both[:, j], sv.most[:, j] = T0 + T1, np.maximum(T0, T1)
        cut, k_of, starts_c = self.between[j]
        if not len(cut):
            return
        lr, rr = c0[cut] - before0[k_of], c1[cut] - before1[k_of]
        ll, rl = T0[k_of] - lr, T1[k_of] - rr
        A, B = ll + rr, lr + rl
        # Per node, the first cut of most agreement (each side with two directed rows):
        # one maximum of agreement · 2^26 + (2^26 − 1 − position), positions below 2^26.
        ok = (lr + rr >= 2) & (ll + rl >= 2) & want[k_of]
        key = np.where(ok, (np.maximum(A, B).astype(np.int64) << 26) | (_POSITIONS - np.arange(len(cut))), -1)
        top = np.maximum.reduceat(key, starts_c)
        ks = k_of[starts_c]
        best = top >> 26
        good = (top >= 0) & (best > sv.most[ks, j])   # it must beat going with the majority
        ks, best, first = ks[good], best[good], _POSITIONS - (top[good] & _POSITIONS)
        at = cut[first]
        sv.found[ks, j] = True
        sv.agree[ks, j] = best
        sv.lo[ks, j], sv.hi[ks, j] = v[at], v[at + 1]
        sv.left_le[ks, j] = B[first] > A[first]

    def nominal_surrogates(self, g, D, ks, flip, want, sv):
        """The split nodes' (ks) surrogates on the g-th group of nominal features (all with
        V values; ``want``: split nodes × the group's features) into ``sv``: every value the
        way most of its directed rows go (a tie: the directed rows' majority side).  D: their
        side tables (side_tables); flip: theirs in rpart's orientation."""
        js = self.nominal_groups[g]
        V = self.nv[js[0]]
        n = _short_sum(D[..., :V, :], 4)        # S × sides × F × V: the directed rows
        s, f = np.arange(len(ks)), flip.astype(np.int64)
        left, right = n[s, f], n[s, 1 - f]
        sl, sr = _short_sum(left, 2), _short_sum(right, 2)
        default_right = ~(sl > sr)
        active = (left + right) > 0
        goes_right = active & ((left < right) | ((left == right) & default_right[..., None]))
        goes_left = active & ~goes_right
        agree = _short_sum(np.where(goes_right, right, left), 2)   # a value without rows adds 0
        against = sl + sr - agree
        ok = want & (against >= 2) & (agree >= 2)
        at = np.ix_(ks, js)
        sv.found[at], sv.agree[at] = ok, agree
        sv.both[at], sv.most[at] = sl + sr, np.maximum(sl, sr)
        # Each value's side, made into value sets when a record is read: −1 left, 1 right, 0 no row.
        sv.sides[g] = goes_right.view(np.int8) - goes_left.view(np.int8)


class _Stats:
    """A depth's children's regression statistics, as Node.class_counts reads a row of a
    block: the exact (n, Σy, Σy²) of row c, made when read."""

    __slots__ = ("b", "block")

    def __init__(self, b, block):
        self.b, self.block = b, block

    def __getitem__(self, c):
        return self.b.node_counts(self.block[c].tolist())


class _Surrogates:
    """One depth's surrogate data (nodes × features), from which a split node's
    :class:`~infotree.records.Surrogate` records are made when first read."""

    def __init__(self, b, K, flip):
        m = b.m
        self.b, self.flip = b, flip
        self.found = np.zeros((K, m), bool)
        self.agree = np.zeros((K, m), np.int64)
        self.both = np.zeros((K, m), np.int64)    # directed rows with the feature known
        self.most = np.zeros((K, m), np.int64)    # and the larger side of them
        self.lo = np.zeros((K, m), np.int64)
        self.hi = np.zeros((K, m), np.int64)
        self.left_le = np.zeros((K, m), bool)
        self.slot = np.full(K, -1, np.int64)       # a split node's index among the depth's split nodes
        self.sides = {}                           # nominal group -> each value's side (int8: split
                                                  # nodes × the group's features × values)

    def records(self, k) -> tuple:
        b, t, out = self.b, self.b.t, []
        flip = bool(self.flip[k])
        for j in self.ranked[self.first[k]:self.first[k + 1]]:
            if b.numeric[j]:
                nums = t.numbers[j]
                test = ThresholdSplit(j, (nums[int(self.lo[k, j])] + nums[int(self.hi[k, j])]) / 2)
                sides, rights = ((0, 1) if bool(self.left_le[k, j]) != flip else (1, 0)), None
            else:
                g, f = b.group_of[j]
                side = self.sides[g][self.slot[k], f]
                lefts, rights = (frozenset(np.flatnonzero(x).tolist()) for x in (side < 0, side > 0))
                if flip:
                    lefts, rights = rights, lefts
                test, sides = SubsetSplit(j, lefts, t.domains[j]), None
            out.append(Surrogate(t.features[j], j, test, sides, rights, int(self.agree[k, j]), int(self.n[k, j]),
                                 int(self.majority[k, j])))
        return tuple(out)


class Refused(Exception):
    """This tree is the reference builder's: a node's exhaustive subset search is past
    max_subsets (the reference raises the error, at the node it meets first, depth
    first), or a regression this builder does not take."""
