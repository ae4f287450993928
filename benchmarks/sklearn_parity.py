#!/usr/bin/env python3
"""infotree's fully grown CART tree against scikit-learn's DecisionTreeClassifier (issue 20, item 7).

Not part of the test suite; scikit-learn is a reference here, never a dependency of
infotree (``pip install scikit-learn``; without it the script says so and exits 0).

For every case (iris, wine, breast_cancer as scikit-learn ships them, and seeded
synthetic tables of small integers, built to have many exact ties) and criterion
(gini, entropy; scikit-learn has no misclassification criterion) it grows

* infotree: ``build_tree(data, criterion=..., min_samples_split=2, min_leaf=1)`` on the
  exact values (a float64 cell is read from its shortest text, so 5.1 is 51/10);
* scikit-learn: ``DecisionTreeClassifier(criterion=..., random_state=s)`` for every
  seed s in ``--seeds`` (defaults: grown fully, every feature tried at every node),

and walks both trees together from the root, recounting each node's rows from the
data: scikit-learn's rows go left when their float32 value is ``<= threshold`` (how it
stores X and predicts), infotree's when the exact value is ``<= t``.  At a node where
both split the same rows the same way the walk goes on (and the threshold difference,
the impurity difference and the counts are recorded); at the top-most node where they
part, the difference is classified from the node's class counts, computed here
independently of infotree (Fractions for Gini; for entropy n·H as integer
coefficients of log p over primes, equal exactly when the vectors are equal, ordered
at 60 digits otherwise):

(a) tie:      both splits have exactly the same decrease, on different features:
              scikit-learn visits features in a random order (``random_state``) and keeps
              the first strictly better one; infotree takes the first in column order.
(b) float:    scikit-learn's split is worse by a relative gap below 1e-9 (its proxy in
              doubles), ties within one feature that its rounding broke, or values its
              float32 storage (or its 1e-7 FEATURE_THRESHOLD) merges.
(r) rule:     infotree makes a leaf because no split decreases the impurity (it requires a
              positive decrease) and scikit-learn splits anyway: its search starts at
              -inf and a split is kept unless improvement + eps < min_impurity_decrease
              (0 by default), so an impure node with any non-constant feature splits.
(c) other:    anything else (one tool chose a split the exact values say is worse):
              a bug; printed loudly with the node's class table as a reproduction.

Each scikit-learn tree is also grown again by ``emulate_sklearn``: scikit-learn's
BestSplitter and depth-first builder (its xorshift feature draws from the seed, constant
features, FEATURE_THRESHOLD, strict ``>`` on the improvement, splitting at zero
improvement) with every comparison decided exactly.  Where the fitted tree equals the
emulation for a seed, rounding decided nothing in it, and every (a) difference of that
seed is the draw order alone; a seed where they part is listed as (b) with the paths.

Exit status 1 if any (c) difference is found.

    python3 benchmarks/sklearn_parity.py                       # every case, seeds 0-9
    python3 benchmarks/sklearn_parity.py --only iris,ties-dup --seeds 0-3 --show
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter, defaultdict
from decimal import Decimal, getcontext
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

getcontext().prec = 60
FEATURE_THRESHOLD = 1e-7  # scikit-learn's _partitioner.pxd: closer float32 values are one value
NEAR = Fraction(1, 10**9)


# -- the cases ----------------------------------------------------------------------------

def _sklearn_set(name):
    def load():
        from sklearn import datasets
        d = getattr(datasets, f"load_{name}")()
        return d.data, d.target, [str(f) for f in d.feature_names]
    return load


def _ties(n, m, values, classes, seed, dup=False, noise=0.15):
    """n rows of m small-integer features; the class a rule of the first two (with label
    noise), so exact ties are everywhere; ``dup``: the last column copies the first."""
    def make():
        rng = np.random.default_rng(seed)
        X = rng.integers(0, values, size=(n, m))
        if dup:
            X[:, -1] = X[:, 0]
        y = (X[:, 0] + X[:, 1]) % classes
        flip = rng.random(n) < noise
        y[flip] = rng.integers(0, classes, size=int(flip.sum()))
        return X, y, [f"x{j}" for j in range(m)]
    return make


def _xor():
    """Two binary features, class x0 xor x1, every combination 5 times: no split lowers
    the impurity at the root."""
    X = np.array([(a, b) for a in (0, 1) for b in (0, 1) for _ in range(5)])
    return X, X[:, 0] ^ X[:, 1], ["x0", "x1"]


def _speed_set(n):
    """cart_speed.py's numeric rows (3-decimal normal values, planted rule, noise)."""
    def make():
        sys.path.insert(0, str(REPO / "benchmarks"))
        from cart_speed import make_numeric

        X, y = make_numeric(n)
        return X, y, [f"x{j}" for j in range(X.shape[1])]
    return make


CASES = {
    "iris": _sklearn_set("iris"),
    "wine": _sklearn_set("wine"),
    "breast_cancer": _sklearn_set("breast_cancer"),
    "ties-4x3": _ties(300, 6, 4, 2, seed=1),
    "ties-3x3c": _ties(500, 8, 3, 3, seed=2),
    "ties-dup": _ties(400, 5, 3, 2, seed=3, dup=True),
    "ties-binary": _ties(1000, 6, 2, 2, seed=4, noise=0.3),
    "xor": _xor,
    "speed-1e3": _speed_set(1000),
}


# -- exact scores, independent of infotree --------------------------------------------------

_FACTORS: dict[int, tuple] = {}


def _factor(m):
    """m's prime factorisation as ((p, e), ...)."""
    f = _FACTORS.get(m)
    if f is None:
        out, k, p = [], m, 2
        while p * p <= k:
            e = 0
            while k % p == 0:
                k //= p
                e += 1
            if e:
                out.append((p, e))
            p += 1
        if k > 1:
            out.append((k, 1))
        f = _FACTORS[m] = tuple(out)
    return f


_LN: dict[int, Decimal] = {}


class LogSum:
    """Σ a_p·log2 p with integer a_p (exact), its value at 60 digits for ordering."""

    def __init__(self, coef):
        self.coef = {p: a for p, a in coef.items() if a}
        self.value = sum((a * _LN.setdefault(p, Decimal(p).ln()) for p, a in self.coef.items()), Decimal(0))

    def __eq__(self, other):
        return self.coef == other.coef

    def __lt__(self, other):
        return self != other and self.value < other.value

    def __le__(self, other):
        return self == other or self.value < other.value

    def __float__(self):
        return float(self.value / Decimal(2).ln())


def _m_log_m(coef, m, sign):
    for p, e in _factor(m):
        coef[p] = coef.get(p, 0) + sign * m * e


def decrease(criterion, table):
    """N × the impurity decrease of a split with class-count rows ``table`` (left, right):
    a Fraction for Gini, a LogSum for entropy (ln-based; the order is the same in bits)."""
    parent = [sum(c) for c in zip(*table)]
    N = sum(parent)
    if criterion == "gini":
        # N·Gini(node) − Σ n_k·Gini(k) = Σ_k Σ_c c²/n_k − Σ_c C²/N
        return sum((Fraction(sum(c * c for c in r), sum(r)) for r in table if sum(r)), Fraction(0)) \
            - Fraction(sum(c * c for c in parent), N)
    coef: dict[int, int] = {}
    _m_log_m(coef, N, 1)  # N·H(node) = N log N − Σ C log C, and minus the children's
    for c in parent:
        if c:
            _m_log_m(coef, c, -1)
    for r in table:
        n = sum(r)
        if n:
            _m_log_m(coef, n, -1)
            for c in r:
                if c:
                    _m_log_m(coef, c, 1)
    return LogSum(coef)


def impurity(criterion, counts):
    n = sum(counts)
    if criterion == "gini":
        return 1 - sum(Fraction(c, n) ** 2 for c in counts)
    return sum(-(c / n) * np.log2(c / n) for c in counts if c)


def is_zero(d):
    return d == 0 if isinstance(d, Fraction) else not d.coef


def relative_gap(a, b):
    """(b − a) / |b| as a Fraction or Decimal."""
    if isinstance(a, Fraction):
        return (b - a) / abs(b) if b else Fraction(0)
    return (b.value - a.value) / abs(b.value) if b.value else Decimal(0)


# -- the walk -----------------------------------------------------------------------------

class Case:
    """One data set: exact values per cell (column Fractions), float32 values, class codes."""

    def __init__(self, name, X, y, names):
        from infotree.data import from_arrays

        self.name, self.names = name, names
        self.y = np.asarray(y, dtype=np.int64)
        self.classes = sorted(set(self.y.tolist()))
        self.X64 = np.asarray(X, dtype=np.float64)
        self.X32 = self.X64.astype(np.float32)
        self.data = from_arrays(self.X64.tolist(), [str(v) for v in self.y], numeric="auto", target="class")
        assert all(k == "numeric" for k in self.data.kinds)
        self.exact = [[self.data.numbers[j][c] for c in self.data.X[:, j].tolist()] for j in range(len(names))]
        # class codes in infotree's order, to compare its counts with ours
        self.it_class = [self.classes.index(int(c)) for c in self.data.classes]
        self.merged = self._merged()

    def _merged(self):
        """Columns where float32 (or FEATURE_THRESHOLD) makes distinct exact values one."""
        out = {}
        for j in range(len(self.names)):
            exact = sorted(set(self.exact[j]))
            f32 = np.float32([float(v) for v in exact])
            close = int(np.sum(np.diff(f32.astype(np.float64)) <= FEATURE_THRESHOLD))
            if close:
                out[self.names[j]] = close
        return out

    def counts(self, rows):
        return tuple(np.bincount(self.y[rows], minlength=len(self.classes)).tolist())

    def table(self, rows, left_mask):
        return self.counts(rows[left_mask]), self.counts(rows[~left_mask])

    def best_per_feature(self, criterion, rows):
        """Each feature's best cut here (max decrease, lowest threshold first), exactly."""
        out = {}
        total = self.counts(rows)
        for j in range(len(self.names)):
            vals = [self.exact[j][r] for r in rows.tolist()]
            order = sorted(set(vals))
            if len(order) < 2:
                continue
            by = {v: [0] * len(total) for v in order}
            for v, c in zip(vals, self.y[rows].tolist()):
                by[v][c] += 1
            left = [0] * len(total)
            best = None
            for a, b in itertools.pairwise(order):
                left = [x + z for x, z in zip(left, by[a])]
                d = decrease(criterion, (tuple(left), tuple(t - x for t, x in zip(total, left))))
                if best is None or best[0] < d:
                    best = (d, (a + b) / 2)
            out[j] = best
        return out


def both_cuts(case, node, t, k, rows):
    """The two trees' tests at a node, None for a leaf: scikit-learn's (feature, threshold,
    left mask over ``rows`` by float32 value <= threshold) and infotree's (feature, exact
    threshold, left mask by exact value <= t)."""
    sk = it = None
    if t.children_left[k] != -1:
        f, thr = int(t.feature[k]), float(t.threshold[k])
        sk = (f, thr, case.X32[rows, f].astype(np.float64) <= thr)
    if node.test is not None:
        f, thr = node.test.feature, node.test.threshold
        it = (f, thr, np.array([case.exact[f][r] <= thr for r in rows.tolist()]))
    return sk, it


def walk(case, criterion, it_tree, sk, show):
    """Compare from the roots; returns (facts, differences)."""
    t = sk.tree_
    facts = Counter()
    facts["sk_nodes"] = int(t.node_count)
    facts["it_nodes"] = sum(1 for _ in it_tree.root.walk())
    diffs = []
    stack = [(it_tree.root, 0, np.arange(len(case.y)), "")]
    while stack:
        node, k, rows, path = stack.pop()
        counts = case.counts(rows)
        it_counts = [0] * len(counts)
        for i, c in enumerate(node.class_counts.tolist()):
            it_counts[case.it_class[i]] = int(c)
        if tuple(it_counts) != counts or int(t.n_node_samples[k]) != len(rows):
            diffs.append({"kind": "c", "path": path, "what": f"counts differ: here {counts}, infotree {it_counts}, "
                                                        f"scikit-learn n={int(t.n_node_samples[k])}"})
            continue
        facts["matched"] += 1
        exact_imp = impurity(criterion, counts)
        facts["imp_err"] = max(facts.get("imp_err", 0.0), abs(float(t.impurity[k]) - float(exact_imp)))
        sk_cut, it_cut = both_cuts(case, node, t, k, rows)
        sk_leaf, it_leaf = sk_cut is None, it_cut is None
        if sk_leaf and it_leaf:
            continue
        sk_f, sk_t, sk_left = sk_cut or (None, None, None)
        it_f, it_t, it_left = it_cut or (None, None, None)
        if not sk_leaf and not it_leaf and sk_f == it_f and np.array_equal(sk_left, it_left):
            facts["thr_err"] = max(facts.get("thr_err", 0.0), abs(sk_t - float(it_t)) / max(abs(float(it_t)), 1e-300))
            stack.append((node.children[1], int(t.children_right[k]), rows[~it_left], path + "R"))
            stack.append((node.children[0], int(t.children_left[k]), rows[it_left], path + "L"))
            continue
        d = {"path": path or "root", "n": len(rows), "counts": counts, "sk": None, "it": None, "sk_f": sk_f}
        best = case.best_per_feature(criterion, rows)
        top = max((b[0] for b in best.values()), default=None, key=_key)
        d["tied"] = [case.names[j] for j, b in best.items() if top is not None and b[0] == top]
        if not sk_leaf:
            d_sk = decrease(criterion, case.table(rows, sk_left))
            d["sk"] = (case.names[sk_f], sk_t, d_sk)
        if not it_leaf:
            d_it = decrease(criterion, case.table(rows, it_left))
            d["it"] = (case.names[it_f], it_t, d_it)
        d["kind"], d["what"] = classify(case, criterion, node, rows, d, best, top)
        d["sk_subtree"] = _subtree_size(t, k)
        d["it_subtree"] = sum(1 for _ in node.walk())
        diffs.append(d)
        if not sk_leaf and not it_leaf and np.array_equal(sk_left, it_left):
            # another feature cutting the same rows: the children are the same nodes, walk on
            d["same_rows"] = True
            stack.append((node.children[1], int(t.children_right[k]), rows[~it_left], path + "R"))
            stack.append((node.children[0], int(t.children_left[k]), rows[it_left], path + "L"))
    return facts, diffs


# -- scikit-learn's own rules, in exact arithmetic ------------------------------------------

RAND_R_MAX = 2147483647


def _rand_int(state, low, high):
    """sklearn.tree._utils.rand_int with our_rand_r's xorshift (sklearn/utils/_random.pxd)."""
    x = state[0] or 1
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    state[0] = x
    return low + (x % (RAND_R_MAX + 1)) % (high - low)


def _better(criterion, a, b):
    """Is split table ``a`` strictly better than ``b`` (None: -inf), decided exactly?"""
    if b is None:
        return True
    if not isinstance(criterion, str):  # sklearn_reg_parity's squared error
        return criterion.better(a, b)
    if criterion == "gini":
        return decrease(criterion, a) > decrease(criterion, b)
    fa, fb = _child_nlogn(a), _child_nlogn(b)  # entropy: a float filter, exact when close
    if abs(fa - fb) > 1e-9 * max(1.0, abs(fa)):
        return fa > fb
    return decrease(criterion, b) < decrease(criterion, a)


def _child_nlogn(table):
    return sum(c * np.log(c) for r in table for c in r if c) - sum(sum(r) * np.log(sum(r)) for r in table if sum(r))


def emulate_sklearn(case, criterion, seed, columns=False):
    """scikit-learn's BestSplitter and depth-first builder (1.x, dense X, no missing
    values, max_features = all) with its xorshift feature draws, deciding every
    comparison exactly: the tree it would grow without rounding.  Returns
    {path: (feature, left mask over the node's rows) or None for a leaf}.

    ``columns``: infotree's two rules instead: features visited in column order (no
    draws) and a node whose best decrease is 0 made a leaf."""
    rng = np.random.RandomState(seed)
    state = [int(rng.randint(0, RAND_R_MAX))]
    m = len(case.names)
    features, constant = list(range(m)), [0] * m
    out = {}
    stack = [(np.arange(len(case.y)), "", 0)]
    while stack:
        rows, path, n_known = stack.pop()
        counts = case.counts(rows)
        if sum(1 for c in counts if c) <= 1 or len(rows) < 2:
            out[path] = None
            continue
        f_i, n_drawn, n_found, n_total, visited = m, 0, 0, n_known, 0
        best = None  # (table, feature, left mask)
        while f_i > n_total and (visited < m or visited <= n_found + n_drawn):
            visited += 1
            if columns:  # the first feature in column order not yet drawn (known constants skipped)
                f_j = min(range(n_total, f_i), key=lambda i: features[i])
            else:
                f_j = _rand_int(state, n_drawn, f_i - n_found)
                if f_j < n_known:
                    features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
                    n_drawn += 1
                    continue
                f_j += n_found
            f = features[f_j]
            v = case.X32[rows, f].astype(np.float64)
            if v.max() <= v.min() + FEATURE_THRESHOLD:
                features[f_j], features[n_total] = features[n_total], features[f_j]
                n_found += 1
                n_total += 1
                continue
            f_i -= 1
            features[f_i], features[f_j] = features[f_j], features[f_i]
            order = np.sort(np.unique(v))
            for a, b in itertools.pairwise(order):
                if b <= a + FEATURE_THRESHOLD:  # next_p skips values this close
                    continue
                left = v <= a
                table = case.table(rows, left)
                if best is None or _better(criterion, table, best[0]):
                    best = (table, f, left)
        features[:n_known] = constant[:n_known]
        constant[n_known:n_known + n_found] = features[n_known:n_known + n_found]
        if best is None or (columns and is_zero(decrease(criterion, best[0]))):
            out[path] = None
            continue
        _, f, left = best
        out[path] = (f, left)
        stack.append((rows[~left], path + "R", n_total))
        stack.append((rows[left], path + "L", n_total))
    return out


def agrees(case, sk, emulated):
    """Paths where scikit-learn's fitted tree and the emulation part (top-most only)."""
    t = sk.tree_
    bad = []
    stack = [(0, np.arange(len(case.y)), "")]
    while stack:
        k, rows, path = stack.pop()
        e = emulated.get(path, "missing")
        leaf = t.children_left[k] == -1
        if leaf or e is None or e == "missing":
            if not (leaf and e is None):
                bad.append(path or "root")
            continue
        f, left = e
        sk_left = case.X32[rows, int(t.feature[k])].astype(np.float64) <= t.threshold[k]
        if int(t.feature[k]) != f or not np.array_equal(sk_left, left):
            bad.append(path or "root")
            continue
        stack += [(int(t.children_right[k]), rows[~left], path + "R"), (int(t.children_left[k]), rows[left], path + "L")]
    return bad


def matches_infotree(case, it_tree, emulated):
    """Paths where infotree's tree and an emulation part (top-most only)."""
    bad = []
    stack = [(it_tree.root, np.arange(len(case.y)), "")]
    while stack:
        node, rows, path = stack.pop()
        e = emulated.get(path)
        if node.test is None or e is None:
            if not (node.test is None and e is None):
                bad.append(path or "root")
            continue
        f, left = e
        j, t = node.test.feature, node.test.threshold
        it_left = np.array([case.exact[j][r] <= t for r in rows.tolist()])
        if j != f or not np.array_equal(it_left, left):
            bad.append(path or "root")
            continue
        stack += [(node.children[1], rows[~left], path + "R"), (node.children[0], rows[left], path + "L")]
    return bad


def _key(d):
    return d.value if isinstance(d, LogSum) else d


def _subtree_size(t, k):
    stack, n = [k], 0
    while stack:
        k = stack.pop()
        n += 1
        if t.children_left[k] != -1:
            stack += [int(t.children_left[k]), int(t.children_right[k])]
    return n


def classify(case, criterion, node, rows, d, best, top):
    """The class of a top-most difference and a sentence saying why."""
    sk, it = d["sk"], d["it"]
    if it is not None and it[2] != top:
        return "c", f"infotree's split is not the best: {it[2]} < {top} exactly"
    if it is None:
        if sk is not None and is_zero(sk[2]) and (top is None or is_zero(top)) and node.stop == "no_decrease":
            return "r", "no split lowers the impurity (best decrease exactly 0): infotree stops, scikit-learn splits"
        return "c", f"infotree stops ({node.stop}) though the best decrease is {top}"
    if sk is None:
        if any(case.names[j] in case.merged for j in best):
            return "b", "scikit-learn makes a leaf: its float32 values merge the values infotree cuts"
        return "c", "scikit-learn makes a leaf where infotree splits with a positive decrease"
    if sk[2] == it[2]:
        if sk[0] != it[0]:
            return "a", (f"exact tie ({len(d['tied'])} features: {', '.join(d['tied'])}); infotree takes the first "
                         f"in column order, scikit-learn its first in random feature order")
        return "b", "exact tie of two cuts of one feature, broken by scikit-learn's rounding (it scans upwards)"
    if sk[2] < it[2]:
        gap = relative_gap(sk[2], it[2])
        if gap < NEAR:
            return "b", f"scikit-learn's split is worse by {float(gap):.2e} relatively: a float near-tie"
        lo, hi = _between(case, node.test.feature, rows, it[1])
        if float(np.float32(float(hi))) - float(np.float32(float(lo))) <= FEATURE_THRESHOLD:
            return "b", f"float32 merges {lo} and {hi}, so scikit-learn cannot cut between them"
        return "c", f"scikit-learn's split is worse by {float(gap):.3e} relatively"
    return "c", "scikit-learn found a split with a larger exact decrease than infotree"


def _between(case, j, rows, t):
    vals = sorted({case.exact[j][r] for r in rows.tolist()})
    lo = max(v for v in vals if v <= t)
    hi = min(v for v in vals if v > t)
    return lo, hi


def _fmt_d(criterion, d):
    if isinstance(d, Fraction):
        return f"{d} ({float(d):.6g})"
    return f"{float(d):.9g} bits·n"


def describe(criterion, d):
    lines = [f"    [{d['kind']}] node {d['path']} n={d.get('n')} counts={d.get('counts')}: {d['what']}"
             + ("; the same rows go left, so the walk goes on below" if d.get("same_rows") else "")]
    if d.get("it"):
        f, thr, dec = d["it"]
        lines.append(f"        infotree:     {f} <= {thr} ({float(thr):.9g}); n·decrease {_fmt_d(criterion, dec)}; "
                     f"subtree {d['it_subtree']} nodes")
    if d.get("sk"):
        f, thr, dec = d["sk"]
        lines.append(f"        scikit-learn: {f} <= {thr!r}; n·decrease {_fmt_d(criterion, dec)}; "
                     f"subtree {d['sk_subtree']} nodes")
    return "\n".join(lines)


def parse_seeds(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b) + 1)) if b else [int(a)]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated case names: " + ", ".join(CASES))
    ap.add_argument("--criteria", default="gini,entropy")
    ap.add_argument("--seeds", default="0-9", help="scikit-learn random_state values, e.g. 0-9 or 1,5,7")
    ap.add_argument("--show", action="store_true", help="print every difference (by default: the first 3 a tree)")
    args = ap.parse_args(argv)
    try:
        import sklearn
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        print("scikit-learn is not installed (pip install scikit-learn): nothing to compare")
        return 0
    import infotree

    names = args.only.split(",") if args.only else list(CASES)
    seeds = parse_seeds(args.seeds)
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; seeds {args.seeds}\n")
    summary, bugs, bugs_b = [], 0, []
    for name in names:
        case = Case(name, *CASES[name]())
        print(f"== {name}: {len(case.y)} rows x {len(case.names)} features, {len(case.classes)} classes"
              + (f"; float32 merges values in {case.merged}" if case.merged else ""))
        for criterion in args.criteria.split(","):
            t0 = time.process_time()
            it_tree = infotree.build_tree(case.data, criterion=criterion, min_samples_split=2, min_leaf=1,
                                          competitors=0, surrogates=0)
            it_s = time.process_time() - t0
            kinds_all, shapes, identical, alike, emulated = Counter(), set(), 0, 0, 0
            matched, thr_err, imp_err = 0, 0.0, 0.0
            stops = Counter(n.stop for n in it_tree.root.walk() if n.test is None)
            choice_at = defaultdict(lambda: defaultdict(list))  # (path) -> sklearn feature -> seeds
            facts0 = None
            in_columns = matches_infotree(case, it_tree, emulate_sklearn(case, criterion, 0, columns=True))
            bugs += bool(in_columns)
            for s in seeds:
                sk = DecisionTreeClassifier(criterion=criterion, random_state=s).fit(case.X64, case.y)
                shapes.add(_shape(sk.tree_))
                facts, diffs = walk(case, criterion, it_tree, sk, args.show)
                off = agrees(case, sk, emulate_sklearn(case, criterion, s))
                emulated += not off
                if off:  # where rounding, not the draw order, decided scikit-learn's split
                    bugs_b.append((name, criterion, s, off))
                facts0 = facts0 or facts
                kinds = Counter(d["kind"] for d in diffs)
                kinds_all.update(kinds)
                identical += not diffs
                alike += bool(diffs) and all(d.get("same_rows") for d in diffs)
                matched += facts["matched"]
                thr_err, imp_err = max(thr_err, facts.get("thr_err", 0.0)), max(imp_err, facts.get("imp_err", 0.0))
                bugs += kinds["c"]
                for d in diffs:
                    if d["kind"] == "a":
                        choice_at[(d["path"], d["counts"], tuple(d["tied"]))][d["sk"][0]].append(s)
                line = (f"  {criterion:7} seed {s}: infotree {facts['it_nodes']} nodes, scikit-learn {facts['sk_nodes']}; "
                        f"{facts['matched']} nodes matched")
                if diffs:
                    line += "; differences: " + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items()))
                else:
                    line += f"; identical (max threshold diff {facts.get('thr_err', 0):.1e} rel., " \
                            f"impurity diff {facts.get('imp_err', 0):.1e})"
                print(line)
                first = s == seeds[0]
                for d in (d for d in diffs if args.show or d["kind"] in "bc" or (first and diffs.index(d) < 3)):
                    print(describe(criterion, d))
            print(f"  {criterion}: {identical}/{len(seeds)} seeds give infotree's tree"
                  + (f" ({alike} more the same partitions, other tied features named)" if alike else "")
                  + "; scikit-learn grew "
                  f"{len(shapes)} distinct trees over {len(seeds)} seeds, infotree one ({it_s:.2f} s); "
                  f"top-most differences by class: {dict(sorted(kinds_all.items())) or 'none'}")
            print("    scikit-learn's rules in exact arithmetic with features visited in column order and a leaf "
                  "at zero decrease grow infotree's tree: " + ("yes" if not in_columns else
                                                               f"NO (c), they part at {', '.join(in_columns)}"))
            print(f"    scikit-learn's tree is its own rules in exact arithmetic with its seeded feature draws "
                  f"(emulate_sklearn) for {emulated}/{len(seeds)} seeds"
                  + ("" if emulated == len(seeds) else ": rounding decided the others (listed at the end)"))
            print(f"    {matched} node pairs matched over the seeds: thresholds within {thr_err:.1e} relatively, "
                  f"impurities within {imp_err:.1e}; infotree's leaves by stop reason: {dict(sorted(stops.items()))}"
                  + (" (scikit-learn splits a 'no_decrease' leaf when it reaches it)" if stops["no_decrease"] else ""))
            for (path, counts, tied), by in sorted(choice_at.items(), key=lambda x: (len(x[0][0]), x[0][0])):
                picks = "; ".join(f"{f} with seeds {','.join(map(str, ss))}" for f, ss in sorted(by.items()))
                print(f"    tie at {path} {counts} among {', '.join(tied)}: infotree {tied[0]}; scikit-learn {picks}")
            summary.append((name, criterion, identical, alike, len(seeds), len(shapes), dict(kinds_all),
                            stops["no_decrease"], emulated, not in_columns))
        print()
    print("summary: case, criterion, seeds whose tree is infotree's (+ the same partitions with tied features\n"
          "named differently), distinct scikit-learn trees over the seeds, top-most differences by class,\n"
          "infotree leaves with no positive decrease (scikit-learn would split them), seeds whose\n"
          "scikit-learn tree equals its exact emulation, and whether the emulation with column order\n"
          "and a leaf at zero decrease grows infotree's tree")
    for name, criterion, ident, alike, n, shapes, kinds, zero, emu, cols in summary:
        print(f"  {name:14} {criterion:7} {ident:2} (+{alike:2})/{n}  {shapes:2} trees  {kinds or '-'!s:12}  {zero}"
              f"  {emu:2}/{n}  {'yes' if cols else 'NO'}")
    for name, criterion, s, off in bugs_b:
        print(f"(b) {name} {criterion} seed {s}: scikit-learn's tree departs from its exact emulation at {', '.join(off)}")
    if bugs:
        print(f"\n!!! {bugs} difference(s) of class (c): see the [c] lines above !!!")
        return 1
    return 0


def _shape(t):
    return (tuple(t.feature.tolist()), tuple(np.round(t.threshold, 9).tolist()), tuple(t.children_left.tolist()))


if __name__ == "__main__":
    sys.exit(main())
