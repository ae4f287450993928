"""scikit-learn forests of exact trees: ``RandomForestClassifier`` and ``BaggingClassifier``
around :func:`~infotree.ensemble.grow_forest`, with scikit-learn's names and defaults.

``forest_`` is the :class:`~infotree.ensemble.Forest` (every tree's derivation, exact
votes); ``predict_proba``, ``score``, ``feature_importances_`` and ``oob_score_`` are
floats, ``predict_proba_exact``, ``score_exact`` and ``feature_importances_exact_`` exact.

    >>> X, y = [["a"], ["a"], ["b"], ["b"]], [1, 1, 0, 0]
    >>> RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y).predict([["b"]]).tolist()
    [0]
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .ensemble import forest_criterion, grow_forest
from .errors import InfotreeError
from .estimators import _Classifier, _shares
from .sklearn_base import floats, not_fitted, read_X, seed_of

__all__ = ["BaggingClassifier", "RandomForestClassifier"]


class _ForestClassifier(_Classifier):
    _draw = "node"

    @property
    def _allow_nan(self):  # C4.5's weights, or a missing value sent the majority way (CART)
        return forest_criterion(self.criterion).missing is not None

    @property
    def _numeric_default(self):
        return "auto" if forest_criterion(self.criterion).reads_numbers else None

    def fit(self, X, y, *, feature_names=None):
        """Grow the forest on ``X`` (array-like or DataFrame) and labels ``y``."""
        crit = forest_criterion(self.criterion)
        data, _ = self._dataset(X, y, None, feature_names)
        seed = seed_of(self.random_state)
        grow = dict(max_depth=self.max_depth, min_samples_split=self.min_samples_split)
        if crit.binary:  # scikit-learn's whole trees: no cp, no rpart tables (a missing value goes the majority way)
            grow.update(min_leaf=self.min_samples_leaf, cp=None, competitors=0, surrogates=0)
        fraction = 1 if self.max_samples is None else self.max_samples
        if isinstance(fraction, (int, np.integer)) and not isinstance(fraction, bool) and self.max_samples is not None:
            # an int is a count of rows, as scikit-learn reads it
            if not 1 <= fraction <= data.n_rows:
                raise InfotreeError(f"max_samples {fraction} is not allowed; give a count from 1 to {data.n_rows} "
                                    f"or a fraction in (0, 1]")
            fraction = Fraction(int(fraction), data.n_rows)
        n_trees = int(self.n_estimators) if isinstance(self.n_estimators, np.integer) else self.n_estimators
        self.forest_ = grow_forest(data, n_estimators=n_trees, random_state=seed, criterion=crit, max_features=self.max_features,
                                   draw=self._draw, sample_fraction=fraction, bootstrap=self.bootstrap,
                                   sampling=self.sampling, vote=self.vote, n_jobs=self.n_jobs, **grow)
        #: the seed the forest grew from (random_state=None draws one): the fit can be repeated
        self.seed_ = seed
        self.estimators_ = self.forest_.trees
        if self.oob_score:
            ballots, _, error = self.forest_.oob()
            self.oob_score_ = np.nan if error is None else float(1 - error)
            k = len(self.classes_)
            self.oob_decision_function_ = np.array([floats(b.proba) if b.proba else np.full(k, np.nan)
                                                    for b in ballots]).reshape(len(ballots), k)
        return self

    def _forest(self):
        if not hasattr(self, "forest_"):
            raise not_fitted(self)
        return self.forest_

    def predict_proba_exact(self, X) -> np.ndarray:
        """Exact class probabilities (Fractions), columns in ``classes_`` order: the mean of the
        trees' leaf probabilities (``vote="average"``) or the vote fractions (``"majority"``)."""
        forest = self._forest()
        X, _ = read_X(self, X, reset=False, allow_nan=self._allow_nan)
        probs = forest.predict_proba(X.tolist(), unseen=self.unseen)
        out = np.empty((len(probs), len(self.classes_)), dtype=object)
        for i, p in enumerate(probs):
            out[i] = list(p)
        return out

    @property
    def feature_importances_exact_(self) -> list:
        """Exact mean decrease in impurity, each feature's share of the total (all 0 when no tree splits)."""
        return _shares(self._forest().mdi())

    @property
    def feature_importances_(self) -> np.ndarray:
        return floats(self.feature_importances_exact_)


class RandomForestClassifier(_ForestClassifier):
    """A random forest (features drawn at every node) of exact trees; scikit-learn's names and
    defaults (100 trees, Gini, √m features, bootstrap, averaged probabilities) with infotree's
    criteria (``criterion``: gini, entropy, misclassification, gain, gain_ratio,
    gain_ratio_plain).  ``numeric="default"``: columns of numbers are numeric for the
    criteria that read numbers (all but ``gain``).  ``n_jobs``: processes growing the
    trees, as scikit-learn's (None: one, -1: every core); the forest is the same whatever
    the number.  ``sampling="poisson"``: each row's count from a hash of (row, seed, tree), the
    forest an engine grows too (docs/forests.md)."""

    _draw = "node"

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, max_features="sqrt", bootstrap=True, oob_score=False, random_state=None,
                 max_samples=None, vote="average", numeric="default", unseen="error", n_jobs=None, sampling="draw"):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.max_samples = max_samples
        self.vote = vote
        self.numeric = numeric
        self.unseen = unseen
        self.n_jobs = n_jobs
        self.sampling = sampling


class BaggingClassifier(_ForestClassifier):
    """Bagging of exact trees; ``max_features`` < 1 draws a random subspace once per tree
    (as scikit-learn's BaggingClassifier); defaults: 10 trees, every feature, bootstrap."""

    _draw = "tree"

    def __init__(self, n_estimators=10, *, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, max_features=1.0, bootstrap=True, oob_score=False, random_state=None,
                 max_samples=None, vote="average", numeric="default", unseen="error", n_jobs=None, sampling="draw"):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.max_samples = max_samples
        self.vote = vote
        self.numeric = numeric
        self.unseen = unseen
        self.n_jobs = n_jobs
        self.sampling = sampling
