"""A fast-built CART tree's nodes, kept as arrays until read.

A fully grown CART tree at 10^6 rows has two million nodes; as Python objects (a
:class:`~infotree.node.Node` is 192 bytes, with a list of its children) they were half
of the fit's peak memory, where scikit-learn keeps its tree in arrays.  The fast builder
(:mod:`infotree.grow.cart`) now makes Node objects only for the nodes it is deciding: a
depth's children go into :class:`Packed` as arrays (their sizes, labels and rows of the
depth's counts), and so do the decisions of the depth's open nodes (stop, test, ties,
surrogates, majority direction), once the depth is grown.  The builder's objects then go
(a node it decides keeps its ancestors alive through ``parent``, nothing more), and a
tree's root is its only node object when the fit returns.

A node's children are made when first read (``Node.children``): each the object the
builder made before, field for field, with the same shared values (the depth's counts
block and its row, the step tuples, the row ints, the split objects).  Reading the whole
tree (a printout, pruning, pickling) makes every node once; a tree nobody walks (a
forest's tree asked only through arrays, an estimator that predicts) never has them.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from ..node import Node
from .cart_arrays import _narrowest, _Stats

__all__ = ["Packed"]

# A node's stop reason as the builder sets it, by code (0: none, a split node)
STOPS = (None, "pure", "empty", "max_depth", "min_samples_split", "no_decrease", "no_split", "zero_gain", "min_gain")
_CODE = {s: i for i, s in enumerate(STOPS)}
_DECISIONS = tuple(map(attrgetter, ("stop", "test", "ties", "majority", "_surrogates", "levels")))


class _Slots:
    """Pickled as its slots' values (a forest's worker sends its trees' arrays, not their nodes)."""

    __slots__ = ()

    def __getstate__(self):
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setstate__(self, state):
        for k, v in zip(self.__slots__, state):
            setattr(self, k, v)


class _Kids(_Slots):
    """One depth's children, two a split node of the depth above, in its order (position c):
    each one's rows (n), its label, its row of the depth's counts ``block`` (c), and its row in
    the next depth's decisions (``opened``; -1: a leaf as made, empty or pure)."""

    __slots__ = ("n", "label", "block", "opened")

    def __init__(self, n, label, block, opened):
        self.n, self.label, self.block, self.opened = n, label, block, opened


class _Decided(_Slots):
    """One depth's open nodes' decisions (row k, the builder's order): the depth's counts and
    records (None: each tree's Regrow), the stop codes, the split nodes' tests in order (a
    split node's children are at 2s and 2s + 1 of the next depth, s its place: ``split_at``),
    and the fields most nodes leave at their defaults as dicts by row."""

    __slots__ = ("counts", "records", "considered", "stop", "split_at", "tests", "tie", "runs", "majority", "sv",
                 "has_sv", "surrogates", "levels", "tree_of")


class Packed(_Slots):
    """The nodes below the roots of the trees a builder grew together (``regrows``: each
    tree's Regrow, by the order the trees were planted)."""

    __slots__ = ("base", "steps", "ints", "set", "kids", "decided", "regrows", "ordinal")

    def __init__(self, b, base):
        self.base = base        # the roots' depth (a subtree's: its path's length)
        self.steps = b.steps    # feature -> the step tuples of its two branches (the builder's, shared)
        self.ints = b.ints      # 0, 1, 2, ...: the builder's shared row ints (row_ints)
        # which of _DECISIONS' fields builder b may set: surrogates and majority directions only
        # with surrogates, subset splits' levels only with nominal features
        surrogate = bool(b.p.get("surrogates", 5))
        self.set = (True, True, True, surrogate, surrogate, bool(b.nominal_groups))
        self.kids = [None]      # by depth - base: _Kids (the roots are objects of their own)
        self.decided = []       # by depth - base: _Decided
        self.regrows = []
        self.ordinal = {}       # id(tree) -> its place in regrows (the trees keep this object: their ids hold)

    def plant(self, tree, regrow):
        """``tree``'s nodes below its root are made from here; ``regrow`` gives their records."""
        self.ordinal[id(tree)] = len(self.regrows)
        self.regrows.append(regrow)
        tree._lazy = self

    def __getstate__(self):
        return super().__getstate__()[:-1] + ({},)  # (ordinal: the ids of this process's trees)

    def regrow_of(self, tree):
        return self.regrows[self.ordinal[id(tree)]]

    def children_of(self, n, label, block, opened):
        """The next depth's children (n, label: arrays by position; opened: the positions of
        the open ones, in the next depth's order)."""
        at = np.full(len(n), -1, np.int32 if len(n) < 1 << 31 else np.int64)
        at[opened] = np.arange(len(opened))
        self.kids.append(_Kids(_small(n), _small(label), block, at))

    def decide(self, nodes, records, paths=True):
        """The builder's open nodes of a depth (its rows k, in order), decided: their decisions
        kept as arrays.  ``records``: the depth's candidate data, or None (each tree's Regrow).
        ``paths=False``: no one asks the next depth's nodes their paths (no feature draw), so
        these let their parents go (else a depth's open nodes keep every ancestor alive:
        300,000 objects at 10^6 regression rows)."""
        d = _Decided()
        first = nodes[0]
        d.counts, d.records, d.considered = _narrow(first._cc), records, first._considered
        # a field at a time (zip(*rows) of a depth's 60,000 tuples took 8 times as long), and only
        # those the builder may have set (reading a slot of 100,000 scattered objects: 20 ms)
        none = [None] * len(nodes)
        stop, test, ties, majority, surrogates, levels = (
            list(map(get, nodes)) if want else none
            for get, want in zip(_DECISIONS, self.set))
        d.stop = np.array([_CODE[s] for s in stop], np.int8)
        split = [k for k, t in enumerate(test) if t is not None]
        d.split_at = np.full(len(nodes), -1, np.int32)
        d.split_at[split] = np.arange(len(split))
        d.tests = [test[k] for k in split]
        runs = {(): 0}  # the depth's runs of tied features (the builder's tuples), by code
        d.tie = _small([runs.setdefault(t, len(runs)) for t in ties])
        d.runs = list(runs)
        d.majority = np.array([-1 if m is None else m for m in majority], np.int8)  # every split node has one, mostly
        d.sv = next((s for s in surrogates if type(s) is not tuple), None)  # the depth's surrogate data
        d.has_sv = np.array([s is d.sv for s in surrogates], bool) if d.sv is not None else None
        d.surrogates = {k: s for k, s in enumerate(surrogates) if type(s) is tuple and s}  # routed counts kept
        d.levels = {k: v for k, v in enumerate(levels) if v is not None}
        ordinal = self.ordinal
        d.tree_of = np.array([ordinal[id(n.tree)] for n in nodes], np.int32) if len(ordinal) > 1 else None
        i = first.depth - self.base
        if len(self.kids) == i + 2:  # this depth's children, whose block the builder no longer reads
            kids = self.kids[i + 1]
            kids.block = _narrow(kids.block)
        if not i:  # the roots: objects of their own, their children made when read
            for k in split:
                nodes[k]._kids = self.ints[k]
        elif not paths:
            for k in split:
                nodes[k].parent = None
        self.decided.append(d)

    def children(self, node, k):
        """The children of ``node``, row k of its depth's decisions, made now."""
        i = node.depth - self.base
        d, kids = self.decided[i], self.kids[i + 1]
        nxt = self.decided[i + 1] if i + 1 < len(self.decided) else None
        s = int(d.split_at[k])
        steps, ints, tree, depth, block = self.steps[node.test.feature], self.ints, node.tree, node.depth + 1, kids.block
        out = []
        for b in (0, 1):
            c = 2 * s + b
            kid = Node(tree, None, depth, block, node)
            n = int(kids.n[c])
            kid.step, kid._ci, kid._n, kid.label = steps[b], ints[c], n, int(kids.label[c])
            at = int(kids.opened[c])
            if at < 0:
                kid.stop = "pure" if n else "empty"
            else:
                self._fill(kid, nxt, at)
            out.append(kid)
        return out

    def _fill(self, kid, d, k):
        """An open node's decisions, row k of its depth's."""
        kid._cc, kid._ci, kid._considered = d.counts, self.ints[k], d.considered
        kid._records = d.records if d.records is not None else self.regrows[0 if d.tree_of is None else d.tree_of[k]]
        kid.stop = STOPS[d.stop[k]]
        s = int(d.split_at[k])
        if s >= 0:
            kid.test, kid._kids = d.tests[s], self.ints[k]
        kid.ties = d.runs[d.tie[k]]
        m = int(d.majority[k])
        kid.majority = None if m < 0 else m
        kid.levels = d.levels.get(k)
        kid._surrogates = d.surrogates.get(k) or (d.sv if d.has_sv is not None and d.has_sv[k] else ())


def _narrow(counts):
    """A depth's regression statistics (n, Σy·D, Σy²·D²: read as Python ints, row by row) in the
    smallest dtype that holds them: a deep depth's in 32 bits; class counts as they are (their
    readers compute with the arrays)."""
    return _Stats(counts.b, _narrowest(counts.block)) if type(counts) is _Stats else counts


def _small(a):
    """A non-negative int array in the smallest dtype that holds it."""
    a = np.asarray(a)
    return a.astype(np.min_scalar_type(int(a.max()))) if len(a) else a
