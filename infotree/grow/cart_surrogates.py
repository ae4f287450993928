"""Surrogate splits in bulk (:class:`SurrogateSearch`, a mixin of
:class:`~infotree.grow.cart.CARTBuilder`): the primary's direction cumulated along every
other numeric feature's segment gives each surrogate cut's agreement; nominal surrogates
from the two sides' tables."""



import numpy as np

from ..records import Surrogate
from ..splits import SubsetSplit, ThresholdSplit

from . import kernels
from .cart_arrays import _POSITIONS, _cumcount, _seg_starts, _short_sum

class SurrogateSearch:
    """The surrogate search of CARTBuilder (a mixin: reads the builder's arrays)."""

    def surrogates(self, nodes, split, chosen, lv, rows, ords, nid, starts, sizes, d, dir_row, most, sides):
        """Every split node's surrogates (rpart's choose_surg, as infotree.surrogates), in bulk."""
        K = len(nodes)
        style = self.p.get("surrogate_style", 0)
        is_split = np.zeros(K, bool)
        is_split[split] = True
        # rpart's orientation: its left is the side of smaller mean class index (equal: the
        # high side of a cut, a subset's own side).
        ks = np.array(split)
        js = chosen[ks]
        L, R = lv.L[ks, js], lv.R[ks, js]
        if self.reg:  # the sides' means, Σy / n
            sL, sR, nL, nR = L[:, 1], R[:, 1], L[:, 0], R[:, 0]
        else:         # the sides' mean class index, Σ c·n_c / n
            ci = np.arange(self.nc)
            sL, sR = L @ ci, R @ ci
            nL, nR = L.sum(axis=1), R.sum(axis=1)
        a, b = sL * nR, sR * nL
        is_num = np.array(self.numeric, bool)[js]
        flip_s = (b < a) | ((a == b) & is_num)
        flip = np.zeros(K, bool)
        flip[ks] = flip_s
        # Majority of the primary's directions (infotree's orientation), per node: the
        # chosen cut's sides.
        d0, d1 = np.zeros((2, K), np.int64)
        d0[ks], d1[ks] = nL, nR
        n0 = d0 + d1
        maj0 = np.maximum(d0, d1)
        # Directions in rpart's orientation, by row number.
        fdir = np.full(len(self.y), -1, np.int8)   # gathered along every feature: one byte a row stays in cache
        fdir[rows] = np.where(d >= 0, d ^ flip[nid].astype(np.int64), -1)
        sv = _Surrogates(self, K, flip)
        sv.directed = np.where(flip[:, None], np.stack([d1, d0], axis=1), np.stack([d0, d1], axis=1))
        sv.slot[ks] = np.arange(len(ks))
        O, V = ords
        if self.compiled and len(O):
            self.numeric_surrogates_all(O, V, starts, fdir, is_split, chosen, sv)
        else:
            for f, j in enumerate(self.num_js.tolist()):
                self.numeric_surrogates(j, O[f], nid, starts, fdir, is_split & (chosen != j), sv)
        other = js[:, None] != np.arange(self.m)   # split nodes × features: all but the primary
        for g, group in enumerate(self.nominal_groups):
            self.nominal_surrogates(g, sides[g], ks, flip_s, other[:, group], sv)
        # Ranked by agreement (agree/n: fractions of denominators below 2^26 order exactly
        # as floats), ties in column order; adj > 0 means agree > majority.
        if style == 0:
            n, majority = np.repeat(n0[:, None], self.m, axis=1), np.repeat(maj0[:, None], self.m, axis=1)
        else:
            n, majority = sv.both, sv.most
        ok = sv.found & (n != majority) & (sv.agree > majority)
        kk, jj = np.nonzero(ok)
        ratio = sv.agree[kk, jj] / n[kk, jj]
        order = np.lexsort((jj, -ratio, kk))
        kk, jj = kk[order], jj[order]
        first = _seg_starts(kk)
        rank = np.arange(len(kk)) - np.repeat(first, np.diff(first, append=len(kk)))
        top = rank < most
        sv.n, sv.majority = n, majority
        kk, sv.ranked = kk[top], jj[top].tolist()      # a node's surrogates: a run of ranked
        sv.first = np.searchsorted(kk, np.arange(K + 1)).tolist()
        sv.keep_ranked(kk, jj[top])
        self.sv = sv
        first = sv.first
        side = np.where(d0 > d1, 0, 1).tolist()   # the primary's majority direction
        tied = (d0 == d1).tolist()
        for k in split:
            node = nodes[k]
            node.majority = None if tied[k] else side[k]
            node._surrogates = sv if first[k + 1] > first[k] else ()  # made when read (row k: node._ci)

    def numeric_surrogates_all(self, O, V, starts, fdir, is_split, chosen, sv):
        """numeric_surrogates of every numeric feature in one compiled call."""
        js = self.num_js
        want = is_split[:, None] & (chosen[:, None] != js)        # nodes × features
        ends = np.append(starts[1:], O.shape[1])
        both, most, found, agree, at, low_right = kernels.surrogate_cuts_all(O, V, fdir, starts, ends, want,
                                                                             sv.directed, self.has_missing)
        sv.both[:, js], sv.most[:, js] = both.T, most.T
        fs, ks = np.nonzero(found)
        a, jj = at[fs, ks], js[fs]
        sv.found[ks, jj] = True
        sv.agree[ks, jj] = agree[fs, ks]
        sv.lo[ks, jj], sv.hi[ks, jj] = V[fs, a], V[fs, a + 1]
        sv.left_le[ks, jj] = low_right[fs, ks]

    def numeric_surrogates(self, j, order, nid, starts, fdir, want, sv):
        """Each wanted node's best surrogate cut on numeric feature j (into ``sv``): the
        lowest cut of most directed rows sent the primary's way, either side left."""
        v = self.sorted_values[j]
        dd = fdir.take(order)
        left, right = dd == 0, dd == 1
        if self.has_missing:  # only rows with a known value count
            known = v >= 0
            left &= known
            right &= known
        c0, c1 = _cumcount(left), _cumcount(right)
        before0 = np.where(starts > 0, c0[np.maximum(starts - 1, 0)], 0)
        before1 = np.where(starts > 0, c1[np.maximum(starts - 1, 0)], 0)
        ends = np.append(starts[1:], len(order)) - 1
        T0, T1 = c0[ends] - before0, c1[ends] - before1
        sv.both[:, j], sv.most[:, j] = T0 + T1, np.maximum(T0, T1)
        cut, k_of, starts_c = self.between[j]
        if not len(cut):
            return
        lr, rr = c0[cut] - before0[k_of], c1[cut] - before1[k_of]
        ll, rl = T0[k_of] - lr, T1[k_of] - rr
        A, B = ll + rr, lr + rl
        # Per node, the first cut of most agreement (each side with two directed rows):
        # one maximum of agreement · 2^26 + (2^26 − 1 − position), positions below 2^26.
        ok = (lr + rr >= 2) & (ll + rl >= 2) & want[k_of]
        key = np.where(ok, (np.maximum(A, B).astype(np.int64) << 26) | (_POSITIONS - np.arange(len(cut))), -1)
        top = np.maximum.reduceat(key, starts_c)
        ks = k_of[starts_c]
        best = top >> 26
        good = (top >= 0) & (best > sv.most[ks, j])   # it must beat going with the majority
        ks, best, first = ks[good], best[good], _POSITIONS - (top[good] & _POSITIONS)
        at = cut[first]
        sv.found[ks, j] = True
        sv.agree[ks, j] = best
        sv.lo[ks, j], sv.hi[ks, j] = v[at], v[at + 1]
        sv.left_le[ks, j] = B[first] > A[first]

    def nominal_surrogates(self, g, D, ks, flip, want, sv):
        """The split nodes' (ks) surrogates on the g-th group of nominal features (all with
        V values; ``want``: split nodes × the group's features) into ``sv``: every value the
        way most of its directed rows go (a tie: the directed rows' majority side).  D: their
        side tables (side_tables); flip: theirs in rpart's orientation."""
        js = self.nominal_groups[g]
        V = self.nv[js[0]]
        n = _short_sum(D[..., :V, :], 4)        # S × sides × F × V: the directed rows
        s, f = np.arange(len(ks)), flip.astype(np.int64)
        left, right = n[s, f], n[s, 1 - f]
        sl, sr = _short_sum(left, 2), _short_sum(right, 2)
        default_right = ~(sl > sr)
        active = (left + right) > 0
        goes_right = active & ((left < right) | ((left == right) & default_right[..., None]))
        goes_left = active & ~goes_right
        agree = _short_sum(np.where(goes_right, right, left), 2)   # a value without rows adds 0
        against = sl + sr - agree
        ok = want & (against >= 2) & (agree >= 2)
        at = np.ix_(ks, js)
        sv.found[at], sv.agree[at] = ok, agree
        sv.both[at], sv.most[at] = sl + sr, np.maximum(sl, sr)
        # Each value's side, made into value sets when a record is read: −1 left, 1 right, 0 no row.
        sv.sides[g] = goes_right.view(np.int8) - goes_left.view(np.int8)



class _Surrogates:
    """One depth's surrogate data (nodes × features), from which a split node's
    :class:`~infotree.records.Surrogate` records are made when first read."""

    def __init__(self, b, K, flip):
        m = b.m
        self.b, self.flip = b, flip
        self.found = np.zeros((K, m), bool)
        self.agree = np.zeros((K, m), np.int64)
        self.both = np.zeros((K, m), np.int64)    # directed rows with the feature known
        self.most = np.zeros((K, m), np.int64)    # and the larger side of them
        self.lo = np.zeros((K, m), np.int64)
        self.hi = np.zeros((K, m), np.int64)
        self.left_le = np.zeros((K, m), bool)
        self.slot = np.full(K, -1, np.int64)       # a split node's index among the depth's split nodes
        self.sides = {}                           # nominal group -> each value's side (int8: split
                                                  # nodes × the group's features × values)

    def keep_ranked(self, kk, jj):
        """Keep the ranked surrogates' data alone (item i: the i-th of ``ranked``, a run of
        them per node), not every node × feature's: a grown tree's surrogate records cost
        a few numbers each."""
        for name in ("agree", "n", "majority", "lo", "hi", "left_le"):
            setattr(self, name, getattr(self, name)[kk, jj])
        self.found = self.both = self.most = self.directed = None

    def compact(self):
        self.b = self.b.facts

    def records(self, k) -> tuple:
        b, t, out = self.b, self.b.t, []
        flip = bool(self.flip[k])
        for i in range(self.first[k], self.first[k + 1]):
            j = self.ranked[i]
            if b.numeric[j]:
                nums = t.numbers[j]
                test = ThresholdSplit(j, (nums[int(self.lo[i])] + nums[int(self.hi[i])]) / 2)
                sides, rights = ((0, 1) if bool(self.left_le[i]) != flip else (1, 0)), None
            else:
                g, f = b.group_of[j]
                side = self.sides[g][self.slot[k], f]
                lefts, rights = (frozenset(np.flatnonzero(x).tolist()) for x in (side < 0, side > 0))
                if flip:
                    lefts, rights = rights, lefts
                test, sides = SubsetSplit(j, lefts, t.domains[j]), None
            out.append(Surrogate(t.features[j], j, test, sides, rights, int(self.agree[i]), int(self.n[i]),
                                 int(self.majority[i])))
        return tuple(out)
