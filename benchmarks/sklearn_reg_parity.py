#!/usr/bin/env python3
"""infotree's fully grown regression tree against scikit-learn's DecisionTreeRegressor (issue 21, item 5).

Not part of the test suite; scikit-learn is a reference here, never a dependency of
infotree (without it the script says so and exits 0).

For every case (diabetes and linnerud as scikit-learn ships them, diabetes' raw values;
seeded synthetic tables, one of small integers built to tie, also with integer sample
weights; and ``offset``, a target around 10^9, where doubles lose the split) it grows

* infotree: ``CARTRegressor().fit`` when infotree has it, else ``build_tree(data,
  criterion="squared_error", cp=None, min_samples_split=2, min_leaf=1, competitors=0,
  surrogates=0)``, on the exact values (a cell is read from its shortest text);
* scikit-learn: ``DecisionTreeRegressor(criterion="squared_error", random_state=s)`` for
  every seed s in ``--seeds`` (grown fully, every feature tried at every node),

and walks both trees together from the root, recounting each node's rows: scikit-learn's
rows go left when their float32 value is ``<= threshold``, infotree's when the exact
value is ``<= t``.  Matched nodes record n, the mean (scikit-learn's ``value`` against
the exact mean) and the impurity (scikit-learn's MSE against the exact SSE / n).  At the
top-most node where the trees part, the difference is classified from the node's rows,
independently of infotree (each feature's best cut found again with Fractions):

(a) tie:    both splits decrease the SSE by exactly the same amount, on different
            features: scikit-learn visits features in a random order and keeps the first
            strictly better one; infotree takes the first in column order.  When the two
            cut the same rows the walk goes on below.
(b) float:  scikit-learn's split decreases the SSE less than infotree's (or it makes a
            leaf of a node whose exact SSE is positive): its choice rests on doubles.  The
            line gives both exact decreases and scikit-learn's proxy
            ``S_L^2/n_L + S_R^2/n_R`` of both splits as doubles (accumulated in its order),
            or its impurity; values that float32 storage merges are also (b).
(r) rule:   infotree makes a leaf because no split lowers the SSE (it needs a positive
            decrease) and scikit-learn splits anyway (its search starts at -inf).
(c) other:  anything else; printed loudly; exit status 1.

``--emulate`` grows each scikit-learn tree again with ``sklearn_parity.emulate_sklearn``
(its BestSplitter and builder, its xorshift feature draws from the seed) deciding every
comparison of the proxy exactly: a seed whose tree equals it had no split decided by
rounding, so each of its (a) differences is the draw order alone.

    /tmp/skvenv/bin/python benchmarks/sklearn_reg_parity.py                # every case, seeds 0-9
    python3 benchmarks/sklearn_reg_parity.py --only offset,ties --seeds 0-3 --show
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from sklearn_parity import agrees, both_cuts, emulate_sklearn, parse_seeds  # noqa: E402

EPSILON = float(np.finfo(np.float64).eps)  # scikit-learn's leaf test: impurity <= EPSILON


# -- the cases ----------------------------------------------------------------------------

def _text(v):
    """A double's shortest text, as a reader of the CSV would see it."""
    return repr(float(v)).removesuffix(".0")


def _diabetes():
    from sklearn.datasets import load_diabetes
    X, y = load_diabetes(return_X_y=True, scaled=False)
    return X, [_text(v) for v in y], ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]


def _linnerud():
    from sklearn.datasets import load_linnerud
    d = load_linnerud()
    return d.data, [_text(v) for v in d.target[:, 0]], list(d.feature_names)


def _ties(seed=0, n=300, m=5):
    """Small-integer features (0..3) and a target that is a sum of two of them plus
    noise: many splits with exactly equal decreases."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, m))
    y = X[:, 0] + X[:, 1] + rng.integers(0, 3, size=n)
    return X.astype(float), [str(int(v)) for v in y], [f"x{j}" for j in range(m)]


def _smooth(seed=1, n=500, m=6):
    """3-decimal features and a 2-decimal target, a planted piecewise function plus noise."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, m)), 3)
    y = np.round(3 * (X[:, 0] > 0.2) + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=n), 2)
    return X, [f"{v:.2f}" for v in y], [f"x{j}" for j in range(m)]


#: y = OFFSET + small integers: scikit-learn's proxy S_L^2/n_L + S_R^2/n_R is about
#: n·10^18, whose doubles are 128·n apart, so splits whose exact proxies differ by less
#: than that look alike to it (tests/test_regression_exact.py has the same table).
OFFSET = 10**9
OFFSET_X = list(range(1, 13))
OFFSET_D = [5, 6, 9, 7, 6, 5, 5, 9, 2, 8, 6, 0]


def _offset():
    X = np.array([[x] for x in OFFSET_X], dtype=float)
    return X, [str(OFFSET + d) for d in OFFSET_D], ["x"]


def _weighted_ties():
    """The tie-heavy table with integer sample weights 1-3: a weight k must act as k
    copies of the row in both tools (sums, means, impurities, decreases)."""
    X, y, names = _ties(seed=2, n=200)
    return X, y, names, np.random.default_rng(3).integers(1, 4, size=len(y)).tolist()


CASES = {"diabetes": _diabetes, "linnerud": _linnerud, "ties": _ties, "smooth": _smooth, "offset": _offset,
         "ties-weighted": _weighted_ties}


class Case:
    """One data set: exact values per cell and of y (Fractions), float32 X, float64 y,
    integer sample weights (1 when not given)."""

    def __init__(self, name, X, y_text, names, weights=None):
        from infotree.data import from_arrays

        self.name, self.names = name, names
        self.X64 = np.asarray(X, dtype=np.float64)
        self.X32 = self.X64.astype(np.float32)
        self.y_text = y_text
        self.y = [Fraction(v) for v in y_text]
        self.y64 = np.array([float(v) for v in y_text])
        self.weights = weights
        self.w = [1] * len(y_text) if weights is None else list(weights)
        self.w64 = np.array(self.w, dtype=np.float64)
        self.data = from_arrays([[_text(v) for v in row] for row in self.X64.tolist()], y_text,
                                feature_names=names, numeric="auto", target="y")
        assert all(k == "numeric" for k in self.data.kinds)
        self.exact = [[self.data.numbers[j][c] for c in self.data.X[:, j].tolist()] for j in range(len(names))]

    def stats(self, rows):
        """Σw, Σw·y, Σw·y² of the rows."""
        rs = rows.tolist()
        return (sum(self.w[r] for r in rs), sum((self.w[r] * self.y[r] for r in rs), Fraction(0)),
                sum((self.w[r] * self.y[r] ** 2 for r in rs), Fraction(0)))

    # the interface sklearn_parity.emulate_sklearn grows a tree through
    def counts(self, rows):
        """How often each distinct y occurs: one entry exactly when the SSE is 0."""
        return tuple(Counter(self.y[r] for r in rows.tolist()).values())

    def table(self, rows, left):
        return self.stats(rows[left]), self.stats(rows[~left])

    def sse(self, rows):
        n, s, q = self.stats(rows)
        return q - s * s / n if n else Fraction(0)

    def decrease(self, rows, left):
        return self.sse(rows) - self.sse(rows[left]) - self.sse(rows[~left])

    def proxy64(self, rows, left):
        """scikit-learn's proxy_impurity_improvement for this cut, in its doubles: sum_left
        accumulated row by row in the feature's sorted order (w·y), sum_right = total − left."""
        wy = self.w64[rows] * self.y64[rows]
        total = 0.0
        for v in wy:
            total += v
        sl = 0.0
        for v in wy[left]:
            sl += v
        sr = total - sl
        nl, nr = float(self.w64[rows][left].sum()), float(self.w64[rows][~left].sum())
        return sl * sl / nl + sr * sr / nr

    def best_per_feature(self, rows):
        """Each feature's best cut here (max exact decrease, lowest threshold first)."""
        out = {}
        node_sse = self.sse(rows)
        n_all = self.stats(rows)[0]
        for j in range(len(self.names)):
            vals = [self.exact[j][r] for r in rows.tolist()]
            order = sorted(set(vals))
            if len(order) < 2:
                continue
            by = {v: [0, Fraction(0), Fraction(0)] for v in order}
            for v, r in zip(vals, rows.tolist()):
                b = by[v]
                b[0] += self.w[r]
                b[1] += self.w[r] * self.y[r]
                b[2] += self.w[r] * self.y[r] ** 2
            _, s_all, q_all = self.stats(rows)
            n = s = q = 0
            best = None
            for a, b in itertools.pairwise(order):
                n, s, q = n + by[a][0], s + by[a][1], q + by[a][2]
                d = node_sse - (q - s * s / n) - (q_all - q - (s_all - s) ** 2 / (n_all - n))
                if best is None or best[0] < d:
                    best = (d, (a + b) / 2)
            out[j] = best
        return out


class SquaredErrorProxy:
    """scikit-learn's comparison of two cuts (MSE.proxy_impurity_improvement, strict >),
    decided exactly: S_L²/n_L + S_R²/n_R."""

    @staticmethod
    def proxy(table):
        return sum(s * s / n for n, s, _ in table)

    def better(self, a, b):
        return self.proxy(a) > self.proxy(b)


def grow_infotree(case):
    from infotree import estimators
    if hasattr(estimators, "CARTRegressor"):
        model = estimators.CARTRegressor().fit(case.X64.tolist(), case.y_text, sample_weight=case.weights)
        return model.tree_, "CARTRegressor()"
    from infotree.growing import build_tree
    return build_tree(case.data, criterion="squared_error", cp=None, min_samples_split=2, min_leaf=1,
                      competitors=0, surrogates=0, sample_weight=case.weights), "build_tree(squared_error, cp=None)"


def walk(case, it_tree, sk):
    """Compare from the roots; returns (facts, differences)."""
    t = sk.tree_
    facts = Counter(sk_nodes=int(t.node_count), it_nodes=sum(1 for _ in it_tree.root.walk()))
    diffs = []
    stack = [(it_tree.root, 0, np.arange(len(case.y)), "")]
    while stack:
        node, k, rows, path = stack.pop()
        n, s, q = case.stats(rows)
        it_n, it_s = (Fraction(node.class_counts[0]), Fraction(node.class_counts[1]))
        if it_n != n or it_s != s or int(t.n_node_samples[k]) != len(rows) or t.weighted_n_node_samples[k] != n:
            diffs.append({"kind": "c", "path": path or "root",
                          "what": f"rows differ: here {len(rows)} rows, Σw={n} Σwy={s}, infotree Σw={it_n} "
                                  f"Σwy={it_s}, scikit-learn {int(t.n_node_samples[k])} rows, "
                                  f"Σw={t.weighted_n_node_samples[k]}"})
            continue
        facts["matched"] += 1
        mean, sse = s / n, q - s * s / n
        if node.mean != mean:
            diffs.append({"kind": "c", "path": path or "root", "what": f"infotree's mean {node.mean} is not {mean}"})
        facts["mean_err"] = max(facts["mean_err"], abs(float(t.value[k].ravel()[0]) - float(mean)) / max(abs(float(mean)), 1.0))
        facts["imp_err"] = max(facts["imp_err"], abs(float(t.impurity[k]) - float(sse / n)))
        sk_cut, it_cut = both_cuts(case, node, t, k, rows)
        if sk_cut is None and it_cut is None:
            continue
        (sk_f, sk_t, sk_left), (it_f, it_t, it_left) = sk_cut or (None,) * 3, it_cut or (None,) * 3
        if sk_cut and it_cut and sk_f == it_f and np.array_equal(sk_left, it_left):
            facts["thr_err"] = max(facts["thr_err"], abs(sk_t - float(it_t)) / max(abs(float(it_t)), 1e-300))
            stack.append((node.children[1], int(t.children_right[k]), rows[~it_left], path + "R"))
            stack.append((node.children[0], int(t.children_left[k]), rows[it_left], path + "L"))
            continue
        d = {"path": path or "root", "n": n, "sse": sse, "sk": None, "it": None,
             "sk_impurity": float(t.impurity[k])}
        if sk_cut:
            d["sk"] = (case.names[sk_f], sk_t, case.decrease(rows, sk_left), case.proxy64(rows, sk_left))
        if it_cut:
            d["it"] = (case.names[it_f], it_t, case.decrease(rows, it_left), case.proxy64(rows, it_left))
        best = case.best_per_feature(rows)
        top = max((b[0] for b in best.values()), default=None)
        d["tied"] = [case.names[j] for j, b in best.items() if b[0] == top]
        d["kind"], d["what"] = classify(d, top)
        diffs.append(d)
        if d["kind"] == "a" and np.array_equal(sk_left, it_left):
            d["same_rows"] = True
            stack.append((node.children[1], int(t.children_right[k]), rows[~it_left], path + "R"))
            stack.append((node.children[0], int(t.children_left[k]), rows[it_left], path + "L"))
    return facts, diffs


def classify(d, top):
    sk, it = d["sk"], d["it"]
    if it is not None and it[2] != top:
        return "c", f"infotree's decrease {it[2]} is not the best, {top}"
    if it is None:
        if sk is not None and (top is None or top <= 0):
            return "r", f"no cut lowers the SSE ({d['sse']}); scikit-learn splits on {sk[0]} <= {sk[1]!r}"
        return "c", f"infotree makes a leaf, the best decrease is {top}"
    if sk is None:
        if d["sk_impurity"] <= EPSILON < d["sse"] / d["n"]:
            return "b", (f"scikit-learn makes a leaf: its impurity in doubles is {d['sk_impurity']!r} "
                         f"<= EPSILON, the exact SSE/n is {d['sse'] / d['n']}")
        return "c", "scikit-learn makes a leaf"
    if sk[2] == it[2]:
        if sk[0] != it[0]:
            return "a", f"exact tie: {sk[0]} and {it[0]} both decrease the SSE by {it[2]}"
        return "b", (f"a tie within {it[0]}: its cuts <= {sk[1]!r} (scikit-learn) and <= {it[1]} (infotree, the "
                     f"lowest) both decrease the SSE by {it[2]}; scikit-learn's proxies in doubles "
                     f"{float(sk[3])!r} against {float(it[3])!r}")
    if sk[2] < it[2]:
        return "b", (f"scikit-learn's {sk[0]} <= {sk[1]!r} decreases the SSE by {sk[2]} = {float(sk[2])!r}, "
                     f"infotree's {it[0]} <= {it[1]} by {it[2]} = {float(it[2])!r}; scikit-learn's proxies "
                     f"in doubles: {float(sk[3])!r} against {float(it[3])!r}")
    return "c", f"scikit-learn's split decreases the SSE by {sk[2]}, more than infotree's {it[2]}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated case names: " + ", ".join(CASES))
    ap.add_argument("--seeds", default="0-9", help="random_state values, e.g. 0-9 or 1,5,7")
    ap.add_argument("--show", action="store_true", help="print every difference, not only the first per seed")
    ap.add_argument("--emulate", action="store_true",
                    help="also grow each seed's tree by scikit-learn's rules in exact arithmetic "
                         "(sklearn_parity.emulate_sklearn) and count the seeds it equals (slow)")
    args = ap.parse_args(argv)
    try:
        import sklearn
        from sklearn.tree import DecisionTreeRegressor
    except ImportError:
        print("scikit-learn is not installed (pip install scikit-learn): nothing compared")
        return 0
    seeds = parse_seeds(args.seeds)
    names = args.only.split(",") if args.only else list(CASES)
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; seeds {args.seeds}")
    summary, bad = [], 0
    for name in names:
        case = Case(name, *CASES[name]())
        t0 = time.process_time()
        it_tree, how = grow_infotree(case)
        it_s = time.process_time() - t0
        print(f"\n{name}: {len(case.y)} rows x {len(case.names)} features; infotree {how} in {it_s:.2f} s, "
              f"{sum(1 for _ in it_tree.root.walk())} nodes")
        same, shapes, kinds, worst, emulated_ok = 0, set(), Counter(), Counter(), 0
        for seed in seeds:
            sk = DecisionTreeRegressor(criterion="squared_error", random_state=seed).fit(
                case.X32, case.y64, sample_weight=None if case.weights is None else case.w64)
            facts, diffs = walk(case, it_tree, sk)
            shapes.add(_shape(sk.tree_))
            # the same seed's draws with every comparison exact: where scikit-learn's tree
            # equals it, rounding decided nothing and its ties are the draw order alone
            parted = agrees(case, sk, emulate_sklearn(case, SquaredErrorProxy(), seed)) if args.emulate else []
            emulated_ok += not parted
            if parted and args.show:
                print(f"    seed {seed}: scikit-learn's tree parts from its exact emulation at "
                      f"{', '.join(parted[:5])}" + (" ..." if len(parted) > 5 else ""))
            same += not diffs
            for key in ("mean_err", "imp_err", "thr_err"):
                worst[key] = max(worst[key], facts[key])
            kinds.update(d["kind"] for d in diffs)
            top = [d for d in diffs if d["kind"] != "a" or not d.get("same_rows")] or diffs
            for d in (diffs if args.show else top[:1]):
                loud = "  !!" if d["kind"] == "c" else "   "
                print(f"{loud} seed {seed}, node {d['path']} (Σw={d['n'] if 'n' in d else '?'}): ({d['kind']}) {d['what']}")
            bad += kinds["c"]
        print(f"  seeds growing infotree's tree: {same} of {len(seeds)}; distinct scikit-learn trees: {len(shapes)}; "
              + (f"equal to their exact emulation: {emulated_ok}; " if args.emulate else "")
              + f"differences {dict(sorted(kinds.items()))}")
        print(f"  matched nodes: mean within {worst['mean_err']:.1e} (relative), impurity within "
              f"{worst['imp_err']:.1e}, threshold within {worst['thr_err']:.1e} (relative)")
        summary.append((name, f"{len(case.y)} x {len(case.names)}", f"{same} / {len(seeds)}", len(shapes),
                        emulated_ok if args.emulate else "-",
                        " ".join(f"{v} {k}" for k, v in sorted(kinds.items())) or "none"))
    print(f"\n{'case':<14} {'rows x features':<16} {'seeds = infotree':<17} {'sklearn trees':<14} "
          f"{'= emulation':<12} differences (a tie, b float, r rule, c other)")
    for row in summary:
        print(f"{row[0]:<14} {row[1]:<16} {row[2]:<17} {row[3]:<14} {row[4]:<12} {row[5]}")
    return 1 if bad else 0


def _shape(t):
    return tuple(zip(t.children_left.tolist(), t.feature.tolist(), np.round(t.threshold, 12).tolist()))


if __name__ == "__main__":
    sys.exit(main())
