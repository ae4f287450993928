"""A plain float twin of ``infotree.tree._Builder``, for ``benchmarks/run.py``.

It grows the same trees by the same algorithm, built the same way, with the decisions
made in float64 only:

* **mirrored from infotree line for line** (not exactness): a level's cases as two
  arrays (rows, node ids) in row order, the level-wise counting (the class counts and
  one ``np.bincount`` per feature over node x value x class, into an int32 block
  ``(K, m, vmax, nc)``), large levels taken in groups of nodes, the ``x·log2(x)``
  lookup table, the per-node loop on Python values with the same stopping rules in
  the same order (pure, max_depth, min_samples_split, no_features, no_separation;
  C4.5: too_few, no_valid, no_average, no_positive_ratio), the partition of the cases
  into children by one gather (a child's class counts are a row of the level's
  block; empty branches become leaves labelled with the parent's majority), and
  C4.5's collapse (one bottom-up pass summing the leaves' training errors);
* **float instead of exact**: ID3 takes ``np.argmax`` of the float gain
  ``n·IG = (F(n) - Σ F(n_y)) - (Σ F(n_x) - Σ F(n_xy))`` over the eligible features
  (first maximum); C4.5 keeps a valid feature when ``kc·n·IG_j >= Σ n·IG - kc·n/1000``
  in floats, takes ``n·IG > 0`` as a positive gain, and the first ``np.argmax`` of
  ``n·IG / n·SI``.  These decisions are vectorised over all nodes of a level (as
  infotree's own ID3 quick path is).  There are no certified bounds, no exact
  fallback, no tie records;
* **records**: a node keeps what a float tree needs (depth, class counts, label,
  split, children); no path tuples, no copies of the count block, no candidate
  tables, no parent link; and a level whose nodes are all at ``max_depth`` is not
  counted (they are leaves whatever the counts say; infotree counts it to keep
  those leaves' candidate tables).

Only infotree's default parameters plus ``max_depth`` are supported (min_samples_split=2,
min_objects=2, min_gain=None, stop_at_zero_gain=False, slack 1/1000, collapse for
gain_ratio).
"""

from __future__ import annotations

import gc
import time

import numpy as np

from infotree.grow.levelwise import _LEVEL_CELLS, _class_sum

SLACK = 1.0 / 1000


class FNode:
    __slots__ = ("depth", "_cc", "_ci", "_n", "split", "stop", "label", "children", "collapsed_errors")

    def __init__(self, depth, class_counts, row=None, n=None):
        self.depth = depth
        self._cc = class_counts  # the class counts, or the level's block they are row ``row`` of
        self._ci = row
        self._n = n              # the number of rows, when known
        self.split = None
        self.stop = None
        self.label = 0
        self.children = []
        self.collapsed_errors = None

    # the same definitions as infotree.tree.Node (collapse reads them)
    @property
    def class_counts(self):
        return self._cc if self._ci is None else self._cc[self._ci]

    @property
    def n(self) -> int:
        return self._n if self._n is not None else int(np.sum(self.class_counts))

    @property
    def errors(self) -> int:
        c = self.class_counts
        if self._n is not None:
            return self._n - int(c.max()) if self._n else 0
        return int(c.sum() - c.max()) if len(c) else 0

    def walk(self):
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


class FTree:
    def __init__(self, data, criterion, max_depth):
        self.features = tuple(data.features)
        self.domains = tuple(tuple(d) for d in data.domains)
        self.classes = tuple(data.classes)
        self.criterion = criterion
        self.max_depth = max_depth
        self.root = None
        self.collapse_cpu = 0.0

    def nodes(self):
        return self.root.walk()

    def __len__(self):
        return sum(1 for _ in self.nodes())


def _xlog2x_table(n: int) -> np.ndarray:
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[2:] = k[2:] * np.log2(k[2:])
    return out


class FloatBuilder:
    def __init__(self, tree: FTree, X, y, min_samples_split=2, min_objects=2):
        self.t = tree
        self.Xt = np.ascontiguousarray(X.T, dtype=np.int32)
        self.y = y
        self.nc = len(tree.classes)
        self.nv = np.array([len(d) for d in tree.domains], dtype=np.int64)
        self.vmax = int(self.nv.max()) if len(self.nv) else 1
        self.F = _xlog2x_table(len(y))
        self.m = len(tree.features)
        self.min_samples_split = min_samples_split
        self.min_objects = min_objects
        many = self.nv >= 0.3 * len(y)
        self.in_average = np.ones(self.m, bool) if many.all() else ~many

    def run(self):
        t, y = self.t, self.y
        rows = np.arange(len(y), dtype=np.int64)
        counts = np.bincount(y, minlength=self.nc).astype(np.int64)
        root = FNode(0, counts)
        root.label = int(np.argmax(counts))
        t.root = root
        open_nodes = [root]
        used = np.zeros((1, self.m), bool)
        cases = (rows, np.zeros(len(rows), dtype=np.int64))
        was_enabled = gc.isenabled()  # as infotree's builder: no cyclic GC during the build
        gc.disable()
        try:
            while open_nodes:
                cases, open_nodes, used = self.level(open_nodes, cases, used)
        finally:
            if was_enabled:
                gc.enable()

    def counts(self, K, cases):
        """As infotree's: the block, the class counts, and per feature (in cache) Σ F(n_x),
        Σ F(n_xy) and the numbers of non-empty branches and of branches with at least
        min_objects rows."""
        nc, m, F = self.nc, self.m, self.F
        rows, nid = cases
        ya = self.y[rows]
        CC = np.bincount(nid * nc + ya, minlength=K * nc).reshape(K, nc)
        T = np.empty((K, m, self.vmax, nc), dtype=np.int32)
        ones = np.ones(self.vmax * nc)
        Fnx = np.empty((K, m))
        Fnxy = np.empty((K, m))
        nonempty = np.empty((K, m))
        big = np.empty((K, m))
        offsets = {}
        for j in range(m):
            V = int(self.nv[j])
            off = offsets.get(V)
            if off is None:
                off = offsets[V] = nid * (V * nc) + ya
            b = np.bincount(off + self.Xt[j].take(rows) * nc, minlength=K * V * nc).reshape(K, V, nc)
            T[:, j, :V, :] = b
            if V < self.vmax:
                T[:, j, V:] = 0
            x = _class_sum(b)
            Fnx[:, j] = F.take(x) @ ones[:V]
            Fnxy[:, j] = F.take(b).reshape(K, -1) @ ones[:V * nc]
            nonempty[:, j] = (x > 0) @ ones[:V]
            big[:, j] = (x >= self.min_objects) @ ones[:V]
        return T, CC, Fnx, Fnxy, nonempty, big

    def level(self, nodes, cases, used):
        """infotree's grouping of a level's nodes above _LEVEL_CELLS, mirrored."""
        K = len(nodes)
        per = max(1, _LEVEL_CELLS // (self.m * self.vmax * self.nc))
        if K <= per:
            return self.level_part(nodes, cases, used)
        rows, nid = cases
        out_rows, out_nid, out_nodes, out_used = [], [], [], []
        for k0 in range(0, K, per):
            sel = np.flatnonzero((nid >= k0) & (nid < k0 + per))
            nxt, kids, u = self.level_part(nodes[k0:k0 + per], (rows[sel], nid[sel] - k0), used[k0:k0 + per])
            if kids:
                out_rows.append(nxt[0])
                out_nid.append(nxt[1] + len(out_nodes))
                out_nodes += kids
                out_used.append(u)
        if not out_nodes:
            return None, [], None
        rows, nid = np.concatenate(out_rows), np.concatenate(out_nid)
        if len(out_rows) > 1:  # one ascending run per group: ascending again for the next level
            order = np.argsort(rows, kind="stable")
            rows, nid = rows[order], nid[order]
        return (rows, nid), out_nodes, np.concatenate(out_used)

    def level_part(self, nodes, cases, used):
        t, nc = self.t, self.nc
        K = len(nodes)
        if t.max_depth is not None and nodes[0].depth >= t.max_depth:
            # Every open node of a level has the same depth: at max_depth they all stop.
            # A float tree needs no counts for them (infotree counts this level to keep
            # the leaves' candidate tables: records).
            for node in nodes:
                node.stop = "pure" if int(np.count_nonzero(node.class_counts)) <= 1 else "max_depth"
            return None, [], None
        T, CC, Fnx, Fnxy, nonempty, big = self.counts(K, cases)
        n = CC.sum(axis=1)
        F = self.F
        Fn = F.take(n)
        Fy = F.take(CC).sum(axis=1)
        nIG = (Fn - Fy)[:, None] - (Fnx - Fnxy)                # n·IG, float
        eligible = (nonempty >= 2) & ~used
        pure = (CC > 0).sum(axis=1) <= 1
        crit = t.criterion
        if crit == "gain":
            choice = np.where(eligible, nIG, -np.inf).argmax(axis=1)
        else:  # gain_ratio: J48's rules in floats, every node of the level at once
            mo = self.min_objects
            valid = big >= 2
            avg = valid & self.in_average
            kc = avg.sum(axis=1)
            S = np.where(avg, nIG, 0.0).sum(axis=1) - kc * n * SLACK
            ok = valid & (kc[:, None] * nIG >= S[:, None])
            positive = ok & (nIG > 0)
            nSI = Fn[:, None] - Fnx
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(positive, nIG / nSI, -np.inf)
            choice = ratio.argmax(axis=1)
            has_valid, has_avg, has_pos = valid.any(axis=1), kc > 0, positive.any(axis=1)
        stop_depth = t.max_depth

        # Python values for the loop, as infotree's builder has them.
        pure_l, n_l, choice_l = pure.tolist(), n.tolist(), choice.tolist()
        if crit == "gain_ratio":
            has_valid, has_avg, has_pos = has_valid.tolist(), has_avg.tolist(), has_pos.tolist()
        else:
            no_features, separating = used.all(axis=1).tolist(), eligible.any(axis=1).tolist()
        mss = self.min_samples_split
        split_nodes = []
        for k, node in enumerate(nodes):
            if pure_l[k]:
                node.stop = "pure"
                continue
            if stop_depth is not None and node.depth >= stop_depth:
                node.stop = "max_depth"
                continue
            if n_l[k] < mss:
                node.stop = "min_samples_split"
                continue
            if crit == "gain_ratio":
                if n_l[k] < 2 * mo:
                    node.stop = "too_few"
                    continue
                if not has_valid[k]:
                    node.stop = "no_valid"
                    continue
                if not has_avg[k]:
                    node.stop = "no_average"
                    continue
                if not has_pos[k]:
                    node.stop = "no_positive_ratio"
                    continue
            elif no_features[k]:
                node.stop = "no_features"
                continue
            elif not separating[k]:
                node.stop = "no_separation"
                continue
            c = choice_l[k]
            node.split = c
            split_nodes.append((k, node, c))
        if not split_nodes:
            return None, [], None
        return self.partition(nodes, split_nodes, T, cases, used)

    def partition(self, nodes, split_nodes, T, cases, used):
        K = len(nodes)
        rows, nid = cases
        split_of = np.full(K, -1, dtype=np.int64)
        base = np.zeros(K, dtype=np.int64)
        open_next, used_next, remap = [], [], []
        ks = np.array([k for k, _, _ in split_nodes])
        fs = np.array([f for _, _, f in split_nodes])
        child_counts = T[ks, fs].astype(np.int64)
        child_labels = child_counts.argmax(axis=2).tolist()
        child_n = child_counts.sum(axis=2).tolist()
        block = child_counts.reshape(-1, self.nc)  # a child's class counts: a row of the level's block
        W = self.vmax
        for s, (k, node, f) in enumerate(split_nodes):
            split_of[k] = f
            base[k] = len(remap)
            u = used[k].copy()
            u[f] = True
            kids = []
            depth = node.depth + 1
            for v in range(int(self.nv[f])):
                child = FNode(depth, block, s * W + v, child_n[s][v])
                if child_n[s][v]:
                    child.label = child_labels[s][v]
                    remap.append(len(open_next))
                    open_next.append(child)
                    used_next.append(u)
                else:
                    child.stop = "empty"
                    child.label = node.label
                    remap.append(-1)
                kids.append(child)
            node.children = kids
        sf = split_of[nid]
        keep = sf >= 0
        rows, nid = rows[keep], nid[keep]
        val = self.Xt.ravel().take(sf[keep] * self.Xt.shape[1] + rows)
        remap = np.asarray(remap, dtype=np.int64)
        return (rows, remap[base[nid] + val]), open_next, np.array(used_next, bool).reshape(len(open_next), self.m)


def _collapse(root: FNode) -> None:
    """infotree.tree._collapse on integer counts: the subtree errors summed once bottom-up."""
    sub = {}
    for node in reversed(list(root.walk())):  # children before parents
        sub[id(node)] = node.errors if node.split is None else sum(sub[id(c)] for c in node.children)
    stack = [root]
    while stack:
        node = stack.pop()
        if node.split is None:
            continue
        s = sub[id(node)]
        if s >= node.errors:
            node.collapsed_errors = s
            node.split = None
            node.children = []
            node.stop = "collapsed"
        else:
            stack.extend(node.children)


def build_float_tree(data, *, criterion="gain", max_depth=None) -> FTree:
    """The float twin of ``infotree.growing.build_tree(data, criterion=..., max_depth=...)``."""
    if criterion not in ("gain", "gain_ratio"):
        raise ValueError(f"float twin: criterion {criterion!r} not supported")
    X = np.asarray(data.X)
    if X.size and X.min() < 0:
        raise ValueError("float twin: missing values")
    y = np.asarray(data.y, dtype=np.int64)
    tree = FTree(data, criterion, max_depth)
    FloatBuilder(tree, X, y).run()
    tree.collapse_cpu = 0.0
    if criterion == "gain_ratio":
        c0 = time.process_time()
        _collapse(tree.root)
        tree.collapse_cpu = time.process_time() - c0  # the same code as infotree's: its share of both builds
    return tree


# -- comparing with an infotree tree ----------------------------------------------------

def compare(exact_tree, float_tree, limit=20):
    """Walk both trees together; the top-most nodes where the split differs.

    Returns (number of nodes compared, [(path, exact split, float split, verdict), ...]).
    The verdict explains a difference from infotree's records: ``"exact tie"`` when the
    float choice is one of the features the exact node recorded as tied; otherwise the
    exact measures of both choices are compared (``"float misorders distinct values"``
    for a real difference the float order got wrong, or a C4.5 filter decision).
    """
    feats = exact_tree.features
    diffs, compared = [], 0
    stack = [(exact_tree.root, float_tree.root, ())]
    while stack:
        e, f, path = stack.pop()
        compared += 1
        if e.split != f.split or (e.split is None and e.label != f.label):
            if len(diffs) < limit:
                diffs.append((path, _name(feats, e.split), _name(feats, f.split), _verdict(exact_tree, e, f)))
            else:
                diffs.append(None)
            continue
        if e.split is not None:
            for v, (ce, cf) in enumerate(zip(e.children, f.children)):
                stack.append((ce, cf, path + ((feats[e.split], exact_tree.domains[e.split][v]),)))
    return compared, diffs


def _name(feats, j):
    return "leaf" if j is None else feats[j]


def _verdict(tree, e, f):
    if e.split is None and f.split is None:
        return f"labels differ ({e.label} vs {f.label})"
    if e.split is not None and f.split is not None and f.split in e.ties:
        return "exact tie: float argmax broke it by rounding"
    crit = tree.criterion
    try:
        if e.split is not None and f.split is not None:
            ce, cf = e.candidate(e.split), e.candidate(f.split)
            if crit == "gain":
                if ce.gain == cf.gain:
                    return "exact tie (equal gains)"
                return "float misorders distinct gains" if ce.gain > cf.gain else "BUG? exact order disagrees"
            if f.split not in (e.average_gain_ok or ()):
                return "average-gain filter: float admitted a feature exact arithmetic rejects"
            rf, re_ = cf.gain_ratio, ce.gain_ratio
            if re_ == rf:
                return "exact tie (equal gain ratios)"
            return "float misorders distinct gain ratios" if re_ > rf else "BUG? exact order disagrees"
        if e.split is None:
            return f"infotree made a leaf ({e.stop}); float split on {tree.features[f.split]}"
        return f"float made a leaf ({f.stop}); infotree split on {tree.features[e.split]}"
    except Exception as exc:  # a verdict is a diagnosis; never let it stop the benchmark
        return f"(could not classify: {type(exc).__name__}: {exc})"
