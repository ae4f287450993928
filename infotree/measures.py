"""Exact information measures on counts, tables, labels and distributions.

Counts may be ints or Fractions (weighted instances); ``0·log 0 = 0`` throughout,
by skipping zero counts.  A *table* has one row per value of X and one column per
class of Y.  Every result is an :class:`~infotree.exact.Exact` (gain ratio: a
:class:`~infotree.exact.Ratio`).

==================================  =========================================
``entropy(counts)``                 H(Y) from class counts: ``entropy([9, 5])``
``entropy_of_labels(y)``            H(Y) from a sequence of labels
``entropy_of_probabilities(p)``     H(P) for exact rationals ``["1/2", "1/4", ...]``
``joint_entropy(x, y, ...)``        H(X, Y, ...)
``conditional_entropy(y, given=x)`` H(Y|X)
``specific_conditional_entropy``    H(Y|X=x)
``information_gain(y, given=x)``    IG = H(Y) - H(Y|X)
``mutual_information(x, y)``        I(X;Y), symmetric exactly
``conditional_mutual_information``  I(X;Y|Z)
``split_information(x)``            H(X), C4.5's split information
``gain_ratio(y, given=x)``          IG / SplitInfo
``kl_divergence(p, q)``             D(p‖q)
``cross_entropy(p, q)``             H(p, q)
``gini(counts)``                    1 − Σ p² (a Fraction)
``misclassification(counts)``       1 − max p (a Fraction)
==================================  =========================================

    >>> str(entropy([9, 5]))
    '1 + log2(7) - 9/7*log2(3) - 5/14*log2(5)'
"""

from __future__ import annotations

import numbers
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from .errors import InfotreeError, LimitError
from .escape import clip as _clip
from .exact import Exact, Ratio
from .factoring import _factor_int, factorize
from .parse import parse_rational

__all__ = [
    "sum_of_squares",
    "conditional_entropy",
    "conditional_entropy_from_table",
    "conditional_mutual_information",
    "cross_entropy",
    "entropy",
    "entropy_of_labels",
    "entropy_of_probabilities",
    "gain_ratio",
    "gain_ratio_from_table",
    "gini",
    "information_gain",
    "information_gain_from_table",
    "is_independent",
    "joint_entropy",
    "kl_divergence",
    "misclassification",
    "mutual_information",
    "specific_conditional_entropy",
    "split_information",
    "split_information_from_table",
]


# -- the one primitive: Σ m·log2(m) -----------------------------------------------

def _count(c):
    if isinstance(c, bool):
        raise InfotreeError(f"count {c!r} is a bool; counts must be non-negative ints or Fractions")
    if isinstance(c, float) or getattr(getattr(c, "dtype", None), "kind", "") == "f":
        raise InfotreeError(f"count {c!r} is a float; counts must be ints or Fractions (write Fraction('0.5'))")
    try:
        if isinstance(c, numbers.Integral):
            q = int(c)  # numpy integers too: factorisation needs Python ints
        elif isinstance(c, str):
            q = parse_rational(c, what="count")  # bounded: Fraction('1e999999999') would hang
        else:
            q = c if isinstance(c, Fraction) else Fraction(c)
    except LimitError:
        raise
    except (TypeError, ValueError, ArithmeticError):  # Decimal('Infinity'): OverflowError
        raise InfotreeError(f"count {_clip(repr(c))} is not a number; counts must be non-negative ints or Fractions") from None
    if q < 0:
        raise InfotreeError(f"count {c!r} is negative; counts must be non-negative")
    return q


def _add_xlogx(acc: dict, m, sign: int) -> None:
    """acc += sign · m·log2(m), with acc a {prime: coefficient} dict (2 is the constant)."""
    if m == 0 or m == 1:
        return
    for p, e in factorize(m).items():
        acc[p] = acc.get(p, 0) + sign * m * e


def _form(acc: dict, scale) -> Exact:
    return Exact(0, {p: Fraction(c) * scale for p, c in acc.items()})


def _h_counts(counts) -> Exact:
    """H of already-validated counts with a positive total."""
    n = sum(counts)
    acc: dict = {}
    _add_xlogx(acc, n, 1)
    for c in counts:
        _add_xlogx(acc, c, -1)
    return _form(acc, Fraction(1) / n)


def _checked(counts, what="counts"):
    cs = [_count(c) for c in counts]
    if sum(cs) == 0:
        raise InfotreeError(f"entropy of nothing: the {what} sum to 0 (n = 0); at least one count must be positive")
    return cs


def _table(table):
    rows = [[_count(c) for c in row] for row in table]
    if not rows:
        raise InfotreeError("empty table; a table needs at least one row of class counts")
    width = len(rows[0])
    for r in rows:
        if len(r) != width:
            raise InfotreeError(f"ragged table: rows have {width} and {len(r)} class counts; all rows need the same number")
    if sum(sum(r) for r in rows) == 0:
        raise InfotreeError("entropy of nothing: the table's counts sum to 0 (n = 0)")
    return rows


# -- plain ints: integer coefficients, one division ---------------------------------
#
# Counts that are all non-negative Python ints (the tree's records) need no further
# validation, and n·H of them has integer coefficients: accumulate ints per prime
# (f(m) = m·log2(m) from a cached factorisation), divide by n once at the end.  The
# result is the same Exact as the general path's.  Entropies of the same counts recur
# in many nodes (printing connect-4's tree, a cache of a thousand count tuples answers
# nine calls in ten); the caches are small and bounded, so memory stays flat.

@lru_cache(maxsize=4096)
def _f_int(m: int) -> tuple:
    """f(m) = m·log2(m) as ((p, m·e_p), ...), p ascending (2 included), for an int m >= 2."""
    return tuple((p, m * e) for p, e in _factor_int(m))


@lru_cache(maxsize=4096)
def _g_int(counts: tuple) -> tuple:
    """n·H(counts) = f(n) - Σ f(c) as ((p, a_p), ...) with int a_p != 0, p ascending; () when pure."""
    if sum(1 for c in counts if c) <= 1:
        return ()
    acc: dict = {}
    for p, a in _f_int(sum(counts)):
        acc[p] = a
    for c in counts:
        if c > 1:
            for p, a in _f_int(c):
                acc[p] = acc.get(p, 0) - a
    return tuple(sorted((p, a) for p, a in acc.items() if a))


def _exact_over(acc, n: int) -> Exact:
    """The Exact Σ a_p·log2(p) / n of int coefficients ((p, a_p), ...), p ascending, a_p != 0."""
    c0 = Fraction(0)
    terms = []
    for p, a in acc:
        if p == 2:
            c0 = Fraction(a, n)
        else:
            terms.append((p, Fraction(a, n)))
    return Exact._raw(c0, tuple(terms))


def _sum_g(rows, sign: int = 1, acc: dict | None = None) -> dict:
    """acc += sign · Σ_rows n_x·H(row), int coefficients."""
    acc = {} if acc is None else acc
    for r in rows:
        for p, a in _g_int(r):
            acc[p] = acc.get(p, 0) + sign * a
    return acc


def _nonzero(acc: dict) -> tuple:
    return tuple(sorted((p, a) for p, a in acc.items() if a))


@lru_cache(maxsize=1024)
def _entropy_int(counts: tuple) -> Exact:
    return _exact_over(_g_int(counts), sum(counts))


def _once(x):
    """A one-shot iterable (generator) as a list, so both paths can read it; anything else as it is."""
    if isinstance(x, (list, tuple)) or hasattr(x, "dtype"):
        return x
    try:
        return list(x)
    except TypeError:
        return x


def _once_rows(table):
    """``_once`` for a table and each of its rows."""
    table = _once(table)
    if isinstance(table, (list, tuple)) and not all(isinstance(r, (list, tuple)) or hasattr(r, "dtype") for r in table):
        table = [_once(r) for r in table]
    return table


def _plain(x):
    """``x`` as a sequence of Python ints when it may be one: a list or tuple, or a numpy integer array."""
    if isinstance(x, (list, tuple)):
        return x
    kind = getattr(getattr(x, "dtype", None), "kind", None)
    if kind is not None and kind in "iu" and getattr(x, "ndim", 0) >= 1:
        return x.tolist()
    return None


def _int_counts(counts):
    """``counts`` as a tuple of non-negative ints with a positive sum, or None (the general path decides)."""
    cs = _plain(counts)
    if cs is None:
        return None
    for c in cs:
        if type(c) is not int or c < 0:
            return None
    return tuple(cs) if any(cs) else None


def _int_table(table):
    """``table`` as a tuple of equally long tuples of non-negative ints with a positive sum, or None.

    Only lists, tuples and numpy integer arrays are looked into (nothing is consumed).
    """
    rows = table if type(table) is tuple else _plain(table)
    if not rows:
        return None
    width = len(rows[0]) if type(rows[0]) is tuple or type(rows[0]) is list else -1
    same = type(rows) is tuple
    out = []
    for r in rows:
        if type(r) is not tuple:
            same = False
            r = _plain(r)
            if r is None:
                return None
            r = tuple(r)
        if len(r) != width:
            return None
        for c in r:
            if type(c) is not int or c < 0:
                return None
        out.append(r)
    if not any(map(any, out)):
        return None
    return rows if same else tuple(out)


def _read_table(table):
    """(table, its plain-int form or None): one-shot iterables read once, so the general path can read them too."""
    ints = _int_table(table)
    if ints is None:
        table = _once_rows(table)
        ints = _int_table(table)
    return table, ints


# -- counts and tables --------------------------------------------------------------

def entropy(counts) -> Exact:
    """H of class counts, e.g. ``entropy([9, 5])``; counts are ints or Fractions."""
    counts = _once(counts)
    cs = _int_counts(counts)
    if cs is not None:
        return _entropy_int(cs)
    return _h_counts(_checked(counts))


def conditional_entropy_from_table(table) -> Exact:
    """H(Y|X) from a table with one row per value of X: ``[[2, 3], [4, 0], [3, 2]]``."""
    table, ints = _read_table(table)
    if ints is not None:
        return _exact_over(_nonzero(_sum_g(ints)), sum(map(sum, ints)))
    rows = _table(table)
    n = sum(sum(r) for r in rows)
    acc: dict = {}
    for r in rows:
        _add_xlogx(acc, sum(r), 1)
        for c in r:
            _add_xlogx(acc, c, -1)
    return _form(acc, Fraction(1) / n)


def information_gain_from_table(table) -> Exact:
    """IG = H(Y) - H(Y|X) from a value-by-class table."""
    table, ints = _read_table(table)
    if ints is not None:
        ys = tuple(map(sum, zip(*ints)))
        return _exact_over(_nonzero(_sum_g(ints, -1, dict(_g_int(ys)))), sum(ys))
    rows = _table(table)
    ys = [sum(col) for col in zip(*rows)]
    return _h_counts(ys) - conditional_entropy_from_table(rows)


def split_information_from_table(table) -> Exact:
    """C4.5's split information: the entropy of the row totals."""
    table, ints = _read_table(table)
    if ints is not None:
        return _entropy_int(tuple(map(sum, ints)))
    rows = _table(table)
    return _h_counts([sum(r) for r in rows])


def is_independent(table) -> bool:
    """IG = 0 exactly: n·n_xy = n_x·n_y in every cell (rational arithmetic only, no logarithm)."""
    rows = [list(r) for r in table]
    nx = [sum(r) for r in rows]
    ny = [sum(col) for col in zip(*rows)]
    n = sum(nx)
    return all(c * n == a * b for r, a in zip(rows, nx) for c, b in zip(r, ny))


# -- impurities (CART): plain rationals ------------------------------------------------

def gini(counts) -> Fraction:
    """The Gini index 1 − Σ p² of class counts, exactly: ``gini([9, 5]) == Fraction(45, 98)``."""
    cs = _checked(_once(counts))
    n = sum(cs)
    return 1 - sum(Fraction(c) ** 2 for c in cs) / Fraction(n) ** 2


def sum_of_squares(stats) -> Fraction:
    """SSE = Σ(y − ȳ)² = Σy² − (Σy)²/n of rows given by their statistics (n, Σy, Σy²), exactly:
    ``sum_of_squares((3, 6, 14)) == 2`` for y = 1, 2, 3 (0 for no rows)."""
    n, s, q = stats
    return Fraction(0) if not n else q - Fraction(s) ** 2 / n


def misclassification(counts) -> Fraction:
    """The misclassification error 1 − max p of class counts, exactly: ``Fraction(5, 14)`` for [9, 5]."""
    cs = _checked(_once(counts))
    return 1 - Fraction(max(cs)) / sum(cs)


def gain_ratio_from_table(table) -> Ratio:
    """IG / SplitInfo; an error when the split information is 0 (a single value)."""
    rows = _table(table)
    si = split_information_from_table(rows)
    if not si:
        raise InfotreeError("gain ratio is undefined: split information is 0 (all rows have one value of X)")
    return Ratio(information_gain_from_table(rows), si)


# -- labels ----------------------------------------------------------------------------

def _labels(x, name="labels"):
    if isinstance(x, (str, bytes)):
        raise InfotreeError(f"{name} must be a sequence of labels, got the string {x!r}")
    try:
        seq = x.tolist() if hasattr(x, "tolist") else list(x)
    except TypeError:
        raise InfotreeError(f"{name} must be a sequence of labels, got {type(x).__name__}") from None
    for i, v in enumerate(seq):
        try:
            hash(v)
        except TypeError:
            raise InfotreeError(f"label {_clip(repr(v))} in {name} is not hashable; labels must be hashable values") from None
        # NaN is unequal to itself: each NaN would count as a class of its own.
        if isinstance(v, (float, Decimal)) and v != v:
            raise InfotreeError(f"{name}[{i}] is NaN, a missing value; every label must be a value "
                                f"(drop or fill the missing labels first)")
    return seq


def _same_length(*cols):
    lens = {len(c) for c in cols}
    if len(lens) > 1:
        raise InfotreeError(f"label sequences of different lengths {sorted(lens)}; they must be the same length")


def _counts_of(seq) -> list:
    counts: dict = {}
    for v in seq:
        counts[v] = counts.get(v, 0) + 1
    return list(counts.values())


def _crosstab(x, y) -> list:
    rows: dict = {}
    ys: dict = {}
    for a, b in zip(x, y):
        j = ys.setdefault(b, len(ys))
        rows.setdefault(a, {})
        rows[a][j] = rows[a].get(j, 0) + 1
    return [[r.get(j, 0) for j in range(len(ys))] for r in rows.values()]


def entropy_of_labels(labels) -> Exact:
    """H(Y) of a sequence of hashable labels (list, tuple or numpy array)."""
    seq = _labels(labels)
    if not seq:
        raise InfotreeError("entropy of nothing: no labels (n = 0)")
    return _h_counts(_counts_of(seq))


def joint_entropy(*columns) -> Exact:
    """H(X1, X2, ...) of equally long label sequences."""
    if not columns:
        raise InfotreeError("joint_entropy needs at least one sequence of labels")
    cols = [_labels(c) for c in columns]
    _same_length(*cols)
    return entropy_of_labels(list(zip(*cols)))


def conditional_entropy(labels, *, given) -> Exact:
    """H(Y|X) for label sequences ``labels`` (Y) and ``given`` (X)."""
    y, x = _labels(labels), _labels(given, "given")
    _same_length(y, x)
    return conditional_entropy_from_table(_crosstab(x, y))


def specific_conditional_entropy(labels, *, given, value) -> Exact:
    """H(Y|X=value): the entropy of the labels on rows where ``given == value``."""
    y, x = _labels(labels), _labels(given, "given")
    _same_length(y, x)
    sub = [b for a, b in zip(x, y) if a == value]
    if not sub:
        raise InfotreeError(f"no row has the value {value!r}; H(Y|X=x) needs at least one row with X = x")
    return _h_counts(_counts_of(sub))


def information_gain(labels, *, given) -> Exact:
    """IG(Y; X) = H(Y) - H(Y|X)."""
    y, x = _labels(labels), _labels(given, "given")
    _same_length(y, x)
    return information_gain_from_table(_crosstab(x, y))


def mutual_information(x, y) -> Exact:
    """I(X;Y) = H(X) + H(Y) - H(X,Y): symmetric by construction, and exactly equal to IG."""
    a, b = _labels(x, "x"), _labels(y, "y")
    _same_length(a, b)
    return entropy_of_labels(a) + entropy_of_labels(b) - joint_entropy(a, b)


def conditional_mutual_information(x, y, *, given) -> Exact:
    """I(X;Y|Z) = H(X,Z) + H(Y,Z) - H(X,Y,Z) - H(Z)."""
    a, b, z = _labels(x, "x"), _labels(y, "y"), _labels(given, "given")
    _same_length(a, b, z)
    return joint_entropy(a, z) + joint_entropy(b, z) - joint_entropy(a, b, z) - entropy_of_labels(z)


def split_information(values) -> Exact:
    """H(X) of the attribute's values: C4.5's split information."""
    return entropy_of_labels(values)


def gain_ratio(labels, *, given) -> Ratio:
    """IG / SplitInfo for label sequences; an error when X takes a single value."""
    y, x = _labels(labels), _labels(given, "given")
    _same_length(y, x)
    return gain_ratio_from_table(_crosstab(x, y))


# -- distributions ---------------------------------------------------------------------

def _prob(p):
    if isinstance(p, float):
        raise InfotreeError(f"probability {p!r} is a float; give exact rationals such as '1/64' or Fraction(1, 64)")
    try:
        q = parse_rational(p, what="probability") if isinstance(p, str) else Fraction(p)
    except LimitError:
        raise
    except (TypeError, ValueError, ArithmeticError):  # Decimal('Infinity'): OverflowError
        raise InfotreeError(f"probability {_clip(repr(p))} is not a rational number; write it like '1/64' or '0.25'") from None
    if q < 0 or q > 1:
        raise InfotreeError(f"probability {p!r} is outside [0, 1]")
    return q


def _distribution(ps, name="p"):
    qs = [_prob(p) for p in ps]
    if sum(qs) != 1:
        raise InfotreeError(f"{name} sums to {sum(qs)}, not 1; a distribution's probabilities must sum to exactly 1")
    return qs


def entropy_of_probabilities(probs) -> Exact:
    """H(P) = -Σ p·log2(p) for exact rationals, e.g. ``["1/2", "1/4", "1/4"]``."""
    qs = _distribution(probs)
    acc: dict = {}
    for q in qs:
        if q:
            for p, e in factorize(q).items():
                acc[p] = acc.get(p, 0) - q * e
    return Exact(0, acc)


def _pairs(p, q):
    ps, qs = _distribution(p, "p"), _distribution(q, "q")
    if len(ps) != len(qs):
        raise InfotreeError(f"p has {len(ps)} probabilities and q has {len(qs)}; they must have the same length")
    return ps, qs


def kl_divergence(p, q) -> Exact:
    """D(p‖q) = Σ p·log2(p/q); an error where q is 0 and p is not (infinite)."""
    ps, qs = _pairs(p, q)
    acc: dict = {}
    for i, (a, b) in enumerate(zip(ps, qs)):
        if not a:
            continue
        if not b:
            raise InfotreeError(f"D(p‖q) is infinite: q[{i}] is 0 where p[{i}] = {a}")
        for pr, e in factorize(a / b).items():
            acc[pr] = acc.get(pr, 0) + a * e
    return Exact(0, acc)


def cross_entropy(p, q) -> Exact:
    """H(p, q) = -Σ p·log2(q) = H(p) + D(p‖q)."""
    return entropy_of_probabilities(p) + kl_divergence(p, q)
