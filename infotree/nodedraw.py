"""A forest node's feature draw (``Tree.draw``): its features drawn from a counter-based
stream keyed by the tree and the node's path (:mod:`infotree.ensemble` draws everything
else; ``docs/forests.md`` states the procedure)."""

from __future__ import annotations

import hashlib
import struct

import numpy as np

__all__ = ["_NodeDraw"]

_NODE = 1  # a node stream's purpose: the second entry of its key (ensemble's _ROWS 0, _SUBSPACE 2, _PERMUTE 3)
_TOP = 1 << 64
_COUNTERS = tuple(i.to_bytes(8, "little") for i in range(64))  # a node stream's first words' counters
_LIMITS = tuple(_TOP - _TOP % n if n else 0 for n in range(257))   # a draw from n items takes words below these


class _NodeDraw:
    """A tree's feature draw (``Tree.draw``): node -> the bool mask of its drawn features.

    A node's draw is a partial Fisher-Yates shuffle (as :func:`_choose`) on the node's own
    stream: word i is the first 8 bytes (little-endian) of BLAKE2b(tree key ‖ path ‖ i),
    the tree key the 16 bytes of SeedSequence(seed, spawn_key=(tree, 1)).generate_state(2,
    uint64), each path step (feature, branch) and i as unsigned 32-, 32- and 64-bit
    little-endian integers.  A counter-based stream: a few µs a node in plain Python,
    where a SeedSequence and a PCG64 cost 50 µs (most of a forest's fit on nominal data);
    a depth's nodes in one call of the compiled loops where the fit took them
    (``kernels.draw_all``, the same words)."""

    def __init__(self, seed, t, k, tree_mask, considers_used, kinds):
        self.k, self.m, self.tree_mask = k, len(kinds), tree_mask
        self.offered = np.flatnonzero(tree_mask).tolist()
        # ID3: a nominal feature tested on the path is no longer drawable
        self.spent = None if considers_used else [kind != "numeric" for kind in kinds]
        words = np.random.SeedSequence(seed, spawn_key=(t, _NODE)).generate_state(2, np.uint64)
        self.key = words.astype("<u8").tobytes()
        self.memo = {}   # path -> the features drawn there (a printer asks again)
        self.last = {}   # the nodes of the last depth asked through masks -> (prefix, spent features)
        self.steps = {}  # a path step -> its bytes in a prefix

    def __call__(self, node):
        mask = np.zeros(self.m, bool)
        mask[list(self.features(node.path))] = True
        return mask

    def features(self, path) -> tuple:
        """The features drawn at the node of this path, in column order."""
        drawn = self.memo.get(path)
        if drawn is None:
            prefix = self.prefix(path)
            used = {f for f, _ in path if self.spent[f]} if self.spent is not None else ()
            drawn = self.memo[path] = self.draw(prefix, used)
        return drawn

    def masks(self, nodes):
        """The draws of many nodes (as ``__call__``) as one bool array, nodes × features: a
        builder asks for a depth's at once, after its parents' depth, so that a node's
        stream prefix and spent features are its parent's and its step's (not its path
        walked and hashed again)."""
        last, now, spent, steps = self.last, {}, self.spent, self.steps
        prefixes, useds = [], []
        for node in nodes:
            up = last.get(node.parent)
            if up is None:  # a root, or a parent not asked through masks
                path = node.path
                prefix = self.prefix(path)
                used = frozenset(f for f, _ in path if spent[f]) if spent is not None else frozenset()
            else:
                step = node.step
                packed = steps.get(step)
                if packed is None:
                    packed = steps[step] = struct.pack("<2I", *step)
                prefix, used = up[0] + packed, up[1]
                if spent is not None and spent[step[0]]:
                    used = used | {step[0]}
            now[node] = (prefix, used)
            prefixes.append(prefix)
            useds.append(used)
        self.last = now
        out = np.zeros((len(nodes), self.m), bool)
        k, offered = self.k, self.offered
        from .grow import kernels

        # Every node draws k of the same features: the same streams in one compiled call, where
        # the fit loaded numba (never for the draws alone: its memory would cost more).
        if spent is None and k is not None and len(offered) > k and kernels.loaded():
            lens = np.fromiter(map(len, prefixes), np.int64, len(prefixes))
            ends = np.cumsum(lens)
            return _drawn(np.frombuffer(b"".join(prefixes), np.uint8), ends - lens, ends, offered, k, self.m)
        ks, js = [], []
        for q, (prefix, used) in enumerate(zip(prefixes, useds)):
            drawn = self.draw(prefix, used)
            ks += [q] * len(drawn)
            js += drawn
        out[ks, js] = True
        return out

    def forget(self):
        """The last depth's nodes and prefixes let go (the builder's, once the trees are grown)."""
        self.last, self.steps = {}, {}

    def prefix(self, path) -> bytes:
        """The stream prefix of the node of this path: the tree key and the path's steps."""
        return self.key + struct.pack(f"<{2 * len(path)}I", *(x for step in path for x in step))

    def draw(self, prefix, used) -> tuple:
        avail = [f for f in self.offered if f not in used] if used else self.offered
        k = self.k
        return tuple(avail) if k is None or len(avail) <= k else self.choose(prefix, avail, k)

    @staticmethod
    def choose(prefix, items, k, blake2b=hashlib.blake2b, from_bytes=int.from_bytes) -> tuple:
        """:func:`_choose` on the node's stream, its words made one at a time as taken (the
        prefix hashed once, each word's hash a copy of that state with the counter added)."""
        a, i, n = list(items), 0, len(items)
        head = blake2b(prefix, digest_size=8)
        for pos in range(k):
            m = n - pos
            limit = _LIMITS[m] if m < len(_LIMITS) else _TOP - _TOP % m
            while True:  # a rejection (chance below m / 2^64) takes the next word
                h = head.copy()
                h.update(_COUNTERS[i] if i < len(_COUNTERS) else i.to_bytes(8, "little"))
                x = from_bytes(h.digest(), "little")
                i += 1
                if x < limit:
                    break
            j = pos + x % m
            a[pos], a[j] = a[j], a[pos]
        return tuple(sorted(a[:k]))


class DepthDraws:
    """The node draws of trees grown together, depth by depth (the fast CART builder's
    forest): each open node's stream prefix a row of one byte array, a depth's rows made
    from its parents' rows and the steps to them in array operations, and every node's k
    features drawn from them in one compiled call (:func:`~infotree.grow.kernels.draw_all`):
    what :meth:`_NodeDraw.masks` draws, without a Python step a node."""

    def __init__(self, P, k, offered, m):
        self.P, self.k, self.offered, self.m = P, k, offered, m

    @classmethod
    def of(cls, nodes):
        """For these roots (one a tree), or None unless every tree draws k of the same
        features at each node (not ID3's, whose nodes lose the features their paths
        tested) and the compiled loops are loaded."""
        from .grow import kernels

        draws = [node.tree.draw for node in nodes]
        first = draws[0]
        if not (isinstance(first, _NodeDraw) and first.spent is None and first.k is not None
                and len(first.offered) > first.k and kernels.loaded()):
            return None
        if any(type(d) is not _NodeDraw or d.spent is not None or d.k != first.k or d.offered != first.offered
               for d in draws):
            return None
        prefixes = [d.prefix(node.path) for d, node in zip(draws, nodes)]
        if len(set(map(len, prefixes))) != 1:
            return None
        P = np.frombuffer(b"".join(prefixes), np.uint8).reshape(len(nodes), -1)
        return cls(P, first.k, first.offered, first.m)

    def masks(self) -> np.ndarray:
        """The depth's nodes' draws, nodes × features."""
        n, L = self.P.shape
        starts = np.arange(0, n * L, L, dtype=np.int64)
        return _drawn(self.P.reshape(-1), starts, starts + L, self.offered, self.k, self.m)

    def children(self, parents, features, branches):
        """The next depth: its nodes' parents (rows of this one), and the steps (feature,
        branch) to them."""
        steps = np.stack([features, branches], axis=1).astype("<u4")
        self.P = np.concatenate([self.P[parents], steps.view(np.uint8).reshape(len(parents), 8)], axis=1)


def _drawn(prefixes, starts, ends, offered, k, m) -> np.ndarray:
    """The draws (nodes × m bool) of k of the ``offered`` features from each node's stream,
    its prefix prefixes[starts[i]:ends[i]], in one call of the compiled loops."""
    from .grow import kernels

    picks = kernels.draw_all(prefixes, starts, ends, len(offered), k)
    out = np.zeros((len(starts), m), bool)
    out[np.repeat(np.arange(len(starts)), k), np.asarray(offered)[picks].ravel()] = True
    return out
