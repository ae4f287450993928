"""The level-wise builder's decisions: certified float filters, then exact arithmetic.

For a whole level at once, float intervals (each F(m) = m·log2(m) within a few units
of roundoff) decide what they can: ID3's least n·H(Y|X), C4.5's average-gain test,
positive gains and gain-ratio order.  Whatever they leave open is compared exactly
with the one exact implementation of the measures (:mod:`infotree.measures`).  The
rules decided are the criteria's own (:mod:`infotree.criteria`); the reference
builder applies them directly, and the tests check that both agree.
"""

from __future__ import annotations

import math

import numpy as np

from ..exact import Exact, Ratio
from ..measures import _g_int, _sum_g, is_independent

_U = 2.0 ** -53

# c45_quick's codes for a node that J48's stopping rules make a leaf.
_TOO_FEW, _NO_VALID, _NO_AVERAGE, _NO_POSITIVE = -2, -3, -4, -5
_C45_STOPS = {_TOO_FEW: "too_few", _NO_VALID: "no_valid", _NO_AVERAGE: "no_average",
              _NO_POSITIVE: "no_positive_ratio"}


def _bits(mask) -> int:
    """A boolean array as an int whose bit j is mask[j]."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def _row_bits(mask) -> list:
    """_bits of every row of a 2-d boolean array."""
    packed = np.packbits(mask, axis=1, bitorder="little")
    if packed.shape[1] <= 8:  # up to 64 features: one little-endian uint64 per row
        wide = np.zeros((len(packed), 8), np.uint8)
        wide[:, :packed.shape[1]] = packed
        return wide.view("<u8").ravel().tolist()
    return [int.from_bytes(r.tobytes(), "little") for r in packed]


def _n_cond_coeffs(rows) -> dict:
    """n·H(Y|X) of one feature's table (rows of class counts) as {prime: integer coefficient}."""
    return {p: c for p, c in _sum_g([tuple(r) for r in rows]).items() if c}


def _exact_parts(block, nv, nc, unknown=None, mdl=None):
    """(n·H(Y|X), n·IG, n·SplitInfo) of one feature's (scaled integer) table, exactly.

    n is the node's (scaled) weight: the known rows plus ``unknown``, the class counts
    of the rows whose value is missing (C4.5: IG is taken on the known rows and
    multiplied by the known fraction, which makes n·IG the known rows' own n·IG; the
    unknown rows are one more branch of the split information).  ``mdl`` = (scale,
    number of cuts) subtracts C4.5's scale·log2(cuts) from n·IG (numeric features).
    """
    rows = [tuple(int(c) for c in r) for r in block[:nv, :nc].tolist()]
    n_cond = Exact(0, _n_cond_coeffs(rows))
    n_ig = Exact(0, _g_int(tuple(map(sum, zip(*rows))))) - n_cond
    sizes = tuple(map(sum, rows)) + ((int(sum(unknown.tolist())),) if unknown is not None else ())
    if mdl is not None and mdl[1] > 1:
        n_ig = n_ig - Exact.log2(mdl[1]) * mdl[0]
    return n_cond, n_ig, Exact(0, _g_int(sizes))


def _xlog2x(a) -> np.ndarray:
    """x·log2(x) of an array of non-negative integers (any size), in float64."""
    a = np.asarray(a, dtype=np.float64)
    out = np.zeros_like(a)
    big = a > 1
    out[big] = a[big] * np.log2(a[big])
    return out



class Decisions:
    """The exact and float decisions of :class:`~infotree.grow.levelwise.LevelwiseBuilder` (a mixin)."""

    # -- exact decisions --
    # -- a level's float sums and the three kernels --
    def float_sums(self, T, CC, scale, Fnx, Fnxy, n, weighted):
        """n·H(Y|X), n·IG and n·SplitInfo of every node and feature in floats, each with
        its error bound (``self.level_arrays``); ID3 orders n·H(Y|X) alone."""
        nc, W, K, m = self.nc, self.width, len(n), self.m
        F = _xlog2x if weighted else self.F.take
        Tk = T[:, :, :self.vmax, :] if self.has_missing else T
        G = Fnx - Fnxy                                       # n·H(Y|X), float
        # Each F entry is within 4 units of roundoff of m·log2(m); each sum adds one.
        B = (12 + self.vmax * (nc + 1)) * 4 * _U * (Fnx + Fnxy) + 1e-300
        nIG = nIGb = nSI = nSIb = None
        if not self.id3:
            Fn = F(n)
            if self.has_missing:
                Ck = Tk.sum(axis=2)                          # known class counts per feature
                Fk = F(Ck.sum(axis=2))
                Fyk = F(Ck).sum(axis=2)
                nIG = Fk - Fyk - G
                nIGb = B + (nc + 8) * 4 * _U * (Fk + Fyk)
                Fu = F(T[:, :, W - 1, :].sum(axis=2))
            else:
                Fy = F(CC).sum(axis=1)
                nIG = (Fn - Fy)[:, None] - G
                nIGb = B + (nc + 8) * 4 * _U * (Fn + Fy)[:, None]
                Fu = 0.0
            if self.mdl and self.numeric.any():
                mdl = np.zeros((K, m))
                for j, info in self.cuts.items():
                    for k, (_, _, c) in info.items():
                        mdl[k, j] = scale[k] * math.log2(c)
                nIG = nIG - mdl
                nIGb = nIGb + 4 * _U * mdl
            nSI = Fn[:, None] - Fnx - Fu
            nSIb = (self.vmax + 8) * 4 * _U * (Fn[:, None] + Fnx + Fu) + 1e-300
        self.level_arrays = (T, G, B, nIG, nIGb, nSI, nSIb)

    def _separating(self, used, eligible, choose):
        """The per-node decision of ID3 and plain gain ratio: the path's features and
        non-separating ones are no candidates; ``choose(k, node)`` picks among the rest."""
        no_features, separating = used.all(axis=1).tolist(), eligible.any(axis=1).tolist()

        def decide(k, node):
            if no_features[k]:
                node.stop = "no_features"
                return None
            if not separating[k]:
                node.stop = "no_separation"
                return None
            return choose(k, node)
        return decide

    def prepare_ratio(self, n, pure, eligible, big, used, weighted):
        """Plain gain ratio: best_ratio at each node (its own float filter, then exact)."""
        return self._separating(used, eligible,
                                lambda k, node: self.best_ratio(node, k, np.flatnonzero(eligible[k])))

    def prepare_id3(self, n, pure, eligible, big, used, weighted):
        """ID3: least n·H(Y|X), by float intervals for the whole level where they separate
        one feature, by pure branches or alike tables where they tie, exactly elsewhere."""
        T, G, B = self.level_arrays[:3]
        K, m = G.shape
        # Only nodes that are not pure (a pure node is a leaf before any choice).
        live = np.flatnonzero(~pure)
        el, Bl = eligible[live], B[live]
        Ge = np.where(el, G[live], np.inf)
        upper = Ge + Bl
        lower = Ge - Bl
        least = upper.min(axis=1)[:, None]
        amb = ((lower <= least) & el).sum(axis=1)
        q = np.where(amb == 1, upper.argmin(axis=1), -1)
        self.quick_ties = {}
        perfect = None  # per node (weighted counts only)
        # Rows of live the filter left open (usually few): the rest of the work is theirs.
        o = np.flatnonzero((q < 0) & el.any(axis=1))
        if o.size:
            # A feature whose every branch is pure has H(Y|X) = 0 exactly, the
            # least possible: ties among such features need no arithmetic at all.
            # n·H(Y|X) of integer counts is 0 or at least 2 (a branch with classes 1
            # and 1; any other impure branch adds more), so a float value within its
            # bound B < 1 of 0 is exactly 0.
            Bo = Bl[o]
            perfect_o = el[o] & (Ge[o] <= Bo) & (Bo < 1)
            if weighted:
                perfect = np.zeros((K, m), bool)
                perfect[live[o]] = perfect_o
            else:
                has = perfect_o.any(axis=1)
                for i, row in zip(o[has].tolist(), perfect_o[has].tolist()):
                    js = [j for j, b in enumerate(row) if b]
                    q[i], self.quick_ties[int(live[i])] = js[0], tuple(js[1:])
                rest = o[~has]
                if rest.size:
                    close = np.zeros(el.shape, bool)
                    close[rest] = el[rest] & (lower[rest] <= least[rest])
                    self.alike_ties(close, q, impure_only=True, nodes=live)
        quick = np.full(K, -1, dtype=np.int64)
        quick[live] = q
        quick_l, quick_ties = quick.tolist(), self.quick_ties

        def choose(k, node):
            choice = quick_l[k]
            if choice < 0:
                best = () if perfect is None else np.flatnonzero(perfect[k])
                if len(best):
                    choice, node.ties = int(best[0]), tuple(best[1:].tolist())
                else:
                    choice = self.exact_gain_choice(node, k, np.flatnonzero(eligible[k]))
            elif quick_ties:  # ties found for the whole level (alike_ties)
                node.ties = quick_ties.get(k, ())
            return choice
        return self._separating(used, eligible, choose)

    def prepare_c45(self, n, pure, eligible, big, used, weighted):
        """C4.5 (J48): the stopping rules, the average-gain test and the gain-ratio order
        by float intervals for the whole level; choose_c45 where they leave a node open."""
        p, nIG, nIGb = self.t.params, self.level_arrays[3], self.level_arrays[4]
        K, m = nIG.shape
        valid = big >= 2
        if self.numeric.any():
            ok = np.zeros((K, m), bool)
            for j, info in self.cuts.items():
                for k in info:
                    ok[k, j] = self.positive_numeric_gain(k, j)
            valid = np.where(self.numeric[None, :], ok, valid)
        if self.drawn is not None:  # a forest's node: its drawn features only
            valid &= self.drawn
        # J48 examines only these nodes: a pure node is a leaf first, and (plain
        # counts) one with fewer than 2·min_objects rows is too_few.  The level's
        # filters work on their rows alone (row_of[k]: node k's row, -1 for others).
        look = ~pure if weighted else ~pure & (n >= 2 * p["min_objects"])
        live = np.flatnonzero(look)
        row_of = np.full(K, -1, dtype=np.int64)
        row_of[live] = np.arange(len(live))
        valid_s = valid[live]
        pre = self.c45_filter(n[live], valid_s, nIG[live], nIGb[live])
        quick = np.full(K, -1 if weighted else _TOO_FEW, dtype=np.int64)
        quick[live] = self.c45_quick(n[live], valid_s, pre, weighted, live)
        if (quick[live] != -1).any():
            valid_bits, ok_bits = _row_bits(valid_s), _row_bits(pre[2])
        row_l, quick_l, quick_ties = row_of.tolist(), quick.tolist(), self.quick_ties

        def decide(k, node):
            choice = quick_l[k]
            if choice >= 0:  # decided by the level's float intervals (c45_quick)
                i = row_l[k]
                node._valid, node._gain_ok = valid_bits[i], ok_bits[i]
                if quick_ties:
                    node.ties = quick_ties.get(k, ())
                return choice
            if choice == -1:
                return self.choose_c45(node, k, row_l[k], valid[k], int(n[k]), pre)
            # one of J48's stopping rules, found for the whole level
            node.stop = _C45_STOPS[choice]
            if choice != _TOO_FEW:
                node._valid = valid_bits[row_l[k]]
            if choice == _NO_POSITIVE:
                node._gain_ok = ok_bits[row_l[k]]
            return None
        return decide

    def exact_parts(self, k, j):
        T = self.level_arrays[0]
        unknown = T[k, j, self.width - 1] if self.has_missing else None
        mdl = None
        if self.mdl and self.numeric[j]:
            mdl = (self.scale[k], self.cuts[j][k][2])
        return _exact_parts(T[k, j], int(self.slots[j]), self.nc, unknown, mdl)

    def positive_numeric_gain(self, k, j) -> bool:
        """C4.5 keeps a numeric feature only if its gain, less the MDL term, is positive."""
        nIG, nIGb = self.level_arrays[3:5]
        if nIG[k, j] - nIGb[k, j] > 0:
            return True
        if nIG[k, j] + nIGb[k, j] < 0:
            return False
        return self.exact_parts(k, j)[1] > 0

    def exact_gain_choice(self, node, k, cands):
        """Among the candidates the float filter could not separate, min n·H(Y|X) exactly."""
        T, G, B = self.level_arrays[:3]
        g, b = G[k, cands], B[k, cands]
        close = cands[g - b <= (g + b).min()].tolist()
        # n·H(Y|X) is a sum over branches of F(n_x) - Σ_y F(n_xy), which depends on the
        # branch's class counts as a multiset and is 0 for a pure branch.  Features with
        # the same impure branches are equal without arithmetic (on connect-4, all the
        # close candidates of 96% of these nodes); only distinct ones are factored.
        keyed: dict = {}
        for j in close:
            rows = T[k, j, :self.n_slots[j]].tolist()
            key = tuple(sorted(tuple(sorted(r)) for r in rows if len(r) - r.count(0) > 1))
            keyed.setdefault(key, []).append(j)
        groups: list = []
        for key, js in keyed.items():
            d = _n_cond_coeffs(key) if len(keyed) > 1 else None
            for grp in groups:
                if grp[0] == d:
                    grp[1].extend(js)
                    break
            else:
                groups.append((d, js))
        best = groups[0]
        best_value = None
        for grp in groups[1:]:
            if best_value is None:
                best_value = Exact(0, best[0])
            value = Exact(0, grp[0])
            if value < best_value or (value == best_value and min(grp[1]) < min(best[1])):
                best, best_value = grp, value
        winners = sorted(best[1])
        node.ties = tuple(winners[1:])
        return winners[0]

    @staticmethod
    def zero_gain(tab) -> bool:
        """IG = 0 exactly iff n·n_xy == n_x·n_y in every cell (integers only)."""
        return is_independent(tab.tolist())

    def best_ratio(self, node, k, cands):
        """First feature (column order) of maximal gain ratio among cands; records ties."""
        _, _, _, nIG, nIGb, nSI, nSIb = self.level_arrays
        c = np.asarray(cands, dtype=np.int64)
        si, sib, igb = nSI[k, c], nSIb[k, c], nIGb[k, c]
        sure = si - sib > 0    # cannot fail with two non-empty branches; be safe
        q = np.where(sure, nIG[k, c] / si, 0.0)   # (run() silences the division by 0)
        qb = np.where(sure, (igb + np.abs(q) * sib) / (si - sib) + 4 * _U * np.abs(q) + 1e-300, np.inf)
        close = c[q + qb >= (q - qb).max()].tolist()
        if len(close) == 1:
            node.ties = ()
            return close[0]
        # n·IG and n·SI depend on the branches' class counts as a multiset (each row's
        # classes in any order: the node's class totals are fixed), on the unknown
        # branch and on the MDL term: candidates alike in these are equal without
        # arithmetic (on connect-4, most close candidates are such exact ties).
        T = self.level_arrays[0]
        alike: dict = {}
        for j in close:
            key = tuple(sorted(tuple(sorted(r)) for r in T[k, j, :self.n_slots[j]].tolist() if any(r)))
            if self.has_missing:
                key = (key, tuple(T[k, j, self.width - 1].tolist()))
            if self.mdl and self.is_numeric[j]:
                key = (key, self.cuts[j][k][2])
            alike.setdefault(key, []).append(j)
        if len(alike) == 1:
            node.ties = tuple(close[1:])
            return close[0]
        # Equal (n·IG, n·SI) pairs are equal ratios: one comparison per distinct pair.
        groups: dict = {}
        for js in alike.values():
            _, ig, si = self.exact_parts(k, js[0])
            groups.setdefault((ig, si), []).extend(js)
        groups = {key: sorted(js) for key, js in sorted(groups.items(), key=lambda g: min(g[1]))}
        pairs = iter(groups.items())
        (ig, si), best = next(pairs)
        best_r, tied = Ratio(ig, si), []
        for (ig, si), js in pairs:   # by first column: the first of equal ratios stays
            r = Ratio(ig, si)
            c = r.compare(best_r)
            if c > 0:
                best, best_r, tied = js, r, []
            elif c == 0:
                tied += js
        node.ties = tuple(sorted(best[1:] + tied))
        return best[0]

    def c45_filter(self, n, valid, nIG, nIGb):
        """J48's average-gain test by float intervals at every node of a level.

        Per node and feature: passes for sure, fails for sure, or is left open for the
        exact test (interval overlap).  Also which gains are positive for sure.
        """
        slack = self.slack
        nk = np.asarray(n, dtype=np.float64)
        avg = valid & self.in_average
        kc = avg.sum(axis=1)
        # Beyond floats the sums are inf or nan, every comparison is False: all open.
        S = np.where(avg, nIG, 0.0).sum(axis=1) - kc * nk * slack
        Sb = (np.where(avg, nIGb, 0.0).sum(axis=1) * (1 + kc * _U)
              + (kc + 4) * _U * (np.abs(S) + kc * nk * slack) + 1e-300)
        lhs = kc[:, None] * nIG
        lb = kc[:, None] * nIGb * (1 + 2 * _U) + _U * np.abs(lhs)
        ok_sure = valid & (lhs - lb > (S + Sb)[:, None])
        ok_open = valid & ~ok_sure & ~(lhs + lb < (S - Sb)[:, None])
        # Numeric features in the valid set already have a positive gain (after the MDL term).
        positive = self.numeric | (nIG - nIGb > 0)
        return avg, kc, ok_sure, ok_open, positive

    def c45_quick(self, n, valid, pre, weighted, live):
        """J48's choice at every node of a level that float intervals decide alone.

        Per node: the winning feature; a negative code (``_C45_STOPS``) for a leaf by
        one of J48's stopping rules; or -1 where :meth:`choose_c45` must look (weighted
        counts, an average-gain test the intervals leave open, a gain that may be 0, or
        gain ratios too close to order).  Where a feature is
        returned, every test on the way has the same outcome as the exact one: the
        average-gain test is sure for every valid feature, the gain of every feature
        that passes it is surely positive, and the winner's gain-ratio interval lies
        above every other candidate's.
        """
        K = len(n)
        self.quick_ties = {}
        if weighted:  # scaled counts, Fractions: node by node
            return np.full(K, -1, dtype=np.int64)
        avg, kc, ok_sure, ok_open, positive = pre
        T = self.level_arrays[0]
        nIG, nIGb, nSI, nSIb = (self.level_arrays[i][live] for i in (3, 4, 5, 6))
        # Only nodes that reach the test: in choose_c45's order, no valid feature, no
        # average and an open average test come first.
        reach = (kc > 0) & ~ok_open.any(axis=1)
        maybe_zero = ok_sure & ~positive & reach[:, None]
        if maybe_zero.any():
            # IG = 0 exactly iff n·n_xy = n_x·n_y in every cell: integers (int64 holds
            # the products of int32 counts), for these few pairs at once.
            ks, js = np.nonzero(maybe_zero)
            tab = T[live[ks], js, :self.vmax].astype(np.int64)
            nx, ny = tab.sum(axis=2), tab.sum(axis=1)
            zero = (tab * nx.sum(axis=1)[:, None, None] == nx[:, :, None] * ny[:, None, :]).all(axis=(1, 2))
            positive = positive.copy()
            positive[ks, js] = ~zero
        cand = ok_sure & positive & reach[:, None]
        fine = cand.any(axis=1)
        # best_ratio's intervals, for every node and feature at once.
        sure = cand & (nSI - nSIb > 0)
        q = np.where(sure, nIG / np.where(sure, nSI, 1.0), 0.0)
        qb = np.where(sure, (nIGb + np.abs(q) * nSIb) / (nSI - nSIb) + 4 * _U * np.abs(q) + 1e-300, np.inf)
        low = np.where(cand, q - qb, -np.inf).max(axis=1)
        close = cand & (q + qb >= low[:, None])
        n_close = close.sum(axis=1)
        one = fine & (n_close == 1)
        out = np.where(one, close.argmax(axis=1), -1)
        many = fine & (n_close > 1)
        if many.any():
            # best_ratio's key: n·IG and n·SI depend on the rows as a multiset.
            self.alike_ties(close & many[:, None], out, impure_only=False, nodes=live)
        # J48's stopping rules, in choose_c45's order.
        out[reach & ~fine] = _NO_POSITIVE
        out[kc == 0] = _NO_AVERAGE
        out[~valid.any(axis=1)] = _NO_VALID
        return out

    def alike_ties(self, close, out, *, impure_only, nodes=None):
        """Exact ties found for a whole level without arithmetic (plain nominal counts).

        ``close`` marks, per node, the candidates the float filter cannot order.  Where
        all of a node's close candidates have alike branches (each row's classes
        sorted, the rows as a multiset: the keys of best_ratio and exact_gain_choice;
        ``impure_only``: pure rows left out, as they add nothing to n·H(Y|X)), they are
        exactly equal: ``out[i]`` becomes the first and ``self.quick_ties[k]`` the rest,
        where row i of ``close`` is node ``k = nodes[i]`` (all the level's nodes when
        ``nodes`` is None).  The padding rows of a short domain are zeros for every
        feature, so comparing all rows compares the multisets.
        """
        if self.numeric.any() or self.has_missing:  # cuts and unknown branches: per node
            return
        T = self.level_arrays[0]
        ks, js = np.nonzero(close)
        tab = T[ks if nodes is None else nodes[ks], js]
        if impure_only:
            tab = np.where(((tab > 0).sum(axis=2) > 1)[:, :, None], tab, 0)
        tab = np.sort(tab, axis=2)
        rows = np.ascontiguousarray(tab).view(np.dtype((np.void, tab.shape[2] * tab.itemsize)))
        key = np.sort(rows.reshape(len(ks), -1), axis=1).view(np.uint8).reshape(len(ks), -1)
        head_of = ks.searchsorted(ks)  # each pair's node's first pair (ks ascending)
        heads = np.flatnonzero(head_of == np.arange(len(ks)))
        alike = np.logical_and.reduceat((key == key[head_of]).all(axis=1), heads).tolist()
        js_l, ks_l, heads = js.tolist(), ks.tolist(), heads.tolist()
        node_l = ks_l if nodes is None else nodes[ks].tolist()
        ties = self.quick_ties
        for h, e, same in zip(heads, heads[1:] + [len(ks_l)], alike):
            if same:
                out[ks_l[h]] = js_l[h]
                ties[node_l[h]] = tuple(js_l[h + 1:e])

    def choose_c45(self, node, k, i, valid_k, nk, pre):
        """J48's choice at node k; ``nk`` is its (scaled) weight, ``i`` its row of ``pre``."""
        p = self.t.params
        avg, kc, ok_sure, ok_open, sure_positive = pre
        if nk < 2 * p["min_objects"] * self.scale[k]:
            node.stop = "too_few"
            return None
        # Feature sets as bit masks: a frozenset of 40 features took 1 KB a node.
        node._valid = _bits(valid_k)
        if not node._valid:
            node.stop = "no_valid"
            return None
        # Gain at least the average over the features that count towards it, less
        # C4.5's slack (1/1000 bit, Quinlan's Epsilon, kept by J48):
        # kc·nIG_j >= Σ nIG - kc·n·slack, by intervals first, exactly when they overlap.
        kc = int(kc[i])
        if not kc:
            node.stop = "no_average"
            return None
        ok = ok_sure[i]
        unsure = np.flatnonzero(ok_open[i]).tolist()
        if unsure:
            ok = ok.copy()
            n_ig = {j: self.exact_parts(k, j)[1] for j in np.flatnonzero(avg[i]).tolist()}
            rhs = sum(n_ig.values(), Exact(0)) - kc * nk * p["average_gain_slack"]
            for j in unsure:
                ok[j] = (n_ig[j] if j in n_ig else self.exact_parts(k, j)[1]) * kc >= rhs
        node._gain_ok = _bits(ok)
        ok = np.flatnonzero(ok).tolist()
        T, V = self.level_arrays[0], self.vmax
        sure = sure_positive[i]
        positive = [j for j in ok if sure[j] or not self.zero_gain(T[k, j, :V])]
        if not positive:
            node.stop = "no_positive_ratio"
            return None
        return self.best_ratio(node, k, positive)