"""Is an M-of-N node worth its cost? M-of-N trees against ID3, on data with M-of-N concepts.

    python benchmarks/m_of_n.py [--datasets ../shared/datasets]

The M-of-N tree is ``build_tree(m_of_n=True)``: at each node :func:`infotree.mofn.grow_m_of_n`
grows the test from the best single condition; the node splits on it (two branches) when
its gain is positive, else it is a majority leaf.  ID3 is infotree's
``build_tree(criterion="gain")``.  For each data set: test accuracy (exact fraction), leaves,
and fit time (CPU seconds, one run).  Test rows are predicted with ``unseen="majority"``
(ID3 stops at the node; an M-of-N test counts an unseen value as satisfying no condition).
"""

from __future__ import annotations

import argparse
import itertools
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from infotree import build_tree, load
from infotree.data import from_arrays

HERE = Path(__file__).resolve().parent


def compare(name, train, test):
    t0 = time.process_time()
    mofn = build_tree(train, m_of_n=True)
    t_mofn = time.process_time() - t0
    t0 = time.process_time()
    id3 = build_tree(train, criterion="gain")
    t_id3 = time.process_time() - t0
    truth = [test.classes[c] for c in test.y.tolist()]
    rows = [dict(zip(test.features, (test.domains[j][c] if c >= 0 else "?" for j, c in enumerate(r))))
            for r in np.asarray(test.X).tolist()]
    acc_m = Fraction(sum(p == t for p, t in zip(mofn.predict(rows, unseen="majority"), truth)), len(truth))
    acc_i = Fraction(sum(p == t for p, t in zip(id3.predict(rows, unseen="majority"), truth)), len(truth))
    print(f"| {name} | {len(train.y)}/{len(test.y)} | {acc_i} = {float(acc_i):.3f} | {sum(1 for _ in id3.leaves())} | "
          f"{t_id3:.2f} | {acc_m} = {float(acc_m):.3f} | {sum(1 for _ in mofn.leaves())} | {t_mofn:.2f} |")


def planted(seed=0):
    """2 of {x1 = 1, x2 = 1, x3 = 1} over 8 binary features (3 relevant), every combination once."""
    X = [list(map(str, bits)) for bits in itertools.product((0, 1), repeat=8)]
    y = ["yes" if sum(int(r[i]) for i in range(3)) >= 2 else "no" for r in X]
    return from_arrays(X, y)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--datasets", default=str(HERE.parent.parent / "shared" / "datasets"))
    args = p.parse_args(argv)
    print("| data | train/test rows | ID3 accuracy | ID3 leaves | ID3 s | M-of-N accuracy | M-of-N leaves | M-of-N s |")
    print("| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    d = planted()
    compare("planted 2-of-3 (train = test)", d, d)
    root = Path(args.datasets)
    for name in ("monks-1", "monks-2", "monks-3", "spect"):
        tr, te = root / f"{name}-train.csv", root / f"{name}-test.csv"
        if tr.exists() and te.exists():
            compare(name, load(tr), load(te))
    for name in ("tic-tac-toe", "vote", "breast-cancer"):
        f = root / f"{name}.csv"
        if f.exists():
            full = load(f, on_missing="value")
            idx = np.random.default_rng(0).permutation(len(full.y))
            cut = len(idx) * 2 // 3
            compare(f"{name} (seeded 2/3 split)", _subset(full, idx[:cut]), _subset(full, idx[cut:]))


def _subset(data, rows):
    X = np.asarray(data.X)[rows]
    Xs = [[data.domains[j][c] if c >= 0 else "?" for j, c in enumerate(r)] for r in X.tolist()]
    return from_arrays(Xs, [data.classes[c] for c in np.asarray(data.y)[rows].tolist()],
                       feature_names=list(data.features), target=data.target, on_missing="value")


if __name__ == "__main__":
    main()
