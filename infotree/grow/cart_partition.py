"""Partitioning a depth's split nodes (:class:`Partitioning`, a mixin of
:class:`~infotree.grow.cart.CARTBuilder`): the sorted segments divided stably, the
children's nominal tables by histogram subtraction."""


from dataclasses import replace

import numpy as np

from ..node import Node, row_ints
from ..routing import SURROGATES

from . import kernels
from .cart_arrays import _KEY16, _Stats

class Partitioning:
    """The partition step of CARTBuilder (a mixin: reads the builder's arrays)."""

    def partition(self, nodes, split, chosen, lv, rows, ords, nid, starts, sizes):
        """The split nodes' children, their surrogates, and the next depth's rows."""
        p, nc, y = self.p, self.nc, self.y
        K = len(nodes)
        is_split = np.zeros(K, bool)
        is_split[split] = True
        f_of = np.where(is_split, chosen, -1)
        at, ks = np.maximum(f_of, 0), np.arange(K)
        # The primary's direction of each row (-1: its value is missing), by node row order.
        fr = x = None
        if self.compiled:
            d = kernels.directions(rows, nid, self.Xt, f_of, lv.lo[ks, at], lv.mask[ks, at], self.kind)
        else:
            fr = at[nid]
            x = self.Xt.ravel().take(fr * self.Xt.shape[1] + rows)  # one 1-d gather, faster than Xt[fr, rows]
            lo, kind, kn = lv.lo[ks, at][nid], self.kind[fr], x >= 0
            d = np.full(len(rows), -1, np.int64)
            on = kn & (kind == 0)
            d[on] = x[on] > lo[on]
            on = kn & (kind == 1)
            if on.any():
                d[on] = 1 - ((lv.mask[nid[on], fr[on]] >> x[on]) & 1)
            d[~is_split[nid]] = -1
        if (self.kind == 2).any():  # nominal features past _BITS values: their left sets are Python sets
            if fr is None:
                fr = at[nid]
                x = self.Xt.ravel().take(fr * self.Xt.shape[1] + rows)
            for i in np.flatnonzero(is_split[nid] & (x >= 0) & (self.kind[fr] == 2)).tolist():
                d[i] = 0 if x[i] in lv.wide[nid[i], fr[i]] else 1
        dir_row = np.full(len(self.y), -1, np.int64)  # by row number, for the sorted arrays
        dir_row[rows] = d
        sides = self.side_tables(split, chosen, lv, rows, nid, d)
        most = p.get("surrogates", 5)
        if most > 0:
            self.surrogates(nodes, split, chosen, lv, rows, ords, nid, starts, sizes, d, dir_row, most, sides)
        # Rows whose primary value is missing: by the surrogates (rpart's usesurrogate).
        miss = np.flatnonzero(is_split[nid] & (d < 0))
        if len(miss):
            use = p.get("use_surrogate", 2)
            routed = {}
            for i, r, k in zip(miss.tolist(), rows[miss].tolist(), nid[miss].tolist()):
                node = nodes[k]

                def value_of(j, r=r):
                    c = int(self.Xt[j, r])
                    return None if c < 0 else self.t.numbers[j][c] if self.numeric[j] else c

                dd, by = SURROGATES.route(node, value_of, use)
                if dd is not None:
                    dir_row[r] = dd
                    if by is not None:
                        routed.setdefault(k, [0] * len(node.surrogates))[by] += 1
            for k, counts in routed.items():
                node = nodes[k]
                node.surrogates = tuple(replace(s, routed=c) for s, c in zip(node.surrogates, counts))
        # Children: 2s (left) and 2s + 1 (right) of the s-th split node.
        slot = np.full(K, -1, np.int64)
        slot[split] = np.arange(len(split))
        d_now = dir_row[rows] if len(miss) else d   # the rows of a missing value as routed
        S2 = 2 * len(split)
        if self.compiled and not self.reg:  # children and their class counts in one pass
            weighted = self.w is not None
            child, block = kernels.children(rows, nid, d_now, slot, self.y_small, self.w if weighted else self.y_small[:0],
                                            weighted, nc, S2)
        else:
            go = d_now >= 0   # (no row of a leaf has a direction)
            child = np.where(go, 2 * slot[nid] + d_now, -1)
        if self.reg:
            block = self.child_stats(child, rows, go, d_now, starts, split, S2)
            ns, S, Q = block[:, 0], block[:, 1], block[:, 2]
            # Pure (one value of y): S = n·c and Q = n·c² for an integer c, as then Σ(y − c)² = 0.
            n1 = np.maximum(ns, 1)
            c = S // n1
            pure = (S == c * n1) & (Q == n1 * c * c)
            labels = np.zeros(S2, np.int8)
            stats = _Stats(self.facts, block)
        else:
            if not self.compiled:
                block = self.count(child[go] * nc + y[rows[go]], S2 * nc, rows[go]).reshape(S2, nc)
            labels = block.argmax(axis=1)
            ns = block.sum(axis=1)
            pure = (block > 0).sum(axis=1) <= 1
        # Every child weighs less than its node (a cut leaves rows on both sides): else a
        # wrong cut from a loop would grow the same rows deeper forever; fail instead.
        if (ns.reshape(-1, 2) >= (lv.CC[split, 0] if self.reg else lv.CC[split].sum(axis=1))[:, None]).any():
            raise RuntimeError(f"infotree: a split at depth {nodes[0].depth} sent every row of its node to one "
                               f"child (an inconsistent cut: a defect of the builder's loops; please report it)")
        remap = np.full(S2, -1, np.int64)
        counts = stats if self.reg else block
        depth = nodes[0].depth + 1
        # The children go into the tree's arrays (infotree.grow.packed): Node objects only for
        # the open ones, which the next depth decides; an empty child predicts its parent's class.
        labels = np.where(ns > 0, labels, np.repeat([nodes[k].label for k in split], 2))
        opened = np.flatnonzero((ns > 0) & ~pure)   # the open children's rows of the block, in the next depth's order
        self.packed.children_of(ns, labels, counts, opened)
        ints = row_ints(self.ints, S2)  # (the children's rows in the block: made when read too)
        if not len(opened):
            return [], None, None, None
        steps, js = self.steps, chosen[split].tolist()
        open_next = []
        for c, n, label in zip(opened.tolist(), ns[opened].tolist(), labels[opened].tolist()):
            node = nodes[split[c >> 1]]
            kid = Node(node.tree, None, depth, counts, node)
            kid._ci, kid._n, kid.step, kid.label = ints[c], n, steps[js[c >> 1]][c & 1], label
            open_next.append(kid)
        remap[opened] = np.arange(len(opened))
        self.counts_next = block[opened]  # the next depth's counts (level's CC), already counted here
        if self.depth_draws is not None:  # the next depth's draws: each its parent's stream and its step
            o = np.asarray(opened)
            parents = np.asarray(split)[o // 2]
            self.depth_draws.children(parents, chosen[parents], o % 2)
        self.tables = self.child_tables(sides, rows, child, d, remap)
        # The rows of no open child last (the dtype's largest value): a stable sort groups an
        # array by next node and the rows of none are cut off (cheaper than dropping them
        # first); the compiled loop drops them and places each row in one pass.
        dtype = np.uint16 if len(open_next) < _KEY16 - 1 else np.int64
        none = np.iinfo(dtype).max
        child1 = child + 1  # each row's child, 0 for none: the tables below start with no child's entry
        lookup = np.full(S2 + 1, none, dtype)
        lookup[np.asarray(opened) + 1] = np.arange(len(opened))
        key = lookup[child1]  # each row's open child (none: no open child), in rows' order
        sizes_next = np.bincount(child1, minlength=S2 + 1)[1:][opened]
        n_next = int(sizes_next.sum())
        new_id = np.full(len(self.y), none, dtype)
        new_id[rows] = key
        if self.compiled:
            at = np.r_[0, np.cumsum(sizes_next)[:-1]]
            rows_next = kernels.regroup(rows, new_id, at, n_next, none)
            if ords is None or not len(ords[0]):
                return open_next, rows_next, ords, sizes_next
            return open_next, rows_next, kernels.regroup_all(*ords, new_id, at, n_next, none), sizes_next

        def regroup(order):   # the rows kept, in their next node's order
            return np.argsort(new_id.take(order), kind="stable")[:n_next]

        rows_next = rows[regroup(rows)]
        if ords is None:
            return open_next, rows_next, None, sizes_next
        # Each feature's value codes travel with its sorted rows (see run_many).
        O, V = ords
        On, Vn = np.empty((len(O), n_next), O.dtype), np.empty((len(O), n_next), V.dtype)
        for f in range(len(O)):
            kept = regroup(O[f])
            O[f].take(kept, out=On[f])
            V[f].take(kept, out=Vn[f])
        return open_next, rows_next, (On, Vn), sizes_next

    def child_stats(self, child, rows, go, d_now, starts, split, S2):
        """Regression: each child's statistics (n, Σy, Σy²), summed along its parent's
        segment (no sort), or by the compiled loop in one pass."""
        if self.compiled:
            return kernels.child_stats(child, rows, self.yv, S2)
        yr, yq = self.yv.take(rows), self.yq.take(rows)
        block = np.empty((S2, 3), np.int64)
        for side in (0, 1):
            on = go & (d_now == side)
            block[side::2, 0] = np.add.reduceat(on.view(np.int8), starts, dtype=np.int64)[split]
            block[side::2, 1] = np.add.reduceat(np.where(on, yr, 0), starts)[split]
            block[side::2, 2] = np.add.reduceat(np.where(on, yq, 0), starts)[split]
        return block

    def nominal_count(self, g, rows, at, K):
        """The g-th nominal group's counts of the rows into K tables (at: each row's table),
        one bincount (each row counted as many times as it stands for): K × features ×
        values (and missing, if any row has it) × classes."""
        js = self.nominal_groups[g]
        F, V1, nc = len(js), self.nv[js[0]] + self.has_missing, self.nc
        block = F * V1 * nc
        cells = self.cells[g].take(rows, axis=0)
        if cells.dtype != np.int64 and K * block >= 1 << 31:
            cells = cells.astype(np.int64)
        cells += (at * block).astype(cells.dtype)[:, None]
        w = None if self.w is None else np.repeat(self.w.take(rows), F)   # run_many's multiplicities
        return self.count(cells.ravel(), K * block, weights=w).reshape(K, F, V1, nc)

    def side_tables(self, split, chosen, lv, rows, nid, d):
        """Per nominal group, each split node's tables of its rows by the primary's direction
        d (S × 2 × features × values (and missing) × classes; rows without a direction in
        neither).  Histogram subtraction: the smaller side is counted, the other is its
        node's table less it and less the rows without a direction."""
        if not self.nominal_groups:
            return []
        K, S = len(self.tables[0]), len(split)
        slot = np.full(K, -1, np.int64)
        slot[split] = np.arange(S)
        small = np.full(K, -2, np.int64)   # the side counted; -2 (no direction has it) off split nodes
        js = chosen[split]                 # the chosen cut's sides are the rows with a direction
        small[split] = lv.R[split, js].sum(axis=1) < lv.L[split, js].sum(axis=1)
        counted = np.flatnonzero(d == small[nid])
        lost = np.flatnonzero((d < 0) & (slot[nid] >= 0))
        at, s, side = slot[nid[counted]], np.arange(S), small[split]
        out = []
        for g, T in enumerate(self.tables):
            A = self.nominal_count(g, rows[counted], at, S)
            B = T.take(split, axis=0)
            B -= A
            if len(lost):
                B -= self.nominal_count(g, rows[lost], slot[nid[lost]], S)
            D = np.empty((S, 2) + A.shape[1:], np.int64)
            D[s, side], D[s, 1 - side] = A, B
            out.append(D)
        self.tables = [None] * len(out)   # this depth's are spent: freed before the children's are made
        return out

    def child_tables(self, sides, rows, child, d, remap):
        """The next depth's nominal tables: each open child's side table (child 2s + side of
        the s-th split node, as in partition), plus the rows without the primary's direction
        that the surrogates sent it."""
        if not sides:
            return []
        at = np.flatnonzero(remap >= 0)    # the open children, in the next depth's order
        routed = np.flatnonzero((child >= 0) & (d < 0))
        out = []
        for g, D in enumerate(sides):
            C = D.reshape((-1,) + D.shape[2:])
            if len(routed):
                C = C + self.nominal_count(g, rows[routed], child[routed], len(C))
            out.append(C[at])
        return out
