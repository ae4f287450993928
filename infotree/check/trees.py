"""Grading tree claims node by node, with carry-forward after a wrong choice.

The expected tree is the one ``infotree tree`` grows with the same options
(:func:`~infotree.growing.build_tree`).  A claimed node is compared with the expected
node at the same place (:class:`~.expected.Expected`).  Where the student splits on another
feature (or cuts a numeric feature elsewhere), the node is wrong (or right, for a feature tied
exactly with the builder's), and the subtree below is graded against the tree grown from the
student's own choice (:mod:`.grower`).

CART (binary splits): a claimed split is right when it sends the node's rows the same
way as a split of maximal decrease (``Start < 8.5`` is ``Start <= 8.5`` when no row has
8.5).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..decimals import decimal_text
from .expected import (Expected, _matches, _or, binary_choices, complement, cond_text, number_text, split_condition,
                       where, where_the)
from .grower import Grower
from .treetext import ClaimedLeaf

__all__ = ["NodeVerdict", "grade_tree"]


@dataclasses.dataclass(frozen=True)
class NodeVerdict:
    """The verdict on one claimed line of a tree."""

    line: int
    path: str                  # "outlook = sunny, humidity <= 75" or "root"
    verdict: str               # right, wrong or ungraded
    message: str = ""
    carried: bool = False      # graded against the tree grown from the student's earlier choice


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
            note = grower.carry_note or grower.problem or grower.budget_note()
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
            note = grower.carry_note or (grower.budget_note() if grower.spent() else
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
