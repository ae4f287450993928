#!/usr/bin/env python3
"""infotree's forests against scikit-learn's RandomForestClassifier (issue 23, item 7).

Not part of the test suite; scikit-learn is a reference (``/tmp/skvenv/bin/python`` here,
``pip install scikit-learn`` elsewhere), never a dependency of infotree.

Parity.  The two tools draw from different random streams, so single forests cannot
be compared; their cross-validated accuracies over many seeds can.  For each data
set the rows are split once into ``--folds`` folds (a permutation from
``numpy.random.default_rng(20261124)``, row i in fold position mod k), the same folds
for both tools; for every forest seed s in ``--seeds`` each tool grows a forest of
``--trees`` trees on each training part and predicts the held-out part, and the
accuracy over all rows is that seed's value.  Matched settings: Gini, √m features
drawn at every node, bootstrap samples of N rows, trees grown whole
(min_samples_leaf 1, no depth limit).  Printed: mean, standard deviation, minimum
and maximum over the seeds, and whether the two means differ by less than twice
their standard error (|Δ| < 2·√(s_i²/S + s_k²/S)).

* ``diabetes`` (768 x 8 numeric) and ``iris`` (150 x 4 numeric): matched exactly as
  above (infotree reads a cell from its text, exactly; scikit-learn as float32).
* ``car`` (1,728 x 6 nominal): infotree's CART splits a nominal feature into a subset
  of its values against the rest; scikit-learn gets one-hot columns (one value against
  the rest), so √m is √6 for infotree and √21 for scikit-learn: related, not identical.
  ``car one-hot``: both tools on the same 21 one-hot 0/1 columns (matched).

Speed.  CPU seconds of ``fit`` alone for ``--speed-trees`` trees (default 100), one
process, scikit-learn with ``n_jobs=1``, in the same run, ``--speed-repeats`` fits of each
alternately (medians; the ratio is the median of the pairs' ratios):

* ``numeric``: 10,000 x 10 numeric rows, 3 classes (``cart_speed.make_numeric``): CART
  forests on both sides;
* ``nursery`` (12,960 x 8 nominal): infotree's ID3 forest (one branch per value, the
  level-wise builder) against scikit-learn's on one-hot columns: different trees,
  the same task.  Each tool gets its array made before the clock starts: the one-hot
  0/1 matrix for scikit-learn, a numpy array of the value strings for infotree (as
  ``cart_speed.py`` gives connect-4).

    /tmp/skvenv/bin/python benchmarks/forest_parity.py                  # about 5 minutes here
    /tmp/skvenv/bin/python benchmarks/forest_parity.py --no-speed --seeds 0-2 --trees 10
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
DATASETS = REPO.parent / "shared" / "datasets"
FOLD_SEED = 20261124


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return [r[:-1] for r in rows[1:]], [r[-1] for r in rows[1:]]


def folds(n, k):
    order = np.random.default_rng(FOLD_SEED).permutation(n)
    fold = np.empty(n, dtype=int)
    fold[order] = np.arange(n) % k
    return fold


def one_hot(X):
    cols = []
    for j in range(len(X[0])):
        values = sorted({r[j] for r in X})
        cols += [[1.0 if r[j] == v else 0.0 for r in X] for v in values]
    return np.array(cols).T


def cv_infotree(X, y, fold, k, seed, trees, numeric):
    from infotree import RandomForestClassifier

    right = 0
    for f in range(k):
        train = [i for i in range(len(y)) if fold[i] != f]
        test = [i for i in range(len(y)) if fold[i] == f]
        clf = RandomForestClassifier(n_estimators=trees, random_state=seed, numeric=numeric)
        clf.fit([X[i] for i in train], [y[i] for i in train])
        right += sum(p == y[i] for p, i in zip(clf.predict([X[i] for i in test]), test))
    return Fraction(right, len(y))


def cv_sklearn(Xs, y, fold, k, seed, trees):
    from sklearn.ensemble import RandomForestClassifier

    y = np.array(y)
    right = 0
    for f in range(k):
        tr, te = fold != f, fold == f
        clf = RandomForestClassifier(n_estimators=trees, random_state=seed, max_features="sqrt", n_jobs=1)
        clf.fit(Xs[tr], y[tr])
        right += int((clf.predict(Xs[te]) == y[te]).sum())
    return right / len(y)


def summary(values):
    v = [float(x) for x in values]
    return statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0.0, min(v), max(v)


def parity(args):
    print(f"## Parity: {args.folds}-fold CV accuracy, {args.trees} trees, seeds {args.seeds[0]}-{args.seeds[-1]}\n")
    print("| data | tool | mean | sd | min | max | within 2 SE |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, numeric in (("iris", "auto"), ("diabetes", "auto"), ("car", None), ("car one-hot", "auto")):
        path = DATASETS / ("mixed" if name in ("iris", "diabetes") else "") / f"{name.split()[0]}.csv"
        X, y = read(path)
        fold = folds(len(y), args.folds)
        Xs = np.array(X, dtype=float) if numeric and name != "car one-hot" else one_hot(X)
        if name == "car one-hot":  # matched: both tools on the same 0/1 columns
            X = [[str(int(v)) for v in row] for row in Xs.tolist()]
        t0 = time.process_time()
        ours = [cv_infotree(X, y, fold, args.folds, s, args.trees, numeric) for s in args.seeds]
        t1 = time.process_time()
        theirs = [cv_sklearn(Xs, y, fold, args.folds, s, args.trees) for s in args.seeds]
        t2 = time.process_time()
        a, b = summary(ours), summary(theirs)
        se = math.sqrt(a[1] ** 2 / len(ours) + b[1] ** 2 / len(theirs))
        within = abs(a[0] - b[0]) < 2 * se if se else a[0] == b[0]
        delta = f"{'yes' if within else 'NO'} (Δ = {a[0] - b[0]:+.4f}, 2 SE = {2 * se:.4f})"
        print(f"| {name} | infotree | {a[0]:.4f} | {a[1]:.4f} | {a[2]:.4f} | {a[3]:.4f} | {delta} |")
        print(f"| {name} | scikit-learn | {b[0]:.4f} | {b[1]:.4f} | {b[2]:.4f} | {b[3]:.4f} | |")
        print(f"<!-- {name}: infotree {t1 - t0:.1f} s CPU, scikit-learn {t2 - t1:.1f} s CPU; infotree exact: "
              f"{', '.join(str(x) for x in ours)} -->", flush=True)


def speed(args):
    from sklearn.ensemble import RandomForestClassifier as SK

    from cart_speed import make_numeric
    from infotree import RandomForestClassifier

    print(f"\n## Speed: fit of {args.speed_trees} trees, CPU seconds, one process\n")
    print("| case | rows x features | infotree (median s) | scikit-learn, n_jobs=1 (median s) | ratio (median) |")
    print("|---|---|---:|---:|---:|")
    Xn, yn = make_numeric(10000)
    Xc, yc = read(DATASETS / "nursery.csv")
    cases = (("numeric: CART forests (gini, √m)", Xn, yn, "gini", Xn, "10,000 x 10"),
             ("nursery: ID3 forest (level-wise) vs one-hot CART", np.array(Xc, dtype=str), yc, "gain", one_hot(Xc),
              "12,960 x 8"))
    for name, X, y, criterion, Xs, shape in cases:
        if name.split(":")[0] not in args.speed_cases:
            continue
        ours, theirs = [], []
        for _ in range(args.speed_repeats):  # alternately, so that both see the same load
            clf = RandomForestClassifier(n_estimators=args.speed_trees, random_state=0, criterion=criterion)
            t = time.process_time()
            clf.fit(X, y)
            ours.append(time.process_time() - t)
            sk = SK(n_estimators=args.speed_trees, random_state=0, max_features="sqrt", n_jobs=1)
            t = time.process_time()
            sk.fit(Xs, np.array(y))
            theirs.append(time.process_time() - t)
        ratio = statistics.median(a / b for a, b in zip(ours, theirs))
        print(f"| {name} | {shape} | {statistics.median(ours):.2f} | {statistics.median(theirs):.2f} | "
              f"{ratio:.2f}x (pairs: {', '.join(f'{a / b:.2f}' for a, b in zip(ours, theirs))}) |", flush=True)


def seeds(text):
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=seeds, default=seeds("0-4"), help="forest seeds, a-b (default 0-4)")
    p.add_argument("--trees", type=int, default=20, help="trees per CV forest (default 20)")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--speed-trees", type=int, default=100)
    p.add_argument("--speed-repeats", type=int, default=3, help="fits of each tool, alternately (median ratio)")
    p.add_argument("--speed-cases", type=lambda t: t.split(","), default=["numeric", "nursery"],
                   help="numeric,nursery (default both)")
    p.add_argument("--no-parity", action="store_true")
    p.add_argument("--no-speed", action="store_true")
    args = p.parse_args(argv)
    try:
        import sklearn
    except ImportError:
        print("scikit-learn is not installed: nothing to compare (pip install scikit-learn)")
        return 0
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}\n")
    if not args.no_parity:
        parity(args)
    if not args.no_speed:
        speed(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
