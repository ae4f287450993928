"""The fast CART builder: the reference builder's trees and records, level by level.

The reference builder (:mod:`infotree.grow.reference`) is the specification; this one
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
* **Surrogates in bulk**: the primary's direction cumulated along each other numeric feature's segment.
* **Nodes and records when asked for**: the nodes below a root are arrays until read
  (:mod:`~infotree.grow.packed`); a node's records are made when read (:mod:`~infotree.grow.regrow`).
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

import math
from fractions import Fraction

import numpy as np

from ..impurities import Gini
from ..lookahead import greedy_score
from ..measures import is_independent
from ..node import Node, draws, row_ints
from ..nodedraw import DepthDraws
from ..records import BinaryCandidate, RegressionCandidate
from ..splits import SubsetSplit, ThresholdSplit, midpoint_splits
from ..splitters import search_reach

from . import kernels
from .collector import paused
from .cart_arrays import (_BITS, _CONCAVE, _COUNT_LIMIT, _KEY16, _decreases, _first_best, _narrowest, fraction_table, _seg_starts, _short_sum, _subset_split, _Stats,
                          Refused)
from .cart_cuts import CutScoring
from .cart_partition import Partitioning
from .cart_surrogates import SurrogateSearch
from .packed import Packed
from .regrow import Regrow, bare

__all__ = ["CARTBuilder", "Refused"]


class _Facts:
    """What a grown tree's records read of its builder: the builder's copies of the data
    are not kept alive by the tree (nor pickled with it)."""

    __slots__ = ("t", "numeric", "midpoint", "nv", "reg", "crit", "shift", "D", "group_of")

    def __init__(self, b):
        for k in self.__slots__:
            setattr(self, k, getattr(b, k, None))

    def exact_stats(self, row):
        """A node side's statistics (n, Σy, Σy²), exact, from the scaled integers."""
        n, S, Q = row
        c = self.shift
        return (n, Fraction(S + c * n, self.D), Fraction(Q + 2 * c * S + c * c * n, self.D * self.D))

    def node_counts(self, stats):
        return np.array(self.exact_stats(stats), dtype=object)


class _Level:
    """The candidate data of one depth's examined nodes (K nodes × m features), from which
    a node's candidate records are made when asked for.  Once the depth is grown it keeps
    only what those records need (:meth:`compact`)."""

    __slots__ = ("b", "has", "L", "R", "U", "tried", "lo", "hi", "mask", "wide", "CC", "ptr")

    def __init__(self, b, K, m, nc, CC=None):
        self.b, self.CC, self.ptr = b, CC, None
        self.L, self.R = np.zeros((K, m, nc), np.int64), np.zeros((K, m, nc), np.int64)
        self.U = np.zeros((K, m, nc), np.int64) if b.has_missing else None  # (written only then)
        self.has, self.tried = np.zeros((K, m), bool), np.zeros((K, m), np.int64)
        self.lo, self.hi = np.zeros((K, m), np.int64), np.zeros((K, m), np.int64)  # numeric: ranks either side of the cut
        self.mask = np.zeros((K, m), np.int64)  # nominal: the left value codes as bits
        self.wide = {}                          # or, past _BITS values, (k, j) -> left value codes

    def compact(self):
        """After the depth is grown: the candidates alone, node by node (``has`` becomes
        their features, node k's at ptr[k]:ptr[k + 1]; a forest's node has the few it
        drew), a right side as its node's counts less the left side and the unknown rows,
        no unknown rows where none were, integers in their smallest dtype, the builder
        replaced by its facts.  A forest's records went from 105 to 8 bytes a node and
        feature (numeric classification, nothing missing, 3 of 10 features drawn)."""
        K, m = self.has.shape
        ks, js = np.nonzero(self.has)
        self.b, self.R, self.ptr = self.b.facts, None, _narrowest(np.searchsorted(ks, np.arange(K + 1)))
        self.has = js.astype(np.int16 if m < 1 << 15 else np.int64)
        self.U = self.U[ks, js] if self.U is not None and self.U.any() else None
        self.mask = self.mask[ks, js] if self.mask.any() else None
        for name in ("L", "tried", "lo", "hi"):
            setattr(self, name, _narrowest(getattr(self, name)[ks, js]))

    def _at(self, k, j):
        """Node k's feature j in the arrays: (k, j), or once compacted its position."""
        if self.ptr is None:
            return k, j
        a, b = int(self.ptr[k]), int(self.ptr[k + 1])
        return a + int(np.searchsorted(self.has[a:b], j))

    def sides(self, k, j):
        """The left, right and unknown counts (or regression statistics) of node k's feature j."""
        at = self._at(k, j)
        L = self.L[at].astype(np.int64)
        U = self.U[at] if self.U is not None else np.zeros_like(L)
        R = self.R[at] if self.R is not None else self.CC[k] - L - U
        return L, R, U

    def split(self, k, j):
        b, at = self.b, self._at(k, j)
        if b.numeric[j]:
            lo, hi = int(self.lo[at]), int(self.hi[at])
            if b.midpoint:
                x, z = b.t.numbers[j][lo], b.t.numbers[j][hi]
                return ThresholdSplit(j, Fraction(x.numerator * z.denominator + z.numerator * x.denominator,
                                                  2 * x.denominator * z.denominator))
            return ThresholdSplit(j, b.t.threshold_between(j, lo, hi))
        if b.nv[j] > _BITS:
            return SubsetSplit(j, self.wide[k, j], b.t.domains[j])
        return _subset_split(j, 0 if self.mask is None else int(self.mask[at]), b.t.domains[j])

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
            made = midpoint_splits(js[fast].tolist(), num.tolist(), den.tolist(), b.shared_splits)
            if fast.all():
                return made
            for i, split in zip(np.flatnonzero(fast).tolist(), made):
                out[i] = split
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
        L, R, U = self.sides(k, j)
        u = U.tolist()
        return (RegressionCandidate if b.reg else BinaryCandidate)(
            b.t.features[j], j, split or self.split(k, j), (row(L.tolist()), row(R.tolist())),
            b.crit, int(self.tried[self._at(k, j)]), unknown=row(u) if u[0] or (not b.reg and any(u)) else None)

    def records_of(self, node):
        return self.records(node._ci)

    def records(self, k):
        js = np.flatnonzero(self.has[k]) if self.ptr is None else self.has[self.ptr[k]:self.ptr[k + 1]]
        return [self.record(k, j) for j in js.tolist()]


class CARTBuilder(CutScoring, Partitioning, SurrogateSearch):
    """Grows a CART tree (a binary criterion) level by level; see the module docstring."""

    keep_records = False  # each depth's candidate arrays kept for the records (Regrow's builder sets it)

    def __init__(self, tree, X, y, shared=None):
        self.t = tree
        X = self.X = np.asarray(X)  # as given: a tree grows again from it (Regrow) when its records are read
        self.y = np.asarray(y, dtype=np.int64)
        self.crit, self.p = tree.criterion, tree.params
        self.nc, self.m = len(tree.classes), len(tree.features)
        self.numeric = [k == "numeric" for k in tree.kinds]
        self.reg = self.crit.regression
        if len(self.y) >= _COUNT_LIMIT:  # the float bounds assume smaller counts
            raise Refused
        # the classes as the compiled loops gather them along every feature: a byte a row
        self.y_small = self.y.astype(np.int8 if len(tree.classes) < 128 else np.int32)
        if self.reg:
            self.regression_targets()
        tree.missing_slot = bool(X.size and X.min() < 0)
        # int32 codes (as the Dataset's): a depth gathers them along every feature's order,
        # and half the bytes gather faster
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int32).reshape(self.m, len(self.y))
        self.nv = [len(d) for d in tree.domains]
        # each feature's kind for the directions of rows: 0 numeric, 1 nominal (a bit mask), 2 past _BITS values
        self.kind = np.array([0 if num else 1 if v <= _BITS else 2 for num, v in zip(self.numeric, self.nv)], np.int8)
        self.min_leaf = self.p.get("min_leaf", 1)
        self.w = None  # each row's multiplicity (run_many), or None: every row once
        self.compiled = False  # the compiled loops (run_many decides)
        self.considered = np.ones(self.m, bool)
        self.steps = [((j, 0), (j, 1)) for j in range(self.m)]  # a child's step, shared
        self.ints = []  # 0, 1, 2, ...: a node's row in its depth's arrays (_ci), shared (row_ints)
        self.counts_next = None  # the next depth's counts, as partition counted them
        self.midpoint = self.p.get("threshold") == "midpoint"  # cuts' thresholds: the exact midpoint of two values
        self.has_missing = tree.missing_slot
        # The values' table of int64 fractions (fraction_table) and the splits made, one for a
        # forest's groups of trees (``shared``: another group's builder's)
        self.shared = shared or ({}, fraction_table(tree.numbers, self.numeric))
        self.shared_splits, (self.small_fractions, self.fraction_offsets, self.fraction_num, self.fraction_den) = self.shared
        # A nominal value and the class in one code (-1: missing), and the nominal features in
        # groups of equal domain size: one bincount per group counts a set of rows.  Per group,
        # each row's cells in a node's block (feature, value, class; a missing value has the
        # slot after the values, if any is missing), row by row: rows gathered in whole rows.
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
        self.facts = _Facts(self)
        self.exact_stats, self.node_counts = self.facts.exact_stats, self.facts.node_counts
        self.lv = self.sv = None  # the depth's candidate and surrogate data, compacted once grown
        self.tie_runs = {}  # a run of tied features -> the one tuple of it the nodes share

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

    def stats(self, rows, sizes):
        """(n, S, Q) of consecutive groups of rows (sizes: each group's, all positive)."""
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        return np.stack([np.asarray(sizes, np.int64), np.add.reduceat(self.yv[rows], starts),
                         np.add.reduceat(self.yq[rows], starts)], axis=1)

    # -- the level loop --
    def run(self, rows=None, path=(), weights=None):
        if weights is not None:
            raise ValueError("the fast CART builder takes no sample weights")  # build_tree never asks
        rows = np.arange(len(self.y), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        self.run_many([(self.t, rows)], path)

    def run_many(self, roots, path=(), multiplicity=None):
        """Grow one tree per (tree, rows) root, all together, level by level: a depth's open
        nodes of every tree are one batch (numpy's per-call cost paid once a depth, not once a
        depth and tree).  The roots' rows are disjoint; the trees share this builder's
        features, domains and numbers, and all have a draw (Tree.draw) or none.
        ``multiplicity``: each row's count (a bootstrap's repeated rows as one row each: a
        third fewer rows to sort and partition); classification without surrogates only."""
        if multiplicity is not None:
            if self.reg or self.p.get("surrogates", 5):
                raise ValueError("rows count once each in regression and with surrogates")
            self.w = np.asarray(multiplicity, dtype=np.int64)
            if self.w.sum() < 1 << 31:  # every cumulative count fits: int32 sums run several times faster
                self.w = self.w.astype(np.int32)
        nodes, parts, template = [], [], bare(self.t)
        self.packed = Packed(self, len(path))  # the nodes below the roots, as arrays
        for tree, rows in roots:
            root = self.plant(tree, rows, path)
            whole = len(rows) == len(self.y) and bool((np.diff(rows) == 1).all())  # (kept as None: 8 MB at 10^6 rows)
            self.packed.plant(tree, Regrow(type(self), template, self.X, self.y, None if whole else rows, path))
            if root.stop is None:
                nodes.append(root)
                parts.append(rows)
        if not nodes:
            return
        self.drawn = nodes[0].tree.draw is not None
        if any((node.tree.draw is not None) != self.drawn for node in nodes):
            raise ValueError("the trees grown together either all have a feature draw or none has")
        self.depth_draws = DepthDraws.of(nodes) if self.drawn else None  # (None: each tree's draw asked)
        rows = np.concatenate(parts)
        sizes = np.array([len(r) for r in parts])
        # the compiled loops, where the values to score (rows of every tree × numeric columns) are many
        self.compiled = kernels.active(len(rows) * max(1, sum(self.numeric)))
        seg = np.repeat(np.arange(len(parts), dtype=np.int64), sizes) if len(parts) > 1 else 0
        # Each numeric column sorted once per root (stable: rows of equal value keep row
        # order), its missing values last; every later depth only partitions these arrays.
        # On numpy's path a forest's nodes (without surrogates, which read every feature) sort
        # instead only what they drew, depth by depth (drawn_order); the compiled loops keep
        # every feature's arrays and score the drawn ones (a forest: 3.47 -> 2.70 s).
        ords = None if self.drawn and not self.p.get("surrogates", 5) and not self.compiled else {}
        # int32 rows (the codes' own bound): half the bytes for every feature's order
        # to keep, regroup and gather along, a depth at a time
        ranks = rows.astype(np.int32) if ords is not None else None
        # One row of O a numeric feature (self.num_js[f]: its column), V their value codes,
        # carried along by each depth's regrouping (a sequential copy, where a gather by row
        # reached beyond the cache at 10^6 rows); the compiled loops take every feature at once.
        self.num_js = np.array([j for j in range(self.m) if self.numeric[j]], np.int64)
        if ords is not None:
            O = np.empty((len(self.num_js), len(rows)), np.int32)
            # int16 codes where every numeric feature has fewer than 2^15 values: 20 MB less at 10^6 rows × 10
            narrow = max((self.nv[j] for j in self.num_js.tolist()), default=0) < 1 << 15
            V = np.empty((len(self.num_js), len(rows)), np.int16 if narrow else self.Xt.dtype)
            for f, j in enumerate(self.num_js.tolist()):
                x = self.Xt[j, rows]
                key = np.where(x < 0, self.nv[j], x)
                if len(parts) * (self.nv[j] + 1) <= _KEY16:
                    key = (key + seg * (self.nv[j] + 1)).astype(np.uint16)
                    O[f] = ranks[np.argsort(key, kind="stable")]
                elif self.nv[j] < _KEY16 and len(parts) <= _KEY16:
                    # by value, then stably by root: two 16-bit radix sorts (a forest's trees
                    # × values past 16 bits: one int64 sort took 3x as long)
                    by_x = np.argsort(key.astype(np.uint16), kind="stable")
                    O[f] = ranks[by_x[np.argsort(seg[by_x].astype(np.uint16), kind="stable")]]
                else:
                    O[f] = ranks[np.argsort(key + seg * (self.nv[j] + 1), kind="stable")]
                self.Xt[j].take(O[f], out=V[f])
            ords = O, V
            # Only ``ords`` may hold the root's arrays: the first depth's regrouping makes the
            # next ones, and these names would keep both (76 MB at 10^6 rows × 10) for the fit.
            O = V = x = key = ranks = None
        # ... and, while most rows are open, filter one order of all rows per drawn feature,
        # made here, instead of sorting again (the order of equal values within a node is
        # their order in ``rows``, increasing, which regrouping keeps: the same arrays).
        self.by_value = self.node_of = None
        if ords is None and len(rows) > 1 and bool((rows[1:] > rows[:-1]).all()):
            self.by_value = {}
            for j in range(self.m):
                if self.numeric[j]:
                    x = self.Xt[j]
                    key = np.where(x < 0, self.nv[j], x) if self.has_missing else x
                    if self.nv[j] < _KEY16:  # 16-bit keys: numpy's stable sort is then a radix sort, 9x faster
                        key = key.astype(np.uint16)
                    # int32, as the codes' rows: half the memory of argsort's int64
                    self.by_value[j] = np.argsort(key, kind="stable").astype(np.int32)
        self.tables = [None] * len(self.nominal_groups)  # the roots' counted in subset_cuts
        with paused():   # (many objects made and dropped: a collection would traverse them all)
            while nodes:
                decided, (nodes, rows, ords, sizes) = nodes, self.level(nodes, rows, ords, sizes)
                self.packed.decide(decided, self.lv if self.keep_records else None, self.drawn)
                decided = None   # this depth's objects go (but the split ones' open children's parents)
                if self.keep_records:
                    self.lv.compact()
                if self.sv is not None:
                    self.sv.compact()
                self.lv = self.sv = None

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
        CC = self.counts_next  # as the parents' partition counted them (None: the roots)
        if CC is None:
            CC = self.stats(rows, sizes) if self.reg else self.count(nid * nc + self.y[rows], K * nc, rows).reshape(K, nc)
        lv = self.lv = _Level(self, K, self.m, nc, CC)
        self.node_of = None
        if self.by_value is not None and 4 * len(rows) >= self.Xt.shape[1]:
            self.node_of = np.full(self.Xt.shape[1], -1, np.int32)
            self.node_of[rows] = nid
        self.sorted_values, self.between = {}, {}
        # Per node and feature: the best split's improvement, in floats with a bound.
        imp = np.full((K, self.m), -np.inf)
        bnd = np.zeros((K, self.m))
        # A forest's node sees its drawn features only (Tree.draw): its candidates, as in the reference.
        drawn = (self.depth_draws.masks() if self.depth_draws else draws(nodes)) if self.drawn else None
        if ords is None:  # the rows of the nodes that drew feature j, sorted now
            for j in self.num_js.tolist():
                order, v, nid_j, starts_j = self.drawn_order(j, rows, nid, K, drawn[:, j], sizes)
                self.numeric_cuts(j, order, nid_j, starts_j, K, CC, lv, imp, bnd, v)
        elif len(self.num_js) and self.scored_compiled():
            self.compiled_cuts_all(*ords, nid, starts, K, CC, lv, imp, bnd, drawn)
        else:
            O, V = ords
            for f, j in enumerate(self.num_js.tolist()):
                self.numeric_cuts(j, O[f], nid, starts, K, CC, lv, imp, bnd, V[f])
        self.reach = search_reach(p["max_depth"], nodes[0].depth)   # the subset searches' budget
        for g in range(len(self.nominal_groups)):
            self.subset_cuts(g, rows, nid, K, CC, lv, imp, bnd)
        if drawn is not None:
            lv.has &= drawn
        # A node reads its records, surrogates and counts as row k of its depth's data: no object a
        # node.  Its records: its tree's Regrow, which grows the tree again keeping them, when read.
        considered, counts = self.considered, _Stats(self.facts, CC) if self.reg else CC
        regrow_of = self.packed.regrow_of
        for node, k in zip(nodes, row_ints(self.ints, K)):
            node._considered = considered
            node._records, node._cc, node._ci = lv if self.keep_records else regrow_of(node.tree), counts, k
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
                elif p["min_gain"] is not None and greedy_score(best) < p["min_gain"]:  # (CART: the decrease)
                    node.stop = "min_gain"
                else:
                    kept.append(k)
            split = kept
        if not split:
            return [], None, None, None
        for k, test in zip(split, lv.splits(split, chosen[split])):
            node = nodes[k]
            node.test = test
            if k in ties:  # one tuple for every node with the same ties (70,000 nodes at 10^5 regression rows)
                node.ties = self.tie_runs.setdefault(ties[k], ties[k])
        self.keep_levels(nodes, split, chosen)
        return self.partition(nodes, split, chosen, lv, rows, ords, nid, starts, sizes)

    def keep_levels(self, nodes, split, chosen):
        """rpart's routing reads the values a subset split's rows had (node.levels, see
        :mod:`infotree.rpart_routing`): those its depth's table counts (a row routed
        here by a surrogate counts as it went)."""
        for g, T in enumerate(self.tables):
            js = self.nominal_groups[g]
            ks = [k for k in split if int(chosen[k]) in js]
            if not ks:
                continue
            fs = [self.group_of[int(chosen[k])][1] for k in ks]
            present = _short_sum(T[ks, fs, :self.nv[js[0]]], 2) > 0   # split nodes × values
            for k, row in zip(ks, present.tolist()):
                nodes[k].levels = frozenset(i for i, p in enumerate(row) if p)

    def drawn_order(self, j, rows, nid, K, want, sizes):
        """The rows of the nodes that drew numeric feature j (``want``: per node), node by
        node, each node's sorted by value (stable; missing last); their values, the node
        ids of that array and each node's start in it.  A forest's node draws a few features, so
        sorting those rows at each depth costs less than keeping every feature's rows
        sorted through every partition."""
        if self.node_of is not None:  # the rows of all open nodes in one order by value, filtered
            g = self.by_value[j]
            sel = g[np.append(want, False)[self.node_of.take(g)]]  # a row of no open node: -1, the False
            k = self.node_of.take(sel)
            o = np.argsort(k.astype(np.uint16) if K <= _KEY16 else k, kind="stable")
            r, k = sel[o], k[o]
            return r, self.Xt[j].take(r), k, np.searchsorted(k, np.arange(K))
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
        """Exact improvements of the listed nodes' features' best cuts, compared node by node
        (_first_best): (numerators, denominators) or exact values."""
        L, R = lv.L[ks, js], lv.R[ks, js]
        if self.reg:  # the decreases d² / (n_L·n_R·n), their common scale D² left out
            return _decreases(L[:, 1], L[:, 0], R[:, 1], R[:, 0])
        if type(self.crit) is Gini and not self.has_missing:
            nL, nR = L.sum(axis=1), R.sum(axis=1)
            if (nL + nR).max(initial=0) <= kernels.EXACT_GINI_ROWS:
                # A node's features split the same rows (none missing): its own n·Gini left
                # out, (S_L·n_R + S_R·n_L) / (n_L·n_R) as the Gini loop compares its cuts, in int64.
                return (L * L).sum(axis=1) * nR + (R * R).sum(axis=1) * nL, nL * nR
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
