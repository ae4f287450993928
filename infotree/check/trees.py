"""Grading tree claims node by node, with carry-forward after a wrong choice.

The expected tree is the one ``infotree tree`` grows with the same options
(:func:`~infotree.growing.build_tree`).  A claimed node is compared with the expected
node at the same place.  Where the student splits on another feature (or cuts a
numeric feature elsewhere), the node is wrong (or right, for a feature tied exactly
with the builder's), and the subtree below is graded against the tree grown from the
student's own choice: for each claimed branch, the builder is run from the rows that
reach it, at that path of the whole data, as it grows any node (ID3 no longer considers
the path's nominal features; C4.5's many-values rule counts the whole data's rows), then
collapsed and pruned (pessimistic) as ``build_tree`` does.  That is what the builder would
grow below a forced split: every other decision of ID3 and C4.5 looks only at the rows of
the node (C4.5's subtree raising aside, which can move rows from a sibling into a node).
With missing values the rows reach the branch with C4.5's weights (:meth:`Grower.weights`).

CART (binary splits): a claimed split is right when it sends the node's rows the same
way as a split of maximal decrease (``Start < 8.5`` is ``Start <= 8.5`` when no row has
8.5).  rpart's cp rule is not local (alpha = cp·R(root), and bounds passed from a node
to its children that depend on the siblings grown first), so carry-forward forces the
student's splits on the builder's full growth and runs :func:`~infotree.prune.cp_prune`
over the whole tree (:meth:`Grower.forced`).

The builder's surface used here: ``build_tree``; a Node's ``split``, ``split_feature``,
``ties``, ``threshold``, ``children``, ``class_counts``, ``n``, ``errors``, ``label_name``,
``reason``, ``candidates()`` (``feature``, ``gain``, ``split_info``, ``gain_ratio``),
``tree`` (``features``, ``classes``, ``domains``); a Tree's ``root``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..errors import InfotreeError
from ..exact import decimal_text
from .treetext import ClaimedLeaf

__all__ = ["Expected", "Grower", "MAX_GROWN", "MAX_WEIGHT_DENOMINATOR", "NodeVerdict", "grade_tree"]

#: Most subtrees grown for carry-forward in one answers file (each is a build on the rows of a
#: node); beyond it the subtrees below a wrong choice are reported as not graded.
MAX_GROWN = 500
#: C4.5 carry-forward: the largest denominator of a row's weight at a node a subtree is grown from.
MAX_WEIGHT_DENOMINATOR = 10 ** 6


@dataclasses.dataclass(frozen=True)
class NodeVerdict:
    """The verdict on one claimed line of a tree."""

    line: int
    path: str                  # "outlook = sunny, humidity <= 75" or "root"
    verdict: str               # right, wrong or ungraded
    message: str = ""
    carried: bool = False      # graded against the tree grown from the student's earlier choice


class Expected:
    """What the node at ``conds`` is: a view of a builder Node (None: no training row reaches it)."""

    def __init__(self, grower, conds, node, parent_labels=(), forced=None):
        self.grower, self.conds, self.node = grower, tuple(conds), node
        self.parent_labels = parent_labels
        self.forced = forced or {}   # CART: the student's splits this node's tree was grown with (see Grower.forced)

    @property
    def n(self):
        return 0 if self.node is None else self.node.n

    @property
    def errors(self):
        return 0 if self.node is None else self.node.errors

    @property
    def feature(self):
        return None if self.node is None else self.node.split_feature

    @property
    def splits(self) -> tuple:
        """Acceptable split features, the builder's choice first (ties follow)."""
        if self.feature is None:
            return ()
        feats = self.node.tree.features
        return (self.feature,) + tuple(feats[j] for j in self.node.ties)

    @property
    def threshold(self):
        return None if self.node is None else self.node.threshold

    @property
    def leaf_text(self) -> str:
        """``a leaf of class yes``, or (regression) ``a leaf predicting 187.5``."""
        if self.node is not None and self.node.tree.criterion.regression:
            return f"a leaf predicting {_or(self.labels)}"
        return f"a leaf of class {_or(self.labels)}"

    def has_label(self, text) -> bool:
        """Whether a leaf's class (a regression leaf's mean, as written) is one this node takes."""
        if self.node is not None and self.node.tree.criterion.regression:
            return self.n and _matches(self.node.mean, text)
        return text in self.labels

    @property
    def labels(self) -> tuple:
        """Acceptable leaf classes: every class of maximal count (an empty node: its parent's);
        a regression node's mean."""
        if self.node is None or not self.n:
            return self.parent_labels or ((self.node.label_name,) if self.node is not None else ())
        if self.node.tree.criterion.regression:
            return (self.node.label_name,)
        classes = self.node.tree.classes
        counts = [Fraction(c) for c in self.node.class_counts.tolist()]
        top = max(counts)
        first = self.node.label_name
        return (first,) + tuple(c for c, k in zip(classes, counts) if k == top and c != first)

    @property
    def reason(self) -> str:
        if self.node is None:
            return "empty branch: no training rows; labelled with the parent's majority class"
        return self.node.reason

    def child(self, key) -> "Expected":
        """The builder's child along ``key`` (``("=", value)``, ``("<=", "")``, ``(">", "")``; CART:
        ``("side", 0 or 1)``)."""
        node = self.node
        op, value = key
        if op == "side":
            return Expected(self.grower, self.conds + (split_condition(node.test, value, self.feature),),
                            node.children[value], self.labels, self.forced)
        if op == "=":
            idx = node.tree.domains[node.split].index(value)
            cond = (self.feature, "=", value)
        else:
            idx = 0 if op == "<=" else 1
            cond = (self.feature, op, node.threshold)
        child = node.children[idx]
        return Expected(self.grower, self.conds + (cond,), child, self.labels)

    def describe(self) -> str:
        if self.feature is None:
            return f"is {self.leaf_text}"
        if self.grower.binary:
            left = cond_text(split_condition(self.node.test, 0, self.feature))
            return f"splits on {left} ({cond_text(split_condition(self.node.test, 1, self.feature))})"
        at = f" at {number_text(self.threshold)}" if self.threshold is not None else ""
        if len(self.splits) > 1:
            return f"splits on {_or(self.splits)} (tied exactly)"
        return f"splits on {self.feature}{at}"


def number_text(q) -> str:
    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    d = q.denominator
    k = 0
    while d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
        k += 1
    return decimal_text(q, k) if d == 1 and k <= 30 else f"{q.numerator}/{q.denominator}"


def cond_text(cond) -> str:
    """``outlook = sunny``, ``humidity <= 75``, ``outlook in {sunny, rainy}``."""
    f, op, v = cond
    if op in ("in", "not in"):
        return f"{f} {op} {{{', '.join(v)}}}"
    if op == "known":
        return f"{f} known"
    return f"{f} {op} {v}" if op == "=" else f"{f} {op} {number_text(v)}"


def where(conds) -> str:
    return ", ".join(map(cond_text, conds))


def split_condition(test, side, feature) -> tuple:
    """(feature, op, value) of branch ``side`` (0 left, 1 right) of a CART split."""
    if getattr(test, "threshold", None) is not None:
        return (feature, "<=" if side == 0 else ">", test.threshold)
    return (feature, "in" if side == 0 else "not in", test.left_values)


def where_the(conds) -> str:
    return f"the node {where(conds)}" if conds else "the root"


def _or(names) -> str:
    return " or ".join(names)


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


def _claimed_cond(feature, key, threshold):
    op, value = key
    return (feature, op, value if op == "=" else Fraction(threshold))


def grade_tree(grower: Grower, claimed, names) -> list[NodeVerdict]:
    """A verdict for every line of the claimed tree, in line order."""
    out: list[NodeVerdict] = []
    _grade(grower, claimed, grower.root(), names, out, carried=False)
    out.sort(key=lambda v: v.line)
    return out


def _grade(grower, claimed, exp: Expected, names, out, carried):
    conds = exp.conds
    here = where(conds) or "root"
    if isinstance(claimed, ClaimedLeaf):
        out.append(_grade_leaf(claimed, exp, carried))
        return
    if grower.binary:
        _grade_binary(grower, claimed, exp, names, out, carried)
        return
    feature = claimed.feature
    threshold = None if claimed.threshold is None else Fraction(claimed.threshold)
    right_feature = feature in exp.splits
    # A tied feature's cut is not recorded: the subtree below is grown from the student's cut.
    same_cut = feature != exp.feature or (threshold is None) == (exp.threshold is None) and (
        threshold is None or threshold == exp.threshold)
    follow_builder = feature == exp.feature and same_cut
    if right_feature and same_cut:
        msg = "" if feature == exp.feature else (f"{feature} ties exactly with {exp.feature}, which the builder "
                                                  f"takes (first in column order); both are right")
        out.append(NodeVerdict(claimed.number, here, "right", msg, carried))
    else:
        if right_feature:
            msg = (f"{where_the(conds)} splits on {feature} at {number_text(exp.threshold)}, "
                   f"not at {claimed.threshold}")
        elif exp.feature is None:
            msg = f"{where_the(conds)} is {exp.leaf_text}, not a split on {feature}"
        else:
            msg = f"{where_the(conds)} {exp.describe()}, not on {feature}"
        out.append(NodeVerdict(claimed.number, here, "wrong", msg, carried))
    below_carried = carried or not follow_builder
    present = set(claimed.branches)
    for key in _branch_keys(feature, threshold, names):
        cond = _claimed_cond(feature, key, claimed.threshold)
        if follow_builder:
            child = exp.child(key)
        else:
            child = grower.grown_at(conds + (cond,), exp.labels) if grower.can_carry() else None
        if child is None:
            note = grower.carry_note or grower.problem or (f"not graded: more than {MAX_GROWN} subtrees grown "
                                                           f"below wrong choices in one answers file")
            if key in present:
                for line in _lines_of(claimed.branches[key]):
                    out.append(NodeVerdict(line, where(conds + (cond,)), "ungraded", note, True))
            continue
        if key in present:
            _grade(grower, claimed.branches[key], child, names, out, below_carried)
        elif child.n:
            rows = number_text(child.n)
            out.append(NodeVerdict(claimed.number, where(conds + (cond,)), "wrong",
                                   f"branch {where(conds + (cond,))} ({rows} row{'s' if child.n != 1 else ''}) "
                                   f"is missing", below_carried))


def complement(cond) -> tuple:
    """The other branch of a binary split: ``x <= t`` for ``x > t``, ``not in S`` for ``in S``."""
    f, op, v = cond
    return (f, {"<=": ">", ">": "<=", "<": ">=", ">=": "<", "in": "not in", "not in": "in"}[op], v)


def binary_choices(exp) -> list:
    """The splits the builder could take at a CART node: each of maximal decrease (ties included),
    the builder's own first, as (feature, test); none at a leaf."""
    node = exp.node
    if node is None or node.split is None:
        return []
    cands = node.candidates()
    best = max(c.decrease for c in cands)
    out = [(exp.feature, node.test)]
    for c in cands:
        if c.decrease == best:
            out.extend((c.feature, t) for t in (c.split,) + tuple(c.ties) if t != node.test)
    return out


def _grade_binary(grower, claimed, exp, names, out, carried):
    """A claimed CART split: right when it cuts the node's rows as a split of maximal decrease does
    (``Start < 8.5`` is ``Start <= 8.5`` when no row has 8.5; ``{sunny, rainy}`` is ``not in {overcast}``)."""
    conds = exp.conds
    here = where(conds) or "root"
    feature = claimed.feature
    rows = grower.mask(conds)
    sides = {key: rows & grower.side_mask(feature, *key) for key in claimed.branches}
    keys = list(claimed.branches)
    claimed_text = " / ".join(cond_text((feature, *k)) for k in keys)
    match = None  # (index among the choices, {claimed key: builder side})
    for i, (f, test) in enumerate(binary_choices(exp)):
        if f != feature:
            continue
        parts = [rows & grower.side_mask(*split_condition(test, b, f)) for b in (0, 1)]
        pairing = {}
        for key in keys:
            b = next((b for b in (0, 1) if np.array_equal(sides[key], parts[b])), None)
            if b is None or b in pairing.values():
                break
            pairing[key] = b
        else:
            match = (i, pairing)
            break
    if match is not None:
        msg = ""
        if match[0]:
            msg = (f"{claimed_text} decreases the impurity exactly as much as the builder's "
                   f"{cond_text(split_condition(exp.node.test, 0, exp.feature))}; both are right")
        out.append(NodeVerdict(claimed.number, here, "right", msg, carried))
    else:
        cover = rows & (grower.X[:, grower.data.features.index(feature)] >= 0)
        if len(keys) == 2 and ((sides[keys[0]] & sides[keys[1]]).any()
                               or not np.array_equal(sides[keys[0]] | sides[keys[1]], cover)):
            msg = f"{claimed_text} does not cut the rows of {where_the(conds)} in two"
        elif exp.feature is None:
            msg = f"{where_the(conds)} is {exp.leaf_text}, not a split on {claimed_text}"
        else:
            msg = f"{where_the(conds)} {exp.describe()}, not on {claimed_text}"
        out.append(NodeVerdict(claimed.number, here, "wrong", msg, carried))
    follow = match is not None and match[0] == 0
    carried_children = {}
    if not follow and grower.can_carry():
        sides = tuple((feature, *k) for k in keys)
        if len(sides) == 1:
            sides += (complement(sides[0]),)
        parts = [rows & grower.side_mask(*c) for c in sides]
        if parts[0].any() and parts[1].any() and not (parts[0] & parts[1]).any():
            forced = dict(exp.forced)
            forced[rows.tobytes()] = (feature, sides)
            view = grower.forced(forced, rows)
            if view is not None:
                below = view.kept if view.kept is not None else view.children
                carried_children = {key: Expected(grower, conds + (cond,), child, exp.labels, forced)
                                    for key, cond, child in zip(keys, sides, below)}
    for key in keys:
        cond = (feature, *key)
        if follow:
            child = exp.child(("side", match[1][key]))
            child = Expected(grower, conds + (cond,), child.node, child.parent_labels, child.forced)  # the student's words
        else:
            child = carried_children.get(key)
        if child is None:
            note = grower.carry_note or (f"not graded: more than {MAX_GROWN} subtrees grown below wrong "
                                         f"choices in one answers file" if len(grower._grown) >= MAX_GROWN else
                                         "not graded: the split above does not cut the node's rows in two")
            for line in _lines_of(claimed.branches[key]):
                out.append(NodeVerdict(line, where(conds + (cond,)), "ungraded", note, True))
            continue
        _grade(grower, claimed.branches[key], child, names, out, carried or not follow)
    if len(keys) == 1 and exp.feature is not None and follow:
        other = exp.child(("side", 1 - match[1][keys[0]]))
        if other.n:
            out.append(NodeVerdict(claimed.number, where(other.conds), "wrong",
                                   f"branch {where(other.conds)} ({number_text(other.n)} rows) is missing", carried))


def _branch_keys(feature, threshold, names):
    if threshold is not None:
        return [("<=", ""), (">", "")]
    return [("=", v) for v in names.domain[feature]]


def _lines_of(claimed):
    if isinstance(claimed, ClaimedLeaf):
        return [claimed.number]
    out = [claimed.number]
    for k, child in claimed.branches.items():
        out.extend(_lines_of(child))
    return sorted(set(out))


def _grade_leaf(claimed: ClaimedLeaf, exp: Expected, carried) -> NodeVerdict:
    conds = exp.conds
    here = where(conds) or "root"
    leaf_at = f"the leaf {where(conds) or 'at the root'}"
    if exp.feature is not None:
        return NodeVerdict(claimed.number, here, "wrong", f"{where_the(conds)} is not a leaf: it {exp.describe()}",
                           carried)
    problems = []
    if not exp.has_label(claimed.label):
        empty = (" (no training row reaches it: an empty branch takes its parent's majority class)"
                 if not exp.n else "")
        what = "predicts" if exp.node is not None and exp.node.tree.criterion.regression else "has class"
        problems.append(f"{leaf_at} {what} {_or(exp.labels)}, not {claimed.label}{empty}")
    if claimed.counts is not None:
        n_text, e_text = claimed.counts
        if not (_matches(exp.n, n_text) and (e_text is None or _matches(exp.errors, e_text))):
            n, e = exp.n, exp.errors
            shown = f"({_count(n)}/{_count(e)})" if e else f"({_count(n)})"
            if exp.node.tree.criterion.regression:
                problems.append(f"{leaf_at} has {_count(n)} row{'s' if n != 1 else ''} and SSE {number_text(e)}, "
                                f"not ({claimed.counts_text})")
            else:
                problems.append(f"{leaf_at} has {_count(n)} row{'s' if n != 1 else ''} and {_count(e)} training "
                                f"errors {shown}, not ({claimed.counts_text})")
    if problems:
        return NodeVerdict(claimed.number, here, "wrong", "; ".join(problems), carried)
    return NodeVerdict(claimed.number, here, "right", "", carried)


def _count(x) -> str:
    q = Fraction(x)
    return str(q.numerator) if q.denominator == 1 else decimal_text(q, 2)


def _matches(value, text: str) -> bool:
    """A count (or a mean) as written (``3``, ``3.0``, ``3.38``, ``370/3``, ``-2.5``) is the value rounded to
    the decimals written, or the value itself."""
    decimals = len(text.partition(".")[2]) if "/" not in text else 0
    try:
        return decimal_text(Fraction(value), decimals) == text or Fraction(text) == Fraction(value)
    except ZeroDivisionError:  # "SSE = 1/0"
        return False
