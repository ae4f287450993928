#!/usr/bin/env python3
"""CART fit time, infotree against scikit-learn, in one run (issue 20, item 9).

Not part of the test suite; scikit-learn is a reference (``pip install scikit-learn``),
never a dependency of infotree.  Data:

* ``numeric``: seeded synthetic rows x 10 numeric features (normal values with 3
  decimals, as measurements are written), 3 classes from a planted rule of four
  features with 10 % label noise; the goal is infotree <= 2x scikit-learn at >= 10^5 rows;
* ``connect-4`` (``../shared/datasets/connect-4.csv``, 67,557 rows x 42 nominal features of
  3 values, 3 classes): infotree splits each feature into a subset of its values against
  the rest (2^(3-1) - 1 = 3 subsets) and gets the letters as a numpy array of str;
  scikit-learn gets it one-hot encoded (126 columns); the goal is infotree no slower.

Timed: ``infotree.CARTClassifier().fit(X, y)`` (gini, grown fully; it reads the arrays
into exact values and grows with build_tree's defaults: 4 competitors and 5 surrogates a
node) and ``sklearn.tree.DecisionTreeClassifier(random_state=0).fit(X, y)`` on the same
arrays (connect-4: on the one-hot matrix; the encoding is timed apart).  Each infotree
fit runs in a fresh child process with a time cap (``--cap``; a fit stopped there is
reported as "> cap" and its ratio as a lower bound); scikit-learn runs in this process.
Times are CPU seconds of the fit alone (medians over the repeats; wall seconds beside),
because the machine is shared: the load average is printed at every round.  The rounds
alternate: an infotree fit (5 surrogates), one with ``--surrogates N`` if given, and
scikit-learn's fits, ``--repeats`` times; a ratio is the median of the rounds' ratios, and
the table prints issue 37's goals (at >= 10^5 rows: <= 1.0x with 5 surrogates, <= 0.8x
without; connect-4 below 1x; ``--memory``: peak memory <= 1.5x scikit-learn's, each fit in a
fresh process) with ok / MISS.

``--profile N`` runs cProfile on one infotree fit at N numeric rows and prints where the
time goes (functions by own time, and infotree's modules by own time).

    python3 benchmarks/cart_speed.py                               # the default plan (~15 min here)
    python3 benchmarks/cart_speed.py --rows 1000,10000 --repeats 3 --no-connect4
    python3 benchmarks/cart_speed.py --only-profile --profile 10000
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
CONNECT4 = REPO.parent / "shared" / "datasets" / "connect-4.csv"
SEED = 20261124


def make_numeric(n, seed=SEED, m=10):
    """n rows x m features (10: see the module docstring; the rule reads the first four)
    and 3 classes, seeded."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, m)), 3)
    score = X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - X[:, 3]
    y = np.digitize(score, [-0.5, 0.5])
    flip = rng.random(n) < 0.10
    y[flip] = rng.integers(0, 3, size=int(flip.sum()))
    return X, y


def make_regression(n, seed=SEED):
    """The numeric rows, and a numeric target: the planted score plus noise, 3 decimals."""
    X, _ = make_numeric(n, seed)
    rng = np.random.default_rng(seed + 1)
    y = np.round(X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - X[:, 3] + 0.3 * rng.normal(size=n), 3)
    return X, y


def read_connect4(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    X = [r[:-1] for r in rows[1:]]
    y = [r[-1] for r in rows[1:]]
    return X, y


def data_for(kind, n, path):
    if kind == "numeric":
        return make_numeric(n)
    if kind == "regression":
        return make_regression(n)
    if kind.startswith("wide"):   # wide<m>: m numeric columns
        return make_numeric(n, m=int(kind[4:]))
    X, y = read_connect4(path)
    return X, y


# -- the child: one infotree fit ------------------------------------------------------------

def child(kind, n, path, profile_out=None, surrogates=None):
    import infotree
    from infotree.data import from_arrays

    X, y = data_for(kind, n, path)
    # Arrays, as scikit-learn gets them: floats, or connect-4's letters (numpy str)
    X = np.asarray(X)
    regression = kind == "regression"
    labels = y if regression else np.array([str(v) for v in (y.tolist() if hasattr(y, "tolist") else y)])
    c0 = time.process_time()
    from_arrays(X, labels, numeric="auto", target="class")
    read_s = time.process_time() - c0
    clf = infotree.CARTRegressor() if regression else infotree.CARTClassifier()
    # infotree imports the tree builders on first use; scikit-learn's are imported before its
    # clock starts, so these are too: a fit of a few rows, untimed (about 35 ms of imports).
    clf.fit(X[:50], labels[:50])
    # ... and the compiled loops (numba, infotree[fast]) loaded where the fit will take them
    # (numba's import and its cached machine code: about 0.7 s once a process), as
    # scikit-learn's compiled code is loaded before its clock starts.
    from infotree.grow import kernels

    if X.dtype.kind == "f" and kernels.active(X.size):
        warm = kernels.MIN_CELLS // X.shape[1] + 1
        clf.fit(X[:warm], labels[:warm])

    def fit():
        if surrogates is None:
            return clf.fit(X, labels).tree_
        # the estimator's fit: its two steps, with another number of surrogates per node
        data = from_arrays(X, labels, numeric="auto", target="class")
        return infotree.build_tree(data, criterion="squared_error" if regression else "gini", min_leaf=1,
                                   surrogates=surrogates)

    before = high_water()
    w0, c0 = time.perf_counter(), time.process_time()
    if profile_out:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
        tree = fit()
        prof.disable()
        prof.dump_stats(profile_out)
    else:
        tree = fit()
    cpu, wall, peak = time.process_time() - c0, time.perf_counter() - w0, high_water()
    # (counted after the fit's peak is read: a walk makes the nodes a fast-built tree keeps
    # as arrays, infotree.grow.packed, as a printout or a prediction of every row would)
    nodes = sum(1 for _ in tree.root.walk())
    print(json.dumps({"cpu": cpu, "wall": wall, "read": read_s, "nodes": nodes, "peak_mib": peak, "before_mib": before}))


def high_water() -> float:
    """This process's peak resident memory in MiB: VmHWM (ru_maxrss can hold the forking parent's)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024


def sklearn_child(kind, n, path):
    """One scikit-learn fit in a fresh process, for its peak memory (the arrays as the infotree child has them)."""
    X, y = data_for(kind, n, path)
    if kind == "connect-4":
        X, _ = one_hot(X)
    X = np.asarray(X)
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    before = high_water()
    c0 = time.process_time()
    (DecisionTreeRegressor(random_state=0) if kind == "regression" else DecisionTreeClassifier(random_state=0)).fit(X, y)
    print(json.dumps({"cpu": time.process_time() - c0, "peak_mib": high_water(), "before_mib": before}))


def run_child(kind, n, path, cap, profile_out=None, surrogates=None, tool="infotree"):
    cmd = [sys.executable, __file__, "--child" if tool == "infotree" else "--sklearn-child", kind, str(n),
           "--connect4", str(path)]
    if profile_out:
        cmd += ["--profile-out", profile_out]
    if surrogates is not None:
        cmd += ["--surrogates", str(surrogates)]
    w0, used0 = time.perf_counter(), _children_cpu()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        # subprocess.run kills and reaps the child: its CPU time is in RUSAGE_CHILDREN
        # (data generation included), a lower bound on the fit's
        return {"capped": True, "wall": time.perf_counter() - w0, "cpu_at_cap": _children_cpu() - used0}
    except subprocess.CalledProcessError as e:
        sys.exit(f"infotree child failed: {e.stderr.strip().splitlines()[-1] if e.stderr else e}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _children_cpu():
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# -- scikit-learn, in this process ------------------------------------------------------------

def sklearn_fits(X, y, repeats, regression=False):
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    out = []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        clf = (DecisionTreeRegressor(random_state=0) if regression
               else DecisionTreeClassifier(criterion="gini", random_state=0)).fit(X, y)
        out.append({"cpu": time.process_time() - c0, "wall": time.perf_counter() - w0,
                    "nodes": int(clf.tree_.node_count)})
    return out


def one_hot(X):
    from sklearn.preprocessing import OneHotEncoder

    c0 = time.process_time()
    H = OneHotEncoder(sparse_output=False, dtype=np.float32).fit_transform(np.array(X, dtype=object))
    return H, time.process_time() - c0


# -- reporting ------------------------------------------------------------------------------

def med(runs, key):
    vals = [r[key] for r in runs if not r.get("capped")]
    return statistics.median(vals) if vals else None


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(name, kind, n, path, repeats, sk_repeats, cap, rows_out, surrogates=None, memory=False):
    """``repeats`` rounds, each an infotree fit (a fresh process) with rpart's 5 surrogates,
    one with ``surrogates`` (if given) and a scikit-learn fit (in this process), one after
    the other, so that each pair sees the same load; ratios are medians of the pairs'."""
    X, y = data_for(kind, n, path)
    extra = ""
    if kind == "connect-4":
        Xs, enc_s = one_hot(X)
        extra = f"; one-hot encoding {enc_s:.2f} s CPU ({Xs.shape[1]} columns), not in the fit time"
        n = len(y)
    else:
        Xs = X
    variants = [None] + ([surrogates] if surrogates is not None else [])
    runs = {v: [] for v in variants}
    sk = []
    loads = [load()]
    for _ in range(repeats):
        for v in variants:
            runs[v].append(run_child(kind, n, path, cap, surrogates=v))
        sk += sklearn_fits(Xs, y, max(1, sk_repeats // repeats), regression=kind == "regression")
        loads.append(load())
    sk_mem = run_child(kind, n, path, cap, tool="sklearn") if memory else None
    for v in variants:
        it = runs[v]
        capped = [r for r in it if r.get("capped")]
        label = name if v is None else f"{name} (surrogates {v})"
        per = max(1, sk_repeats // repeats)
        pairs = [r["cpu"] / statistics.median(s_["cpu"] for s_ in sk[i * per:(i + 1) * per])
                 for i, r in enumerate(it) if not r.get("capped")]
        it_cpu, sk_cpu = med(it, "cpu"), med(sk, "cpu")
        row = {"data": label, "rows": n, "surrogates": 5 if v is None else v, "infotree_cpu": it_cpu,
               "infotree_peak_mib": med(it, "peak_mib"), "infotree_wall": med(it, "wall"),
               "infotree_read": med(it, "read"), "infotree_runs": len(it) - len(capped), "capped": bool(capped),
               "sklearn_cpu": sk_cpu, "sklearn_wall": med(sk, "wall"), "sklearn_runs": len(sk),
               "infotree_nodes": next((r["nodes"] for r in it if not r.get("capped")), None),
               "sklearn_nodes": sk[0]["nodes"], "pairs": pairs, "loads": loads,
               "sklearn_peak_mib": sk_mem["peak_mib"] if sk_mem else None}
        row["ratio"] = statistics.median(pairs) if pairs else None
        rows_out.append(row)
        if capped and it_cpu is None:
            row["cpu_at_cap"] = capped[0]["cpu_at_cap"]
            print(f"  {label} {n} rows: infotree stopped at the cap ({cap:.0f} s wall, {row['cpu_at_cap']:.0f} s "
                  f"CPU) -> ratio > {row['cpu_at_cap'] / sk_cpu:.0f}; scikit-learn {sk_cpu:.3f} s CPU", flush=True)
            continue
        mem = (f"; peak {row['infotree_peak_mib']:.0f} MiB against scikit-learn's {row['sklearn_peak_mib']:.0f}"
               if sk_mem else f"; peak {row['infotree_peak_mib']:.0f} MiB")
        print(f"  {label} {n} rows: infotree {it_cpu:.2f} s CPU (median of {row['infotree_runs']}; wall "
              f"{row['infotree_wall']:.2f}; reading into exact values {row['infotree_read']:.2f}{mem}), "
              f"{row['infotree_nodes']} nodes; scikit-learn {sk_cpu:.3f} s CPU (median of {len(sk)}; wall "
              f"{row['sklearn_wall']:.3f}), {row['sklearn_nodes']} nodes; ratio {row['ratio']:.2f}x (pairs "
              f"{', '.join(f'{p:.2f}' for p in pairs)}; load {' / '.join(loads)}){extra}", flush=True)


def profile(n, path, top):
    import pstats

    out = str(REPO / "benchmarks" / ".results" / f"cart_profile_{n}.prof")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    r = run_child("numeric", n, path, None, profile_out=out)
    print(f"\ncProfile of one infotree fit at {n} numeric rows x 10 ({r['cpu']:.1f} s CPU under the profiler, "
          f"{r['nodes']} nodes); saved to {out}")
    st = pstats.Stats(out)
    total = sum(v[2] for v in st.stats.values())
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])
    print(f"  functions by own time (cProfile's default clock is wall time, so under load the seconds are\n"
          f"  inflated and the shares are what to read; total {total:.1f} s):")
    print(f"    {'own s':>7} {'own %':>6} {'cum s':>7} {'calls':>10}  function")
    for (file, line, fn), (cc, nc, tt, ct, _) in rows[:top]:
        print(f"    {tt:7.2f} {100 * tt / total:5.1f}% {ct:7.2f} {nc:10d}  {_short(file)}:{line} {fn}")
    by_module = {}
    for (file, _, _), (_, _, tt, _, _) in st.stats.items():
        key = _short(file).split(":")[0]
        by_module[key] = by_module.get(key, 0) + tt
    print("  own time by module:")
    for mod, tt in sorted(by_module.items(), key=lambda kv: -kv[1])[:12]:
        print(f"    {tt:7.2f} {100 * tt / total:5.1f}%  {mod}")
    cum = {fn: ct for (file, _, fn), (_, _, _, ct, _) in st.stats.items() if "infotree" in file}
    keys = ["grow", "candidates", "best_cut", "best_subset", "best_threshold", "cut_key", "table", "partition",
            "surrogates", "find_surrogates", "class_counts", "from_arrays", "choose"]
    print("  cumulative time of the builder's steps (nested: they overlap):")
    for k in keys:
        if k in cum:
            print(f"    {cum[k]:7.2f} {100 * cum[k] / total:5.1f}%  {k}")


def _short(file):
    for marker in ("/infotree/", "/site-packages/", "/lib/python3"):
        if marker in file:
            return file.split(marker, 1)[1] if marker != "/infotree/" else "infotree/" + file.split(marker, 1)[1]
    return file


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="1000,10000,100000", help="numeric sizes, comma-separated (\"\": none)")
    ap.add_argument("--repeats", type=int, default=3, help="infotree fits per size (each in a child process)")
    ap.add_argument("--sk-repeats", type=int, default=5)
    ap.add_argument("--cap", type=float, default=300, help="seconds (wall) an infotree fit may take")
    ap.add_argument("--total", type=float, default=600,
                    help="seconds of infotree numeric fitting after which no larger size is started")
    ap.add_argument("--connect4", type=Path, default=CONNECT4)
    ap.add_argument("--wide", default="", help="wide numeric data, ROWSxCOLUMNS comma-separated (such as "
                    "10000x1000; the scaling table's columns)")
    ap.add_argument("--regression", default="", help="numeric sizes for regression (CARTRegressor against "
                    "DecisionTreeRegressor), comma-separated; none by default")
    ap.add_argument("--no-connect4", action="store_true")
    ap.add_argument("--c4-repeats", type=int, default=1)
    ap.add_argument("--profile", type=int, default=10000, help="numeric rows to profile (0: none)")
    ap.add_argument("--only-profile", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--json", type=Path, default=REPO / "benchmarks" / ".results" / "cart_speed.json")
    ap.add_argument("--child", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--profile-out", help=argparse.SUPPRESS)
    ap.add_argument("--sklearn-child", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--memory", action="store_true", help="also scikit-learn's peak memory (one fit in a fresh "
                    "process) against infotree's (goal: at most 1.5x)")
    ap.add_argument("--surrogates", type=int, help="also time infotree with this many surrogates a node "
                    "(build_tree; CARTClassifier keeps 5)")
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]), args.connect4, args.profile_out, args.surrogates)
        return 0
    if args.sklearn_child:
        sklearn_child(args.sklearn_child[0], int(args.sklearn_child[1]), args.connect4)
        return 0
    try:
        import sklearn
    except ImportError:
        print("scikit-learn is not installed (pip install scikit-learn): nothing to compare")
        return 0
    t0 = time.perf_counter()
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs; load average {load()}")
    rows = []
    if not args.only_profile:
        spent = 0.0
        for n in (int(x) for x in args.rows.split(",") if x):
            if spent > args.total:
                print(f"  numeric {n} rows: not started ({spent:.0f} s of infotree fitting spent, --total {args.total:.0f})")
                continue
            w = time.perf_counter()
            measure("numeric", "numeric", n, args.connect4, args.repeats, args.sk_repeats, args.cap, rows,
                    surrogates=args.surrogates, memory=args.memory)
            spent += time.perf_counter() - w
        for shape in (x for x in args.wide.split(",") if x):
            n, m = (int(v) for v in shape.split("x"))
            measure(f"numeric x {m} columns", f"wide{m}", n, args.connect4, args.repeats, args.sk_repeats, args.cap,
                    rows, surrogates=args.surrogates, memory=args.memory)
        for n in (int(x) for x in args.regression.split(",") if x):
            measure("regression", "regression", n, args.connect4, args.repeats, args.sk_repeats, args.cap, rows,
                    surrogates=args.surrogates, memory=args.memory)
        if not args.no_connect4:
            if args.connect4.exists():
                measure("connect-4", "connect-4", None, args.connect4, args.c4_repeats, args.sk_repeats, args.cap,
                        rows, surrogates=args.surrogates, memory=args.memory)
            else:
                print(f"  connect-4: {args.connect4} not found (--connect4 PATH)")
    if args.profile:
        profile(args.profile, args.connect4, args.top)
    print(f"\nload average {load()}; {time.perf_counter() - t0:.0f} s in all")
    if rows:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))
        print("\n| data | rows | surrogates | infotree s (CPU, median) | scikit-learn s | ratio (median of pairs) | goal "
              "| peak MiB infotree / scikit-learn | nodes (infotree / sklearn) |")
        print("|---|---:|---:|---:|---:|---:|---|---|---|")
        for r in rows:
            big = r["data"].startswith(("numeric", "regression")) and r["rows"] >= 10**5
            limit = ((1.0 if r["surrogates"] else 0.8) if big
                     else (1.0 if r["data"].startswith("connect-4") else None))
            capped = r["infotree_cpu"] is None
            it = f"> {r['cpu_at_cap']:.0f} (stopped)" if capped else f"{r['infotree_cpu']:.2f}"
            ratio = f"> {r['cpu_at_cap'] / r['sklearn_cpu']:.0f}" if capped else f"{r['ratio']:.2f}"
            goal = "" if limit is None else f"<= {limit}: {'ok' if not capped and r['ratio'] <= limit else 'MISS'}"
            mem = ""
            if r.get("sklearn_peak_mib") and not capped:
                m = r["infotree_peak_mib"] / r["sklearn_peak_mib"]
                mem = (f"{r['infotree_peak_mib']:.0f} / {r['sklearn_peak_mib']:.0f} = {m:.2f} "
                       f"(<= 1.5: {'ok' if m <= 1.5 else 'MISS'})")
            print(f"| {r['data']} | {r['rows']} | {r['surrogates']} | {it} | {r['sklearn_cpu']:.3f} | {ratio} | {goal} | "
                  f"{mem} | {r['infotree_nodes']} / {r['sklearn_nodes']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
