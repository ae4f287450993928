"""Seeded synthetic categorical data with planted structure, for ``benchmarks/run.py``.

``make(n_rows, n_features=40, seed=...)`` returns an :class:`infotree.data.Dataset`:

* ``n_features`` attributes ``a00, a01, ...``, each with a domain of 2 to 10 values
  (``v0, v1, ...``; the size is drawn per attribute), values drawn uniformly;
* three classes ``c0, c1, c2``; the class is given by a random tree of depth 4 over
  6 of the attributes (each internal node tests one of these not yet tested on its path;
  a branch below the root becomes a leaf early with probability 1/4), then 10% of
  the labels are replaced by a uniformly drawn class (label noise, so full trees grow
  well past the planted depth).

Everything is drawn from ``numpy.random.default_rng(seed)`` in a fixed order, so the
same arguments give the same data on every machine and numpy version that keeps
``Generator``'s stream (numpy >= 1.17).  The Dataset is built directly from the int32
codes (``Dataset(features, target, domains, classes, X, y)``), which is what
``from_arrays`` would give for these labels but without turning 10^6 x 40 cells into
strings first.

``python benchmarks/synthetic.py N [--seed S] [--csv PATH]`` prints a summary (and the
planted tree), or writes the data as CSV.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

DEFAULT_SEED = 20240607
N_CLASSES = 3
PLANTED_DEPTH = 4
NOISE = 0.10
EARLY_LEAF = 0.25
POOL = 6  # the planted tree tests only these many attributes


def _planted(rng, sizes, pool, depth, path_used):
    """A random tree over the attributes in pool: ("leaf", class) or ("split", feature, [subtree per value])."""
    if depth == PLANTED_DEPTH or (depth > 0 and rng.random() < EARLY_LEAF):
        return ("leaf", int(rng.integers(N_CLASSES)))
    free = [j for j in pool if j not in path_used]
    j = int(free[rng.integers(len(free))])
    kids = [_planted(rng, sizes, pool, depth + 1, path_used | {j}) for _ in range(int(sizes[j]))]
    return ("split", j, kids)


def _label(tree, X, rows, y):
    if tree[0] == "leaf":
        y[rows] = tree[1]
        return
    _, j, kids = tree
    col = X[rows, j]
    for v, sub in enumerate(kids):
        sel = rows[col == v]
        if sel.size:
            _label(sub, X, sel, y)


def planted_features(tree) -> list[int]:
    """The attributes the planted tree tests, in pre-order (each once)."""
    out, stack = [], [tree]
    while stack:
        t = stack.pop()
        if t[0] == "split":
            if t[1] not in out:
                out.append(t[1])
            stack.extend(reversed(t[2]))
    return out


def arrays(n_rows: int, n_features: int = 40, seed: int = DEFAULT_SEED):
    """(X int32 (n_rows, n_features), y int32, domain sizes, planted tree)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 11, size=n_features)          # 2..10 values per attribute
    pool = sorted(int(j) for j in rng.choice(n_features, size=min(POOL, n_features), replace=False))
    tree = _planted(rng, sizes, pool, 0, frozenset())
    X = np.empty((n_rows, n_features), dtype=np.int32)
    for j in range(n_features):
        X[:, j] = rng.integers(0, sizes[j], size=n_rows, dtype=np.int32)
    y = np.empty(n_rows, dtype=np.int32)
    _label(tree, X, np.arange(n_rows), y)
    noisy = rng.random(n_rows) < NOISE
    y[noisy] = rng.integers(0, N_CLASSES, size=int(noisy.sum()), dtype=np.int32)
    return X, y, sizes, tree


def make(n_rows: int, n_features: int = 40, seed: int = DEFAULT_SEED):
    """The synthetic data set as an infotree Dataset (see the module docstring)."""
    from infotree.data import Dataset

    X, y, sizes, _ = arrays(n_rows, n_features, seed)
    features = [f"a{j:02d}" for j in range(n_features)]
    domains = [[f"v{v}" for v in range(int(s))] for s in sizes]
    classes = [f"c{c}" for c in range(N_CLASSES)]
    return Dataset(features, "class", domains, classes, X, y, source=f"synthetic-{n_rows}x{n_features}")


def write_csv(data, path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(",".join([*data.features, data.target]) + "\n")
        names = [np.asarray(d, dtype=object) for d in data.domains]
        cls = np.asarray(data.classes, dtype=object)
        cols = [names[j][data.X[:, j]] for j in range(data.n_features)] + [cls[data.y]]
        for row in zip(*cols):
            f.write(",".join(row) + "\n")


def _show(tree, sizes, indent=""):
    if tree[0] == "leaf":
        return [f"{indent}-> c{tree[1]}"]
    _, j, kids = tree
    out = []
    for v, sub in enumerate(kids):
        if sub[0] == "leaf":
            out.append(f"{indent}a{j:02d} = v{v} -> c{sub[1]}")
        else:
            out.append(f"{indent}a{j:02d} = v{v}")
            out.extend(_show(sub, sizes, indent + "|  "))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n_rows", type=int)
    ap.add_argument("--features", type=int, default=40)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--csv", type=Path, help="write the data here instead of printing a summary")
    a = ap.parse_args(argv)
    if a.csv:
        write_csv(make(a.n_rows, a.features, a.seed), a.csv)
        return 0
    X, y, sizes, tree = arrays(a.n_rows, a.features, a.seed)
    print(f"{a.n_rows} rows x {a.features} attributes, seed {a.seed}")
    print("domain sizes:", " ".join(str(int(s)) for s in sizes))
    print("class counts:", np.bincount(y, minlength=N_CLASSES).tolist())
    print("planted attributes:", ", ".join(f"a{j:02d}" for j in planted_features(tree)))
    print("\n".join(_show(tree, sizes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
