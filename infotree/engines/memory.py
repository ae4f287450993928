"""The in-memory provider: a Dataset's codes counted with numpy (one sort or bincount per
feature and depth).  The same tables as the SQL engines give, so it is both the engines'
test oracle and PLANET's finishing engine (the rows of small nodes pulled into memory)."""

from __future__ import annotations

import numpy as np

from .provider import Route, Table, near_best

__all__ = ["MemoryProvider"]


class MemoryProvider:
    """Rows held as numpy codes; ``node[i]`` the open node of row i (-1: its node is a leaf)."""

    def __init__(self, schema, X, y, node=None, *, scaled=None):
        self.schema = schema
        self.X = np.asarray(X, dtype=np.int64).reshape(len(y), len(schema.features))
        self.y = np.asarray(y, dtype=np.int64)
        self.n_rows = len(self.y)
        self.node = np.zeros(self.n_rows, np.int64) if node is None else np.asarray(node, dtype=np.int64)
        self.nc = len(schema.classes)
        self.ys = None if scaled is None else self.scaled(scaled)
        self.regression = scaled is not None

    @classmethod
    def of(cls, data):
        """The provider of a whole Dataset (every row at the root, node 0)."""
        return cls(data, data.X, data.y)

    def scaled(self, scaled):
        """Each row's scaled integer target, int64 where every sum of squares fits, else Python ints."""
        top = max((abs(v) for v in scaled), default=0)
        fits = top * top * max(self.n_rows, 1) < 1 << 62
        self.ys = np.array(scaled, dtype=np.int64 if fits else object)[self.y] if len(scaled) else np.zeros(0, np.int64)
        self.regression = True
        return self.ys

    def root(self, scaled=None):
        rows = self.node >= 0
        if scaled is not None:
            ys = self.scaled(scaled)[rows]
            return (int(rows.sum()), int(ys.sum()), int((ys * ys).sum()))
        return tuple(np.bincount(self.y[rows], minlength=self.nc).tolist())

    def tables(self, nodes, features=None):
        ids = np.asarray(sorted(nodes), dtype=np.int64)
        rows = np.flatnonzero(np.isin(self.node, ids))
        local = np.searchsorted(ids, self.node[rows])
        out = []
        for j in range(self.X.shape[1]):
            if features is not None and j not in features:
                out.append(None)
                continue
            codes = self.X[rows, j]
            V = max(len(self.schema.domains[j]), 1)
            key = local * V + codes
            if self.regression:
                out.append(self._stats(ids, key, V, rows))
                continue
            key = key * self.nc + self.y[rows]
            cells, counts = np.unique(key, return_counts=True)
            cell, cls = np.divmod(cells, self.nc)
            starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
            block = np.zeros((len(starts), self.nc), np.int64)
            block[np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(cell)])), cls] = counts
            k, code = np.divmod(cell[starts], V)
            out.append(Table(ids[k], code, list(map(tuple, block.tolist()))))
        return out

    def cuts(self, nodes, features, min_side, slack):
        """SQLProvider.cuts in numpy: per feature, the rows of the nodes sorted by (node, value),
        cumulative class counts, the Gini key of every admissible cut with the same certified
        bound, and the cuts that may be their node's best."""
        ids = np.asarray(sorted(nodes), dtype=np.int64)
        rows = np.flatnonzero(np.isin(self.node, ids))
        local = np.searchsorted(ids, self.node[rows])
        y = self.y[rows]
        out = {}
        for j in features:
            x = self.X[rows, j]
            order = np.lexsort((x, local))
            k, v, yo = local[order], x[order], y[order]
            cum = np.zeros((len(order), self.nc), np.int64)
            cum[np.arange(len(order)), yo] = 1
            np.cumsum(cum, axis=0, out=cum)
            first = np.searchsorted(k, np.arange(len(ids)))
            last = np.searchsorted(k, np.arange(len(ids)), side="right") - 1
            before = np.where((first > 0)[:, None], cum[np.maximum(first - 1, 0)], 0)
            cut = np.flatnonzero((v[:-1] != v[1:]) & (k[:-1] == k[1:]))  # the last row below each cut
            kc = k[cut]
            left = cum[cut] - before[kc]
            total = cum[last[kc]] - before[kc]
            nl, n = left.sum(axis=1), total.sum(axis=1)
            ok = (nl >= min_side) & (n - nl >= min_side)
            cut, kc, left, total, nl, n = cut[ok], kc[ok], left[ok], total[ok], nl[ok], n[ok]
            got = {}
            if len(cut):
                lf, rf, nlf, nf = left.astype(float), (total - left).astype(float), nl.astype(float), n.astype(float)
                ql, qr = (lf * lf).sum(axis=1), (rf * rf).sum(axis=1)
                starts, counts, keep = near_best(nf, nlf, ql, qr, kc, slack)
                tried = dict(zip(ids[kc[starts]].tolist(), counts.tolist()))
                for i, kk, lo, hi, lft in zip(keep.tolist(), ids[kc[keep]].tolist(), v[cut[keep]].tolist(),
                                              v[cut[keep] + 1].tolist(), left[keep].tolist()):
                    got.setdefault(kk, (tried[kk], []))[1].append((lo, hi, tuple(lft)))
            out[j] = got
        return out

    def _stats(self, ids, key, V, rows):
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else np.zeros(0, np.int64)
        ys = self.ys[rows][order]
        n = np.diff(np.r_[starts, len(key)])
        S = np.add.reduceat(ys, starts) if len(key) else ys
        Q = np.add.reduceat(ys * ys, starts) if len(key) else ys
        k, code = np.divmod(key[starts], V)
        return Table(ids[k], code, [(int(a), int(b), int(c)) for a, b, c in zip(n.tolist(), S.tolist(), Q.tolist())])

    def split(self, routes: dict[int, Route]):
        new = np.full(self.n_rows, -1, np.int64)
        for k, route in routes.items():
            at = np.flatnonzero(self.node == k)
            new[at] = route.child_of(self.X[at, route.feature])
        self.node = new

    def sizes(self, nodes):
        ids = np.asarray(sorted(nodes), dtype=np.int64)
        counts = np.bincount(np.searchsorted(ids, self.node[np.isin(self.node, ids)]), minlength=len(ids))
        return dict(zip(ids.tolist(), counts.tolist()))

    def take(self, nodes):
        rows = np.flatnonzero(np.isin(self.node, list(nodes)))
        return self.node[rows], self.X[rows], self.y[rows]

    def close(self):
        pass
