"""A node of a grown tree: its counts, its split test and the records of its decision.

A node keeps counts only: ``class_counts`` (class order) and, for a node whose
candidates were examined, either the level-wise builder's feature × value × class
count block ``tables`` (the candidate records are made from it when asked for) or
the reference builder's candidate records themselves.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from itertools import repeat
from operator import attrgetter

import numpy as np

from .data import number_text
from .errors import InfotreeError
from .exact import Exact
from .measures import entropy
from .records import Candidate
from .splits import MofNSplit, NominalSplit, ThresholdSplit, condition_words

__all__ = ["Node"]


class _NoCuts(dict):
    """Shared by every node without a numeric candidate: never written (a node with cuts gets
    a dict of its own), and pickled by name, so a loaded tree's nodes share it again."""

    __slots__ = ()

    def __reduce__(self):
        return "_NO_CUTS"


class _OffPath:
    """Node.considered of an ID3 node: the features not tested on its path (computed when
    asked).  Pickled by name: nodes compare it by identity."""

    __slots__ = ()

    def __reduce__(self):
        return "_OFF_PATH"


_NO_CUTS = _NoCuts()
_LINKS = ("tree", "parent", "_kids")
_OFF_PATH = _OffPath()


def _members(bits: int | None) -> frozenset | None:
    return None if bits is None else frozenset(j for j in range(bits.bit_length()) if bits >> j & 1)


class _Rare:
    """A node's fields that most nodes leave at their defaults, in one object made for the
    node that sets one of them: a node is 20 slots, 192 bytes, where these as slots of their
    own made it 256 (a forest's 287,000 nodes: 17 MiB)."""

    __slots__ = ("_valid", "_gain_ok", "_candidates", "collapsed_errors", "scale", "cuts", "pruned", "mofn")

    def __init__(self):
        for name, default in _RARE.items():
            setattr(self, name, default)

    def __getstate__(self):
        return tuple(getattr(self, name) for name in _RARE)

    def __setstate__(self, state):
        for name, value in zip(_RARE, state):
            setattr(self, name, value)


# Each rare field and its default: a node reads the default until a value is set.
_RARE = {
    "_valid": None,             # C4.5: features passing the min_objects test (bits)
    "_gain_ok": None,           # C4.5: features with gain >= average (bits)
    "_candidates": None,        # the candidate records, once made
    "collapsed_errors": None,   # C4.5's collapse: the subtree's training errors
    "scale": 1,                 # tables hold counts × scale (integers; C4.5 weights)
    "cuts": _NO_CUTS,           # numeric feature -> (rank below, rank above, cuts counted)
    "pruned": None,             # pruning's record for this node (infotree.records)
    "mofn": None,               # m_of_n trees: the M-of-N search at this node (infotree.mofn.MofNSearch)
}


def _rare_field(name, default):
    slot = getattr(_Rare, name)  # the member descriptor: no attribute lookup by name a read

    def get(node):
        r = node._rare
        return default if r is None else slot.__get__(r)

    def put(node, value):
        r = node._rare
        if r is None:
            if value is default or (default == 1 and type(value) is not bool and value == 1):
                return  # nothing to keep (a level's scale of 1, as a numpy integer too)
            r = node._rare = _Rare()
        slot.__set__(r, value)

    return property(get, put)


class Node:
    """A node of the tree and the derivation of its decision.

    Counts only: ``class_counts`` (class order) and, for a node whose candidates
    were examined, the node × feature × value × class count block ``tables``.
    """

    # Slots, not a dict: a large tree has hundreds of thousands of nodes.  The builder's
    # nodes share what they can (the path's steps, a level's block of class counts), so
    # a node costs about one object.
    __slots__ = ("tree", "_path", "step", "depth", "_cc", "_ci", "_n", "_tables", "_considered", "test",
                 "ties", "stop", "label", "_kids", "parent", "_records", "_surrogates", "majority",
                 "levels", "_rare")

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
        self.test = None            # the split (infotree.splits), or None for a leaf
        self.ties = ()              # feature indices tied exactly with the chosen one
        self.stop = None            # why the node is a leaf (a code, see reason)
        self.label = 0              # majority class index (first in class order on a tie)
        self._kids = ()             # the children (see children), or the row they are made from
        self.parent = parent
        self._records = None        # the CART builder's depth's candidate data (the node's row: _ci): records made when asked
        self._surrogates = ()       # CART: surrogate splits (infotree.records.Surrogate), best first
        self.majority = None        # CART: the primary's majority direction (0, 1) or None on a tie
        self.levels = None          # a subset split's levels its rows had (rpart's routing), or None
        self._rare = None           # a _Rare once one of its fields is set (see there)

    # the rare fields (_Rare), read and set as attributes
    _valid = _rare_field("_valid", _RARE["_valid"])
    _gain_ok = _rare_field("_gain_ok", _RARE["_gain_ok"])
    _candidates = _rare_field("_candidates", _RARE["_candidates"])
    collapsed_errors = _rare_field("collapsed_errors", _RARE["collapsed_errors"])
    scale = _rare_field("scale", _RARE["scale"])
    cuts = _rare_field("cuts", _RARE["cuts"])
    pruned = _rare_field("pruned", _RARE["pruned"])
    mofn = _rare_field("mofn", _RARE["mofn"])

    @property
    def surrogates(self) -> tuple:
        """CART: the surrogate splits (:class:`infotree.records.Surrogate`), best first."""
        s = self._surrogates
        if type(s) is not tuple:  # the CART builder's depth data: they are made from row _ci
            s = self._surrogates = s.records(self._ci)
        return s

    @surrogates.setter
    def surrogates(self, value):
        self._surrogates = value

    @property
    def children(self):
        """One Node per branch of the split (a list); () for a leaf.  A fast-built CART tree
        makes them when first read, from its builder's arrays (:mod:`infotree.grow.packed`)."""
        k = self._kids
        if type(k) is int:  # this node's row in its depth's decisions
            k = self._kids = self.tree._lazy.children(self, k)
        return k

    @children.setter
    def children(self, value):
        self._kids = value

    @property
    def split(self) -> int | None:
        """The split feature's index, or None for a leaf."""
        return None if self.test is None else self.test.feature

    @property
    def m_of_n(self) -> bool:
        """Whether the split is an M-of-N test: it reads a whole row, its branches name no one feature."""
        return isinstance(self.test, MofNSplit)

    @property
    def threshold(self):
        """A numeric split's threshold (children ``<= t``, ``> t``), else None."""
        return getattr(self.test, "threshold", None)

    def make_leaf(self, stop) -> None:
        """Drop the split and the children (pruning, collapse)."""
        self.test = None
        self.children = []
        self.ties = ()
        self.stop = stop
        self.surrogates, self.majority = (), None
        self.levels = None  # a subset split's levels (rpart's routing) go with it

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
        if c is not None and self.tree.draw is not None:  # a forest's node sees its drawn features only
            c = c & self.tree.draw(self)
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
        if self.tree.criterion.regression:  # (n, Σy, Σy²)
            return c[0]
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

    @property
    def impurity(self):
        """The criterion's impurity of this node (CART: Gini, entropy or misclassification), None when empty."""
        return self.tree.criterion.impurity(self.class_counts.tolist()) if self.n else None

    def path_names(self) -> list[tuple[str, str]]:
        """(feature, value) per step from the root; a numeric step's value is ``<= t`` or ``> t``;
        an M-of-N step is ``(None, "at least 2 of {...}")``."""
        return [(f, v if op == "=" else f"{op} {v}") for f, op, v in self.path_conditions()]

    def path_conditions(self) -> list[tuple[str, str, str]]:
        """(feature, operator, value) per step from the root: ``=``, ``<=`` or ``>``; below an
        M-of-N test ``(None, "at least" or "fewer than", "2 of {a = x, b = y}")``."""
        t = self.tree
        steps = []
        node = self
        while node.parent is not None:
            f, v = node.step
            # an M-of-N branch names no one feature: (None, "at least", "2 of {...}")
            steps.append((None if node.parent.m_of_n else t.features[f], *node.parent.branch_condition(v)))
            node = node.parent
        # A node_at node has a path but no parent: the tree keeps its steps' tests.
        head = [(t.features[f], *test.condition(v)) for (f, v), test in zip(node.path, t.path_tests)]
        return head + steps[::-1]

    def branch_condition(self, v) -> tuple[str, str]:
        """(operator, value text) of this split node's branch v."""
        return self.test.condition(v)

    @property
    def split_feature(self) -> str | None:
        """The split feature's name; an M-of-N node's test, ``2 of {a = x, b = y}``; None for a leaf."""
        if self.split is None:
            return None
        return self.test.text if self.m_of_n else self.tree.features[self.split]

    @property
    def label_name(self) -> str:
        """The prediction as text: the majority class, or (regression) the mean, exact."""
        if self.tree.criterion.regression:
            return number_text(self.mean) if self.n else "?"
        return self.tree.classes[self.label]

    @property
    def mean(self):
        """Regression: the mean ȳ of the node's rows, an exact Fraction (None when empty)."""
        n, s, _ = self.class_counts.tolist()
        return Fraction(s) / n if n else None

    @property
    def risk(self):
        """R(t) as rpart's cp counts it: the misclassified weight, or (regression) the SSE."""
        return self.tree.criterion.risk(self.class_counts.tolist()) if self.n else 0

    @property
    def errors(self):
        """Training errors (weight) of this node as a leaf (regression: its SSE)."""
        if self.tree.criterion.regression:
            return self.risk
        c = self.class_counts  # the rows not of the predicted class (rpart's losses may predict another)
        if self._n is not None:
            return self._n - int(c[self.label]) if self._n else 0
        if getattr(c, "dtype", None) != object:
            return int(c.sum() - c[self.label]) if len(c) else 0
        n = self.n
        if not n:
            return 0
        e = n - self.class_counts.tolist()[self.label]
        return int(e) if getattr(e, "denominator", 1) == 1 else e

    def candidates(self) -> list[Candidate]:
        """The candidate table: one record per feature considered at this node."""
        if self._candidates is None and self._records is not None:  # the CART builder's depth (row _ci) or Regrow
            self._candidates = self._records.records_of(self)
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
                values, nv = ThresholdSplit(j, threshold).labels, 2
        else:
            values, nv = NominalSplit(j, t.domains[j]).labels, len(t.domains[j])
        table = tuple(row(tables[j, v]) for v in range(nv))
        unknown = None
        if t.missing_slot:
            u = row(tables[j, -1])
            unknown = u if any(u) else None
        passes = None if self._gain_ok is None else bool(self._gain_ok >> j & 1)
        valid = True if self._valid is None else bool(self._valid >> j & 1)
        return Candidate(t.features[j], j, table, values, passes, valid, unknown=unknown,
                         threshold=threshold, n_cuts=n_cuts, mdl=numeric and t.criterion.mdl)

    def forget(self) -> None:
        """Drop the cached candidate records when they can be rebuilt from the counts."""
        if self._tables is not None or self._records is not None or self.tree._recount is not None:
            self._candidates = None

    @property
    def chosen(self) -> Candidate | None:
        """The candidate record of the split feature alone, or None for a leaf."""
        if self.split is None:
            return None
        if self.mofn is not None:  # the grown test's record: its two branches
            return self.mofn.best.candidate
        if self._records is not None:
            self.candidates()
        if self._candidates is not None:  # a loaded model's node keeps none: None
            return next((c for c in self._candidates if c.index == self.split), None)
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
        from .printers.reasons import reason

        return reason(self)

    def _repr_html_(self):
        """Jupyter: this node's derivation."""
        from .printers.html import show

        return show(self)._repr_html_()

    def describe_path(self) -> str:
        """``outlook = sunny, humidity <= 75``, or ``root``."""
        return ", ".join(condition_words(f, op, v) for f, op, v in self.path_conditions()) or "root"

    # Pickled without its links (tree, parent, children): its Tree keeps the shape and
    # restores them, so a deep tree does not nest one pickling frame per level.  The state
    # is a tuple in _STATE's order, read and written by C-level loops (a forest's trees come
    # back from its worker processes pickled: 290,000 nodes, where a dict a node took 5 s).
    def __getstate__(self):
        return _state_of(self)

    def __setstate__(self, state):
        if isinstance(state, dict) or len(state) != len(_STATE):
            # pickled before the rare fields were one object: by the fields' names then
            self._rare = None
            for k, v in (state.items() if isinstance(state, dict) else zip(_STATE_B52, state)):
                setattr(self, k, v)
        else:
            deque(map(setattr, repeat(self, len(state)), _STATE, state), 0)
        if self.levels is _UNSET:  # pickled before levels was always set (None: none)
            self.levels = None
        self.tree, self.parent, self._kids = None, None, ()

    def walk(self):
        """This node and all nodes below it, in pre-order (children in value order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


class _Unset:
    """Node.levels never set (in the state before it was always set): pickled by name."""

    __slots__ = ()

    def __reduce__(self):
        return "_UNSET"


_UNSET = _Unset()
_STATE = tuple(k for k in Node.__slots__ if k not in _LINKS)
_state_of = attrgetter(*_STATE)
# The state's fields from b52f07a (2026-11-27) until the rare ones became one object
_STATE_B52 = ("_path", "step", "depth", "_cc", "_ci", "_n", "_tables", "_considered", "test", "ties", "stop", "label",
              "_valid", "_gain_ok", "_candidates", "_records", "collapsed_errors", "scale", "cuts", "pruned",
              "_surrogates", "majority", "mofn", "levels")


def row_ints(have, n) -> list:
    """``have`` (a builder's list 0, 1, 2, ...) grown to at least n: the builders' nodes take
    their rows in their depth's block (``_ci``) from it, one int object shared by every node of
    that row, where each node's was its own (32 bytes: 7 MiB of a 287,000-node forest)."""
    if len(have) < n:
        have.extend(range(len(have), n))
    return have


def draws(nodes) -> np.ndarray:
    """The nodes' feature draws (their trees' ``Tree.draw``), nodes × features; each tree's
    run of nodes asked at once where its draw can (a forest's ``masks``)."""
    out, at = [], 0
    while at < len(nodes):
        tree, end = nodes[at].tree, at + 1
        while end < len(nodes) and nodes[end].tree is tree:
            end += 1
        run, draw = nodes[at:end], tree.draw
        out.append(draw.masks(run) if hasattr(draw, "masks") else np.array([draw(node) for node in run], dtype=bool))
        at = end
    return np.concatenate(out) if out else np.zeros((0, 0), bool)
