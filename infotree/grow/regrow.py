"""A fast-built CART tree's candidate records, made again when first read.

The fast CART builder (:mod:`infotree.grow.cart`) decides a depth from its candidate
arrays (every node × feature's best cut and its counts) and then drops them: keeping
each depth's, even compacted, was a third of a 10^6-row regression tree's memory.  A
node's records are read far more rarely than it is grown (a printout, a derivation
table, a checker's claim), so a node points at its tree's :class:`Regrow` instead: the
first read grows the same tree once more from the same codes, keeping each depth's
candidate arrays this time, and hands every node of the old tree its row in them.  The
builder is deterministic, so the records are the ones the tree was decided by
(``tests/test_regrow.py`` checks them against a build that keeps them).

What a Regrow keeps is what grew the tree, by reference: the codes and classes it was
given (a single tree: the data set's own arrays, not copies), or the forest's data set
and the tree's sample (which the forest keeps anyway).
"""

from __future__ import annotations

import numpy as np

from ..errors import InfotreeError

__all__ = ["Regrow", "bare", "rebind", "sampled"]


def bare(tree):
    """A tree object with ``tree``'s fields and no nodes: the builder plants its root there."""
    out = type(tree).__new__(type(tree))
    out.__dict__.update(tree.__dict__)
    out.root, out._lazy = None, None
    out.params = dict(tree.params)
    return out


class Regrow:
    """How a tree was grown (its builder's template tree, codes, classes, root rows and path),
    to grow it again when a node's records are first read."""

    ARGS = ("builder", "template", "X", "y", "rows", "path", "data", "counted", "sampled", "partly")  # __init__'s
    __slots__ = ARGS + ("grown",)

    def __init__(self, builder, template, X, y, rows, path, data=None, counted=False, sampled=False, partly=False):
        self.builder = builder    # the builder's class (CARTBuilder)
        self.template = template  # bare(the builder's tree): its params as grown (pruning may add to the tree's)
        if y is not None and y.dtype.itemsize > 1 and len(y):  # codes >= 0: a byte a row, mostly (was an int64 copy)
            y = y.astype(np.min_scalar_type(int(y.max())))
        self.X, self.y, self.rows, self.path = X, y, rows, tuple(path)
        self.data, self.counted, self.sampled = data, counted, sampled
        self.partly = partly  # grown again to one node's depth already
        self.grown = None     # the tree grown again whole, kept once a node pruned away from it is read

    def __reduce__(self):
        return Regrow, self.state()

    def state(self) -> tuple:
        """The arguments that make this Regrow again, in ARGS's order."""
        return tuple(getattr(self, name) for name in self.ARGS)

    def on(self, data, sample, counted=False, sampled=False):
        """A forest's tree, grown again from the data set and its own ``sample`` of rows (not
        from the copies it grew on): grown in a group of trees, each distinct row counted as
        often as drawn (``counted``) or every drawn row a row of its own, as the group's builder
        took them; grown alone (``sampled``), on ``data.sample(sample)``, as ``build_tree`` was."""
        self.X = self.y = None
        self.data, self.rows, self.counted, self.sampled = data, sample, counted, sampled
        return self

    def records_of(self, node) -> list:
        if self.grown is None:
            # The first read grows the tree again down to this node's depth only (a printout
            # of the root's derivation: one depth); a second, the whole tree.
            depth = None if self.partly else node.depth
            again = self.regrow(node.tree, depth)
            self.partly = True
            if node._records is self:  # no longer in its tree (pruned away below a node made a leaf)
                self.grown = again if depth is None else self.regrow(node.tree)  # kept for such nodes
        if node._records is self:  # found in the tree grown again by its path
            new = self.grown.root
            for _, branch in node.path[len(self.path):]:
                new = new.children[branch]
            node._records = _At(new._records, new._ci)
        return node._records.records_of(node)

    def regrow(self, tree, depth=None):
        """Grow ``tree`` again (to ``depth``, or whole), keeping its depths' candidate arrays,
        and point each of its nodes that still reads this Regrow at its row in them; the tree
        grown again."""
        rows, counts = self.rows, None
        if self.data is None:
            X, y = self.X, self.y
            rows = np.arange(len(y), dtype=np.int64) if rows is None else rows
        else:
            data = self.data.sample(rows) if self.sampled else self.data
            X, y = np.asarray(data.X), np.asarray(data.y, dtype=np.int64)
            if self.sampled:
                rows = np.arange(len(y), dtype=np.int64)
            elif self.counted:
                rows, counts = np.unique(rows, return_counts=True)
            if not self.sampled:
                X, y, rows = X[rows], y[rows], np.arange(len(rows), dtype=np.int64)
        again, template = bare(tree), bare(self.template)
        if depth is not None:  # the nodes there stop ("max_depth") once their candidates are scored
            template.params["max_depth"] = depth
        grower = self.builder(template, X, y)
        grower.keep_records = True
        grower.run_many([(again, rows)], self.path, multiplicity=counts)
        stack = [(tree.root, again.root)]
        while stack:
            old, new = stack.pop()
            if old._records is self:
                # the same row of the same depth where the tree grew alone; a forest's group: its own
                old._records = new._records if old._ci == new._ci else _At(new._records, new._ci)
            if old.children:  # a pruned node has none (its regrown self still has them; grown to a depth, not there)
                if new.test is not None and old.test != new.test:
                    raise InfotreeError(f"the tree grown again for its records differs from the tree at "
                                        f"{old.describe_path()} ({new.test} for {old.test}): a feature_draw must "
                                        f"be a function of the node's path alone")
                stack.extend(zip(old.children, new.children))
        if getattr(tree.draw, "forget", None) is not None:  # its last depth's nodes: the tree grown again
            tree.draw.forget()
        return again


def sampled(tree, data, rows) -> None:
    """``tree``, grown by ``build_tree(data.sample(rows))`` and given views of the data's values
    for its sample's (a forest's tree grown alone), grows again from ``data`` and ``rows``: its
    Regrow keeps neither the sample's codes nor its values."""
    r = tree.root._records if tree.root is not None else None
    if type(r) is Regrow:  # the root's, until a record is read: the tree's one Regrow
        r.on(data, rows, sampled=True)
        r.template.domains, r.template.numbers = tree.domains, tree.numbers


def rebind(tree, data, rows) -> None:
    """A forest's just grown ``tree`` grows again from ``data`` and ``rows``, equal to those its
    Regrow holds (a worker's copy of the sample; an engine's batch of rows): the forest's own."""
    r = tree.root._records if tree.root is not None else None
    if type(r) is Regrow and r.data is not None:
        r.on(data, rows, r.counted, r.sampled)


class _At:
    """A node's row in a regrown depth, where its own row (``_ci``) was in its group's depth."""

    __slots__ = ("level", "k")

    def __init__(self, level, k):
        self.level, self.k = level, k

    def records_of(self, node) -> list:
        return self.level.records(self.k)
