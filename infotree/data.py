"""Reading categorical and numeric data and encoding it as integer codes.

This module owns the way in: CSV and ARFF files, DataFrames, records and arrays
become a :class:`Dataset` whose cells are ``int32`` codes into per-column value
lists, so the tree builder never touches a string.  Every value is a string with
the whitespace around it stripped (header names too); numbers and bools in memory
become ``str(v)``.  Codes follow ARFF declaration order, else order of first
appearance.  Missing cells (``?`` or empty in files; also ``None``/NaN in memory)
are refused unless ``on_missing='keep'`` (code ``-1``) or ``on_missing='value'``
(``?`` becomes an ordinary value).  A missing class is always refused.  Every bad
input raises a one-line :class:`~infotree.errors.DataError` naming the place.

Numeric columns (for C4.5) keep the integer representation: the code of a cell is
the rank of its value among the column's distinct values (0 = smallest), held
exactly as :class:`fractions.Fraction` in ``Dataset.numbers[j]``; ``domains[j]``
holds their canonical text (``"75"``, ``"2.45"``, ``"-0.5"``; ``"75.0"`` and
``"7.5e1"`` are the same number ``"75"``).  Numbers are read from decimal text
exactly, never through a float: ``[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?``
with at most 40 significant digits and a decimal exponent from -400 to 400.  Which
columns are numeric is decided by ``numeric=`` and ``categorical=``:

* ``numeric=None`` (default): ARFF attributes declared ``numeric``, ``real`` or
  ``integer``; CSV and in-memory columns stay nominal (a ``0/1`` column too).
* ``numeric="auto"``: also every CSV/in-memory feature whose non-missing cells all
  read as numbers (at least one).  In memory, ints, finite floats, Decimals and
  Fractions are numbers, bools are not; a float is read from its shortest text
  (``str(x)``: ``0.1`` is ``1/10``, not the binary double).
* ``numeric=[names]``: these columns are numeric (a cell that is not a number is
  an error); ARFF declarations still apply to the others.
* ``numeric="all"``: every feature is numeric except those ``categorical`` names.
* ``categorical=[names]``: these columns are nominal even if declared or detected
  numeric; ``categorical="all"``: every feature except those ``numeric`` names (an
  integer-coded data set of factors).  The target is always nominal.

A missing value in a numeric column is refused, or ``-1`` with ``on_missing='keep'``;
``on_missing='value'`` cannot make ``?`` a number and is refused there.

>>> ds = from_records([{"outlook": "sunny", "play": "no"},
...                    {"outlook": "rainy", "play": "yes"},
...                    {"outlook": "sunny", "play": "yes"}])
>>> ds.features, ds.target, ds.domains, ds.classes
(('outlook',), 'play', (('sunny', 'rainy'),), ('no', 'yes'))
>>> ds.X.tolist(), ds.y.tolist()
([[0], [1], [0]], [0, 1, 1])
>>> ds = from_records({"temp": ["75", "2.45", "75.0", "?"], "play": ["no", "yes", "yes", "no"]},
...                   numeric=["temp"], on_missing="keep")
>>> ds.kinds, ds.domains, ds.numbers, ds.X.tolist()
(('numeric',), (('2.45', '75'),), ((Fraction(49, 20), Fraction(75, 1)),), [[1], [0], [1], [-1]])
>>> ds.numeric_value("temp", "7.7e1")
Fraction(77, 1)
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal
from operator import itemgetter
from fractions import Fraction
from itertools import compress, filterfalse
from operator import methodcaller

import numpy as np

from .errors import DataError, InfotreeError

__all__ = ["Dataset", "from_arrays", "from_records", "load", "read_arff", "read_csv", "read_parquet"]

_ON_MISSING = ("reject", "keep", "value")
_MISSING_TOKENS = ("?", "")
# In-memory None/NaN and ARFF's quoted '?' become these strings so that whole
# columns stay plain str arrays; a leading NUL survives numpy (only trailing NULs are cut).
_NONE, _NAN, _QUOTED_QMARK = "\x00None", "\x00NaN", "\x00'?'"
_SHOWN = {_NONE: None, _NAN: math.nan}
_MISSING_AS_VALUE = {_NONE: "?", _NAN: "?"}  # what None/NaN become under on_missing='value'
_KINDS = ("nominal", "numeric")
_ARFF_NUMERIC = "numeric"  # an ARFF attribute declared numeric, real or integer
_MAX_DIGITS, _MAX_EXPONENT = 40, 400
# A decimal number: sign, integer digits, fraction digits (or only fraction digits), exponent.
_NUMBER = re.compile(r"([+-]?)(?:([0-9]+)(?:\.([0-9]+))?|\.([0-9]+))(?:[eE]([+-]?)([0-9]+))?", re.ASCII)
_NUMBERS_ARE = "a numeric column takes decimal numbers such as 75, -2.45 or 1.5e3"
_RANGE = (f"a number may have at most {_MAX_DIGITS} significant digits and a decimal exponent "
          f"from -{_MAX_EXPONENT} to {_MAX_EXPONENT}")


@dataclass(frozen=True, eq=False)
class Dataset:
    """Data as integer codes: ``X[i, j]`` indexes ``domains[j]``, ``y[i]`` indexes ``classes``.

    ``-1`` in ``X`` marks a missing value (only with ``on_missing='keep'``).  Domains keep
    declared values that never occur.  ``X``, ``y`` and ``lines`` are read-only.

    ``kinds[j]`` is ``"nominal"`` or ``"numeric"``.  For a numeric feature ``numbers[j]``
    holds its distinct values as exact Fractions, strictly ascending, ``X[i, j]`` is the
    rank of the row's value there and ``domains[j][r]`` is the canonical text of
    ``numbers[j][r]``; ``numbers[j]`` is None for a nominal feature.  Both default to
    all nominal.
    """

    features: tuple[str, ...]
    target: str
    domains: tuple[tuple[str, ...], ...]
    classes: tuple[str, ...]
    X: np.ndarray
    y: np.ndarray
    source: str | None = None
    lines: np.ndarray | None = None
    notes: tuple[str, ...] = field(default=())
    kinds: tuple[str, ...] | None = None
    numbers: tuple[tuple[Fraction, ...] | None, ...] | None = None

    def __post_init__(self):
        def set_(name, value):  # frozen: __init__ is over, so go around __setattr__
            object.__setattr__(self, name, value)

        set_("features", tuple(self.features))
        for name in (*self.features, self.target):  # printed raw, it would forge lines of a tree or its rules
            if isinstance(name, str) and ("\n" in name or "\r" in name):
                raise DataError(f"{self.source + ': ' if self.source else ''}column name {_clip(name)!r} holds a "
                                f"line break; a name is one line of text (a tree, its rules and its derivations "
                                f"print it on one line)")
        set_("domains", tuple(tuple(d) for d in self.domains))
        set_("classes", tuple(self.classes))
        set_("notes", tuple(self.notes))
        # Column-major: the builder counts one feature at a time, and uses the codes
        # as they are, without a transposed copy of the data.
        X = _frozen(self.X, np.int32, order="F")
        y = _frozen(self.y, np.int32)
        if X.ndim != 2 or X.shape[1] != len(self.features) or len(self.domains) != len(self.features):
            raise DataError(f"X has shape {X.shape}; expected (n_rows, {len(self.features)}) "
                            f"for {len(self.features)} features with {len(self.domains)} domains")
        if y.shape != (X.shape[0],):
            raise DataError(f"y has shape {y.shape}; expected ({X.shape[0]},), one class per row of X")
        if X.size:
            sizes = np.array([len(d) for d in self.domains])
            bad = np.flatnonzero((X.min(axis=0) < -1) | (X.max(axis=0) >= sizes))
            if bad.size:
                j = int(bad[0])
                raise DataError(f"codes of feature {self.features[j]!r} run from {X[:, j].min()} to "
                                f"{X[:, j].max()}; allowed: -1 to {len(self.domains[j]) - 1}")
        if y.size and (y.min() < 0 or y.max() >= len(self.classes)):
            raise DataError(f"class codes run from {y.min()} to {y.max()}; "
                            f"allowed: 0 to {len(self.classes) - 1}")
        set_("X", X)
        set_("y", y)
        if self.lines is not None:
            set_("lines", _frozen(self.lines, np.int64))
            if self.lines.shape != y.shape:
                raise DataError(f"lines has shape {self.lines.shape}; expected ({len(y)},), one line per row")
        m = len(self.features)
        kinds = ("nominal",) * m if self.kinds is None else tuple(self.kinds)
        numbers = (None,) * m if self.numbers is None else tuple(
            None if v is None else v if type(v) is _Canonical else tuple(v) for v in self.numbers)
        if len(kinds) != m or len(numbers) != m:
            raise DataError(f"kinds has {len(kinds)} entries and numbers {len(numbers)}; "
                            f"expected {m}, one per feature")
        for j, (name, kind, values) in enumerate(zip(self.features, kinds, numbers)):
            if kind not in _KINDS:
                raise DataError(f"kind of feature {name!r} is {kind!r}; expected 'nominal' or 'numeric'")
            if kind == "nominal":
                if values is not None:
                    raise DataError(f"feature {name!r} is nominal but has numbers; expected None")
                continue
            if values is None:
                raise DataError(f"feature {name!r} is numeric but has no numbers")
            if type(values) is _Canonical and len(values) == len(self.domains[j]):
                continue  # made by a reader from these very texts
            if not all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in values):
                raise DataError(f"numbers of feature {name!r} must be exact (int or Fraction)")
            values = tuple(map(Fraction, values))
            if any(a >= b for a, b in zip(values, values[1:])):
                raise DataError(f"numbers of feature {name!r} are not strictly ascending")
            if len(values) != len(self.domains[j]):
                raise DataError(f"feature {name!r} has {_fields(len(values), 'number')} "
                                f"but {_fields(len(self.domains[j]), 'domain value')}; expected one per number")
            texts = tuple(map(_number_text, values))
            if texts != self.domains[j]:
                r = next(r for r, (a, b) in enumerate(zip(texts, self.domains[j])) if a != b)
                raise DataError(f"domain value {self.domains[j][r]!r} of numeric feature {name!r} is not "
                                f"the canonical text {texts[r]!r} of its number")
            numbers = numbers[:j] + (values,) + numbers[j + 1:]
        set_("kinds", kinds)
        set_("numbers", numbers)

    def __repr__(self):
        where = f"{self.source!r}, " if self.source else ""
        return (f"Dataset({where}{_fields(self.n_rows, 'row')}, {_fields(self.n_features, 'feature')}, "
                f"target {self.target!r} with {_fields(len(self.classes), 'class')})")

    @property
    def n_rows(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    def subset(self, rows) -> Dataset:
        """The rows selected by an index array or a boolean mask, with the same domains, classes and numbers."""
        rows = np.asarray(rows)
        if rows.dtype == bool and rows.shape != (self.n_rows,):
            raise DataError(f"boolean mask has shape {rows.shape}; expected ({self.n_rows},)")
        if rows.dtype != bool and rows.size and not np.issubdtype(rows.dtype, np.integer):
            raise DataError(f"rows must be integer indices or a boolean mask, not {rows.dtype} values")
        if rows.dtype != bool:
            rows = rows.astype(np.intp)
        y = self.y[rows]
        return self._derived(self.X[rows], y, lines=None if self.lines is None else _frozen(self.lines[rows], np.int64),
                             notes=_notes(self.target, self.classes, y))

    def sample(self, rows) -> Dataset:
        """The rows (indices; a row drawn twice is two rows) as a data set of their own:
        the same domains and classes, but a numeric column keeps only the values present,
        so that C4.5's thresholds are values of the sample (a forest's trees)."""
        rows = np.asarray(rows, dtype=np.intp)
        X = np.array(self.X[rows], dtype=np.int32)
        numbers, domains = list(self.numbers), list(self.domains)
        for j, kind in enumerate(self.kinds):
            if kind != "numeric":
                continue
            col = X[:, j]
            present = np.flatnonzero(np.bincount(col[col >= 0], minlength=len(self.numbers[j])))
            remap = np.full(len(self.numbers[j]) + 1, -1, dtype=np.int32)
            remap[present] = np.arange(len(present), dtype=np.int32)
            X[:, j] = remap[col]  # -1 indexes the last entry: missing stays -1
            pick = itemgetter(*present.tolist()) if len(present) > 1 else lambda d: tuple(d[c] for c in present.tolist())
            numbers[j], domains[j] = pick(self.numbers[j]), pick(self.domains[j])
        return self._derived(X, self.y[rows], domains=tuple(domains), numbers=tuple(numbers), source=None,
                             lines=None, notes=())

    def _derived(self, X, y, **changes) -> Dataset:
        """This data set with other rows (codes valid under the domains given or kept) and
        other fields, not validated again: every value came from a data set whose
        construction checked it.  A forest derives one per tree, a cross-validation one per
        fold; checking 10^5 exact numbers each time was most of a forest's fit."""
        new = object.__new__(Dataset)
        for f in fields(self):
            object.__setattr__(new, f.name, changes.get(f.name, getattr(self, f.name)))
        object.__setattr__(new, "X", _frozen(X, np.int32, order="F"))
        object.__setattr__(new, "y", _frozen(y, np.int32))
        return new

    def encode_rows(self, rows, *, unseen="error") -> np.ndarray:
        """Codes of new rows under this dataset's domains, shape ``(len(rows), n_features)``.

        ``rows`` are dicts keyed by feature name (a target key is ignored; an absent key
        is missing) or sequences in feature order, or a DataFrame.  Missing values
        (``None``, NaN, ``'?'``, ``''``) that are not in a domain become ``-1``; so do
        unseen values with ``unseen='missing'``, else they raise a DataError.

        A numeric feature's code is the rank of the value in ``numbers[j]`` when it is
        one of the training values (``75.0`` is ``75``); any other number counts as
        unseen here.  A tree needs the number itself: use :meth:`numeric_value`.
        """
        if unseen not in ("error", "missing"):
            raise InfotreeError(f"unseen must be 'error' or 'missing', not {unseen!r}")
        if hasattr(rows, "columns") and hasattr(rows, "to_dict"):
            rows = rows.to_dict(orient="records")
        rows = list(rows)
        m = self.n_features
        if not rows:
            return np.empty((0, m), dtype=np.int32)
        if all(isinstance(r, Mapping) for r in rows):
            known = {*self.features, self.target}
            for i, r in enumerate(rows):
                for k in r:
                    if k not in known:
                        raise DataError(f"row {i} has unknown feature {k!r}; features are: "
                                        f"{', '.join(self.features)}{_did_you_mean(k, self.features)}")
            columns = [_column(r.get(name) for r in rows) for name in self.features]
        else:
            columns = _table_columns(rows)
            if len(columns) != m:
                raise DataError(f"rows have {_fields(len(columns), 'value')}; expected {m}, "
                                f"one per feature: {', '.join(self.features)}")
        missing = dict.fromkeys(_MISSING_TOKENS) | _SHOWN
        X = np.empty((len(rows), m), dtype=np.int32)
        for j, name in enumerate(self.features):
            labels, firsts, inv = _factorize(_strings(columns[j]))
            numeric = self.kinds[j] == "numeric"
            code = ({v: k for k, v in enumerate(self.numbers[j])} if numeric
                    else {v: k for k, v in enumerate(self.domains[j])})
            codes = []
            for label, first in zip(labels, firsts):
                label = _MISSING_AS_VALUE.get(label, label)
                key = label
                if numeric and label not in missing:
                    key = _number_of(columns[j][first], label)
                    if not isinstance(key, Fraction):
                        raise DataError(f"row {first}, feature {name!r}: " + _not_a_number(key, label))
                if key in code:
                    codes.append(code[key])
                elif label in missing or unseen == "missing":
                    codes.append(-1)
                elif numeric:
                    raise DataError(f"row {first}, feature {name!r}: {label} is not one of the "
                                    f"{_fields(len(code), 'training value')} of this numeric feature "
                                    f"(use numeric_value({j}, value) for the number, or unseen='missing' for -1)")
                else:
                    raise DataError(f"row {first}, feature {name!r}: unseen value {label!r}; "
                                    f"allowed: {_listing(self.domains[j])} (or unseen='missing' for -1)")
            X[:, j] = np.asarray(codes, dtype=np.int32)[inv]
        return X

    def numeric_value(self, j, value) -> Fraction | None:
        """The exact number of a new cell of numeric feature ``j`` (index or name), None if missing.

        ``value`` is decimal text (``'2.45'``, ``' 7.5e1 '``) or a number: int, finite
        float (read from its shortest text, so ``0.1`` is ``1/10``), Decimal or
        Fraction.  ``None``, NaN, ``'?'`` and ``''`` are missing.  A number need not
        occur in the training data.  Anything else raises a one-line DataError.
        """
        j = self._feature_index(j)
        name = self.features[j]
        if self.kinds[j] != "numeric":
            raise DataError(f"feature {name!r} is nominal; numeric_value is for numeric features "
                            f"({', '.join(f for f, k in zip(self.features, self.kinds) if k == 'numeric') or 'none here'})")
        try:
            return exact_number(value)
        except DataError as e:
            raise DataError(f"feature {name!r}: {e}") from None

    def column_values(self, j) -> list[Fraction | None]:
        """The exact value of every row of numeric feature ``j`` (index or name); None where missing."""
        j = self._feature_index(j)
        if self.kinds[j] != "numeric":
            raise DataError(f"feature {self.features[j]!r} is nominal; column_values is for numeric features")
        table = (*self.numbers[j], None)  # code -1 picks the None at the end
        return [table[c] for c in self.X[:, j].tolist()]

    def _feature_index(self, j) -> int:
        if isinstance(j, str):
            if j not in self.features:
                raise DataError(f"unknown feature {j!r}; features are: {', '.join(self.features)}"
                                f"{_did_you_mean(j, self.features)}")
            return self.features.index(j)
        if isinstance(j, (int, np.integer)) and not isinstance(j, bool) and -self.n_features <= j < self.n_features:
            return int(j) % self.n_features
        raise DataError(f"feature {j!r} is neither a feature name nor an index from 0 to {self.n_features - 1}")


def read_csv(path, *, target=None, missing=_MISSING_TOKENS, on_missing="reject", delimiter=",",
             numeric=None, categorical=(), columns=None, drop=(), numeric_target=False) -> Dataset:
    """Read a CSV file with a header line; the target is the last column unless named.

    Fields are parsed as by the csv module (quotes, embedded delimiters and newlines),
    then stripped.  Blank lines are skipped.  ``missing`` lists the tokens that mean missing.
    ``numeric`` (None, ``"auto"`` or names) and ``categorical`` (names) choose the
    numeric columns; by default all columns are nominal (see the module docstring).
    ``columns`` (names) keeps only those columns, ``drop`` (names) leaves some out,
    before any cell is read: a dropped column's values are never checked.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    use = columns  # the option; "columns" below are the file's
    if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\r\n\"":
        raise InfotreeError(f"delimiter must be one character other than a quote or newline, not {delimiter!r}")
    missing = (missing,) if isinstance(missing, str) else tuple(missing)
    source = os.fspath(path)
    text = _read_text(source)
    # The csv module is needed only for quotes; str.split reads plain text several times faster.
    quoted = '"' in text
    header, header_line, body, lines = (_split_quoted if quoted else _plain_rows)(text, delimiter, source)
    if header is None:
        raise DataError(f"{source} is empty; expected a header line naming the columns, then data rows")
    _check_names(header, f"{source} line {header_line}")
    if len(header) < 2:
        hint = next((f" (is it delimited by {d!r}? use delimiter={d!r})" for d in ";\t|"
                     if d != delimiter and d in header[0]), "")
        raise DataError(f"{source} has 1 column {_clip(header[0])!r}; need the target and at least one feature{hint}")
    if not len(lines):
        raise DataError(f"{source} has a header but no data rows")
    width = len(header)
    lines = np.asarray(lines, dtype=np.int64)
    columns = ([_raw_codes(body[j::width]) for j in range(width)] if quoted
               else _plain_codes(body, delimiter, width))
    return _assemble(header, columns, target=target, on_missing=on_missing, use=use, drop=drop,
                     numeric_target=numeric_target,
                     missing={t.strip(): t.strip() for t in missing}, numeric=numeric, categorical=categorical,
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def _split_plain(text, delimiter, source):
    """Header, its line, the data cells row after row, and each row's line, for text without quotes."""
    header, header_line, rows, numbers = _plain_rows(text, delimiter, source)
    cells = delimiter.join(rows).split(delimiter) if rows else []
    return header, header_line, cells, numbers


def _plain_rows(text, delimiter, source):
    """As :func:`_split_plain`, with the data rows as whole lines (each with the header's width)."""
    # map() with C methods and numpy keep this free of Python code per line.
    all_lines = _lines(text)
    n = len(all_lines)
    counts = np.fromiter(map(methodcaller("count", delimiter), all_lines), dtype=np.int64, count=n)
    filled = np.fromiter(map(len, map(str.strip, all_lines)), dtype=np.int64, count=n)
    keep = (counts > 0) | (filled > 0)  # a blank line has no delimiter and only whitespace
    numbers = np.flatnonzero(keep) + 1
    if not numbers.size:
        return None, None, [], []
    header = [name.strip() for name in all_lines[numbers[0] - 1].split(delimiter)]
    ragged = np.flatnonzero(counts[numbers[1:] - 1] != len(header) - 1)
    if ragged.size:
        line = numbers[1 + ragged[0]]
        raise DataError(f"{source} line {line} has {_fields(counts[line - 1] + 1)}, header has {len(header)}")
    rows = list(compress(all_lines, keep))[1:]
    return header, int(numbers[0]), rows, numbers[1:]


def _plain_codes(rows, delimiter, width):
    """Raw ``(labels, codes)`` of each column of ``rows`` (lines of ``width`` fields), as :func:`_raw_codes`.

    Vectorised: the text becomes bytes, each field of up to 8 bytes is read as one
    little-endian uint64 (the bytes after it masked off; no NUL can occur, so this is
    one-to-one), and each column is coded by numpy from its sorted distinct keys: no
    Python object per cell.  Columns with longer fields go to :func:`_split_codes`.
    """
    n = len(rows)
    if not n or len(delimiter.encode()) != 1:
        return _split_codes(rows, delimiter, width, range(width))
    data = "\n".join(rows).encode("utf-8")
    buf = np.frombuffer(data, dtype=np.uint8)
    index_type = np.int32 if len(data) < 2 ** 31 - 1 else np.int64
    starts = np.empty(n * width, dtype=index_type)  # every row has width fields: checked by the caller
    starts[0], filled, step = 0, 1, 1 << 20
    for low in range(0, len(buf), step):  # a slice at a time: no int64 index of every field at once
        part = buf[low:low + step]
        after = np.flatnonzero((part == ord(delimiter)) | (part == 10)) + (low + 1)
        starts[filled:filled + len(after)] = after
        filled += len(after)
    lengths = np.empty_like(starts)
    lengths[:-1] = np.diff(starts) - 1
    lengths[-1] = len(buf) - starts[-1]
    # Column after column below: each column's starts and lengths contiguous.
    starts = np.ascontiguousarray(starts.reshape(n, width).T)
    lengths = np.ascontiguousarray(lengths.reshape(n, width).T)
    widest = lengths.max(axis=1)
    short = np.flatnonzero(widest <= 8).tolist()
    out = {}
    if len(short) < width:
        long = [j for j in range(width) if widest[j] > 8]
        out.update(zip(long, _split_codes(rows, delimiter, width, long)))
    # word[i] is the 8 bytes from byte i on, little-endian: a strided view, no copy per cell
    padded = data + bytes(8)
    words = np.ndarray(shape=(len(data) + 1,), dtype="<u8", buffer=padded, strides=(1,))
    masks = np.array([(1 << 8 * k) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
    byte = np.frombuffer(padded, dtype=np.uint8)
    rowids = np.arange(n)
    for j in short:
        if widest[j] <= 1:
            # Fields of one byte (x, o, b; y, n): the byte is the key, counted, not sorted.
            key = byte[starts[j]]
            if widest[j] == 0 or not lengths[j].all():
                key = np.where(lengths[j] > 0, key, 0).astype(np.uint8)
            distinct = np.flatnonzero(np.bincount(key, minlength=256))
            lut = np.zeros(256, dtype=np.intp)
            lut[distinct] = np.arange(len(distinct))
            index = lut[key]
        else:
            key = words[starts[j]] & masks[lengths[j]]
            ordered = np.sort(key)
            distinct = ordered[np.flatnonzero(np.diff(ordered, prepend=ordered[0] ^ np.uint64(1)))]
            index = np.searchsorted(distinct, key)
        first = np.full(len(distinct), n)
        np.minimum.at(first, index, rowids)
        order = np.argsort(first, kind="stable")  # distinct keys in order of first appearance
        remap = np.empty(len(distinct), dtype=np.int32)
        remap[order] = np.arange(len(distinct), dtype=np.int32)
        labels = [int(v).to_bytes(8, "little").rstrip(b"\0").decode("utf-8") for v in distinct[order].tolist()]
        out[j] = (labels, remap[index])
    return [out[j] for j in range(width)]


def _split_codes(rows, delimiter, width, columns, chunk=2048):
    """Raw ``(labels, codes)`` of the given columns of ``rows``, by str.split a chunk of rows at a time.

    Only a chunk of cells exists as str objects at once; each column's cells are coded by
    C-level dict lookups.
    """
    n = len(rows)
    columns = list(columns)
    codes = np.empty((len(columns), n), dtype=np.int32)  # one contiguous row per column
    maps = [{} for _ in columns]
    for start in range(0, n, chunk):
        cells = delimiter.join(rows[start:start + chunk]).split(delimiter)
        stop = start + len(cells) // width
        for c, (j, code) in enumerate(zip(columns, maps)):
            col = cells[j::width]
            for new in filterfalse(code.__contains__, dict.fromkeys(col)):
                code[new] = len(code)
            codes[c, start:stop] = np.fromiter(map(code.__getitem__, col), dtype=np.int32, count=stop - start)
    return [(list(code), codes[c]) for c, code in enumerate(maps)]


def _split_quoted(text, delimiter, source):
    """As :func:`_split_plain`, for text with quotes, by the csv module."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header, header_line, cells, lines, line = None, None, [], [], 0
    try:
        for row in reader:
            start, line = line + 1, reader.line_num
            if len(row) <= 1 and not "".join(row).strip():
                continue  # a blank line
            if header is None:
                header, header_line = [name.strip() for name in row], start
            elif len(row) != len(header):
                # a quote left open swallows the lines after it into one field
                hint = (f" (a quoted field runs on to line {line}; is a closing quote missing?)"
                        if line > start else "")
                raise DataError(f"{source} line {start} has {_fields(len(row))}, header has {len(header)}{hint}")
            else:
                cells.extend(row)
                lines.append(start)
    except csv.Error as e:
        raise DataError(f"{source} line {reader.line_num}: cannot read CSV ({e})") from None
    return header, header_line, cells, lines


def read_arff(path, *, target=None, on_missing="reject", numeric=None, categorical=(), columns=None,
              drop=(), numeric_target=False) -> Dataset:
    """Read an ARFF file of nominal and numeric attributes; the target is the last attribute unless named.

    Declared value order is kept, including values that never occur.  Attributes
    declared ``numeric``, ``real`` or ``integer`` are numeric unless ``categorical``
    names them (then their values are categories in order of first appearance);
    ``numeric`` may name more columns (``"auto"`` changes nothing here).  An unquoted
    ``?`` is missing; a quoted ``'?'`` is the value ``?``.  String, date and relational
    attributes and sparse rows are refused.  ``columns`` and ``drop`` as for :func:`read_csv`.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    use = columns  # the option; "columns" below are the file's
    source = os.fspath(path)
    all_lines = _lines(_read_text(source))
    names, declared, declared_on, data_at = [], [], {}, None
    for number, raw in enumerate(all_lines, 1):
        s = raw.strip()
        if not s or s.startswith("%"):
            continue
        keyword = re.match(r"@?\w*", s).group().lower()
        if keyword == "@relation":
            continue
        if keyword == "@attribute":
            name, values = _arff_attribute(s[len(keyword):], source, number)
            if name in declared_on:
                raise DataError(f"{source} line {number}: attribute {name!r} is declared again "
                                f"(first on line {declared_on[name]}); names must be unique")
            declared_on[name] = number
            names.append(name)
            declared.append(values)
        elif keyword == "@data":
            data_at = number
            break
        else:
            raise DataError(f"{source} line {number}: expected @relation, @attribute or @data, "
                            f"found {_clip(s)!r}")
    if data_at is None:
        raise DataError(f"{source} has no @data line; expected @attribute declarations, then @data and rows")
    if len(names) < 2:
        raise DataError(f"{source} declares {_fields(len(names), 'attribute')}; "
                        f"need the target and at least one feature")
    width = len(names)
    body = all_lines[data_at:]
    if any(map("\n".join(body).__contains__, "'\"%{")):
        columns, lines = _arff_rows(body, data_at, width, source)
    else:  # plain rows: split in bulk, as plain CSV
        n = len(body)
        counts = np.fromiter(map(methodcaller("count", ","), body), dtype=np.int64, count=n)
        keep = np.fromiter(map(len, map(str.strip, body)), dtype=np.int64, count=n) > 0
        lines = np.flatnonzero(keep) + data_at + 1
        ragged = np.flatnonzero(counts[lines - data_at - 1] != width - 1)
        if ragged.size:
            line = lines[ragged[0]]
            raise DataError(f"{source} line {line} has {_fields(counts[line - data_at - 1] + 1, 'value')}, "
                            f"{width} attributes are declared")
        columns = _plain_codes(list(compress(body, keep)), ",", width) if lines.size else None
    if not len(lines):
        raise DataError(f"{source} has no data rows after @data (line {data_at})")
    lines = np.asarray(lines, dtype=np.int64)
    return _assemble(names, columns, target=target, on_missing=on_missing, use=use, drop=drop,
                     missing={"?": "?"}, aliases={_QUOTED_QMARK: "?"}, declared=declared,
                     declared_on=[declared_on[name] for name in names], numeric_target=numeric_target,
                     numeric=None if numeric == "auto" else numeric, categorical=categorical,
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def arff_numeric_names(path) -> tuple[str, ...]:
    """The attributes an ARFF file declares numeric, read from its header lines only."""
    source = os.fspath(path)
    out = []
    try:
        with open(source, encoding="utf-8-sig", errors="replace") as f:
            for number, raw in enumerate(f, 1):
                s = raw.strip()
                keyword = re.match(r"@?\w*", s).group().lower()
                if keyword == "@data":
                    break
                if keyword == "@attribute":
                    name, values = _arff_attribute(s[len(keyword):], source, number)
                    if values == _ARFF_NUMERIC:
                        out.append(name)
    except OSError as e:
        raise DataError(f"cannot read {source!r}: {e.strerror or e}") from None
    return tuple(out)


def _arff_rows(body, data_at, width, source):
    """Raw columns and line numbers of ARFF data lines with quotes, comments or braces, line by line."""
    cells, lines = [], []
    for number in range(data_at + 1, data_at + len(body) + 1):
        s = body[number - data_at - 1].strip()
        if not s or s.startswith("%"):
            continue
        if "'" in s or '"' in s or "%" in s or "{" in s:
            values = [_QUOTED_QMARK if quoted and v == "?" else v
                      for v, quoted in _arff_values(s, source, number, data=True)]
        else:
            values = s.split(",")  # values are stripped when encoded
        if len(values) != width:
            raise DataError(f"{source} line {number} has {_fields(len(values), 'value')}, "
                            f"{width} attributes are declared")
        cells.extend(values)
        lines.append(number)
    return [_raw_codes(cells[j::width]) for j in range(width)], lines


def load(path, *, target=None, on_missing="reject", numeric=None, categorical=(), columns=None,
         drop=(), numeric_target=False) -> Dataset:
    """Read ``.arff`` with :func:`read_arff`, ``.parquet``/``.pq`` with :func:`read_parquet`,
    ``.tsv`` as tab-delimited, anything else as CSV.  ``numeric_target``: the target is a
    number (a regression tree): an ARFF class declared numeric is then accepted; its values
    are kept as text, and the tree reads them exactly."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    opts = dict(target=target, on_missing=on_missing, numeric=numeric, categorical=categorical, columns=columns,
                drop=drop)
    opts["numeric_target"] = numeric_target
    if suffix == ".arff":
        return read_arff(path, **opts)
    if suffix in (".parquet", ".pq"):
        return read_parquet(path, **opts)
    return read_csv(path, delimiter="\t" if suffix == ".tsv" else ",", **opts)


def read_parquet(path, *, target=None, on_missing="reject", numeric=None, categorical=(), columns=None,
                 drop=(), numeric_target=False) -> Dataset:
    """Read a Parquet file through pyarrow (``pip install 'infotree[parquet]'``); the target is the
    last column unless named.

    Cells become what :func:`from_records` reads: strings, numbers (ints, floats from their
    shortest text, decimals exactly), bools (``True``/``False``); a null is missing.
    Errors name the file and the 0-based row.  ``columns`` and ``drop`` as for
    :func:`read_csv` (a dropped column is not even read).
    """
    source = os.fspath(path)
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InfotreeError(f"{source}: reading Parquet needs pyarrow: pip install 'infotree[parquet]'") from None
    if not os.path.isfile(source):
        raise DataError(f"no such file {source!r}{_nearby_file(source)}")
    try:
        schema = pq.read_schema(source)
    except Exception as e:  # pyarrow's own errors (ArrowInvalid, OSError) for a file that is not Parquet
        raise DataError(f"{source} is not a Parquet file pyarrow can read: {str(e).splitlines()[0]}") from None
    names = [str(name).strip() for name in schema.names]
    _check_names(names, source)  # pyarrow cannot select a duplicated name
    stored = dict(zip(names, schema.names))
    index = _pandas_index(schema, names, columns, target)
    if index:  # pandas' row labels (to_parquet of a frame with an index): not data, as pandas reads them
        names = [name for name in names if name not in index]
    keep = [names[j] for j in _kept(names, columns, drop, source, target)]
    table = pq.read_table(source, columns=[stored[name] for name in keep])
    return from_records({name: table.column(j).to_pylist() for j, name in enumerate(keep)}, target=target,
                        on_missing=on_missing, source=source, numeric=numeric, categorical=categorical,
                        numeric_target=numeric_target)


def _pandas_index(schema, names, columns, target) -> set:
    """The columns that hold a pandas index (``df.set_index('id').to_parquet()`` stores it as the
    last column), unless ``columns=`` or ``target=`` names them."""
    try:
        meta = json.loads((schema.metadata or {}).get(b"pandas", b"{}"))
        index = {str(c).strip() for c in meta.get("index_columns", ()) if isinstance(c, str)}
    except (ValueError, TypeError, AttributeError):
        return set()  # not pandas' metadata: every column is data
    named = {str(c).strip() for c in (columns or ())} | ({target.strip()} if isinstance(target, str) else set())
    return (index & set(names)) - named


def from_records(data, *, target=None, feature_names=None, on_missing="reject",
                 missing=_MISSING_TOKENS, source=None, numeric=None, categorical=(), columns=None,
                 drop=(), numeric_target=False) -> Dataset:
    """A Dataset from a DataFrame, a list of dicts, a dict of columns, or a 2-D table.

    A 2-D table (list of lists, array) needs ``feature_names`` naming ALL its columns,
    target included.  Dict rows take their columns from the first dict; an absent key is
    missing.  ``None`` and NaN are missing, as are the ``missing`` tokens.  Errors name
    rows by 0-based index.  ``numeric``/``categorical`` as for :func:`read_csv`; with
    ``numeric="auto"`` a column of ints, finite floats, Decimals, Fractions or numeric
    text is numeric (a float is read from its shortest text: ``0.1`` is ``1/10``).
    A pandas or polars DataFrame is read column by column.  ``columns`` and ``drop``
    as for :func:`read_csv`.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    use = columns  # the option; "columns" below are the table's
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):  # a DataFrame, without importing pandas
        _no_names(feature_names, "the DataFrame")
        names = [str(c).strip() for c in data.columns]
        if hasattr(data, "get_column"):  # polars: to_numpy takes no dtype; its columns give Python values
            columns = [_column(data.get_column(c).to_list()) for c in data.columns]
        else:
            cells = np.asarray(data.to_numpy(dtype=object), dtype=object).reshape(len(data), len(names))
            columns = list(cells.T)
    elif isinstance(data, Mapping):
        _no_names(feature_names, "the dict's keys")
        names = [str(k).strip() for k in data]
        for name, v in zip(names, data.values()):
            if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
                raise DataError(f"column {name!r} is {_clip(v)!r}, not a sequence of values")
        columns = [v if isinstance(v, np.ndarray) and v.ndim == 1 else _column(v) for v in data.values()]
        for name, col in zip(names, columns):
            if len(col) != len(columns[0]):
                raise DataError(f"column {name!r} has {_fields(len(col), 'value')}, "
                                f"column {names[0]!r} has {len(columns[0])}")
    else:
        rows = data if isinstance(data, np.ndarray) else list(data)
        if len(rows) and all(isinstance(r, Mapping) for r in rows):
            _no_names(feature_names, "the dicts' keys")
            names = [str(k).strip() for k in rows[0]]
            for i, r in enumerate(rows):
                for k in r:
                    if k not in rows[0]:
                        raise DataError(f"row {i} has column {k!r}, which row 0 lacks; columns are: "
                                        f"{', '.join(names)}{_did_you_mean(k, names)}")
            columns = [_column(r.get(k) for r in rows) for k in rows[0]]
        else:
            if feature_names is None:
                raise DataError("a 2-D table needs feature_names naming all its columns, target included")
            names = [str(n).strip() for n in feature_names]
            columns = _table_columns(rows, width=len(names))
    return _from_columns(names, columns, target=target, on_missing=on_missing, missing=missing, source=source,
                         numeric=numeric, categorical=categorical, use=use, drop=drop, numeric_target=numeric_target)


def from_arrays(X, y, *, feature_names=None, target="class", on_missing="reject",
                missing=_MISSING_TOKENS, numeric=None, categorical=()) -> Dataset:
    """A Dataset from a 2-D feature table ``X`` and class labels ``y``; features default to ``x0, x1, ...``.

    ``numeric``/``categorical`` as for :func:`from_records`.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    if hasattr(X, "columns") and hasattr(X, "to_numpy"):  # a DataFrame names its columns
        feature_names = [str(c) for c in X.columns] if feature_names is None else feature_names
        X = X.to_numpy(dtype=object)
    columns = _table_columns(X, width=None if feature_names is None else len(feature_names), what="X row")
    try:
        labels = np.asarray(y, dtype=None if isinstance(y, np.ndarray) else object)
    except ValueError:  # ragged nested lists
        labels = np.empty((0, 0))
    if labels.ndim != 1:
        raise DataError(f"y has shape {labels.shape}; expected one class label per row of X")
    n = len(columns[0]) if columns else len(X)
    if len(labels) != n:
        raise DataError(f"X has {_fields(n, 'row')} but y has {_fields(len(labels), 'label')}")
    if feature_names is None:
        feature_names = [f"x{j}" for j in range(len(columns))]
    names = [str(n).strip() for n in feature_names]
    if target in names:
        raise DataError(f"target name {target!r} is also a feature name; pass another target=")
    return _from_columns([*names, target], [*columns, labels], target=target, on_missing=on_missing,
                         missing=missing, source=None, numeric=numeric, categorical=categorical)


def _from_columns(names, columns, *, target, on_missing, missing, source, numeric, categorical, use=None, drop=(),
                  numeric_target=False):
    """A Dataset from named in-memory columns (1-D arrays of any dtype)."""
    table = source or "the table"
    _check_names(names, source)
    if use is not None or drop:
        keep = _kept(names, use, drop, source, target)
        names, columns = [names[j] for j in keep], [columns[j] for j in keep]
    if len(names) < 2:
        raise DataError(f"{table} has {_fields(len(names), 'column')}; need the target and at least one feature")
    if not columns or len(columns[0]) == 0:
        raise DataError(f"{table} has no rows")
    missing = {t.strip(): t.strip() for t in ((missing,) if isinstance(missing, str) else missing)}
    prefix = f"{source} " if source else ""
    # A finite float column is factorized only if it is read as nominal (see _assemble)
    raw = [None if _finite_floats(col) else _distinct_codes(col) or _raw_codes(_strings(col)) for col in columns]
    return _assemble(names, raw, target=target, on_missing=on_missing, numeric_target=numeric_target,
                     missing=missing | _SHOWN, aliases=_MISSING_AS_VALUE, numeric=numeric, categorical=categorical,
                     objects=columns, where=lambda i: f"{prefix}row {i}", source=source, lines=None)


# ---- encoding --------------------------------------------------------------

def _assemble(names, columns, *, target, on_missing, missing, aliases=None, declared=None, declared_on=None,
              numeric_target=False, numeric=None, categorical=(), objects=None, where, source, lines, use=None, drop=()) -> Dataset:
    """Encode raw columns (``(labels, codes)`` pairs of :func:`_raw_codes`) into a Dataset.
    A column given as None is a finite float64 array in ``objects``, factorized here.

    Raise the first problem in row order.  ``missing`` maps each missing label to the
    value shown in messages; ``aliases`` renames sentinel labels (also missing ones under
    ``on_missing='value'``).  ``declared`` holds each ARFF attribute's values, or
    ``_ARFF_NUMERIC``, with its line in ``declared_on``; ``objects`` the in-memory cells.
    ``use``/``drop``: the columns to keep / leave out (a file's ``columns=``/``drop=``).
    """
    aliases = aliases or {}
    if use is not None or drop:
        keep = _kept(names, use, drop, source, target)
        names, columns = [names[j] for j in keep], [columns[j] for j in keep]
        if declared is not None:
            declared, declared_on = [declared[j] for j in keep], [declared_on[j] for j in keep]
        if len(names) < 2:
            raise DataError(f"{source or 'the table'} keeps {_fields(len(names), 'column')} after columns=/drop=; "
                            f"need the target and at least one feature")
    if target is None:
        t = len(names) - 1
    else:
        t = names.index(target.strip()) if isinstance(target, str) and target.strip() in names else None
        if t is None:
            where_ = f" in {source}" if source else ""
            raise DataError(f"unknown column {target!r}{where_}; columns are: {', '.join(names)}"
                            f"{_did_you_mean(target, names)}")
    auto, wanted, nominal = _kind_names(names, t, numeric, categorical, source)
    if declared is not None and declared[t] == _ARFF_NUMERIC and t not in nominal and not numeric_target:
        raise DataError(f"{source} line {declared_on[t]}: the class attribute {names[t]!r} is numeric; "
                        f"a decision tree needs a nominal class, as J48 does (choose another target=, "
                        f"or categorical=[{names[t]!r}] to read its values as classes)")
    order = [j for j in range(len(names)) if j != t] + [t]
    n = len(objects[0]) if columns[0] is None else len(columns[0][1])
    X = np.empty((n, len(names) - 1), dtype=np.int32)
    domains, kinds, numbers, problems = [], [], [], []
    for k, j in enumerate(order):
        is_target = j == t
        if columns[j] is None:
            read = not is_target and j not in nominal and (auto or j in wanted) and _float_numbers(objects[j], missing)
            if read:
                X[:, k], domain, number = read
                domains.append(domain)
                kinds.append("numeric")
                numbers.append(number)
                continue
            columns[j] = _distinct_codes(objects[j])
        labels, firsts, inv = _finish_factorize(*columns[j])
        declared_j = None if declared is None else declared[j]
        if declared_j == _ARFF_NUMERIC:
            declared_j = None
        kind = "nominal"
        values = None
        if not is_target and j not in nominal:
            strict = j in wanted or (declared is not None and declared[j] == _ARFF_NUMERIC)
            if strict or auto:
                cells = None if objects is None else objects[j]
                values = _numbers_of(labels, firsts, cells, missing, aliases,
                                     value_missing=on_missing == "value", strict=strict)
                kind = "numeric" if values is not None else "nominal"
        if kind == "numeric":
            col, domain, number, problem = _encode_numeric(
                labels, firsts, inv, values, aliases=aliases, keep_missing=on_missing == "keep",
                value_missing=on_missing == "value")
        else:
            col, domain, problem = _encode_column(
                labels, firsts, inv, missing=missing, aliases=aliases, declared=declared_j,
                keep_missing=on_missing == "keep" and not is_target, value_missing=on_missing == "value")
            number = None
        if is_target:
            y, classes = col, domain
        else:
            X[:, k] = col
            domains.append(domain)
            kinds.append(kind)
            numbers.append(number)
        if problem:
            problems.append((problem[0], j, problem[1], problem[2], kind))
    if problems:
        row, j, what, shown, kind = min(problems, key=lambda p: p[:2])
        at = f"{where(row)}, column {names[j]!r}"
        if what == "undeclared":
            raise DataError(f"{at}: value {shown!r} is not declared; allowed: {_listing(declared[j])}")
        if what == "line break":
            raise DataError(f"{at}: value {_clip(shown)!r} holds a line break; a value is one line of text "
                            f"(a tree, its rules and its derivations print it on one line)")
        if what == "nan":
            raise DataError(f"{at}: value {_clip(shown)!r} is not a number; {_NUMBERS_ARE} "
                            f"(or categorical=[{names[j]!r}] to read its values as categories)")
        if what == "range":
            raise DataError(f"{at}: value {_clip(shown)!r} is out of range; {_RANGE}")
        if what == "missing as value":
            raise DataError(f"{at}: missing value {shown!r} in a numeric column; on_missing='value' cannot make "
                            f"it a number (use on_missing='keep', or categorical=[{names[j]!r}] to read the "
                            f"column as categories)")
        if j == t and numeric_target:
            raise DataError(f"{at}: missing target value {shown!r}; a regression target needs a number in every "
                            f"row (leave the row out)")
        if j == t:
            raise DataError(f"{at}: missing class {shown!r}; every row needs a class, even with on_missing='keep'")
        allowed = "on_missing='keep'" if kind == "numeric" else "on_missing='keep' or on_missing='value'"
        raise DataError(f"{at}: missing value {shown!r}; missing values are refused by default (allowed: {allowed})")
    X.flags.writeable = False  # ours alone: the Dataset takes it without a copy
    return Dataset(tuple(names[j] for j in order[:-1]), names[t], tuple(domains), classes, X, y,
                   source=source, lines=lines, notes=_notes(names[t], classes, y),
                   kinds=tuple(kinds), numbers=tuple(numbers))


def _kept(names, use, drop, source, target=None) -> list[int]:
    """Indices, in the data's order, of the columns ``use`` keeps (all when None) less those ``drop`` names.

    The target (``target``, else the last column) must be kept: leaving it out would
    silently make another column the target.
    """
    where_ = f" in {source}" if source else ""
    for option, given in (("columns", use or ()), ("drop", drop)):
        if isinstance(given, str):
            raise InfotreeError(f"{option}= takes a list of column names, not the string {given!r}")
        for name in given:
            if str(name).strip() not in names:
                raise DataError(f"{option}= names unknown column {name!r}{where_}; columns are: "
                                f"{', '.join(names)}{_did_you_mean(str(name), names)}")
    wanted = set(names) if use is None else {str(n).strip() for n in use}
    dropped = {str(n).strip() for n in drop}
    named = isinstance(target, str) and target.strip() in names
    goal = target.strip() if named else names[-1] if target is None and names else None
    if goal is not None and (goal not in wanted or goal in dropped):
        option = "drop=" if goal in dropped else "columns="
        if named:
            raise DataError(f"target= {goal!r} is left out by {option}{where_}; a tree needs its target column "
                            f"(keep it, or choose another target=)")
        raise DataError(f"{option} leaves out {goal!r}{where_}, the last column and so the target by default; "
                        f"keep it, or choose the target with target=")
    return [j for j, name in enumerate(names) if name in wanted and name not in dropped]


def _kind_names(names, t, numeric, categorical, source):
    """``(auto, numeric columns, nominal columns)`` as index sets, refusing unknown or conflicting names."""
    where_ = f" in {source}" if source else ""

    def indices(option, given):
        out = set()
        for name in given:
            name = name.strip()
            if name not in names:
                raise DataError(f"{option}= names unknown column {name!r}{where_}; columns are: "
                                f"{', '.join(names)}{_did_you_mean(name, names)}")
            out.add(names.index(name))
        return out

    auto = numeric == "auto"
    if numeric == "all" and categorical == "all":
        raise DataError("numeric='all' and categorical='all' cannot both hold; name the columns of one of them")
    wanted = indices("numeric", () if numeric is None or auto or numeric == "all" else numeric)
    nominal = indices("categorical", () if categorical == "all" else categorical)
    every = set(range(len(names))) - {t}
    if numeric == "all":  # every feature, except those named categorical
        wanted = every - nominal
    if categorical == "all":  # every feature, except those named numeric
        nominal = every - wanted
    both = wanted & nominal
    if both:
        raise DataError(f"column {names[min(both)]!r} is in both numeric= and categorical=; name it in one of them")
    if t in wanted:
        raise DataError(f"column {names[t]!r} is the target, and the target is always nominal; "
                        f"take it out of numeric=")
    return auto, wanted, nominal


def _check_kind_options(numeric, categorical):
    if isinstance(numeric, str) and numeric not in ("auto", "all") or not (
            numeric is None or isinstance(numeric, str) or _names(numeric)):
        raise InfotreeError(f"numeric must be None, 'auto', 'all' or a list of column names, not {_clip(numeric)!r}")
    if categorical != "all" and not _names(categorical):
        raise InfotreeError(f"categorical must be 'all' or a list of column names, not {_clip(categorical)!r}")


def _names(option):
    return (not isinstance(option, (str, bytes)) and hasattr(option, "__iter__")
            and all(isinstance(name, str) for name in option))


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
    try:
        known.sort(key=lambda i: (float(values[i]), values[i]))
    except OverflowError:
        known.sort(key=values.__getitem__)
    lookup = np.full(len(values), -1, dtype=np.int32)
    distinct, texts = [], []
    for i in known:
        v = values[i]
        if not distinct or v != distinct[-1]:
            distinct.append(v)
            texts.append(_number_text(v))
        lookup[i] = len(distinct) - 1
    return lookup[inv], tuple(texts), _Canonical(distinct), problem


class _Canonical(tuple):
    """A numeric feature's numbers as the readers make them: exact, ascending, each once, and
    its domain their canonical texts; a Dataset takes them without checking them again."""


def _sorted_exact(values) -> list:
    """Fractions in ascending order, sorted by their floats first (a comparison of floats
    costs a twentieth of one of Fractions): float() rounds correctly, so it never inverts
    two values, and values it makes equal are compared exactly (the tuples' second item)."""
    try:
        pairs = sorted((float(v), v) for v in values)  # equal floats: then by the exact value
    except OverflowError:
        return sorted(values)
    return [v for _, v in pairs]


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


def _raw_codes(values):
    """The distinct values of a list of str in order of first appearance, and each cell's index there."""
    # dict.fromkeys and map(dict.__getitem__) run in C: no Python code per cell.
    raw = {v: k for k, v in enumerate(dict.fromkeys(values))}
    return list(raw), np.fromiter(map(raw.__getitem__, values), dtype=np.intp, count=len(values))


def _distinct_codes(col):
    """:func:`_raw_codes` of ``_strings(col)`` for a column of float64 or of str (numpy's
    ``U``), made from its distinct values (a 10^5-row column has far fewer); None (the
    general path) for other columns and with a NaN.  Floats are told apart by their bits,
    as their texts are (−0.0 is not 0.0)."""
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
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first)                    # the distinct values in order of first appearance
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    return col[first[order]].astype(str).tolist(), rank[inv.reshape(-1)]


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
    texts = distinct.astype(str).tolist()
    if not missing.keys().isdisjoint(texts):
        return None
    numbers, domain = [], []
    for text in texts:
        whole, point, frac = text.partition(".")
        if not point or "e" in frac:  # such as 1e+16 or 1.5e-07
            q = _parse_decimal(text)
            text = _number_text(q)
        else:  # [-]digits.digits: its digits over a power of ten; the shortest text is canonical but for ".0"
            q = Fraction(int(whole + frac), 10 ** len(frac))
            if frac == "0":
                text = whole if q else "0"
        numbers.append(q)
        domain.append(text)
    return codes.reshape(-1), tuple(domain), tuple(numbers)


def _finish_factorize(raw, inv):
    """As :func:`_factorize`, from :func:`_raw_codes`: strip the distinct values, merging equal ones."""
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


# ---- numbers ---------------------------------------------------------------

def _parse_decimal(text):
    """The exact Fraction of decimal text, else ``'nan'`` (not a number) or ``'range'`` (beyond the bounds).

    Built from the digits, never through a float or an unbounded power of ten.
    """
    m = _NUMBER.fullmatch(text)
    if m is None:
        return "nan"
    sign, whole, frac, only_frac, exp_sign, exp_digits = m.groups()
    if only_frac is not None:
        whole, frac = "", only_frac
    frac = frac or ""
    digits = (whole + frac).lstrip("0")
    significant = digits.rstrip("0")
    exp_digits = (exp_digits or "0").lstrip("0") or "0"
    if len(significant) > _MAX_DIGITS or len(exp_digits) > 4:
        return "range"
    if not significant:
        return Fraction(0)
    power = (-int(exp_digits) if exp_sign == "-" else int(exp_digits)) - len(frac) + len(digits) - len(significant)
    if abs(power + len(significant) - 1) > _MAX_EXPONENT:  # the exponent in scientific notation
        return "range"
    mantissa = -int(significant) if sign == "-" else int(significant)
    return Fraction(mantissa * 10 ** power) if power >= 0 else Fraction(mantissa, 10 ** -power)


def exact_number(value) -> Fraction | None:
    """The exact number of one cell: decimal text or an int, float (shortest text), Decimal or
    Fraction; None for a missing cell (``?``, ``''``, None, NaN).  Anything else: a DataError."""
    if _missing_kind(value) or isinstance(value, Decimal) and value.is_nan():
        return None
    label = value.strip() if isinstance(value, str) else str(value).strip()
    if label in _MISSING_TOKENS:
        return None
    number = _number_of(value, label)
    if not isinstance(number, Fraction):
        raise DataError(_not_a_number(number, label))
    return number


def number_text(q: Fraction) -> str:
    """Canonical text of a number: the exact decimal without superfluous zeros or exponent, else ``p/q``."""
    return _number_text(q)


def _number_of(cell, label):
    """The Fraction of a cell (an in-memory object, or None for file text) whose stripped text is ``label``.

    Fractions are taken as they are; ints, floats and Decimals are read from their text
    (a float's shortest repr); bools are not numbers.  Else ``'nan'`` or ``'range'``.
    """
    if isinstance(cell, (bool, np.bool_)):
        return "nan"
    if isinstance(cell, Fraction):
        return cell
    return _parse_decimal(label)


def _not_a_number(problem, label):
    if problem == "range":
        return f"value {_clip(label)!r} is out of range; {_RANGE}"
    return f"value {_clip(label)!r} is not a number; {_NUMBERS_ARE}"


def _number_text(q: Fraction) -> str:
    """Canonical text of a number: the exact decimal without superfluous zeros or exponent, else ``p/q``."""
    p, d = q.numerator, q.denominator
    if d == 1:
        return str(p)
    twos = (d & -d).bit_length() - 1
    rest = d >> twos
    fives = round(math.log(rest, 5)) if rest > 1 else 0  # a guess, checked exactly: no loop over the digits
    if 5 ** fives != rest:
        return f"{p}/{d}"
    # d = 2^a·5^b: p/d has max(a, b) decimal places, the last not 0 (p/d is in lowest terms)
    places = max(twos, fives)
    digits = str(abs(p) * (10 ** places // d)).rjust(places + 1, "0")
    return ("-" if p < 0 else "") + digits[:-places] + "." + digits[-places:]


def _notes(target, classes, y) -> tuple[str, ...]:
    present = np.flatnonzero(np.bincount(y, minlength=len(classes)))
    if len(present) == 1:
        return (f"target {target!r} has a single class {classes[present[0]]!r}",)
    return ()


# ---- in-memory cells -------------------------------------------------------

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


# ---- files -----------------------------------------------------------------

def _read_text(source: str) -> str:
    """The file's text, decoded as UTF-8 (a BOM is accepted); binary or non-UTF-8 files are refused."""
    from . import limits

    budget = limits.current().input_bytes
    try:
        with open(source, "rb") as f:
            # The first block decides a binary file (/dev/zero) at once; then at most the
            # budget is read, so an endless or huge input is refused, not read for minutes.
            data = f.read(min(budget + 1, 1 << 16))
            if b"\x00" not in data and len(data) <= budget:
                data += f.read(budget + 1 - len(data))
    except FileNotFoundError:
        raise DataError(f"no such file {source!r}{_nearby_file(source)}") from None
    except IsADirectoryError:
        raise DataError(f"{source!r} is a directory; expected a data file (.csv or .arff)") from None
    except OSError as e:
        raise DataError(f"cannot read {source!r}: {e.strerror or e}") from None
    if b"\x00" not in data and len(data) > budget:
        raise DataError(f"{source} is larger than the input limit of {budget} bytes "
                        f"(raise it with {limits.option('input_bytes')})")
    return decode_text(data, source, DataError, expected="text (CSV or ARFF)", save="re-save the file")


def decode_text(data: bytes, source: str, error, *, expected: str, save: str) -> str:
    """``data`` decoded as UTF-8 (a BOM is accepted); UTF-16, binary (a NUL byte) and other
    encodings are refused with ``error``, naming the line: ``expected`` says what the file
    should be, ``save`` how to mend it (``re-save the file``)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(f"{source} is UTF-16 text; {save} as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise error(f"{source} line {line} contains a NUL byte; the file looks binary, expected {expected}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise error(f"{source} line {line}: byte {data[e.start:e.start + 1]!r} is not UTF-8; "
                    f"{save} as UTF-8") from None


def _nearby_file(source: str) -> str:
    folder, name = os.path.split(source)
    try:
        siblings = sorted(os.listdir(folder or "."))
    except OSError:
        return ""
    close = difflib.get_close_matches(name, siblings, n=1)
    return f" (did you mean {os.path.join(folder, close[0])!r}?)" if close else ""


# A value in an ARFF list: quoted with ' or " (backslash escapes), or bare up to , % or a quote.
_ARFF_VALUE = re.compile(r"""\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^,'"%]*))\s*""", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), s, flags=re.S)


def _arff_values(s, source, number, *, data):
    """``(value, quoted)`` pairs of a comma-separated ARFF list; a ``%`` outside quotes ends it."""
    if data and s.startswith("{"):
        raise DataError(f"{source} line {number}: sparse rows {{index value, ...}} are not supported; "
                        f"write every value, separated by commas")
    out, pos = [], 0
    while True:
        m = _ARFF_VALUE.match(s, pos)
        single, double, bare = m.groups()
        if bare is None:
            out.append((_unescape(single if single is not None else double).strip(), True))
        elif data and bare.strip().startswith("{"):
            raise DataError(f"{source} line {number}: instance weights {bare.strip()!r} are not supported")
        else:
            out.append((bare.strip(), False))
        pos = m.end()
        if pos == len(s) or s[pos] == "%":
            return out
        if s[pos] != ",":
            raise DataError(f"{source} line {number}: cannot read values at {_clip(s[pos:])!r}; "
                            f"expected values separated by commas, quoted with ' or \" if needed")
        pos += 1


def _arff_attribute(rest, source, number):
    """Name and declared values of an ``@attribute`` line (``rest`` follows the keyword)."""
    rest = rest.strip()
    m = re.match(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^\s{%]+)""", rest)
    if not m:
        raise DataError(f"{source} line {number}: @attribute without a name; expected @attribute name {{v1, v2, ...}}")
    name = _unescape(m.group(1) if m.group(1) is not None else m.group(2)) if m.group(3) is None else m.group(3)
    name = name.strip()
    if not name:
        raise DataError(f"{source} line {number}: attribute with an empty name; every attribute needs a name")
    kind = rest[m.end():].strip()
    if not kind.startswith("{"):
        return name, _attribute_type(source, number, name, kind)
    close = _closing_brace(kind)
    if close is None:
        raise DataError(f"{source} line {number}: attribute {name!r} has no closing '}}'; "
                        f"expected {{v1, v2, ...}} on one line")
    after = kind[close + 1:].strip()
    if after and not after.startswith("%"):
        raise DataError(f"{source} line {number}: unexpected {_clip(after)!r} after the values of attribute {name!r}")
    listed = _arff_values(kind[1:close], source, number, data=False)
    if listed == [("", False)]:
        raise DataError(f"{source} line {number}: attribute {name!r} declares no values; expected {{v1, v2, ...}}")
    if ("", False) in listed:
        raise DataError(f"{source} line {number}: attribute {name!r} declares an empty value; "
                        f"expected {{v1, v2, ...}} (quote it as '' if it is meant)")
    values = [v for v, _ in listed]
    seen = set()
    for v in values:
        if v in seen:
            raise DataError(f"{source} line {number}: attribute {name!r} declares {v!r} twice")
        seen.add(v)
    return name, tuple(values)


def _attribute_type(source, number, name, kind):
    """The one place ARFF attribute types other than a nominal list are read: numeric ones, or a refusal."""
    if not kind or kind.startswith("%"):
        raise DataError(f"{source} line {number}: attribute {name!r} has no type; "
                        f"expected {{v1, v2, ...}} or numeric")
    word = re.match(r"[A-Za-z]*", kind).group()
    after = kind[len(word):].strip()
    word = word.lower()
    if word in ("numeric", "real", "integer") and (not after or after.startswith("%")):
        return _ARFF_NUMERIC
    if word in ("numeric", "real", "integer"):
        raise DataError(f"{source} line {number}: unexpected {_clip(after)!r} after the type of attribute {name!r}")
    if word in ("string", "date", "relational"):
        raise DataError(f"{source} line {number}: attribute {name!r} is {word}; only nominal {{v1, v2, ...}} "
                        f"and numeric attributes are supported (make it nominal or numeric)")
    raise DataError(f"{source} line {number}: attribute {name!r} has unknown type {_clip(kind)!r}; "
                    f"expected a nominal list {{v1, v2, ...}} or numeric, real or integer")


def _closing_brace(s):
    """Index of the ``}`` closing the ``{`` at ``s[0]``, skipping quoted text; None if absent."""
    quote, i = None, 1
    while i < len(s):
        c = s[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "}":
            return i
        i += 1
    return None


# ---- small helpers ---------------------------------------------------------

def _lines(text):
    """Lines split at \\n, \\r\\n or \\r, as the csv module and editors count them."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _check_on_missing(on_missing):
    if on_missing not in _ON_MISSING:
        raise InfotreeError(f"on_missing must be 'reject', 'keep' or 'value', not {on_missing!r}")


def _check_names(names, where):
    where = f"{where}: " if where else ""
    for j, name in enumerate(names):
        if not name:
            raise DataError(f"{where}column {j + 1} has an empty name; every column needs a name")
    first = {}
    for j, name in enumerate(names):
        if name in first:
            raise DataError(f"{where}duplicate column name {name!r} (columns {first[name] + 1} and {j + 1}); "
                            f"names must be unique")
        first[name] = j


def _no_names(feature_names, source_of_names):
    if feature_names is not None:
        raise DataError(f"feature_names is only for 2-D tables; here the column names come from {source_of_names}")


def _did_you_mean(name, names) -> str:
    close = difflib.get_close_matches(str(name), names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _listing(values, limit=12) -> str:
    shown = ", ".join(repr(v) for v in values[:limit])
    return shown + (f", ... ({len(values)} values)" if len(values) > limit else "")


def _fields(n, word="field"):
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


def _clip(s, limit=40):
    s = str(s)
    return s if len(s) <= limit else s[:limit] + "..."


def _frozen(a, dtype, order="C"):
    if (isinstance(a, np.ndarray) and a.dtype == dtype and not a.flags.writeable
            and a.flags["F_CONTIGUOUS" if order == "F" else "C_CONTIGUOUS"]):
        return a  # already read-only: sharing it cannot change it
    a = np.array(a, dtype=dtype, order=order)  # a copy, so freezing never touches the caller's array
    a.flags.writeable = False
    return a
