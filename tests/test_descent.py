"""A forest's training rows sent down its trees all at once (infotree.descent.Flat) reach the
node Tree._descend reaches, one row at a time; the rows it leaves to that descent are those
with a missing value on their path.  Checked on every training row of every tree, with a
feature's values permuted too (permutation importance's rows), on CART (cuts and subsets),
ID3 (one branch per value, numeric cuts) and C4.5 (missing values) forests."""

from pathlib import Path

import numpy as np
import pytest

from infotree import grow_forest, load
from infotree.descent import Flat

DATA = Path(__file__).resolve().parent / "data"

FORESTS = [
    ("stagec.csv", dict(numeric="auto", on_missing="keep"), dict(criterion="gini", max_features=3)),
    ("stagec.csv", dict(numeric="auto", on_missing="keep"), dict(criterion="entropy", surrogates=0)),
    ("weather.numeric.csv", dict(numeric="auto"), dict(criterion="gain", max_features=2)),
    ("breast-cancer.arff", dict(on_missing="value"), dict(criterion="gain", max_features=3)),
    ("breast-cancer.arff", dict(on_missing="keep"), dict(criterion="gini", max_features=3)),
    ("labor.csv", dict(numeric="auto", on_missing="keep"), dict(criterion="gain_ratio", max_features=4)),
    ("kyphosis.csv", dict(numeric="auto", target="Kyphosis"), dict(criterion="misclassification")),
]


def _descended(tree, codes):
    return [tree._descend(tree.root, c) for c in codes]


@pytest.mark.parametrize("name,read,kw", FORESTS, ids=[f"{n} {k['criterion']}" for n, _, k in FORESTS])
def test_rows_sent_down_at_once_reach_the_nodes_a_row_at_a_time_does(name, read, kw):
    data = load(DATA / name, **read)
    forest = grow_forest(data, n_trees=6, seed=11, **kw)
    X = np.asarray(data.X)
    codes = forest._codes(None)
    rows = np.arange(data.n_rows)
    rng = np.random.default_rng(3)
    stopped_some = 0
    for tree in forest.trees:
        flat = Flat(tree, data)
        for j in (None, *range(len(data.features))):
            perm = rng.permutation(data.n_rows)
            mine = codes if j is None else [c[:j] + [codes[p][j]] + c[j + 1:] for c, p in zip(codes, perm)]
            at, stopped = (flat.leaves(X, rows) if j is None
                           else flat.leaves(X, rows, j, X[perm, j].astype(np.int64)))
            want = _descended(tree, mine)
            for q in range(data.n_rows):
                if stopped[q]:  # left to Tree._descend: a missing value met on the path
                    node, stopped_some = tree.root, stopped_some + 1
                    while node.test is not None and (c := mine[q][node.test.feature]) is not None and c != -1:
                        node = node.children[node.test.route(c)]
                    assert node.test is not None, "a row the arrays could send was left to the descent"
                else:
                    assert flat.nodes[at[q]] is want[q]
    if data.X.min() < 0:
        assert stopped_some  # (the data's missing values were met)
