"""Cross-validation folds, decided by the seed alone, that a user can repeat by hand.

Rows are numbered r = 1..N in file order.  Each row gets a key from the MINSTD
generator (Park and Miller): key(0) = seed + 1 and

    key(r) = key(r − 1) × 48271 mod 2147483647,

one multiplication per row (key(r) = (seed + 1)·48271^r mod 2147483647; the keys of
distinct rows differ).
For a class response the rows are taken class by class, in the classes' order, each
class's rows by increasing key; a numeric response takes all rows by increasing key.
Taken in that order, the rows are dealt to folds 1, 2, …, K, 1, 2, … without restarting
between classes, so every fold holds ⌊n_c/K⌋ or ⌈n_c/K⌉ rows of each class c
(stratified) and the fold sizes differ by at most one.

``cptable``, ``evaluate`` and ``--select`` all use these folds: the same seed gives
the same folds everywhere (``docs/cost_complexity.md``).

Folds may also be given (:func:`resolve`): one fold id per row (rpart's ``xval =``
vector, ``--folds-from``), or a scikit-learn splitter whose test sets partition the
rows (``KFold``, ``GroupKFold``, ...), to repeat a cross-validation done elsewhere.
"""

from __future__ import annotations

import numpy as np

from . import limits
from .errors import InfotreeError

__all__ = ["MODULUS", "MULTIPLIER", "assign", "check", "given", "key", "keys", "resolve"]

MULTIPLIER = 48271
MODULUS = 2147483647


def key(row: int, seed: int) -> int:
    """The sort key of row number ``row`` (1-based, file order)."""
    return (seed + 1) * pow(MULTIPLIER, row, MODULUS) % MODULUS


def keys(n: int, seed: int) -> list:
    """The keys of rows 1..n, one multiplication each."""
    out, k = [], seed + 1
    for _ in range(n):
        k = k * MULTIPLIER % MODULUS
        out.append(k)
    return out


def check(folds, seed, n_rows) -> None:
    """A one-line error for a fold count or seed the rule cannot use."""
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise InfotreeError(f"folds {folds!r} is not allowed; give an integer of at least 2")
    if folds > n_rows:
        raise InfotreeError(f"folds {folds} is more than the {n_rows} rows; give at most {n_rows}")
    limits.within("folds", folds)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MODULUS - 1:
        raise InfotreeError(f"seed {seed!r} is not allowed; give an integer from 0 to {MODULUS - 2}")


def assign(y, folds: int, seed: int = 0, *, stratify: bool = True) -> np.ndarray:
    """The fold (1..folds) of every row; ``y`` holds class codes when ``stratify``."""
    n = len(y)
    check(folds, seed, n)
    k = keys(n, seed)
    if stratify:
        codes = np.asarray(y).tolist()
        order = sorted(range(n), key=lambda r: (codes[r], k[r]))
    else:
        order = sorted(range(n), key=lambda r: k[r])
    out = np.empty(n, dtype=np.int64)
    for position, r in enumerate(order):
        out[r] = position % folds + 1
    return out


def given(ids, n_rows) -> np.ndarray:
    """Fold numbers 1..K from one fold id per row (any labels; integers are numbered in
    increasing order, other labels in order of first appearance), or a one-line error."""
    ids = list(ids)
    if len(ids) != n_rows:
        raise InfotreeError(f"the fold ids number {len(ids)}; the data has {n_rows} rows (give one fold id per row)")
    for i, v in enumerate(ids):
        if v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip()):
            raise InfotreeError(f"fold id {i + 1} (row {i + 1}) is missing; every row needs a fold")
    labels = list(dict.fromkeys(ids))
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in labels):
        labels.sort()
    if len(labels) < 2:
        raise InfotreeError(f"the fold ids name {len(labels)} fold ({labels[0]!r}); cross-validation needs at least 2")
    number = {v: k for k, v in enumerate(labels, 1)}
    return np.array([number[v] for v in ids], dtype=np.int64)


def resolve(y, folds, seed: int = 0, *, stratify: bool = True, X=None) -> tuple:
    """(fold of every row (1..K), K, whether the folds were given): ``folds`` is K (dealt by
    :func:`assign` from ``seed``), one fold id per row, or a scikit-learn splitter (its
    ``split(X, y)`` test sets must hold every row exactly once)."""
    n = len(y)
    if isinstance(folds, (int, np.integer)) and not isinstance(folds, bool):
        return assign(y, int(folds), seed, stratify=stratify), int(folds), False
    if hasattr(folds, "split") and not isinstance(folds, str):
        fold = np.zeros(n, dtype=np.int64)
        k = 0
        for k, (_, test) in enumerate(folds.split(np.zeros((n, 1)) if X is None else X, np.asarray(y)), 1):
            test = np.asarray(test, dtype=np.int64)
            if (fold[test] != 0).any():
                raise InfotreeError(f"the splitter's test sets overlap (row {int(test[fold[test] != 0][0]) + 1} is in "
                                    f"two); cross-validation here needs folds: test sets that hold every row once")
            fold[test] = k
        if (fold == 0).any():
            raise InfotreeError(f"the splitter's test sets leave row {int(np.flatnonzero(fold == 0)[0]) + 1} out; "
                                f"cross-validation here needs test sets that hold every row once")
        if k < 2:
            raise InfotreeError("the splitter made 1 fold; cross-validation needs at least 2")
        return fold, k, True
    if isinstance(folds, (str, bytes, float, bool)) or not hasattr(folds, "__iter__"):
        raise InfotreeError(f"folds {folds!r} is not allowed; give an integer K of at least 2, one fold id per row, "
                            f"or a scikit-learn splitter")
    fold = given(folds, n)
    return fold, int(fold.max()), True
