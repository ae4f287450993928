"""The trees a sheet is graded against, each grown once: the expected tree (``build_tree`` with the check's
options), and the trees grown below a student's choice that differs from the builder's (carry-forward).

ID3 and C4.5: for each claimed branch below a wrong choice, the builder is run from the rows that reach
it, at that path of the whole data, as it grows any node (ID3 no longer considers the path's nominal
features; C4.5's many-values rule counts the whole data's rows), then collapsed and pruned (pessimistic)
as ``build_tree`` does.  That is what the builder would grow below a forced split: every other decision
of ID3 and C4.5 looks only at the rows of the node (C4.5's subtree raising aside, which can move rows from
a sibling into a node).  With missing values the rows reach the branch with C4.5's weights
(:meth:`Grower.weights`).

CART: rpart's cp rule is not local (alpha = cp·R(root), and bounds passed from a node to its children
that depend on the siblings grown first), so carry-forward forces the student's splits on the builder's
full growth and runs :func:`~infotree.prune.cp_prune` over the whole tree (:meth:`Grower.forced`).

A class's sheets share one Grower; each sheet may grow at most :data:`MAX_GROWN` subtrees of its own.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..errors import InfotreeError
from .expected import Expected, split_condition

__all__ = ["Grower", "MAX_GROWN", "MAX_WEIGHT_DENOMINATOR"]

#: Most subtrees grown for carry-forward in one answers file (each is a build on the rows of a
#: node); beyond it the subtrees below a wrong choice are reported as not graded.
MAX_GROWN = 500
#: C4.5 carry-forward: the largest denominator of a row's weight at a node a subtree is grown from.
MAX_WEIGHT_DENOMINATOR = 10 ** 6


class _Forced:
    """A node of the tree the builder grows with some of a student's CART splits forced on it: a view of
    the node of a fully grown tree (no cp) on its rows, with the split taken here (the builder's or the
    student's) and its children.  rpart's cp rule (:func:`infotree.prune.cp_prune`) runs on these
    views, never on the builder's own nodes; a view it collapses keeps its children in ``kept``."""

    def __init__(self, node):
        self.node = node
        self.test = self.feature = self.pruned = None
        self.children, self.kept = [], None

    # what cp_prune reads and writes
    @property
    def errors(self):
        return self.node.errors

    @property
    def split(self):
        return self.feature

    def make_leaf(self, stop):
        self.kept, self.children, self.feature, self.test = self.children, [], None, None

    # what Expected reads: the node's own counts and records, the split taken here
    @property
    def split_feature(self):
        return self.feature

    @property
    def ties(self):
        return self.node.ties if self.test is self.node.test else ()

    @property
    def threshold(self):
        return getattr(self.test, "threshold", None)

    @property
    def reason(self):
        if self.feature is None and self.pruned is not None and self.node.split is not None:
            return "collapsed by rpart's cp rule (the subtree's complexity is at most alpha)"
        return self.node.reason

    def __getattr__(self, name):  # tree, class_counts, n, label_name, candidates
        return getattr(self.node, name)


class _SheetView:
    """One sheet's view of the subtrees a class has grown: a subtree grown for another sheet is reused, and
    counts toward this sheet's budget as it would if grown here (so a sheet is graded as it would be
    alone: past MAX_GROWN of its own subtrees, none more, cached or not)."""

    def __init__(self, shared):
        self.shared, self.touched = shared, set()

    def __contains__(self, key):
        if key in self.touched:
            return True
        if key in self.shared and len(self.touched) < MAX_GROWN:
            self.touched.add(key)
            return True
        return False

    def __getitem__(self, key):
        self.touched.add(key)
        return self.shared[key]

    def __setitem__(self, key, value):
        self.touched.add(key)
        self.shared[key] = value

    def __len__(self):
        return len(self.touched)


class Grower:
    """The expected tree and the trees grown below students' choices, each grown once."""

    def __init__(self, data, options):
        from ..criteria import criterion_named

        self.data = data
        self.options = dict(options)
        self.criterion = criterion_named(self.options.get("criterion", "gain"))
        self.binary = self.criterion.binary  # CART: two branches
        X = np.asarray(data.X)
        self.X = X
        self.complete = not (X.size and X.min() < 0)
        self.carry_note = None
        if not self.complete and self.binary:
            self.carry_note = "not graded: the data has missing values, which CART routes by surrogate splits"
        elif self.options.get("prune") == "reduced-error":
            self.carry_note = "not graded: reduced-error pruning needs the validation rows of the subtree"
        self._tree = None
        self._all_grown = {}
        self._grown = _SheetView(self._all_grown)
        self.problem = None   # why the last subtree below a wrong choice could not be grown
        self._numbers = {}

    def new_sheet(self):
        """Start grading another sheet: the subtrees grown so far stay (a class shares them), the budget of
        MAX_GROWN subtrees counts this sheet's own, exactly as if it were graded alone."""
        self._grown = _SheetView(self._all_grown)
        self.problem = None

    def spent(self) -> bool:
        """Whether this sheet has grown its :data:`MAX_GROWN` subtrees."""
        return len(self._grown) >= MAX_GROWN

    @staticmethod
    def budget_note() -> str:
        return f"not graded: more than {MAX_GROWN} subtrees grown below wrong choices in one answers file"

    def root(self) -> Expected:
        if self._tree is None:
            from ..growing import build_tree

            self._tree = build_tree(self.data, **self.options)
        return Expected(self, (), self._tree.root)

    @property
    def tree(self):
        self.root()
        return self._tree

    @property
    def numeric_any(self) -> bool:
        return "numeric" in self.data.kinds

    @property
    def threshold_rule(self) -> str:
        """Where a numeric cut lies: ``data`` (the largest value below the midpoint) or ``midpoint``."""
        return self.options.get("threshold") or self.criterion.threshold

    def can_carry(self) -> bool:
        return self.carry_note is None

    def numbers(self, j):
        """Column j's exact values, row by row (None where missing)."""
        if j not in self._numbers:
            nums = list(self.data.numbers[j]) + [None]   # code -1 (missing): None
            self._numbers[j] = [nums[c] for c in self.X[:, j].tolist()]
        return self._numbers[j]

    def side_mask(self, feature, op, value):
        """The rows a condition holds for (a row whose value is missing: none)."""
        data = self.data
        j = data.features.index(feature)
        col = self.X[:, j]
        if op == "=":
            return col == data.domains[j].index(value)
        if op == "known":
            return col >= 0
        if op in ("in", "not in"):
            inside = np.isin(col, [data.domains[j].index(v) for v in value])
            return inside if op == "in" else ~inside & (col >= 0)
        test = {"<=": lambda x: x <= value, ">": lambda x: x > value, "<": lambda x: x < value,
                ">=": lambda x: x >= value}[op]
        return np.array([x is not None and test(x) for x in self.numbers(j)], bool)

    def weights(self, conds):
        """C4.5: each row's weight at the node ``conds`` (0: it does not reach it): a row whose value is
        missing goes down every branch, its weight times the branch's share of the known weight
        (:data:`infotree.routing.FRACTIONAL_WEIGHTS`, as the builder sends it)."""
        from ..routing import FRACTIONAL_WEIGHTS

        data = self.data
        w = [Fraction(1)] * len(data.y)
        for f, op, v in conds:
            j = data.features.index(f)
            missing = (self.X[:, j] < 0).tolist()
            branches = [(f, "=", x) for x in data.domains[j]] if op == "=" else [(f, "<=", v), (f, ">", v)]
            sides = [self.side_mask(*b) for b in branches]
            mine = branches.index((f, op, v))
            known = [sum((w[i] for i in np.flatnonzero(m).tolist()), Fraction(0)) for m in sides]
            share = FRACTIONAL_WEIGHTS.shares(known)[mine]
            chosen = sides[mine].tolist()
            w = [wi if chosen[i] else wi * share if missing[i] else Fraction(0) for i, wi in enumerate(w)]
        return w

    def mask(self, conds):
        """The rows that satisfy every condition of ``conds``."""
        mask = np.ones(len(self.data.y), bool)
        for f, op, v in conds:
            mask &= self.side_mask(f, op, v)
        return mask

    def side_named(self, conds, test, feature, cond):
        """The branch (0 or 1) of the binary split ``test`` on ``feature`` at the node of ``conds`` that the
        condition ``cond`` (feature, op, value) names, or None.  A condition names a side when it selects
        exactly that side's rows of the node (``Start >= 8.5`` names ``Start > 8.5`` when no row lies
        between), or, written ``feature = value``, when the value lies on that side of a subset split."""
        f, op, v = cond
        if f != feature:
            return None
        if op == "=" and hasattr(test, "left_values"):
            for b, side in enumerate((test.left_values, test.right_values)):
                if v in side:
                    return b
            return None
        rows = self.mask(conds)
        known = rows & self.side_mask(f, "known", None)
        chosen = known & self.side_mask(f, op, v)
        for b in (0, 1):
            if np.array_equal(chosen, known & self.side_mask(*split_condition(test, b, feature))):
                return b
        return None

    def full_at(self, conds):
        """The root of the builder's full growth (no cp rule) on the rows of ``conds``, or None."""
        key = ("full",) + tuple(conds)
        if key not in self._grown:
            saved = self.options
            self.options = dict(saved, cp=None)
            try:
                grown = self.grown_at(conds)
            finally:
                self.options = saved
            self._grown[key] = None if grown is None else grown.node
        return self._grown[key]

    def forced(self, forced, rows):
        """CART: the node with ``rows`` in the tree rpart's rules give when the student's splits ``forced``
        ({rows of a node: (feature, (left condition, right condition))}) are taken where they were written:
        the builder's full growth everywhere else, then the cp rule over the whole tree (its alpha and its
        bounds from parent to child, as rpart passes them).  None past the budget."""
        key = ("forced", tuple(sorted(forced)))
        if key not in self._grown:
            if len(self._grown) >= MAX_GROWN:
                return None
            views = {}
            root = self._view(self.full_at(()), (), forced, views)
            if self.options.get("cp") is not None:
                from types import SimpleNamespace

                from ..prune import cp_prune

                cp_prune(SimpleNamespace(root=root), self.options["cp"])
            self._grown[key] = views
        return self._grown[key].get(rows.tobytes())

    def _view(self, node, conds, forced, views):
        rows = self.mask(conds)
        view = _Forced(node)
        views[rows.tobytes()] = view
        key = rows.tobytes()
        if key in forced:
            view.feature, sides = forced[key]
            view.test = ("forced", sides)
            for cond in sides:
                child = self.full_at(conds + (cond,))
                view.children.append(self._view(child, conds + (cond,), forced, views))
        elif node.split is not None:
            view.feature, view.test = node.split_feature, node.test
            for b in (0, 1):
                cond = split_condition(node.test, b, view.feature)
                view.children.append(self._view(node.children[b], conds + (cond,), forced, views))
        return view

    def examined_at(self, conds):
        """The builder's root node on the rows that satisfy ``conds``, its candidates examined (one level,
        no minimum size to split, no pruning): the records of measures at a node off the tree."""
        key = ("examined",) + tuple(conds)
        if key not in self._grown:
            saved = self.options
            self.options = dict(saved, max_depth=len(conds) + 1, min_samples_split=1, prune="none",
                                **({"cp": None, "min_leaf": 1} if self.binary else {}))
            try:
                grown = self.grown_at(conds)
            finally:
                self.options = saved
            self._grown[key] = grown
        grown = self._grown[key]
        return None if grown is None else grown.node

    def _grown_at_path(self, conds, mask, weights=None):
        """ID3 and C4.5: the builder run from the rows of ``conds`` at that path of the whole data, as it
        grows a node there (C4.5's many-values rule counts the whole data's rows; the path's nominal
        features are no longer ID3's candidates), then C4.5's collapse and pessimistic pruning of it."""
        from ..splits import NominalSplit, ThresholdSplit
        from ..tree import Tree
        from ..growing import _builder

        data, full = self.data, self.tree
        t = Tree(features=data.features, domains=data.domains, classes=data.classes, target=data.target,
                 criterion=full.criterion, params=full.params, kinds=data.kinds, numbers=data.numbers)
        coded, tests = [], []
        for f, op, v in conds:
            j = data.features.index(f)
            if op == "=":
                tests.append(NominalSplit(j, data.domains[j]))
                coded.append((j, data.domains[j].index(v)))
            else:
                tests.append(ThresholdSplit(j, Fraction(v)))
                coded.append((j, 0 if op == "<=" else 1))
        t.path_tests = tuple(tests)
        rows = np.flatnonzero(mask).astype(np.int64)
        builder = _builder(t.criterion, "auto" if weights is None else "reference")(
            t, self.X, np.asarray(data.y, dtype=np.int64))
        builder.run(rows, coded) if weights is None else builder.run(rows, coded, weights)
        w = None if weights is None else np.array([weights[r] for r in rows.tolist()], dtype=object)
        if full.params.get("collapse"):
            from ..prune import collapse

            collapse(t.root)
        if full.params.get("prune") == "pessimistic":
            from ..prune import _Pessimistic

            _Pessimistic(t, data, float(full.params["confidence"])).prune(t.root, rows, w)
        return t.root

    def grown_at(self, conds, parent_labels=()) -> Expected:
        """The root of the tree the builder grows on the rows that satisfy ``conds``."""
        key = tuple(conds)
        if key in self._grown:
            return self._grown[key]
        if len(self._grown) >= MAX_GROWN:
            return None
        data = self.data
        X = self.X
        weights = None if self.complete or self.binary else self.weights(conds)
        if weights is not None and max(w.denominator for w in weights) > MAX_WEIGHT_DENOMINATOR:
            # exact entropies of such weights factor large integers: seconds per subtree
            self.problem = (f"not graded: C4.5's weights below this choice have denominators past "
                            f"{MAX_WEIGHT_DENOMINATOR:,}")
            return None
        mask = self.mask(conds) if weights is None else np.array([w > 0 for w in weights], bool)
        if not self.binary:
            try:
                node = self._grown_at_path(key, mask, weights) if mask.any() else None
            except InfotreeError as e:  # C4.5's weights deep below a wrong choice: numbers past the limits
                self.problem = f"not graded: {e}"
                return None
            out = Expected(self, key, node, parent_labels)
            self._grown[key] = out
            return out
        kinds = data.kinds or ("nominal",) * len(data.features)
        # ID3 tests a nominal feature once on a path; C4.5 keeps considering it (its missing rows may be
        # there), as CART may split it again.
        drop = set() if self.criterion.considers_used else {
            data.features.index(f) for f, op, _ in conds if op == "=" and kinds[data.features.index(f)] == "nominal"}
        if not mask.any():
            out = Expected(self, key, None, parent_labels)
        else:
            keep = [j for j in range(len(data.features)) if j not in drop]
            sub = dataclasses.replace(
                data, features=tuple(data.features[j] for j in keep), domains=tuple(data.domains[j] for j in keep),
                X=X[mask][:, keep], y=np.asarray(data.y)[mask], lines=None,
                kinds=None if data.kinds is None else tuple(data.kinds[j] for j in keep),
                numbers=None if data.numbers is None else tuple(data.numbers[j] for j in keep))
            opts = dict(self.options)
            if opts.get("max_depth") is not None:
                opts["max_depth"] = max(0, opts["max_depth"] - len(key))
            from ..growing import build_tree

            if keep:
                root = build_tree(sub, **opts).root
            else:  # no feature left: the builder's leaf, from a one-feature copy it cannot split
                root = build_tree(dataclasses.replace(sub, features=("_",), domains=(("_",),),
                                                      X=np.zeros((int(mask.sum()), 1), int), kinds=None,
                                                      numbers=None), **opts).root
            out = Expected(self, key, root, parent_labels)
        self._grown[key] = out
        return out
