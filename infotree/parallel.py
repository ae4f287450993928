"""A forest's trees grown in several processes (``n_jobs``), the same forest whatever their number.

Every tree's randomness comes from the seed and the tree's index (:mod:`infotree.ensemble`:
its rows and its nodes' draws are drawn before any tree grows), never from which process
grows it or when, so splitting the trees among processes cannot change them.  The trees
are cut into one block of consecutive trees per process (a block's trees still grow
together, one level loop for all of them); this process grows the first block while forked
children grow the others, each child receiving the data by the fork itself (nothing is
sent to it) and sending its trees back once, pickled, without the data (the data set and its
value tuples travel as references that this process resolves in its own copy, and each
tree's sample values as the codes of their view into those; a CART tree's records are made
when read, from this process's data set and sample: :mod:`infotree.grow.regrow`).  Where fork is not the platform's way (Windows, macOS) the
children are spawned and the data is pickled to each child once.
"""

from __future__ import annotations

import copyreg
import io
import multiprocessing
import os
import pickle
import sys
from collections import deque
from fractions import Fraction
from itertools import repeat
from operator import attrgetter, is_

import numpy as np

from .data.dataset import SampledValues
from .errors import InfotreeError
from .grow.collector import paused
from .grow.regrow import Regrow, rebind
from .node import _STATE, Node, _state_of

__all__ = ["in_processes", "n_workers"]

_OWN = 1.2  # this process's share of the trees against a child's 1
_children = attrgetter("children")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def n_workers(n_jobs, n_trees) -> int:
    """Processes for ``n_jobs`` as scikit-learn reads it: None 1, k > 0 k, -1 every core,
    -k all but k - 1 (at least 1); never more than the trees."""
    allowed = "allowed: a positive number of processes, -1 (every core), -k (all cores but k - 1) or None (one)"
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise InfotreeError(f"n_jobs {n_jobs!r} is not allowed; {allowed}")
    jobs = int(n_jobs) if n_jobs > 0 else max(cores() + 1 + int(n_jobs), 1)
    return max(1, min(jobs, n_trees))


def in_processes(grow_trees, data, drawn, draws, options, jobs) -> list:
    """``grow_trees(data, drawn, draws, options)`` (:func:`infotree.ensemble.grow_trees`) of
    these samples and draws in ``jobs`` processes, its trees in order."""
    # This process's block is larger: a child also pickles its trees, and this process
    # unpickles them (each about a fifth of growing them, measured on CART forests).
    ends = np.round(np.cumsum([_OWN] + [1] * (jobs - 1)) * len(drawn) / (_OWN + jobs - 1)).astype(int)
    blocks = [list(range(a, b)) for a, b in zip(np.r_[0, ends[:-1]], ends) if b > a]
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    children = []
    try:
        for block in blocks[1:]:
            receive, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=_child, daemon=True, args=(
                send, grow_trees, data, [drawn[i] for i in block], [draws[i] for i in block], options))
            child.start()
            send.close()
            children.append((child, receive))
        trees = grow_trees(data, [drawn[i] for i in blocks[0]], [draws[i] for i in blocks[0]], options)
        for (child, receive), block in zip(children, blocks[1:]):
            try:
                payload = receive.recv_bytes()
            except EOFError:
                child.join()
                raise InfotreeError(f"a process growing trees {block[0] + 1}-{block[-1] + 1} of the forest ended "
                                    f"without them (exit code {child.exitcode}); grow the forest with n_jobs=1 "
                                    f"(--jobs 1) to see why") from None
            kind, value = _unpack(payload, data)
            if kind == "error":
                raise value
            for i, tree in zip(block, value):  # grown again (records) from this process's sample, not a copy
                rebind(tree, data, drawn[i])
            trees += value
            child.join()
    finally:
        for child, receive in children:
            if child.is_alive():
                child.terminate()
                child.join()
            receive.close()
    return trees


def _child(send, grow_trees, data, drawn, draws, options):
    try:
        try:
            trees = grow_trees(data, drawn, draws, options)
            payload = _pack(("trees", trees), data)
        except Exception as e:  # an InfotreeError (a limit, the data) is the parent's to raise
            payload = _pack(("error", e), data)
        send.send_bytes(payload)
    finally:
        send.close()


class _Packer(pickle.Pickler):
    """Pickles a block's trees with the data set's value tuples, and each tree's sample
    values (views of its numeric features' present values), as references into the data set: a
    Tree's state is rewritten (the dispatch table: one Python call a tree, where a
    persistent_id is one an object), and the exact thresholds as two integers each."""

    def __init__(self, file, data):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        from .tree import Tree

        self.data = data
        self.dispatch_table = copyreg.dispatch_table.copy()
        self.dispatch_table[Tree] = self.tree
        self.dispatch_table[Fraction] = _reduce_fraction
        self.dispatch_table[Regrow] = self.regrow

    def regrow(self, r):
        """A tree's Regrow with the data set as a reference (the forest's own: the same)."""
        state = r.state()
        at = Regrow.ARGS.index("data")
        if state[at] is self.data:
            state = state[:at] + (_Ref("data", None, None),) + state[at + 1:]
        return Regrow, state

    def tree(self, tree):
        """A tree as its fields and its nodes as columns (one list per Node field, or one
        value shared by every node), breadth-first, with each node's parent's position: pickle
        then handles lists of small values, not a state per node."""
        root = tree.root
        # A tree whose nodes below the root were never read goes as its arrays
        # (infotree.grow.packed): its root alone, and no node made here or there.
        lazy = root._kids if root is not None and type(root._kids) is int else None
        state = {k: v for k, v in tree.__dict__.items() if k != "root" and (k != "_lazy" or lazy is not None)}
        data = self.data
        for key, full in (("domains", data.domains), ("numbers", data.numbers)):
            if state.get(key) is not None:
                state[key] = tuple(
                    _Ref(key, j, None) if mine is whole and mine is not None
                    else _Ref(key, j, mine.codes) if type(mine) is SampledValues and mine.values is whole else mine
                    for j, (mine, whole) in enumerate(zip(state[key], full)))
        # Breadth-first: a node's children are consecutive, after it (a node's place then
        # says where its children are; no dict of positions, no generator a node).
        nodes, parents = ([root], [-1]) if root is not None else ([], [])
        for i, node in enumerate(nodes if lazy is None else ()):
            if node.children:
                nodes += node.children
                parents += [i] * len(node.children)
        kids = np.array([len(c) if c or type(c) is list else -1 for c in map(_children, nodes)] if lazy is None
                        else [-1], np.int32)  # -1: ()
        parents = np.array(parents, np.int32)
        # every node's fields by C-level loops: one tuple a node, turned into columns
        cols = list(zip(*map(_state_of, nodes))) if nodes else [() for _ in _STATE]
        columns = []
        for name, col in zip(_STATE, cols):
            first = col[0] if col else None
            same = all(map(is_, col, repeat(first)))
            columns.append((name, True, first) if same else (name, False, col))
        return _tree, (type(tree), state, columns, parents, kids, lazy)


def _tree(cls, state, columns, parents, kids, lazy=None):
    """The tree :meth:`_Packer.tree` took apart."""
    tree = cls.__new__(cls)
    tree.__dict__.update(state)
    n = len(parents)
    nodes = [Node.__new__(Node) for _ in range(n)]
    for name, same, col in columns:
        deque(map(setattr, nodes, repeat(name, n), repeat(col, n) if same else col), 0)
    deque(map(setattr, nodes, repeat("tree", n), repeat(tree, n)), 0)
    ends = np.cumsum(np.maximum(kids, 0)) + 1  # breadth-first: node i's children end at ends[i]
    children = [nodes[b - k:b] if k >= 0 else () for b, k in zip(ends.tolist(), kids.tolist())]
    deque(map(setattr, nodes, repeat("_kids", n), children), 0)
    deque(map(setattr, nodes[1:], repeat("parent", n), map(nodes.__getitem__, parents[1:].tolist())), 0)
    if nodes:
        nodes[0].parent = None
        if lazy is not None:  # its row in the arrays its children are made from
            nodes[0]._kids = lazy
    tree.root = nodes[0] if nodes else None
    return tree


class _Ref:
    """A data set's tuple of values of feature j (``codes`` None), or those at these codes."""

    __slots__ = ("key", "j", "codes")

    def __init__(self, key, j, codes):
        self.key, self.j, self.codes = key, j, codes

    def __reduce__(self):
        return _resolve, (self.key, self.j, self.codes)


def _resolve(key, j, codes):
    raise InfotreeError("a forest's trees from a worker process are read by infotree.parallel._unpack")


def _reduce_fraction(q):
    return _fraction, (q.numerator, q.denominator)


def _fraction(n, d) -> Fraction:
    """A Fraction from its lowest terms (as pickled), without normalising them again."""
    q = object.__new__(Fraction)
    q._numerator, q._denominator = n, d
    return q


class _Unpacker(pickle.Unpickler):
    def __init__(self, file, data):
        super().__init__(file)
        self.data = data

    def find_class(self, module, name):
        if module == __name__ and name == "_resolve":
            return self.resolve
        return super().find_class(module, name)

    def resolve(self, key, j, codes):
        if key == "data":
            return self.data
        values = getattr(self.data, key)[j]
        return values if codes is None else SampledValues(values, codes)


def _pack(obj, data) -> bytes:
    out = io.BytesIO()
    with paused():  # pickling makes no garbage; the collector would walk every node again and again
        _Packer(out, data).dump(obj)
    return out.getbuffer()


def _unpack(payload, data):
    with paused():  # hundreds of thousands of nodes made: nothing for the collector to free
        return _Unpacker(io.BytesIO(payload), data).load()
