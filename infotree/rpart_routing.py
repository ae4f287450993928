"""rpart's routing of new rows (``branch.c``, R's ``predict.rpart``), beside infotree's own.

Both send the training rows alike; a new row can differ in two places:

============================  =====================================  ====================================
a new row's value             infotree (the default)                 rpart (``routing="rpart"``)
============================  =====================================  ====================================
equal to a threshold t        ``x <= t``: the low side               ``x < t`` is false: the high side
a level the node's training   the side of the levels not listed      missing: surrogates, then the
rows never had                (right)                                majority (usesurrogate 2)
a level never seen at all     an error, or (``unseen="majority"``)   missing, as above (with
                              the node's prediction                  ``unseen="majority"``)
============================  =====================================  ====================================

Training values never equal a midpoint, so thresholds differ only on held-out rows (16.7
in penguins); rpart marks a level absent from a node's rows with 0 in its split's
``csplit`` row and treats it as missing.  infotree keeps the levels each subset split's
rows had in ``node.levels`` (:func:`record_levels`, run when a tree is grown); a saved
model lists a subset split's absent levels in its test (``"absent"``, written only when
there are some), so a loaded model routes as the grown one.
"""

from __future__ import annotations

import bisect

import numpy as np

from .errors import InfotreeError
from .splits import SubsetSplit

__all__ = ["ROUTINGS", "check_routing", "record_levels", "router"]

#: how new rows go down: infotree's rules or rpart's
ROUTINGS = ("infotree", "rpart")


def check_routing(routing) -> str:
    if routing not in ROUTINGS:
        raise InfotreeError(f"routing {routing!r} is not allowed; allowed: {', '.join(ROUTINGS)}")
    return routing


def _subset_nodes(tree):
    if "nominal" not in tree.kinds:  # only a nominal feature splits into subsets (a 200,000-node walk saved)
        return []
    return [n for n in tree.nodes() if isinstance(n.test, SubsetSplit)]


def record_levels(tree, data) -> None:
    """Keep in ``node.levels`` the value codes a subset split's training rows had (with the
    feature known), the rows routed as in training (infotree's rules and rpart's agree on
    them).  Nothing to do without a subset split.  Rows without a missing value go down
    in blocks; only those with one are routed row by row (surrogates)."""
    if tree._lazy is not None:  # the fast CART builder set them (infotree.grow.packed; a walk makes every node)
        return
    nodes = [n for n in _subset_nodes(tree) if n.levels is None]
    if not nodes:
        return
    from .complexity import node_path

    X = np.asarray(data.X)
    levels = {id(n): set() for n in nodes}
    complete = (X >= 0).all(axis=1)
    partial = np.flatnonzero(~complete)
    if partial.size:
        for codes in tree._codes(data.subset(partial), "majority"):
            for node in node_path(tree, codes):
                if id(node) in levels and tree._known(codes[node.split]) is not None:
                    levels[id(node)].add(codes[node.split])
    stack = [(tree.root, np.flatnonzero(complete))]
    while stack:
        node, rows = stack.pop()
        if node.split is None or not rows.size:
            continue
        x = X[rows, node.split]
        if isinstance(node.test, SubsetSplit):
            levels[id(node)].update(np.unique(x).tolist())
            low = np.isin(x, sorted(node.test.left))
        else:  # a threshold on the codes of sorted values: value <= t iff code < k
            low = x < bisect.bisect_right(tree.numbers[node.split], node.test.threshold)
        stack += [(node.children[0], rows[low]), (node.children[1], rows[~low])]
    for n in nodes:
        n.levels = frozenset(levels[id(n)])


def router(tree):
    """A function from a row of codes to the node it stops at under rpart's rules: a leaf, or
    a node where a missing value nothing routes keeps it (usesurrogate 0 or 1)."""
    from .complexity import node_path

    if not tree.criterion.binary:
        raise InfotreeError(f"rpart's routing is for CART trees; this tree's criterion is {tree.criterion.name!r}")
    nodes = _subset_nodes(tree)
    if any(n.levels is None for n in nodes):
        raise InfotreeError("rpart's routing needs the levels each subset split's training rows had, and this tree "
                            "does not record them: grow it with build_tree (or predict --train TRAIN)")
    seen = {id(n): n.levels for n in nodes}
    return lambda codes: node_path(tree, codes, seen)[-1]
