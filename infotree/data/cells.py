"""In-memory cells as the readers see them: None, NaN and pandas' NA as missing, every cell as its
``str()``, a 2-D table as columns (ragged rows refused).

None and NaN become sentinel strings (and ARFF's quoted ``'?'`` another) so that whole columns stay
plain lists of str; a leading NUL survives numpy (only trailing NULs are cut)."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np

from ..errors import DataError
from .messages import _clip, _fields


_MISSING_TOKENS = ("?", "")
# In-memory None/NaN and ARFF's quoted '?' become these strings so that whole
# columns stay plain str arrays; a leading NUL survives numpy (only trailing NULs are cut).
_NONE, _NAN, _QUOTED_QMARK = "\x00None", "\x00NaN", "\x00'?'"
_SHOWN = {_NONE: None, _NAN: math.nan}
_MISSING_AS_VALUE = {_NONE: "?", _NAN: "?"}  # what None/NaN become under on_missing='value'


def _table_columns(rows, *, width=None, what="row"):
    """The columns (1-D arrays) of a 2-D table given as an array or as rows, refusing ragged input."""
    if isinstance(rows, np.ndarray):
        if rows.ndim != 2:
            raise DataError(f"the table has shape {rows.shape}; expected 2-D (rows of values)")
        columns = list(rows.T)
    else:
        rows = [list(r) if not isinstance(r, (str, bytes)) and hasattr(r, "__iter__") else r for r in rows]
        for i, r in enumerate(rows):
            if not isinstance(r, list):
                raise DataError(f"{what} {i} is {_clip(r)!r}, not a sequence of values; expected a 2-D table")
            if len(r) != len(rows[0]):
                raise DataError(f"{what} {i} has {_fields(len(r), 'value')}; expected {len(rows[0])}, one per column")
        columns = [_column(col) for col in zip(*rows)] if rows else [_column([]) for _ in range(width or 0)]
    if width is not None and len(columns) != width:
        raise DataError(f"the table has {_fields(len(columns), 'column')}; expected {width}, one per name")
    return columns


def _column(values):
    """A 1-D object array of ``values``, each one cell even if it is itself a sequence."""
    return np.fromiter(values, dtype=object)


def _missing_kind(v):
    if v is None:
        return 1
    if isinstance(v, (float, np.floating)) and math.isnan(v) or isinstance(v, Decimal) and v.is_nan():
        return 2
    return 2 if type(v).__name__ in ("NAType", "NaTType") else 0  # pandas NA/NaT, without pandas


_missing_kinds = np.frompyfunc(_missing_kind, 1, 1)


def _strings(col):
    """``str()`` of every cell of a 1-D array as a list, with None and NaN as their sentinels."""
    kind = np.zeros(len(col), dtype=np.int8)  # 1 = None, 2 = NaN
    if col.dtype.kind in "fc":
        kind[np.isnan(col)] = 2
    elif col.dtype.kind in "mM":
        kind[np.isnat(col)] = 2
    elif col.dtype == object:
        with np.errstate(invalid="ignore"):  # looking at NaN is not an error here
            try:  # elementwise comparisons loop in C; NaN is the one value unequal to itself
                kind[np.not_equal(col, col).astype(bool)] = 2
                kind[np.equal(col, None).astype(bool)] = 1
            except (TypeError, ValueError, ArithmeticError):  # pandas NA has no truth value; Decimal('sNaN') raises
                kind = _missing_kinds(col).astype(np.int8)
    try:
        strings = col.astype(str).tolist()
    except ValueError:  # a cell that is itself a sequence
        strings = [str(v) for v in col]
    for i in np.flatnonzero(kind).tolist():
        strings[i] = _NONE if kind[i] == 1 else _NAN
    return strings
