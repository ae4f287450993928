"""In-memory tables: pandas and polars DataFrames, lists of dicts, dicts of columns, 2-D tables, and
a feature table with its labels (``from_arrays``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import DataError
from .cells import _column, _MISSING_AS_VALUE, _MISSING_TOKENS, _SHOWN, _strings, _table_columns
from .codes import _distinct_codes, _Factorized, _finite_floats, _raw_codes
from .dataset import Dataset
from .encoding import _assemble, _check_kind_options, _kept
from .messages import _check_names, _check_on_missing, _clip, _did_you_mean, _fields, _no_names

__all__ = ["from_arrays", "from_records"]


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
            if isinstance(v, (str, bytes)) or not (hasattr(v, "__iter__") or isinstance(v, _Factorized)):
                raise DataError(f"column {name!r} is {_clip(v)!r}, not a sequence of values")
        columns = [v if isinstance(v, np.ndarray) and v.ndim == 1 or isinstance(v, _Factorized) else _column(v)
                   for v in data.values()]
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
    raw = [col.raw if isinstance(col, _Factorized) else None if _finite_floats(col)
           else _distinct_codes(col) or _raw_codes(_strings(col)) for col in columns]
    return _assemble(names, raw, target=target, on_missing=on_missing, numeric_target=numeric_target,
                     missing=missing | _SHOWN, aliases=_MISSING_AS_VALUE, numeric=numeric, categorical=categorical,
                     objects=columns, where=lambda i: f"{prefix}row {i}", source=source, lines=None)
