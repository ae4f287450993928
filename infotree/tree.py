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

import bisect
import gc
import math
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from .data import exact_number, number_text
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
THRESHOLDS = ("data", "midpoint")
PRUNING = ("none", "pessimistic", "reduced-error")
_U = 2.0 ** -53


# -- records -------------------------------------------------------------------------

class Branch:
    """One value of a candidate feature at a node: n_x, class counts, H(Y|X=x)."""

    __slots__ = ("value", "counts")

    def __init__(self, value: str, counts):
        self.value = value
        self.counts = counts  # tuple of ints (or exact Fractions: C4.5 weights), class order

    @property
    def n(self):
        return sum(self.counts)

    @property
    def entropy(self) -> Exact | None:
        """H(Y|X=x), or None for an empty branch."""
        return entropy(self.counts) if self.n else None


class Candidate:
    """A candidate feature at a node, with its exact measures (computed on demand)."""

    __slots__ = ("feature", "index", "table", "branches", "passes_average_gain", "valid", "unknown",
                 "threshold", "n_cuts", "mdl", "_cache")

    def __init__(self, feature, index, table, values, passes_average_gain=None, valid=True, *,
                 unknown=None, threshold=None, n_cuts=None, mdl=False):
        self.feature = feature
        self.index = index
        #: tuple of per-value class-count tuples (rows = values, columns = classes); the
        #: rows whose value is known (C4.5 with missing values)
        self.table = table
        self.branches = [Branch(v, r) for v, r in zip(values, table)]
        self.passes_average_gain = passes_average_gain
        self.valid = valid
        #: class counts of the rows whose value is missing, or None when there are none
        self.unknown = unknown
        #: numeric feature: the threshold t of the best cut (branches ``<= t`` and ``> t``),
        #: the number of cuts C4.5 evaluated, and whether log2(cuts)/n is subtracted (C4.5)
        self.threshold = threshold
        self.n_cuts = n_cuts
        self.mdl = mdl
        self._cache = {}

    @property
    def n(self):
        """The node's weight: known rows plus rows with a missing value."""
        return sum(map(sum, self.table)) + (sum(self.unknown) if self.unknown else 0)

    @property
    def known_fraction(self) -> Fraction:
        """Share of the node's weight whose value is known (1 without missing values)."""
        n = self.n
        return Fraction(1) if not self.unknown else Fraction(sum(map(sum, self.table))) / n

    @property
    def mdl_penalty(self) -> Exact:
        """C4.5's log2(number of cuts) / n for a numeric feature, else 0."""
        if not self.mdl or not self.n_cuts or self.n_cuts < 2:
            return Exact(0)
        return Exact.log2(self.n_cuts) / Fraction(self.n)

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
        """IG on the known rows × the known fraction, less the MDL term (C4.5 numeric)."""
        def ig():
            g = information_gain_from_table(self.table)
            if self.unknown:
                g = g * self.known_fraction
            return g - self.mdl_penalty if self.mdl else g
        return self._get("ig", ig)

    @property
    def split_info(self) -> Exact:
        """Entropy of the branch weights; the missing values are one more branch (C4.5)."""
        def si():
            rows = self.table + ((self.unknown,) if self.unknown else ())
            return split_information_from_table(rows)
        return self._get("si", si)

    @property
    def gain_ratio(self) -> Ratio | None:
        """IG / SplitInfo, or None when the split information is 0 (undefined)."""
        def gr():
            si = self.split_info
            return Ratio(self.gain, si) if si else None
        return self._get("gr", gr)


# c45_quick's codes for a node that J48's stopping rules make a leaf.
_TOO_FEW, _NO_VALID, _NO_AVERAGE, _NO_POSITIVE = -2, -3, -4, -5
_C45_STOPS = {_TOO_FEW: "too_few", _NO_VALID: "no_valid", _NO_AVERAGE: "no_average",
              _NO_POSITIVE: "no_positive_ratio"}

# Shared by every node without a numeric candidate; read-only, so sharing is safe.
_NO_CUTS = MappingProxyType({})
# Node.considered of an ID3 node: the features not tested on its path (computed when asked).
_OFF_PATH = object()


class Node:
    """A node of the tree and the derivation of its decision.

    Counts only: ``class_counts`` (class order) and, for a node whose candidates
    were examined, the node × feature × value × class count block ``tables``.
    """

    # Slots, not a dict: a large tree has hundreds of thousands of nodes.  The builder's
    # nodes share what they can (the path's steps, a level's block of class counts), so
    # a node costs about one object.
    __slots__ = ("tree", "_path", "step", "depth", "_cc", "_ci", "_n", "_tables", "_considered", "split",
                 "ties", "stop", "label", "children", "parent", "_valid", "_gain_ok",
                 "_candidates", "collapsed_errors", "scale", "cuts", "threshold", "pruned")

    def __init__(self, tree, path, depth, class_counts, parent=None):
        self.tree = tree
        self._path = path           # the whole path, or None: the parent's path and step
        self.step = path[-1] if path else None  # (feature index, value index) of the branch from the parent
        self.depth = depth
        self._cc = class_counts     # the class counts, or the level's block they are a row of
        self._ci = None             # that row, or None
        self._n = None              # the number of rows when known as an int (see n)
        self._tables = None         # int array (features, max values, classes) or None; see tables
        self._considered = None     # bool mask over features: the candidates (see considered)
        self.split = None           # feature index or None
        self.ties = ()              # feature indices tied exactly with the chosen one
        self.stop = None            # why the node is a leaf (a code, see reason)
        self.label = 0              # majority class index (first in class order on a tie)
        self.children = ()          # one Node per value of the split feature's domain (a list)
        self.parent = parent
        self._valid = None          # C4.5: features passing the min_objects test (bits)
        self._gain_ok = None        # C4.5: features with gain >= average (bits)
        self._candidates = None
        self.collapsed_errors = None
        self.scale = 1              # tables hold counts × scale (integers; C4.5 weights)
        self.cuts = _NO_CUTS        # numeric feature -> (rank below, rank above, cuts counted)
        self.threshold = None       # numeric split: children are <= threshold, > threshold
        self.pruned = None          # pruning's record for this node (see infotree.prune)

    @property
    def path(self) -> tuple:
        """((feature index, value index), ...) from the root."""
        steps = []
        node = self
        while node._path is None:
            steps.append(node.step)
            node = node.parent
        return node._path + tuple(reversed(steps)) if steps else node._path

    @path.setter
    def path(self, value):
        self._path = tuple(value)
        self.step = self._path[-1] if self._path else None

    @property
    def class_counts(self):
        """Class counts in class order (an int array; exact Fractions with C4.5 weights)."""
        return self._cc if self._ci is None else self._cc[self._ci]

    @class_counts.setter
    def class_counts(self, value):
        self._cc, self._ci, self._n = value, None, None

    @property
    def considered(self):
        """Bool mask over the features: the candidates examined here (None: not examined)."""
        c = self._considered
        if c is _OFF_PATH:  # ID3: every feature not tested on the path (numeric ones may repeat)
            c = np.ones(len(self.tree.features), bool)
            kinds = self.tree.kinds
            for f, _ in self.path:
                if kinds[f] != "numeric":
                    c[f] = False
        return c

    @considered.setter
    def considered(self, value):
        self._considered = value

    @property
    def valid(self) -> frozenset | None:
        """C4.5: the features with two branches of at least min_objects rows."""
        return _members(self._valid)

    @property
    def average_gain_ok(self) -> frozenset | None:
        """C4.5: the valid features whose gain is at least the average (less the slack)."""
        return _members(self._gain_ok)

    # -- plain facts --
    @property
    def tables(self):
        """The feature × value × class counts of an examined node (None for other nodes).

        A tree grown on plain nominal data keeps none: they are counted again from the
        data when asked, so a large tree's records cost no memory.
        """
        t = self._tables
        if t is None and self._considered is not None and self.tree._recount is not None:
            t = self.tree._recount(self)
        return t

    @tables.setter
    def tables(self, value):
        self._tables = value

    @property
    def n(self):
        """The node's weight: its number of rows (an exact Fraction with C4.5 weights)."""
        n = self._n
        if n is not None:  # the builder's plain counts: known when the node was made
            return n
        c = self.class_counts
        if getattr(c, "dtype", None) == object:
            s = sum(c.tolist(), Fraction(0))
            return int(s) if s.denominator == 1 else s
        return int(np.sum(c))

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
        """(feature, value) per step from the root; a numeric step's value is ``<= t`` or ``> t``."""
        return [(f, v if op == "=" else f"{op} {v}") for f, op, v in self.path_conditions()]

    def path_conditions(self) -> list[tuple[str, str, str]]:
        """(feature, operator, value) per step from the root: ``=``, ``<=`` or ``>``."""
        t = self.tree
        steps = []
        node = self
        while node.parent is not None:
            f, v = node.step
            steps.append((t.features[f], *node.parent.branch_condition(v)))
            node = node.parent
        # A node_at node has a path but no parent: its steps are nominal.
        head = [(t.features[f], "=", t.domains[f][v]) for f, v in node.path]
        return head + steps[::-1]

    def branch_condition(self, v) -> tuple[str, str]:
        """(operator, value text) of this split node's branch v."""
        t = self.tree
        if self.threshold is not None:
            return ("<=" if v == 0 else ">", t.number_text(self.threshold))
        return ("=", t.domains[self.split][v])

    @property
    def split_feature(self) -> str | None:
        return None if self.split is None else self.tree.features[self.split]

    @property
    def label_name(self) -> str:
        return self.tree.classes[self.label]

    @property
    def errors(self):
        """Training errors (weight) of this node as a leaf."""
        c = self.class_counts
        if self._n is not None:
            return self._n - int(c.max()) if self._n else 0
        if getattr(c, "dtype", None) != object:
            return int(c.sum() - c.max()) if len(c) else 0
        n = self.n
        if not n:
            return 0
        e = n - max(self.class_counts.tolist())
        return int(e) if getattr(e, "denominator", 1) == 1 else e

    def candidates(self) -> list[Candidate]:
        """The candidate table: one record per feature considered at this node."""
        if self._candidates is None:
            out = []
            tables = self.tables  # once: a tree that keeps none counts them again
            if tables is not None:
                # A numeric feature with no admissible cut here is no candidate.
                out = [c for c in (self._candidate(j, tables) for j in np.flatnonzero(self.considered).tolist()
                                   if self.tree.kinds[j] != "numeric" or j in self.cuts)
                       if any(map(any, c.table))]  # a feature missing in every row here: nothing to measure
            self._candidates = out
        return self._candidates

    def _candidate(self, j, tables) -> Candidate:
        t = self.tree
        nc = len(t.classes)
        d = self.scale
        exact = d != 1 or tables.dtype == object

        def row(r):
            return tuple(Fraction(int(c), d) if exact else int(c) for c in r[:nc])

        numeric = t.kinds[j] == "numeric"
        threshold = n_cuts = None
        if numeric:
            cut = self.cuts.get(j)
            if cut is None:  # no admissible cut: nothing to show but the feature
                values, nv = (), 0
            else:
                threshold, n_cuts = t.threshold_between(j, cut[0], cut[1]), cut[2]
                text = t.number_text(threshold)
                values, nv = (f"<= {text}", f"> {text}"), 2
        else:
            values, nv = t.domains[j], len(t.domains[j])
        table = tuple(row(tables[j, v]) for v in range(nv))
        unknown = None
        if t.missing_slot:
            u = row(tables[j, -1])
            unknown = u if any(u) else None
        passes = None if self._gain_ok is None else bool(self._gain_ok >> j & 1)
        valid = True if self._valid is None else bool(self._valid >> j & 1)
        return Candidate(t.features[j], j, table, values, passes, valid, unknown=unknown,
                         threshold=threshold, n_cuts=n_cuts, mdl=numeric and t.criterion == "gain_ratio")

    def forget(self) -> None:
        """Drop the cached candidate records (they are rebuilt from the counts on demand)."""
        self._candidates = None

    @property
    def chosen(self) -> Candidate | None:
        """The candidate record of the split feature alone, or None for a leaf."""
        if self.split is None:
            return None
        if self._candidates is not None:
            return self.candidate(self.split)
        tables = self.tables
        return None if tables is None else self._candidate(self.split, tables)

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
                what = f"{what}; tied exactly with {others}, broken by column order (first feature wins)"
            return what + self._pruning_note()
        if self.stop == "pruned":
            return self._pruning_note()[2:]
        return _STOPS[self.stop].format(node=self, tree=t)

    def _pruning_note(self) -> str:
        """What pruning decided here, with its numbers ("" when pruning did not look at the node)."""
        r = self.pruned
        if not r:
            return ""
        if "validation_leaf" in r:
            verb = "pruned" if r["action"] == "leaf" else "kept"
            cmp = "<=" if r["action"] == "leaf" else ">"
            return (f"; {verb} (reduced-error): validation errors as a leaf {r['validation_leaf']} {cmp} "
                    f"{r['validation_subtree']} of the subtree (validation weight {r['validation_weight']})")
        est = (f"estimated errors (CF = {r['confidence']:g}, estimates): leaf {r['leaf']:.4f}, subtree "
               f"{r['subtree']:.4f}, largest branch ({' '.join(r['largest'])}) {r['largest_branch']:.4f}")
        raised = r.get("after_raising") or (r if r["action"] == "raised" else None)
        before = ""
        if raised:
            before = (f"; subtree raised (C4.5): its largest branch ({' '.join(raised['largest'])}, estimated "
                      f"{raised['largest_branch']:.4f} against the subtree's {raised['subtree']:.4f}) replaced it, "
                      f"with all of this node's rows sent down again")
            if r is raised:
                return before
        if r["action"] == "leaf":
            return f"{before}; pruned (C4.5): {est}; a leaf is within 0.1 of both"
        return f"{before}; kept by pruning (C4.5): {est}"

    def describe_path(self) -> str:
        """``outlook = sunny, humidity <= 75``, or ``root``."""
        return ", ".join(f"{f} {op} {v}" for f, op, v in self.path_conditions()) or "root"

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

    def __init__(self, *, features, domains, classes, target, criterion, params, kinds=None, numbers=None):
        self.features = tuple(features)
        self.domains = tuple(tuple(d) for d in domains)
        #: "nominal" or "numeric" per feature; a numeric feature's sorted distinct values
        self.kinds = tuple(kinds) if kinds is not None else ("nominal",) * len(self.features)
        self.numbers = tuple(numbers) if numbers is not None else (None,) * len(self.features)
        self.missing_slot = False  # the count tables end with a slot for missing values
        self.classes = tuple(classes)
        self.target = target
        self.criterion = criterion
        self.params = dict(params)
        self.root: Node | None = None
        self._recount = None  # counts a node's tables from the data (plain nominal builds)
        self._index = {f: i for i, f in enumerate(self.features)}
        self._value_index = [{v: i for i, v in enumerate(d)} for d in self.domains]

    def threshold_between(self, j, lo, hi) -> Fraction:
        """The threshold of a cut between ranks lo and hi of numeric feature j.

        ``"midpoint"``: (v_lo + v_hi)/2; ``"data"`` (C4.5, J48's setSplitPoint): the
        largest training value at most that midpoint.
        """
        vals = self.numbers[j]
        mid = (vals[lo] + vals[hi]) / 2
        if self.params.get("threshold") == "midpoint":
            return mid
        return vals[bisect.bisect_right(vals, mid) - 1]

    @staticmethod
    def number_text(q: Fraction) -> str:
        """A threshold in the exact grammar: a decimal when it terminates, else p/q."""
        return number_text(q)

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
        """Rows (dicts by feature name, sequences in feature order, or a Dataset) as codes.

        A nominal value becomes its index (-1: unseen, with ``unseen="majority"``), a
        numeric one an exact Fraction; a missing value (``?``, empty, None) of a C4.5
        tree becomes None.
        """
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
            out.append([self._code(j, v, unseen, f"row {i + 1}") for j, v in enumerate(vals)])
        return out

    def _code(self, j, v, unseen, where):
        if self.kinds[j] == "numeric":
            try:
                x = exact_number(v)
            except InfotreeError as e:
                raise InfotreeError(f"{where}, numeric feature {self.features[j]!r}: {e}") from None
            return self._missing(j, "?" if v is None else str(v).strip(), where) if x is None else x
        s = "?" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v).strip()
        c = self._value_index[j].get(s)
        if c is None:
            if s in _MISSING and self.criterion == "gain_ratio":
                return None
            c = self._unseen(j, s, unseen, where)
        return c

    def _missing(self, j, s, where):
        if self.criterion == "gain_ratio":
            return None
        raise InfotreeError(f"{where}: feature {self.features[j]!r} is missing ({s!r}); only a C4.5 (gain_ratio) "
                            f"tree can predict with missing values")

    def _unseen(self, j, value, unseen, where):
        if unseen == "majority":
            return -1
        allowed = ", ".join(self.domains[j])
        raise InfotreeError(f"{where}: value {value!r} of feature {self.features[j]!r} was not seen in training; "
                            f"allowed: {allowed} (or unseen='majority')")

    def _codes_from_dataset(self, data, unseen):
        cols = []
        n = len(data.y)
        kinds = getattr(data, "kinds", ("nominal",) * len(data.features))
        for j, f in enumerate(self.features):
            if f not in data.features:
                raise InfotreeError(f"data has no column {f!r}; the tree needs: {', '.join(self.features)}")
            k = data.features.index(f)
            x = data.X[:, k]

            def where(i):
                if getattr(data, "lines", None) is not None and data.source:
                    return f"{data.source} line {int(data.lines[i])}"
                return f"row {i + 1}"

            if self.kinds[j] == "numeric" or kinds[k] == "numeric":
                col = []
                for i, c in enumerate(x.tolist()):
                    if c < 0:
                        col.append(self._missing(j, "?", where(i)))
                    elif kinds[k] == "numeric" and self.kinds[j] == "numeric":
                        col.append(data.numbers[k][c])
                    else:
                        col.append(self._code(j, data.domains[k][c], unseen, where(i)))
                cols.append(col)
                continue
            mapping = np.array([self._value_index[j].get(v, -2) for v in data.domains[k]] + [-3], dtype=np.int64)
            col = mapping[x]
            bad = np.flatnonzero(col == -2)
            if bad.size:
                i = int(bad[0])
                self._unseen(j, data.domains[k][int(x[i])], unseen, where(i))
                col[col == -2] = -1
            if (col == -3).any():
                i = int(np.flatnonzero(col == -3)[0])
                self._missing(j, "?", where(i))
            cols.append([None if c == -3 else c for c in col.tolist()])
        return [list(r) for r in zip(*cols)] if cols else [[] for _ in range(n)]

    def _child(self, node, c):
        """The child a code goes to, None for a missing value, -1 for an unseen one."""
        if c is None or (not isinstance(c, Fraction) and c < 0):
            return c
        if node.threshold is not None:
            return node.children[0 if c <= node.threshold else 1]
        return node.children[c]

    def _proba(self, node, codes, weight=Fraction(1)):
        """Exact class probabilities × weight; a missing value combines the branches (J48)."""
        while node.split is not None:
            child = self._child(node, codes[node.split])
            if child is None:  # C4.5: every branch, weighted by its share of the node
                total = Fraction(node.n)
                out = [Fraction(0)] * len(self.classes)
                for ch in node.children:
                    if ch.n:
                        for i, p in enumerate(self._proba(ch, codes, weight * Fraction(ch.n) / total)):
                            out[i] += p
                return out
            if child == -1:
                break
            node = child
        while node.n == 0 and node.parent is not None:  # an empty leaf: its parent's frequencies
            node = node.parent
        n = Fraction(node.n)
        return [weight * Fraction(c) / n for c in node.class_counts.tolist()]

    def predict(self, rows, *, unseen="error") -> list[str]:
        """One class label per row; ``unseen="majority"`` sends unseen values to the node's majority."""
        out = []
        for c in self._codes(rows, unseen):
            p = self._proba(self.root, c)
            out.append(self.classes[p.index(max(p))])  # first maximum: first class
        return out

    def predict_proba(self, rows, *, unseen="error") -> list[dict[str, Fraction]]:
        """Exact class frequencies of the leaf each row reaches (an empty leaf: its parent's);
        with a missing value (C4.5), the branches' frequencies weighted by their shares."""
        return [dict(zip(self.classes, self._proba(self.root, c))) for c in self._codes(rows, unseen)]

    def explain(self, row, *, unseen="error") -> list[str]:
        """The path one row takes, one line per decision, ending with the prediction."""
        codes = self._codes([row], unseen)[0]
        node, lines = self.root, []
        while node.split is not None:
            c = codes[node.split]
            f = self.features[node.split]
            child = self._child(node, c)
            if child is None:
                lines.append(f"{f} is missing: every branch, weighted by its share of this node's rows")
                break
            if child == -1:
                lines.append(f"{f} has a value not seen in training: predict the majority here")
                break
            op, v = node.branch_condition(node.children.index(child))
            lines.append(f"{f} {op} {v} (split on {f}: {node.reason})")
            node = child
        if node.split is not None and lines[-1].endswith("share of this node's rows"):
            p = self._proba(node, codes)
            label = self.classes[p.index(max(p))]
            dist = ", ".join(f"{k} {q}" for k, q in zip(self.classes, p))
            lines.append(f"predict {label} (combined class probabilities: {dist})")
            return lines
        counts = ", ".join(f"{k} {v}" for k, v in zip(self.classes, node.class_counts.tolist()))
        lines.append(f"predict {node.label_name} (leaf: n = {node.n}; {counts})")
        return lines


_MISSING = ("?", "")


# -- building ---------------------------------------------------------------------------

def _xlog2x_table(n: int) -> np.ndarray:
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[2:] = k[2:] * np.log2(k[2:])
    return out


def _class_sum(b):
    """b.sum(axis=-1) of counts (…, classes), as one addition per class when classes are few."""
    nc = b.shape[-1]
    if nc > 8 or nc < 2 or b.dtype == object:
        return b.sum(axis=-1)
    out = b[..., 0] + b[..., 1]
    for c in range(2, nc):
        out += b[..., c]
    return out


def _bits(mask) -> int:
    """A boolean array as an int whose bit j is mask[j]."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def _row_bits(mask) -> list:
    """_bits of every row of a 2-d boolean array."""
    packed = np.packbits(mask, axis=1, bitorder="little")
    if packed.shape[1] <= 8:  # up to 64 features: one little-endian uint64 per row
        wide = np.zeros((len(packed), 8), np.uint8)
        wide[:, :packed.shape[1]] = packed
        return wide.view("<u8").ravel().tolist()
    return [int.from_bytes(r.tobytes(), "little") for r in packed]


def _members(bits: int | None) -> frozenset | None:
    return None if bits is None else frozenset(j for j in range(bits.bit_length()) if bits >> j & 1)


def _majority(counts) -> int:
    return int(np.argmax(counts))  # first maximum: first class in class order


def build_tree(data, *, criterion="gain", max_depth=None, min_samples_split=2, min_gain=None,
               stop_at_zero_gain=False, min_objects=2, collapse=None, average_gain_slack=Fraction(1, 1000),
               threshold=None, prune="none", confidence=Fraction(1, 4), validation=None) -> Tree:
    """Grow a tree on a :class:`~infotree.data.Dataset`.

    ``criterion``: ``"gain"`` (ID3), ``"gain_ratio"`` (C4.5) or ``"gain_ratio_plain"``.
    ``collapse`` defaults to True for ``gain_ratio`` and False otherwise.
    ``average_gain_slack`` (``gain_ratio`` only): a feature passes the average-gain
    filter when its gain is at least the average minus this many bits; C4.5 and J48
    use 1/1000, ``0`` gives the textbook rule.
    ``threshold`` (numeric features): ``"data"``, the largest training value at most
    the midpoint of the best cut (C4.5 and J48; the default for ``gain_ratio``), or
    ``"midpoint"`` (lecture notes; the default otherwise).
    Missing values (code ``-1``) are accepted by ``gain_ratio`` only, with C4.5's
    fractional weights (exact Fractions).
    ``prune``: ``"none"`` (default), ``"pessimistic"`` (C4.5's error-based pruning with
    confidence factor ``confidence`` and subtree raising, as J48) or ``"reduced-error"``
    (on the ``validation`` Dataset); see :mod:`infotree.prune`.
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
        min_gain = _rational(min_gain, "min_gain", "0.01 or '1/100'")
    if collapse is None:
        collapse = criterion == "gain_ratio"
    average_gain_slack = _rational(average_gain_slack, "average_gain_slack", "1/1000")
    if threshold is None:
        threshold = "data" if criterion == "gain_ratio" else "midpoint"
    if threshold not in THRESHOLDS:
        raise InfotreeError(f"threshold {threshold!r} is not allowed; allowed: {', '.join(THRESHOLDS)}")
    if prune not in PRUNING:
        raise InfotreeError(f"prune {prune!r} is not allowed; allowed: {', '.join(PRUNING)}")
    confidence = _rational(confidence, "confidence", "0.25")
    X = np.asarray(data.X)
    if X.size and X.min() < 0 and criterion != "gain_ratio":
        j = int(np.flatnonzero((X < 0).any(axis=0))[0])
        raise InfotreeError(f"feature {data.features[j]!r} has missing values; criterion {criterion!r} does not "
                            f"accept them (allowed: criterion 'gain_ratio', which weights them as C4.5 does, "
                            f"or reading '?' as a value)")
    y = np.asarray(data.y, dtype=np.int64)
    n_rows, m = X.shape if X.ndim == 2 else (len(y), 0)
    if n_rows == 0:
        raise InfotreeError("the data has no rows; a tree needs at least one training row")
    params = dict(max_depth=max_depth, min_samples_split=min_samples_split, min_gain=min_gain,
                  stop_at_zero_gain=stop_at_zero_gain, min_objects=min_objects, collapse=collapse,
                  average_gain_slack=average_gain_slack, threshold=threshold, prune=prune)
    if prune == "pessimistic":
        params["confidence"] = confidence
    tree = Tree(features=data.features, domains=data.domains, classes=data.classes,
                target=data.target, criterion=criterion, params=params,
                kinds=getattr(data, "kinds", None), numbers=getattr(data, "numbers", None))
    _Builder(tree, X, y).run()
    if collapse:
        _collapse(tree.root)
    if prune != "none":
        from .prune import prune_tree

        prune_tree(tree, data, method=prune, confidence=confidence, validation=validation)
    return tree


def _rational(x, name, example):
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError):
        raise InfotreeError(f"{name} {x!r} is not a number; give a rational such as {example}") from None


@lru_cache(maxsize=1 << 16)
def _xlogx_terms(m: int) -> tuple:
    """m·log2(m) as ((p, m·e_p), ...): integer coefficients on log2 of primes."""
    return tuple((p, m * e) for p, e in _factor_int(m))


def _xlogx_acc(acc: dict, m: int, sign: int) -> None:
    """acc += sign·m·log2(m) as integer prime coefficients (2 is the constant)."""
    if m > 1:
        for p, c in _xlogx_terms(m):
            acc[p] = acc.get(p, 0) + sign * c


def _n_cond_coeffs(rows) -> dict:
    """n·H(Y|X) of one feature's table (rows of class counts, as lists) as
    {prime: integer coefficient}, zeros dropped."""
    acc: dict = {}
    for r in rows:
        _xlogx_acc(acc, sum(r), 1)
        for c in r:
            _xlogx_acc(acc, c, -1)
    return {p: c for p, c in acc.items() if c}


def _exact_parts(block, nv, nc, unknown=None, mdl=None):
    """(n·H(Y|X), n·IG, n·SplitInfo) of one feature's (scaled integer) table, exactly.

    n is the node's (scaled) weight: the known rows plus ``unknown``, the class counts
    of the rows whose value is missing (C4.5: IG is taken on the known rows and
    multiplied by the known fraction, which makes n·IG the known rows' own n·IG; the
    unknown rows are one more branch of the split information).  ``mdl`` = (scale,
    number of cuts) subtracts C4.5's scale·log2(cuts) from n·IG (numeric features).
    """
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
    for c in (sum(col) for col in zip(*rows)):
        _xlogx_acc(top, c, -1)
    if unknown is not None:
        u = int(sum(unknown.tolist()))
        _xlogx_acc(si, u, -1)
        n += u
    _xlogx_acc(si, n, 1)
    n_cond = Exact(0, cond)
    n_ig = Exact(0, top) - n_cond
    if mdl is not None and mdl[1] > 1:
        n_ig = n_ig - Exact.log2(mdl[1]) * mdl[0]
    return n_cond, n_ig, Exact(0, si)


def _xlog2x(a) -> np.ndarray:
    """x·log2(x) of an array of non-negative integers (any size), in float64."""
    a = np.asarray(a, dtype=np.float64)
    out = np.zeros_like(a)
    big = a > 1
    out[big] = a[big] * np.log2(a[big])
    return out


# Cells of one count block (nodes × features × values × classes): 8 MB of int32, and
# the float arrays computed from it a few times that.  Larger blocks were no faster
# (2^21 took 16-19 s CPU where 2^23 took 30-33 s on synthetic 10^5 rows, depth 8: the
# block then stays in cache) and cost 200 MiB at their peak instead of 67.
_LEVEL_CELLS = 1 << 21

# Weighted counts (C4.5's missing values) are integers times a node's common
# denominator.  The float filter takes a·log2(a) of them: beyond 2^1000 it would
# overflow, and the exact path would have to factor numbers of hundreds of digits.
_WEIGHT_BITS = 1000


class _Recount:
    """A node's tables counted again from the data, for trees that keep none.

    Only for nominal data without missing values or weights, where a node's rows are
    the rows of its parent with the branch's value.  Printing walks the tree depth
    first, so the rows of the last path asked for are kept and only the new steps
    are filtered.
    """

    def __init__(self, X, y, rows, nv, width, nc):
        self.X, self.y, self.rows = X, y, rows
        self.nv, self.width, self.nc = [int(v) for v in nv], width, nc
        self.chain: list = []   # [(node, its rows)] from the root

    def __call__(self, node):
        path = []
        while node is not None:
            path.append(node)
            node = node.parent
        path.reverse()
        i = 0
        while i < min(len(path), len(self.chain)) and self.chain[i][0] is path[i]:
            i += 1
        chain = self.chain[:i] or [(path[0], self.rows)]
        rows = chain[-1][1]
        for nd in path[len(chain):]:
            f, v = nd.step
            rows = rows[self.X[rows, f] == v]
            chain.append((nd, rows))
        self.chain = chain
        nc = self.nc
        ya = self.y[rows]
        T = np.zeros((len(self.nv), self.width, nc), dtype=np.int32)
        for j, V in enumerate(self.nv):
            T[j, :V] = np.bincount(self.X[rows, j] * nc + ya, minlength=V * nc).reshape(V, nc)
        return T


class _Builder:
    """Grows a tree level by level; see the module docstring for the rules.

    The cases of a level are three parallel arrays: the row, the index of its open
    node, and (only once C4.5 has sent a row with a missing value down several
    branches) its exact weight.  A node's counts are scaled by the least common
    multiple of its weights' denominators, so every table is made of integers and the
    exact arithmetic is the integer one; measures are ratios, unchanged by the scale.
    """

    def __init__(self, tree: Tree, X, y):
        self.t = tree
        # Feature-major, one column per bincount; codes fit int32 (half the memory of int64).
        # A Dataset's codes are column-major already: this is a view, not a copy.
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int32)
        self.y = y
        self.nc = len(tree.classes)
        self.m = len(tree.features)
        self.numeric = np.array([k == "numeric" for k in tree.kinds], dtype=bool)
        self.nv = np.array([len(d) for d in tree.domains], dtype=np.int64)
        self.slots = np.where(self.numeric, 2, self.nv)   # a numeric split has two branches
        self.is_numeric, self.n_slots = self.numeric.tolist(), self.slots.tolist()  # for per-node loops
        self.vmax = int(self.slots.max()) if self.m else 1
        self.has_missing = bool(X.size and X.min() < 0)
        tree.missing_slot = self.has_missing
        # Missing values get one more slot, after the values: the unknown branch.
        self.width = self.vmax + (1 if self.has_missing else 0)
        self.F = _xlog2x_table(len(y))
        self.ones = np.ones(self.width * self.nc)
        self.all_features = np.ones(self.m, bool)
        # C4.5's many-values rule: which features count towards the average gain.
        many = (self.nv >= 0.3 * len(y)) & ~self.numeric
        self.in_average = np.ones(self.m, bool) if many.all() else ~many
        self.c45 = tree.criterion == "gain_ratio"
        slack = tree.params.get("average_gain_slack", 0)
        # The float filter's; exact where open.  A slack beyond floats is ±inf: every test open.
        self.slack = float(slack) if abs(slack) < 2 ** 1000 else math.inf if slack > 0 else -math.inf
        # Plain nominal data (no numeric cuts, missing values or pruning): nodes keep no
        # tables, they are counted again when asked for; the max_depth level is not counted.
        self.X = X
        # The steps (feature, value) of the nodes' paths, one shared tuple each.
        self.steps = [[(j, v) for v in range(int(s))] for j, s in enumerate(self.slots)]
        self.lazy = not (self.has_missing or self.numeric.any() or tree.params.get("prune", "none") != "none")

    def run(self, rows=None, path=()):
        t, y = self.t, self.y
        rows = np.arange(len(y), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        if self.lazy:
            t._recount = _Recount(self.X, y, rows, self.nv, self.width, self.nc)
        counts = np.bincount(y[rows], minlength=self.nc).astype(np.int64)
        root = Node(t, tuple(path), len(path), counts)
        root.label = _majority(counts)
        t.root = root
        open_nodes = [root]
        used = np.zeros((1, self.m), bool)
        for f, _ in path:
            used[0, f] = True
        cases = (rows, np.zeros(len(rows), dtype=np.int64), None)
        # The build only adds live objects (nodes, their lists and paths); the cyclic
        # collector would walk all of them again and again and free nothing.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            # The float filters divide by zero split information and overflow beyond
            # floats on purpose (such entries are left to the exact path): no warnings.
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                while open_nodes:
                    cases, open_nodes, used = self.level(open_nodes, cases, used)
        finally:
            if was_enabled:
                gc.enable()

    # -- counting --
    def scaled_weights(self, K, nid, cw, depth):
        """Per node, the lcm D of its weights' denominators; each case's weight times D (integers)."""
        dens: dict = {}
        for k, w in zip(nid.tolist(), cw.tolist()):
            if w.denominator != 1:
                dens.setdefault(k, set()).add(w.denominator)
        scale = [math.lcm(*dens[k]) if k in dens else 1 for k in range(K)]
        sw = [w.numerator * (scale[k] // w.denominator) for k, w in zip(nid.tolist(), cw.tolist())]
        whole = sum(sw)
        total = max(scale) * (whole + 1)
        if whole.bit_length() > _WEIGHT_BITS:  # the largest count a node can hold
            # A missing value splits a weight by the branch's share of the known weight,
            # whose denominator is the node's own: the digits about double every level.
            raise InfotreeError(
                f"C4.5's exact weights for missing values outgrew this build at depth {depth}: a node's "
                f"weights need a common denominator of {len(str(max(scale)))} digits (about twice as many "
                f"each level); limit the depth (max_depth, --max-depth {max(depth - 1, 1)}) or read missing "
                "values as a value (on_missing='value', --missing-as-value)")
        if total < 2 ** 53:  # float sums of integers below 2**53 are exact
            return scale, np.asarray(sw, dtype=np.float64)
        out = np.empty(len(sw), dtype=object)
        out[:] = sw
        return scale, out

    def _bincount(self, idx, size, sw):
        if sw is None:
            return np.bincount(idx, minlength=size)
        if sw.dtype == object:
            out = np.zeros(size, dtype=object)
            np.add.at(out, idx, sw)
            return out
        return np.rint(np.bincount(idx, weights=sw, minlength=size)).astype(np.int64)

    def counts(self, K, cases, depth):
        """node × feature × value × class counts of one level, one bincount per feature.

        Numeric features are counted by value rank, then reduced to their best cut
        (two rows); the last slot holds the rows whose value is missing.  Also returns
        the float sums the filter needs, per node and feature: Σ_x F(n_x) and
        Σ_x Σ_y F(n_xy) over the known values (F(a) = a·log2 a), the number of
        non-empty branches and (C4.5) of branches with at least min_objects.  They are
        made feature by feature, while the feature's counts are in cache, not in
        passes over the whole block.
        """
        rows, nid, cw = cases
        nc, m, W = self.nc, self.m, self.width
        ya = self.y[rows]
        if cw is None:
            scale, sw = [1] * K, None
            dtype = np.int32
        else:
            scale, sw = self.scaled_weights(K, nid, cw, depth)
            dtype = object if sw.dtype == object else np.int64
        F = self.F.take if sw is None else _xlog2x
        CC = self._bincount(nid * nc + ya, K * nc, sw).reshape(K, nc)
        # Every cell is written below (numeric features and short domains zero theirs).
        T = np.zeros((K, m, W, nc), dtype=dtype) if dtype == object else np.empty((K, m, W, nc), dtype=dtype)
        Fnx = np.empty((K, m))
        Fnxy = np.empty((K, m))
        nonempty = np.empty((K, m))
        big = np.empty((K, m)) if self.c45 else None
        if self.c45:  # min_objects in the node's scaled units
            mo = self.t.params["min_objects"]
            need = mo if sw is None else np.array([mo * s for s in scale], dtype=dtype)[:, None]
        ones = self.ones
        self.cuts = {}
        n_cases = np.bincount(nid, minlength=K)
        offsets = {}  # node and class part of the bincount index, per number of slots
        for j in range(m):
            V = int(self.nv[j])
            x = self.Xt[j].take(rows)  # a 1-d gather: three times faster than Xt[j, rows]
            V1 = V
            if self.has_missing:
                x = np.where(x < 0, V, x)
                V1 = V + 1
            off = offsets.get(V1)
            if off is None:
                off = offsets[V1] = nid * (V1 * nc) + ya
            b = self._bincount(off + x * nc, K * V1 * nc, sw).reshape(K, V1, nc)
            if self.numeric[j]:
                known_cases = np.bincount(nid[x < V], minlength=K) if self.has_missing else n_cases
                T[:, j] = 0  # nodes without an admissible cut keep zeros
                self.cut_numeric(j, b[:, :V], T, scale, known_cases)
                known = T[:, j, :2]
            else:
                T[:, j, :V] = known = b[:, :V]
                if V < W:
                    T[:, j, V:] = 0
            if self.has_missing:
                T[:, j, W - 1] = b[:, V]
            nx = _class_sum(known)
            # Row sums as matrix-vector products: numpy's reduction over a short last
            # axis costs six times more (the counts are exact in float64).
            Vj = nx.shape[1]
            Fnx[:, j] = F(nx) @ ones[:Vj]
            Fnxy[:, j] = F(known).reshape(K, -1) @ ones[:Vj * nc]
            nonempty[:, j] = (nx > 0) @ ones[:Vj]
            if big is not None:
                big[:, j] = (nx >= need) @ ones[:Vj]
        return T, CC, scale, Fnx, Fnxy, nonempty, big

    def cut_numeric(self, j, b, T, scale, known_cases):
        """The best binary cut of numeric feature j at every node (into T[:, j, :2]).

        Cuts lie between adjacent distinct values present at the node.  C4.5 (J48's
        C45Split) counts only cuts that leave at least minSplit = 0.1·known weight /
        classes (between min_objects and 25) on each side, needs 2·minSplit known
        rows, and takes the first cut of maximal gain; ties are decided exactly.
        """
        K, V, nc = b.shape
        p = self.t.params
        cum = b.cumsum(axis=1)
        tot = cum[:, -1, :]
        nL = cum.sum(axis=2)
        nK = nL[:, -1]
        present = b.sum(axis=2) > 0
        cand = present & (nL < nK[:, None])
        if self.c45:
            mo = p["min_objects"]
            for k in range(K):
                d = scale[k]
                known = Fraction(int(nK[k]), d)
                ms = Fraction(known, 10 * nc)
                ms = mo if ms <= mo else (25 if ms > 25 else ms)
                if int(known_cases[k]) < 2 * ms:   # J48 counts cases here, not weight
                    cand[k] = False
                    continue
                need = ms * d
                total = int(nK[k])
                cand[k] &= np.array([x >= need and total - x >= need for x in nL[k].tolist()], dtype=bool)
        ncuts = cand.sum(axis=1)
        F = _xlog2x
        Lf = cum.astype(np.float64)
        Rf = tot.astype(np.float64)[:, None, :] - Lf
        nLf = Lf.sum(axis=2)
        nRf = nK.astype(np.float64)[:, None] - nLf
        parts = F(nLf) + F(Lf).sum(axis=2) + F(nRf) + F(Rf).sum(axis=2)
        Gc = F(nLf) - F(Lf).sum(axis=2) + F(nRf) - F(Rf).sum(axis=2)   # n·H(Y|cut)
        Bc = (16 + 4 * nc) * 4 * _U * parts + 1e-300
        Gc = np.where(cand, Gc, np.inf)
        info = self.cuts.setdefault(j, {})
        for k in np.flatnonzero(ncuts).tolist():
            best = int(np.argmin(Gc[k]))
            close = np.flatnonzero(cand[k] & (Gc[k] - Bc[k] <= Gc[k, best] + Bc[k, best])).tolist()
            if len(close) > 1:
                best_value = None
                for r in close:  # ascending: the first of equal values stays
                    tab = np.stack([cum[k, r], tot[k] - cum[k, r]])
                    value = Exact(0, _n_cond_coeffs(tab.tolist()))
                    if best_value is None or value < best_value:
                        best, best_value = r, value
            hi = best + 1 + int(np.argmax(present[k, best + 1:]))
            T[k, j, 0] = cum[k, best]
            T[k, j, 1] = tot[k] - cum[k, best]
            info[k] = (best, hi, int(ncuts[k]))

    # -- one level --
    def level(self, nodes, cases, used):
        """One depth: decide every open node, return the next depth's cases, nodes, used.

        The count block has K × features × values × classes cells however few rows
        the K nodes hold; above _LEVEL_CELLS the nodes are taken in consecutive groups,
        so memory stays bounded and the result is the same, in the same order.  A
        group's cases keep their order, ascending by row (not sorted by node): the
        gathers of a feature's column then sweep it, where in node order they jumped
        and took eight times longer at 10^5 rows.
        """
        K = len(nodes)
        per = max(1, _LEVEL_CELLS // (self.m * self.width * self.nc))
        if K <= per:
            return self.level_part(nodes, cases, used)
        rows, nid, cw = cases
        out_rows, out_nid, out_w, out_nodes, out_used = [], [], [], [], []
        for k0 in range(0, K, per):
            sel = np.flatnonzero((nid >= k0) & (nid < k0 + per))
            part = (rows[sel], nid[sel] - k0, None if cw is None else cw[sel])
            nxt, kids, u = self.level_part(nodes[k0:k0 + per], part, used[k0:k0 + per])
            if kids:
                out_rows.append(nxt[0])
                out_nid.append(nxt[1] + len(out_nodes))
                out_w.append(nxt[2])
                out_nodes += kids
                out_used.append(u)
        if not out_nodes:
            return None, [], None
        w = None
        if any(x is not None for x in out_w):  # some group split a missing value: weights for all
            w = np.concatenate([np.full(len(r), Fraction(1), dtype=object) if x is None else x
                                for r, x in zip(out_rows, out_w)])
        rows, nid = np.concatenate(out_rows), np.concatenate(out_nid)
        if len(out_rows) > 1:  # one ascending run per group: ascending again for the next level
            order = np.argsort(rows, kind="stable")
            rows, nid, w = rows[order], nid[order], None if w is None else w[order]
        return (rows, nid, w), out_nodes, np.concatenate(out_used)

    def level_part(self, nodes, cases, used):
        t, nc, m, p = self.t, self.nc, self.m, self.t.params
        K = len(nodes)
        at_max_depth = p["max_depth"] is not None and nodes[0].depth >= p["max_depth"]
        if at_max_depth and self.lazy:
            # Leaves whatever their measures; their tables are counted when printed.
            considered = self.all_features if t.criterion == "gain_ratio" else None
            for k, node in enumerate(nodes):
                if np.count_nonzero(node.class_counts) <= 1:
                    node.stop = "pure"
                    continue
                node.stop = "max_depth"
                node.considered = considered if considered is not None else _OFF_PATH
            return None, [], None
        T, CC, scale, Fnx, Fnxy, nonempty, big = self.counts(K, cases, nodes[0].depth)
        if at_max_depth:
            # Every open node of a level has the same depth: at max_depth all are leaves,
            # whatever their measures.  Their counts are kept for the derivation (the
            # measures are computed when printed), nothing else is computed.
            pure = (CC > 0).sum(axis=1) <= 1
            considered = self.all_features if t.criterion == "gain_ratio" else None
            for k, node in enumerate(nodes):
                node.scale = scale[k]
                if pure[k]:
                    node.stop = "pure"
                    continue
                node.stop = "max_depth"
                node.tables = T[k]  # a view: the level's block stays alive, nothing is copied
                node.considered = considered if considered is not None else _OFF_PATH
                if self.cuts:
                    node.cuts = {j: info[k] for j, info in self.cuts.items() if k in info}
            return None, [], None
        V, W = self.vmax, self.width
        weighted = T.dtype != np.int32
        F = _xlog2x if weighted else self.F.take
        Tk = T[:, :, :V, :] if self.has_missing else T
        n = CC.sum(axis=1)
        G = Fnx - Fnxy                                       # n·H(Y|X), float
        # Each F entry is within 4 units of roundoff of m·log2(m); each sum adds one.
        B = (12 + self.vmax * (nc + 1)) * 4 * _U * (Fnx + Fnxy) + 1e-300
        crit = t.criterion
        if crit == "gain":  # ID3 orders n·H(Y|X) alone: no float gains or split information
            nIG = nIGb = nSI = nSIb = None
        elif self.has_missing:
            Fn = F(n)
            Ck = Tk.sum(axis=2)                              # known class counts per feature
            Fk = F(Ck.sum(axis=2))
            Fyk = F(Ck).sum(axis=2)
            nIG = Fk - Fyk - G
            nIGb = B + (nc + 8) * 4 * _U * (Fk + Fyk)
            Fu = F(T[:, :, W - 1, :].sum(axis=2))
        else:
            Fn = F(n)
            Fy = F(CC).sum(axis=1)
            nIG = (Fn - Fy)[:, None] - G
            nIGb = B + (nc + 8) * 4 * _U * (Fn + Fy)[:, None]
            Fu = 0.0
        if self.c45 and self.numeric.any():
            mdl = np.zeros((K, m))
            for j, info in self.cuts.items():
                for k, (_, _, c) in info.items():
                    mdl[k, j] = scale[k] * math.log2(c)
            nIG = nIG - mdl
            nIGb = nIGb + 4 * _U * mdl
        if crit != "gain":
            nSI = Fn[:, None] - Fnx - Fu
            nSIb = (self.vmax + 8) * 4 * _U * (Fn[:, None] + Fnx + Fu) + 1e-300
        eligible = (nonempty >= 2) & ~used                   # unused and separating
        pure = (CC > 0).sum(axis=1) <= 1
        self.level_arrays = (T, G, B, nIG, nIGb, nSI, nSIb)
        self.scale = scale

        if crit == "gain":
            # Only nodes that are not pure (a pure node is a leaf before any choice).
            live = np.flatnonzero(~pure)
            el, Bl = eligible[live], B[live]
            Ge = np.where(el, G[live], np.inf)
            upper = Ge + Bl
            lower = Ge - Bl
            least = upper.min(axis=1)[:, None]
            amb = ((lower <= least) & el).sum(axis=1)
            q = np.where(amb == 1, upper.argmin(axis=1), -1)
            self.quick_ties = {}
            perfect = None  # per node (weighted counts only)
            # Rows of live the filter left open (usually few): the rest of the work is theirs.
            o = np.flatnonzero((q < 0) & el.any(axis=1))
            if o.size:
                # A feature whose every branch is pure has H(Y|X) = 0 exactly, the
                # least possible: ties among such features need no arithmetic at all.
                # n·H(Y|X) of integer counts is 0 or at least 2 (a branch with classes 1
                # and 1; any other impure branch adds more), so a float value within its
                # bound B < 1 of 0 is exactly 0.
                Bo = Bl[o]
                perfect_o = el[o] & (Ge[o] <= Bo) & (Bo < 1)
                if weighted:
                    perfect = np.zeros((K, m), bool)
                    perfect[live[o]] = perfect_o
                else:
                    has = perfect_o.any(axis=1)
                    for i, row in zip(o[has].tolist(), perfect_o[has].tolist()):
                        js = [j for j, b in enumerate(row) if b]
                        q[i], self.quick_ties[int(live[i])] = js[0], tuple(js[1:])
                    rest = o[~has]
                    if rest.size:
                        close = np.zeros(el.shape, bool)
                        close[rest] = el[rest] & (lower[rest] <= least[rest])
                        self.alike_ties(close, q, impure_only=True, nodes=live)
            quick = np.full(K, -1, dtype=np.int64)
            quick[live] = q
        if crit == "gain_ratio":
            valid = big >= 2
            if self.numeric.any():
                ok = np.zeros((K, m), bool)
                for j, info in self.cuts.items():
                    for k in info:
                        ok[k, j] = self.positive_numeric_gain(k, j)
                valid = np.where(self.numeric[None, :], ok, valid)
            # J48 examines only these nodes: a pure node is a leaf first, and (plain
            # counts) one with fewer than 2·min_objects rows is too_few.  The level's
            # filters work on their rows alone (row_of[k]: node k's row, -1 for others).
            look = ~pure if weighted else ~pure & (n >= 2 * p["min_objects"])
            live = np.flatnonzero(look)
            row_of = np.full(K, -1, dtype=np.int64)
            row_of[live] = np.arange(len(live))
            valid_s = valid[live]
            pre = self.c45_filter(n[live], valid_s, nIG[live], nIGb[live])
            quick = np.full(K, -1 if weighted else _TOO_FEW, dtype=np.int64)
            quick[live] = self.c45_quick(n[live], valid_s, pre, weighted, live)
            if (quick[live] != -1).any():
                valid_bits, ok_bits = _row_bits(valid_s), _row_bits(pre[2])
            row_l = row_of.tolist()
        stop_depth = p["max_depth"]

        # Python values for the loop: numpy scalars cost a conversion at every use.
        pure_l, n_l = pure.tolist(), n.tolist()
        considered = self.all_features if crit == "gain_ratio" else _OFF_PATH
        mss, lazy, cuts = p["min_samples_split"], self.lazy, self.cuts
        if crit == "gain_ratio":
            quick_l, quick_ties = quick.tolist(), self.quick_ties
        else:
            no_features, separating = used.all(axis=1).tolist(), eligible.any(axis=1).tolist()
            if crit == "gain":
                quick_l, quick_ties = quick.tolist(), self.quick_ties
        split_nodes = []
        for k, node in enumerate(nodes):
            node.scale = scale[k]
            if pure_l[k]:
                node.stop = "pure"
                continue
            if not lazy:
                node.tables = T[k]  # a view: the level's block stays alive, nothing is copied
            if cuts:
                node.cuts = {j: info[k] for j, info in cuts.items() if k in info}
            node.considered = considered
            if stop_depth is not None and node.depth >= stop_depth:
                node.stop = "max_depth"
                continue
            if n_l[k] < mss * scale[k]:
                node.stop = "min_samples_split"
                continue
            if crit == "gain_ratio":
                choice = quick_l[k]
                if choice >= 0:  # decided by the level's float intervals (c45_quick)
                    i = row_l[k]
                    node._valid, node._gain_ok = valid_bits[i], ok_bits[i]
                    if quick_ties:
                        node.ties = quick_ties.get(k, ())
                elif choice == -1:
                    choice = self.choose_c45(node, k, row_l[k], valid[k], int(n[k]), pre)
                else:  # one of J48's stopping rules, found for the whole level
                    node.stop = _C45_STOPS[choice]
                    if choice != _TOO_FEW:
                        node._valid = valid_bits[row_l[k]]
                    if choice == _NO_POSITIVE:
                        node._gain_ok = ok_bits[row_l[k]]
                    continue
            elif no_features[k]:
                node.stop = "no_features"
                continue
            elif not separating[k]:
                node.stop = "no_separation"
                continue
            elif crit == "gain":
                choice = quick_l[k]
                if choice < 0:
                    best = () if perfect is None else np.flatnonzero(perfect[k])
                    if len(best):
                        choice, node.ties = int(best[0]), tuple(best[1:].tolist())
                    else:
                        choice = self.exact_gain_choice(node, k, np.flatnonzero(eligible[k]))
                elif quick_ties:  # ties found for the whole level (alike_ties)
                    node.ties = quick_ties.get(k, ())
            else:
                choice = self.best_ratio(node, k, np.flatnonzero(eligible[k]))
            if choice is None:
                continue
            if p["stop_at_zero_gain"] and self.zero_gain(Tk[k, choice]):
                node.stop, node.ties = "zero_gain", ()
                continue
            if p["min_gain"] is not None:
                n_ig = self.exact_parts(k, choice)[1]
                if n_ig < p["min_gain"] * int(n[k]):
                    node.stop, node.ties = "min_gain", ()
                    continue
            node.split = choice
            if self.is_numeric[choice]:
                lo, hi, _ = node.cuts[choice]
                node.threshold = t.threshold_between(choice, lo, hi)
            split_nodes.append((k, node, choice))
        if not split_nodes:
            return None, [], None
        return self.partition(nodes, split_nodes, T, cases, used, scale)

    def partition(self, nodes, split_nodes, T, cases, used, scale):
        """Create the children of the split nodes and move each case into its child.

        A case whose value of the split feature is missing goes down every branch,
        its weight multiplied by the branch's share of the known weight (C4.5).
        """
        t, K = self.t, len(nodes)
        rows, nid, cw = cases
        W = self.width
        split_of = np.full(K, -1, dtype=np.int64)
        lo_of = np.full(K, -1, dtype=np.int64)
        base = np.zeros(K, dtype=np.int64)
        open_next, used_next, remap = [], [], []
        shares = {}
        plain = T.dtype == np.int32  # integer counts, no fractions: labels and sizes in bulk
        if plain:
            ks = np.array([k for k, _, _ in split_nodes])
            fs = np.array([f for _, _, f in split_nodes])
            child_counts = T[ks, fs].astype(np.int64)            # (S, slots, C)
            child_labels = child_counts.argmax(axis=2).tolist()  # first maximum: first class
            child_n = child_counts.sum(axis=2).tolist()
            # One block for the level: a child's class counts are its row (no array each).
            block = child_counts.reshape(-1, self.nc)
        for s_i, (k, node, f) in enumerate(split_nodes):
            split_of[k] = f
            base[k] = len(remap)
            u = used[k]
            if not self.is_numeric[f]:
                u = u.copy()
                u[f] = True
            else:
                lo_of[k] = node.cuts[f][0]
            kids = []
            depth = node.depth + 1
            nb = self.n_slots[f]
            known = T[k, f, :nb]
            if self.has_missing and np.any(T[k, f, W - 1]):
                d = scale[k]
                kw = [int(x) for x in known.sum(axis=1).tolist()]
                tot = sum(kw)
                shares[k] = [Fraction(x, tot) for x in kw]
                unknown = [int(c) for c in T[k, f, W - 1].tolist()]
                counts_of = [np.array([Fraction(int(c), d) + Fraction(u_, d) * s for c, u_ in zip(row.tolist(), unknown)],
                                      dtype=object) for row, s in zip(known, shares[k])]
            elif not plain:
                d = scale[k]
                counts_of = [np.array([Fraction(int(c), d) for c in row.tolist()], dtype=object) for row in known]
            else:
                counts_of = None  # rows of the level's block
            steps = self.steps[f]
            for v in range(nb):
                if counts_of is None:
                    child = Node(t, None, depth, block, parent=node)
                    child._ci = s_i * W + v
                    child._n = size = child_n[s_i][v]
                else:
                    child = Node(t, None, depth, counts_of[v], parent=node)
                    size = child.n
                child.step = steps[v]
                if size:
                    child.label = child_labels[s_i][v] if counts_of is None else _majority(counts_of[v])
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
        rows, nid = rows[keep], nid[keep]
        sf = sf[keep]
        val = self.Xt.ravel().take(sf * self.Xt.shape[1] + rows)  # one 1-d gather
        remap = np.asarray(remap, dtype=np.int64)
        if not self.has_missing and not self.numeric.any():  # nominal, complete: one gather
            return ((rows, remap[base[nid] + val], None), open_next,
                    np.array(used_next, bool).reshape(len(open_next), self.m))
        num = self.numeric[sf]
        if num.any():
            val = np.where(num & (val >= 0), (val > lo_of[nid]).astype(np.int64), val)
        w = None if cw is None else cw[keep]
        miss = val < 0
        known_ix = np.flatnonzero(~miss)
        child = remap[base[nid[known_ix]] + val[known_ix]]
        new_rows, new_nid = [rows[known_ix]], [child]
        new_w = None if w is None else [w[known_ix]]
        if miss.any():
            mrows, mnid = rows[miss], nid[miss]
            mw = [Fraction(1)] * len(mrows) if w is None else w[miss].tolist()
            r_out, n_out, w_out = [], [], []
            for r, k, wt in zip(mrows.tolist(), mnid.tolist(), mw):
                for v, s in enumerate(shares[k]):
                    c = int(remap[base[k] + v])
                    if s and c >= 0:
                        r_out.append(r)
                        n_out.append(c)
                        w_out.append(wt * s)
            new_rows.append(np.asarray(r_out, dtype=np.int64))
            new_nid.append(np.asarray(n_out, dtype=np.int64))
            if new_w is None:
                ones = np.empty(len(known_ix), dtype=object)
                ones[:] = [Fraction(1)] * len(known_ix)
                new_w = [ones]
            wa = np.empty(len(w_out), dtype=object)
            wa[:] = w_out
            new_w.append(wa)
        cases = (np.concatenate(new_rows), np.concatenate(new_nid),
                 None if new_w is None else np.concatenate(new_w))
        return cases, open_next, np.array(used_next, bool).reshape(len(open_next), self.m)

    # -- exact decisions --
    def exact_parts(self, k, j):
        T = self.level_arrays[0]
        unknown = T[k, j, self.width - 1] if self.has_missing else None
        mdl = None
        if self.c45 and self.numeric[j]:
            mdl = (self.scale[k], self.cuts[j][k][2])
        return _exact_parts(T[k, j], int(self.slots[j]), self.nc, unknown, mdl)

    def positive_numeric_gain(self, k, j) -> bool:
        """C4.5 keeps a numeric feature only if its gain, less the MDL term, is positive."""
        nIG, nIGb = self.level_arrays[3:5]
        if nIG[k, j] - nIGb[k, j] > 0:
            return True
        if nIG[k, j] + nIGb[k, j] < 0:
            return False
        return self.exact_parts(k, j)[1] > 0

    def exact_gain_choice(self, node, k, cands):
        """Among the candidates the float filter could not separate, min n·H(Y|X) exactly."""
        T, G, B = self.level_arrays[:3]
        g, b = G[k, cands], B[k, cands]
        close = cands[g - b <= (g + b).min()].tolist()
        # n·H(Y|X) is a sum over branches of F(n_x) - Σ_y F(n_xy), which depends on the
        # branch's class counts as a multiset and is 0 for a pure branch.  Features with
        # the same impure branches are equal without arithmetic (on connect-4, all the
        # close candidates of 96% of these nodes); only distinct ones are factored.
        keyed: dict = {}
        for j in close:
            rows = T[k, j, :self.n_slots[j]].tolist()
            key = tuple(sorted(tuple(sorted(r)) for r in rows if len(r) - r.count(0) > 1))
            keyed.setdefault(key, []).append(j)
        groups: list = []
        for key, js in keyed.items():
            d = _n_cond_coeffs(key) if len(keyed) > 1 else None
            for grp in groups:
                if grp[0] == d:
                    grp[1].extend(js)
                    break
            else:
                groups.append((d, js))
        best = groups[0]
        best_value = None
        for grp in groups[1:]:
            if best_value is None:
                best_value = Exact(0, best[0])
            value = Exact(0, grp[0])
            if value < best_value or (value == best_value and min(grp[1]) < min(best[1])):
                best, best_value = grp, value
        winners = sorted(best[1])
        node.ties = tuple(winners[1:])
        return winners[0]

    @staticmethod
    def zero_gain(tab) -> bool:
        """IG = 0 exactly iff n·n_xy == n_x·n_y in every cell (integers only)."""
        tab = tab.astype(object) if tab.dtype == object else tab.astype(np.int64)
        nxv = tab.sum(axis=1)
        nyv = tab.sum(axis=0)
        return bool((tab * nxv.sum() == nxv[:, None] * nyv[None, :]).all())

    def best_ratio(self, node, k, cands):
        """First feature (column order) of maximal gain ratio among cands; records ties."""
        _, _, _, nIG, nIGb, nSI, nSIb = self.level_arrays
        c = np.asarray(cands, dtype=np.int64)
        si, sib, igb = nSI[k, c], nSIb[k, c], nIGb[k, c]
        sure = si - sib > 0    # cannot fail with two non-empty branches; be safe
        q = np.where(sure, nIG[k, c] / si, 0.0)   # (run() silences the division by 0)
        qb = np.where(sure, (igb + np.abs(q) * sib) / (si - sib) + 4 * _U * np.abs(q) + 1e-300, np.inf)
        close = c[q + qb >= (q - qb).max()].tolist()
        if len(close) == 1:
            node.ties = ()
            return close[0]
        # n·IG and n·SI depend on the branches' class counts as a multiset (each row's
        # classes in any order: the node's class totals are fixed), on the unknown
        # branch and on the MDL term: candidates alike in these are equal without
        # arithmetic (on connect-4, most close candidates are such exact ties).
        T = self.level_arrays[0]
        alike: dict = {}
        for j in close:
            key = tuple(sorted(tuple(sorted(r)) for r in T[k, j, :self.n_slots[j]].tolist() if any(r)))
            if self.has_missing:
                key = (key, tuple(T[k, j, self.width - 1].tolist()))
            if self.c45 and self.is_numeric[j]:
                key = (key, self.cuts[j][k][2])
            alike.setdefault(key, []).append(j)
        if len(alike) == 1:
            node.ties = tuple(close[1:])
            return close[0]
        # Equal (n·IG, n·SI) pairs are equal ratios: one comparison per distinct pair.
        groups: dict = {}
        for js in alike.values():
            _, ig, si = self.exact_parts(k, js[0])
            groups.setdefault((ig, si), []).extend(js)
        groups = {key: sorted(js) for key, js in sorted(groups.items(), key=lambda g: min(g[1]))}
        pairs = iter(groups.items())
        (ig, si), best = next(pairs)
        best_r, tied = Ratio(ig, si), []
        for (ig, si), js in pairs:   # by first column: the first of equal ratios stays
            r = Ratio(ig, si)
            c = r.compare(best_r)
            if c > 0:
                best, best_r, tied = js, r, []
            elif c == 0:
                tied += js
        node.ties = tuple(sorted(best[1:] + tied))
        return best[0]

    def c45_filter(self, n, valid, nIG, nIGb):
        """J48's average-gain test by float intervals at every node of a level.

        Per node and feature: passes for sure, fails for sure, or is left open for the
        exact test (interval overlap).  Also which gains are positive for sure.
        """
        slack = self.slack
        nk = np.asarray(n, dtype=np.float64)
        avg = valid & self.in_average
        kc = avg.sum(axis=1)
        # Beyond floats the sums are inf or nan, every comparison is False: all open.
        S = np.where(avg, nIG, 0.0).sum(axis=1) - kc * nk * slack
        Sb = (np.where(avg, nIGb, 0.0).sum(axis=1) * (1 + kc * _U)
              + (kc + 4) * _U * (np.abs(S) + kc * nk * slack) + 1e-300)
        lhs = kc[:, None] * nIG
        lb = kc[:, None] * nIGb * (1 + 2 * _U) + _U * np.abs(lhs)
        ok_sure = valid & (lhs - lb > (S + Sb)[:, None])
        ok_open = valid & ~ok_sure & ~(lhs + lb < (S - Sb)[:, None])
        # Numeric features in the valid set already have a positive gain (after the MDL term).
        positive = self.numeric | (nIG - nIGb > 0)
        return avg, kc, ok_sure, ok_open, positive

    def c45_quick(self, n, valid, pre, weighted, live):
        """J48's choice at every node of a level that float intervals decide alone.

        Per node: the winning feature; a negative code (``_C45_STOPS``) for a leaf by
        one of J48's stopping rules; or -1 where :meth:`choose_c45` must look (weighted
        counts, an average-gain test the intervals leave open, a gain that may be 0, or
        gain ratios too close to order).  Where a feature is
        returned, every test on the way has the same outcome as the exact one: the
        average-gain test is sure for every valid feature, the gain of every feature
        that passes it is surely positive, and the winner's gain-ratio interval lies
        above every other candidate's.
        """
        K = len(n)
        self.quick_ties = {}
        if weighted:  # scaled counts, Fractions: node by node
            return np.full(K, -1, dtype=np.int64)
        avg, kc, ok_sure, ok_open, positive = pre
        T = self.level_arrays[0]
        nIG, nIGb, nSI, nSIb = (self.level_arrays[i][live] for i in (3, 4, 5, 6))
        # Only nodes that reach the test: in choose_c45's order, no valid feature, no
        # average and an open average test come first.
        reach = (kc > 0) & ~ok_open.any(axis=1)
        maybe_zero = ok_sure & ~positive & reach[:, None]
        if maybe_zero.any():
            # IG = 0 exactly iff n·n_xy = n_x·n_y in every cell: integers (int64 holds
            # the products of int32 counts), for these few pairs at once.
            ks, js = np.nonzero(maybe_zero)
            tab = T[live[ks], js, :self.vmax].astype(np.int64)
            nx, ny = tab.sum(axis=2), tab.sum(axis=1)
            zero = (tab * nx.sum(axis=1)[:, None, None] == nx[:, :, None] * ny[:, None, :]).all(axis=(1, 2))
            positive = positive.copy()
            positive[ks, js] = ~zero
        cand = ok_sure & positive & reach[:, None]
        fine = cand.any(axis=1)
        # best_ratio's intervals, for every node and feature at once.
        sure = cand & (nSI - nSIb > 0)
        q = np.where(sure, nIG / np.where(sure, nSI, 1.0), 0.0)
        qb = np.where(sure, (nIGb + np.abs(q) * nSIb) / (nSI - nSIb) + 4 * _U * np.abs(q) + 1e-300, np.inf)
        low = np.where(cand, q - qb, -np.inf).max(axis=1)
        close = cand & (q + qb >= low[:, None])
        n_close = close.sum(axis=1)
        one = fine & (n_close == 1)
        out = np.where(one, close.argmax(axis=1), -1)
        many = fine & (n_close > 1)
        if many.any():
            # best_ratio's key: n·IG and n·SI depend on the rows as a multiset.
            self.alike_ties(close & many[:, None], out, impure_only=False, nodes=live)
        # J48's stopping rules, in choose_c45's order.
        out[reach & ~fine] = _NO_POSITIVE
        out[kc == 0] = _NO_AVERAGE
        out[~valid.any(axis=1)] = _NO_VALID
        return out

    def alike_ties(self, close, out, *, impure_only, nodes=None):
        """Exact ties found for a whole level without arithmetic (plain nominal counts).

        ``close`` marks, per node, the candidates the float filter cannot order.  Where
        all of a node's close candidates have alike branches (each row's classes
        sorted, the rows as a multiset: the keys of best_ratio and exact_gain_choice;
        ``impure_only``: pure rows left out, as they add nothing to n·H(Y|X)), they are
        exactly equal: ``out[i]`` becomes the first and ``self.quick_ties[k]`` the rest,
        where row i of ``close`` is node ``k = nodes[i]`` (all the level's nodes when
        ``nodes`` is None).  The padding rows of a short domain are zeros for every
        feature, so comparing all rows compares the multisets.
        """
        if self.numeric.any() or self.has_missing:  # cuts and unknown branches: per node
            return
        T = self.level_arrays[0]
        ks, js = np.nonzero(close)
        tab = T[ks if nodes is None else nodes[ks], js]
        if impure_only:
            tab = np.where(((tab > 0).sum(axis=2) > 1)[:, :, None], tab, 0)
        tab = np.sort(tab, axis=2)
        rows = np.ascontiguousarray(tab).view(np.dtype((np.void, tab.shape[2] * tab.itemsize)))
        key = np.sort(rows.reshape(len(ks), -1), axis=1).view(np.uint8).reshape(len(ks), -1)
        head_of = ks.searchsorted(ks)  # each pair's node's first pair (ks ascending)
        heads = np.flatnonzero(head_of == np.arange(len(ks)))
        alike = np.logical_and.reduceat((key == key[head_of]).all(axis=1), heads).tolist()
        js_l, ks_l, heads = js.tolist(), ks.tolist(), heads.tolist()
        node_l = ks_l if nodes is None else nodes[ks].tolist()
        ties = self.quick_ties
        for h, e, same in zip(heads, heads[1:] + [len(ks_l)], alike):
            if same:
                out[ks_l[h]] = js_l[h]
                ties[node_l[h]] = tuple(js_l[h + 1:e])

    def choose_c45(self, node, k, i, valid_k, nk, pre):
        """J48's choice at node k; ``nk`` is its (scaled) weight, ``i`` its row of ``pre``."""
        p = self.t.params
        avg, kc, ok_sure, ok_open, sure_positive = pre
        if nk < 2 * p["min_objects"] * self.scale[k]:
            node.stop = "too_few"
            return None
        # Feature sets as bit masks: a frozenset of 40 features took 1 KB a node.
        node._valid = _bits(valid_k)
        if not node._valid:
            node.stop = "no_valid"
            return None
        # Gain at least the average over the features that count towards it, less
        # C4.5's slack (1/1000 bit, Quinlan's Epsilon, kept by J48):
        # kc·nIG_j >= Σ nIG - kc·n·slack, by intervals first, exactly when they overlap.
        kc = int(kc[i])
        if not kc:
            node.stop = "no_average"
            return None
        ok = ok_sure[i]
        unsure = np.flatnonzero(ok_open[i]).tolist()
        if unsure:
            ok = ok.copy()
            n_ig = {j: self.exact_parts(k, j)[1] for j in np.flatnonzero(avg[i]).tolist()}
            rhs = sum(n_ig.values(), Exact(0)) - kc * nk * p["average_gain_slack"]
            for j in unsure:
                ok[j] = (n_ig[j] if j in n_ig else self.exact_parts(k, j)[1]) * kc >= rhs
        node._gain_ok = _bits(ok)
        ok = np.flatnonzero(ok).tolist()
        T, V = self.level_arrays[0], self.vmax
        sure = sure_positive[i]
        positive = [j for j in ok if sure[j] or not self.zero_gain(T[k, j, :V])]
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


def _collapse(root: Node) -> None:
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
            node.split = None
            node.threshold = None
            node.children = []
            node.ties = ()
            node.stop = "collapsed"
        else:
            stack.extend(node.children)
