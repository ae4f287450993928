"""Reading categorical data and encoding it as integer codes.

This module owns the way in: CSV and ARFF files, DataFrames, records and arrays
become a :class:`Dataset` whose cells are ``int32`` codes into per-column value
lists, so the tree builder never touches a string.  Every value is a string with
the whitespace around it stripped (header names too); numbers and bools in memory
become ``str(v)``.  Codes follow ARFF declaration order, else order of first
appearance.  Missing cells (``?`` or empty in files; also ``None``/NaN in memory)
are refused unless ``on_missing='keep'`` (code ``-1``) or ``on_missing='value'``
(``?`` becomes an ordinary value).  A missing class is always refused.  Every bad
input raises a one-line :class:`~infotree.errors.DataError` naming the place.

>>> ds = from_records([{"outlook": "sunny", "play": "no"},
...                    {"outlook": "rainy", "play": "yes"},
...                    {"outlook": "sunny", "play": "yes"}])
>>> ds.features, ds.target, ds.domains, ds.classes
(('outlook',), 'play', (('sunny', 'rainy'),), ('no', 'yes'))
>>> ds.X.tolist(), ds.y.tolist()
([[0], [1], [0]], [0, 1, 1])
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import os
import re
from collections.abc import Mapping
from itertools import compress
from operator import methodcaller
from dataclasses import dataclass, field

import numpy as np

from .errors import DataError, InfotreeError

__all__ = ["Dataset", "from_arrays", "from_records", "load", "read_arff", "read_csv"]

_ON_MISSING = ("reject", "keep", "value")
_MISSING_TOKENS = ("?", "")
# In-memory None/NaN and ARFF's quoted '?' become these strings so that whole
# columns stay plain str arrays; a leading NUL survives numpy (only trailing NULs are cut).
_NONE, _NAN, _QUOTED_QMARK = "\x00None", "\x00NaN", "\x00'?'"
_SHOWN = {_NONE: None, _NAN: math.nan}
_MISSING_AS_VALUE = {_NONE: "?", _NAN: "?"}  # what None/NaN become under on_missing='value'


@dataclass(frozen=True, eq=False)
class Dataset:
    """Categorical data as integer codes: ``X[i, j]`` indexes ``domains[j]``, ``y[i]`` indexes ``classes``.

    ``-1`` in ``X`` marks a missing value (only with ``on_missing='keep'``).  Domains keep
    declared values that never occur.  ``X``, ``y`` and ``lines`` are read-only.
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

    def __post_init__(self):
        def set_(name, value):  # frozen: __init__ is over, so go around __setattr__
            object.__setattr__(self, name, value)

        set_("features", tuple(self.features))
        set_("domains", tuple(tuple(d) for d in self.domains))
        set_("classes", tuple(self.classes))
        set_("notes", tuple(self.notes))
        X = _frozen(self.X, np.int32)
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
        """The rows selected by an index array or a boolean mask, with the same domains and classes."""
        rows = np.asarray(rows)
        if rows.dtype == bool and rows.shape != (self.n_rows,):
            raise DataError(f"boolean mask has shape {rows.shape}; expected ({self.n_rows},)")
        if rows.dtype != bool and rows.size and not np.issubdtype(rows.dtype, np.integer):
            raise DataError(f"rows must be integer indices or a boolean mask, not {rows.dtype} values")
        if rows.dtype != bool:
            rows = rows.astype(np.intp)
        y = self.y[rows]
        return Dataset(self.features, self.target, self.domains, self.classes, self.X[rows], y,
                       source=self.source, lines=None if self.lines is None else self.lines[rows],
                       notes=_notes(self.target, self.classes, y))

    def encode_rows(self, rows, *, unseen="error") -> np.ndarray:
        """Codes of new rows under this dataset's domains, shape ``(len(rows), n_features)``.

        ``rows`` are dicts keyed by feature name (a target key is ignored; an absent key
        is missing) or sequences in feature order, or a DataFrame.  Missing values
        (``None``, NaN, ``'?'``, ``''``) that are not in a domain become ``-1``; so do
        unseen values with ``unseen='missing'``, else they raise a DataError.
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
            code = {v: k for k, v in enumerate(self.domains[j])}
            codes = []
            for label, first in zip(labels, firsts):
                label = _MISSING_AS_VALUE.get(label, label)
                if label in code:
                    codes.append(code[label])
                elif label in missing or unseen == "missing":
                    codes.append(-1)
                else:
                    raise DataError(f"row {first}, feature {name!r}: unseen value {label!r}; "
                                    f"allowed: {_listing(self.domains[j])} (or unseen='missing' for -1)")
            X[:, j] = np.asarray(codes, dtype=np.int32)[inv]
        return X


def read_csv(path, *, target=None, missing=_MISSING_TOKENS, on_missing="reject", delimiter=",") -> Dataset:
    """Read a CSV file with a header line; the target is the last column unless named.

    Fields are parsed as by the csv module (quotes, embedded delimiters and newlines),
    then stripped.  Blank lines are skipped.  ``missing`` lists the tokens that mean missing.
    """
    _check_on_missing(on_missing)
    if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\r\n\"":
        raise InfotreeError(f"delimiter must be one character other than a quote or newline, not {delimiter!r}")
    missing = (missing,) if isinstance(missing, str) else tuple(missing)
    source = os.fspath(path)
    text = _read_text(source)
    # The csv module is needed only for quotes; str.split reads plain text several times faster.
    split = _split_quoted if '"' in text else _split_plain
    header, header_line, cells, lines = split(text, delimiter, source)
    if header is None:
        raise DataError(f"{source} is empty; expected a header line naming the columns, then data rows")
    _check_names(header, f"{source} line {header_line}")
    if len(header) < 2:
        hint = next((f" (is it delimited by {d!r}? use delimiter={d!r})" for d in ";\t|"
                     if d != delimiter and d in header[0]), "")
        raise DataError(f"{source} has 1 column {header[0]!r}; need the target and at least one feature{hint}")
    if not len(lines):
        raise DataError(f"{source} has a header but no data rows")
    width = len(header)
    lines = np.asarray(lines, dtype=np.int64)
    return _assemble(header, [cells[j::width] for j in range(width)], target=target, on_missing=on_missing,
                     missing={t.strip(): t.strip() for t in missing},
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def _split_plain(text, delimiter, source):
    """Header, its line, the data cells row after row, and each row's line, for text without quotes."""
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
    cells = delimiter.join(rows).split(delimiter) if rows else []
    return header, int(numbers[0]), cells, numbers[1:]


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


def read_arff(path, *, target=None, on_missing="reject") -> Dataset:
    """Read an ARFF file of nominal attributes; the target is the last attribute unless named.

    Declared value order is kept, including values that never occur.  An unquoted ``?``
    is missing; a quoted ``'?'`` is the value ``?``.  Other attribute types and sparse
    rows are refused.
    """
    _check_on_missing(on_missing)
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
    cells, lines = [], []
    for number in range(data_at + 1, len(all_lines) + 1):
        s = all_lines[number - 1].strip()
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
    if not lines:
        raise DataError(f"{source} has no data rows after @data (line {data_at})")
    lines = np.asarray(lines, dtype=np.int64)
    return _assemble(names, [cells[j::width] for j in range(width)], target=target, on_missing=on_missing,
                     missing={"?": "?"}, aliases={_QUOTED_QMARK: "?"}, declared=declared,
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def load(path, *, target=None, on_missing="reject") -> Dataset:
    """Read ``.arff`` with :func:`read_arff`, ``.tsv`` as tab-delimited, anything else as CSV."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".arff":
        return read_arff(path, target=target, on_missing=on_missing)
    return read_csv(path, target=target, on_missing=on_missing, delimiter="\t" if suffix == ".tsv" else ",")


def from_records(data, *, target=None, feature_names=None, on_missing="reject",
                 missing=_MISSING_TOKENS, source=None) -> Dataset:
    """A Dataset from a DataFrame, a list of dicts, a dict of columns, or a 2-D table.

    A 2-D table (list of lists, array) needs ``feature_names`` naming ALL its columns,
    target included.  Dict rows take their columns from the first dict; an absent key is
    missing.  ``None`` and NaN are missing, as are the ``missing`` tokens.  Errors name
    rows by 0-based index.
    """
    _check_on_missing(on_missing)
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):  # a DataFrame, without importing pandas
        _no_names(feature_names, "the DataFrame")
        names = [str(c).strip() for c in data.columns]
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
    return _from_columns(names, columns, target=target, on_missing=on_missing, missing=missing, source=source)


def from_arrays(X, y, *, feature_names=None, target="class", on_missing="reject",
                missing=_MISSING_TOKENS) -> Dataset:
    """A Dataset from a 2-D feature table ``X`` and class labels ``y``; features default to ``x0, x1, ...``."""
    _check_on_missing(on_missing)
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
                         missing=missing, source=None)


def _from_columns(names, columns, *, target, on_missing, missing, source):
    """A Dataset from named in-memory columns (1-D arrays of any dtype)."""
    table = source or "the table"
    _check_names(names, source)
    if len(names) < 2:
        raise DataError(f"{table} has {_fields(len(names), 'column')}; need the target and at least one feature")
    if not columns or len(columns[0]) == 0:
        raise DataError(f"{table} has no rows")
    missing = {t.strip(): t.strip() for t in ((missing,) if isinstance(missing, str) else missing)}
    prefix = f"{source} " if source else ""
    return _assemble(names, [_strings(col) for col in columns], target=target, on_missing=on_missing,
                     missing=missing | _SHOWN, aliases=_MISSING_AS_VALUE,
                     where=lambda i: f"{prefix}row {i}", source=source, lines=None)


# ---- encoding --------------------------------------------------------------

def _assemble(names, columns, *, target, on_missing, missing, aliases=None, declared=None,
              where, source, lines) -> Dataset:
    """Encode str columns into a Dataset; raise the first problem in row order.

    ``missing`` maps each missing label to the value shown in messages; ``aliases`` renames
    sentinel labels (also missing ones under ``on_missing='value'``).
    """
    aliases = aliases or {}
    if target is None:
        t = len(names) - 1
    else:
        t = names.index(target.strip()) if isinstance(target, str) and target.strip() in names else None
        if t is None:
            where_ = f" in {source}" if source else ""
            raise DataError(f"unknown column {target!r}{where_}; columns are: {', '.join(names)}"
                            f"{_did_you_mean(target, names)}")
    order = [j for j in range(len(names)) if j != t] + [t]
    codes, domains, problems = [], [], []
    for j in order:
        is_target = j == t
        col, domain, problem = _encode_column(
            columns[j], missing=missing, aliases=aliases, declared=None if declared is None else declared[j],
            keep_missing=on_missing == "keep" and not is_target, value_missing=on_missing == "value")
        codes.append(col)
        domains.append(domain)
        if problem:
            problems.append((problem[0], j, problem[1], problem[2]))
    if problems:
        row, j, kind, shown = min(problems, key=lambda p: p[:2])
        at = f"{where(row)}, column {names[j]!r}"
        if kind == "undeclared":
            raise DataError(f"{at}: value {shown!r} is not declared; allowed: {_listing(declared[j])}")
        if j == t:
            raise DataError(f"{at}: missing class {shown!r}; every row needs a class, even with on_missing='keep'")
        raise DataError(f"{at}: missing value {shown!r}; missing values are refused by default "
                        f"(allowed: on_missing='keep' or on_missing='value')")
    y = codes.pop()
    classes = domains.pop()
    X = np.column_stack(codes) if codes else np.empty((len(y), 0), dtype=np.int32)
    return Dataset(tuple(names[j] for j in order[:-1]), names[t], tuple(domains), classes, X, y,
                   source=source, lines=lines, notes=_notes(names[t], classes, y))


def _encode_column(values, *, missing, aliases, declared, keep_missing, value_missing):
    """Codes, domain and first problem ``(row, kind, shown)`` of one str column.

    The domain is ``declared`` (plus ``?`` if missing is a value), else the labels in
    order of first appearance.
    """
    labels, firsts, inv = _factorize(values)
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
    # dict.fromkeys and map(dict.__getitem__) run in C: no Python code per cell.
    raw = {v: k for k, v in enumerate(dict.fromkeys(values))}
    inv = np.fromiter(map(raw.__getitem__, values), dtype=np.intp, count=len(values))
    # labels are numbered as they appear, so the running maximum steps up at each first appearance
    top = np.maximum.accumulate(inv)
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
    if isinstance(v, (float, np.floating)) and math.isnan(v):
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
            except (TypeError, ValueError):  # a cell such as pandas NA has no truth value
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
    try:
        with open(source, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise DataError(f"no such file {source!r}{_nearby_file(source)}") from None
    except IsADirectoryError:
        raise DataError(f"{source!r} is a directory; expected a data file (.csv or .arff)") from None
    except OSError as e:
        raise DataError(f"cannot read {source!r}: {e.strerror or e}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(f"{source} is UTF-16 text; re-save the file as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise DataError(f"{source} line {line} contains a NUL byte; the file looks binary, "
                        f"expected text (CSV or ARFF)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DataError(f"{source} line {line}: byte {data[e.start:e.start + 1]!r} is not UTF-8; "
                        f"re-save the file as UTF-8") from None


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
        _refuse_attribute_type(source, number, name, kind)
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


def _refuse_attribute_type(source, number, name, kind):
    """The one place non-nominal ARFF attributes are refused (numeric support would start here)."""
    if not kind or kind.startswith("%"):
        raise DataError(f"{source} line {number}: attribute {name!r} has no type; expected {{v1, v2, ...}}")
    word = kind.split(None, 1)[0].lower()
    if word in ("numeric", "real", "integer", "string", "date", "relational"):
        raise DataError(f"{source} line {number}: attribute {name!r} is {word}; only nominal attributes "
                        f"{{v1, v2, ...}} are supported (make it nominal or discretise it)")
    raise DataError(f"{source} line {number}: attribute {name!r} has unknown type {_clip(kind)!r}; "
                    f"expected a nominal list {{v1, v2, ...}}")


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


def _frozen(a, dtype):
    a = np.array(a, dtype=dtype)  # a copy, so freezing never touches the caller's array
    a.flags.writeable = False
    return a
