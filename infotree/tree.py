"""A grown tree, and growing one: ``build_tree(data, criterion=...)``.

The tree keeps its data's names, its criterion (:mod:`infotree.criteria`) and its
parameters; its nodes (:mod:`infotree.node`) keep counts, split tests
(:mod:`infotree.splits`) and the records of every decision (:mod:`infotree.records`).
Two builders grow the same tree: the reference one (:mod:`infotree.grow.reference`,
the textbook recursion, for any criterion) and the level-wise one
(:mod:`infotree.grow.levelwise`, the fast path, for the criteria it has a kernel
for).  ``build_tree`` takes the fast one where it can; ``builder="reference"``
asks for the other.  Ties are exact: the first feature in column order wins and the
node records every feature it tied with.

The criteria (``docs/c45_rules.md`` for C4.5's):

``gain``
    ID3: maximal information gain among the unused features that separate the
    node's rows (at least two non-empty branches).  An impure node is split even
    at zero gain (the XOR lesson) unless ``stop_at_zero_gain=True`` (Weka's Id3).
``gain_ratio``
    C4.5 as Weka's J48 defines it (:class:`~infotree.criteria.C45GainRatio`), then
    *collapsed*: a subtree that makes no fewer training errors than a leaf would
    is replaced by that leaf.
``gain_ratio_plain``
    Maximal gain ratio among the features that separate the rows; no filter,
    no minimum branch size, no collapse (as many lecture notes define it).
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import numpy as np

from . import limits
from .criteria import CRITERIA, criterion_named
from .data import exact_number, number_text
from .errors import InfotreeError
from .node import Node
from .records import Candidate
from .routing import SURROGATES
from .rpart_routing import check_routing, record_levels, router
from .splits import NominalSplit, ThresholdSplit, condition_words

__all__ = ["CRITERIA", "Candidate", "Node", "Tree", "build_tree", "node_at"]

THRESHOLDS = ("data", "midpoint")
PRUNING = ("none", "pessimistic", "reduced-error", "cost-complexity")
BUILDERS = ("auto", "levelwise", "reference")


class Tree:
    """A grown tree: the root :class:`Node`, the data's names, and the parameters."""

    def __init__(self, *, features, domains, classes, target, criterion, params, kinds=None, numbers=None,
                 values=None):
        self.features = tuple(features)
        self.domains = tuple(tuple(d) for d in domains)
        #: "nominal" or "numeric" per feature; a numeric feature's sorted distinct values
        self.kinds = tuple(kinds) if kinds is not None else ("nominal",) * len(self.features)
        self.numbers = tuple(numbers) if numbers is not None else (None,) * len(self.features)
        self.missing_slot = False  # the count tables end with a slot for missing values
        self.classes = tuple(classes)
        #: regression: the exact number of each target code (``classes`` holds their texts)
        self.values = None if values is None else tuple(values)
        self.target = target
        self.criterion = criterion
        self.params = dict(params)
        self.root: Node | None = None
        self._recount = None  # counts a node's tables from the data (plain nominal builds)
        #: a forest's feature draw: node -> bool mask of the features it may consider, or None (all);
        #: a function of the node's path, so that both builders grow the same tree
        self.draw = None
        self._index = {f: i for i, f in enumerate(self.features)}
        self.path_tests = ()  # node_at: the split tests of the root's path
        #: Poisson and exp trees: each training row's exposure (exp: its rescaled time), else None
        self.exposure = None
        self._values_indexed = None

    @property
    def _value_index(self) -> list:
        """Per feature, value text -> code; made when first needed (a forest's trees rarely need it)."""
        if self._values_indexed is None:
            self._values_indexed = [{v: i for i, v in enumerate(d)} for d in self.domains]
        return self._values_indexed

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

    def _repr_html_(self):
        """Jupyter: the drawing (with matplotlib), the tree and the root's derivation."""
        from .printers.html import show

        return show(self)._repr_html_()

    def _repr_svg_(self):
        """Jupyter: the drawing alone; None without matplotlib (the front end then uses HTML)."""
        from .printers.html import show

        return show(self, nodes="none")._repr_svg_()

    def __getstate__(self):
        """pickle: the nodes in pre-order with each one's children as indices into them (a
        node pickles without its links: see Node.__getstate__)."""
        state = dict(self.__dict__)
        nodes = list(self.nodes()) if self.root is not None else []
        at = {id(node): i for i, node in enumerate(nodes)}
        state["_shape"] = (nodes, [[at[id(c)] for c in node.children] if node.children else None for node in nodes])
        return state

    def __setstate__(self, state):
        nodes, children = state.pop("_shape")
        self.__dict__.update(state)
        for node, kids in zip(nodes, children):
            node.tree = self
            if kids is not None:
                node.children = [nodes[i] for i in kids]
                for child in node.children:
                    child.parent = node

    def __repr__(self):
        return f"<Tree {self.criterion.name} on {self.target!r}: {len(self)} nodes, {sum(1 for _ in self.leaves())} leaves>"

    # -- using the tree --
    def _codes(self, rows, unseen):
        """Rows (dicts by feature name, sequences in feature order, or a Dataset) as codes.

        A nominal value becomes its index (-1: unseen, with ``unseen="majority"``), a
        numeric one an exact Fraction; a missing value (``?``, empty, None) of a C4.5
        tree becomes None.
        """
        if hasattr(rows, "X") and hasattr(rows, "domains"):
            return self._codes_from_dataset(rows, unseen)
        if hasattr(rows, "columns") and hasattr(rows, "to_numpy"):  # a DataFrame: iterating it gives labels
            rows = self._frame_rows(rows)
        elif rows is None or isinstance(rows, (str, bytes, dict)) or not hasattr(rows, "__iter__"):
            raise InfotreeError(f"rows must be a list of rows (dicts by feature name, or sequences in feature "
                                f"order), a DataFrame or a Dataset, not {type(rows).__name__}")
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

    def _frame_rows(self, frame) -> list:
        """A pandas or polars DataFrame's rows in feature order; a column label is read as its
        text (an integer 0 or a MultiIndex tuple names the feature '0' or "('a', 'x')"), as the
        readers name the columns they are grown on."""
        labels = {str(c).strip(): c for c in frame.columns}
        missing = [f for f in self.features if f not in labels]
        if missing:
            raise InfotreeError(f"the DataFrame has no column {missing[0]!r}; the tree needs: {', '.join(self.features)}")
        if hasattr(frame, "get_column"):  # polars
            columns = [frame.get_column(labels[f]).to_list() for f in self.features]
        else:
            columns = [frame[labels[f]].tolist() for f in self.features]
        return [list(r) for r in zip(*columns)] if columns else [[] for _ in range(len(frame))]

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
            if s in _MISSING and self.criterion.missing is not None:
                return None
            c = self._unseen(j, s, unseen, where)
        return c

    def _missing(self, j, s, where):
        if self.criterion.missing is not None:
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
                if data.source:  # Parquet: rows as its reader numbers them, from 0
                    return f"{data.source} row {i}"
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

    def _child(self, node, codes):
        """The child a row of codes goes to, None for a missing split value, -1 for an unseen
        one.  An M-of-N test reads the whole row: a missing or unseen value of a condition's
        feature does not satisfy that condition, so every row has a child."""
        if node.m_of_n:
            return node.children[node.test.route(codes)]
        c = codes[node.split]
        if c is None or (not isinstance(c, Fraction) and c < 0):
            return c
        return node.children[node.test.route(c)]

    def _descend(self, node, codes):
        """The node a row stops at: a leaf, a node whose value is unseen or that no surrogate
        leaves (CART), or a node whose value is missing (C4.5: the branches combine there)."""
        while node.split is not None:
            child = self._child(node, codes)
            if child is None and self.criterion.missing is SURROGATES:  # CART: surrogates, majority
                d, _ = SURROGATES.predicted(node, lambda j: self._known(codes[j]), self.params.get("use_surrogate", 2))
                if d is None:  # the row stays here, as in training
                    break
                node = node.children[d]
                continue
            if child is None or child == -1:
                break
            node = child
        return node

    def probabilities(self, node, smoothing=None) -> list[Fraction]:
        """A node's exact class probabilities under ``smoothing`` (:mod:`infotree.smoothing`:
        none, laplace, m=M with the root's class distribution as prior); an empty leaf
        takes its parent's counts, as J48 does with and without Laplace."""
        from .smoothing import smoothing_named

        return smoothing_named(smoothing).probabilities(self._leaf_of(node).class_counts.tolist(),
                                                        self.root.class_counts.tolist())

    def _proba(self, node, codes, weight=Fraction(1), smoothing=None):
        """Exact class probabilities × weight; a missing value combines the branches (J48),
        each reached leaf's (smoothed) probabilities weighted by the row's share of it."""
        node = self._descend(node, codes)
        if (node.split is not None and self.criterion.missing is not SURROGATES
                and self._child(node, codes) is None):  # C4.5: every branch, by its share
            out = [Fraction(0)] * len(self.classes)
            shares = self.criterion.missing.shares([ch.n for ch in node.children])
            for b, w in self.criterion.missing.spread(weight, shares):
                for i, p in enumerate(self._proba(node.children[b], codes, w, smoothing)):
                    out[i] += p
            return out
        return [weight * p for p in self.probabilities(node, smoothing)]

    def predict(self, rows, *, unseen="error", routing="infotree") -> list:
        """One class label per row; ``unseen="majority"`` sends unseen values to the node's majority.
        A regression tree predicts the exact mean (a Fraction) of the node each row reaches.
        ``routing="rpart"`` (CART) sends rows down as rpart's ``predict`` does
        (:mod:`infotree.rpart_routing`): a value equal to a threshold to the high side, a level
        the node never saw (or, with ``unseen="majority"``, any unseen level) as missing."""
        if check_routing(routing) == "rpart":
            stop = router(self)
            return [self._leaf_of(stop(c)).mean if self.criterion.regression else self._leaf_of(stop(c)).label_name
                    for c in self._codes(rows, unseen)]
        if self.criterion.regression:
            return [self._leaf_of(self._descend(self.root, c)).mean for c in self._codes(rows, unseen)]
        out = []
        for c in self._codes(rows, unseen):
            p = self._proba(self.root, c)
            out.append(self.classes[p.index(max(p))])  # first maximum: first class
        return out

    @staticmethod
    def _leaf_of(node):
        """The node whose counts answer for ``node``: itself, or for an empty leaf its parent."""
        while node.n == 0 and node.parent is not None:
            node = node.parent
        return node

    def predict_proba(self, rows, *, unseen="error", smoothing="none", routing="infotree") -> list[dict[str, Fraction]]:
        """Exact class probabilities of the leaf each row reaches (an empty leaf: its parent's);
        with a missing value (C4.5), the reached leaves' probabilities weighted by the row's
        share of each.  ``smoothing``: ``"none"`` (frequencies), ``"laplace"`` or ``"m=M"``
        (:mod:`infotree.smoothing`)."""
        from .smoothing import smoothing_named

        if self.criterion.regression:
            raise InfotreeError("a regression tree predicts numbers (predict); predict_proba is for classification")
        s = smoothing_named(smoothing)
        if check_routing(routing) == "rpart":  # the reached node's class shares; with priors rpart's yprob
            stop = router(self)
            yprob = getattr(self.criterion, "yprob", None) if smoothing in (None, "none") else None
            if yprob is not None:
                return [dict(zip(self.classes, yprob(self._leaf_of(stop(c)).class_counts.tolist())))
                        for c in self._codes(rows, unseen)]
            return [dict(zip(self.classes, self.probabilities(stop(c), s))) for c in self._codes(rows, unseen)]
        return [dict(zip(self.classes, self._proba(self.root, c, smoothing=s))) for c in self._codes(rows, unseen)]

    def explain(self, row, *, unseen="error") -> list[str]:
        """The path one row takes, one line per decision, ending with the prediction."""
        return self.explain_path(row, unseen=unseen)[1]

    def plot_path(self, row, out=None, *, fmt="svg", unseen="error", **opts):
        """The drawing with ``row``'s path drawn thick, each box on it saying the test's outcome
        (``row: outlook = sunny``) and the leaf the prediction; written to ``out`` (a file name or a
        stream; ``fmt`` svg or png) or, without ``out``, returned for a notebook to show.  ``opts`` as
        the drawings' (``max_depth``, ``hide_empty``, ``color``, ``show``, ``digits``)."""
        from .printers.drawing import plot_path

        return plot_path(self, row, out, fmt=fmt, unseen=unseen, **opts)

    def explain_path(self, row, *, unseen="error") -> tuple[list, list[str]]:
        """The nodes one row passes, root first, and :meth:`explain`'s lines: line ``i`` is the
        decision at node ``i``, the last line the prediction (at the last node)."""
        codes = self._codes([row], unseen)[0]
        node, lines = self.root, []
        visited = [node]
        while node.split is not None:
            if node.m_of_n:  # count the conditions that hold
                b = node.test.route(codes)
                held = [name for (j, v), name in zip(node.test.conditions, node.test.names) if codes[j] == v]
                verb = "holds" if len(held) == 1 else "hold"
                lines.append(f"{len(held)} of the {len(node.test.conditions)} conditions {verb} "
                             f"({', '.join(held) or 'none'}): {condition_words(None, *node.branch_condition(b))} "
                             f"(split: {node.reason})")
                node = node.children[b]
                visited.append(node)
                continue
            c = codes[node.split]
            f = self.features[node.split]
            child = self._child(node, codes)
            if child is None and self.criterion.missing is SURROGATES:
                d, by = SURROGATES.predicted(node, lambda j: self._known(codes[j]), self.params.get("use_surrogate", 2))
                if d is None:
                    lines.append(f"{f} is missing and no surrogate or majority places it: predict here")
                    break
                how = "the majority direction" if by is None else f"surrogate {node.surrogates[by].feature}"
                op, v = node.branch_condition(d)
                lines.append(f"{f} is missing: {how} sends it to {f} {op} {v}")
                node = node.children[d]
                visited.append(node)
                continue
            if child is None:
                lines.append(f"{f} is missing: every branch, weighted by its share of this node's rows")
                break
            if child == -1:
                lines.append(f"{f} has a value not seen in training: predict the majority here")
                break
            op, v = node.branch_condition(node.children.index(child))
            lines.append(f"{f} {op} {v} (split on {f}: {node.reason})")
            node = child
            visited.append(node)
        if node.split is not None and lines[-1].endswith("share of this node's rows"):
            p = self._proba(node, codes)
            label = self.classes[p.index(max(p))]
            dist = ", ".join(f"{k} {q}" for k, q in zip(self.classes, p))
            lines.append(f"predict {label} (combined class probabilities: {dist})")
            return visited, lines
        counts = (f"mean {number_text(node.mean)}, SSE {number_text(node.risk)}" if self.criterion.regression
                  else ", ".join(f"{k} {v}" for k, v in zip(self.classes, node.class_counts.tolist())))
        lines.append(f"predict {node.label_name} ({'leaf' if node.split is None else 'node'}: n = {node.n}; {counts})")
        return visited, lines

    @staticmethod
    def _known(c):
        """A row's code as splits read it, None when missing or unseen."""
        return None if c is None or (not isinstance(c, Fraction) and c < 0) else c


_MISSING = ("?", "")



def build_tree(data, *, criterion="gain", max_depth=None, min_samples_split=2, min_gain=None,
               stop_at_zero_gain=False, min_objects=2, collapse=None, average_gain_slack=Fraction(1, 1000),
               threshold=None, prune="none", confidence=Fraction(1, 4), validation=None, builder="auto",
               min_leaf=1, cp=None, max_subsets=1 << 15, competitors=4, surrogates=5, use_surrogate=2,
               surrogate_style=0, sample_weight=None, every_split=False, lookahead=0, ccp_alpha=None, ccp_cp=None,
               ccp_select=None, ccp_risk="rpart", folds=10, seed=0, ccp_sequence="weakest-link",
               feature_draw=None, grow=True, m_of_n=False, prior=None, loss=None, cost=None, exposure=None,
               shrink=None) -> Tree:
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
    CART criteria (``"gini"``, ``"entropy"``, ``"misclassification"``; binary splits):
    ``min_leaf`` rows at least on each side of a split (rpart's minbucket), ``cp`` the
    complexity parameter as rpart applies it while growing (:func:`infotree.prune.cp_prune`;
    None, the default, grows fully as scikit-learn does), ``max_subsets``
    the most subsets of a nominal feature's values an exact split may compare,
    ``competitors`` how many runner-up splits a node lists, ``surrogates`` how many
    surrogate splits it keeps and ``use_surrogate`` how rows with a missing primary value
    go down (rpart's maxcompete, maxsurrogate and usesurrogate: 0, 1 or 2; see
    :class:`infotree.routing.Surrogates`); ``surrogate_style`` 0 or 1 as rpart's
    surrogatestyle (agreement over the rows with the primary known, or with both known).
    ``prune="cost-complexity"`` (CART): weakest-link pruning (:mod:`infotree.complexity`)
    of the tree grown with ``cp`` (None: fully), at ``ccp_alpha`` (α itself) or ``ccp_cp``
    (α = cp·R(root)), or at the row of rpart's cp table that ``ccp_select`` (``"min"`` or
    ``"1se"``) picks by cross-validation on ``folds`` folds from ``seed`` (or on given
    folds: one fold id per row, or a scikit-learn splitter; with sample weights as
    rpart's xval weighs them); ``ccp_sequence``
    ``"weakest-link"`` (exact) or ``"rpart"`` (rpart's complexities, as ``prune.rpart``); ``ccp_risk``
    ``"rpart"`` (misclassified weight, squared error) or ``"impurity"`` (scikit-learn's
    N_t/N · impurity).
    ``sample_weight``: one positive weight per row (ints, Fractions, decimal strings;
    a float is read from its shortest text); counts become exact weighted sums (CART's
    min_leaf still counts rows).
    ``prior`` and ``loss`` (gini, entropy): rpart's ``parms``: class priors (a mapping
    class -> rational, or a sequence in class order) and a loss matrix (rows the true
    class, columns the predicted one), exact; the split criterion uses rpart's altered
    priors, a node predicts its class of least loss and its risk (cp, pruning,
    cross-validation) is that loss (:class:`infotree.criteria.CostedGini`).
    ``every_split`` (CART): each candidate also records every threshold and subset its
    feature tried, which the printers list (grown by the reference builder).
    ``cost`` (CART): rpart's per-variable costs, a mapping feature -> positive rational
    (unnamed features cost 1) or one per feature: each feature's improvement is divided
    by its cost when the features are ranked and where it is recorded
    (:func:`infotree.criteria.with_variable_costs`; grown by the reference builder).
    ``criterion="poisson"`` (rpart's ``method = "poisson"``): the target counts events and
    ``exposure`` gives each row's exposure (rpart's ``cbind(exposure, events)``; None: 1
    each); ``shrink`` is rpart's ``parms = list(shrink = k)`` (default 1; 0: no shrinkage),
    see :class:`infotree.criteria.Poisson`.  ``criterion="exp"`` (survival): the target is
    the status (0/1, 1/2 or false/true) and ``exposure`` the observed times, rescaled as
    ``rpart.exp`` does (:func:`infotree.survival.exp_exposure`).  A node predicts its rate.
    ``feature_draw``: a forest's draw (:mod:`infotree.ensemble`), a function of a node
    giving the bool mask of the features it may consider; None: every feature.
    ``builder``: ``"auto"`` (the level-wise builder when it has a kernel for the
    criterion, else the reference one), ``"levelwise"`` or ``"reference"``; they grow
    the same tree with the same records.
    ``lookahead``: 0 (greedy, the default) or 1: each candidate is scored by the gain of
    its best two-level split (:mod:`infotree.lookahead`; the reference builder grows it).
    ``grow=False``: the tree planted, not grown (no root; nothing collapsed or pruned),
    for :func:`grow_together`.
    ``m_of_n=True`` (criterion ``gain``, nominal features without missing values): every
    internal node tests the M-of-N test grown at it from the best single condition
    (:mod:`infotree.mofn`, ID2-of-3), two branches; a node whose grown test has gain 0 is a
    leaf (the reference builder grows it).
    """
    crit = criterion_named(criterion)
    if builder not in BUILDERS:
        raise InfotreeError(f"builder {builder!r} is not allowed; allowed: {', '.join(BUILDERS)}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 0):
        raise InfotreeError(f"max_depth {max_depth!r} is not allowed; give a non-negative integer or None")
    if not isinstance(min_samples_split, int) or min_samples_split < 1:
        raise InfotreeError(f"min_samples_split {min_samples_split!r} is not allowed; give a positive integer")
    if not isinstance(min_objects, int) or min_objects < 1:
        raise InfotreeError(f"min_objects {min_objects!r} is not allowed; give a positive integer")
    if min_gain is not None:
        min_gain = _rational(min_gain, "min_gain", "0.01 or '1/100'")
    if collapse is None:
        collapse = crit.collapse
    average_gain_slack = _rational(average_gain_slack, "average_gain_slack", "1/1000")
    if threshold is None:
        threshold = crit.threshold
    if threshold not in THRESHOLDS:
        raise InfotreeError(f"threshold {threshold!r} is not allowed; allowed: {', '.join(THRESHOLDS)}")
    if prune not in PRUNING:
        raise InfotreeError(f"prune {prune!r} is not allowed; allowed: {', '.join(PRUNING)}")
    confidence = _rational(confidence, "confidence", "0.25")
    if lookahead not in (0, 1) or isinstance(lookahead, bool):
        raise InfotreeError(f"lookahead {lookahead!r} is not allowed; allowed: 0 (greedy), 1 (score each feature "
                            f"by its best two-level split)")
    if lookahead and crit.regression:
        raise InfotreeError(f"lookahead=1 scores classification splits; criterion {crit.name!r} grows a regression "
                            f"tree (use lookahead=0)")
    if lookahead:
        limits.within("lookahead_pairs", data.n_features ** 2, f" ({data.n_features} features, each pair scored)")
    if lookahead and builder == "levelwise":
        raise InfotreeError("lookahead=1 needs the reference builder (builder='auto' or 'reference')")
    if not isinstance(m_of_n, bool):
        raise InfotreeError(f"m_of_n {m_of_n!r} is not allowed; give True (M-of-N tests) or False")
    X = np.asarray(data.X)
    if m_of_n:
        _check_m_of_n(data, X, crit, builder, lookahead, sample_weight, prune, feature_draw)
    if X.size and X.min() < 0 and crit.missing is None:
        j = int(np.flatnonzero((X < 0).any(axis=0))[0])
        raise InfotreeError(f"feature {data.features[j]!r} has missing values; criterion {crit.name!r} does not "
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
    if lookahead:
        params["lookahead"] = lookahead
    if m_of_n:
        params["m_of_n"] = True
    if crit.binary:
        if not isinstance(min_leaf, int) or min_leaf < 1:
            raise InfotreeError(f"min_leaf {min_leaf!r} is not allowed; give a positive integer")
        if not isinstance(max_subsets, int) or isinstance(max_subsets, bool) or max_subsets < 1:
            raise InfotreeError(f"max_subsets {max_subsets!r} is not allowed; give a positive integer")
        limits.within("max_subsets", max_subsets)
        if cp is not None:
            cp = _rational(cp, "cp", "0.01")
            if not 0 <= cp <= 1:
                raise InfotreeError(f"cp {cp} is not allowed; give a rational from 0 to 1 (rpart's default is 0.01)")
        for name, v in (("competitors", competitors), ("surrogates", surrogates)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise InfotreeError(f"{name} {v!r} is not allowed; give a non-negative integer")
        if use_surrogate not in (0, 1, 2):
            raise InfotreeError(f"use_surrogate {use_surrogate!r} is not allowed; allowed: 0, 1, 2 (rpart's usesurrogate)")
        if surrogate_style not in (0, 1):
            raise InfotreeError(f"surrogate_style {surrogate_style!r} is not allowed; allowed: 0, 1 (rpart's surrogatestyle)")
        params.update(min_leaf=min_leaf, cp=cp, max_subsets=max_subsets, competitors=competitors,
                      surrogates=surrogates, use_surrogate=use_surrogate, surrogate_style=surrogate_style)
        if every_split:
            if builder == "levelwise":
                raise InfotreeError("every_split needs the reference builder (builder='auto' or 'reference')")
            params["every_split"], builder = True, "reference"
    if prior is not None or loss is not None:
        from .criteria import with_costs

        ws = [1] * n_rows if sample_weight is None else _weights(sample_weight, n_rows)
        root = [Fraction(0)] * len(data.classes)
        for c, wt in zip(y.tolist(), ws):
            root[c] += wt
        crit = with_costs(crit, data.classes, root, prior, loss)
        params.update(prior={c: _text(p) for c, p in zip(data.classes, crit.prior)},
                      loss=[[_text(x) for x in row] for row in crit.loss])
    if cost is not None:
        from .criteria import with_variable_costs

        crit = with_variable_costs(crit, data.features, cost)
        if hasattr(crit, "cost"):
            params["cost"] = {f: _text(c) for f, c in zip(data.features, crit.cost) if c != 1}
    values = target_numbers(data) if crit.regression and not getattr(crit, "scales_time", False) else None
    if getattr(crit, "counts_events", False):
        crit, values, exposure = _events(data, crit, y, exposure, shrink, sample_weight)
        params["shrink"] = _text(crit.shrink)
    elif exposure is not None or shrink is not None:
        raise InfotreeError(f"exposure and shrink are rpart's Poisson and exp methods' (criterion 'poisson' or "
                            f"'exp'), not criterion {crit.name!r}'s")
    tree = Tree(features=data.features, domains=data.domains, classes=data.classes,
                target=data.target, criterion=crit, params=params,
                kinds=getattr(data, "kinds", None), numbers=getattr(data, "numbers", None), values=values)
    tree.exposure = exposure
    tree.draw = feature_draw
    if not grow:
        return tree
    if sample_weight is None:
        _grow(crit, "reference" if lookahead or m_of_n else builder, tree, X, y)
    else:
        if builder == "levelwise":
            raise InfotreeError("sample_weight needs the reference builder (builder='auto' or 'reference')")
        _builder(crit, "reference")(tree, X, y).run(weights=_weights(sample_weight, n_rows))
    if collapse:
        from .prune import collapse as collapse_tree

        collapse_tree(tree.root)
    if crit.binary and cp is not None:
        from .prune import cp_prune

        cp_prune(tree, cp)
    if prune == "cost-complexity":
        if not crit.binary:
            raise InfotreeError(f"cost-complexity pruning is CART's; criterion {crit.name!r} is not a CART criterion "
                                f"(use gini, entropy or misclassification)")

        regrow = fold_grower(criterion=crit, max_depth=max_depth, min_samples_split=min_samples_split,
                             builder=builder, min_leaf=min_leaf, max_subsets=max_subsets, competitors=competitors,
                             surrogates=surrogates, use_surrogate=use_surrogate, surrogate_style=surrogate_style)
        from .complexity import prune_grown

        prune_grown(tree, data, alpha=ccp_alpha, cp=ccp_cp, select=ccp_select, risk=ccp_risk, folds=folds,
                    seed=seed, grown_cp=cp, regrow=regrow, sequence=ccp_sequence,
                    weights=None if sample_weight is None else _weights(sample_weight, n_rows))
        tree.params.update(ccp_alpha=ccp_alpha, ccp_cp=ccp_cp, ccp_select=ccp_select, ccp_risk=ccp_risk)
    elif prune != "none":
        from .prune import prune_tree

        prune_tree(tree, data, method=prune, confidence=confidence, validation=validation)
    if crit.binary:  # rpart's routing of new rows reads the levels each subset split's rows had
        record_levels(tree, data)
    return tree


def _events(data, crit, y, exposure, shrink, sample_weight):
    """A Poisson or exp tree's criterion bound to the data (rpart's α, β from the root), its
    target numbers (exp: statuses 0/1) and each row's exposure (exp: the rescaled time)."""
    from .survival import check_rows, exp_exposure, status_codes

    if shrink is None:
        shrink = crit.shrink
    shrink = _rational(shrink, "shrink", "1 or 1/2")
    if shrink < 0:
        raise InfotreeError(f"shrink {shrink} is not allowed; give a rational at least 0 (rpart: 'Invalid "
                            f"shrinkage value'; 0 means no shrinkage)")
    n = len(y)
    if exposure is not None:
        exposure = [_rational(t, "exposure", "2.5") if t is not None else None for t in exposure]
    if crit.scales_time:
        if exposure is None:
            raise InfotreeError("criterion 'exp' needs each row's observed time (exposure=..., --time COL); the "
                                "target is the status")
        values = tuple(status_codes(data.classes))
        check_rows([0] * n, exposure)
        exposure = exp_exposure(exposure, [values[c] for c in y.tolist()])
    else:
        values = target_numbers(data)
        check_rows([values[c] for c in y.tolist()], exposure)
    ws = [1] * n if sample_weight is None else _weights(sample_weight, n)
    events = sum((w * values[c] for w, c in zip(ws, y.tolist())), Fraction(0))
    if not events:
        raise InfotreeError("no events: every row's count is 0 (a Poisson tree needs at least one event)")
    time = sum((w * (1 if exposure is None else exposure[i]) for i, w in enumerate(ws)), Fraction(0))
    return crit.bound(shrink, events, time), values, None if exposure is None else tuple(exposure)


def _check_m_of_n(data, X, crit, builder, lookahead, sample_weight, prune, feature_draw):
    """m_of_n=True's one-line refusals: what M-of-N tests (ID2-of-3 with information gain) accept."""
    if feature_draw is not None:  # the search reads every feature
        raise InfotreeError("m_of_n=True grows each test from every feature; a forest's feature draw is not "
                            "allowed with it")
    if crit.name != "gain":
        raise InfotreeError(f"criterion {crit.name!r} is not allowed with m_of_n=True; allowed: 'gain' (M-of-N tests "
                            f"are grown and scored by information gain)")
    if builder == "levelwise":
        raise InfotreeError("m_of_n=True needs the reference builder (builder='auto' or 'reference')")
    if lookahead:
        raise InfotreeError("m_of_n=True cannot be combined with lookahead=1; allowed: lookahead=0")
    if sample_weight is not None:
        raise InfotreeError("m_of_n=True counts rows; sample_weight is not allowed with it")
    if prune not in ("none", "reduced-error"):
        raise InfotreeError(f"prune {prune!r} is not allowed with m_of_n=True; allowed: none, reduced-error")
    kinds = getattr(data, "kinds", ("nominal",) * len(data.features))
    for j, k in enumerate(kinds):
        if k == "numeric":
            raise InfotreeError(f"feature {data.features[j]!r} is numeric; M-of-N tests (m_of_n=True) take nominal "
                                f"features only (allowed: nominal columns; read this one as nominal with "
                                f"categorical=[{data.features[j]!r}])")
    if X.size and X.min() < 0:
        j = int(np.flatnonzero((X < 0).any(axis=0))[0])
        raise InfotreeError(f"feature {data.features[j]!r} has missing values; M-of-N tests (m_of_n=True) need every "
                            f"value known (allowed: complete data, or on_missing='value', which reads '?' as a value)")


def grow_together(data, samples, draws, **options) -> list[Tree] | None:
    """For each (rows, draw): the tree ``build_tree(data.sample(rows), feature_draw=draw,
    **options)`` grows, all grown together by the fast CART builder or the level-wise ID3
    one, in one level loop (a forest's trees are small: numpy's per-call cost, paid once
    per depth and tree, was most of their growing).  None when the options are not those
    builders' alone (another criterion or builder, weights, every_split, lookahead, M-of-N
    tests, C4.5's thresholds, a cp, collapsing or pruning) or when the builder refuses the
    data: grow the trees one by one."""
    from .grow.cart import CARTBuilder, Refused
    from .grow.levelwise import KERNELS, LevelwiseBuilder

    template = build_tree(data, grow=False, **options)  # validates the options; the builder's domains
    p, crit = template.params, template.criterion
    builder = _builder(crit, options.get("builder", "auto"))
    # (C4.5's kernel reads the sample's size: its many-values rule.)
    id3 = builder is LevelwiseBuilder and KERNELS[type(crit)] == "id3"
    if (not (builder is CARTBuilder or id3) or options.get("sample_weight") is not None or p.get("every_split")
            or p.get("lookahead") or p.get("m_of_n") or p["threshold"] != "midpoint" or p.get("cp") is not None
            or p["collapse"] or p["prune"] != "none"):
        return None
    samples = [np.asarray(rows, dtype=np.int64) for rows in samples]
    drawn_rows = samples
    trees = [build_tree(data.sample(rows), feature_draw=draw, grow=False, **options)
             for rows, draw in zip(samples, draws)]
    # Each tree's rows as rows of their own, end to end.  The builders take a row drawn k
    # times as one row counted k times (CART without surrogates, which count rows once
    # each: there a row drawn twice is two rows).
    multiplicity = None
    if id3 or (builder is CARTBuilder and not crit.regression and not p.get("surrogates")):
        drawn = [np.unique(rows, return_counts=True) for rows in samples]
        samples, multiplicity = [rows for rows, _ in drawn], np.concatenate([k for _, k in drawn])
    X, y = np.asarray(data.X), np.asarray(data.y, dtype=np.int64)
    sizes = [len(rows) for rows in samples]
    at = 0
    for group in _groups(sizes, _TOGETHER_ROWS):  # consecutive trees, their rows copied once
        every = np.concatenate([samples[i] for i in group])
        ends = np.cumsum([sizes[i] for i in group]).tolist()
        roots = [(trees[i], np.arange(end - sizes[i], end)) for i, end in zip(group, ends)]
        counted = {} if multiplicity is None else {"multiplicity": multiplicity[at:at + len(every)]}
        at += len(every)
        try:
            builder(template, X[every], y[every]).run_many(roots, **counted)
        except Refused:
            return None
    if crit.binary:  # as build_tree keeps them, whichever builder grew the tree
        for tree, rows in zip(trees, drawn_rows):
            record_levels(tree, data.sample(rows))
    return trees


# Rows (all trees' samples) grown together at most: the builder copies each tree's rows
# (features × rows) and works on a depth of all of them at once; beyond a few million
# rows the copies cost more memory than the shared per-depth calls save time.
_TOGETHER_ROWS = 1 << 21


def _groups(sizes, most):
    """Consecutive index groups whose sizes sum to at most ``most`` (a larger one alone)."""
    group, total = [], 0
    for i, n in enumerate(sizes):
        if group and total + n > most:
            yield group
            group, total = [], 0
        group.append(i)
        total += n
    if group:
        yield group


def target_numbers(data) -> tuple:
    """A regression target's exact numbers, one per target code; a value that is not a number
    is a one-line error naming its file and line (or row) and the value."""
    out = []
    for code, text in enumerate(data.classes):
        try:
            q = exact_number(text)
        except InfotreeError:
            q = None
        if q is None:
            i = int(np.flatnonzero(np.asarray(data.y) == code)[0])
            lines = getattr(data, "lines", None)
            where = (f"{data.source} line {int(lines[i])}" if lines is not None and getattr(data, "source", None)
                     else f"row {i + 1}")
            raise InfotreeError(f"{where}, column {data.target!r}: value {text!r} is not a number; a regression "
                                f"target (criterion squared_error) is read as numbers, such as 12, -0.5 or 1e3")
        out.append(q)
    return tuple(out)


def fold_grower(**options):
    """How rpart's cross-validation grows each fold's tree: as the whole tree (``options``
    are build_tree's), fully, then rpart's cp rule at the fold's α (:func:`infotree.prune.cp_prune`)."""
    from .prune import cp_prune

    options = dict(options, cp=None, prune="none")
    for k in ("ccp_alpha", "ccp_cp", "ccp_select", "ccp_risk", "ccp_sequence", "validation", "sample_weight", "folds",
              "seed", "prior", "loss", "exposure"):  # a costed criterion keeps the whole data's factors, as rpart's xval
        options.pop(k, None)
    crit = criterion_named(options.get("criterion", "gain"))
    if getattr(crit, "scales_time", False):  # exp: rpart rescales the times once, before the folds
        options["criterion"] = crit.poisson()

    def grow(sub, alpha, sample_weight=None, exposure=None):
        t = build_tree(sub, **options, sample_weight=sample_weight, exposure=exposure)
        cp_prune(t, alpha=alpha)
        return t

    return grow


def _text(q) -> str:
    """An exact rational as a model's parameters keep it: ``3`` or ``3/5``."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _rational(x, name, example):
    try:
        return Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (TypeError, ValueError):
        raise InfotreeError(f"{name} {x!r} is not a number; give a rational such as {example}") from None


def _weights(sample_weight, n):
    """Exact positive weights, one per row, or a one-line error naming the first bad one."""
    try:
        ws = list(sample_weight)
    except TypeError:
        raise InfotreeError(f"sample_weight must be a sequence of {n} positive numbers") from None
    if len(ws) != n:
        raise InfotreeError(f"sample_weight has {len(ws)} weights; the data has {n} rows")
    out = []
    for i, v in enumerate(ws):
        try:
            q = None if isinstance(v, bool) else Fraction(v) if isinstance(v, (int, Fraction, str)) else exact_number(v)
        except (ValueError, ZeroDivisionError, InfotreeError):
            q = None
        if q is None or q <= 0:
            raise InfotreeError(f"sample_weight[{i}] = {v!r} is not a positive number")
        out.append(q)
    return out


def _builder(crit, name):
    """The builder class: level-wise where it has a kernel for the criterion (or is asked for)."""
    from .grow.cart import CARTBuilder
    from .grow.levelwise import KERNELS, LevelwiseBuilder
    from .grow.reference import ReferenceBuilder

    if name == "reference" or (name == "auto" and type(crit) not in KERNELS):
        return ReferenceBuilder
    if type(crit) not in KERNELS:
        raise InfotreeError(f"the level-wise builder has no kernel for criterion {crit.name!r}; "
                            f"use builder='reference' or 'auto'")
    return CARTBuilder if KERNELS[type(crit)] == "cart" else LevelwiseBuilder


def _grow(crit, name, tree, X, y, *run):
    """Grow ``tree`` with the builder ``name`` asks for.  What the CART builder refuses (a
    subset search past max_subsets, a regression it does not take) the reference grows
    (or refuses, at the node it meets first)."""
    from .grow.cart import Refused
    from .grow.reference import ReferenceBuilder

    if tree.params.get("every_split"):  # the fast builder keeps no list of every split
        name = "reference"
    try:
        _builder(crit, name)(tree, X, y).run(*run)
    except Refused:
        ReferenceBuilder(tree, X, y).run(*run)


def node_at(data, path, *, criterion="gain", min_objects=2, every_split=False, lookahead=0) -> Node:
    """The candidate record of the node reached by ``path``.

    ``path`` is a list of steps: ``(feature, value)`` for a nominal feature,
    ``(feature, "<=", t)`` or ``(feature, ">", t)`` for a numeric one (t exact: ``75``,
    ``"2.5"``, ``"1/3"``).  The node is evaluated on the rows that satisfy every
    condition (a row whose value is missing satisfies none), with the path's nominal
    features no longer candidates, whether or not a grown tree would reach it.
    Columns keep their kinds: a numeric column is cut, as in the tree.  An error names
    an unknown feature or value, or a step written for the other kind of column.
    ``lookahead=1`` adds each candidate's two-level score (:mod:`infotree.lookahead`).
    """
    crit = criterion_named(criterion)
    if lookahead not in (0, 1) or isinstance(lookahead, bool):
        raise InfotreeError(f"lookahead {lookahead!r} is not allowed; allowed: 0 (greedy), 1 (score each feature "
                            f"by its best two-level split)")
    kinds = getattr(data, "kinds", None)
    t = Tree(features=data.features, domains=data.domains, classes=data.classes,
             target=data.target, criterion=crit,
             params=dict(max_depth=len(path) + 1, min_samples_split=1, min_gain=None,
                         stop_at_zero_gain=False, min_objects=min_objects, collapse=False,
                         average_gain_slack=Fraction(1, 1000), threshold=crit.threshold,
                         **({"every_split": True} if every_split else {})),
             kinds=kinds, numbers=getattr(data, "numbers", None),
             values=target_numbers(data) if crit.regression else None)
    X = np.asarray(data.X)
    coded, tests = [], []
    mask = np.ones(len(data.y), bool)
    for step in path:
        f, op, v = step if len(step) == 3 else (step[0], "=", step[1])
        if f not in t._index:
            raise InfotreeError(f"unknown feature {f!r} in the path; features are: {', '.join(t.features)}{_suggest(f, t.features)}")
        j = t._index[f]
        if any(j == g for g, _ in coded) and t.kinds[j] != "numeric":
            raise InfotreeError(f"feature {f!r} appears twice in the path; each feature may be fixed once")
        col = X[:, j]
        if t.kinds[j] == "numeric":
            q = exact_number(v) if op in ("<=", ">") else None
            if q is None:
                raise InfotreeError(f"feature {f!r} is numeric: a path step on it is {f}<=t or {f}>t with a number t "
                                    f"(got {f} {op} {v!r})")
            test, branch = ThresholdSplit(j, q), 0 if op == "<=" else 1
            values = np.array([t.numbers[j][c] <= q if c >= 0 else False for c in col.tolist()]) if len(col) else col
            mask &= (col >= 0) & (values if branch == 0 else ~values)
        else:
            if op != "=":
                raise InfotreeError(f"feature {f!r} is nominal: a path step on it is {f}=value (got {f} {op} {v})")
            if v not in t._value_index[j]:
                raise InfotreeError(f"unknown value {v!r} of feature {f!r} in the path; values are: {', '.join(t.domains[j])}{_suggest(v, t.domains[j])}")
            test, branch = NominalSplit(j, t.domains[j]), t._value_index[j][v]
            mask &= col == branch
        coded.append((j, branch))
        tests.append(test)
    rows = np.flatnonzero(mask)
    if rows.size == 0:
        where = ", ".join(f"{t.features[j]} {' '.join(test.condition(b))}" for (j, b), test in zip(coded, tests))
        raise InfotreeError(f"no training row has {where}; the node is empty")
    t.path_tests = tuple(tests)
    if lookahead:
        if crit.regression:
            raise InfotreeError(f"lookahead=1 scores classification splits; criterion {crit.name!r} grows a "
                                f"regression tree (use lookahead=0)")
        t.params["lookahead"] = 1
    _grow(crit, "reference" if lookahead else "auto", t, X, np.asarray(data.y, dtype=np.int64), rows, coded)
    return t.root


def _suggest(word, choices):
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""

