"""The level-wise builder: the fast path, for large data.

It grows the tree a depth at a time: the counts of every open node of a depth (node
× feature × value × class) come from one ``np.bincount`` per feature, the choice goes
through certified float filters (:mod:`infotree.grow.decisions`), and only
candidates the filters cannot separate are compared exactly.  Its trees and records
are those of the reference builder (:mod:`infotree.grow.reference`), which the
tests check on every shipped data set and on generated ones.  It has a kernel for
the criteria listed in :data:`KERNELS`; ``build_tree`` sends others to the reference
builder.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..criteria import C45GainRatio, Entropy, GainRatio, Gini, InformationGain, Misclassification, SquaredError
from .. import limits
from ..errors import LimitError
from ..node import _OFF_PATH, Node, draws, row_ints
from ..routing import FRACTIONAL_WEIGHTS
from ..splits import NominalSplit, ThresholdSplit
from .collector import paused
from .decisions import Decisions
from .levelwise_counts import Counting

__all__ = ["KERNELS", "LevelwiseBuilder"]

#: The criteria with a fast builder, by the float filter each one needs ("cart": the CART
#: criteria, grown by :class:`infotree.grow.cart.CARTBuilder`).
KERNELS = {InformationGain: "id3", GainRatio: "ratio", C45GainRatio: "c45", Gini: "cart", Entropy: "cart",
           Misclassification: "cart", SquaredError: "cart"}


def _xlog2x_table(n: int) -> np.ndarray:
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[2:] = k[2:] * np.log2(k[2:])
    return out


def _majority(counts) -> int:
    return int(np.argmax(counts))  # first maximum: first class in class order


# Cells of one count block (nodes × features × values × classes): 8 MB of int32, and
# the float arrays computed from it a few times that.  Larger blocks were no faster
# (2^21 took 16-19 s CPU where 2^23 took 30-33 s on synthetic 10^5 rows, depth 8: the
# block then stays in cache) and cost 200 MiB at their peak instead of 67.
_LEVEL_CELLS = 1 << 21

class _Recount:
    """A node's tables counted again from the data, for trees that keep none.

    Only for nominal data without missing values or weights, where a node's rows are
    the rows of its parent with the branch's value.  Printing walks the tree depth
    first, so the rows of the last path asked for are kept and only the new steps
    are filtered.
    """

    def __init__(self, X, y, rows, nv, width, nc, w=None):
        self.X, self.y, self.rows, self.w = X, y, rows, w  # w: each of the rows' count, or None
        self.nv, self.width, self.nc = [int(v) for v in nv], width, nc
        self.chain: list = []   # [(node, its rows, their counts)] from the root

    def on(self, X, y, rows, w=None):
        """The same recount from other codes: a forest's tree from the data's rows (the
        builder's copy of every tree's rows is then freed once the trees are grown)."""
        return _Recount(X, y, rows, self.nv, self.width, self.nc, w)

    def __call__(self, node):
        path = []
        while node is not None:
            path.append(node)
            node = node.parent
        path.reverse()
        i = 0
        while i < min(len(path), len(self.chain)) and self.chain[i][0] is path[i]:
            i += 1
        chain = self.chain[:i] or [(path[0], self.rows, self.w)]
        _, rows, w = chain[-1]
        for nd in path[len(chain):]:
            f, v = nd.step
            here = self.X[rows, f] == v
            rows, w = rows[here], None if w is None else w[here]
            chain.append((nd, rows, w))
        self.chain = chain
        nc = self.nc
        ya = self.y[rows]
        T = np.zeros((len(self.nv), self.width, nc), dtype=np.int32)
        for j, V in enumerate(self.nv):
            T[j, :V] = np.bincount(self.X[rows, j] * nc + ya, w, minlength=V * nc).reshape(V, nc)
        return T


class LevelwiseBuilder(Counting, Decisions):
    """Grows a tree level by level; see the module docstring for the rules.

    The cases of a level are three parallel arrays: the row, the index of its open
    node, and (only once C4.5 has sent a row with a missing value down several
    branches) its exact weight.  A node's counts are scaled by the least common
    multiple of its weights' denominators, so every table is made of integers and the
    exact arithmetic is the integer one; measures are ratios, unchanged by the scale.
    """

    def __init__(self, tree, X, y):
        self.t = tree
        self.ints = []  # 0, 1, 2, ...: a node's row in its depth's block (_ci), shared (row_ints)
        # Feature-major, one column per bincount; codes fit int32 (half the memory of int64).
        # A Dataset's codes are column-major already: this is a view, not a copy.
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int32)
        self.y = y
        self.nc = len(tree.classes)
        self.m = len(tree.features)
        self.numeric = np.array([k == "numeric" for k in tree.kinds], dtype=bool)
        self.nv = np.array([len(d) for d in tree.domains], dtype=np.int64)
        self.slots = np.where(self.numeric, 2, self.nv)   # a numeric split has two branches
        self.is_numeric, self.n_slots = self.numeric.tolist(), self.slots.tolist()  # for per-node loops
        self.vmax = int(self.slots.max()) if self.m else 1
        self.has_missing = bool(X.size and X.min() < 0)
        tree.missing_slot = self.has_missing
        # Missing values get one more slot, after the values: the unknown branch.
        self.width = self.vmax + (1 if self.has_missing else 0)
        cells = self.m * self.width * self.nc
        if cells > limits.current().table_cells:
            j = int(np.argmax(self.slots)) if self.m else 0
            raise LimitError(
                f"one node's count table would have {self.m} features × {self.width} values × {self.nc} classes "
                f"= {cells} cells (feature {tree.features[j]!r} has {int(self.slots[j])} values), more than the "
                f"limit of {limits.current().table_cells}; drop an ID-like column (--drop {tree.features[j]}) or "
                f"raise the limit ({limits.option('table_cells')})")
        self.F = _xlog2x_table(len(y))
        self.mult = None  # each row's multiplicity (run_many), or None: every row once
        self.ones = np.ones(self.width * self.nc)
        self.all_features = np.ones(self.m, bool)
        # C4.5's many-values rule: which features count towards the average gain.
        many = (self.nv >= 0.3 * len(y)) & ~self.numeric
        self.in_average = np.ones(self.m, bool) if many.all() else ~many
        crit = tree.criterion
        kernel = KERNELS[type(crit)]
        self.id3, self.c45 = kernel == "id3", kernel == "c45"
        self.mdl = crit.mdl
        self.routing = crit.missing or FRACTIONAL_WEIGHTS  # only C4.5 lets missing values in
        # The candidates of a node: every feature, or those not tested on its path.
        self.considered = self.all_features if crit.considers_used else _OFF_PATH
        # One split object per nominal feature, shared by its split nodes.
        self.nominal = [NominalSplit(j, d) for j, d in enumerate(tree.domains)]
        slack = tree.params.get("average_gain_slack", 0)
        # The float filter's; exact where open.  A slack beyond floats is ±inf: every test open.
        self.slack = float(slack) if abs(slack) < 2 ** 1000 else math.inf if slack > 0 else -math.inf
        # Plain nominal data (no numeric cuts, missing values or pruning): nodes keep no
        # tables, they are counted again when asked for; the max_depth level is not counted.
        self.X = X
        # The steps (feature, value) of the nodes' paths, one shared tuple each.
        self.steps = [[(j, v) for v in range(int(s))] for j, s in enumerate(self.slots)]
        self.lazy = not (self.has_missing or self.numeric.any() or tree.params.get("prune", "none") != "none")

    def run(self, rows=None, path=()):
        rows = np.arange(len(self.y), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        self.run_many([(self.t, rows)], path)

    def run_many(self, roots, path=(), multiplicity=None):
        """Grow one tree per (tree, rows) root, all of them together, level by level (a
        forest: numpy's per-call cost paid once per depth, not once per depth and tree).
        The roots' rows are disjoint; every tree shares this builder's features and
        domains.  ``multiplicity``: how many times each row counts (a bootstrap sample's
        repeated rows as one row each); ID3 only (C4.5's weights are its missing values')."""
        if multiplicity is not None:
            if not self.id3:
                raise ValueError("rows count once each but with ID3")
            self.mult = np.asarray(multiplicity, dtype=np.int64)
            # a node counts at most its root's weight: F's table reaches that far
            self.F = _xlog2x_table(max((int(self.mult[rows].sum()) for _, rows in roots), default=0))
        open_nodes, parts = [], []
        for tree, rows in roots:
            if self.lazy:
                tree._recount = _Recount(self.X, self.y, rows, self.nv, self.width, self.nc,
                                         None if self.mult is None else self.mult[rows])
            counts = np.bincount(self.y[rows], None if self.mult is None else self.mult[rows],
                                 minlength=self.nc).astype(np.int64)
            root = Node(tree, tuple(path), len(path), counts)
            root.label = _majority(counts)
            tree.root = root
            if tree is not self.t:  # its own data's flag, as a builder of its rows alone would set it
                tree.missing_slot = bool(len(rows) and self.Xt[:, rows].min() < 0)
            open_nodes.append(root)
            parts.append(rows)
        used = np.zeros((len(open_nodes), self.m), bool)
        for f, _ in path:
            used[:, f] = not self.is_numeric[f]  # a numeric feature may be cut again below
        sizes = [len(rows) for rows in parts]
        cases = (np.concatenate(parts), np.repeat(np.arange(len(parts), dtype=np.int64), sizes), None)
        # The float filters divide by zero split information and overflow beyond floats on
        # purpose (such entries are left to the exact path): no warnings.
        with paused(), np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            while open_nodes:
                cases, open_nodes, used = self.level(open_nodes, cases, used)

    # -- counting --
    def level(self, nodes, cases, used):
        """One depth: decide every open node, return the next depth's cases, nodes, used.

        The count block has K × features × values × classes cells however few rows
        the K nodes hold; above _LEVEL_CELLS the nodes are taken in consecutive groups,
        so memory stays bounded and the result is the same, in the same order.  A
        group's cases keep their order, ascending by row (not sorted by node): the
        gathers of a feature's column then sweep it, where in node order they jumped
        and took eight times longer at 10^5 rows.
        """
        K = len(nodes)
        per = max(1, _LEVEL_CELLS // (self.m * self.width * self.nc))
        if K <= per:
            return self.level_part(nodes, cases, used)
        rows, nid, cw = cases
        if cw is None:
            # A pure node is a leaf before any counting: with many values and classes
            # (an ID-like column) its block alone is values × classes cells, and a level
            # of such nodes would count them all.
            cc = np.bincount(nid * self.nc + self.y[rows], minlength=K * self.nc).reshape(K, self.nc)
            pure = (cc > 0).sum(axis=1) <= 1
            if pure.any():
                for k in np.flatnonzero(pure).tolist():
                    nodes[k].stop = "pure"
                open_k = np.flatnonzero(~pure)
                if not open_k.size:
                    return None, [], None
                remap = np.full(K, -1, dtype=np.int64)
                remap[open_k] = np.arange(len(open_k))
                keep = ~pure[nid]
                rows, nid = rows[keep], remap[nid[keep]]
                nodes, used, K = [nodes[k] for k in open_k.tolist()], used[open_k], len(open_k)
                if K <= per:
                    return self.level_part(nodes, (rows, nid, None), used)
        out_rows, out_nid, out_w, out_nodes, out_used = [], [], [], [], []
        for k0 in range(0, K, per):
            sel = np.flatnonzero((nid >= k0) & (nid < k0 + per))
            part = (rows[sel], nid[sel] - k0, None if cw is None else cw[sel])
            nxt, kids, u = self.level_part(nodes[k0:k0 + per], part, used[k0:k0 + per])
            if kids:
                out_rows.append(nxt[0])
                out_nid.append(nxt[1] + len(out_nodes))
                out_w.append(nxt[2])
                out_nodes += kids
                out_used.append(u)
        if not out_nodes:
            return None, [], None
        w = None
        if any(x is not None for x in out_w):  # some group split a missing value: weights for all
            w = np.concatenate([np.full(len(r), Fraction(1), dtype=object) if x is None else x
                                for r, x in zip(out_rows, out_w)])
        rows, nid = np.concatenate(out_rows), np.concatenate(out_nid)
        if len(out_rows) > 1:  # one ascending run per group: ascending again for the next level
            order = np.argsort(rows, kind="stable")
            rows, nid, w = rows[order], nid[order], None if w is None else w[order]
        return (rows, nid, w), out_nodes, np.concatenate(out_used)

    def level_part(self, nodes, cases, used):
        p = self.t.params
        K = len(nodes)
        at_max_depth = p["max_depth"] is not None and nodes[0].depth >= p["max_depth"]
        if at_max_depth and self.lazy:
            # Leaves whatever their measures; their tables are counted when printed.
            considered = self.considered
            for k, node in enumerate(nodes):
                if np.count_nonzero(node.class_counts) <= 1:
                    node.stop = "pure"
                    continue
                node.stop = "max_depth"
                node.considered = considered
            return None, [], None
        T, CC, scale, Fnx, Fnxy, nonempty, big = self.counts(K, cases, nodes[0].depth)
        if at_max_depth:
            # Every open node of a level has the same depth: at max_depth all are leaves,
            # whatever their measures.  Their counts are kept for the derivation (the
            # measures are computed when printed), nothing else is computed.
            pure = (CC > 0).sum(axis=1) <= 1
            considered = self.considered
            for k, node in enumerate(nodes):
                node.scale = scale[k]
                if pure[k]:
                    node.stop = "pure"
                    continue
                node.stop = "max_depth"
                node.tables = T[k]  # a view: the level's block stays alive, nothing is copied
                node.considered = considered
                if self.cuts:
                    node.cuts = {j: info[k] for j, info in self.cuts.items() if k in info}
            return None, [], None
        weighted = T.dtype != np.int32
        n = CC.sum(axis=1)
        pure = (CC > 0).sum(axis=1) <= 1
        eligible = (nonempty >= 2) & ~used                   # unused and separating
        # A forest's node chooses among its drawn features only (Tree.draw; decisions read self.drawn).
        self.drawn = None
        if nodes[0].tree.draw is not None:
            self.drawn = np.ones((len(nodes), len(self.all_features)), bool)
            drawing = np.flatnonzero(~pure)
            if len(drawing):
                self.drawn[drawing] = draws([nodes[k] for k in drawing.tolist()])
            eligible &= self.drawn
        self.float_sums(T, CC, scale, Fnx, Fnxy, n, weighted)
        self.scale = scale
        prepare = self.prepare_id3 if self.id3 else self.prepare_c45 if self.c45 else self.prepare_ratio
        decide = prepare(n, pure, eligible, big, used, weighted)
        stop_depth = p["max_depth"]
        # Python values for the loop: numpy scalars cost a conversion at every use.
        pure_l, n_l = pure.tolist(), n.tolist()
        considered = self.considered
        mss, lazy, cuts = p["min_samples_split"], self.lazy, self.cuts
        split_nodes = []
        for k, node in enumerate(nodes):
            node.scale = scale[k]
            if pure_l[k]:
                node.stop = "pure"
                continue
            if not lazy:
                node.tables = T[k]  # a view: the level's block stays alive, nothing is copied
            if cuts:
                node.cuts = {j: info[k] for j, info in cuts.items() if k in info}
            node.considered = considered
            if stop_depth is not None and node.depth >= stop_depth:
                node.stop = "max_depth"
                continue
            if n_l[k] < mss * scale[k]:
                node.stop = "min_samples_split"
                continue
            choice = decide(k, node)
            if choice is None:
                continue
            if p["stop_at_zero_gain"] and self.zero_gain(T[k, choice, :self.vmax]):
                node.stop, node.ties = "zero_gain", ()
                continue
            if p["min_gain"] is not None:
                n_ig = self.exact_parts(k, choice)[1]
                if n_ig < p["min_gain"] * int(n[k]):
                    node.stop, node.ties = "min_gain", ()
                    continue
            if self.is_numeric[choice]:
                lo, hi, _ = node.cuts[choice]
                node.test = ThresholdSplit(choice, self.t.threshold_between(choice, lo, hi))
            else:
                node.test = self.nominal[choice]
            split_nodes.append((k, node, choice))
        if not split_nodes:
            return None, [], None
        return self.partition(nodes, split_nodes, T, cases, used, scale)

    def partition(self, nodes, split_nodes, T, cases, used, scale):
        """Create the children of the split nodes and move each case into its child.

        A case whose value of the split feature is missing goes down every branch,
        its weight multiplied by the branch's share of the known weight (C4.5).
        """
        K = len(nodes)
        rows, nid, cw = cases
        W = self.width
        split_of = np.full(K, -1, dtype=np.int64)
        lo_of = np.full(K, -1, dtype=np.int64)
        base = np.zeros(K, dtype=np.int64)
        open_next, used_next, remap = [], [], []
        shares = {}
        plain = T.dtype == np.int32  # integer counts, no fractions: labels and sizes in bulk
        ints = row_ints(self.ints, len(split_nodes) * W)
        if plain:
            ks = np.array([k for k, _, _ in split_nodes])
            fs = np.array([f for _, _, f in split_nodes])
            child_counts = T[ks, fs].astype(np.int64)            # (S, slots, C)
            child_labels = child_counts.argmax(axis=2).tolist()  # first maximum: first class
            child_n = child_counts.sum(axis=2).tolist()
            # One block for the level: a child's class counts are its row (no array each).
            block = child_counts.reshape(-1, self.nc)
        for s_i, (k, node, f) in enumerate(split_nodes):
            split_of[k] = f
            base[k] = len(remap)
            if self.is_numeric[f]:
                lo_of[k] = node.cuts[f][0]
            kids = []
            depth = node.depth + 1
            nb = self.n_slots[f]
            if self.has_missing and np.any(T[k, f, W - 1]):
                known = T[k, f, :nb]
                d = scale[k]
                shares[k] = self.routing.shares([int(x) for x in known.sum(axis=1).tolist()])
                unknown = [int(c) for c in T[k, f, W - 1].tolist()]
                counts_of = [np.array([Fraction(int(c), d) + Fraction(u_, d) * s for c, u_ in zip(row.tolist(), unknown)],
                                      dtype=object) for row, s in zip(known, shares[k])]
            elif not plain:
                d = scale[k]
                counts_of = [np.array([Fraction(int(c), d) for c in row.tolist()], dtype=object) for row in T[k, f, :nb]]
            else:
                counts_of = None  # rows of the level's block
            steps = self.steps[f]
            for v in range(nb):
                if counts_of is None:
                    child = Node(node.tree, None, depth, block, parent=node)
                    child._ci = ints[s_i * W + v]
                    child._n = size = child_n[s_i][v]
                else:
                    child = Node(node.tree, None, depth, counts_of[v], parent=node)
                    size = child.n
                child.step = steps[v]
                if size:
                    child.label = child_labels[s_i][v] if counts_of is None else _majority(counts_of[v])
                    remap.append(len(open_next))
                    open_next.append(child)
                    used_next.append(s_i)
                else:
                    # An empty branch is a record only: no rows reach it.
                    child.stop = "empty"
                    child.label = node.label
                    remap.append(-1)
                kids.append(child)
            node.children = kids
        # An open child's used features: its parent's, and the parent's nominal split feature.
        of = np.array([k for k, _, _ in split_nodes])[used_next]
        used_next = used[of]
        fs = split_of[of]
        used_next[np.arange(len(of)), fs] |= ~self.numeric[fs]
        sf = split_of[nid]
        keep = sf >= 0
        rows, nid = rows[keep], nid[keep]
        sf = sf[keep]
        val = self.Xt.ravel().take(sf * self.Xt.shape[1] + rows)  # one 1-d gather
        remap = np.asarray(remap, dtype=np.int64)
        if not self.has_missing and not self.numeric.any():  # nominal, complete: one gather
            return (rows, remap[base[nid] + val], None), open_next, used_next
        num = self.numeric[sf]
        if num.any():
            val = np.where(num & (val >= 0), (val > lo_of[nid]).astype(np.int64), val)
        w = None if cw is None else cw[keep]
        miss = val < 0
        known_ix = np.flatnonzero(~miss)
        child = remap[base[nid[known_ix]] + val[known_ix]]
        new_rows, new_nid = [rows[known_ix]], [child]
        new_w = None if w is None else [w[known_ix]]
        if miss.any():
            mrows, mnid = rows[miss], nid[miss]
            mw = [Fraction(1)] * len(mrows) if w is None else w[miss].tolist()
            r_out, n_out, w_out = [], [], []
            for r, k, wt in zip(mrows.tolist(), mnid.tolist(), mw):
                for v, wv in self.routing.spread(wt, shares[k]):
                    c = int(remap[base[k] + v])
                    if c >= 0:
                        r_out.append(r)
                        n_out.append(c)
                        w_out.append(wv)
            new_rows.append(np.asarray(r_out, dtype=np.int64))
            new_nid.append(np.asarray(n_out, dtype=np.int64))
            if new_w is None:
                ones = np.empty(len(known_ix), dtype=object)
                ones[:] = [Fraction(1)] * len(known_ix)
                new_w = [ones]
            wa = np.empty(len(w_out), dtype=object)
            wa[:] = w_out
            new_w.append(wa)
        cases = (np.concatenate(new_rows), np.concatenate(new_nid),
                 None if new_w is None else np.concatenate(new_w))
        return cases, open_next, used_next

