"""scikit-learn style shells around :func:`~infotree.tree.build_tree`.

``ID3Classifier`` and ``C45Classifier`` have ``fit(X, y)`` (returns self),
``predict``, exact ``predict_proba`` (Fractions), ``classes_``,
``feature_names_in_``, ``tree_``, ``get_params``/``set_params``.  No
scikit-learn dependency.

    >>> clf = ID3Classifier().fit([["sunny"], ["rainy"]], ["no", "yes"])
    >>> clf.predict([["rainy"]])
    ['yes']
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .data import from_arrays
from .errors import InfotreeError, NotFittedError
from .smoothing import smoothing_named
from .tree import build_tree

__all__ = ["C45Classifier", "CARTClassifier", "CARTRegressor", "ID3Classifier", "PruningPathBunch"]


class _TreeClassifier:
    _criterion = "gain"
    _numeric = None       # ID3: columns are categorical unless named
    _on_missing = "reject"
    _params = ("max_depth", "min_samples_split", "min_gain", "stop_at_zero_gain", "min_objects", "collapse",
               "average_gain_slack", "unseen", "numeric", "threshold", "prune", "confidence", "lookahead", "smoothing")

    def __init__(self, *, max_depth=None, min_samples_split=2, min_gain=None, stop_at_zero_gain=False,
                 min_objects=2, collapse=None, average_gain_slack=Fraction(1, 1000), unseen="error",
                 numeric="default", threshold=None, prune="none", confidence=Fraction(1, 4), lookahead=0,
                 smoothing="none"):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_gain = min_gain
        self.stop_at_zero_gain = stop_at_zero_gain
        self.min_objects = min_objects
        self.collapse = collapse
        self.average_gain_slack = average_gain_slack
        self.unseen = unseen
        #: which columns are numeric: "auto" (every column of numbers), None, or a list of names;
        #: "default" is "auto" for C4.5 and None for ID3
        self.numeric = numeric
        self.threshold = threshold
        self.prune = prune
        self.confidence = confidence
        #: 1: score each feature by the best two-level gain (docs/pet_lookahead.md)
        self.lookahead = lookahead
        #: predict_proba's leaf probabilities: "none", "laplace" or "m=M" (infotree.smoothing)
        self.smoothing = smoothing

    def _options(self) -> dict:
        """build_tree's keywords that only some estimators have."""
        return {}

    def get_params(self, deep=True) -> dict:
        return {k: getattr(self, k) for k in self._params}

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self._params:
                raise InfotreeError(f"unknown parameter {k!r} for {type(self).__name__}; parameters are: {', '.join(self._params)}")
            setattr(self, k, v)
        return self

    def __repr__(self):
        changed = [f"{k}={v!r}" for k, v in self.get_params().items() if v != type(self)().get_params()[k]]
        return f"{type(self).__name__}({', '.join(changed)})"

    def fit(self, X, y, *, feature_names=None):
        """Grow the tree on feature table ``X`` (array-like or DataFrame) and labels ``y``."""
        smoothing_named(self.smoothing)
        if hasattr(X, "columns") and feature_names is None:
            feature_names = [str(c) for c in X.columns]
            X = X.to_numpy(dtype=object)
        numeric = self._numeric if self.numeric == "default" else self.numeric
        data = from_arrays(X, y, feature_names=feature_names, target="class", numeric=numeric,
                           on_missing=self._on_missing)
        if self.prune == "reduced-error":
            raise InfotreeError("reduced-error pruning needs a validation set: use build_tree(..., validation=...)")
        self.tree_ = build_tree(data, criterion=self._criterion, max_depth=self.max_depth,
                                min_samples_split=self.min_samples_split, min_gain=self.min_gain,
                                stop_at_zero_gain=self.stop_at_zero_gain, min_objects=self.min_objects,
                                collapse=self.collapse, average_gain_slack=self.average_gain_slack,
                                threshold=self.threshold, prune=self.prune, confidence=self.confidence,
                                lookahead=self.lookahead, **self._options())
        self.classes_ = np.array(data.classes, dtype=object)
        self.feature_names_in_ = np.array(data.features, dtype=object)
        self.n_features_in_ = len(data.features)
        return self

    def _tree(self):
        if not hasattr(self, "tree_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit(X, y) first")
        return self.tree_

    def _rows(self, X):
        t = self._tree()
        if hasattr(X, "columns"):
            return X.to_dict(orient="records")
        return [list(r) for r in X]

    def predict(self, X) -> list:
        """One class label per row of ``X``."""
        t = self._tree()
        return t.predict(self._rows(X), unseen="majority" if self.unseen == "majority" else "error")

    def predict_proba(self, X) -> np.ndarray:
        """Exact class probabilities (``Fraction``), shape (n_rows, n_classes), columns in ``classes_``
        order: the leaves' frequencies, or smoothed as ``smoothing`` says (``"laplace"``, ``"m=M"``)."""
        t = self._tree()
        probs = t.predict_proba(self._rows(X), unseen="majority" if self.unseen == "majority" else "error",
                                smoothing=self.smoothing)
        return np.array([[p[c] for c in t.classes] for p in probs], dtype=object).reshape(len(probs), len(t.classes))


class ID3Classifier(_TreeClassifier):
    """ID3: maximal information gain; zero-gain splits are made unless ``stop_at_zero_gain``.
    ``m_of_n=True``: every split is the M-of-N test grown at its node (:mod:`infotree.mofn`)."""

    _criterion = "gain"
    _params = _TreeClassifier._params + ("m_of_n",)

    def __init__(self, *, m_of_n=False, **params):
        super().__init__(**params)
        #: grow M-of-N tests (ID2-of-3) instead of one-feature splits (docs/pet_lookahead.md)
        self.m_of_n = m_of_n

    def _options(self) -> dict:
        return {"m_of_n": self.m_of_n} if self.m_of_n else {}


class C45Classifier(_TreeClassifier):
    """C4.5 as Weka's J48 defines it: gain ratio, average-gain filter, collapse; numeric columns
    (binary cuts) and missing values (NaN/None: exact fractional weights); ``prune="pessimistic"``
    gives J48's default tree (the default here is the whole grown tree, J48 -U)."""

    _criterion = "gain_ratio"
    _numeric = "auto"
    _on_missing = "keep"


class CARTClassifier(_TreeClassifier):
    """CART with exact impurities: binary splits (numeric thresholds at midpoints, subsets of
    nominal values), scikit-learn's names and defaults (the tree is grown fully).

    ``criterion``: ``"gini"``, ``"entropy"`` or ``"misclassification"``;
    ``min_samples_leaf`` rows at least on each side (rpart's minbucket); ``ccp_alpha``
    prunes the grown tree by cost complexity as scikit-learn does (the smallest subtree
    minimising R(T) + α·|leaves|, R(t) = N_t/N · impurity(t); an exact rational: a float
    is read from its shortest text), and ``cost_complexity_pruning_path(X, y)`` gives
    every effective α with the leaves' total impurity, exactly.  ``fit`` takes
    ``sample_weight``; ``predict_proba`` gives exact fractions and ``score`` the exact
    (weighted) accuracy.
    """

    _numeric = "auto"
    _regression = False
    _params = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf", "ccp_alpha", "max_subsets",
               "unseen", "numeric", "lookahead", "smoothing")

    def __init__(self, *, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1, ccp_alpha=0,
                 max_subsets=1 << 15, unseen="error", numeric="default", lookahead=0, smoothing="none"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.ccp_alpha = ccp_alpha
        self.max_subsets = max_subsets
        self.unseen = unseen
        self.numeric = numeric
        self.lookahead = lookahead
        self.smoothing = smoothing

    def fit(self, X, y, *, sample_weight=None, feature_names=None):
        """Grow the tree on ``X`` and ``y``, each row weighted by ``sample_weight`` (exactly)."""
        smoothing_named(self.smoothing)
        self._check_criterion()
        alpha = _ccp_alpha(self.ccp_alpha)
        data = self._grow(X, y, sample_weight, feature_names)
        if alpha:
            from .complexity import prune

            prune(self.tree_, alpha=alpha, risk="impurity")
        if not self._regression:
            self.classes_ = np.array(data.classes, dtype=object)
        self.feature_names_in_ = np.array(data.features, dtype=object)
        self.n_features_in_ = len(data.features)
        return self

    def _grow(self, X, y, sample_weight, feature_names):
        if hasattr(X, "columns") and feature_names is None:
            feature_names = [str(c) for c in X.columns]
            X = X.to_numpy(dtype=object)
        numeric = self._numeric if self.numeric == "default" else self.numeric
        data = from_arrays(X, y, feature_names=feature_names, target="class", numeric=numeric)
        self.tree_ = build_tree(data, criterion=self.criterion, max_depth=self.max_depth,
                                min_samples_split=self.min_samples_split, min_leaf=self.min_samples_leaf,
                                max_subsets=self.max_subsets, sample_weight=sample_weight, lookahead=self.lookahead)
        return data

    def cost_complexity_pruning_path(self, X, y, sample_weight=None, *, feature_names=None) -> "PruningPathBunch":
        """scikit-learn's path, exact: ``ccp_alphas`` (0, then each effective α in the order the
        nodes are cut: least first, pre-order on a tie) and ``impurities`` (the leaves' total
        N_t/N · impurity after each cut; regression: N_t/N · the mean squared error), as
        object arrays of Fractions.  The estimator is left as it was (scikit-learn grows a
        tree of its own for the path, too)."""
        from .complexity import pruning_path

        self._check_criterion()
        keep = self.__dict__.get("tree_")
        try:
            self._grow(X, y, sample_weight, feature_names)
            path = pruning_path(self.tree_, "impurity")
        finally:
            if keep is None:
                self.__dict__.pop("tree_", None)
            else:
                self.tree_ = keep
        alphas, impurities = [Fraction(0)], [path.tree_risk]
        for step in path.steps:
            for link in step.links:
                alphas.append(link.alpha)
                impurities.append(impurities[-1] + link.risk - link.subtree_risk)
        return PruningPathBunch(ccp_alphas=np.array(alphas, dtype=object), impurities=np.array(impurities, dtype=object),
                                path=path)

    def _check_criterion(self):
        from .criteria import CRITERIA

        if (self.criterion not in CRITERIA or not CRITERIA[self.criterion].binary
                or CRITERIA[self.criterion].regression != self._regression):
            cart = ", ".join(n for n, c in CRITERIA.items() if c.binary and c.regression == self._regression)
            raise InfotreeError(f"criterion {self.criterion!r} is not a CART criterion; allowed: {cart}")

    def score(self, X, y, sample_weight=None) -> Fraction:
        """The exact accuracy on ``X``, ``y`` (weighted by ``sample_weight``)."""
        predicted = self.predict(X)
        labels = [str(v) for v in (y.tolist() if hasattr(y, "tolist") else y)]
        if len(labels) != len(predicted):
            raise InfotreeError(f"y has {len(labels)} labels; X has {len(predicted)} rows")
        ws = [Fraction(1)] * len(labels) if sample_weight is None else [Fraction(str(w)) for w in sample_weight]
        total = sum(ws, Fraction(0))
        return sum((w for p, t, w in zip(predicted, labels, ws) if p == t), Fraction(0)) / total


class CARTRegressor(CARTClassifier):
    """CART regression trees with exact means and sums of squared errors (rpart's anova),
    scikit-learn's names and defaults (grown fully).

    ``criterion``: ``"squared_error"``.  ``y`` holds numbers (ints, Fractions, decimal
    strings; a float is read from its shortest text).  ``predict`` returns each row's leaf
    mean as an exact ``Fraction``; ``score`` is the exact (weighted) R² = 1 − SS_res/SS_tot.
    """

    _regression = True
    # lookahead and smoothing score and smooth class distributions: not a regressor's parameters
    _params = tuple(p for p in CARTClassifier._params if p not in ("lookahead", "smoothing"))

    def __init__(self, *, criterion="squared_error", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 ccp_alpha=0, max_subsets=1 << 15, unseen="error", numeric="default"):
        super().__init__(criterion=criterion, max_depth=max_depth, min_samples_split=min_samples_split,
                         min_samples_leaf=min_samples_leaf, ccp_alpha=ccp_alpha, max_subsets=max_subsets,
                         unseen=unseen, numeric=numeric)

    def predict_proba(self, X):
        raise InfotreeError("CARTRegressor predicts numbers (predict); predict_proba is for classifiers")

    def score(self, X, y, sample_weight=None) -> Fraction:
        """The exact coefficient of determination R² of the predictions on ``X``, ``y``."""
        from .data import exact_number

        predicted = self.predict(X)
        values = y.tolist() if hasattr(y, "tolist") else list(y)
        if len(values) != len(predicted):
            raise InfotreeError(f"y has {len(values)} values; X has {len(predicted)} rows")
        truth = []
        for i, v in enumerate(values):
            q = exact_number(v)
            if q is None:
                raise InfotreeError(f"y[{i}] = {v!r} is missing; a score needs every target value")
            truth.append(q)
        ws = [Fraction(1)] * len(truth) if sample_weight is None else [Fraction(str(w)) for w in sample_weight]
        total = sum(ws, Fraction(0))
        mean = sum((w * t for w, t in zip(ws, truth)), Fraction(0)) / total
        ss_tot = sum((w * (t - mean) ** 2 for w, t in zip(ws, truth)), Fraction(0))
        ss_res = sum((w * (t - p) ** 2 for w, t, p in zip(ws, truth, predicted)), Fraction(0))
        if ss_tot == 0:
            raise InfotreeError("R² is undefined: every target value in y is the same (SS_tot = 0)")
        return 1 - ss_res / ss_tot


class PruningPathBunch(dict):
    """scikit-learn's Bunch: ``path.ccp_alphas`` or ``path["ccp_alphas"]``; ``path.path`` is the
    :class:`~infotree.records.PruningPath` (each step's derivation, for the printers)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _ccp_alpha(value) -> Fraction:
    """ccp_alpha as an exact non-negative rational (a float from its shortest text, as the data reader)."""
    try:
        q = None if isinstance(value, bool) else Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        q = None
    if q is None or q < 0:
        raise InfotreeError(f"ccp_alpha={value!r} is not allowed; give a non-negative number such as 0.01 or '1/100'")
    return q
