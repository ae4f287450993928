"""The estimators' cross-validated cp selection on given folds (cv=), and rpart's prior-adjusted
class probabilities (yprob) under predict_proba(routing="rpart")."""

import csv
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import CARTClassifier
from infotree.complexity import cp_table
from infotree.data import read_csv
from infotree.errors import InfotreeError
from infotree.growing import build_tree, fold_grower

KYPHOSIS = Path(__file__).parent / "data" / "kyphosis.csv"


def _xy():
    rows = [line.split(",") for line in KYPHOSIS.read_text().split()[1:]]
    return np.array([[int(v) for v in r[1:]] for r in rows]), [r[0] for r in rows]


def test_cv_takes_a_fold_array_or_a_splitter():
    """ccp_select="min" with cv = one fold id per row prunes to the cp table's row of least
    xerror on those folds (kyphosis, folds 1..5 dealt in turn: xerror 1, 15/17, 15/17 for 0, 1
    and 4 splits, so 1 split, the first of the least); a splitter with the same test sets
    (PredefinedSplit) grows the same tree; ccp_alpha with it is refused."""
    X, y = _xy()
    folds = [i % 5 + 1 for i in range(len(y))]
    est = CARTClassifier(ccp_select="min", cv=folds, min_samples_split=20, min_samples_leaf=7).fit(X, y)
    data = read_csv(KYPHOSIS, target="Kyphosis", numeric="auto")
    full = build_tree(data, criterion="gini", min_samples_split=20, min_leaf=7, cp=0)
    table = cp_table(full, data=data, folds=folds, grow=fold_grower(criterion="gini", min_samples_split=20,
                                                                      min_leaf=7))
    assert [(r.nsplit, r.xerror) for r in table.rows] == [(0, 1), (1, Fraction(15, 17)), (4, Fraction(15, 17))]
    assert len(list(est.tree_.leaves())) == 2 and est.tree_.params["ccp_select"] == "min"
    model_selection = pytest.importorskip("sklearn.model_selection")
    split = model_selection.PredefinedSplit(np.array(folds) - 1)
    same = CARTClassifier(ccp_select="min", cv=split, min_samples_split=20, min_samples_leaf=7).fit(X, y)
    assert (same.predict(X) == est.predict(X)).all() and len(list(same.tree_.leaves())) == 2
    with pytest.raises(InfotreeError, match="ccp_alpha and ccp_select both prune"):
        CARTClassifier(ccp_select="1se", ccp_alpha=0.01).fit(X, y)


def test_predict_proba_with_priors_is_rparts_yprob():
    """rpart(Kyphosis ~ ., parms = list(prior = c(0.6, 0.4), loss = matrix(c(0, 3, 1, 0), 2)))
    predicts type = "prob" 0.34337928823340813 / 0.65662071176659187 for row 1 (rpart 4.1.19):
    the leaf's counts times prior over the root's class count (64 absent, 17 present),
    normalised, here 1071/3119; infotree's default routing keeps the plain shares."""
    data = read_csv(KYPHOSIS, target="Kyphosis", numeric="auto")
    t = build_tree(data, criterion="gini", prior={"absent": "3/5", "present": "2/5"}, loss=[[0, 1], [3, 0]],
                   min_samples_split=20, min_leaf=7, cp=Fraction(1, 100))
    with open(KYPHOSIS, newline="") as fh:
        row = {k: v for k, v in next(csv.DictReader(fh)).items() if k != "Kyphosis"}
    p = t.predict_proba([row], routing="rpart")[0]
    leaf = t._leaf_of(t._descend(t.root, t._codes([row], "error")[0]))
    a, b = leaf.class_counts.tolist()
    expected = Fraction(a * 3, 5 * 64) / (Fraction(a * 3, 5 * 64) + Fraction(b * 2, 5 * 17))
    assert p == {"absent": expected, "present": 1 - expected} and expected == Fraction(1071, 3119)
    assert float(p["absent"]) == pytest.approx(0.34337928823340813, rel=1e-15)
    assert t.predict_proba([row])[0] == {"absent": Fraction(a, a + b), "present": Fraction(b, a + b)}
