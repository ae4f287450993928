#!/usr/bin/env python3
"""Cost-complexity parity (issue 22, item 4): infotree's cp table against rpart's, and its
impurity path against scikit-learn's ``cost_complexity_pruning_path``.

Not part of the test suite and never needed in CI.  rpart's side needs R with rpart
(``Rscript``); scikit-learn's a Python with scikit-learn (``--sklearn-python``, default
``/tmp/skvenv/bin/python``).  A side whose tool is missing is skipped with a note.

rpart: for every case (an R data set exported as ``rpart_parity.py`` exports it, rows
rpart drops left out, and rpart's controls with cp = 0), infotree grows the tree with the
same controls and prints ``cptable``'s columns; rpart fits with ``xval`` = the fold of
every row as ``infotree.folds.assign`` deals them (``--folds``, ``--seed``), so xerror and
xstd are computed on the same folds.  CP, rel error, xerror and xstd must agree within
1e-9 relatively (1e-12 absolutely near 0: rpart's doubles), nsplit exactly.

scikit-learn: ``DecisionTreeClassifier`` / ``DecisionTreeRegressor(random_state=0)`` on
numeric data sets against ``CARTClassifier().cost_complexity_pruning_path`` (regression:
the tree grown by ``build_tree(criterion="squared_error", cp=None)`` and its impurity
path); the trees must have the same number of leaves (scikit-learn breaks exact ties
between features at random), then every α and impurity agrees within 1e-9 relatively or
1e-12 absolutely.

    python3 benchmarks/cp_parity.py                 # both sides
    python3 benchmarks/cp_parity.py --only kyphosis --show
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
import rpart_parity  # noqa: E402
from rpart_parity import DATASETS, controls_of, exported  # noqa: E402

from infotree.complexity import cp_table, pruning_path  # noqa: E402
from infotree.data import load  # noqa: E402
from infotree.folds import assign  # noqa: E402
from infotree.growing import build_tree, fold_grower  # noqa: E402

RTOL, ATOL = 1e-9, 1e-12
CASES = [
    ("kyphosis", {"cp": "0"}),
    ("kyphosis", {"cp": "0", "minsplit": "2", "minbucket": "1"}),
    ("kyphosis", {"cp": "0", "split": "information"}),
    ("iris", {"cp": "0"}),
    ("iris", {"cp": "0", "minsplit": "2", "minbucket": "1"}),
    ("stagec", {"cp": "0"}),
    ("stagec", {"cp": "0", "minsplit": "10", "minbucket": "3"}),
    ("cu.summary", {"cp": "0"}),
    ("car90", {"cp": "0"}),
    ("solder", {"cp": "0"}),
    ("solder-skips", {"cp": "0"}),
    ("airquality", {"cp": "0"}),
    ("airquality", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    # issue 35: rpart's cost = (the cp table of a tree ranked by scaled improvements, the fold
    # trees grown with the same costs) and every predictor a factor (--categorical all)
    ("pima", {"cp": "0", "cost": "glu=2"}),
    ("rock", {"cp": "0", "minsplit": "6", "cost": "area=2,peri=1.25"}),
    ("birthwt", {"cp": "0", "minsplit": "10", "allfactors": "1"}),
]
SKLEARN = [("kyphosis", "class"), ("iris", "class"), ("airquality", "regression"), ("stagec", "class")]


def close(a, b) -> bool:
    return abs(a - b) <= max(ATOL, RTOL * max(abs(a), abs(b)))


def infotree_table(csv_path, name, controls, folds, seed):
    target, method, factors = DATASETS[name]
    data = load(csv_path, target=target, on_missing="keep", numeric="auto",
                categorical="all" if controls.get("allfactors") else factors)
    crit = "squared_error" if method == "anova" else {"gini": "gini", "information": "entropy"}[controls["split"]]
    opts = dict(criterion=crit, min_samples_split=int(controls["minsplit"]), min_leaf=int(controls["minbucket"]),
                max_depth=int(controls["maxdepth"]), competitors=int(controls["maxcompete"]),
                surrogates=int(controls["maxsurrogate"]), use_surrogate=int(controls["usesurrogate"]),
                surrogate_style=int(controls["surrogatestyle"]))
    if controls.get("cost"):
        opts["cost"] = dict(pair.split("=") for pair in controls["cost"].split(","))
    cp = Fraction(controls["cp"])
    tree = build_tree(data, cp=cp, **opts)
    table = cp_table(tree, cp=cp, data=data, grow=fold_grower(**opts), folds=folds, seed=seed, sequence="rpart")
    return data, table


def rpart_table(rscript, csv_path, name, controls, groups):
    target, method, factors = DATASETS[name]
    with tempfile.TemporaryDirectory() as tmp:
        gfile, out = Path(tmp) / "groups.txt", Path(tmp) / "fit.json"
        gfile.write_text("".join(f"{g}\n" for g in groups))
        args = [rscript, str(rpart_parity.DUMP), "fit", str(csv_path), str(out), f"target={target}",
                f"method={method}", f"xgroups={gfile}"] + [f"{k}={v}" for k, v in controls.items()]
        if controls.get("allfactors"):
            with open(csv_path, newline="") as fh:
                factors = tuple(c for c in next(csv.reader(fh)) if c != target)
        if factors:
            args.append("factors=" + ",".join(factors))
        rpart_parity.run(args)
        fit = json.loads(out.read_text())
    return fit, [[float(r[0]), int(r[1])] + [float(x) for x in r[2:]] for r in fit["cptable"]]


def compare_rpart(rscript, args) -> tuple[int, int]:
    same = differ = 0
    for name, overrides in CASES:
        if args.only and name not in args.only and name.split("-")[0] not in args.only:
            continue
        controls = controls_of(overrides)
        label = rpart_parity.case_label(name, overrides)
        csv_path, dropped = exported(rscript, name)
        data, table = infotree_table(csv_path, name, controls, args.folds, args.seed)
        groups = assign(data.y, args.folds, args.seed,
                        stratify=not table.path.tree.criterion.regression).tolist()
        fit, ref = rpart_table(rscript, csv_path, name, controls, groups)
        ours = [[float(r.cp), r.nsplit, float(r.rel_error), float(r.xerror), float(r.xstd)] for r in table.rows]
        problems = []
        if len(ref) != len(ours):
            problems.append(f"rows: rpart {len(ref)}, infotree {len(ours)}")
        for i, (a, b) in enumerate(zip(ref, ours), 1):
            for col, x, y in zip(("CP", "nsplit", "rel error", "xerror", "xstd"), a, b):
                if (x != y) if col == "nsplit" else not close(x, y):
                    problems.append(f"row {i} {col}: rpart {x!r}, infotree {y!r} "
                                    f"(exact {_exact(table.rows[i - 1], col)})")
        status = "same" if not problems else "DIFFERENT"
        same += not problems
        differ += bool(problems)
        print(f"{label}: {len(data.y)} rows{f' ({dropped} dropped as rpart does)' if dropped else ''}, "
              f"{len(ours)} cp rows, {args.folds} folds seed {args.seed}: {status}")
        if args.show or problems:
            print(f"    {'CP':>12} {'nsplit':>6} {'rel error':>12} {'xerror':>12} {'xstd':>12}   exact CP (infotree)")
            for a, r in zip(ref, table.rows):
                print(f"    {a[0]:12.8g} {a[1]:6d} {a[2]:12.8g} {a[3]:12.8g} {a[4]:12.8g}   {r.cp}")
        for p in problems:
            print("    " + p)
        if problems and args.diagnose:
            diagnose(rscript, csv_path, name, controls, groups, args.folds)
        if table.other is not None:
            print("    the exact weakest-link sequence differs from rpart's bookkeeping here:")
            for r in table.other:
                print(f"      CP {r.cp} (alpha {r.alpha}), nsplit {r.nsplit}, rel error {r.rel_error}")
            print("      rpart's: " + "; ".join(f"CP {r.cp}, nsplit {r.nsplit}" for r in table.rows))
    return same, differ


def diagnose(rscript, csv_path, name, controls, groups, folds):
    """Which fold's tree rpart grows otherwise: each fold's training rows fitted by rpart and
    by the exact emulator of docs/cart_rules.md (infotree's CART grows the emulator's trees),
    node by node, each divergence evaluated exactly (rpart_parity.py's comparison).  The fold's
    rows are written to a CSV of their own, so a categorical column's levels are numbered by
    first appearance among them, which may differ from the whole file's order rpart's xval
    uses: a tie rpart breaks by level order can show here and not in xval, or the reverse."""
    with open(csv_path, newline="") as fh:
        rows = list(csv.reader(fh))
    for f in range(1, folds + 1):
        sub = csv_path.with_suffix(f".fold{f}of{folds}.csv")
        with open(sub, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(rows[0])
            w.writerows(r for r, g in zip(rows[1:], groups) if g != f)
        fit = rpart_parity.fit_r(rscript, sub, name, controls)
        ref = rpart_parity.r_nodes(fit)
        emu, explain = rpart_parity.emulated_nodes(sub, fit, controls)
        diffs, _ = rpart_parity.compare(ref, emu, "rpart", "exact", check_orientation=True, explain=explain)
        primary = [d for d in diffs if "competitor" not in d and "surrogate" not in d]
        if primary:
            print(f"    fold {f}'s tree (grown without fold {f}): rpart and the exact rules differ:")
            for d in primary[:4]:
                print("      " + d)


def _exact(row, col):
    return {"CP": row.cp, "nsplit": row.nsplit, "rel error": row.rel_error, "xerror": row.xerror,
            "xstd": row.xstd}[col]


SK_SCRIPT = r"""
import csv, json, sys, math
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
path, target, kind = sys.argv[1:4]
rows = list(csv.DictReader(open(path)))
names = [c for c in rows[0] if c != target]
X = [[float(r[c]) for c in names] for r in rows]
y = [r[target] if kind == "class" else float(r[target]) for r in rows]
est = (DecisionTreeClassifier if kind == "class" else DecisionTreeRegressor)(random_state=0)
p = est.cost_complexity_pruning_path(X, y)
est.fit(X, y)
print(json.dumps({"alphas": [repr(float(a)) for a in p.ccp_alphas], "impurities": [repr(float(a)) for a in p.impurities],
                  "leaves": int(est.get_n_leaves())}))
"""


def numeric_csv(rscript, name):
    """The data set with its numeric columns only and no missing cell (scikit-learn's input)."""
    target, method, factors = DATASETS[name]
    path, _ = exported(rscript, name) if rscript else (REPO / "tests" / "data" / f"{name}.csv", 0)
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    keep = [c for c in rows[0] if c == target or (c not in factors and all(_number(r[c]) for r in rows if r[c] != ""))]
    rows = [r for r in rows if all(r[c] != "" for c in keep)]
    out = Path(tempfile.mkdtemp()) / f"{name}.numeric.csv"
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(keep)
        w.writerows([[r[c] for c in keep] for r in rows])
    return out, target, method


def _number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def compare_sklearn(python, rscript, args) -> tuple[int, int]:
    same = differ = 0
    for name, kind in SKLEARN:
        if args.only and name not in args.only:
            continue
        path, target, method = numeric_csv(rscript, name)
        proc = subprocess.run([python, "-c", SK_SCRIPT, str(path), target, kind], capture_output=True, text=True)
        if proc.returncode:
            print(f"{name}: scikit-learn failed: {proc.stderr.strip().splitlines()[-1:]}")
            differ += 1
            continue
        sk = json.loads(proc.stdout)
        data = load(path, target=target, numeric="auto")
        tree = build_tree(data, criterion="gini" if kind == "class" else "squared_error", cp=None,
                          min_samples_split=2, min_leaf=1)
        path_ = pruning_path(tree, "impurity")
        alphas, imps = [Fraction(0)], [path_.tree_risk]
        for step in path_.steps:
            for link in step.links:
                alphas.append(link.alpha)
                imps.append(imps[-1] + link.risk - link.subtree_risk)
        leaves = sum(1 for _ in tree.leaves())
        problems = []
        if leaves != sk["leaves"]:
            problems.append(f"trees differ: scikit-learn {sk['leaves']} leaves, infotree {leaves} "
                            "(scikit-learn breaks exact ties between features at random)")
        elif len(alphas) != len(sk["alphas"]):
            problems.append(f"path lengths: scikit-learn {len(sk['alphas'])}, infotree {len(alphas)}")
        else:
            for i, (a, b, c, d) in enumerate(zip(sk["alphas"], alphas, sk["impurities"], imps)):
                if not close(float(a), float(b)):
                    problems.append(f"alpha {i}: scikit-learn {a}, infotree {b} = {float(b)!r}")
                if not close(float(c), float(d)):
                    problems.append(f"impurity {i}: scikit-learn {c}, infotree {d} = {float(d)!r}")
        same += not problems
        differ += bool(problems)
        print(f"scikit-learn {name} ({kind}, {len(data.y)} rows, {leaves} leaves): {len(alphas)} alphas: "
              f"{'same' if not problems else 'DIFFERENT'}")
        if args.show:
            for a, b, c, d in zip(sk["alphas"], alphas, sk["impurities"], imps):
                print(f"    {float(a):.12g} {str(b):>24}   {float(c):.12g} {str(d):>24}")
        for p in problems[:10]:
            print("    " + p)
    return same, differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="data set name (repeatable)")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print every row")
    ap.add_argument("--diagnose", action="store_true",
                    help="for a differing case, compare each fold's tree with the exact rules (slow)")
    ap.add_argument("--rscript", default=shutil.which("Rscript"))
    ap.add_argument("--sklearn-python", default="/tmp/skvenv/bin/python")
    args = ap.parse_args(argv)
    totals = [0, 0]
    if args.rscript:
        s, d = compare_rpart(args.rscript, args)
        totals[0] += s
        totals[1] += d
    else:
        print("Rscript not found: rpart's side skipped (apt-get install r-base-core r-cran-rpart)")
    if os.path.exists(args.sklearn_python):
        s, d = compare_sklearn(args.sklearn_python, args.rscript, args)
        totals[0] += s
        totals[1] += d
    else:
        print(f"{args.sklearn_python} not found: scikit-learn's side skipped")
    print(f"\n{totals[0]} cases the same, {totals[1]} different")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
