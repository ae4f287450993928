"""The level-wise builder's counting (:class:`Counting`, a mixin of
:class:`~infotree.grow.levelwise.LevelwiseBuilder`): one depth's (node, feature, value, class)
tables by ``np.bincount`` (C4.5's fractional weights scaled to integers), and a numeric
feature's cuts from its sorted values' cumulative counts."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..errors import InfotreeError
from ..exact import Exact
from .decisions import _n_cond_coeffs, _U, _xlog2x


# Weighted counts (C4.5's missing values) are integers times a node's common
# denominator.  The float filter takes a·log2(a) of them: beyond 2^1000 it would
# overflow, and the exact path would have to factor numbers of hundreds of digits.
_WEIGHT_BITS = 1000


def _class_sum(b):
    """b.sum(axis=-1) of counts (…, classes), as one addition per class when classes are few."""
    nc = b.shape[-1]
    if nc > 8 or nc < 2 or b.dtype == object:
        return b.sum(axis=-1)
    out = b[..., 0] + b[..., 1]
    for c in range(2, nc):
        out += b[..., c]
    return out


class Counting:
    """Counting one depth (a mixin: reads the builder's arrays)."""

    def scaled_weights(self, K, nid, cw, depth):
        """Per node, the lcm D of its weights' denominators; each case's weight times D (integers)."""
        dens: dict = {}
        for k, w in zip(nid.tolist(), cw.tolist()):
            if w.denominator != 1:
                dens.setdefault(k, set()).add(w.denominator)
        scale = [math.lcm(*dens[k]) if k in dens else 1 for k in range(K)]
        sw = [w.numerator * (scale[k] // w.denominator) for k, w in zip(nid.tolist(), cw.tolist())]
        whole = sum(sw)
        total = max(scale) * (whole + 1)
        if whole.bit_length() > _WEIGHT_BITS:  # the largest count a node can hold
            # A missing value splits a weight by the branch's share of the known weight,
            # whose denominator is the node's own: the digits about double every level.
            raise InfotreeError(
                f"C4.5's exact weights for missing values outgrew this build at depth {depth}: a node's "
                f"weights need a common denominator of {len(str(max(scale)))} digits (about twice as many "
                f"each level); limit the depth (max_depth, --max-depth {max(depth - 1, 1)}) or read missing "
                "values as a value (on_missing='value', --missing-as-value)")
        if total < 2 ** 53:  # float sums of integers below 2**53 are exact
            return scale, np.asarray(sw, dtype=np.float64)
        out = np.empty(len(sw), dtype=object)
        out[:] = sw
        return scale, out

    def _bincount(self, idx, size, sw):
        if sw is None:
            return np.bincount(idx, minlength=size)
        if sw.dtype == object:
            out = np.zeros(size, dtype=object)
            np.add.at(out, idx, sw)
            return out
        return np.rint(np.bincount(idx, weights=sw, minlength=size)).astype(np.int64)

    def counts(self, K, cases, depth):
        """node × feature × value × class counts of one level, one bincount per feature.

        Numeric features are counted by value rank, then reduced to their best cut
        (two rows); the last slot holds the rows whose value is missing.  Also returns
        the float sums the filter needs, per node and feature: Σ_x F(n_x) and
        Σ_x Σ_y F(n_xy) over the known values (F(a) = a·log2 a), the number of
        non-empty branches and (C4.5) of branches with at least min_objects.  They are
        made feature by feature, while the feature's counts are in cache, not in
        passes over the whole block.
        """
        rows, nid, cw = cases
        nc, m, W = self.nc, self.m, self.width
        ya = self.y[rows]
        if cw is None:
            scale, sw = [1] * K, None
            dtype = np.int32
        else:
            scale, sw = self.scaled_weights(K, nid, cw, depth)
            dtype = object if sw.dtype == object else np.int64
        F = self.F.take if sw is None else _xlog2x
        # run_many's multiplicities: integer counts still (T stays int32, F a table)
        mw = None if cw is not None or self.mult is None else self.mult.take(rows).astype(np.float64)
        counted = sw if sw is not None else mw
        CC = self._bincount(nid * nc + ya, K * nc, counted).reshape(K, nc)
        # Every cell is written below (numeric features and short domains zero theirs).
        T = np.zeros((K, m, W, nc), dtype=dtype) if dtype == object else np.empty((K, m, W, nc), dtype=dtype)
        Fnx = np.empty((K, m))
        Fnxy = np.empty((K, m))
        nonempty = np.empty((K, m))
        big = np.empty((K, m)) if self.c45 else None
        if self.c45:  # min_objects in the node's scaled units
            mo = self.t.params["min_objects"]
            need = mo if sw is None else np.array([mo * s for s in scale], dtype=dtype)[:, None]
        ones = self.ones
        self.cuts = {}
        n_cases = self._bincount(nid, K, mw)
        offsets = {}  # node and class part of the bincount index, per number of slots
        for j in range(m):
            V = int(self.nv[j])
            x = self.Xt[j].take(rows)  # a 1-d gather: three times faster than Xt[j, rows]
            V1 = V
            if self.has_missing:
                x = np.where(x < 0, V, x)
                V1 = V + 1
            off = offsets.get(V1)
            if off is None:
                off = offsets[V1] = nid * (V1 * nc) + ya
            b = self._bincount(off + x * nc, K * V1 * nc, counted).reshape(K, V1, nc)
            if self.numeric[j]:
                known_cases = (self._bincount(nid[x < V], K, None if mw is None else mw[x < V]) if self.has_missing
                               else n_cases)
                T[:, j] = 0  # nodes without an admissible cut keep zeros
                self.cut_numeric(j, b[:, :V], T, scale, known_cases)
                known = T[:, j, :2]
            else:
                T[:, j, :V] = known = b[:, :V]
                if V < W:
                    T[:, j, V:] = 0
            if self.has_missing:
                T[:, j, W - 1] = b[:, V]
            nx = _class_sum(known)
            # Row sums as matrix-vector products: numpy's reduction over a short last
            # axis costs six times more (the counts are exact in float64).
            Vj = nx.shape[1]
            Fnx[:, j] = F(nx) @ ones[:Vj]
            Fnxy[:, j] = F(known).reshape(K, -1) @ ones[:Vj * nc]
            nonempty[:, j] = (nx > 0) @ ones[:Vj]
            if big is not None:
                big[:, j] = (nx >= need) @ ones[:Vj]
        return T, CC, scale, Fnx, Fnxy, nonempty, big

    def cut_numeric(self, j, b, T, scale, known_cases):
        """The best binary cut of numeric feature j at every node (into T[:, j, :2]).

        Cuts lie between adjacent distinct values present at the node.  C4.5 (J48's
        C45Split) counts only cuts that leave at least minSplit = 0.1·known weight /
        classes (between min_objects and 25) on each side, needs 2·minSplit known
        rows, and takes the first cut of maximal gain; ties are decided exactly.
        """
        K, V, nc = b.shape
        if V == 0:  # no known value in the whole column: no cut anywhere
            self.cuts.setdefault(j, {})
            return
        p = self.t.params
        cum = b.cumsum(axis=1)
        tot = cum[:, -1, :]
        nL = cum.sum(axis=2)
        nK = nL[:, -1]
        present = b.sum(axis=2) > 0
        cand = present & (nL < nK[:, None])
        if self.c45:  # the criterion's least weight on each side of a cut
            min_split = self.t.criterion.min_split
            for k in range(K):
                d = scale[k]
                ms = min_split(Fraction(int(nK[k]), d), int(known_cases[k]), nc, p)
                if ms is None:
                    cand[k] = False
                    continue
                need = ms * d
                total = int(nK[k])
                cand[k] &= np.array([x >= need and total - x >= need for x in nL[k].tolist()], dtype=bool)
        ncuts = cand.sum(axis=1)
        F = _xlog2x
        Lf = cum.astype(np.float64)
        Rf = tot.astype(np.float64)[:, None, :] - Lf
        nLf = Lf.sum(axis=2)
        nRf = nK.astype(np.float64)[:, None] - nLf
        parts = F(nLf) + F(Lf).sum(axis=2) + F(nRf) + F(Rf).sum(axis=2)
        Gc = F(nLf) - F(Lf).sum(axis=2) + F(nRf) - F(Rf).sum(axis=2)   # n·H(Y|cut)
        Bc = (16 + 4 * nc) * 4 * _U * parts + 1e-300
        Gc = np.where(cand, Gc, np.inf)
        info = self.cuts.setdefault(j, {})
        for k in np.flatnonzero(ncuts).tolist():
            best = int(np.argmin(Gc[k]))
            close = np.flatnonzero(cand[k] & (Gc[k] - Bc[k] <= Gc[k, best] + Bc[k, best])).tolist()
            if len(close) > 1:
                best_value = None
                for r in close:  # ascending: the first of equal values stays
                    tab = np.stack([cum[k, r], tot[k] - cum[k, r]])
                    value = Exact(0, _n_cond_coeffs(tab.tolist()))
                    if best_value is None or value < best_value:
                        best, best_value = r, value
            hi = best + 1 + int(np.argmax(present[k, best + 1:]))
            T[k, j, 0] = cum[k, best]
            T[k, j, 1] = tot[k] - cum[k, best]
            info[k] = (best, hi, int(ncuts[k]))

    # -- one level --
