"""A forest's trees grown in several processes (``n_jobs``), the same forest whatever their number.

Every tree's randomness comes from the seed and the tree's index (:mod:`infotree.ensemble`:
its rows and its nodes' draws are drawn before any tree grows), never from which process
grows it or when, so splitting the trees among processes cannot change them.  The trees
are cut into one block of consecutive trees per process (a block's trees still grow
together, one level loop for all of them); this process grows the first block while forked
children grow the others, each child receiving the data by the fork itself (nothing is
sent to it) and sending its trees back once, pickled: their records, not the data (the data
set's value tuples and each tree's sample values travel as references that this process
resolves in its own copy).  Where fork is not the platform's way (Windows, macOS) the
children are spawned and the data is pickled to each child once.
"""

from __future__ import annotations

import gc
import io
import multiprocessing
import os
import pickle
import sys
from operator import itemgetter

import numpy as np

from .errors import InfotreeError

__all__ = ["in_processes", "n_workers"]


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


def in_processes(data, drawn, draws, options, jobs) -> list:
    """:func:`infotree.ensemble.grow_trees` of these samples and draws in ``jobs`` processes."""
    from .ensemble import grow_trees

    blocks = [b.tolist() for b in np.array_split(np.arange(len(drawn)), jobs)]
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    children = []
    try:
        for block in blocks[1:]:
            receive, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=_child, daemon=True,
                                args=(send, data, [drawn[i] for i in block], [draws[i] for i in block], options))
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
            trees += value
            child.join()
    finally:
        for child, receive in children:
            if child.is_alive():
                child.terminate()
                child.join()
            receive.close()
    return trees


def _child(send, data, drawn, draws, options):
    from .ensemble import grow_trees

    try:
        try:
            trees = grow_trees(data, drawn, draws, options)
            payload = _pack(("trees", trees), data, drawn)
        except Exception as e:  # an InfotreeError (a limit, the data) is the parent's to raise
            payload = _pack(("error", e), data, drawn)
        send.send_bytes(payload)
    finally:
        send.close()


class _Packer(pickle.Pickler):
    """Pickles a block's trees with the data set's value tuples, and each tree's sample
    values (its numeric features' present values), as references into the data set."""

    def __init__(self, file, shared):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj):
        return self.shared.get(id(obj))


class _Unpacker(pickle.Unpickler):
    def __init__(self, file, data):
        super().__init__(file)
        self.data = data

    def persistent_load(self, pid):
        kind, j = pid[0], pid[1]
        if kind == "D":
            return self.data.domains[j]
        if kind == "N":
            return self.data.numbers[j]
        present = pid[2].tolist()  # a tree's sample: the data's values at these codes (Dataset.sample)
        values = self.data.numbers[j] if kind == "n" else self.data.domains[j]
        return itemgetter(*present)(values) if len(present) > 1 else tuple(values[c] for c in present)


def _pack(obj, data, drawn) -> bytes:
    shared = {}
    for j, (domain, numbers) in enumerate(zip(data.domains, data.numbers)):
        shared[id(domain)] = ("D", j)
        if numbers is not None:
            shared[id(numbers)] = ("N", j)
    if obj[0] == "trees":
        X = np.asarray(data.X)
        for tree, rows in zip(obj[1], drawn):
            for j, kind in enumerate(data.kinds):
                if kind != "numeric" or tree.numbers[j] is data.numbers[j]:
                    continue
                col = X[rows, j]
                present = np.flatnonzero(np.bincount(col[col >= 0], minlength=len(data.numbers[j])))
                if len(present) == len(tree.numbers[j]):  # as Dataset.sample made them
                    shared[id(tree.numbers[j])] = ("n", j, present.astype(np.int32))
                    shared[id(tree.domains[j])] = ("d", j, present.astype(np.int32))
    out = io.BytesIO()
    collecting = gc.isenabled()
    gc.disable()  # pickling makes no garbage; the collector would walk every node again and again
    try:
        _Packer(out, shared).dump(obj)
    finally:
        if collecting:
            gc.enable()
    return out.getbuffer()


def _unpack(payload, data):
    collecting = gc.isenabled()
    gc.disable()  # hundreds of thousands of nodes made: nothing for the collector to free
    try:
        return _Unpacker(io.BytesIO(payload), data).load()
    finally:
        if collecting:
            gc.enable()
