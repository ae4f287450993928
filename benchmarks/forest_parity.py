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

Speed.  Wall seconds of ``fit`` alone for ``--speed-trees`` trees (default 100), with
each ``--jobs`` value given to both tools' ``n_jobs`` (CPU seconds of the process and of
infotree's worker processes beside), in the same run, ``--speed-repeats`` fits of each
alternately (medians; the ratio is the median of the pairs' ratios; goal: at most 1.0),
and the speed-up from the first ``--jobs`` value to the others.  ``--memory``: the peak
resident memory of one fit of each tool in a fresh process (goal: at most 1.5x).

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


def _fit_seconds(fit):
    """(wall, CPU) seconds of fit(): the CPU of this process and of the worker processes it
    waited for (infotree's n_jobs forks them; scikit-learn's are threads of this one)."""
    import resource

    def cpu():
        return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
                   for f in ("ru_utime", "ru_stime"))

    w, c = time.perf_counter(), cpu()
    fit()
    return time.perf_counter() - w, cpu() - c


def speed_cases(args):
    from cart_speed import make_numeric

    Xn, yn = make_numeric(10000)
    Xc, yc = read(DATASETS / "nursery.csv")
    cases = (("numeric: CART forests (gini, √m)", Xn, yn, "gini", Xn, "10,000 x 10"),
             ("nursery: ID3 forest (level-wise) vs one-hot CART", np.array(Xc, dtype=str), yc, "gain", one_hot(Xc),
              "12,960 x 8"))
    return [c for c in cases if c[0].split(":")[0] in args.speed_cases]


def speed(args):
    import os

    from sklearn.ensemble import RandomForestClassifier as SK

    from infotree import RandomForestClassifier

    print(f"\n## Speed: fit of {args.speed_trees} trees, wall seconds (CPU seconds of the process and its "
          f"workers beside), {args.speed_repeats} pairs alternately\n")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| case | rows x features | n_jobs | infotree wall (CPU) | scikit-learn wall (CPU) | ratio of walls (median "
          "of pairs) | goal <= 1.0 |")
    print("|---|---|---:|---:|---:|---:|---|")
    walls = {}
    for name, X, y, criterion, Xs, shape in speed_cases(args):
        for jobs in args.jobs:
            ours, theirs = [], []
            for _ in range(args.speed_repeats):  # alternately, so that both see the same load
                clf = RandomForestClassifier(n_estimators=args.speed_trees, random_state=0, criterion=criterion,
                                             n_jobs=jobs)
                ours.append(_fit_seconds(lambda: clf.fit(X, y)))
                sk = SK(n_estimators=args.speed_trees, random_state=0, max_features="sqrt", n_jobs=jobs)
                theirs.append(_fit_seconds(lambda: sk.fit(Xs, np.array(y))))
            ratio = statistics.median(a[0] / b[0] for a, b in zip(ours, theirs))
            walls[name, jobs] = (statistics.median(a[0] for a in ours), statistics.median(b[0] for b in theirs))
            print(f"| {name} | {shape} | {jobs} | {walls[name, jobs][0]:.2f} ({statistics.median(a[1] for a in ours):.2f}) | "
                  f"{walls[name, jobs][1]:.2f} ({statistics.median(b[1] for b in theirs):.2f}) | {ratio:.2f}x "
                  f"(pairs: {', '.join(f'{a[0] / b[0]:.2f}' for a, b in zip(ours, theirs))}) | "
                  f"{'ok' if ratio <= 1.0 else 'MISS'} |", flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, *_ in speed_cases(args):
        for jobs in args.jobs[1:]:
            (a1, b1), (aj, bj) = walls[name, args.jobs[0]], walls[name, jobs]
            print(f"speed-up {args.jobs[0]} -> {jobs} jobs, {name.split(':')[0]}: infotree {a1 / aj:.2f}x, "
                  f"scikit-learn {b1 / bj:.2f}x")


def memory(args):
    """Peak resident memory of one fit (n_jobs=1) of each tool, each in a fresh process."""
    import json
    import subprocess

    print("\n## Peak memory of a fit, each in a fresh process (ru_maxrss; n_jobs=1)\n")
    print("| case | infotree MiB | scikit-learn MiB | ratio | goal <= 1.5 |")
    print("|---|---:|---:|---:|---|")
    for name, *_ in speed_cases(args):
        peaks = []
        for tool in ("infotree", "sklearn"):
            out = subprocess.run([sys.executable, __file__, "--memory-child", tool, name.split(":")[0],
                                  "--datasets", str(DATASETS),
                                  "--speed-trees", str(args.speed_trees)], capture_output=True, text=True, check=True)
            peaks.append(json.loads(out.stdout.strip().splitlines()[-1]))
        ratio = peaks[0]["peak"] / peaks[1]["peak"]
        print(f"| {name} | {peaks[0]['peak']:.0f} (before the fit {peaks[0]['before']:.0f}) | {peaks[1]['peak']:.0f} "
              f"(before {peaks[1]['before']:.0f}) | {ratio:.2f} | {'ok' if ratio <= 1.5 else 'MISS'} |", flush=True)


def memory_child(args):
    import json

    from sklearn.ensemble import RandomForestClassifier as SK

    from infotree import RandomForestClassifier

    tool, case = args.memory_child
    args.speed_cases = [case]
    (name, X, y, criterion, Xs, shape), = speed_cases(args)
    before = _high_water()
    if tool == "infotree":
        RandomForestClassifier(n_estimators=args.speed_trees, random_state=0, criterion=criterion).fit(X, y)
    else:
        SK(n_estimators=args.speed_trees, random_state=0, max_features="sqrt").fit(Xs, np.array(y))
    print(json.dumps({"peak": _high_water(), "before": before}))


def _high_water() -> float:
    """This process's peak resident memory in MiB (VmHWM: ru_maxrss may still hold the forking parent's)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024


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
    p.add_argument("--jobs", type=lambda t: [int(x) for x in t.split(",")], default=[1, 2],
                   help="n_jobs values, both tools (default 1,2; the first is the speed-ups' base)")
    p.add_argument("--memory", action="store_true", help="also the peak memory of a fit of each tool")
    p.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--datasets", type=Path, default=DATASETS, help="nursery.csv and the parity data (default ../shared/datasets)")
    p.add_argument("--no-parity", action="store_true")
    p.add_argument("--no-speed", action="store_true")
    args = p.parse_args(argv)
    globals()["DATASETS"] = args.datasets
    try:
        import sklearn
    except ImportError:
        print("scikit-learn is not installed: nothing to compare (pip install scikit-learn)")
        return 0
    if args.memory_child:
        memory_child(args)
        return 0
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}\n")
    if not args.no_parity:
        parity(args)
    if not args.no_speed:
        speed(args)
    if args.memory:
        memory(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
