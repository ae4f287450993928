#!/usr/bin/env python3
"""Where the float twin's ID3 tree differs from infotree's, who is right?  Checked without infotree's arithmetic.

    python benchmarks/twin_diffs.py                      # syn-1e4, syn-1e5, connect-4
    python benchmarks/twin_diffs.py syn-1e6 nursery

On demand, not in CI.  For every data set it grows both ID3 trees (``build_tree`` and
``float_twin.build_float_tree``, default parameters; syn-1e6 with max_depth 8, as in
run.py), walks them together and, at every top-most node where the splits differ,
recounts the node's rows from the raw data along its path and computes, for both chosen
features, n·H(Y|X) = Σ_x f(n_x) − Σ_{x,y} f(n_xy), f(m) = m·log2(m), as integer
coefficients of log2(p) with sympy's ``factorint`` (EXACT.md §1).  A node is

* ``exact tie``: equal coefficient vectors, infotree took the first feature in column
  order and recorded the twin's choice among its ties;
* ``infotree better``: infotree's n·H(Y|X) is lower, decided at 60 digits (mpmath) with
  the difference printed;
* anything else is printed as WRONG and the script exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import mpmath
import numpy as np
import sympy

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import float_twin  # noqa: E402
import synthetic  # noqa: E402

import infotree  # noqa: E402
from infotree.data import load  # noqa: E402

DATASETS = HERE.parent.parent / "shared" / "datasets"
SYNTHETIC = {"syn-1e4": (10 ** 4, None), "syn-1e5": (10 ** 5, None), "syn-1e6": (10 ** 6, 8)}


def n_cond(x, y) -> dict:
    """n·H(Y|X) of the columns x, y as {prime: int coefficient of log2(p)}, zeros dropped."""
    acc: dict = {}

    def f(m, sign):
        for p, e in sympy.factorint(m).items():
            acc[p] = acc.get(p, 0) + sign * m * e

    for v, nv in Counter(x.tolist()).items():
        f(nv, 1)
        for nvy in Counter(y[x == v].tolist()).values():
            f(nvy, -1)
    return {p: a for p, a in acc.items() if a}


def differing(exact_tree, float_tree):
    """(path, exact node, float node) at every top-most node where the splits differ; path = ((j, code), ...)."""
    stack = [(exact_tree.root, float_tree.root, ())]
    while stack:
        e, f, path = stack.pop()
        if e.split != f.split:
            yield path, e, f
        elif e.split is not None:
            stack.extend((ce, cf, path + ((e.split, v),)) for v, (ce, cf) in enumerate(zip(e.children, f.children)))


def check(name) -> Counter:
    if name in SYNTHETIC:
        rows, max_depth = SYNTHETIC[name]
        data = synthetic.make(rows)
    else:
        data, max_depth = load(DATASETS / f"{name}.csv", on_missing="value"), None  # as run.py: `?` a value
    X, y = np.asarray(data.X), np.asarray(data.y)
    et = infotree.build_tree(data, criterion="gain", max_depth=max_depth)
    ft = float_twin.build_float_tree(data, criterion="gain", max_depth=max_depth)
    kinds: Counter = Counter()
    for path, e, f in differing(et, ft):
        mask = np.ones(len(y), bool)
        for j, v in path:
            mask &= X[:, j] == v
        where = ", ".join(f"{et.features[j]}={et.domains[j][v]}" for j, v in path) or "root"
        if e.split is None or f.split is None:
            kinds["WRONG"] += 1
            print(f"  WRONG at {where}: one tree made a leaf (infotree {e.split}, float {f.split})")
            continue
        a, b = (n_cond(X[mask, j], y[mask]) for j in (e.split, f.split))
        if a == b:
            ok = e.split < f.split and f.split in e.ties
            kinds["exact tie" if ok else "WRONG"] += 1
            if not ok:
                print(f"  WRONG at {where}: an exact tie not broken by column order")
            continue
        d = mpmath.fsum(c * mpmath.log(p, 2) for p, c in a.items()) - mpmath.fsum(c * mpmath.log(p, 2) for p, c in b.items())
        kinds["infotree better" if d < 0 else "WRONG"] += 1
        print(f"  {'infotree better' if d < 0 else 'WRONG'} at {where}: n·H(Y|X) infotree - float = {mpmath.nstr(d, 5)}")
    return kinds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=["syn-1e4", "syn-1e5", "connect-4"],
                    help=f"{', '.join(SYNTHETIC)} or a data set in {DATASETS}")
    args = ap.parse_args(argv)
    mpmath.mp.dps = 60
    wrong = 0
    for name in args.names:
        kinds = check(name)
        wrong += kinds["WRONG"]
        print(f"{name}: {sum(kinds.values())} top-most differing nodes: "
              + (", ".join(f"{v} {k}" for k, v in sorted(kinds.items())) or "the trees are the same"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
