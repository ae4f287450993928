"""The :class:`Dataset`: integer codes into per-column domains, checked once when made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from operator import itemgetter

import numpy as np

from ..errors import DataError, InfotreeError
from .cells import _column, _MISSING_AS_VALUE, _MISSING_TOKENS, _SHOWN, _strings, _table_columns
from .codes import _Canonical, _factorize
from .messages import _clip, _did_you_mean, _fields, _listing
from .numbers import exact_number, _not_a_number, _number_of, _number_text

__all__ = ["Dataset", "SampledValues"]


_KINDS = ("nominal", "numeric")


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

    def sampled_values(self, rows) -> tuple[tuple, tuple]:
        """The domains and numbers :meth:`sample` gives these rows, each numeric column's as a
        :class:`SampledValues` view into this data set's tuples (a forest's trees keep their
        samples' values: as tuples, two references a value; as a view, two bytes or four)."""
        rows = np.asarray(rows, dtype=np.intp)
        numbers, domains = list(self.numbers), list(self.domains)
        for j, kind in enumerate(self.kinds):
            if kind == "numeric":
                col = self.X[:, j].take(rows)
                n = len(self.numbers[j])
                codes = np.flatnonzero(np.bincount(col[col >= 0], minlength=n))
                codes = codes.astype(np.uint16 if n <= 1 << 16 else np.int32)
                numbers[j], domains[j] = SampledValues(self.numbers[j], codes), SampledValues(self.domains[j], codes)
        return tuple(domains), tuple(numbers)

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


class SampledValues(Sequence):
    """The values of a tuple at some of its positions (ascending ``codes``), read-only and
    equal to the tuple of them, without a copy: a numeric column's values that a sample's
    rows hold (:meth:`Dataset.sampled_values`)."""

    __slots__ = ("values", "codes")

    def __init__(self, values, codes):
        self.values, self.codes = values, codes

    def __len__(self):
        return len(self.codes)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(map(self.values.__getitem__, self.codes[i].tolist()))
        return self.values[self.codes[i]]

    def __iter__(self):
        return map(self.values.__getitem__, self.codes.tolist())

    def __eq__(self, other):
        return tuple(self) == (tuple(other) if isinstance(other, SampledValues) else other)

    def __hash__(self):
        return hash(tuple(self))

    def __repr__(self):
        return repr(tuple(self))

    def __reduce__(self):
        return SampledValues, (self.values, self.codes)


def _notes(target, classes, y) -> tuple[str, ...]:
    present = np.flatnonzero(np.bincount(y, minlength=len(classes)))
    if len(present) == 1:
        return (f"target {target!r} has a single class {classes[present[0]]!r}",)
    return ()


def _frozen(a, dtype, order="C"):
    if (isinstance(a, np.ndarray) and a.dtype == dtype and not a.flags.writeable
            and a.flags["F_CONTIGUOUS" if order == "F" else "C_CONTIGUOUS"]):
        return a  # already read-only: sharing it cannot change it
    a = np.array(a, dtype=dtype, order=order)  # a copy, so freezing never touches the caller's array
    a.flags.writeable = False
    return a
