"""Grading tree claims node by node, with carry-forward after a wrong choice.

The expected tree is the one ``infotree tree`` grows with the same options
(:func:`~infotree.tree.build_tree`).  A claimed node is compared with the expected
node at the same place.  Where the student splits on another feature (or cuts a
numeric feature elsewhere), the node is wrong (or right, for a feature tied exactly
with the builder's), and the subtree below is graded against the tree grown from the
student's own choice: for each claimed branch, the builder is run on the rows that
reach it (the path's nominal features removed, as the builder does, and the depth
budget reduced by the path's length).  That is what the builder would grow below a
forced split, because every decision of ID3 and C4.5 (gain, gain ratio, average-gain
filter, minimum objects, thresholds, collapsing, pessimistic pruning) looks only at
the rows of the node.  It needs complete data: with missing values C4.5 sends
fractional rows down every branch, so the subtree below a wrong choice is reported
as not graded.

The builder's surface used here: ``build_tree``; a Node's ``split``, ``split_feature``,
``ties``, ``threshold``, ``children``, ``class_counts``, ``n``, ``errors``, ``label_name``,
``reason``, ``candidates()`` (``feature``, ``gain``, ``split_info``, ``gain_ratio``),
``tree`` (``features``, ``classes``, ``domains``); a Tree's ``root``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..exact import decimal_text
from .treetext import ClaimedLeaf

__all__ = ["Expected", "Grower", "MAX_GROWN", "NodeVerdict", "grade_tree"]

#: Most subtrees grown for carry-forward in one answers file (each is a build on the rows of a
#: node); beyond it the subtrees below a wrong choice are reported as not graded.
MAX_GROWN = 500


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

    def __init__(self, grower, conds, node, parent_labels=()):
        self.grower, self.conds, self.node = grower, tuple(conds), node
        self.parent_labels = parent_labels

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
    def labels(self) -> tuple:
        """Acceptable leaf classes: every class of maximal count (an empty node: its parent's)."""
        if self.node is None or not self.n:
            return self.parent_labels or ((self.node.label_name,) if self.node is not None else ())
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
        """The builder's child along ``key`` (``("=", value)``, ``("<=", "")``, ``(">", "")``)."""
        node = self.node
        op, value = key
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
            return f"is a leaf of class {_or(self.labels)}"
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


def where(conds) -> str:
    return ", ".join(f"{f} {op} {number_text(v) if op != '=' else v}" for f, op, v in conds)


def where_the(conds) -> str:
    return f"the node {where(conds)}" if conds else "the root"


def _or(names) -> str:
    return " or ".join(names)


class Grower:
    """The expected tree and the trees grown below students' choices, each grown once."""

    def __init__(self, data, options):
        self.data = data
        self.options = dict(options)
        X = np.asarray(data.X)
        self.complete = not (X.size and X.min() < 0)
        self.carry_note = None
        if not self.complete:
            self.carry_note = "not graded: the data has missing values, so C4.5 sends fractional rows down every branch"
        elif self.options.get("prune") == "reduced-error":
            self.carry_note = "not graded: reduced-error pruning needs the validation rows of the subtree"
        self._tree = None
        self._grown = {}

    def root(self) -> Expected:
        if self._tree is None:
            from ..tree import build_tree

            self._tree = build_tree(self.data, **self.options)
        return Expected(self, (), self._tree.root)

    @property
    def tree(self):
        self.root()
        return self._tree

    def can_carry(self) -> bool:
        return self.carry_note is None

    def grown_at(self, conds, parent_labels=()) -> Expected:
        """The root of the tree the builder grows on the rows that satisfy ``conds``."""
        key = tuple(conds)
        if key in self._grown:
            return self._grown[key]
        if len(self._grown) >= MAX_GROWN:
            return None
        data = self.data
        X = np.asarray(data.X)
        mask = np.ones(len(data.y), bool)
        drop = set()
        for f, op, v in conds:
            j = data.features.index(f)
            if op == "=":
                mask &= X[:, j] == data.domains[j].index(v)
                if (data.kinds or ("nominal",) * len(data.features))[j] == "nominal":
                    drop.add(j)
            else:
                nums = np.array(data.numbers[j], dtype=object)
                col = nums[X[:, j]] if len(X) else np.zeros(0, object)
                mask &= (col <= v) if op == "<=" else (col > v)
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
            from ..tree import build_tree

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
            msg = f"{where_the(conds)} is a leaf of class {_or(exp.labels)}, not a split on {feature}"
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
            note = grower.carry_note or (f"not graded: more than {MAX_GROWN} subtrees grown below wrong "
                                         f"choices in one answers file")
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
    if claimed.label not in exp.labels:
        empty = (" (no training row reaches it: an empty branch takes its parent's majority class)"
                 if not exp.n else "")
        problems.append(f"{leaf_at} has class {_or(exp.labels)}, not {claimed.label}{empty}")
    if claimed.counts is not None:
        n_text, e_text = claimed.counts
        if not (_matches(exp.n, n_text) and (e_text is None or _matches(exp.errors, e_text))):
            n, e = exp.n, exp.errors
            shown = f"({_count(n)}/{_count(e)})" if e else f"({_count(n)})"
            problems.append(f"{leaf_at} has {_count(n)} row{'s' if n != 1 else ''} and {_count(e)} training "
                            f"errors {shown}, not ({claimed.counts_text})")
    if problems:
        return NodeVerdict(claimed.number, here, "wrong", "; ".join(problems), carried)
    return NodeVerdict(claimed.number, here, "right", "", carried)


def _count(x) -> str:
    q = Fraction(x)
    return str(q.numerator) if q.denominator == 1 else decimal_text(q, 2)


def _matches(value, text: str) -> bool:
    """A count as written (``3``, ``3.0``, ``3.38``) is the value rounded to the decimals written."""
    decimals = len(text.partition(".")[2])
    return decimal_text(Fraction(value), decimals) == text or Fraction(text) == Fraction(value)
