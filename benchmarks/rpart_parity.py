#!/usr/bin/env python3
"""Compare infotree's CART trees with R's rpart, node by node (issue 20, item 7).

Not part of the test suite and never needed in CI: it needs R with rpart (Debian:
``apt-get install r-base-core r-cran-rpart``).  Without ``Rscript`` it prints why and
exits 0.  Standard library, plus infotree's own dependencies for reading its output.

For every case (a data set shipped with R and a set of rpart controls) it

* asks R to write the data set as CSV (``benchmarks/rpart_dump.R export``) into
  ``benchmarks/.rpart_cache/`` (gitignored), then drops the rows rpart's ``na.rpart``
  drops (missing response, or every predictor missing) so both tools see the same rows;
* fits rpart with ``xval = 0`` and the case's controls and reads its tree as JSON
  (``rpart_dump.R fit``): per node, in rpart's frame order, n, class counts or mean,
  deviance, complexity, the primary split, competitors and surrogates with improve /
  agree / adj, every double printed with %.17g;
* with ``--emulate``: grows the same tree with ``benchmarks/rpart_emulate.py``, the rules
  of docs/cart_rules.md in exact arithmetic, and compares (this checks the document);
* unless ``--r-only``: runs ``python -m infotree tree DATA.csv --algorithm cart ...
  --format json --nodes all`` from this checkout (``--criterion squared-error`` for
  rpart's anova cases: the mean and the SSE are compared with yval and dev) and compares.
  Until infotree has CART it prints "infotree has no CART yet" for every case.
* with ``--fuzz N``: N random regression tables and controls instead of the cases.

infotree's entropy improvements are in bits and rpart's in nats: they are converted
(× ln 2) before comparing.  Comparison: the same tree shape, split variables, thresholds (rpart's double against the
exact midpoint: equal when the midpoint rounds to rpart's double or differs by at most
1e-12 relatively, which is the rounding of (a + b) / 2), subsets, n and class counts at
every node, the competitor and surrogate lists in order, improve / agree / adj within
1e-9 relatively (rpart's doubles carry rounding; exact ties are what infotree decides).
Every divergence is printed with both values; against the emulator, a differing split is
also evaluated exactly, and a divergence that is an exact tie broken by rpart's rounding,
or a cp decision rpart takes on a rounded cp x R(root), is reported as explained.  rpart sends either side of a threshold to
the left (docs/cart_rules.md, "direction"); when infotree keeps ``x <= t`` on the left,
children are paired by their rows' side, and the mirrored nodes are counted, not
reported as divergences.  A threshold test may carry ``"left_op"`` ("<=" or ">": which
side of t goes with the left child; surrogates need it, the issue's contract lacks it);
without it, x <= t is read as the left side.  ``--mock-infotree`` stands the emulator in
for infotree, written in that contract, to check this side of the script.  Exit status 1 if any compared case diverges (for the emulator:
in a way not explained by rpart's float decisions).

    python3 benchmarks/rpart_parity.py                  # every case, R against infotree
    python3 benchmarks/rpart_parity.py --emulate --r-only
    python3 benchmarks/rpart_parity.py --only stagec --show
    python3 benchmarks/rpart_parity.py --fuzz 80 --fuzz-seed 1 --emulate
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import rpart_emulate  # noqa: E402

DUMP = REPO / "benchmarks" / "rpart_dump.R"
CACHE = REPO / "benchmarks" / ".rpart_cache"
RTOL = 1e-9
TIE = "an exact tie, broken by rpart's rounding"
READ = "rpart's target, read as doubles, is not the decimal one"
LIST2 = "rpart's list-of-two bug (docs/cart_rules.md, section 5)"

# data set -> (response, method, columns read as categorical although numeric-looking)
DATASETS = {
    "kyphosis": ("Kyphosis", "class", ()),
    "pima": ("type", "class", ()),
    "pimate": ("type", "class", ()),
    "birthwt": ("low", "class", ()),
    "biopsy": ("class", "class", ()),
    "rock": ("perm", "anova", ()),
    "iris": ("Species", "class", ()),
    "stagec": ("progstat", "class", ()),
    "cu.summary": ("Reliability", "class", ()),
    "car90": ("Type", "class", ()),
    "solder": ("Solder", "class", ("Panel",)),
    "solder-skips": ("skips", "anova", ("Panel",)),
    "airquality": ("Ozone", "anova", ()),
    "airquality-month": ("Ozone", "anova", ("Month",)),
    "car90reg-price": ("Price", "anova", ()),
    "car90reg-mileage": ("Mileage", "anova", ()),
    "cu.summary-price": ("Price", "anova", ()),
    "mtcars": ("mpg", "anova", ("cyl", "gear", "carb")),
    "cars": ("dist", "anova", ()),
    "stackloss": ("stack.loss", "anova", ()),
    "swiss": ("Fertility", "anova", ()),
    "Boston": ("medv", "anova", ("chas", "rad")),
    "offset": ("y", "anova", ()),
    "cptie": ("y", "class", ()),
    # rpart's poisson and exp methods (issue 35): EXPOSURE names the exposure or time column
    "insurance": ("Claims", "poisson", ("District",)),
    "warpbreaks": ("breaks", "poisson", ()),
    "lungpois": ("events", "poisson", ()),
    "lung": ("status", "exp", ()),
    "aml": ("status", "exp", ()),
    "ovarian": ("fustat", "exp", ("resid.ds", "rx", "ecog.ps")),
    "catsurrogate": ("y", "class", ()),
}
FULL = {"cp": "0", "minsplit": "2", "minbucket": "1"}
CASES = [
    ("kyphosis", {}),
    ("kyphosis", FULL),
    ("kyphosis", {"split": "information"}),
    ("kyphosis", {"maxcompete": "1", "maxsurrogate": "2", "cp": "0.001"}),
    ("kyphosis", {"cp": "0", "minsplit": "2", "minbucket": "1", "maxdepth": "2"}),
    ("iris", {}),
    ("iris", FULL),
    ("iris", {"split": "information", "cp": "0"}),
    ("iris", {"maxcompete": "0", "maxsurrogate": "1", "minsplit": "7"}),
    ("stagec", {}),
    ("stagec", {"cp": "0", "minsplit": "10", "minbucket": "3"}),
    ("stagec", {"usesurrogate": "0", "cp": "0.001"}),
    ("stagec", {"usesurrogate": "1", "cp": "0.001"}),
    ("stagec", {"maxsurrogate": "0", "cp": "0.001"}),
    ("stagec", {"surrogatestyle": "1", "cp": "0.001"}),
    ("stagec", {"split": "information", "cp": "0.001"}),
    ("cu.summary", {}),
    ("cu.summary", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("car90", {}),
    ("car90", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("solder", {}),
    ("solder", {"cp": "0.001", "minsplit": "10", "minbucket": "3"}),
    ("solder-skips", {}),
    ("airquality", {}),
    ("airquality", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("cptie", {"cp": "0.29", "minsplit": "2", "minbucket": "1"}),
    ("catsurrogate", {"cp": "0.5"}),
    # regression (method = "anova", issue 21): numeric and categorical predictors, missing values
    ("airquality-month", {"cp": "0.001", "minsplit": "10"}),
    ("airquality", {"usesurrogate": "0", "cp": "0.001", "minsplit": "10"}),
    ("airquality", {"surrogatestyle": "1", "maxsurrogate": "3", "cp": "0.005"}),
    ("car90reg-price", {}),
    ("car90reg-price", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("car90reg-price", {"usesurrogate": "1", "maxcompete": "2", "cp": "0.001", "minsplit": "8"}),
    ("car90reg-mileage", {}),
    ("car90reg-mileage", {"cp": "0", "minsplit": "5", "minbucket": "2", "maxdepth": "5"}),
    ("cu.summary-price", {}),
    ("cu.summary-price", {"cp": "0", "minsplit": "5", "minbucket": "2"}),
    ("cu.summary-price", {"usesurrogate": "0", "cp": "0.001", "minsplit": "6"}),
    ("cu.summary-price", {"maxcompete": "1", "maxsurrogate": "2", "surrogatestyle": "1",
                          "cp": "0.001", "minsplit": "8"}),
    ("car90reg-price", {"maxsurrogate": "0", "cp": "0.001", "minsplit": "8"}),
    ("mtcars", {}),
    ("mtcars", {"cp": "0", "minsplit": "4", "minbucket": "2"}),
    ("cars", {}),
    ("cars", FULL),
    ("stackloss", FULL),
    ("swiss", {}),
    ("swiss", {"cp": "0", "minsplit": "5", "minbucket": "2", "surrogatestyle": "1"}),
    ("Boston", {}),
    ("Boston", {"cp": "0.001", "maxdepth": "6"}),
    # a target of 17 significant digits (tests/test_regression_exact.py): rpart's doubles
    # round the differences it splits on
    ("offset", FULL),
    # case weights (issue 35): rpart's weights = a column w (WEIGHTS: its rule), infotree's
    # --sample-weight w; surrogates, majority, improvements, cp and minsplit as rpart sums them
    ("kyphosis", {"weights": "cycle3"}),
    ("kyphosis", {"weights": "halves", "cp": "0", "minsplit": "2", "minbucket": "1"}),
    ("stagec", {"weights": "cycle3", "cp": "0.001"}),
    ("stagec", {"weights": "halves", "cp": "0", "minsplit": "10", "minbucket": "3"}),
    ("stagec", {"weights": "heavy", "surrogatestyle": "1", "cp": "0.001"}),
    ("airquality", {"weights": "cycle3", "cp": "0.001", "minsplit": "10"}),
    ("car90reg-price", {"weights": "halves", "cp": "0.001", "minsplit": "8"}),
    ("cu.summary", {"weights": "heavy", "cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("solder", {"weights": "cycle3", "cp": "0.001", "minsplit": "10", "minbucket": "3"}),
    # rpart's parms prior and loss (issue 35), classes in first-appearance order
    ("kyphosis", {"prior": "0.6,0.4", "loss": "0,1,3,0"}),
    ("kyphosis", {"loss": "0,1,4,0", "split": "information", "cp": "0"}),
    ("stagec", {"prior": "0.5,0.5", "cp": "0.001"}),
    ("iris", {"loss": "0,1,2,1,0,1,5,1,0", "cp": "0"}),
    ("stagec", {"weights": "cycle3", "loss": "0,2,1,0", "cp": "0.001", "minsplit": "10"}),
    # rpart's per-variable costs (cost =; issue 35), on data sets not used above
    ("pima", {"cost": "glu=2"}),
    ("pima", {"cost": "glu=3,bmi=1.5", "cp": "0.001"}),
    ("birthwt", {"cost": "lwt=0.5,race=2", "cp": "0.005", "minsplit": "10"}),
    ("biopsy", {"cost": "V2=4,V3=4", "cp": "0.001"}),
    ("rock", {"cost": "area=2,peri=1.25", "cp": "0.001", "minsplit": "6"}),
    # every predictor read as a factor (--categorical all; rpart: each column a factor)
    ("birthwt", {"allfactors": "1", "cp": "0.005", "minsplit": "10"}),
    ("biopsy", {"allfactors": "1", "cp": "0.001"}),
    # rpart's poisson (cbind(exposure, events) ~ .; parms shrink) and exp (Surv(time, status) ~ .)
    ("insurance", {"minsplit": "10", "minbucket": "3"}),
    ("insurance", {"cp": "0", "minsplit": "6", "minbucket": "2", "shrink": "0.5"}),
    ("warpbreaks", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
    ("lungpois", {"minbucket": "7", "minsplit": "21"}),
    ("lungpois", {"cp": "0.001", "minsplit": "10", "shrink": "0"}),
    ("lung", {"minbucket": "7", "minsplit": "21"}),
    ("aml", {"cp": "0", "minsplit": "4", "minbucket": "2"}),
    ("ovarian", {"cp": "0", "minsplit": "6", "minbucket": "2"}),
]
# poisson and exp: the exposure (rpart's cbind(exposure, events)) or time (Surv(time, status)) column
EXPOSURE = {"insurance": "Holders", "lungpois": "time", "lung": "time", "aml": "time", "ovarian": "futime"}
# a case's weights column: row i (0-based) weighs WEIGHTS[rule](i), as decimal text
WEIGHTS = {"cycle3": lambda i: str(1 + i % 3), "halves": lambda i: ("0.5", "1", "1.5", "2")[i % 4],
           "heavy": lambda i: "10" if i % 7 == 0 else "1"}
DEFAULTS = {"minsplit": "20", "cp": "0.01", "maxcompete": "4", "maxsurrogate": "5",
            "usesurrogate": "2", "surrogatestyle": "0", "maxdepth": "30", "split": "gini"}


def controls_of(overrides):
    c = dict(DEFAULTS, **overrides)
    c.setdefault("minbucket", str(round(Fraction(int(c["minsplit"]), 3))))
    return c


def case_label(name, overrides):
    if not overrides:
        return f"{name} (defaults)"
    return name + " " + " ".join(f"{k}={v}" for k, v in overrides.items())


# --- R side ------------------------------------------------------------------------------

def run(cmd, timeout=300):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed:\n{proc.stderr.strip()}")
    return proc.stdout


def fuzz_cases(count, seed):
    """``count`` random regression tables written to the cache, with their controls: two
    numeric columns of small integers (many equal values, so many exact ties), a
    categorical one of 2-5 levels, about 10 % missing cells each, and a target of one
    decimal; mostly grown deep (cp = 0, small minsplit), with the other controls varied."""
    import random
    rnd = random.Random(seed)
    CACHE.mkdir(exist_ok=True)
    out = []
    for i in range(count):
        name = f"fuzz{seed}.{i}"
        n, levels = rnd.randint(12, 60), "abcde"[:rnd.randint(2, 5)]
        scale = rnd.choice([3, 10, 100])

        def cell(text):
            return "" if rnd.random() < 0.1 else text

        rows = [[cell(str(rnd.randint(0, scale))), cell(str(rnd.randint(0, 5))),
                 cell(rnd.choice(levels)), f"{rnd.randint(0, 50) / 10:g}"] for _ in range(n)]
        rows = [r for r in rows if any(r[:3])]
        with open(CACHE / f"{name}.csv", "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["u", "v", "g", "y"])
            w.writerows(rows)
        DATASETS[name] = ("y", "anova", ())
        controls = {"cp": rnd.choice(["0", "0", "0.01", "0.05"]), "maxdepth": rnd.choice(["30", "3"]),
                    "minsplit": str(rnd.randint(2, 8)), "minbucket": str(rnd.randint(1, 3)),
                    "usesurrogate": rnd.choice("012"), "maxsurrogate": rnd.choice("0125"),
                    "surrogatestyle": rnd.choice("01"), "maxcompete": rnd.choice("0124")}
        out.append((name, controls))
    return out


def exported(rscript, name):
    """The data set as CSV, response last, rows rpart would drop left out."""
    if name.startswith("fuzz"):
        return CACHE / f"{name}.csv", 0
    base = name.split("-")[0]
    target = DATASETS[name][0]
    CACHE.mkdir(exist_ok=True)
    raw = CACHE / f"{base}.raw.csv"
    if not raw.exists():
        run([rscript, str(DUMP), "export", base, str(raw)])
    out = CACHE / f"{name}.csv"
    with open(raw, newline="") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    t = header.index(target)
    order = [j for j in range(len(header)) if j != t] + [t]
    kept = [[r[j] for j in order] for r in body
            if r[t] != "" and any(r[j] != "" for j in order[:-1])]
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow([header[j] for j in order])
        w.writerows(kept)
    return out, len(body) - len(kept)


def weighted(csv_path, rule):
    """A copy of the case's CSV with a column w of weights (by ``rule``) before the target."""
    out = csv_path.with_suffix(f".w-{rule}.csv")
    with open(csv_path, newline="") as fh:
        rows = list(csv.reader(fh))
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(rows[0][:-1] + ["w", rows[0][-1]])
        w.writerows(r[:-1] + [WEIGHTS[rule](i), r[-1]] for i, r in enumerate(rows[1:]))
    return out


def fit_r(rscript, csv_path, name, controls, summary=None, extra=()):
    target, method, factors = DATASETS[name]
    out = csv_path.with_suffix("." + "_".join(f"{k}{v}" for k, v in sorted(controls.items()))
                               + ".json")
    args = [rscript, str(DUMP), "fit", str(csv_path), str(out), f"target={target}",
            f"method={method}"] + [f"{k}={v}" for k, v in controls.items() if k != "weights"]
    if name in EXPOSURE:
        args.append(f"exposure={EXPOSURE[name]}")
    if controls.get("weights"):
        args.append("weights=w")
    if controls.get("allfactors"):  # every predictor a factor (infotree: --categorical all)
        with open(csv_path, newline="") as fh:
            factors = tuple(c for c in next(csv.reader(fh)) if c not in (target, "w", EXPOSURE.get(name)))
    if factors:
        args.append("factors=" + ",".join(factors))
    if summary:
        args.append(f"summary={summary}")
    run(args + list(extra))
    with open(out) as fh:
        return json.load(fh)


def r_nodes(fit):
    """rpart's JSON nodes in a normal form: doubles as floats, counts as Fractions."""
    out = {}
    for node in fit["nodes"]:
        rec = {"node": node["node"], "n": node["n"], "wt": Fraction(float(node["wt"])), "dev": float(node["dev"]),
               "complexity": float(node["complexity"])}
        if "counts" in node:
            rec["counts"] = {k: Fraction(v) for k, v in node["counts"].items()}
        else:
            rec["mean"] = float(node["mean"])
        if "primary" in node:
            rec["splits"] = [r_split(node["primary"], False)]
            rec["splits"] += [r_split(s, False) for s in node["competitors"]]
            rec["surrogates"] = [r_split(s, True) for s in node["surrogates"]]
        out[node["node"]] = rec
    return out


def r_split(s, surrogate):
    rec = {"var": s["var"], "count": s["count"], "improve": float(s["improve"])}
    if s["kind"] == "threshold":
        rec["test"] = ("threshold", float(s["threshold"]), s["left_op"])
    else:
        rec["test"] = ("subset", frozenset(s["left"]), frozenset(s["right"]))
    if surrogate:
        rec["adj"] = float(s["adj"])
    return rec


# --- the emulator's side -------------------------------------------------------------------

def read_table(csv_path, fit):
    """The CSV as the emulator's inputs, with R's kinds and first-appearance levels."""
    with open(csv_path, newline="") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    features, target = fit["features"], fit["target"]
    cols = [header.index(f) for f in features]
    levels = {}
    for f, j in zip(features, cols):
        if fit["kinds"][f] == "categorical":
            levels[f] = list(dict.fromkeys(r[j] for r in body if r[j] != ""))
    X = []
    for r in body:
        row = []
        for f, j in zip(features, cols):
            cell = r[j]
            if cell == "":
                row.append(None)
            elif f in levels:
                row.append(levels[f].index(cell))
            else:
                row.append(Fraction(cell))
        X.append(row)
    t = header.index(target)
    if fit["method"] == "class":
        classes = fit["classes"]
        y = [classes.index(r[t]) for r in body]
    else:
        classes = []
        y = [Fraction(r[t]) for r in body]
    ncats = [len(levels[f]) if f in levels else 0 for f in features]
    return X, y, ncats, classes, levels


def emulated_nodes(csv_path, fit, controls):
    """The emulator's tree in the normal form, and a function that explains a divergence
    by the exact improve of both splits."""
    X, y, ncats, classes, levels = read_table(csv_path, fit)
    features = fit["features"]
    nodes = rpart_emulate.emulate(X, y, ncats, fit["method"], classes, controls["split"], controls)
    rows_at = {node["node"]: node["rows"] for node in nodes}
    # rpart reads a numeric target as doubles: a decimal with more digits than a double
    # holds is rounded before any arithmetic (the emulator and infotree read it exactly)
    y_read = y if fit["method"] == "class" else [Fraction(float(v)) for v in y]

    def side_of(var, test):
        if test[0] == "threshold":
            _, t, op = test
            low = rpart_emulate.LEFT if op == "<" else rpart_emulate.RIGHT
            return lambda x: low if float(x) < float(t) else -low   # as rpart, on doubles
        lev = levels[var]
        return lambda x: rpart_emulate.LEFT if lev[x] in test[1] else rpart_emulate.RIGHT

    def explain(num, a, b):
        if num not in rows_at:
            return ""
        def improves(target):
            return [rpart_emulate.improve_of(X, target, ncats, fit["method"], classes,
                                             controls["split"], rows_at[num],
                                             features.index(s["var"]), side_of(s["var"], s["test"]))
                    for s in (a, b)]

        vals = improves(y)
        verdict = TIE if vals[0] == vals[1] else "not a tie: a real difference"
        if vals[0] < vals[1] and y_read != y:
            try:
                read = improves(y_read)
            except ZeroDivisionError:  # the node's rows are all one double
                read = [0, 0]
            if read[0] >= read[1]:
                verdict = (f"{READ}: on the doubles it read, rpart's split improves "
                           f"{show_num(read[0])} against {show_num(read[1])}")
        return (f" [exact improve of rpart's split {show_num(vals[0])}, of the other "
                f"{show_num(vals[1])}: {verdict}]")

    def split(s, surrogate):
        var = features[s["var"]]
        rec = {"var": var, "count": s["count"], "improve": s["improve"]}
        if s["test"][0] == "threshold":
            _, t, direction = s["test"]
            rec["test"] = ("threshold", t, "<" if direction == rpart_emulate.LEFT else ">=")
        else:
            cs = s["test"][1]
            lev = levels[var]
            rec["test"] = ("subset", frozenset(lev[i] for i, d in enumerate(cs) if d < 0),
                           frozenset(lev[i] for i, d in enumerate(cs) if d > 0))
        if surrogate:
            rec["adj"] = s["adj"]
        return rec

    out = {}
    for node in nodes:
        rec = {"node": node["node"], "n": node["n"], "dev": node["dev"],
               "complexity": node["complexity"]}
        if "counts" in node:
            rec["counts"] = {c: Fraction(k) for c, k in zip(classes, node["counts"])}
        else:
            rec["mean"] = node["mean"]
        if "primary" in node:
            rec["splits"] = [split(node["primary"], False)]
            rec["splits"] += [split(s, False) for s in node["competitors"]]
            rec["surrogates"] = [split(s, True) for s in node["surrogates"]]
        out[node["node"]] = rec
    explain.read_sse = None
    explain.root_risk = nodes[0]["dev"]  # exact: cp x R(root) is compared with rpart's double
    if y_read != y:  # the root's SSE of the decimals and of the doubles rpart read
        sse = (rpart_emulate.AnovaSplitter().evaluate(y)[1],
               rpart_emulate.AnovaSplitter().evaluate(y_read)[1])
        if not close(*sse):  # only when the rounding of the input is material
            explain.read_sse = sse
    return out, explain


# --- infotree's side -----------------------------------------------------------------------

def exact(value):
    """An exact string of infotree's JSON as a number: a fraction, or an expression with
    logarithms (information) evaluated by sympy at 30 digits."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("exact", value.get("value"))
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return value
    try:
        return Fraction(str(value))
    except ValueError:
        import sympy
        expr = sympy.sympify(str(value), locals={"log2": lambda x: sympy.log(x, 2)})
        return Decimal(str(sympy.N(expr, 30)))


def infotree_options():
    """The long options of `infotree tree` in this checkout (empty if it cannot run)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "infotree", "tree", "--help"],
                          capture_output=True, text=True, env=env, cwd=REPO)
    opts = set(re.findall(r"--[a-z][a-z-]*", proc.stdout))
    return opts if "cart" in proc.stdout else set()


# rpart control -> infotree option (issue 20's names)
OPTION = {"minsplit": "--min-samples-split", "minbucket": "--min-leaf", "cp": "--cp",
          "maxdepth": "--max-depth", "maxcompete": "--competitors",
          "maxsurrogate": "--surrogates", "usesurrogate": "--use-surrogate",
          "surrogatestyle": "--surrogate-style"}


def fit_infotree(csv_path, fit, controls, supported):
    crit = ({"anova": "squared-error", "poisson": "poisson", "exp": "exp"}.get(fit["method"])
            or {"gini": "gini", "information": "entropy"}[controls["split"]])
    # every node's candidates: their sides' sizes are rpart's `count` of a competitor
    cmd = [sys.executable, "-m", "infotree", "tree", str(csv_path), "--algorithm", "cart",
           "--target", fit["target"], "--criterion", crit, "--format", "json", "--nodes", "all"]
    exposure = EXPOSURE.get(Path(csv_path).name.split(".")[0])
    if exposure:
        cmd += ["--exposure", exposure]
    if controls.get("shrink"):
        cmd += ["--shrink", controls["shrink"]]
    for key, option in OPTION.items():
        if option in supported:
            cmd += [option, controls[key]]
    if controls.get("allfactors"):
        cmd += ["--categorical", "all"]
    else:
        for f in fit["features"]:
            cmd += ["--numeric" if fit["kinds"][f] == "numeric" else "--categorical", f]
    if controls.get("weights"):
        cmd += ["--sample-weight", "w"]
    if controls.get("prior"):
        cmd += ["--prior", ",".join(f"{c}={p}" for c, p in zip(fit["classes"], controls["prior"].split(",")))]
    if controls.get("loss"):
        v = controls["loss"].split(",")
        k = round(len(v) ** 0.5)
        cmd += ["--loss", ";".join(",".join(v[i * k:(i + 1) * k]) for i in range(k))]
    if controls.get("cost"):
        cmd += ["--cost", controls["cost"]]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"infotree failed: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout)


def _children(node):
    kids = node.get("children") or []
    return [k.get("node", k) if isinstance(k, dict) and "node" in k else k for k in kids]


def _test(test, levels_left=None):
    """infotree's test as (kind, value, left side); a threshold without a stated side is
    the issue's contract, x <= t on the left."""
    if test["kind"] == "threshold":
        side = test.get("left_op") or test.get("left") or "<="
        side = "<" if side in ("<", "<=") else ">="
        return ("threshold", exact(test["threshold"]), side)
    return ("subset", frozenset(map(str, test["left"])), frozenset(map(str, test["right"])))


def infotree_nodes(tree):
    """infotree's JSON tree as {rpart node number: node}, numbering its children left 2k and
    right 2k+1 as they come; the pairing with rpart's orientation is done by compare()."""
    root = tree.get("root", tree)
    out = {}
    # infotree's entropy is in bits, rpart's information (gini_impure2: -p log p) in nats
    nats = Decimal(2).ln() if tree.get("criterion") == "entropy" else None

    def improvement(value):
        v = exact(value)
        return v if nats is None or v is None else Decimal(v.numerator) / v.denominator * nats \
            if isinstance(v, Fraction) else v * nats

    def split(s, surrogate, known=None):
        rec = {"var": s.get("feature", s.get("split")), "test": _test(s["test"]),
               "improve": exact(s.get("agree")) if surrogate else improvement(s.get("improvement"))}
        if surrogate:
            rec["adj"] = exact(s.get("adj"))
        if "count" in s or "n" in s:
            rec["count"] = int(exact(s.get("count", s.get("n"))))
        elif not surrogate and known and rec["var"] in known:
            rec["count"] = known[rec["var"]]
        return rec

    def walk(node, num):
        n = exact(node["n"])
        rec = {"node": num, "n": int(n) if n == int(n) else n}
        if "class_counts" in node:
            rec["counts"] = {str(k): exact(v) for k, v in node["class_counts"].items()}
        if node.get("mean") is not None:  # regression: rpart's yval and dev (= SSE; Poisson: its deviance)
            rec["mean"] = exact(node["mean"])
            rec["dev"] = exact(node.get("deviance", node["impurity"]))
        # a split's count in rpart is the number of rows with its variable known: the sum of
        # the sides of infotree's candidate for that feature (written with --nodes all)
        known = {c["feature"]: sum(int(exact(b["n"])) for b in c["branches"])
                 for c in node.get("candidates", []) if c.get("branches")}
        kids = _children(node)
        if node.get("split") is not None and kids:
            primary = {"feature": node["split"], "test": node["test"],
                       "improvement": node.get("improvement")}
            rec["splits"] = [split(primary, False, known)]
            rec["splits"] += [split(s, False, known) for s in node.get("competitors", [])]
            if "competitors" not in node:
                rec["no_competitors"] = True
            if "surrogates" in node:
                rec["surrogates"] = [split(s, True) for s in node["surrogates"]]
            out[num] = rec
            walk(kids[0], 2 * num)
            walk(kids[1], 2 * num + 1)
        else:
            out[num] = rec

    walk(root, 1)
    return out


def mock_infotree_json(csv_path, fit, controls):
    """The emulator's tree written in the JSON contract of issue 20 with x <= t always on
    the left, as infotree will write it: a check of this script's infotree side before
    infotree has CART (--mock-infotree)."""
    X, y, ncats, classes, levels = read_table(csv_path, fit)
    features = fit["features"]
    nodes = rpart_emulate.emulate(X, y, ncats, fit["method"], classes, controls["split"], controls)
    by_num = {n["node"]: n for n in nodes}

    def test_of(s):
        if s["test"][0] == "threshold":
            return {"kind": "threshold", "threshold": str(s["test"][1])}, s["test"][2] == 1
        lev = levels[features[s["var"]]]
        cs = s["test"][1]
        return ({"kind": "subset", "left": [lev[i] for i, d in enumerate(cs) if d < 0],
                 "right": [lev[i] for i, d in enumerate(cs) if d > 0]}, False)

    def entry(s, surrogate, node_mirrored=False):
        test, ge_left = test_of(s)
        if surrogate and test["kind"] == "threshold":
            test["left_op"] = ">" if ge_left != node_mirrored else "<="
        elif surrogate and node_mirrored:
            test["left"], test["right"] = test["right"], test["left"]
        out = {"feature": features[s["var"]], "test": test}
        if surrogate:
            out.update(agree=str(s["improve"]), adj=str(s["adj"]))
        else:
            out["improvement"] = str(s["improve"])
        return out

    def node(num):
        n = by_num[num]
        out = {"n": str(n["n"]), "split": None, "children": []}
        if "counts" in n:
            out["class_counts"] = {c: str(k) for c, k in zip(classes, n["counts"])}
        else:  # regression, as infotree writes it
            out.update(mean=str(n["mean"]), impurity={"exact": str(n["dev"])})
        if "primary" in n:
            test, mirrored = test_of(n["primary"])
            kids = [node(2 * num), node(2 * num + 1)]
            out.update(split=features[n["primary"]["var"]], test=test,
                       improvement=str(n["primary"]["improve"]),
                       competitors=[entry(c, False) for c in n["competitors"]],
                       surrogates=[entry(c, True, mirrored) for c in n["surrogates"]],
                       children=[{"value": "left", "node": k} for k in
                                 (kids[::-1] if mirrored else kids)])
        return out

    return {"root": node(1)}


# --- comparison ----------------------------------------------------------------------------

def close(a, b):
    if a is None or b is None:
        return a is b
    fa, fb = float(a), float(b)
    return fa == fb or abs(fa - fb) <= RTOL * max(abs(fa), abs(fb))


def same_test(a, b):
    """'same', 'mirrored' (the same cut with the sides swapped) or None."""
    if a[0] != b[0]:
        return None
    if a[0] == "threshold":
        fa, fb = float(a[1]), float(b[1])
        if not (fa == fb or abs(fa - fb) <= 1e-12 * max(abs(fa), abs(fb))):
            return None
        return "same" if a[2] == b[2] else "mirrored"
    if a[1] == b[1] and a[2] == b[2]:
        return "same"
    if a[1] == b[2] and a[2] == b[1]:
        return "mirrored"
    # infotree may place categories absent at the node on a side; rpart places them nowhere
    if a[1] <= b[1] and a[2] <= b[2] or a[1] >= b[1] and a[2] >= b[2]:
        return "same"
    if a[1] <= b[2] and a[2] <= b[1] or a[1] >= b[2] and a[2] >= b[1]:
        return "mirrored"
    return None


def mirror(t):
    if t[0] == "threshold":
        return (t[0], t[1], ">=" if t[2] == "<" else "<")
    return (t[0], t[2], t[1])


def show_test(t):
    if t[0] == "threshold":
        v = t[1]
        text = f"{v} = {float(v)!r}" if isinstance(v, Fraction) else repr(v)
        return f"{'x < t left' if t[2] == '<' else 'x >= t left'}, t = {text}"
    return f"left {sorted(t[1])}, right {sorted(t[2])}"


def show_num(v):
    if isinstance(v, Fraction):
        return f"{v} = {float(v)!r}"
    return repr(v)


def compare(ref, other, ref_name, other_name, check_orientation, explain=None, list_bug=None):
    """Walk both trees from the root; returns (divergences, mirrored node count).
    explain(node number, ref split, other split) adds the exact values of both splits;
    list_bug(node number, kind, ref list) says whether rpart's list-of-two bug made it."""
    out, mirrored = [], 0
    compare.walked = 0  # nodes of ref reached (the rest lie below a split the tools make differently)

    def why(rn, a, b):
        return explain(rn, a, b) if explain else ""

    def split_list(rn, where, kind, xs, ys, surrogate, node_mirrored=False):
        """A surrogate's side is relative to the children: at a node whose children are
        paired mirrored, the other tool's surrogate sides are mirrored back first."""
        if surrogate and node_mirrored:
            ys = [dict(s, test=mirror(s["test"])) for s in ys]
        if [s["var"] for s in xs] != [s["var"] for s in ys]:
            # the lists are ranked by improve: where they name different variables, an
            # exact tie of the two improves means rpart's rounding ordered them
            swaps = list(dict.fromkeys(why(rn, a, b) for a, b in zip(xs, ys) if a["var"] != b["var"]))
            ties = (not surrogate and len(xs) == len(ys) and swaps
                    and all(TIE in w for w in swaps))
            bug = list_bug is not None and list_bug(rn, kind, xs)
            out.append(f"{where}: {kind} {ref_name} {[s['var'] for s in xs]} "
                       f"vs {other_name} {[s['var'] for s in ys]}"
                       + ("".join(swaps) if ties else f" [{LIST2}]" if bug else ""))
        by_var = {s["var"]: s for s in ys}
        for a in xs:
            b = by_var.get(a["var"])
            if b is None:
                continue
            rel = same_test(a["test"], b["test"])
            if rel is None or (rel == "mirrored" and (check_orientation or surrogate)):
                out.append(f"{where}: {kind} {a['var']}: {ref_name} {show_test(a['test'])} vs "
                           f"{other_name} {show_test(b['test'])}"
                           + ("" if surrogate else why(rn, a, b)))
            label = "agree" if surrogate else "improve"
            if not close(a["improve"], b["improve"]):
                out.append(f"{where}: {kind} {a['var']} {label}: {ref_name} "
                           f"{show_num(a['improve'])} vs {other_name} {show_num(b['improve'])}")
            if surrogate and not close(a.get("adj"), b.get("adj")):
                out.append(f"{where}: {kind} {a['var']} adj: {ref_name} {show_num(a['adj'])} "
                           f"vs {other_name} {show_num(b.get('adj'))}")
            if "count" in b and a["count"] != b["count"]:
                out.append(f"{where}: {kind} {a['var']} count: {ref_name} {a['count']} vs "
                           f"{other_name} {b['count']}")

    def walk(rn, on):
        nonlocal mirrored
        a, b = ref[rn], other.get(on)
        where = f"node {rn}" + (f" (= {other_name} {on})" if on != rn else "")
        if b is None:
            out.append(f"{where}: missing in {other_name}")
            return
        compare.walked += 1
        if a["n"] != b["n"]:
            out.append(f"{where}: n {ref_name} {a['n']} vs {other_name} {b['n']}")
        if "counts" in a and "counts" in b and a["counts"] != b["counts"]:
            out.append(f"{where}: class counts {ref_name} {fmt_counts(a['counts'])} vs "
                       f"{other_name} {fmt_counts(b['counts'])}")
        for key in ("dev", "complexity", "mean"):
            if key in a and key in b and not close(a[key], b[key]) and not (
                    # a node's SSE is a difference of sums: rpart's residue of an exact 0 (a
                    # constant y like 0.1, 0.1, 0.1) is judged against the root's SSE
                    key == "dev" and abs(float(a[key]) - float(b[key])) <= RTOL * float(ref[1]["dev"])):
                out.append(f"{where}: {key} {ref_name} {show_num(a[key])} vs {other_name} "
                           f"{show_num(b[key])}")
        sa, sb = a.get("splits"), b.get("splits")
        if not sa or not sb:
            if sa or sb:
                side = ref_name if sa else other_name
                s = (sa or sb)[0]
                out.append(f"{where}: only {side} splits it ({s['var']}, {show_test(s['test'])})")
            return
        pa, pb = sa[0], sb[0]
        rel = same_test(pa["test"], pb["test"]) if pa["var"] == pb["var"] else None
        if rel is None:
            out.append(f"{where}: split {ref_name} {pa['var']} {show_test(pa['test'])} "
                       f"improve {show_num(pa['improve'])} vs {other_name} {pb['var']} "
                       f"{show_test(pb['test'])} improve {show_num(pb['improve'])}"
                       + why(rn, pa, pb))
            # two different splits that make the same children (same n, values, counts on
            # either pairing): the rows below are the same, so the walk goes on
            for pairing in ((2 * on, 2 * on + 1), (2 * on + 1, 2 * on)):
                if all(same_node(ref.get(k), other.get(j)) for k, j in zip((2 * rn, 2 * rn + 1), pairing)):
                    walk(2 * rn, pairing[0])
                    walk(2 * rn + 1, pairing[1])
                    break
            return
        # a tool that does not list competitors or surrogates yet is compared on the rest
        if b.get("no_competitors"):
            split_list(rn, where, "primary", sa[:1], sb[:1], False)
        else:
            split_list(rn, where, "primary/competitors", sa, sb, False)
        if "surrogates" in b:
            split_list(rn, where, "surrogates", a.get("surrogates", []), b["surrogates"], True,
                       node_mirrored=rel == "mirrored")
        if rel == "mirrored":
            mirrored += 1
            walk(2 * rn, 2 * on + 1)
            walk(2 * rn + 1, 2 * on)
        else:
            walk(2 * rn, 2 * on)
            walk(2 * rn + 1, 2 * on + 1)

    walk(1, 1)
    return out, mirrored


def list_bug_of(emu, controls):
    """With maxcompete = 1 (competitors) or maxsurrogate = 2 (surrogates) rpart's ranked
    list of two can lose its first entry (docs/cart_rules.md, section 5); infotree ranks
    plainly.  A differing list is that bug when the emulator, which reproduces it, lists
    exactly rpart's variables at the node."""
    def bug(rn, kind, xs):
        node = emu.get(rn)
        if node is None or "splits" not in node:
            return False
        if kind.startswith("primary") and controls["maxcompete"] == "1":
            theirs = node["splits"]
        elif kind == "surrogates" and controls["maxsurrogate"] == "2":
            theirs = node["surrogates"]
        else:
            return False
        return [s["var"] for s in theirs] == [s["var"] for s in xs]
    return bug


def same_node(a, b):
    """Two nodes with the same n, class counts and mean (the test of 'the same rows' used
    to follow two tied, different splits that cut the same partition)."""
    if a is None or b is None or a["n"] != b["n"] or a.get("counts") != b.get("counts"):
        return False
    return all(key not in a or key not in b or close(a[key], b[key]) for key in ("mean", "dev"))


def fmt_counts(c):
    return "{" + ", ".join(f"{k}: {v}" for k, v in c.items()) + "}"


def report(who, diffs, fit, controls, read_sse=None, root_risk=None):
    """Print the verdict and the divergences; True when every divergence is one of
    rpart's float decisions: an exact tie it broke by rounding, or a split it keeps
    because cp x R(root) rounded below the exact product (docs/cart_rules.md, 10)."""
    alpha = Fraction(controls["cp"]) * (Fraction(fit["root_risk"]) if root_risk is None else root_risk)
    cp_rounded = Fraction(float(fit["alpha"])) < alpha
    # a target with more digits than a double: rpart's node values (dev, complexity) are
    # those of the rounded doubles, accumulated in doubles
    rounded = read_sse is not None
    # a node's complexity is a weakest-link value over subtrees, floored by its ancestors'
    # (section 8): a tie split differently anywhere changes it in every node
    tied = any(TIE in d for d in diffs)
    explained = all(TIE in d or READ in d or LIST2 in d or (cp_rounded and "only rpart splits it" in d)
                    or (rounded and re.search(r": (dev|complexity) rpart", d))
                    or (tied and re.search(r": complexity rpart", d)) for d in diffs)
    verdict = ("same tree" if not diffs else
               "differs only where rpart's doubles or its list-of-two bug decide" if explained else "DIFFERS")
    print(f"  {who}: {verdict}")
    for d in diffs:
        print("    " + d)
    if diffs and cp_rounded:
        print(f"    (cp x root risk: rpart's double {float(fit['alpha'])!r} is below the exact "
              f"{alpha}: rpart would keep a subtree whose complexity is exactly {alpha})")
    if diffs and rounded:
        print(f"    ({READ}: the root's SSE is {show_num(read_sse[0])} for the decimals, "
              f"{show_num(read_sse[1])} for the doubles, {float(fit['root_risk'])!r} in rpart's "
              "double arithmetic)")
    return explained


def print_summary(rows):
    """One line per case compared with infotree, then the counts per method."""
    print()
    print(f"{'case':<58} {'method':<6} {'nodes':>5} {'splits':>6}  {'infotree':<10} divergences")
    for label, method, nodes, splits, verdict, ndiff, _ in rows:
        print(f"{label:<58} {method:<6} {nodes:>5} {splits:>6}  {verdict:<10} {ndiff}")
    for method in ("class", "anova", "poisson", "exp"):
        mine = [r[4] for r in rows if r[1] == method]
        walked = sum(r[6] for r in rows if r[1] == method)
        total = sum(r[2] for r in rows if r[1] == method)
        if mine:
            print(f"{method}: {len(mine)} cases, {mine.count('identical')} identical, "
                  f"{mine.count('explained')} explained (rpart's doubles or list-of-two bug), "
                  f"{len(mine) - mine.count('identical') - mine.count('explained')} otherwise; "
                  f"{walked} of rpart's {total} nodes compared (the rest lie below a tie split "
                  "differently)")


# --- predictions on held-out rows: rpart's routing (issue 35) -------------------------------

# data set, controls: rpart grown on three rows of four (every fourth row held out; pima:
# MASS's Pima.tr, predicting Pima.te), then predict() on the held-out rows plus, for each
# threshold split, a held-out row moved onto the threshold, and for each categorical feature
# a held-out row with each of its levels (levels absent at a node).
PREDICT_CASES = [
    ("pima", {"cp": "0.001"}),
    ("birthwt", {"cp": "0.001", "minsplit": "10"}),
    ("biopsy", {"cp": "0.001"}),
    ("rock", {"cp": "0.001", "minsplit": "6"}),
    ("birthwt", {"cp": "0.001", "minsplit": "10", "maxsurrogate": "0"}),
]


def _write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def predict_case(rscript, name, overrides):
    """(label, rows compared, [divergences], rows where infotree's own routing differs)."""
    controls = controls_of(overrides)
    csv_path, _ = exported(rscript, name)
    with open(csv_path, newline="") as fh:
        header, *body = list(csv.reader(fh))
    if name == "pima":
        test_path, _ = exported(rscript, "pimate")
        with open(test_path, newline="") as fh:
            held = list(csv.reader(fh))[1:]
        train = body
    else:
        train = [r for i, r in enumerate(body) if i % 4 != 3]
        held = [r for i, r in enumerate(body) if i % 4 == 3]
    tag = "_".join(f"{k}{v}" for k, v in sorted(overrides.items()))
    train_path, test_path = CACHE / f"{name}.train.csv", CACHE / f"{name}.{tag}.test.csv"
    _write_csv(train_path, header, train)
    fit = fit_r(rscript, train_path, name, controls)
    extra = []
    for node in fit["nodes"]:
        sp = node.get("primary")
        if sp and sp["kind"] == "threshold":
            row = list(held[len(extra) % len(held)])
            row[header.index(sp["var"])] = repr(float(sp["threshold"]))
            extra.append(row)
    for f in fit["features"]:
        if fit["kinds"][f] != "numeric":
            for level in sorted({r[header.index(f)] for r in train} - {""}):
                row = list(held[len(extra) % len(held)])
                row[header.index(f)] = level
                extra.append(row)
    _write_csv(test_path, header, held + extra)
    out = test_path.with_suffix(".rpart.txt")
    fit_r(rscript, train_path, name, controls, extra=(f"predict={test_path}", f"predout={out}"))
    ref = out.read_text().split()
    crit = "squared-error" if fit["method"] == "anova" else "gini"
    base = [sys.executable, "-m", "infotree", "predict", "--train", str(train_path), str(test_path),
            "--algorithm", "cart", "--target", fit["target"], "--criterion", crit, "--unseen", "majority"]
    for key, option in OPTION.items():
        base += [option, controls[key]]
    for f in fit["features"]:
        base += ["--numeric" if fit["kinds"][f] == "numeric" else "--categorical", f]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    got = {}
    for routing in ("rpart", "infotree"):
        proc = subprocess.run(base + ["--routing", routing], capture_output=True, text=True, env=env, cwd=REPO,
                              timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"infotree failed: {proc.stderr.strip()}")
        got[routing] = proc.stdout.split()

    def same(a, b):
        return a == b if fit["method"] == "class" else close(Fraction(a), Fraction(b))

    diffs = [(i, ref[i], got["rpart"][i]) for i in range(len(ref)) if not same(ref[i], got["rpart"][i])]
    own = sum(1 for i in range(len(ref)) if not same(ref[i], got["infotree"][i]))
    label = case_label(name, overrides) + f" ({len(held)} held out + {len(extra)} on thresholds/levels)"
    return label, len(ref), diffs, own


def predict_parity(rscript, only):
    failed = 0
    print("\npredictions on held-out rows (infotree predict --routing rpart against rpart's predict)")
    for name, overrides in PREDICT_CASES:
        if only and name not in only:
            continue
        label, n, diffs, own = predict_case(rscript, name, overrides)
        print(f"  {label}: {n - len(diffs)} of {n} equal"
              + f"; infotree's default routing differs from rpart on {own}")
        for i, a, b in diffs[:10]:
            print(f"    row {i}: rpart {a}, infotree {b}")
        failed += bool(diffs)
    return failed


# --- main ----------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="data set name (repeatable)")
    ap.add_argument("--emulate", action="store_true",
                    help="also grow each tree with rpart_emulate.py (docs/cart_rules.md) and compare")
    ap.add_argument("--r-only", action="store_true", help="do not run infotree")
    ap.add_argument("--show", action="store_true", help="print rpart's summary for each case")
    ap.add_argument("--rscript", default=shutil.which("Rscript"))
    ap.add_argument("--fuzz", type=int, default=0, metavar="N",
                    help="instead of the cases, N random regression tables (see fuzz_cases)")
    ap.add_argument("--fuzz-seed", type=int, default=0)
    ap.add_argument("--mock-infotree", action="store_true",
                    help="stand the emulator in for infotree, written in issue 20's JSON "
                         "contract (checks this script's infotree side)")
    args = ap.parse_args(argv)
    if not args.rscript:
        print("Rscript not found: install R and rpart (apt-get install r-base-core r-cran-rpart); "
              "nothing compared")
        return 0
    supported = set() if args.r_only or args.mock_infotree else infotree_options()
    has_cart = not args.r_only and (args.mock_infotree or bool(supported))
    if supported:
        lacking = [o for o in OPTION.values() if o not in supported]
        if lacking:
            print(f"infotree's CART has no {', '.join(lacking)} yet: those controls stay at its "
                  "defaults, and lists it does not write (competitors, surrogates) are not compared")
    if not args.r_only and not has_cart:
        print("infotree has no CART yet (no `tree --algorithm cart`): rpart's side only; "
              "--emulate checks docs/cart_rules.md against rpart")
    failed = 0
    tally = {"same": 0, "explained": 0, "unexplained": 0}
    rows = []
    for name, overrides in (fuzz_cases(args.fuzz, args.fuzz_seed) if args.fuzz else CASES):
        if args.only and name not in args.only and name.split("-")[0] not in args.only:
            continue
        controls = controls_of(overrides)
        label = case_label(name, overrides)
        csv_path, dropped = exported(args.rscript, name)
        if controls.get("weights"):
            csv_path = weighted(csv_path, controls["weights"])
        summary = csv_path.with_suffix(".summary.txt") if args.show else None
        fit = fit_r(args.rscript, csv_path, name, controls, summary)
        ref = r_nodes(fit)
        inner = sum(1 for n in ref.values() if "splits" in n)
        head = (f"{label}: rpart {fit['rpart_version']}, {ref[1]['n']} rows"
                + (f" ({dropped} dropped as rpart does)" if dropped else "")
                + f", {len(ref)} nodes, {inner} splits")
        print(head)
        if args.show:
            print(Path(summary).read_text())
        explain, emu = None, {}
        if (args.emulate or not args.r_only) and fit["method"] in ("class", "anova") and not any(
                controls.get(k) for k in ("weights", "prior", "loss", "cost", "allfactors")):
            # the emulator has no weights, priors, losses or costs
            emu, explain = emulated_nodes(csv_path, fit, controls)
        if args.emulate:
            diffs, _ = compare(ref, emu, "rpart", "emulator", check_orientation=True,
                               explain=explain)
            explained = report("emulator (docs/cart_rules.md)", diffs, fit, controls,
                               explain.read_sse, explain.root_risk)
            tally["same" if not diffs else "explained" if explained else "unexplained"] += 1
            failed += not explained
        if args.r_only:
            continue
        if not has_cart:
            print("  infotree has no CART yet")
            continue
        try:
            tree = (mock_infotree_json(csv_path, fit, controls) if args.mock_infotree
                    else fit_infotree(csv_path, fit, controls, supported))
            mine = infotree_nodes(tree)
        except (RuntimeError, KeyError, ValueError, TypeError) as exc:
            print(f"  infotree: {exc}")
            failed += 1
            rows.append((label, fit["method"], len(ref), inner, "FAILED", str(exc)[:60], 0))
            continue
        if controls.get("weights"):
            # infotree's n is the weight (rpart's wt); a split's count (rows with the
            # variable known) is not in its JSON
            ref = {k: dict(v, n=v["wt"]) for k, v in ref.items()}
            for v in mine.values():
                for sp in v.get("splits", []):
                    sp.pop("count", None)
        diffs, mirrored = compare(ref, mine, "rpart", "infotree", check_orientation=False,
                                  explain=explain, list_bug=list_bug_of(emu, controls))
        swapped = f" ({mirrored} nodes with the sides of the cut swapped)" if mirrored else ""
        explained = report("infotree" + swapped, diffs, fit, controls,
                           *((explain.read_sse, explain.root_risk) if explain else ()))
        failed += not explained
        verdict = "identical" if not diffs else "explained" if explained else "DIFFERS"
        rows.append((label, fit["method"], len(ref), inner, verdict,
                     f"{len(diffs)} ({compare.walked} of {len(ref)} nodes compared)", compare.walked))
    if rows:
        print_summary(rows)
    if not args.r_only and has_cart and not args.fuzz and not args.mock_infotree:
        failed += predict_parity(args.rscript, args.only)
    if args.emulate:
        print(f"emulator against rpart: {tally['same']} cases the same tree, {tally['explained']} "
              f"differing only by rpart's float decisions, {tally['unexplained']} otherwise")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
