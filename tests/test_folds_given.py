"""Given folds and weighted cross-validation (issue 35): rpart's xval vector, a fold
column or file, a scikit-learn splitter; rpart's xval.c with case weights."""

import csv
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree.cli import main
from infotree.complexity import cp_table
from infotree.data import load
from infotree.errors import InfotreeError
from infotree.folds import assign, given, resolve
from infotree.growing import build_tree, fold_grower

KYPHOSIS = str(Path(__file__).parent / "data" / "kyphosis.csv")
OPTS = dict(criterion="gini", min_samples_split=2, min_leaf=1, cp=0, surrogates=0)


def _table(t):
    return [(r.cp, r.nsplit, r.rel_error, r.xerror, r.xstd.square) for r in t.rows]


def test_given_numbers_integer_ids_in_order_and_labels_by_appearance():
    """Integers are numbered in increasing order, other labels as they first appear."""
    assert given([7, 3, 7, 9], 4).tolist() == [2, 1, 2, 3]
    assert given(["b", "a", "b"], 3).tolist() == [1, 2, 1]
    with pytest.raises(InfotreeError, match=r"^the fold ids number 2; the data has 3 rows"):
        given([1, 2], 3)
    with pytest.raises(InfotreeError, match=r"^the fold ids name 1 fold \(5\); cross-validation needs at least 2$"):
        given([5, 5], 2)


def test_resolve_takes_a_splitter_whose_test_sets_partition_the_rows():
    """An object with split(X, y) (scikit-learn's protocol) gives fold k to its k-th test set."""
    class Halves:
        def split(self, X, y):
            yield [2, 3], [0, 1]
            yield [0, 1], [2, 3]

    class Overlap:
        def split(self, X, y):
            yield [1], [0, 1]
            yield [0], [1]

    fold, k, was_given = resolve([0, 1, 0, 1], Halves())
    assert (fold.tolist(), k, was_given) == ([1, 1, 2, 2], 2, True)
    with pytest.raises(InfotreeError, match="overlap"):
        resolve([0, 1], Overlap())


def test_given_folds_equal_the_dealt_ones():
    """The fold ids assign() deals for K and a seed give the very table K and the seed give."""
    data = load(KYPHOSIS, numeric="auto", target="Kyphosis")
    t = build_tree(data, **OPTS)
    dealt = cp_table(t, cp=0, data=data, grow=fold_grower(**OPTS), folds=5, seed=3)
    ids = cp_table(t, cp=0, data=data, grow=fold_grower(**OPTS), folds=assign(data.y, 5, 3).tolist())
    assert _table(dealt) == _table(ids) and (dealt.seed, ids.seed) == (3, None)


def test_weighted_cross_validation_equals_duplicated_rows():
    """Integer weights k are k copies of a row kept in its fold: the same cp table, xerror
    and xstd exactly (rpart's xval.c scales alpha by the weight kept and weighs each loss)."""
    data = load(KYPHOSIS, numeric="auto", target="Kyphosis")
    w = [1 + (i % 3 == 0) for i in range(len(data.y))]
    fold = assign(data.y, 4, 1)
    t = build_tree(data, sample_weight=w, **OPTS)
    weighted = cp_table(t, cp=0, data=data, grow=fold_grower(**OPTS), folds=fold.tolist(), weights=w)
    rows = [i for i, k in enumerate(w) for _ in range(k)]
    dup = data.subset(np.array(rows))
    copies = cp_table(build_tree(dup, **OPTS), cp=0, data=dup, grow=fold_grower(**OPTS), folds=fold[rows].tolist())
    assert _table(weighted) == _table(copies)
    unweighted = cp_table(build_tree(data, **OPTS), cp=0, data=data, grow=fold_grower(**OPTS), folds=fold.tolist())
    assert _table(weighted) != _table(unweighted)


def test_select_with_weights_is_allowed():
    """ccp_select cross-validates weighted rows (it used to refuse them)."""
    data = load(KYPHOSIS, numeric="auto", target="Kyphosis")
    w = [Fraction(1 + i % 2) for i in range(len(data.y))]
    t = build_tree(data, criterion="gini", sample_weight=w, prune="cost-complexity", ccp_select="min",
                   folds=assign(data.y, 3, 0).tolist(), cp=0)
    assert t.root.n == sum(w)


@pytest.fixture
def kyphosis_plus(tmp_path):
    rows = list(csv.reader(open(KYPHOSIS)))
    rows[0] += ["fold", "w"]
    for i, r in enumerate(rows[1:]):
        r += [str(i % 4 + 1), str(1 + (i % 3 == 0))]
    path = tmp_path / "ky.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows(rows)
    (tmp_path / "folds.txt").write_text("".join(f"{i % 4 + 1}\n" for i in range(len(rows) - 1)))
    return path


def test_cli_fold_column_and_file_agree_and_leave_the_features(kyphosis_plus, capsys):
    """--folds-from COL and --folds-from FILE give the same table; the columns are no features."""
    base = ["cptable", str(kyphosis_plus), "--target", "Kyphosis", "--algorithm", "cart", "--numeric", "auto",
            "--sample-weight", "w", "--cp", "0", "--format", "json"]
    assert main(base + ["--folds-from", "fold"]) == 0
    by_column = capsys.readouterr().out
    assert main(base + ["--folds-from", str(kyphosis_plus.parent / "folds.txt"), "--drop", "fold"]) == 0
    assert capsys.readouterr().out == by_column
    assert '"seed": null' in by_column and '"folds": 4' in by_column
    assert main(["tree", str(kyphosis_plus), "--target", "Kyphosis", "--algorithm", "cart", "--numeric", "auto",
                 "--sample-weight", "w", "--folds-from", "fold", "--prune", "cost-complexity", "--select", "min",
                 "--format", "json"]) == 0
    tree = capsys.readouterr().out
    assert '"features": ["Age", "Number", "Start"]' in tree


def test_cli_bad_weight_is_one_line(tmp_path, capsys):
    """A weight that is not a positive number names the file, line, column and value."""
    path = tmp_path / "d.csv"
    path.write_text("x,w,y\n1,2,a\n2,-1,b\n")
    assert main(["tree", str(path), "--algorithm", "cart", "--sample-weight", "w"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"infotree: error: {path} line 3, column 'w': sample weight '-1' is not a positive number; a weight is "
        f"a number above 0 such as 1, 2.5 or 1/3")
