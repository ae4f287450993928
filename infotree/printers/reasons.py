"""Why a node was split or made a leaf, in words: the stop reasons and pruning notes.

Every printer, ``Tree.explain`` and the JSON ``reason`` field read these sentences;
a pruning record's note is chosen by the record's type.
"""

from __future__ import annotations

from ..exact import decimal_text
from ..records import Complexity, CostComplexity, Pessimistic, ReducedError

__all__ = ["STOPS", "reason"]

#: A leaf's stop code and its sentence (formatted with the node and its tree).
STOPS = {
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
    "mofn_zero_gain": "stopped: the M-of-N test grown here has information gain 0; majority leaf",
    "no_decrease": "stopped: no binary split decreases the impurity",  # regression: the SSE
    "no_split": "stopped: no binary split leaves min_leaf = {tree.params[min_leaf]} rows on each side",
    "collapsed": "collapsed: the subtree below made {node.collapsed_errors} training errors, no fewer than this leaf's {node.errors}",
}


def _cp_value(x) -> str:
    """A cp record's value: exact, or for a Poisson deviance (logarithms of many primes, exact in
    the JSON's pruning record) its decimal."""
    exact = x.rational() if hasattr(x, "rational") else x
    return str(exact) if exact is not None else "≈" + decimal_text(x, 6)


def reason(node) -> str:
    """Why ``node`` was split or made a leaf."""
    t = node.tree
    if node.split is not None:
        what = t.criterion.title
        if node.m_of_n:
            what = "the M-of-N test grown from the best single condition (ID2-of-3); its information gain is positive"
        if t.params.get("lookahead"):
            what += " after lookahead 1 (each feature scored by its best two-level split)"
        if node.ties:
            others = ", ".join(t.features[j] for j in node.ties)
            what = f"{what}; tied exactly with {others}, broken by column order (first feature wins)"
        return what + _drawn(node) + pruning_note(node.pruned)
    if node.stop in ("pruned", "cp", "cost_complexity"):
        return pruning_note(node.pruned)[2:]
    if node.stop == "pure" and t.criterion.regression:
        return f"pure: every row has {t.target} = {node.label_name} (SSE 0)"
    return STOPS[node.stop].format(node=node, tree=t) + ("" if node.stop in _NOT_CHOSEN else _drawn(node))


# Leaves decided before any feature was looked at: a forest's draw had no say.
_NOT_CHOSEN = ("pure", "empty", "max_depth", "min_samples_split", "too_few", "loaded", "collapsed")


def _drawn(node) -> str:
    """A forest's node: the features it was allowed to choose from ("" for a tree's node)."""
    t = node.tree
    considered = node.considered if t.draw is not None else None
    if considered is None:
        return ""
    names = [t.features[j] for j, on in enumerate(considered.tolist()) if on]
    return f" (among the features drawn here: {', '.join(names) or 'none'})"


def pruning_note(r) -> str:
    """What pruning decided at a node, with its numbers ("" when pruning did not look at it)."""
    if r is None:
        return ""
    if isinstance(r, Complexity):
        v = _cp_value
        if r.action == "not tried":
            return (f"; not split (rpart's cp rule): its risk bound {v(r.bound)} <= alpha = cp·R(root) = {v(r.alpha)}")
        verb, cmp = ("collapsed", "<=") if r.action == "collapsed" else ("kept", ">")
        return (f"; {verb} (rpart's cp rule): complexity (R(t) - R(subtree))/splits = ({v(r.risk)} - "
                f"{v(r.subtree_risk)})/{r.splits} = {v(r.complexity)} {cmp} alpha = {v(r.alpha)}")
    if isinstance(r, CostComplexity):
        link = r.link
        verb, cmp = ("collapsed", "<=") if r.action == "collapsed" else ("kept", ">")
        return (f"; {verb} (cost-complexity): its weakest-link alpha (R(t) - R(T_t))/(leaves - 1) = "
                f"({link.risk} - {link.subtree_risk})/({link.leaves} - 1) = {link.alpha} {cmp} alpha = {r.alpha}")
    if isinstance(r, ReducedError):
        verb, cmp = ("pruned", "<=") if r.action == "leaf" else ("kept", ">")
        return (f"; {verb} (reduced-error): validation errors as a leaf {r.validation_leaf} {cmp} "
                f"{r.validation_subtree} of the subtree (validation weight {r.validation_weight})")
    assert isinstance(r, Pessimistic), r
    est = (f"estimated errors (CF = {r.confidence:g}, estimates): leaf {r.leaf:.4f}, subtree "
           f"{r.subtree:.4f}, largest branch ({' '.join(r.largest)}) {r.largest_branch:.4f}")
    raised = r.after_raising or (r if r.action == "raised" else None)
    before = ""
    if raised:
        before = (f"; subtree raised (C4.5): its largest branch ({' '.join(raised.largest)}, estimated "
                  f"{raised.largest_branch:.4f} against the subtree's {raised.subtree:.4f}) replaced it, "
                  f"with all of this node's rows sent down again")
        if r is raised:
            return before
    if r.action == "leaf":
        return f"{before}; pruned (C4.5): {est}; a leaf is within 0.1 of both"
    return f"{before}; kept by pruning (C4.5): {est}"
