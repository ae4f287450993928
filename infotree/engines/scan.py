"""Each row's node held in memory, the coded rows read in batches and counted in numpy.

A tree's depth asks every feature's (node, value, class) counts of the rows still in the
engine.  Writing the coded table again at every depth with each row's new node (the SQL
plan of :mod:`.sql`) costs a full write of the rows per depth: at 10^8 rows of 21 columns,
5.5 GB a depth, spilled and read back when it does not fit the engine's memory.  Here the
coded rows are written once and only read after that: ``node[rid]`` (one int32 a row,
the row's node, −1 once its node is a leaf or was taken into memory) is the only thing a
split changes.  Counting adds 1 per row at ``(node, class, code)`` keys, dense: a
node's bins for feature j are its V_j values × the classes, so a scan counts as many
(feature, nodes, values) units as fit ``BINS`` bins, and reads only their columns.

The counts are exact integers whatever the batch order, so the tables, and the tree, are the
SQL plan's; only the way they are counted differs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["RowNodes", "BINS"]

# The count bins (int64) of one scan: 2^25 bins are 256 MB; a scan counts as many units (a
# feature's values × its nodes × the classes) as fit, and a feature whose one node passes
# UNIT bins is counted a range of its values at a time.
BINS = 1 << 25
UNIT = 1 << 23
# np.add.at adds a batch's keys in place, 2-3 times faster than bincount + add into millions
# of bins (no temporary of the bins' size), since numpy 1.25; before, it is many times slower.
ADD_AT = np.lib.NumpyVersion(np.__version__) >= "1.25.0"


class RowNodes:
    """``node[rid]`` for rows numbered 0 .. n - 1, read back by ``batches(columns)``: a
    callable giving, for the listed columns, dicts of numpy arrays (``rid`` among them) in
    any order, each row once."""

    def __init__(self, n, batches, domains, classes, threads=1):
        from concurrent.futures import ThreadPoolExecutor

        self.node = np.zeros(n, np.int32)
        self.threads = max(1, int(threads))
        self.pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self.batches, self.domains, self.nc = batches, [max(len(d), 1) for d in domains], classes
        self.top = 0   # the largest node id so far

    def footprint(self, batch):
        """The bytes this holds at most while counting batches of ``batch`` rows: the nodes, one
        scan's bins, a unit's bincount per thread (without add.at), and about 16 arrays of a batch."""
        return self.node.nbytes + BINS * 8 + (0 if ADD_AT else self.threads * min(UNIT, BINS) * 8) + batch * 8 * 16

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def _lookup(self, ids):
        """A table from node id to the id's place in ``ids`` (−1: not listed, or a gone row's −1)."""
        pos = np.full(self.top + 2, -1, np.int64)   # a gone row's −1 reads the last entry
        pos[np.asarray(ids, np.int64)] = np.arange(len(ids))
        return pos

    def counts(self, nodes, features, columns):
        """Per feature j of ``features``: (node, code, counts[k, classes]) of the rows of
        ``nodes``, sorted by node then code, the cells present only.  ``columns[j]``: the
        feature's column name."""
        nodes = sorted({int(k) for k in nodes if 0 <= int(k) <= self.top})
        out = {j: [] for j in features}
        if not nodes:
            return {j: _empty(self.nc) for j in features}
        nc, K = self.nc, len(nodes)
        units = []   # (feature, first node, nodes, first code, codes)
        for j in features:
            V = self.domains[j]
            unit = min(UNIT, BINS)
            if V * nc <= unit:
                per = max(1, unit // (V * nc))
                units += [(j, a, min(K, a + per) - a, 0, V) for a in range(0, K, per)]
            else:
                w = max(1, unit // nc)
                units += [(j, a, 1, lo, min(V, lo + w) - lo) for a in range(K) for lo in range(0, V, w)]
        scans, held = [[]], 0
        for u in units:
            bins = u[2] * u[4] * nc
            if scans[-1] and held + bins > BINS:
                scans.append([])
                held = 0
            scans[-1].append(u)
            held += bins
        pos, ids = self._lookup(nodes), np.asarray(nodes, np.int64)
        for scan in scans:
            # Each unit's bins have one node slot more, where rows of other nodes fall (cheaper
            # than selecting the rows, as long as most rows are the listed nodes').
            acc = [np.zeros((u[2] + 1) * u[4] * nc, np.int64) for u in scan]
            names = sorted({columns[u[0]] for u in scan})
            for b in self.batches(["y", *names]):
                g = pos[self.node[b["rid"]]]
                inside = g >= 0
                some = int(np.count_nonzero(inside))
                if not some:
                    continue
                at = None if some > len(g) // 2 else np.flatnonzero(inside)
                g = g[at] if at is not None else np.where(inside, g, K)
                y = b["y"] if at is None else b["y"][at]
                cols = {c: b[c] if at is None else b[c][at] for c in names}
                # A key is (node, class, code): the code added last, to a base computed once
                # for every feature of as many values.
                gy, base = g * nc + y, {}
                for u in scan:
                    if u[2] == K and u[4] == self.domains[u[0]] and u[4] not in base:
                        base[u[4]] = gy * u[4]
                work = list(zip(scan, acc))
                if self.pool is None:
                    self._count(work, K, g, y, cols, columns, base)
                else:
                    parts = [work[i::self.threads] for i in range(self.threads)]
                    list(self.pool.map(lambda part: self._count(part, K, g, y, cols, columns, base), parts))
            for u, a in zip(scan, acc):
                j, first, k, lo, width = u
                cells = a.reshape(k + 1, nc, width)[:k].transpose(0, 2, 1)
                ki, code = np.nonzero(cells.sum(axis=2))
                out[j].append((ids[first + ki], lo + code, cells[ki, code]))
        result = {}
        for j in features:
            node = np.concatenate([p[0] for p in out[j]])
            code = np.concatenate([p[1] for p in out[j]])
            cnt = np.concatenate([p[2] for p in out[j]])
            order = np.lexsort((code, node))
            result[j] = (node[order], code[order], cnt[order])
        return result

    def _count(self, part, K, g, y, cols, columns, base):
        """Counts a batch's rows into the accumulators of ``part`` (one thread's share of a scan's
        units)."""
        nc = self.nc
        for (j, first, k, lo, width), a in part:
            code = cols[columns[j]]
            if k == K and width == self.domains[j]:   # every listed node, every value
                key = np.add(base[width], code, dtype=np.int64)
            else:
                ki, code = g - first, code.astype(np.int64) - lo
                out = (ki < 0) | (ki >= k) | (code < 0) | (code >= width)
                ki[out], code[out] = k, 0
                key = (ki * nc + y) * width + code
            if ADD_AT:
                np.add.at(a, key, 1)
            else:
                a += np.bincount(key, minlength=len(a))

    def split(self, routes, columns):
        """Each routed node's rows to its children (``Route``: a cut on a code or a branch per
        code); every other row leaves (−1): its node is a leaf, or was taken into memory."""
        if not routes:
            self.node[:] = -1
            return
        ids = sorted(routes)
        rs = [routes[k] for k in ids]
        pos = self._lookup(ids)
        feature = np.array([r.feature for r in rs] + [-1], np.int64)   # by route index (−1: none)
        first = np.array([r.first for r in rs], np.int64)
        cut = np.array([-1 if r.cut is None else r.cut for r in rs], np.int64)
        width = max([len(r.branch) for r in rs if r.branch is not None], default=1)
        branch = np.zeros((len(rs), width), np.int64)
        for i, r in enumerate(rs):
            if r.branch is not None:
                branch[i, :len(r.branch)] = r.branch
        numeric = {r.feature: r.cut is not None for r in rs}
        self.top = max([self.top] + [r.first + (1 if r.cut is not None else max(r.branch, default=0)) for r in rs])
        names = {j: columns[j] for j in numeric}
        for b in self.batches(sorted(set(names.values()))):
            rid = b["rid"]
            r = pos[self.node[rid]]
            new = np.full(len(rid), -1, np.int32)
            f = feature[r]
            for j, is_cut in numeric.items():
                at = np.flatnonzero(f == j)
                if not len(at):
                    continue
                ri, code = r[at], b[names[j]][at].astype(np.int64)
                new[at] = first[ri] + ((code > cut[ri]) if is_cut else branch[ri, code])
            self.node[rid] = new

    def sizes(self, nodes):
        got = np.zeros(self.top + 2, np.int64)
        for a in range(0, len(self.node), 1 << 22):   # a gone row's −1 counted last
            got += np.bincount(self.node[a:a + (1 << 22)] % (self.top + 2), minlength=self.top + 2)
        return {int(k): int(got[k]) if 0 <= k <= self.top else 0 for k in nodes}

    def take(self, nodes, columns):
        """The rows of ``nodes``: (node ids, X codes, y codes), in scan order."""
        pos = self._lookup([k for k in nodes if 0 <= k <= self.top])
        parts = []
        for b in self.batches(["y", *columns]):
            nd = self.node[b["rid"]].astype(np.int64)
            sel = pos[nd] >= 0
            if sel.any():
                parts.append((nd[sel], np.stack([b[c][sel].astype(np.int64) for c in columns], axis=1)
                              if columns else np.zeros((int(sel.sum()), 0), np.int64), b["y"][sel].astype(np.int64)))
        if not parts:
            return np.zeros(0, np.int64), np.zeros((0, len(columns)), np.int64), np.zeros(0, np.int64)
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                np.concatenate([p[2] for p in parts]))


def _empty(nc):
    return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, nc), np.int64)
