"""Is an M-of-N node worth its cost? A prototype M-of-N tree against ID3, on data with M-of-N concepts.

    python benchmarks/m_of_n.py [--datasets ../shared/datasets]

The M-of-N tree is grown here, outside the builders (the prototype of issue 23, item 6):
at each node :func:`infotree.mofn.grow_m_of_n` grows the test from the best single
condition; the node splits on it (two branches) when its gain is positive, else it is a
majority leaf.  ID3 is infotree's ``build_tree(criterion="gain")``.  For each data set:
test accuracy (exact fraction), leaves, and fit time (CPU seconds, one run).
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
from infotree.mofn import grow_m_of_n

HERE = Path(__file__).resolve().parent


def grow(data, rows):
    """A node: (majority class, None) or (majority, (test, left, right))."""
    y = np.asarray(data.y)[rows]
    counts = np.bincount(y, minlength=len(data.classes))
    label = int(counts.argmax())
    if (counts > 0).sum() <= 1:
        return label, None
    try:
        s = grow_m_of_n(data, rows)
    except Exception:  # no separating condition left
        return label, None
    if not s.best.candidate.gain > 0:
        return label, None
    test = s.best.split
    X = np.asarray(data.X)
    go = np.array([test.route(X[r]) for r in rows.tolist()])
    return label, (test, grow(data, rows[go == 0]), grow(data, rows[go == 1]))


def leaves(node):
    return 1 if node[1] is None else leaves(node[1][1]) + leaves(node[1][2])


def predict(node, row):
    while node[1] is not None:
        test, left, right = node[1]
        node = left if test.route(row) == 0 else right
    return node[0]


def codes_for(train, test):
    """The test rows as the training data's value codes."""
    X = np.asarray(test.X)
    out = np.full(X.shape, -1)
    for j in range(X.shape[1]):
        index = {v: i for i, v in enumerate(train.domains[j])}
        k = test.features.index(train.features[j])
        out[:, j] = [index.get(test.domains[k][c], -1) if c >= 0 else -1 for c in X[:, k].tolist()]
    return out


def compare(name, train, test):
    t0 = time.process_time()
    mofn = grow(train, np.arange(len(train.y)))
    t_mofn = time.process_time() - t0
    t0 = time.process_time()
    id3 = build_tree(train, criterion="gain")
    t_id3 = time.process_time() - t0
    X = codes_for(train, test)
    truth = [test.classes[c] for c in test.y.tolist()]
    acc_m = Fraction(sum(train.classes[predict(mofn, r)] == t for r, t in zip(X.tolist(), truth)), len(truth))
    rows = [dict(zip(test.features, (test.domains[j][c] if c >= 0 else "?" for j, c in enumerate(r))))
            for r in np.asarray(test.X).tolist()]
    acc_i = Fraction(sum(p == t for p, t in zip(id3.predict(rows, unseen="majority"), truth)), len(truth))
    print(f"| {name} | {len(train.y)}/{len(test.y)} | {acc_i} = {float(acc_i):.3f} | {sum(1 for _ in id3.leaves())} | "
          f"{t_id3:.2f} | {acc_m} = {float(acc_m):.3f} | {leaves(mofn)} | {t_mofn:.2f} |")


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
