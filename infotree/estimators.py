"""scikit-learn estimators around :func:`~infotree.growing.build_tree` and
:func:`~infotree.ensemble.grow_forest`.

``ID3Classifier``, ``C45Classifier``, ``CARTClassifier``, ``CARTRegressor``,
``RandomForestClassifier`` and ``BaggingClassifier`` are scikit-learn estimators
(``BaseEstimator`` and its mixins when scikit-learn is installed; they work alone
without it): ``fit`` returns self, ``predict`` returns an array of labels in ``y``'s
dtype (``classes_`` sorted as scikit-learn sorts them), ``predict_proba``, ``score``
and ``feature_importances_`` are floats.  The exact values behind them stay available:
``predict_proba_exact``, ``predict_exact`` (regression), ``score_exact`` and
``feature_importances_exact_`` give Fractions (or exact logarithmic values), and
``tree_`` is the grown :class:`~infotree.tree.Tree` with every derivation.

    >>> clf = ID3Classifier().fit([["sunny"], ["rainy"]], ["no", "yes"])
    >>> clf.predict([["rainy"]]).tolist()
    ['yes']
    >>> clf.predict_proba_exact([["rainy"]]).tolist()
    [[Fraction(0, 1), Fraction(1, 1)]]
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .data import from_arrays
from .errors import DataError, InfotreeError
from .sklearn_base import (SKLEARN, Base, Classifier, Regressor, family, floats, labels_of, not_fitted, read_labels,
                           read_targets, read_weights, read_X, seed_of)
from .smoothing import smoothing_named
from .growing import build_tree

__all__ = ["C45Classifier", "CARTClassifier", "CARTRegressor", "ID3Classifier", "PruningPathBunch",
           "expected_failed_checks"]


class _Estimator(Base):
    """What every infotree estimator shares: reading the data, scoring, scikit-learn's tags."""

    _allow_nan = False       # missing values in X (C4.5's fractional weights)
    _numeric_default = None  # which columns are numeric when ``numeric`` is left alone

    if SKLEARN:
        def __sklearn_tags__(self):
            tags = super().__sklearn_tags__()
            tags.input_tags.allow_nan = self._allow_nan
            tags.input_tags.categorical = True  # nominal columns are read as they are: no encoding needed
            tags.input_tags.string = True
            return tags

    def _dataset(self, X, y, sample_weight, feature_names):
        """(Dataset, exact weights or None) from the inputs; sets n_features_in_ and the names."""
        X, names = read_X(self, X, reset=True, allow_nan=self._allow_nan)
        names = names if feature_names is None else [str(f) for f in feature_names]
        n = X.shape[0]
        target = _target_name(y, names)
        if self._regression:
            labels = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
            if not (labels.dtype == np.float64 and labels.shape == (n,) and np.isfinite(labels).all()):
                read_targets(self, y, n)   # the checks and messages (finite floats are numbers: none needed)
                labels = np.asarray(labels, dtype=object).reshape(n)
            classes = codes = None
        else:
            classes, codes = read_labels(self, y, n)
            labels = classes[codes]
        numeric = self._numeric_default if self.numeric == "default" else self.numeric
        try:
            data = from_arrays(X, labels, feature_names=names, target=target, numeric=numeric,
                               on_missing="keep" if self._allow_nan else "reject")
        except DataError as e:  # the reader names its own keyword; an estimator has none
            raise DataError(str(e).replace("(allowed: on_missing='keep' or on_missing='value')",
                                           f"({type(self).__name__} takes none; C45Classifier and CARTClassifier "
                                           f"do)")) from None
        if classes is not None:
            data = _sorted_classes(data, classes, codes)
            self.classes_ = classes
            self.n_classes_ = len(classes)
        weights = read_weights(sample_weight, n)
        weights = self._class_weighted(weights, codes)
        if weights is not None and 0 in weights:  # a row of weight 0 is a row left out, as in scikit-learn
            keep = [i for i, w in enumerate(weights) if w]
            data, weights = data.sample(keep), [weights[i] for i in keep]
        if weights is not None and all(w == 1 for w in weights):
            weights = None
        return data, weights

    def _class_weighted(self, weights, codes):
        return weights

    def _unseen(self):
        return "majority" if self.unseen == "majority" else "error"


class _Classifier(Classifier, _Estimator):
    _regression = False

    def predict(self, X) -> np.ndarray:
        """One class label per row, in ``classes_`` (``y``'s dtype): the first class of maximal probability."""
        p = self.predict_proba_exact(X)
        return self.classes_[[row.index(max(row)) for row in p.tolist()]] if len(p) else self.classes_[:0]

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities as floats, columns in ``classes_`` order (exact: ``predict_proba_exact``)."""
        p = self.predict_proba_exact(X)
        return floats(p.ravel()).reshape(p.shape)

    def score(self, X, y, sample_weight=None) -> float:
        """The (weighted) accuracy as a float (exact: ``score_exact``)."""
        return float(self.score_exact(X, y, sample_weight))

    def predict_log_proba(self, X) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def score_exact(self, X, y, sample_weight=None) -> Fraction:
        """The exact accuracy (weighted by ``sample_weight``): labels compared by value, as
        scikit-learn compares them (1 equals 1.0; a string never equals a number)."""
        predicted = self.predict(X).tolist()
        truth = labels_of(y)
        if len(truth) != len(predicted):
            raise InfotreeError(f"y has {len(truth)} labels; X has {len(predicted)} rows")
        ws = read_weights(sample_weight, len(truth)) or [1] * len(truth)
        if truth and family(truth) != family(predicted):
            raise InfotreeError(f"y holds {family(truth)} labels but the classes are {family(predicted)}; "
                                f"give labels of the type fitted ({self.classes_.dtype})")
        hit = sum((w for p, t, w in zip(predicted, truth, ws) if p == t), Fraction(0))
        return hit / sum(ws, Fraction(0))


class _Regressor(Regressor, _Estimator):
    _regression = True

    def predict(self, X) -> np.ndarray:
        """Each row's prediction as a float (exact: ``predict_exact``)."""
        return floats(self.predict_exact(X))

    def score(self, X, y, sample_weight=None) -> float:
        """R² as a float (exact: ``score_exact``)."""
        return float(self.score_exact(X, y, sample_weight))

    def score_exact(self, X, y, sample_weight=None) -> Fraction:
        """The exact coefficient of determination R² = 1 − SS_res/SS_tot (weighted); as
        scikit-learn's r2_score when every y is the same: 1 for a perfect fit, else 0."""
        predicted = self.predict_exact(X).tolist()
        truth = read_targets(self, y)
        if len(truth) != len(predicted):
            raise InfotreeError(f"y has {len(truth)} values; X has {len(predicted)} rows")
        ws = read_weights(sample_weight, len(truth)) or [Fraction(1)] * len(truth)
        mean = sum((w * t for w, t in zip(ws, truth)), Fraction(0)) / sum(ws, Fraction(0))
        ss_tot = sum((w * (t - mean) ** 2 for w, t in zip(ws, truth)), Fraction(0))
        ss_res = sum((w * (t - p) ** 2 for w, t, p in zip(ws, truth, predicted)), Fraction(0))
        if ss_tot == 0:
            return Fraction(1 if ss_res == 0 else 0)
        return 1 - ss_res / ss_tot


def _target_name(y, features) -> str:
    """The target's name in the tree's printouts: a pandas Series' name, else 'class'."""
    name = getattr(y, "name", None)
    name = name if isinstance(name, str) and name.strip() else "class"
    while name in (features or ()):
        name += "_"
    return name


def _sorted_classes(data, classes, codes):
    """The data set with its classes in ``classes`` order (scikit-learn's sorted ``classes_``),
    so the tree's class order, its tie rule and predict_proba's columns are scikit-learn's."""
    texts = [None] * len(classes)
    for k, text in enumerate(data.classes):
        rows = np.flatnonzero(data.y == k)
        idx = set(codes[rows].tolist())
        if len(idx) != 1:
            raise InfotreeError(f"labels {', '.join(repr(classes[i]) for i in sorted(idx))} read as one class "
                                f"{text!r}; give labels that differ as text")
        texts[idx.pop()] = text
    return data._derived(data.X, codes.astype(np.int32), classes=tuple(texts))


def _int(value):
    """numpy integers (from a parameter grid) as ints; anything else is build_tree's to judge."""
    return int(value) if isinstance(value, np.integer) else value


# -- single trees -----------------------------------------------------------------------------

class _TreeMethods:
    """What a fitted tree answers: predictions through ``tree_``, its shape, its importances."""

    def _tree(self):
        if not hasattr(self, "tree_"):
            raise not_fitted(self)
        return self.tree_

    def _codes(self, X):
        tree = self._tree()
        X, _ = read_X(self, X, reset=False, allow_nan=self._allow_nan)
        return tree, tree._codes(X.tolist(), self._unseen())

    def get_depth(self) -> int:
        """The depth of the tree: the most splits from the root to a leaf."""
        return max(node.depth for node in self._tree().nodes())

    def get_n_leaves(self) -> int:
        return sum(1 for _ in self._tree().leaves())

    def _reached(self, X):
        tree, codes = self._codes(X)
        ids = {node: i for i, node in enumerate(tree.nodes())}
        return tree, ids, [tree._descend(tree.root, c) for c in codes]

    def apply(self, X) -> np.ndarray:
        """The node each row reaches (pre-order index, root 0, as scikit-learn numbers a depth-first
        tree): a leaf, or the node where a missing or unseen value stops it."""
        _, ids, reached = self._reached(X)
        return np.array([ids[node] for node in reached], dtype=np.intp)

    def decision_path(self, X):
        """The nodes each row passes (n_rows × n_nodes indicator), a scipy CSR matrix when scipy
        is installed, else a dense int8 array."""
        tree, ids, reached = self._reached(X)
        rows, cols = [], []
        for i, node in enumerate(reached):
            while node is not None:
                rows.append(i)
                cols.append(ids[node])
                node = node.parent
        shape = (len(reached), len(ids))
        try:
            from scipy.sparse import csr_matrix
        except ImportError:
            out = np.zeros(shape, dtype=np.int8)
            out[rows, cols] = 1
            return out
        return csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=shape)

    @property
    def feature_importances_exact_(self) -> list:
        """Mean decrease in impurity per feature, each an exact share of their total (all 0
        when the tree does not split): Σ over the feature's split nodes of
        n_t·I(t) − Σ_children n_c·I(c) (regression: the decrease of the sum of squared errors)."""
        return _shares(_decreases(self._tree()))

    @property
    def feature_importances_(self) -> np.ndarray:
        """``feature_importances_exact_`` as floats (scikit-learn's normalised MDI)."""
        return floats(self.feature_importances_exact_)


class _TreeProba(_TreeMethods):
    def predict_proba_exact(self, X) -> np.ndarray:
        """Exact class probabilities (Fractions), shape (n_rows, n_classes), columns in ``classes_``
        order: the leaves' frequencies, smoothed as ``smoothing`` says (``"laplace"``, ``"m=M"``)."""
        tree, codes = self._codes(X)
        s = smoothing_named(getattr(self, "smoothing", "none"))
        out = np.empty((len(codes), len(tree.classes)), dtype=object)
        for i, c in enumerate(codes):
            out[i] = tree._proba(tree.root, c, smoothing=s)
        return out


class _TreeMean(_TreeMethods):
    def predict_exact(self, X) -> np.ndarray:
        """Each row's leaf mean, an exact Fraction (object array)."""
        tree, codes = self._codes(X)
        out = np.empty(len(codes), dtype=object)
        out[:] = [tree._leaf_of(tree._descend(tree.root, c)).mean for c in codes]
        return out


def _decreases(tree) -> list:
    from .measures import entropy

    crit = tree.criterion
    if crit.regression:
        def weighted(node):
            return crit.impurity(node.class_counts.tolist())
    else:
        impurity = crit.impurity if crit.binary else entropy

        def weighted(node):
            counts = node.class_counts.tolist()
            return Fraction(node.n) * impurity(counts) if node.n else 0
    total = [Fraction(0)] * len(tree.features)
    for node in tree.nodes():
        if node.test is None or node.split is None or not node.n:
            continue
        drop = weighted(node) - sum((weighted(ch) for ch in node.children if ch.n), Fraction(0))
        total[node.split] = total[node.split] + drop
    return total


def _shares(values) -> list:
    total = sum(values[1:], values[0]) if values else 0
    return [v / total for v in values] if total else [Fraction(0)] * len(values)


class _ID3Tree:
    """ID3 and C4.5: fit grows ``build_tree`` with the estimator's parameters."""

    def fit(self, X, y, sample_weight=None, *, feature_names=None):
        """Grow the tree on ``X`` (array-like or DataFrame) and labels ``y``, each row weighted by
        ``sample_weight`` (exactly; a weight of 0 leaves the row out)."""
        smoothing_named(self.smoothing)
        if self.prune == "reduced-error":
            raise InfotreeError("reduced-error pruning needs a validation set: use build_tree(..., validation=...)")
        data, weights = self._dataset(X, y, sample_weight, feature_names)
        self.tree_ = build_tree(data, criterion=self._criterion, max_depth=_int(self.max_depth),
                                min_samples_split=_int(self.min_samples_split),
                                min_gain=self.min_gain, stop_at_zero_gain=self.stop_at_zero_gain,
                                min_objects=_int(self.min_objects), collapse=self.collapse,
                                average_gain_slack=self.average_gain_slack, threshold=self.threshold,
                                prune=self.prune, confidence=self.confidence, lookahead=self.lookahead,
                                sample_weight=weights, **self._options())
        return self

    def _options(self) -> dict:
        return {}


class ID3Classifier(_ID3Tree, _TreeProba, _Classifier):
    """ID3: maximal information gain; zero-gain splits are made unless ``stop_at_zero_gain``.
    Every column is nominal unless ``numeric`` names it (``"auto"``: every column of numbers).
    ``m_of_n=True``: every split is the M-of-N test grown at its node (:mod:`infotree.mofn`).
    ``smoothing``: predict_proba's leaf probabilities, ``"none"``, ``"laplace"`` or ``"m=M"``."""

    _criterion = "gain"

    def __init__(self, *, max_depth=None, min_samples_split=2, min_gain=None, stop_at_zero_gain=False, min_objects=2,
                 collapse=None, average_gain_slack=0.001, unseen="error", numeric=None, threshold=None, prune="none",
                 confidence=0.25, lookahead=0, smoothing="none", m_of_n=False):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_gain = min_gain
        self.stop_at_zero_gain = stop_at_zero_gain
        self.min_objects = min_objects
        self.collapse = collapse
        self.average_gain_slack = average_gain_slack
        self.unseen = unseen
        self.numeric = numeric
        self.threshold = threshold
        self.prune = prune
        self.confidence = confidence
        self.lookahead = lookahead
        self.smoothing = smoothing
        self.m_of_n = m_of_n

    def _options(self) -> dict:
        return {"m_of_n": self.m_of_n} if self.m_of_n else {}


class C45Classifier(_ID3Tree, _TreeProba, _Classifier):
    """C4.5 as Weka's J48 defines it: gain ratio, average-gain filter, collapse; numeric columns
    (binary cuts) and missing values (NaN/None: exact fractional weights); ``prune="pessimistic"``
    gives J48's default tree (the default here is the whole grown tree, J48 -U)."""

    _criterion = "gain_ratio"
    _allow_nan = True

    def __init__(self, *, max_depth=None, min_samples_split=2, min_gain=None, stop_at_zero_gain=False, min_objects=2,
                 collapse=None, average_gain_slack=0.001, unseen="error", numeric="auto", threshold=None,
                 prune="none", confidence=0.25, lookahead=0, smoothing="none"):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_gain = min_gain
        self.stop_at_zero_gain = stop_at_zero_gain
        self.min_objects = min_objects
        self.collapse = collapse
        self.average_gain_slack = average_gain_slack
        self.unseen = unseen
        self.numeric = numeric
        self.threshold = threshold
        self.prune = prune
        self.confidence = confidence
        self.lookahead = lookahead
        self.smoothing = smoothing


class _CART:
    _allow_nan = True  # a missing value goes by surrogates, else the majority way (rpart's usesurrogate=2)

    def fit(self, X, y, sample_weight=None, *, feature_names=None):
        """Grow the tree on ``X`` and ``y``, each row weighted by ``sample_weight`` (exactly; a
        weight of 0 leaves the row out); ``ccp_alpha`` > 0 prunes it as scikit-learn does."""
        smoothing_named(getattr(self, "smoothing", "none"))
        self._check_criterion()
        alpha = _ccp_alpha(self.ccp_alpha)
        data, weights = self._dataset(X, y, sample_weight, feature_names)
        self.tree_ = self._grow(data, weights)
        self.max_features_ = self._draw(data)[1]
        if alpha:
            from .complexity import prune

            prune(self.tree_, alpha=alpha, risk="impurity")
        return self

    def _draw(self, data):
        """(the node draw, how many features a node considers)."""
        from .ensemble import m_try
        from .nodedraw import _NodeDraw

        m = data.n_features
        k = m_try(self.max_features, m, "max_features")
        if k >= m:
            return None, m
        crit = self._criterion_object()
        return _NodeDraw(seed_of(self.random_state), 0, k, np.ones(m, bool), crit.considers_used, data.kinds), k

    def _criterion_object(self):
        from .criteria import CRITERIA

        return CRITERIA[self.criterion]

    def _grow(self, data, weights):
        select = getattr(self, "ccp_select", None)
        pruning = {}
        if select is not None:  # rpart's cross-validated cp table (xval.c) on the folds cv gives
            if _ccp_alpha(self.ccp_alpha):
                raise InfotreeError("ccp_alpha and ccp_select both prune; give one of them")
            pruning = dict(prune="cost-complexity", ccp_select=select, cp=0, folds=self.cv,
                           seed=seed_of(self.random_state) if isinstance(self.cv, (int, np.integer)) else 0)
        return build_tree(data, criterion=self.criterion, max_depth=_int(self.max_depth),
                          min_samples_split=_int(self.min_samples_split),
                          min_leaf=_int(self.min_samples_leaf), max_subsets=self.max_subsets,
                          sample_weight=weights, lookahead=getattr(self, "lookahead", 0),
                          feature_draw=self._draw(data)[0], **pruning)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None, *, feature_names=None) -> "PruningPathBunch":
        """scikit-learn's path, exact: ``ccp_alphas`` (0, then each effective α in the order the
        nodes are cut: least first, pre-order on a tie) and ``impurities`` (the leaves' total
        N_t/N · impurity after each cut; regression: N_t/N · the mean squared error), as
        object arrays of Fractions.  The estimator is left as it was (scikit-learn grows a
        tree of its own for the path, too)."""
        from .complexity import pruning_path

        self._check_criterion()
        keep = dict(self.__dict__)
        try:
            data, weights = self._dataset(X, y, sample_weight, feature_names)
            path = pruning_path(self._grow(data, weights), "impurity")
        finally:
            self.__dict__.clear()
            self.__dict__.update(keep)
        alphas, impurities = [Fraction(0)], [path.tree_risk]
        for step in path.steps:
            for link in step.links:
                alphas.append(link.alpha)
                impurities.append(impurities[-1] + link.risk - link.subtree_risk)
        return PruningPathBunch(ccp_alphas=np.array(alphas, dtype=object), impurities=np.array(impurities, dtype=object),
                                path=path)

    def _check_criterion(self):
        from .criteria import CRITERIA

        c = CRITERIA.get(self.criterion) if isinstance(self.criterion, str) else None
        if c is None or not c.binary or c.regression != self._regression:
            cart = ", ".join(n for n, c in CRITERIA.items() if c.binary and c.regression == self._regression)
            raise InfotreeError(f"criterion {self.criterion!r} is not a CART criterion; allowed: {cart}")


class CARTClassifier(_CART, _TreeProba, _Classifier):
    """CART with exact impurities: binary splits (numeric thresholds at midpoints, subsets of
    nominal values), scikit-learn's names and defaults (the tree is grown fully).

    ``criterion``: ``"gini"``, ``"entropy"`` or ``"misclassification"``;
    ``min_samples_leaf`` rows at least on each side (rpart's minbucket); ``max_features``
    (an int, ``"sqrt"``, ``"log2"``, a fraction, None: all) features drawn at each node from
    ``random_state``'s stream; ``class_weight`` (None, ``"balanced"`` or {label: weight})
    multiplies each row's weight by its class's, exactly; ``ccp_alpha`` prunes the grown
    tree by cost complexity as scikit-learn does (the smallest subtree minimising
    R(T) + α·|leaves|, R(t) = N_t/N · impurity(t); an exact rational: a float is read from
    its shortest text), and ``cost_complexity_pruning_path(X, y)`` gives every effective α
    with the leaves' total impurity, exactly.  ``ccp_select`` (``"min"`` or ``"1se"``) prunes
    instead at the row of rpart's cross-validated cp table that rule picks, on the folds
    ``cv`` gives: K (dealt from ``random_state``), one fold id per row (rpart's ``xval``
    vector), or a scikit-learn splitter whose test sets hold every row once.
    """

    def __init__(self, *, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 max_features=None, random_state=None, class_weight=None, ccp_alpha=0.0, max_subsets=32768,
                 unseen="error", numeric="auto", lookahead=0, smoothing="none", ccp_select=None, cv=10):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_subsets = max_subsets
        self.unseen = unseen
        self.numeric = numeric
        self.lookahead = lookahead
        self.smoothing = smoothing
        self.ccp_select = ccp_select
        self.cv = cv

    def _class_weighted(self, weights, codes):
        cw = self.class_weight
        if cw is None:
            return weights
        n, k = len(codes), len(self.classes_)
        if cw == "balanced":  # scikit-learn's: n / (k · n_c), from the unweighted counts
            counts = np.bincount(codes, minlength=k).tolist()
            per_class = [Fraction(n, k * c) for c in counts]
        elif isinstance(cw, dict):
            per_class = []
            for label in self.classes_.tolist():
                w = read_weights([cw.get(label, 1)], 1)[0] if cw.get(label, 1) else Fraction(0)
                per_class.append(w)
        else:
            raise InfotreeError(f"class_weight {cw!r} is not allowed; allowed: None, 'balanced' or a dict "
                                f"{{label: weight}}")
        base = weights or [Fraction(1)] * n
        return [w * per_class[c] for w, c in zip(base, codes.tolist())]


class CARTRegressor(_CART, _TreeMean, _Regressor):
    """CART regression trees with exact means and sums of squared errors (rpart's anova),
    scikit-learn's names and defaults (grown fully).

    ``criterion``: ``"squared_error"``, or ``"poisson"`` (rpart's Poisson method with exposure
    1 per row and shrinkage 1: ``y`` counts events and a leaf predicts its shrunk rate).  ``y``
    holds numbers (ints, Fractions, decimal strings; a float is read from its shortest text).
    ``predict`` gives floats, ``predict_exact`` each row's leaf mean as an exact Fraction;
    ``score_exact`` is the exact (weighted) R² = 1 − SS_res/SS_tot.  ``ccp_select`` and
    ``cv`` as :class:`CARTClassifier`'s.
    """

    def __init__(self, *, criterion="squared_error", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 max_features=None, random_state=None, ccp_alpha=0.0, max_subsets=32768, unseen="error",
                 numeric="auto", ccp_select=None, cv=10):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.ccp_alpha = ccp_alpha
        self.max_subsets = max_subsets
        self.unseen = unseen
        self.numeric = numeric
        self.ccp_select = ccp_select
        self.cv = cv


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



#: The scikit-learn checks an estimator is known to fail, each with why (scikit-learn's
#: ``check_estimator(..., expected_failed_checks=...)`` and ``parametrize_with_checks``).
_NOMINAL = ("ID3 reads every column as nominal and refuses a value not seen in fit (unseen='error'); "
            "rows of weight 0 are left out, so their values are unseen")
_EXPECTED_FAILURES = {
    "ID3Classifier": {"check_sample_weight_equivalence_on_dense_data": _NOMINAL,
                      "check_classifiers_one_label_sample_weights": _NOMINAL},
    "CARTClassifier": {"check_class_weight_classifiers": "the check coarsens trees with min_weight_fraction_leaf, "
                       "which infotree lacks: a whole tree fits the noisy training set whatever the class weights"},
}


def expected_failed_checks(estimator) -> dict:
    """{check name: reason} of the scikit-learn checks ``estimator`` fails on purpose."""
    out = {}
    for cls in reversed(type(estimator).__mro__):
        out.update(_EXPECTED_FAILURES.get(cls.__name__, {}))
    return out
