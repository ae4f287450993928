"""One column's codes: its distinct labels (in order of first appearance, stripped), and from them a
nominal column's domain and codes, or a numeric column's exact numbers, ranks and canonical texts,
each with the first problem in row order (a missing, undeclared or non-numeric cell)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .cells import _SHOWN
from .numbers import _number_of, _number_text, _parse_decimal, coprime


_ARFF_NUMERIC = "numeric"  # an ARFF attribute declared numeric, real or integer


def _numbers_of(labels, firsts, cells, missing, aliases, *, value_missing, strict):
    """Per label its Fraction, None if missing, or a problem ``'nan'``/``'range'``.

    Not strict (``numeric='auto'``): None as soon as a label is not a number, or when
    every label is missing (then the column is nominal).
    """
    values, seen = [], False
    for label, first in zip(labels, firsts):
        if label in missing and not value_missing:
            values.append(None)
            continue
        if label in missing:  # on_missing='value': stays missing, and _encode_numeric refuses it
            values.append(None if strict else "nan")
        else:
            label = aliases.get(label, label)
            values.append(_number_of(None if cells is None else cells[first], label))
        if not strict:
            if not isinstance(values[-1], Fraction):
                return None
            seen = True
    return values if strict or seen else None


def _encode_numeric(labels, firsts, inv, values, *, aliases, keep_missing, value_missing):
    """Codes (ranks), domain (canonical texts), numbers and first problem of a numeric column."""
    problem = None
    for label, first, v in zip(labels, firsts, values):
        what = ("missing as value" if value_missing else None if keep_missing else "missing") if v is None else (
            None if isinstance(v, Fraction) else v)
        if what and (problem is None or first < problem[0]):
            problem = (first, what, _SHOWN[label] if label in _SHOWN else aliases.get(label, label))
    # Ranks by one sort, floats first (a Fraction's hash costs a modular power, and a
    # comparison of floats a twentieth of one of Fractions): the cost per value does not
    # grow with its digits.  Labels of one number ("1.0", "1") share a rank.
    known = [i for i, v in enumerate(values) if isinstance(v, Fraction)]
    try:  # n / d of ints is float(v), correctly rounded, without Fraction's properties
        known.sort(key=lambda i: (values[i].numerator / values[i].denominator, values[i]))
    except OverflowError:
        known.sort(key=values.__getitem__)
    lookup = np.full(len(values), -1, dtype=np.int32)
    distinct, texts, last = [], [], None
    for i in known:
        v = values[i]
        key = (v.numerator, v.denominator)   # in lowest terms: equal numbers, equal pairs
        if key != last:
            distinct.append(v)
            texts.append(_number_text(v))
            last = key
        lookup[i] = len(distinct) - 1
    return lookup[inv], tuple(texts), _Canonical(distinct), problem


class _Canonical(tuple):
    """A numeric feature's numbers as the readers make them: exact, ascending, each once, and
    its domain their canonical texts; a Dataset takes them without checking them again."""


def _encode_column(labels, firsts, inv, *, missing, aliases, declared, keep_missing, value_missing):
    """Codes, domain and first problem ``(row, kind, shown)`` of one factorized str column.

    The domain is ``declared`` (plus ``?`` if missing is a value), else the labels in
    order of first appearance.
    """
    final, first_of = [], {}  # final label per distinct raw label (None = missing)
    problem = None
    for label, first in zip(labels, firsts):
        if label in missing and not value_missing:
            final.append(None)
            if not keep_missing and (problem is None or first < problem[0]):
                problem = (first, "missing", _SHOWN.get(label, label))
            continue
        label = aliases.get(label, label)
        final.append(label)
        if ("\n" in label or "\r" in label) and (problem is None or first < problem[0]):
            problem = (first, "line break", label)
        if label not in first_of or first < first_of[label]:
            first_of[label] = first
    if declared is None:
        domain = tuple(sorted(first_of, key=first_of.__getitem__))
    else:
        domain = tuple(declared)
        if value_missing and "?" in first_of and "?" not in domain:
            domain += ("?",)  # missing as a value comes after the declared values
        for label, first in first_of.items():
            if label not in domain and (problem is None or first < problem[0]):
                problem = (first, "undeclared", label)
    code = {v: k for k, v in enumerate(domain)}
    lookup = np.array([-1 if f is None else code.get(f, -1) for f in final], dtype=np.int32)
    return lookup[inv], domain, problem


def _factorize(values):
    """Labels of a list of str: the distinct stripped values, the row where each first appears, and each row's label.

    Labels are numbered in order of first appearance.
    """
    return _finish_factorize(*_raw_codes(values))


class _Factorized:
    """A column handed over factorized (Arrow's dictionary encoding of a Parquet column):
    :func:`_raw_codes`' result, its distinct cells' texts in order of first appearance and
    each cell's index there, without a Python object a cell; ``cells``: the distinct cells
    themselves, in the same order, so that the cell of a row can be read."""

    __slots__ = ("raw", "cells")

    def __init__(self, labels, codes, cells):
        self.raw, self.cells = (labels, codes), cells

    def __len__(self):
        return len(self.raw[1])

    def __getitem__(self, row):
        return self.cells[self.raw[1][row]]


def _raw_codes(values):
    """The distinct values of a list of str in order of first appearance, and each cell's index there."""
    # dict.fromkeys and map(dict.__getitem__) run in C: no Python code per cell.
    raw = {v: k for k, v in enumerate(dict.fromkeys(values))}
    return list(raw), np.fromiter(map(raw.__getitem__, values), dtype=np.intp, count=len(values))


def _distinct_codes(col):
    """:func:`_raw_codes` of ``_strings(col)`` for a column of float64 or of str (numpy's
    ``U``), and each distinct value's first row, made from its distinct values (a 10^5-row
    column has far fewer); None (the general path) for other columns and with a NaN.
    Floats are told apart by their bits, as their texts are (−0.0 is not 0.0)."""
    if not isinstance(col, np.ndarray) or not len(col):
        return None
    if col.dtype == np.float64:
        if np.isnan(col).any():
            return None
        keys = np.ascontiguousarray(col).view(np.int64)
    elif col.dtype.kind == "U":
        keys = col
        if col.dtype.itemsize in (4, 8):  # one or two characters: as integers, which np.unique sorts faster
            keys = np.ascontiguousarray(col).view(np.uint32 if col.dtype.itemsize == 4 else np.uint64)
    else:
        return None
    if keys.dtype == np.uint32:  # one character: a small alphabet is marked, not sorted
        found = _few_codes(col, keys)
        if found is not None:
            return found
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first)                    # the distinct values in order of first appearance
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return col[first[order]].astype(str).tolist(), rank[inv.reshape(-1)], first[order].tolist()


def _few_codes(col, keys, most=64):
    """:func:`_distinct_codes` of a column of one-character texts (``keys``: their code
    points) with at most ``most`` distinct, each found by one pass over the column: np.unique
    would sort it (connect-4's 42 columns of 3 letters: 60 ms of sorting for 126 values)."""
    top = int(keys.max()) + 1
    if top > 1 << 16:
        return None
    seen = np.zeros(top, bool)
    seen[keys] = True
    values = np.flatnonzero(seen)
    if len(values) > most:
        return None
    first = np.sort([int(np.argmax(keys == v)) for v in values.tolist()])   # the values in order of appearance
    code = np.empty(top, np.intp)
    code[keys[first]] = np.arange(len(first))
    return col[first].astype(str).tolist(), code[keys], first.tolist()


def _finite_floats(col) -> bool:
    return isinstance(col, np.ndarray) and col.dtype == np.float64 and col.ndim == 1 and bool(
        len(col) and np.isfinite(col).all())


def _float_numbers(col, missing):
    """Codes (ranks), domain and numbers of a numeric column of finite float64 values, made
    per distinct value (None if one's text is a ``missing`` token).  A float is read from
    its shortest text (``str``), which rounds back to it: distinct floats have distinct
    exact numbers in the same order (−0.0 and 0.0 are one, 0), so the floats' ranks are
    the numbers' ranks."""
    distinct, codes = np.unique(col, return_inverse=True)
    S = distinct.astype(str)
    domain = S.tolist()
    if not missing.keys().isdisjoint(domain):
        return None
    numbers = [None] * len(domain)
    # [-]digits.digits: its digits over a power of ten, made and reduced in arrays (a 10^4 x
    # 10^3 table has 3.7 million distinct values).  With p places and fewer than 2^51 as
    # digits, float × 10^p is within 2^-52 of relative error of them, so rounding it gives
    # them exactly; the shortest text is canonical but for ".0".
    dot = np.char.find(S, ".")
    places = np.char.str_len(S) - dot - 1
    plain = (dot >= 0) & (np.char.find(S, "e") < 0) & (places <= 18)
    scaled = np.rint(distinct * 10.0 ** np.where(plain, places, 0))
    plain = np.flatnonzero(plain & (np.abs(scaled) < 2.0 ** 51))
    if len(plain):
        n = scaled[plain].astype(np.int64)
        d = 10 ** places[plain].astype(np.int64)
        g = np.gcd(n, d)
        for i, a, b in zip(plain.tolist(), (n // g).tolist(), (d // g).tolist()):
            numbers[i] = coprime(a, b)
        for i in plain[places[plain] == 1].tolist():
            whole, _, frac = domain[i].partition(".")
            if frac == "0":
                domain[i] = whole if numbers[i] else "0"
    for i, q in enumerate(numbers):
        if q is None:  # such as 1e+16 or 1.5e-07
            numbers[i] = q = _parse_decimal(domain[i])
            domain[i] = _number_text(q)
    # exact, ascending (the floats' order), each once, the texts canonical: the Dataset
    # takes them unchecked (checking 10^5 of them again was a tenth of a CART fit)
    return codes.reshape(-1), tuple(domain), _Canonical(numbers)


def _finish_factorize(raw, inv, first=None):
    """As :func:`_factorize`, from :func:`_raw_codes`: strip the distinct values, merging equal
    ones.  ``first``: each distinct value's first row, where the factorizing found them."""
    if first is None:
        # labels are numbered as they appear, so the running maximum steps up at each first appearance
        top = np.maximum.accumulate(inv) if len(inv) else inv
        first = np.flatnonzero(np.diff(top, prepend=-1)).tolist()
    labels, firsts, index, remap = [], [], {}, []
    for v, f in zip(raw, first):
        label = v.strip()
        if label not in index:
            index[label] = len(labels)
            labels.append(label)
            firsts.append(f)
        remap.append(index[label])
    if len(labels) < len(raw):  # stripping merged some labels
        inv = np.asarray(remap, dtype=np.intp)[inv]
    return labels, firsts, inv
