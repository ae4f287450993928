"""scikit-learn's estimator protocol, with or without scikit-learn installed.

The bases the estimators derive from (scikit-learn's ``BaseEstimator`` and mixins when
it is installed, small stand-ins otherwise), and the reading of ``X``, ``y`` and
``sample_weight`` as scikit-learn's own estimators read them: feature names from a
DataFrame's string columns, ``n_features_in_``, sorted ``classes_`` in ``y``'s dtype,
zero weights allowed.  Values stay exact inside; floats are made only at the boundary
(:func:`floats`).

    >>> classes, codes = read_labels(None, ["yes", "no", "yes"])  # (the estimator names itself in errors)
    >>> classes.tolist(), codes.tolist()
    (['no', 'yes'], [1, 0, 1])
"""

from __future__ import annotations

import inspect
import math
import numbers
import warnings
from fractions import Fraction

import numpy as np

from .errors import InfotreeError, NotFittedError

try:  # scikit-learn is optional: without it the estimators work alone, with it they are its own
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.exceptions import DataConversionWarning
    from sklearn.exceptions import NotFittedError as _SklearnNotFitted
    from sklearn.utils.validation import validate_data
except ImportError:  # pragma: no cover - exercised in a venv without scikit-learn
    BaseEstimator = ClassifierMixin = RegressorMixin = validate_data = None

__all__ = ["SKLEARN", "Base", "Classifier", "Regressor", "family", "floats", "labels_of", "not_fitted", "read_X",
           "read_labels", "read_targets", "read_weights", "seed_of"]

SKLEARN = BaseEstimator is not None


if SKLEARN:
    Base, Classifier, Regressor = BaseEstimator, ClassifierMixin, RegressorMixin

    class _NotFitted(NotFittedError, _SklearnNotFitted):
        """Caught as infotree's NotFittedError and as scikit-learn's."""
else:
    class DataConversionWarning(UserWarning):
        """scikit-learn's warning for a y that had to be reshaped."""

    _NotFitted = NotFittedError

    class Base:
        """get_params / set_params / repr read from ``__init__``'s signature, as scikit-learn's."""

        @classmethod
        def _get_param_names(cls):
            return sorted(p.name for p in inspect.signature(cls.__init__).parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True) -> dict:
            return {k: getattr(self, k) for k in self._get_param_names()}

        def set_params(self, **params):
            names = self._get_param_names()
            for k, v in params.items():
                if k not in names:
                    raise InfotreeError(f"Invalid parameter {k!r} for estimator {type(self).__name__}; "
                                        f"valid parameters are: {', '.join(names)}")
                setattr(self, k, v)
            return self

        def __repr__(self):
            default = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
            changed = [f"{k}={v!r}" for k, v in self.get_params().items() if not _same(v, default.get(k))]
            return f"{type(self).__name__}({', '.join(changed)})"

    class Classifier:
        _estimator_type = "classifier"

    class Regressor:
        _estimator_type = "regressor"


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return a is b


def not_fitted(est):
    return _NotFitted(f"this {type(est).__name__} is not fitted yet; call fit(X, y) first")


# -- X ----------------------------------------------------------------------------------------

def read_X(est, X, *, reset, allow_nan=False):
    """``X`` as a 2-D array (numbers kept as numbers, anything else as objects) and the
    feature names a DataFrame's string columns give (else None); on ``reset`` (fit) sets
    ``n_features_in_`` and ``feature_names_in_``, otherwise checks them as scikit-learn does."""
    name = type(est).__name__
    if X is None:
        raise InfotreeError(f"X is None; {name} needs a 2-D table of features, one row per sample")
    if hasattr(X, "tocsr") or type(X).__module__.startswith("scipy.sparse"):
        raise InfotreeError(f"X is a sparse matrix; {name} reads dense tables (convert with X.toarray())")
    frame = X if hasattr(X, "columns") and hasattr(X, "to_numpy") else None
    if frame is not None:
        try:
            arr = frame.to_numpy(dtype=object)
        except TypeError:  # polars: no dtype argument
            arr = np.asarray(frame.to_numpy(), dtype=object)
    elif isinstance(X, np.ndarray):
        arr = X
    else:
        try:
            arr = np.asarray(X)
            if arr.dtype.kind not in "biuf":
                arr = np.asarray(X, dtype=object)  # keep each cell's type: 1 stays a number beside "a"
        except ValueError:
            raise InfotreeError(f"X has rows of different lengths; {name} needs a 2-D table, one row per sample") \
                from None
    if arr.dtype.kind == "c":
        raise InfotreeError("Complex data not supported; give real numbers or labels")
    if arr.ndim != 2:
        hint = ("; Reshape your data with X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for a single "
                "sample") if arr.ndim == 1 else ""
        raise InfotreeError(f"Expected 2D array, got {arr.ndim}D array instead: X has shape {arr.shape}{hint}")
    if arr.shape[0] == 0:
        raise InfotreeError(f"Found array with 0 sample(s) (shape={arr.shape}) while a minimum of 1 is required.")
    if arr.shape[1] == 0:
        raise InfotreeError(f"Found array with 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
    if arr.dtype.kind == "f":
        if np.isinf(arr).any():
            raise InfotreeError("Input X contains infinity; every value must be finite (a missing one is NaN)")
        if not allow_nan and np.isnan(arr).any():
            raise InfotreeError(f"Input X contains NaN; {name} does not accept missing values "
                                f"(C45Classifier weights them as C4.5 does)")
    if SKLEARN:  # its own checks and messages: feature names, n_features_in_
        validate_data(est, frame if frame is not None else arr, reset=reset, skip_check_array=True)
    else:
        _check_names_and_width(est, frame, arr, reset)
    names = list(frame.columns) if frame is not None and all(isinstance(c, str) for c in frame.columns) else None
    return arr, names


def _check_names_and_width(est, frame, arr, reset):
    cols = list(frame.columns) if frame is not None else None
    names = cols if cols is not None and all(isinstance(c, str) for c in cols) else None
    if reset:
        est.n_features_in_ = arr.shape[1]
        if names is not None:
            est.feature_names_in_ = np.array(names, dtype=object)
        else:
            est.__dict__.pop("feature_names_in_", None)
        return
    fitted = getattr(est, "feature_names_in_", None)
    name = type(est).__name__
    if names is not None and fitted is not None and list(fitted) != names:
        raise InfotreeError(f"The feature names should match those that were passed during fit: X has "
                            f"{', '.join(names)}; fitted with {', '.join(fitted)}")
    if names is not None and fitted is None:
        warnings.warn(f"X has feature names, but {name} was fitted without feature names", UserWarning)
    if names is None and fitted is not None:
        warnings.warn(f"X does not have valid feature names, but {name} was fitted with feature names",
                      UserWarning)
    if arr.shape[1] != est.n_features_in_:
        raise InfotreeError(f"X has {arr.shape[1]} features, but {name} is expecting {est.n_features_in_} "
                            f"features as input.")


# -- y ----------------------------------------------------------------------------------------

def _column(est, y, n, what):
    if y is None:
        raise InfotreeError(f"{type(est).__name__} requires y to be passed, but the target y is None")
    if hasattr(y, "to_numpy"):
        y = y.to_numpy()
    try:
        arr = np.asarray(y) if isinstance(y, np.ndarray) else np.asarray(y, dtype=None)
        if arr.dtype.kind not in "biufUS":
            arr = np.asarray(y, dtype=object)
    except ValueError:
        raise InfotreeError(f"y has entries of different lengths; give one {what} per row") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please change the shape of y "
                      "to (n_samples,), for example using ravel().", DataConversionWarning, stacklevel=3)
        arr = arr.ravel()
    if arr.ndim != 1:
        raise InfotreeError(f"y has shape {arr.shape}; {type(est).__name__} takes one {what} per row "
                            f"(a 1-D array), not several outputs")
    if n is not None and len(arr) != n:
        raise InfotreeError(f"X has {n} rows but y has {len(arr)} {what}s; give one {what} per row")
    return arr


def read_labels(est, y, n=None):
    """(classes, codes): the distinct labels of ``y`` sorted as ``numpy.unique`` sorts them,
    in ``y``'s dtype (ints stay ints), and each row's index among them."""
    arr = _column(est, y, n, "label")
    for i, v in enumerate(arr.tolist()):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            raise InfotreeError(f"Input y contains NaN or None at y[{i}]; every training row needs a class label")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise InfotreeError("Input y contains NaN or infinity; every training row needs a class label")
    if arr.dtype.kind == "f" and not np.all(arr == np.round(arr)):
        raise InfotreeError("Unknown label type: continuous (y holds fractional numbers); a classifier takes class "
                            "labels (CARTRegressor predicts numbers)")
    if arr.dtype == object:
        kinds = {"number" if isinstance(v, numbers.Number) and not isinstance(v, bool) else type(v).__name__
                 for v in arr.tolist()}
        if len(kinds) > 1:
            raise InfotreeError(f"Unknown label type: y mixes {' and '.join(sorted(kinds))} labels; give labels "
                                f"of one type")
    classes, codes = np.unique(arr, return_inverse=True)
    return classes, codes.reshape(-1)


def read_targets(est, y, n=None) -> list[Fraction]:
    """A regression target as exact numbers (a float from its shortest text)."""
    from .data import exact_number

    arr = _column(est, y, n, "value")
    if arr.dtype == np.float64 and np.isfinite(arr).all():  # each distinct value read once
        distinct, inverse = np.unique(arr, return_inverse=True)
        values = [exact_number(v) for v in distinct.tolist()]
        return [values[i] for i in inverse.reshape(-1).tolist()]
    out = []
    for i, v in enumerate(arr.tolist()):
        try:
            q = exact_number(v)
        except InfotreeError:
            q = None
            if not (isinstance(v, float) and math.isinf(v)):
                raise InfotreeError(f"y[{i}] = {v!r} is not a number; a regression target takes numbers") from None
        if q is None:
            raise InfotreeError(f"Input y contains NaN, infinity or a missing value at y[{i}] ({v!r}); "
                                f"every training row needs a finite target")
        out.append(q)
    return out


def read_weights(sample_weight, n) -> list[Fraction] | None:
    """One exact non-negative weight per row (a float from its shortest text), not all zero;
    None for no weights."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, numbers.Number) and not isinstance(sample_weight, bool):
        sample_weight = [sample_weight] * n  # scikit-learn: a scalar weighs every row alike
    if hasattr(sample_weight, "to_numpy"):
        sample_weight = sample_weight.to_numpy()
    ws = np.asarray(sample_weight, dtype=object)
    if ws.ndim != 1 or len(ws) != n:
        raise InfotreeError(f"sample_weight has shape {ws.shape}; expected ({n},), one weight per row")
    out = []
    for i, v in enumerate(ws.tolist()):
        q = _exact(v)
        if q is None or q < 0:
            raise InfotreeError(f"sample_weight[{i}] = {v!r} is not allowed; weights are non-negative numbers")
        out.append(q)
    if not any(out):
        raise InfotreeError("sample_weight is zero for every row; at least one row must weigh something")
    return out


def _exact(v):
    if isinstance(v, bool):
        return None
    try:
        if isinstance(v, (float, np.floating)):
            return Fraction(repr(float(v))) if math.isfinite(v) else None
        return Fraction(v)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def floats(values) -> np.ndarray:
    """Exact values (Fractions, Exact, Ratio) as a float64 array, each correctly rounded
    where the type rounds so (Fraction does)."""
    return np.array([float(v) for v in values], dtype=np.float64)


def labels_of(y) -> list:
    if hasattr(y, "to_numpy"):
        y = y.to_numpy()
    return np.asarray(y, dtype=None if isinstance(y, np.ndarray) else object).reshape(-1).tolist()


def family(values) -> str:
    kinds = {"text" if isinstance(v, (str, bytes)) else "number" if isinstance(v, numbers.Number) else
             type(v).__name__ for v in values}
    return " and ".join(sorted(kinds))


def seed_of(random_state) -> int:
    """A non-negative integer seed from scikit-learn's random_state: an int, None (fresh
    entropy), a RandomState or a Generator (one draw)."""
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        if random_state < 0:
            raise InfotreeError(f"random_state {random_state!r} is not allowed; give a non-negative integer or None")
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(1 << 62))
    raise InfotreeError(f"random_state {random_state!r} is not allowed; give a non-negative integer, None, "
                        f"a numpy RandomState or a Generator")
