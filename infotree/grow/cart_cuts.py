"""Scoring every cut of every open node of a depth at once (:class:`CutScoring`, a mixin
of :class:`~infotree.grow.cart.CARTBuilder`): numeric thresholds by cumulative counts
along the sorted segments (classification and regression), nominal subsets as bit masks
or Breiman's ordering."""



import numpy as np

from ..errors import InfotreeError
from ..impurities import Gini
from .. import splitters
from ..splitters import best_subset

from . import kernels
from .cart_arrays import (_BITS, _MASK_VALUES, _cumcount, _decreases, _first_best, _seg_starts, _short_sum, Refused)

class CutScoring:
    """The cut search of CARTBuilder (a mixin: reads the builder's arrays)."""

    def cuttable(self, j, v, nid):
        """Where a cut may fall along a depth's array sorted by feature j (v: its value
        codes): between two different known values of one node; the positions (the last
        row below each cut), their nodes and where each node's cuts start.  Kept for the
        depth's surrogates."""
        between = (v[:-1] != v[1:]) & (nid[:-1] == nid[1:])  # two values of one node
        if self.has_missing:
            between &= v[1:] >= 0
        cut = np.flatnonzero(between)
        k_of = nid[cut]
        self.between[j] = cut, k_of, _seg_starts(k_of)
        return self.between[j]

    def scored_compiled(self) -> bool:
        """Whether the compiled loops score the cuts: Gini's or regression's floats."""
        return self.compiled and (self.reg or type(self.crit).n_impurity_floats is Gini.n_impurity_floats)

    def numeric_cuts(self, j, order, nid, starts, K, CC, lv, imp, bnd, v=None):
        """Every node's best cut of numeric feature j, from its rows sorted by value (v:
        their values, when known)."""
        nc, ml = self.nc, self.min_leaf
        if v is None:
            v = self.Xt[j].take(order)
        self.sorted_values[j] = v   # kept for this depth's surrogates
        if self.scored_compiled():
            return self.compiled_cuts(j, order, v, nid, starts, K, CC, lv, imp, bnd)
        if self.reg:
            return self.numeric_cuts_regression(j, order, v, nid, starts, K, CC, lv, imp, bnd)
        yo = self.y.take(order)
        wo = None if self.w is None else self.w.take(order)
        cut, k_of, first = self.cuttable(j, v, nid)
        if self.has_missing:
            known = v >= 0
        nz = starts > 0
        # Cumulative class counts (the last class is the rest).  A bool array is summed as
        # int8 into int32: numpy's cumsum of bool (or of floats) is ten times slower.
        if wo is None:
            cums = [_cumcount(yo == c) for c in range(nc - 1)]
        else:
            cums = [np.cumsum(wo * (yo == c), dtype=wo.dtype) for c in range(nc - 1)]
            cw = np.cumsum(wo, dtype=wo.dtype)
            w_before = np.zeros(K, np.int64)
            w_before[nz] = cw[starts[nz] - 1]
        before = np.zeros((nc - 1, K), np.int64)
        for c in range(nc - 1):
            before[c, nz] = cums[c][starts[nz] - 1]
        if self.has_missing:
            k_rows = np.bincount(nid[known], minlength=K)  # a node's known rows lead its segment
            kn = k_rows if wo is None else self.count(nid[known], K, weights=wo[known])
            P = np.zeros((K, nc), np.int64)
            some = k_rows > 0
            for c in range(nc - 1):
                P[some, c] = cums[c][starts[some] + k_rows[some] - 1] - before[c, some]
            P[:, nc - 1] = kn - P[:, :nc - 1].sum(axis=1)
            lv.U[:, j] = CC - P
        else:
            kn, P = CC.sum(axis=1), CC
        n_left = cut + 1 - starts[k_of] if wo is None else cw[cut] - w_before[k_of]
        if ml > 1:  # else every cut between known rows leaves one on each side
            ok = (n_left >= ml) & (kn[k_of] - n_left >= ml)
            cut, k_of, n_left = cut[ok], k_of[ok], n_left[ok]
            first = _seg_starts(k_of)
        if not len(cut):
            return
        Pf = P.astype(np.float64)
        Lf = [(cums[c][cut] - before[c][k_of]).astype(np.float64) for c in range(nc - 1)]
        last = n_left.astype(np.float64)
        for x in Lf:
            last -= x
        Lf.append(last)
        Rf = [Pf[:, c][k_of] - Lf[c] for c in range(nc)]
        Lc = Lf
        f = self.crit.n_impurity_floats
        knf = kn.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):  # nodes without a known value have no cut
            vp = f([Pf[:, c] for c in range(nc)], knf)
        nlf = n_left.astype(np.float64)
        val = vp[k_of] - f(Lf, nlf) - f(Rf, knf[k_of] - nlf)
        b = self.crit.improvement_error(knf, nc)[k_of]

        def exact(items):
            L = np.stack([x[items] for x in Lc], axis=1).astype(np.int64)
            Pk = P[k_of[items]]
            return self._exact(Pk, L, Pk - L)

        groups, win, _ = _first_best(k_of, val, b, exact, first)
        lv.has[groups, j] = True
        lv.tried[groups, j] = np.diff(first, append=len(cut))
        L = np.stack([x[win] for x in Lc], axis=1).astype(np.int64)
        lv.L[groups, j], lv.R[groups, j] = L, P[groups] - L
        at = cut[win]
        lv.lo[groups, j], lv.hi[groups, j] = v[at], v[at + 1]
        imp[groups, j], bnd[groups, j] = val[win], b[win]

    def compiled_cuts(self, j, order, v, nid, starts, K, CC, lv, imp, bnd):
        """numeric_cuts by a compiled loop (:mod:`~infotree.grow.kernels`: Gini and
        regression), which writes each node's best cut into the depth's arrays, or, where
        the floats cannot tell, returns the cuts that may be the best, decided exactly here."""
        ends = np.append(starts[1:], len(order))
        out = (lv.has[:, j], lv.tried[:, j], lv.L[:, j], lv.R[:, j], lv.lo[:, j], lv.hi[:, j], imp[:, j], bnd[:, j])
        if self.reg:
            P, pos, k_of, val, b, L = kernels.regression_cuts(order, self.y_gather, v, starts, ends, CC, self.min_leaf,
                                                              self.has_missing, out)

            def exact(items):
                Li, Pk = L[items], P[k_of[items]]
                return _decreases(Li[:, 1], Li[:, 0], Pk[:, 1] - Li[:, 1], Pk[:, 0] - Li[:, 0])
        else:
            weighted = self.w is not None
            P, pos, k_of, val, b, L = kernels.gini_cuts(order, self.y_small, self.w if weighted else self.y[:0], weighted,
                                                        v, starts, ends, CC, self.min_leaf, self.has_missing, out,
                                                        kernels.EXACT_GINI_ROWS)

            def exact(items):
                Pk = P[k_of[items]]
                return self._exact(Pk, L[items], Pk - L[items])
        if self.has_missing:
            lv.U[:, j] = CC - P
        if not len(pos):
            return
        groups, win, _ = _first_best(k_of, val, b, exact)   # the nodes the floats left undecided
        Lw = L[win]
        lv.L[groups, j], lv.R[groups, j] = Lw, P[groups] - Lw
        at = pos[win]
        lv.lo[groups, j], lv.hi[groups, j] = v[at], v[at + 1]
        imp[groups, j], bnd[groups, j] = val[win], b[win]

    def compiled_cuts_all(self, O, V, nid, starts, K, CC, lv, imp, bnd, drawn=None):
        """compiled_cuts of every numeric feature in one call (O, V: the depth's sorted rows
        and value codes, a row of each per feature of self.num_js; ``drawn``: a forest's
        nodes' features, the only ones scored)."""
        js = self.num_js
        for f, j in enumerate(js.tolist()):
            self.sorted_values[j] = V[f]   # kept for this depth's surrogates
        ends = np.append(starts[1:], O.shape[1])
        arrays = (lv.has, lv.tried, lv.L, lv.R, lv.lo, lv.hi, imp, bnd)
        weighted = self.w is not None
        P, pos, k_of, f_of, val, b, L = kernels.cuts_all(O, V, js, self.y_gather if self.reg else self.y_small,
                                                         self.w if weighted else self.y[:0], weighted, self.reg, starts,
                                                         ends, CC, self.min_leaf, self.has_missing, *arrays,
                                                         kernels.EXACT_GINI_ROWS, None if drawn is None else drawn[:, js])
        if self.reg:
            def exact(items):
                Li, Pk = L[items], P[f_of[items], k_of[items]]
                return _decreases(Li[:, 1], Li[:, 0], Pk[:, 1] - Li[:, 1], Pk[:, 0] - Li[:, 0])
        else:
            def exact(items):
                Pk = P[f_of[items], k_of[items]]
                return self._exact(Pk, L[items], Pk - L[items])
        if self.has_missing:
            lv.U[:, js] = (CC[None] - P).transpose(1, 0, 2)
        if not len(pos):
            return
        # the (feature, node) pairs the floats left undecided: items run feature by feature,
        # node by node, cut by cut
        _, win, _ = _first_best(f_of * K + k_of, val, b, exact)
        ks, fs = k_of[win], f_of[win]
        jw, at, Lw = js[fs], pos[win], L[win]
        lv.L[ks, jw], lv.R[ks, jw] = Lw, P[fs, ks] - Lw
        lv.lo[ks, jw], lv.hi[ks, jw] = V[fs, at], V[fs, at + 1]
        imp[ks, jw], bnd[ks, jw] = val[win], b[win]

    def numeric_cuts_regression(self, j, order, v, nid, starts, K, CC, lv, imp, bnd):
        """numeric_cuts for regression: decrease = d² / (n_L·n_R·n), d = S_L·n_R − S_R·n_L
        an exact integer; in floats only a few roundings from the exact value."""
        ml = self.min_leaf
        cut, k_of, first = self.cuttable(j, v, nid)
        if self.has_missing:
            known = v >= 0
            kn = np.bincount(nid[known], minlength=K)
        else:
            kn = CC[:, 0]
        yo = self.y_gather.take(order)
        cumS, cumQ = np.cumsum(yo, dtype=np.int64), np.cumsum(np.square(yo, dtype=np.int64))
        nz = starts > 0
        bS, bQ = np.zeros(K, np.int64), np.zeros(K, np.int64)
        bS[nz], bQ[nz] = cumS[starts[nz] - 1], cumQ[starts[nz] - 1]
        if self.has_missing:
            P = np.zeros((K, 3), np.int64)
            some = kn > 0
            last = starts[some] + kn[some] - 1
            P[:, 0] = kn
            P[some, 1], P[some, 2] = cumS[last] - bS[some], cumQ[last] - bQ[some]
            lv.U[:, j] = CC - P
        else:
            P = CC
        n_left = cut + 1 - starts[k_of]
        if ml > 1:
            ok = (n_left >= ml) & (kn[k_of] - n_left >= ml)
            cut, k_of, n_left = cut[ok], k_of[ok], n_left[ok]
            first = _seg_starts(k_of)
        if not len(cut):
            return
        SL = cumS[cut] - bS[k_of]
        SR = P[:, 1].take(k_of) - SL
        nP = kn.take(k_of)
        n_right = nP - n_left
        d = SL * n_right - SR * n_left
        df = d.astype(np.float64)
        val = df * df / (n_left.astype(np.float64) * n_right * nP)
        b = 2.0 ** -48 * val     # d is exact; a square, a product and a division round

        def exact(items):
            return _decreases(SL[items], n_left[items], SR[items], n_right[items])

        groups, win, _ = _first_best(k_of, val, b, exact, first)
        lv.has[groups, j] = True
        lv.tried[groups, j] = np.diff(first, append=len(cut))
        at = cut[win]
        # column by column: numpy assigns a block of rows into (K, m, 3) far slower
        for c, x in enumerate((n_left[win], SL[win], cumQ[at] - bQ[groups])):
            lv.L[groups, j, c] = x
            lv.R[groups, j, c] = P[groups, c] - x
        lv.lo[groups, j], lv.hi[groups, j] = v[at], v[at + 1]
        imp[groups, j], bnd[groups, j] = val[win], b[win]

    def subset_cuts(self, g, rows, nid, K, CC, lv, imp, bnd):
        """Every node's best subset split of the g-th group of nominal features (all with
        V values)."""
        js = self.nominal_groups[g]
        nc, V, ml, F = self.nc, self.nv[js[0]], self.min_leaf, len(js)
        T = self.tables[g]   # derived by the parents' partition, or counted here (the root)
        if T is None:
            T = self.tables[g] = self.nominal_count(g, rows, nid, K)
        T = T[:, :, :V]
        if self.has_missing:
            P = _short_sum(T, 2)                            # K × F × classes: the known rows
            lv.U[:, js] = CC[:, None, :] - P
        else:
            P = np.broadcast_to(CC[:, None, :], (K, F, nc))
        n_v = _short_sum(T, 3)
        present = n_v > 0
        k_present = _short_sum(present.view(np.int8), 2)
        live = k_present >= 2
        if not live.any():
            return
        if V > _MASK_VALUES:
            for f, j in enumerate(js):
                self.subsets_one_by_one(j, T[:, f], np.flatnonzero(live[:, f]), lv, imp, bnd)
            return
        pmask = _short_sum(present * np.left_shift(1, np.arange(V)), 2)[:, :, None]   # K × F × 1
        if nc == 2:
            # Breiman: values by their exact share of the first class (equal shares keep
            # value order); the k − 1 prefixes of that order.
            with np.errstate(divide="ignore", invalid="ignore"):
                share = np.where(present, T[..., 0] / np.where(present, n_v, 1), np.inf)
            order = np.argsort(share, axis=2, kind="stable")
            sortedT = np.take_along_axis(T, order[..., None], axis=2)
            prefix = np.cumsum(sortedT, axis=2)[:, :, :-1]              # K × F × (V−1) × classes
            bits = np.cumsum(np.left_shift(1, order), axis=2)[:, :, :-1]  # the prefixes' value masks
            valid = np.arange(1, V) <= (k_present - 1)[..., None]
            lowest = np.left_shift(1, np.argmax(present, axis=2))[..., None]
            flip = (bits & lowest) == 0        # the side written is the one with the first present value
            Lm = np.where(flip[..., None], P[:, :, None, :] - prefix, prefix)
            written = np.where(flip, pmask & ~bits, bits)

            def masks(ks, fs, cs):
                return written[ks, fs, cs]
        else:
            count = (1 << (k_present[live] - 1)) - 1
            most = int(count.max())
            if most > min(self.p.get("max_subsets", 1 << 15), splitters.MAX_SUBSETS):
                raise Refused   # the reference names the limit
            if most * int(CC.sum()) > splitters.SUBSET_WORK:  # the budget, node by node where it may bind
                rows_k = P.sum(axis=2)[live]
                reach = rows_k if self.reach is None else np.minimum(rows_k, self.reach)
                if (count * reach > splitters.SUBSET_WORK).any():
                    raise Refused   # the reference names the budget
            # The present values first, in value order: the reference's subsets (those
            # holding the lowest present value, all but the whole, by mask) are the odd masks
            # below 2^k − 1 over these k positions, in the same order (an order-keeping map
            # of bits keeps the order of masks): a prefix of one list for every node.
            Tc = T
            gaps = live & (pmask[..., 0] != (1 << k_present) - 1)   # an absent value below a present one
            if gaps.any():
                gk, gf = np.nonzero(gaps)
                order = np.argsort(~present[gk, gf], axis=1, kind="stable")
                Tc = T.copy()
                Tc[gk, gf] = np.take_along_axis(T[gk, gf], order[..., None], axis=1)
            M = list(range(1, (1 << V) - 2, 2))
            Lm = np.empty((len(M), K, F, nc), np.int64)   # mask first: each one a contiguous block
            Lm[0] = Tc[:, :, 0]
            for i, m in enumerate(M[1:], 1):   # the mask without its top position, plus that one
                top = m.bit_length() - 1
                np.add(Lm[M.index(m ^ 1 << top)], Tc[:, :, top], out=Lm[i])
            Lm = Lm.transpose(1, 2, 0, 3)
            valid = np.arange(len(M)) < ((1 << k_present) >> 1)[..., None] - 1
            M = np.array(M)

            def masks(ks, fs, cs):  # the subsets' value codes as bits: position i is the i-th present value
                m, rest, out = M[cs], pmask[ks, fs, 0], 0
                for i in range(V):
                    low = rest & -rest
                    out |= np.where(m >> i & 1, low, 0)
                    rest ^= low
                return out
        if ml > 1:
            nL = _short_sum(Lm, 3)
            valid = valid & (nL >= ml) & (_short_sum(P, 2)[..., None] - nL >= ml)
        valid &= live[..., None]
        ks, fs, cs = np.nonzero(valid)
        if not len(ks):
            return
        L = Lm[ks, fs, cs]
        Pi = P[ks, fs]
        R = Pi - L
        val, b = self._improvements(Pi, L, R)
        groups, win, _ = _first_best(ks * F + fs, val, b, lambda items: self._exact(Pi[items], L[items], R[items]))
        gk, gf = np.divmod(groups, F)
        at = gk * self.m + np.asarray(js)[gf]   # (node, feature) cells, flat
        lv.has.ravel()[at] = True
        lv.tried[:, js] = np.bincount(ks * F + fs, minlength=K * F).reshape(K, F)
        lv.L.reshape(-1, nc)[at], lv.R.reshape(-1, nc)[at] = L[win], R[win]
        imp.ravel()[at], bnd.ravel()[at] = val[win], b[win]
        lv.mask.ravel()[at] = masks(ks[win], fs[win], cs[win])

    def subsets_one_by_one(self, j, T, live, lv, imp, bnd):
        """A wide nominal feature: the reference's splitter at each node."""
        crit = self.crit
        for k in live.tolist():
            try:
                found = best_subset(tuple(map(tuple, T[k].tolist())), self.min_leaf, crit.cut_key,
                                    self.p.get("max_subsets", 1 << 15), order=crit.subset_order,
                                    floats=getattr(crit, "cut_floats", None), reach=self.reach)
            except InfotreeError:
                raise Refused from None
            if found is None:
                continue
            left, (l, r), tried = found
            lv.has[k, j] = True
            if len(self.t.domains[j]) > _BITS:
                lv.wide[k, j] = frozenset(left)
            else:
                lv.mask[k, j] = sum(1 << i for i in left)
            lv.L[k, j], lv.R[k, j], lv.tried[k, j] = l, r, tried
            L, R = np.array([l]), np.array([r])
            val, b = self._improvements(L + R, L, R)
            imp[k, j], bnd[k, j] = val[0], b[0]

    # -- partition and surrogates --
