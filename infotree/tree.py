"""A grown tree: its data's names, its criterion (:mod:`infotree.criteria`), its parameters and
its root; it predicts (``predict``, ``predict_proba``), explains a row's path and prints itself.
Its nodes (:mod:`infotree.node`) keep counts, split tests (:mod:`infotree.splits`) and the
records of every decision (:mod:`infotree.records`).  :func:`infotree.growing.build_tree`
grows one."""

from __future__ import annotations

import bisect
import math
from fractions import Fraction
from itertools import repeat

import numpy as np

from .data import exact_number, number_text
from .errors import InfotreeError
from .node import Node
from .routing import SURROGATES
from .rpart_routing import check_routing, router
from .splits import MofNSplit, condition_words

__all__ = ["Tree"]


class Tree:
    """A grown tree: the root :class:`Node`, the data's names, and the parameters."""

    _lazy = None  # the arrays its nodes not yet made are made from (infotree.grow.packed), or None

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
        nodes = list(self.nodes()) if self.root is not None else []
        # A tree grown alone reads its records by growing again from its training codes
        # (infotree.grow.regrow): a pickle takes the records instead, not the training data.
        for node in nodes:
            if getattr(node._records, "X", None) is not None:
                node._records.regrow(self)
                break
        state = dict(self.__dict__)
        state.pop("_lazy", None)  # every node is made now
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
        if c is None or (type(c) is not Fraction and c < 0):  # (isinstance: an ABC check a call, 1 µs)
            return c
        return node.children[node.test.route(c)]

    def _descend(self, node, codes):
        """The node a row stops at: a leaf, a node whose value is unseen or that no surrogate
        leaves (CART), or a node whose value is missing (C4.5: the branches combine there)."""
        surrogates = self.criterion.missing is SURROGATES
        test = node.test
        while test is not None:
            # _child, inline, without the node's properties: a forest's votes and permutation
            # importance descend millions of rows
            if type(test) is MofNSplit:
                child = node.children[test.route(codes)]
            else:
                c = codes[test.feature]
                child = c if c is None or (type(c) is not Fraction and c < 0) else node.children[test.route(c)]
            if child is None and surrogates:  # CART: surrogates, majority
                d, _ = SURROGATES.predicted(node, lambda j: self._known(codes[j]), self.params.get("use_surrogate", 2))
                if d is None:  # the row stays here, as in training
                    break
                node = node.children[d]
            elif child is None or child == -1:
                break
            else:
                node = child
            test = node.test
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

    def _per_row(self, codes, starts, memo, value) -> list:
        """``value`` of each row's exact probabilities (:meth:`_proba`), descending from its node
        in ``starts``; a leaf's made once (``memo``: leaf -> value), a row that stops above a
        leaf (C4.5 combines a missing value's branches there) its own."""
        out = []
        for c, start in zip(codes, starts):
            node = self._descend(start, c)
            if node.test is None:
                v = memo.get(node)
                if v is None:
                    v = memo[node] = value(self._proba(node, c))
            else:
                v = value(self._proba(self.root, c))
            out.append(v)
        return out

    def _probas(self, codes) -> list:
        """_proba of each row from the root, made once a leaf (a forest's votes ask trees × rows)."""
        return self._per_row(codes, repeat(self.root), {}, _same)

    def _votes(self, codes, starts, memo) -> list:
        """Each row's vote, the first class of its maximal probability (as :meth:`predict`),
        from its node in ``starts``; ``memo`` (leaf -> vote) kept by the caller: a forest's
        permutation importance asks a tree once a feature."""
        return self._per_row(codes, starts, memo, _first_max)

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
        return None if c is None or (type(c) is not Fraction and c < 0) else c



def _same(p):
    return p


def _first_max(p) -> int:
    """The first class of maximal probability (a tie: the first in class order)."""
    return p.index(max(p))

_MISSING = ("?", "")
