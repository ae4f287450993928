"""The estimators as a scikit-learn user meets them: labels in y's dtype, sorted classes_,
floats out with exact twins, pickling, weights, the tree's shape; scikit-learn's tools
(cross_val_score, GridSearchCV, pipelines, clone) where scikit-learn is installed."""

import doctest
import importlib
import pickle
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from infotree import (BaggingClassifier, C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier, InfotreeError,
                      NotFittedError, RandomForestClassifier)
from infotree.printers import render

CLASSIFIERS = [ID3Classifier, C45Classifier, CARTClassifier,
               lambda: RandomForestClassifier(n_estimators=5, random_state=0),
               lambda: BaggingClassifier(n_estimators=3, random_state=0)]
X4 = [["a", 1], ["a", 2], ["b", 3], ["b", 4]]


@pytest.mark.parametrize("make", CLASSIFIERS)
@pytest.mark.parametrize("y", [[2, 2, 0, 0], [True, True, False, False], ["yes", "yes", "no", "no"],
                               np.array([2.0, 2.0, 0.0, 0.0])])
def test_labels_come_back_in_their_dtype_and_classes_are_sorted(make, y):
    """predict returns a numpy array of y's labels (ints stay ints); classes_ is sorted as
    numpy.unique sorts it, and predict_proba's columns follow it."""
    clf = make().fit(X4, y)
    expected = np.unique(np.asarray(y))
    assert clf.classes_.tolist() == expected.tolist() and clf.classes_.dtype == expected.dtype
    pred = clf.predict(X4)
    assert isinstance(pred, np.ndarray) and pred.dtype == expected.dtype and pred.tolist() == list(y)
    proba = clf.predict_proba(X4)
    assert proba.dtype == np.float64 and proba.shape == (4, 2)
    assert clf.classes_[proba.argmax(axis=1)].tolist() == list(y)
    exact = clf.predict_proba_exact(X4)
    assert all(isinstance(p, Fraction) for p in exact.ravel())
    assert [float(p) for p in exact.ravel()] == proba.ravel().tolist()
    assert type(clf.score(X4, y)) is float and clf.score_exact(X4, y) == 1


def test_roc_auc_of_a_perfect_classifier_is_one():
    """With 'yes' first in y, column 1 of predict_proba is still classes_[1] = 'yes' (sorted),
    so the AUC of a perfect classifier is 1, not 0."""
    y = ["yes", "no", "yes", "no"]
    X = [["s"], ["r"], ["s"], ["r"]]
    clf = ID3Classifier().fit(X, y)
    assert clf.classes_.tolist() == ["no", "yes"]
    p = clf.predict_proba(X)[:, 1]
    pos = [s for s, t in zip(p, y) if t == "yes"]
    neg = [s for s, t in zip(p, y) if t == "no"]
    auc = sum((a > b) + (a == b) / 2 for a in pos for b in neg) / (len(pos) * len(neg))  # Mann-Whitney
    assert auc == 1


def test_score_refuses_weights_of_the_wrong_length_and_negative_weights():
    """A weight per row, none negative: score(X, y, sample_weight=[1]) on 4 rows is refused, not truncated."""
    clf = CARTClassifier().fit(X4, [1, 1, 0, 0])
    with pytest.raises(InfotreeError, match=r"sample_weight has shape \(1,\); expected \(4,\), one weight per row"):
        clf.score(X4, [1, 1, 0, 0], sample_weight=[1])
    with pytest.raises(InfotreeError, match=r"sample_weight\[1\] = -1 is not allowed"):
        clf.score(X4, [1, 1, 0, 0], sample_weight=[1, -1, 1, 1])
    with pytest.raises(InfotreeError, match="sample_weight is zero for every row"):
        clf.score(X4, [1, 1, 0, 0], sample_weight=[0, 0, 0, 0])
    # weights 3, 1, 1, 1 and the first row wrong: 3/6 of the weight is missed
    assert clf.score_exact(X4, [0, 1, 0, 0], sample_weight=[3, 1, 1, 1]) == Fraction(1, 2)
    reg = CARTRegressor().fit(X4, [1, 2, 3, 4])
    with pytest.raises(InfotreeError, match="one weight per row"):
        reg.score(X4, [1, 2, 3, 4], sample_weight=[1, 1])


def test_int_labels_scored_against_float_labels_compare_by_value():
    """Classes 0 and 1 fitted as ints equal 0.0 and 1.0 (as scikit-learn's accuracy_score);
    strings never equal numbers: refused rather than scored 0."""
    clf = ID3Classifier().fit(X4, [1, 1, 0, 0])
    assert clf.score(X4, np.array([1.0, 1.0, 0.0, 1.0])) == 0.75
    with pytest.raises(InfotreeError, match="y holds text labels but the classes are number"):
        clf.score(X4, ["1", "1", "0", "0"])


def test_a_row_of_weight_zero_is_a_row_left_out():
    """sample_weight 0 grows the tree grown without that row (scikit-learn's meaning)."""
    X = [[1], [2], [3], [4], [5], [6]]
    y = ["p", "p", "q", "p", "q", "q"]
    weighted = CARTClassifier().fit(X, y, sample_weight=[1, 1, 1, 0, 1, 1])
    dropped = CARTClassifier().fit(X[:3] + X[4:], y[:3] + y[4:])
    assert weighted.get_n_leaves() == dropped.get_n_leaves() == 2  # x <= 2.5: p p | q q q
    assert weighted.predict(X).tolist() == dropped.predict(X).tolist()
    assert weighted.classes_.tolist() == ["p", "q"]


def test_class_weight_balanced_is_sample_weight_n_over_k_n_c():
    """class_weight='balanced' weighs class c by n / (k·n_c), exactly: 6 rows, 'p' 4 times -> 3/4, 'q' -> 3/2."""
    X = [[1], [2], [3], [4], [5], [6]]
    y = ["p", "p", "q", "p", "q", "p"]
    balanced = CARTClassifier(class_weight="balanced", max_depth=1).fit(X, y)
    by_hand = CARTClassifier(max_depth=1).fit(X, y, sample_weight=[Fraction(3, 4) if c == "p" else Fraction(3, 2)
                                                                      for c in y])
    assert balanced.tree_.root.class_counts.tolist() == [3, 3]
    assert balanced.predict_proba_exact(X).tolist() == by_hand.predict_proba_exact(X).tolist()
    with pytest.raises(InfotreeError, match="class_weight 'even' is not allowed"):
        CARTClassifier(class_weight="even").fit(X, y)


def test_feature_importances_are_the_normalised_impurity_decreases():
    """Gini decreases by hand: root n=4 [2, 2] -> x0 splits it into [2, 0] and [0, 2]: 4·1/2 = 2
    on x0; nothing on x1.  ID3 on weather: the exact shares are those of n·IG per split."""
    clf = CARTClassifier().fit([["a", 1], ["a", 1], ["b", 1], ["b", 2]], [0, 0, 1, 1])
    assert clf.feature_importances_exact_ == [1, 0] and clf.feature_importances_.tolist() == [1.0, 0.0]
    X = [["a", "u"], ["a", "v"], ["b", "u"], ["b", "v"], ["a", "u"], ["b", "v"]]
    y = ["p", "q", "p", "q", "p", "p"]
    # root [4p, 2q] split on x1: u -> [3p], v -> [1p, 2q], which x0 splits: a -> [q], b -> [p, q] ... by hand:
    # H(root) = H(2/3), H(v) = H(1/3): decrease at root 6·H(2/3) - 3·H(1/3) = 3·H(1/3), at v 3·H(1/3) - 2·1
    tree = ID3Classifier().fit(X, y)
    assert tree.tree_.root.split_feature == "x1"
    from sympy import Rational, log

    def h(p):
        return -p * log(p, 2) - (1 - p) * log(1 - p, 2)
    on_x1, on_x0 = 3 * h(Rational(1, 3)), 3 * h(Rational(1, 3)) - 2
    expected = [float(on_x0 / (on_x0 + on_x1)), float(on_x1 / (on_x0 + on_x1))]
    assert tree.feature_importances_.tolist() == pytest.approx(expected, rel=1e-15)
    exact = tree.feature_importances_exact_
    assert [float(v) for v in exact] == pytest.approx(expected, rel=1e-15) and exact[0] != exact[1]


def test_the_tree_shape_methods():
    """get_depth, get_n_leaves, apply (pre-order node ids, as scikit-learn numbers a depth-first
    tree) and decision_path on a tree whose shape is known: x <= 2.5, then x <= 3.5."""
    X, y = [[1], [2], [3], [4]], [0, 0, 1, 0]
    clf = CARTClassifier().fit(X, y)
    assert clf.get_depth() == 2 and clf.get_n_leaves() == 3
    # node ids: 0 root, 1 left leaf (x <= 2.5), 2 right split, 3 (x <= 3.5), 4
    assert clf.apply(X).tolist() == [1, 1, 3, 4]
    path = clf.decision_path(X)
    path = path.toarray() if hasattr(path, "toarray") else path
    assert path.tolist() == [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 1, 1, 0], [1, 0, 1, 0, 1]]
    assert clf.max_features_ == 1


def test_max_features_draws_from_random_state():
    """max_features draws each node's features from random_state's stream: the same seed grows
    the same tree; max_features=None considers every feature whatever the seed."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(60, 6)).tolist()
    y = [int(r[0] + r[3] > 3) for r in X]
    trees = [CARTClassifier(max_features=2, random_state=s).fit(X, y) for s in (1, 1, 2, 3, 4)]
    assert trees[0].apply(X).tolist() == trees[1].apply(X).tolist()
    roots = {t.tree_.root.split_feature for t in trees}
    assert len(roots) > 1  # four seeds, not all the same root feature
    full = [CARTClassifier(random_state=s).fit(X, y).apply(X).tolist() for s in (1, 2)]
    assert full[0] == full[1]


def test_regressor_predicts_floats_and_has_no_predict_proba():
    """predict: floats (exact means through predict_exact); R² as a float; no predict_proba."""
    X, y = [[1], [2], [3], [4]], [1, 2, 10, 11]
    reg = CARTRegressor(max_depth=1).fit(X, y)
    assert reg.predict(X).tolist() == [1.5, 1.5, 10.5, 10.5]
    assert reg.predict_exact([[1]]).tolist() == [Fraction(3, 2)]
    # SS_res = 4·(1/2)^2 = 1, SS_tot = 2·(4.5)^2 + 2·(4.5)^2 = 82 -> R² = 81/82
    assert reg.score_exact(X, y) == Fraction(81, 82) and reg.score(X, y) == 81 / 82
    assert not hasattr(reg, "predict_proba") and not hasattr(reg, "classes_")
    assert reg.score_exact(X, [5, 5, 5, 5]) == 0  # SS_tot = 0: scikit-learn's r2_score gives 0


@pytest.mark.parametrize("make", [*CLASSIFIERS, CARTRegressor])
def test_fitted_estimators_pickle(make):
    """A fitted estimator (its tree or forest) survives pickle with the same predictions and printout."""
    y = [2, 2, 0, 0]
    est = make().fit(X4, y)
    again = pickle.loads(pickle.dumps(est))
    assert again.predict(X4).tolist() == est.predict(X4).tolist()
    if hasattr(est, "tree_"):
        import io

        a, b = io.StringIO(), io.StringIO()
        render(est.tree_, a)
        render(again.tree_, b)
        assert a.getvalue() == b.getvalue()


def test_a_deep_tree_pickles():
    """Nodes pickle without their links, so a tree 500 levels deep does not hit the recursion
    limit (nested, 400 levels did)."""
    X = np.arange(501, dtype=float).reshape(-1, 1)
    y = np.arange(501) % 2
    clf = CARTClassifier().fit(X, y)
    assert clf.get_depth() == 500
    again = pickle.loads(pickle.dumps(clf))
    assert (again.predict(X) == y).all() and again.get_depth() == 500


def test_not_fitted_and_bad_input_messages():
    """Unfitted use, X of one dimension, a y of the wrong length: one-line errors."""
    with pytest.raises(NotFittedError, match="this CARTClassifier is not fitted yet"):
        CARTClassifier().predict(X4)
    clf = CARTClassifier().fit(X4, [1, 1, 0, 0])
    with pytest.raises(ValueError, match="X has 1 features, but CARTClassifier is expecting 2 features as input"):
        clf.predict([[1]])
    with pytest.raises(InfotreeError, match=r"Expected 2D array, got 1D array instead"):
        clf.predict([1, 2])
    with pytest.raises(InfotreeError, match="X has 4 rows but y has 3 labels"):
        CARTClassifier().fit(X4, [1, 1, 0])
    with pytest.raises(InfotreeError, match="Unknown label type: continuous"):
        CARTClassifier().fit(X4, [0.5, 1, 0, 0])


def test_dataframes_keep_their_names():
    """A DataFrame's string columns are the tree's feature names and feature_names_in_; a
    Series' name is the target's; integer column labels give no names (as scikit-learn)."""
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame({"outlook": ["sunny", "sunny", "rain", "rain"], "temp": [30, 25, 20, 15]})
    y = pd.Series(["no", "no", "yes", "yes"], name="play")
    clf = C45Classifier(min_objects=1).fit(X, y)
    assert clf.feature_names_in_.tolist() == ["outlook", "temp"] and clf.tree_.target == "play"
    assert clf.predict(X).tolist() == y.tolist()
    with pytest.raises(ValueError, match="The feature names should match those that were passed during fit"):
        clf.predict(X[["temp", "outlook"]])
    numbered = CARTClassifier().fit(pd.DataFrame([[1, "a"], [2, "b"]]), [0, 1])
    assert not hasattr(numbered, "feature_names_in_")
    assert numbered.predict(pd.DataFrame([[1, "a"]])).tolist() == [0]
    tuples = pd.MultiIndex.from_tuples([("g", "x"), ("g", "y")])
    multi = CARTClassifier().fit(pd.DataFrame([[1, "a"], [2, "b"]], columns=tuples), [0, 1])
    assert multi.predict(pd.DataFrame([[2, "b"]], columns=tuples)).tolist() == [1]
    with pytest.raises(InfotreeError, match="X is None; CARTClassifier needs a 2-D table of features"):
        multi.predict(None)


def test_the_command_line_does_not_import_scikit_learn(tmp_path):
    """scikit-learn takes about a second to import: neither `import infotree` nor `infotree tree` loads it."""
    code = ("import sys, infotree\nfrom infotree.cli import main\n"
            "main(['tree', 'worked_examples/play_tennis/data.csv', '-o', sys.argv[1]])\n"
            "assert 'sklearn' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out.txt")], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent)
    assert (done.returncode, done.stderr) == (0, "") and (tmp_path / "out.txt").read_text().startswith("outlook")


def test_scikit_learn_tools_take_the_estimators():
    """cross_val_score, GridSearchCV, make_pipeline, clone, is_classifier / is_regressor."""
    pytest.importorskip("sklearn")
    from sklearn.base import clone, is_classifier, is_regressor
    from sklearn.datasets import load_iris
    from sklearn.exceptions import NotFittedError as SklearnNotFitted
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    X, y = load_iris(return_X_y=True)
    scores = cross_val_score(CARTClassifier(max_depth=3), X, y, cv=3)
    assert scores.dtype == np.float64 and scores.min() > 0.85
    grid = GridSearchCV(CARTClassifier(), {"max_depth": np.array([1, 2, 3])}, cv=3).fit(X, y)
    assert grid.best_params_["max_depth"] in (2, 3)
    pipe = make_pipeline(FunctionTransformer(), C45Classifier()).fit(X, y)
    assert pipe.score(X, y) > 0.95
    assert is_classifier(ID3Classifier()) and is_classifier(RandomForestClassifier())
    assert is_regressor(CARTRegressor()) and not is_classifier(CARTRegressor())
    copy = clone(CARTClassifier(ccp_alpha=0.01, max_features="sqrt"))
    assert copy.get_params()["ccp_alpha"] == 0.01 and not hasattr(copy, "tree_")
    with pytest.raises(SklearnNotFitted):
        ID3Classifier().predict(X)


@pytest.mark.parametrize("module", ["infotree.estimators", "infotree.forest_estimators", "infotree.sklearn_base"])
def test_docstring_examples_run(module):
    """The examples in the module docstrings run and print what they claim."""
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_joblib_dumps_and_loads_a_fitted_forest(tmp_path):
    """joblib (scikit-learn's model store) keeps a forest's exact probabilities."""
    joblib = pytest.importorskip("joblib")
    clf = RandomForestClassifier(n_estimators=3, random_state=0).fit(X4, ["p", "p", "q", "q"])
    joblib.dump(clf, tmp_path / "model.joblib")
    again = joblib.load(tmp_path / "model.joblib")
    assert again.predict_proba_exact(X4).tolist() == clf.predict_proba_exact(X4).tolist()
