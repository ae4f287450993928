"""The tree builder (ID3 and C4.5 on categorical data) and the derivation records.

``build_tree(data, criterion=...)`` grows the tree level by level: the counts of
every open node of a depth (node × feature × value × class) come from one
``np.bincount`` per feature, the split choice goes through a certified float
filter, and only candidates the filter cannot separate are compared exactly.
Ties are exact: the first feature in column order wins and the node records
every feature it tied with.

A :class:`Node` keeps counts only; its exact measures (:meth:`Node.candidates`)
are computed when asked for, by the functions of :mod:`infotree.measures`.

Criteria
--------
``gain``
    ID3: maximal information gain among the unused features that separate the
    node's rows (at least two non-empty branches).  An impure node is split even
    at zero gain (the XOR lesson) unless ``stop_at_zero_gain=True`` (Weka's Id3).
``gain_ratio``
    C4.5 as Weka's J48 defines it (``docs/c45_rules.md``): a node with fewer than
    ``2·min_objects`` rows or one class is a leaf; a feature is *valid* when at
    least two branches get ``min_objects`` rows; the average gain is taken over
    the valid features (over those with fewer than 0.3·N declared values, unless
    every feature has that many); the winner has maximal gain ratio among valid
    features whose gain is at least that average minus C4.5's slack of 1/1000 bit
    (``average_gain_slack``; Quinlan's ``Epsilon``, kept by J48), and its gain ratio
    must be positive.  Every comparison is exact, where Weka also lets ratios
    within 1e-6 and gains below 1e-6 count as equal or zero.  The grown tree is
    then *collapsed*: a subtree that makes no fewer training errors than a leaf
    would is replaced by that leaf.
``gain_ratio_plain``
    Maximal gain ratio among the features that separate the rows; no filter,
    no minimum branch size, no collapse (as many lecture notes define it).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .errors import InfotreeError
from .exact import Exact, Ratio, _factor_int
from .measures import (
    conditional_entropy_from_table,
    entropy,
    information_gain_from_table,
    split_information_from_table,
)

__all__ = ["CRITERIA", "Candidate", "Node", "Tree", "build_tree", "node_at"]

CRITERIA = ("gain", "gain_ratio", "gain_ratio_plain")
_U = 2.0 ** -53


# -- records -------------------------------------------------------------------------

class Branch:
    """One value of a candidate feature at a node: n_x, class counts, H(Y|X=x)."""

    __slots__ = ("value", "counts")

    def __init__(self, value: str, counts):
        self.value = value
        self.counts = counts  # tuple of ints, class order

    @property
    def n(self):
        return sum(self.counts)

    @property
    def entropy(self) -> Exact | None:
        """H(Y|X=x), or None for an empty branch."""
        return entropy(self.counts) if self.n else None


class Candidate:
    """A candidate feature at a node, with its exact measures (computed on demand)."""

    __slots__ = ("feature", "index", "table", "branches", "passes_average_gain", "valid", "_cache")

    def __init__(self, feature, index, table, values, passes_average_gain=None, valid=True):
        self.feature = feature
        self.index = index
        #: tuple of per-value class-count tuples (rows = values, columns = classes)
        self.table = table
        self.branches = [Branch(v, r) for v, r in zip(values, table)]
        self.passes_average_gain = passes_average_gain
        self.valid = valid
        self._cache = {}

    def _get(self, key, fn):
        c = self._cache
        if key not in c:
            c[key] = fn()
        return c[key]

    @property
    def conditional_entropy(self) -> Exact:
        return self._get("ce", lambda: conditional_entropy_from_table(self.table))

    @property
    def gain(self) -> Exact:
        return self._get("ig", lambda: information_gain_from_table(self.table))

    @property
    def split_info(self) -> Exact:
        return self._get("si", lambda: split_information_from_table(self.table))

    @property
    def gain_ratio(self) -> Ratio | None:
        """IG / SplitInfo, or None when the split information is 0 (undefined)."""
        def gr():
            si = self.split_info
            return Ratio(self.gain, si) if si else None
        return self._get("gr", gr)


class Node:
    """A node of the tree and the derivation of its decision.

    Counts only: ``class_counts`` (class order) and, for a node whose candidates
    were examined, the node × feature × value × class count block ``tables``.
    """

    __slots__ = ("tree", "path", "depth", "class_counts", "tables", "considered", "split",
                 "ties", "stop", "label", "children", "parent", "valid", "average_gain_ok",
                 "_candidates", "collapsed_errors")

    def __init__(self, tree, path, depth, class_counts, parent=None):
        self.tree = tree
        #: ((feature index, value index), ...) from the root
        self.path = path
        self.depth = depth
        self.class_counts = class_counts
        self.tables = None          # int array (features, max values, classes) or None
        self.considered = None      # bool mask over features: the candidates
        self.split = None           # feature index or None
        self.ties = ()              # feature indices tied exactly with the chosen one
        self.stop = None            # why the node is a leaf (a code, see reason)
        self.label = 0              # majority class index (first in class order on a tie)
        self.children = []          # one Node per value of the split feature's domain
        self.parent = parent
        self.valid = None           # C4.5: features passing the min_objects test
        self.average_gain_ok = None  # C4.5: features with gain >= average
        self._candidates = None
        self.collapsed_errors = None

    # -- plain facts --
    @property
    def n(self) -> int:
        return int(np.sum(self.class_counts))

    @property
    def is_leaf(self) -> bool:
        return self.split is None

    @property
    def is_empty(self) -> bool:
        return self.n == 0

    @property
    def entropy(self) -> Exact | None:
        return entropy(self.class_counts) if self.n else None

    def path_names(self) -> list[tuple[str, str]]:
        t = self.tree
        return [(t.features[f], t.domains[f][v]) for f, v in self.path]

    @property
    def split_feature(self) -> str | None:
        return None if self.split is None else self.tree.features[self.split]

    @property
    def label_name(self) -> str:
        return self.tree.classes[self.label]

    @property
    def errors(self) -> int:
        """Training errors of this node as a leaf."""
        return self.n - int(max(self.class_counts)) if self.n else 0

    def candidates(self) -> list[Candidate]:
        """The candidate table: one record per feature considered at this node."""
        if self._candidates is None:
            t = self.tree
            out = []
            if self.tables is not None:
                nc = len(t.classes)
                for j in np.flatnonzero(self.considered).tolist():
                    nv = len(t.domains[j])
                    table = tuple(tuple(int(c) for c in self.tables[j, v, :nc]) for v in range(nv))
                    passes = None
                    if self.average_gain_ok is not None:
                        passes = j in self.average_gain_ok
                    valid = True if self.valid is None else j in self.valid
                    out.append(Candidate(t.features[j], j, table, t.domains[j], passes, valid))
            self._candidates = out
        return self._candidates

    def forget(self) -> None:
        """Drop the cached candidate records (they are rebuilt from the counts on demand)."""
        self._candidates = None

    @property
    def chosen(self) -> Candidate | None:
        """The candidate record of the split feature alone, or None for a leaf."""
        if self.split is None or self.tables is None:
            return None
        if self._candidates is not None:
            return self.candidate(self.split)
        t, j = self.tree, self.split
        nc = len(t.classes)
        table = tuple(tuple(int(c) for c in self.tables[j, v, :nc]) for v in range(len(t.domains[j])))
        passes = None if self.average_gain_ok is None else j in self.average_gain_ok
        return Candidate(t.features[j], j, table, t.domains[j], passes, True)

    def candidate(self, feature) -> Candidate:
        for c in self.candidates():
            if c.feature == feature or c.index == feature:
                return c
        raise InfotreeError(f"feature {feature!r} was not a candidate at node {self.describe_path()}")

    def equal_gain_groups(self) -> list[list[str]]:
        """Groups of two or more candidates whose information gains are exactly equal."""
        groups: dict = {}
        for c in self.candidates():
            groups.setdefault(c.gain, []).append(c.feature)
        return [g for g in groups.values() if len(g) > 1]

    @property
    def reason(self) -> str:
        """Why this node was split or made a leaf, in words."""
        t = self.tree
        if self.split is not None:
            what = {"gain": "maximal information gain", "gain_ratio": "maximal gain ratio among features with at least average gain",
                    "gain_ratio_plain": "maximal gain ratio"}[t.criterion]
            if self.ties:
                others = ", ".join(t.features[j] for j in self.ties)
                return f"{what}; tied exactly with {others}, broken by column order (first feature wins)"
            return what
        return _STOPS[self.stop].format(node=self, tree=t)

    def describe_path(self) -> str:
        return ", ".join(f"{f} = {v}" for f, v in self.path_names()) or "root"

    def walk(self):
        """This node and all nodes below it, in pre-order (children in value order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


_STOPS = {
    "pure": "pure: every row has class {node.label_name}",
    "empty": "empty branch: no training rows; labelled with the parent's majority class",
    "max_depth": "stopped: maximum depth {tree.params[max_depth]} reached",
    "min_samples_split": "stopped: fewer than min_samples_split = {tree.params[min_samples_split]} rows",
    "min_gain": "stopped: best gain is below min_gain = {tree.params[min_gain]}",
    "zero_gain": "stopped: every feature has information gain 0 (stop_at_zero_gain)",
    "no_separation": "stopped: no feature separates the rows (identical feature values); majority leaf",
    "no_features": "stopped: every feature has been used on this path; majority leaf",
    "too_few": "stopped: fewer than 2·min_objects = {tree._twice_min} rows",
    "no_average": "stopped: no valid feature counts towards the average gain (every valid one has many values)",
    "no_valid": "stopped: no feature sends at least min_objects = {tree.params[min_objects]} rows to two branches",
    "no_positive_ratio": "stopped: no valid feature with at least average gain has a positive gain ratio",
    "loaded": "leaf (read from a saved model)",
    "collapsed": "collapsed: the subtree below made {node.collapsed_errors} training errors, no fewer than this leaf's {node.errors}",
}


# -- the tree --------------------------------------------------------------------------

class Tree:
    """A grown tree: the root :class:`Node`, the data's names, and the parameters."""

    def __init__(self, *, features, domains, classes, target, criterion, params):
        self.features = tuple(features)
        self.domains = tuple(tuple(d) for d in domains)
        self.classes = tuple(classes)
        self.target = target
        self.criterion = criterion
        self.params = dict(params)
        self.root: Node | None = None
        self._index = {f: i for i, f in enumerate(self.features)}
        self._value_index = [{v: i for i, v in enumerate(d)} for d in self.domains]

    @property
    def _twice_min(self):
        return 2 * self.params.get("min_objects", 2)

    def nodes(self):
        """Every node, pre-order."""
        return self.root.walk()

    def leaves(self):
        return (n for n in self.nodes() if n.is_leaf)

    def __len__(self):
        return sum(1 for _ in self.nodes())

    def _repr_markdown_(self):
        from .printers import markdown_of

        return markdown_of(self, nodes="root")

    def _repr_latex_(self):
        from .printers import latex_of

        return latex_of(self, nodes="root")

    def __repr__(self):
        return f"<Tree {self.criterion} on {self.target!r}: {len(self)} nodes, {sum(1 for _ in self.leaves())} leaves>"

    # -- using the tree --
    def _codes(self, rows, unseen):
        """Rows (dicts by feature name, sequences in feature order, or a Dataset) as codes."""
        if hasattr(rows, "X") and hasattr(rows, "domains"):
            return self._codes_from_dataset(rows, unseen)
        out = []
        for i, row in enumerate(rows):
            if isinstance(row, dict):
                missing = [f for f in self.features if f not in row]
                if missing:
                    raise InfotreeError(f"row {i + 1} has no value for feature {missing[0]!r}; features are: {', '.join(self.features)}")
                vals = [row[f] for f in self.features]
            else:
                vals = list(row)
                if len(vals) != len(self.features):
                    raise InfotreeError(f"row {i + 1} has {len(vals)} values; the tree has {len(self.features)} features: {', '.join(self.features)}")
            codes = []
            for j, v in enumerate(vals):
                s = str(v).strip()
                c = self._value_index[j].get(s)
                if c is None:
                    c = self._unseen(j, s, unseen, f"row {i + 1}")
                codes.append(c)
            out.append(codes)
        return out

    def _unseen(self, j, value, unseen, where):
        if unseen == "majority":
            return -1
        allowed = ", ".join(self.domains[j])
        raise InfotreeError(f"{where}: value {value!r} of feature {self.features[j]!r} was not seen in training; "
                            f"allowed: {allowed} (or unseen='majority')")

    def _codes_from_dataset(self, data, unseen):
        cols = []
        for j, f in enumerate(self.features):
            if f not in data.features:
                raise InfotreeError(f"data has no column {f!r}; the tree needs: {', '.join(self.features)}")
            k = data.features.index(f)
            mapping = np.array([self._value_index[j].get(v, -2) for v in data.domains[k]] + [-1], dtype=np.int64)
            col = mapping[data.X[:, k]]
            bad = np.flatnonzero(col == -2)
            if bad.size:
                i = int(bad[0])
                where = f"{data.source} line {int(data.lines[i])}" if getattr(data, "lines", None) is not None and data.source else f"row {i + 1}"
                self._unseen(j, data.domains[k][int(data.X[i, k])], unseen, where)
                col[col == -2] = -1
            cols.append(col)
        return np.stack(cols, axis=1).tolist() if cols else [[] for _ in range(len(data.y))]

    def _leaf_for(self, codes):
        node = self.root
        while node.split is not None:
            c = codes[node.split]
            if c < 0:
                return node, True
            node = node.children[c]
        return node, False

    def predict(self, rows, *, unseen="error") -> list[str]:
        """One class label per row; ``unseen="majority"`` sends unseen values to the node's majority."""
        return [self.classes[self._leaf_for(c)[0].label] for c in self._codes(rows, unseen)]

    def predict_proba(self, rows, *, unseen="error") -> list[dict[str, Fraction]]:
        """Exact class frequencies of the leaf each row reaches (an empty leaf: its parent's)."""
        out = []
        for c in self._codes(rows, unseen):
            node, _ = self._leaf_for(c)
            while node.n == 0 and node.parent is not None:
                node = node.parent
            n = node.n
            out.append({k: Fraction(int(v), n) for k, v in zip(self.classes, node.class_counts)})
        return out

    def explain(self, row, *, unseen="error") -> list[str]:
        """The path one row takes, one line per decision, ending with the prediction."""
        codes = self._codes([row], unseen)[0]
        node, lines = self.root, []
        while node.split is not None:
            c = codes[node.split]
            f = self.features[node.split]
            if c < 0:
                lines.append(f"{f} has a value not seen in training: predict the majority here")
                break
            lines.append(f"{f} = {self.domains[node.split][c]} (split on {f}: {node.reason})")
            node = node.children[c]
        counts = ", ".join(f"{k} {int(v)}" for k, v in zip(self.classes, node.class_counts))
        lines.append(f"predict {node.label_name} (leaf: n = {node.n}; {counts})")
        return lines


# -- building ---------------------------------------------------------------------------

def _xlog2x_table(n: int) -> np.ndarray:
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[2:] = k[2:] * np.log2(k[2:])
    return out


def _majority(counts) -> int:
    return int(np.argmax(counts))  # first maximum: first class in class order


def build_tree(data, *, criterion="gain", max_depth=None, min_samples_split=2, min_gain=None,
               stop_at_zero_gain=False, min_objects=2, collapse=None, average_gain_slack=Fraction(1, 1000)) -> Tree:
    """Grow a tree on a :class:`~infotree.data.Dataset`.

    ``criterion``: ``"gain"`` (ID3), ``"gain_ratio"`` (C4.5) or ``"gain_ratio_plain"``.
    ``collapse`` defaults to True for ``gain_ratio`` and False otherwise.
    ``average_gain_slack`` (``gain_ratio`` only): a feature passes the average-gain
    filter when its gain is at least the average minus this many bits; C4.5 and J48
    use 1/1000, ``0`` gives the textbook rule.
    """
    if criterion not in CRITERIA:
        raise InfotreeError(f"unknown criterion {criterion!r}; allowed: {', '.join(CRITERIA)}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 0):
        raise InfotreeError(f"max_depth {max_depth!r} is not allowed; give a non-negative integer or None")
    if not isinstance(min_samples_split, int) or min_samples_split < 1:
        raise InfotreeError(f"min_samples_split {min_samples_split!r} is not allowed; give a positive integer")
    if not isinstance(min_objects, int) or min_objects < 1:
        raise InfotreeError(f"min_objects {min_objects!r} is not allowed; give a positive integer")
    if min_gain is not None:
        try:
            min_gain = Fraction(str(min_gain)) if isinstance(min_gain, float) else Fraction(min_gain)
        except (TypeError, ValueError):
            raise InfotreeError(f"min_gain {min_gain!r} is not a number; give a rational such as 0.01 or '1/100'") from None
    if collapse is None:
        collapse = criterion == "gain_ratio"
    try:
        average_gain_slack = Fraction(str(average_gain_slack)) if isinstance(average_gain_slack, float) else Fraction(average_gain_slack)
    except (TypeError, ValueError):
        raise InfotreeError(f"average_gain_slack {average_gain_slack!r} is not a number; give a rational such as 1/1000") from None
    X = np.asarray(data.X)
    if X.size and X.min() < 0:
        raise InfotreeError("the data has missing values; this criterion does not accept them")
    y = np.asarray(data.y, dtype=np.int64)
    n_rows, m = X.shape if X.ndim == 2 else (len(y), 0)
    if n_rows == 0:
        raise InfotreeError("the data has no rows; a tree needs at least one training row")
    params = dict(max_depth=max_depth, min_samples_split=min_samples_split, min_gain=min_gain,
                  stop_at_zero_gain=stop_at_zero_gain, min_objects=min_objects, collapse=collapse,
                  average_gain_slack=average_gain_slack)
    tree = Tree(features=data.features, domains=data.domains, classes=data.classes,
                target=data.target, criterion=criterion, params=params)
    _Builder(tree, X, y).run()
    if collapse:
        _collapse(tree.root)
    return tree


@lru_cache(maxsize=1 << 16)
def _xlogx_terms(m: int) -> tuple:
    """m·log2(m) as ((p, m·e_p), ...): integer coefficients on log2 of primes."""
    return tuple((p, m * e) for p, e in _factor_int(m))


def _xlogx_acc(acc: dict, m: int, sign: int) -> None:
    """acc += sign·m·log2(m) as integer prime coefficients (2 is the constant)."""
    if m > 1:
        for p, c in _xlogx_terms(m):
            acc[p] = acc.get(p, 0) + sign * c


def _n_cond_coeffs(block, nv, nc) -> dict:
    """n·H(Y|X) of one feature's table as {prime: integer coefficient}, zeros dropped."""
    acc: dict = {}
    for r in block[:nv, :nc].tolist():
        _xlogx_acc(acc, sum(r), 1)
        for c in r:
            _xlogx_acc(acc, c, -1)
    return {p: c for p, c in acc.items() if c}


def _exact_parts(block, nv, nc):
    """(n·H(Y|X), n·IG, n·SplitInfo) of one feature's table, exactly, integer coefficients."""
    rows = block[:nv, :nc].tolist()
    cond: dict = {}
    top: dict = {}
    si: dict = {}
    n = 0
    for r in rows:
        s = sum(r)
        n += s
        _xlogx_acc(cond, s, 1)
        _xlogx_acc(si, s, -1)
        for c in r:
            _xlogx_acc(cond, c, -1)
    _xlogx_acc(top, n, 1)
    _xlogx_acc(si, n, 1)
    for c in (sum(col) for col in zip(*rows)):
        _xlogx_acc(top, c, -1)
    n_cond = Exact(0, cond)
    return n_cond, Exact(0, top) - n_cond, Exact(0, si)


class _Builder:
    """Grows a tree level by level; see the module docstring for the rules."""

    def __init__(self, tree: Tree, X, y):
        self.t = tree
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int64)  # feature-major: one column per bincount
        self.y = y
        self.nc = len(tree.classes)
        self.nv = np.array([len(d) for d in tree.domains], dtype=np.int64)
        self.vmax = int(self.nv.max()) if len(self.nv) else 1
        self.F = _xlog2x_table(len(y))
        self.m = len(tree.features)
        self.all_features = np.ones(self.m, bool)
        # C4.5's many-values rule: which features count towards the average gain.
        many = self.nv >= 0.3 * len(y)
        self.in_average = np.ones(self.m, bool) if many.all() else ~many

    def run(self, rows=None, path=()):
        t, y = self.t, self.y
        node_of_row = np.zeros(len(y), dtype=np.int64)
        if rows is not None:
            node_of_row[:] = -1
            node_of_row[rows] = 0
            y = y[rows]
        counts = np.bincount(y, minlength=self.nc)
        root = Node(t, tuple(path), len(path), counts)
        root.label = _majority(counts)
        t.root = root
        open_nodes = [root]
        used = np.zeros((1, self.m), bool)
        for f, _ in path:
            used[0, f] = True
        while open_nodes:
            node_of_row, open_nodes, used = self.level(open_nodes, node_of_row, used)

    def counts(self, K, node_of_row):
        """node × feature × value × class counts of one level, one bincount per feature."""
        nc, m = self.nc, self.m
        active = np.flatnonzero(node_of_row >= 0)
        nid = node_of_row[active]
        ya = self.y[active]
        T = np.zeros((K, m, self.vmax, nc), dtype=np.int32)
        for j in range(m):
            V = int(self.nv[j])
            idx = (nid * V + self.Xt[j, active]) * nc + ya
            T[:, j, :V, :] = np.bincount(idx, minlength=K * V * nc).reshape(K, V, nc)
        return T, active, nid

    def level(self, nodes, node_of_row, used):
        t, nc, m, p = self.t, self.nc, self.m, self.t.params
        K = len(nodes)
        T, active, nid = self.counts(K, node_of_row)
        CC = np.array([nd.class_counts for nd in nodes], dtype=np.int64).reshape(K, nc)
        n = CC.sum(axis=1)
        nx = T.sum(axis=3)                                   # (K, m, V)
        F = self.F
        Fnx = F[nx].sum(axis=2)
        Fnxy = F[T].sum(axis=(2, 3))
        G = Fnx - Fnxy                                       # n·H(Y|X), float
        # Each F entry is within 4 units of roundoff of m·log2(m); each sum adds one.
        B = (12 + self.vmax * (nc + 1)) * 4 * _U * (Fnx + Fnxy) + 1e-300
        Fn = F[n]
        Fy = F[CC].sum(axis=1)
        nIG = (Fn - Fy)[:, None] - G
        nIGb = B + (nc + 8) * 4 * _U * (Fn + Fy)[:, None]
        nSI = Fn[:, None] - Fnx
        nSIb = (self.vmax + 8) * 4 * _U * (Fn[:, None] + Fnx) + 1e-300
        eligible = ((nx > 0).sum(axis=2) >= 2) & ~used      # unused and separating
        pure = (CC > 0).sum(axis=1) <= 1
        crit = t.criterion
        self.level_arrays = (T, G, B, nIG, nIGb, nSI, nSIb)

        if crit == "gain":
            upper = np.where(eligible, G + B, np.inf)
            lower = np.where(eligible, G - B, np.inf)
            amb = ((lower <= upper.min(axis=1)[:, None]) & eligible).sum(axis=1)
            quick = np.where(amb == 1, upper.argmin(axis=1), -1)
            # A feature whose every branch is pure has H(Y|X) = 0 exactly, the
            # least possible: ties among such features need no arithmetic at all.
            perfect = eligible & ((T > 0).sum(axis=3) <= 1).all(axis=2)
        if crit == "gain_ratio":
            valid = (nx >= p["min_objects"]).sum(axis=2) >= 2
        stop_depth = p["max_depth"]

        split_nodes = []
        for k, node in enumerate(nodes):
            if pure[k]:
                node.stop = "pure"
                continue
            node.tables = T[k].copy()
            node.considered = self.all_features if crit == "gain_ratio" else ~used[k]
            if stop_depth is not None and node.depth >= stop_depth:
                node.stop = "max_depth"
                continue
            if n[k] < p["min_samples_split"]:
                node.stop = "min_samples_split"
                continue
            if crit == "gain_ratio":
                choice = self.choose_c45(node, k, valid[k])
            elif used[k].all():
                node.stop = "no_features"
                continue
            elif not eligible[k].any():
                node.stop = "no_separation"
                continue
            elif crit == "gain":
                choice = int(quick[k])
                if choice < 0:
                    best = np.flatnonzero(perfect[k])
                    if best.size:
                        choice, node.ties = int(best[0]), tuple(best[1:].tolist())
                    else:
                        choice = self.exact_gain_choice(node, k, np.flatnonzero(eligible[k]))
            else:
                choice = self.best_ratio(node, k, np.flatnonzero(eligible[k]))
            if choice is None:
                continue
            if p["stop_at_zero_gain"] and self.zero_gain(T[k, choice]):
                node.stop, node.ties = "zero_gain", ()
                continue
            if p["min_gain"] is not None:
                n_ig = _exact_parts(T[k, choice], int(self.nv[choice]), nc)[1]
                if n_ig < p["min_gain"] * int(n[k]):
                    node.stop, node.ties = "min_gain", ()
                    continue
            node.split = choice
            split_nodes.append((k, node, choice))
        if not split_nodes:
            return node_of_row, [], None
        return self.partition(nodes, split_nodes, T, active, nid, used)

    def partition(self, nodes, split_nodes, T, active, nid, used):
        """Create the children of the split nodes and move each row into its child."""
        t, K = self.t, len(nodes)
        split_of = np.full(K, -1, dtype=np.int64)
        base = np.zeros(K, dtype=np.int64)
        open_next, used_next, remap = [], [], []
        ks = np.array([k for k, _, _ in split_nodes])
        fs = np.array([f for _, _, f in split_nodes])
        child_counts = T[ks, fs].astype(np.int64)            # (S, V, C)
        child_labels = child_counts.argmax(axis=2).tolist()  # first maximum: first class
        child_n = child_counts.sum(axis=2).tolist()
        for s, (k, node, f) in enumerate(split_nodes):
            split_of[k] = f
            base[k] = len(remap)
            u = used[k].copy()
            u[f] = True
            kids = []
            depth = node.depth + 1
            for v in range(int(self.nv[f])):
                child = Node(t, node.path + ((f, v),), depth, child_counts[s, v], parent=node)
                if child_n[s][v]:
                    child.label = child_labels[s][v]
                    remap.append(len(open_next))
                    open_next.append(child)
                    used_next.append(u)
                else:
                    # An empty branch is a record only: no rows reach it.
                    child.stop = "empty"
                    child.label = node.label
                    remap.append(-1)
                kids.append(child)
            node.children = kids
        sf = split_of[nid]
        keep = sf >= 0
        rows = active[keep]
        child = base[nid[keep]] + self.Xt[sf[keep], rows]
        node_of_row = np.full(len(self.y), -1, dtype=np.int64)
        node_of_row[rows] = np.asarray(remap, dtype=np.int64)[child]
        return node_of_row, open_next, np.array(used_next, bool).reshape(len(open_next), self.m)

    # -- exact decisions --
    def exact_parts(self, k, j):
        T = self.level_arrays[0]
        return _exact_parts(T[k, j], int(self.nv[j]), self.nc)

    def exact_gain_choice(self, node, k, cands):
        """Among the candidates the float filter could not separate, min n·H(Y|X) exactly."""
        _, G, B = self.level_arrays[:3]
        best_upper = min(G[k, j] + B[k, j] for j in cands)
        close = [int(j) for j in cands if G[k, j] - B[k, j] <= best_upper]
        T = self.level_arrays[0]
        # Equal coefficient dicts are equal values; only distinct ones need a sign.
        groups: list = []
        for j in close:
            d = _n_cond_coeffs(T[k, j], int(self.nv[j]), self.nc)
            for g in groups:
                if g[0] == d:
                    g[1].append(j)
                    break
            else:
                groups.append((d, [j]))
        best = groups[0]
        best_value = None
        for g in groups[1:]:
            if best_value is None:
                best_value = Exact(0, best[0])
            value = Exact(0, g[0])
            if value < best_value or (value == best_value and g[1][0] < best[1][0]):
                best, best_value = g, value
        winners = best[1]
        node.ties = tuple(winners[1:])
        return winners[0]

    @staticmethod
    def zero_gain(tab) -> bool:
        """IG = 0 exactly iff n·n_xy == n_x·n_y in every cell (integers only)."""
        tab = tab.astype(np.int64)
        nxv = tab.sum(axis=1)
        nyv = tab.sum(axis=0)
        return bool((tab * nxv.sum() == nxv[:, None] * nyv[None, :]).all())

    def best_ratio(self, node, k, cands):
        """First feature (column order) of maximal gain ratio among cands; records ties."""
        _, _, _, nIG, nIGb, nSI, nSIb = self.level_arrays
        iv = {}
        for j in cands:
            si, sib = nSI[k, j], nSIb[k, j]
            if si - sib <= 0:       # cannot happen with two non-empty branches; be safe
                iv[j] = (0.0, math.inf)
                continue
            q = nIG[k, j] / si
            iv[j] = (q, (nIGb[k, j] + abs(q) * sib) / (si - sib) + 4 * _U * abs(q) + 1e-300)
        best_lower = max(q - b for q, b in iv.values())
        close = [int(j) for j in cands if iv[j][0] + iv[j][1] >= best_lower]
        if len(close) == 1:
            node.ties = ()
            return close[0]
        ratios = []
        for j in close:
            _, ig, si = self.exact_parts(k, j)
            ratios.append((Ratio(ig, si), j))
        best_r, best_j = ratios[0]
        for r, j in ratios[1:]:
            if r > best_r:
                best_r, best_j = r, j
        node.ties = tuple(j for r, j in ratios if j != best_j and r == best_r)
        return best_j

    def choose_c45(self, node, k, valid_k):
        p = self.t.params
        T, _, _, nIG, nIGb = self.level_arrays[:5]
        if node.n < 2 * p["min_objects"]:
            node.stop = "too_few"
            return None
        valid = [int(j) for j in np.flatnonzero(valid_k)]
        node.valid = frozenset(valid)
        if not valid:
            node.stop = "no_valid"
            return None
        # Gain at least the average over the features that count towards it, less
        # C4.5's slack (1/1000 bit, Quinlan's Epsilon, kept by J48):
        # kc·nIG_j >= Σ nIG - kc·n·slack, by intervals first, exactly when they overlap.
        avg_set = [j for j in valid if self.in_average[j]]
        if not avg_set:
            node.stop = "no_average"
            return None
        kc = len(avg_set)
        slack = p["average_gain_slack"]
        nk = int(node.n)
        S = float(sum(nIG[k, j] for j in avg_set)) - kc * nk * float(slack)
        Sb = float(sum(nIGb[k, j] for j in avg_set)) * (1 + kc * _U) + (kc + 4) * _U * (abs(S) + kc * nk * float(slack)) + 1e-300
        exact_rhs = None
        ok = []
        for j in valid:
            lhs = kc * nIG[k, j]
            lb = kc * nIGb[k, j] * (1 + 2 * _U) + _U * abs(lhs)
            if lhs - lb > S + Sb:
                ok.append(j)
            elif lhs + lb < S - Sb:
                continue
            else:
                if exact_rhs is None:
                    exact_rhs = sum((self.exact_parts(k, i)[1] for i in avg_set), Exact(0)) - kc * nk * slack
                if self.exact_parts(k, j)[1] * kc >= exact_rhs:
                    ok.append(j)
        node.average_gain_ok = frozenset(ok)
        positive = [j for j in ok if not self.zero_gain(T[k, j])]
        if not positive:
            node.stop = "no_positive_ratio"
            return None
        return self.best_ratio(node, k, positive)


def node_at(data, path, *, criterion="gain", min_objects=2) -> Node:
    """The candidate record of the node reached by ``path`` [(feature, value), ...].

    The node is evaluated on the rows that satisfy every condition, with the
    path's features no longer candidates, whether or not a grown tree would
    reach it.  An error names an unknown feature or value.
    """
    t = Tree(features=data.features, domains=data.domains, classes=data.classes,
             target=data.target, criterion=criterion,
             params=dict(max_depth=len(path) + 1, min_samples_split=1, min_gain=None,
                         stop_at_zero_gain=False, min_objects=min_objects, collapse=False,
                         average_gain_slack=Fraction(1, 1000)))
    coded = []
    mask = np.ones(len(data.y), bool)
    for f, v in path:
        if f not in t._index:
            raise InfotreeError(f"unknown feature {f!r} in the path; features are: {', '.join(t.features)}{_suggest(f, t.features)}")
        j = t._index[f]
        if v not in t._value_index[j]:
            raise InfotreeError(f"unknown value {v!r} of feature {f!r} in the path; values are: {', '.join(t.domains[j])}{_suggest(v, t.domains[j])}")
        if any(j == g for g, _ in coded):
            raise InfotreeError(f"feature {f!r} appears twice in the path; each feature may be fixed once")
        coded.append((j, t._value_index[j][v]))
        mask &= np.asarray(data.X)[:, j] == coded[-1][1]
    rows = np.flatnonzero(mask)
    if rows.size == 0:
        where = ", ".join(f"{f} = {v}" for f, v in path)
        raise InfotreeError(f"no training row has {where}; the node is empty")
    b = _Builder(t, np.asarray(data.X), np.asarray(data.y, dtype=np.int64))
    b.run(rows, coded)
    return t.root


def _suggest(word, choices):
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _collapse(node: Node) -> None:
    """C4.5's collapse: a subtree no better than a leaf on the training rows becomes one."""
    if node.split is None:
        return
    sub = sum(leaf.errors for leaf in node.walk() if leaf.split is None)
    if sub >= node.errors:
        node.collapsed_errors = sub
        node.split = None
        node.children = []
        node.ties = ()
        node.stop = "collapsed"
        return
    for c in node.children:
        _collapse(c)
