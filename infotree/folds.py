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
"""

from __future__ import annotations

import numpy as np

from . import limits
from .errors import InfotreeError

__all__ = ["MODULUS", "MULTIPLIER", "assign", "check", "key", "keys"]

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
