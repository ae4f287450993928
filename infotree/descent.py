"""A tree's split nodes as arrays, to send a forest's training rows down all at once.

A forest's out-of-bag votes and permutation importance send every training row down
every tree that did not draw it, and permutation importance once more a feature: tens of
millions of steps, where :meth:`Tree._descend` takes a Python step each.  The rows are the
data set's own codes (``Dataset.X``: a nominal value's code, a numeric value's rank among
the data's sorted values), so each split is an integer test: a nominal node's branch is the
code, a cut's is whether the rank is past the last rank at most its threshold (exact: the
data's values are sorted exact numbers), a subset's is the code's bit in the left set.
A row meets one depth's nodes in one array step.  What a row cannot take this way (a
missing value, which CART's surrogates or C4.5's shares route; an M-of-N test or a subset
of more than 62 values) is left to :meth:`Tree._descend`: :meth:`Flat.leaves` says which.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from .splits import NominalSplit, SubsetSplit, ThresholdSplit

__all__ = ["Flat"]

_LEAF, _VALUE, _CUT, _BITS, _OTHER = -1, 0, 1, 2, 3


class Flat:
    """``tree``'s nodes breadth-first as arrays (``nodes[i]`` the Node), its tests read on the
    codes of ``data`` (the data set the forest grew from)."""

    def __init__(self, tree, data):
        nodes = [tree.root]
        for node in nodes:  # breadth-first: a node's children consecutive, after it
            nodes += node.children
        self.nodes = nodes
        n = len(nodes)
        self.kind = np.full(n, _LEAF, np.int8)
        self.feature = np.zeros(n, np.int64)
        self.arg = np.zeros(n, np.int64)    # a cut's last rank on the left, or a subset's left codes as bits
        self.first = np.zeros(n, np.int64)  # the node's first child
        self.width = np.zeros(n, np.int64)  # and how many it has
        at = 1
        for i, node in enumerate(nodes):
            test = node.test
            if test is None:
                continue
            self.first[i], self.width[i] = at, len(node.children)
            at += len(node.children)
            j = test.feature
            self.feature[i] = j
            if type(test) is NominalSplit:
                self.kind[i] = _VALUE
            elif type(test) is ThresholdSplit:
                self.kind[i], self.arg[i] = _CUT, bisect_right(data.numbers[j], test.threshold) - 1
            elif type(test) is SubsetSplit and max(test.left, default=0) < 62:
                self.kind[i], self.arg[i] = _BITS, sum(1 << c for c in test.left)
            else:
                self.kind[i] = _OTHER

    def leaves(self, X, rows, j=None, column=None):
        """The node index each of ``rows`` (of the codes ``X``) reaches, and which rows stopped
        before a leaf (a missing value, an M-of-N test: theirs is :meth:`Tree._descend`'s);
        ``column``: row q's code of feature ``j`` read as column[q] instead (a permutation)."""
        R = len(rows)
        at = np.zeros(R, np.int64)
        stopped = np.zeros(R, bool)
        live = np.arange(R)
        while live.size:
            cur = at[live]
            kind = self.kind[cur]
            go = kind >= 0
            live, cur, kind = live[go], cur[go], kind[go]
            f = self.feature[cur]
            v = X[rows[live], f].astype(np.int64)
            if j is not None:
                mine = f == j
                v[mine] = column[live[mine]]
            branch = np.where(kind == _VALUE, v, np.where(kind == _CUT, v > self.arg[cur],
                                                          (self.arg[cur] >> np.maximum(v, 0)) & 1 ^ 1))
            odd = (v < 0) | (kind == _OTHER) | (branch >= self.width[cur])
            stopped[live[odd]] = True
            live, cur, branch = live[~odd], cur[~odd], branch[~odd]
            at[live] = self.first[cur] + branch
        return at, stopped
