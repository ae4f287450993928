"""Parquet files, through pyarrow (an optional extra), read as in-memory columns."""

from __future__ import annotations

import json
import os

import numpy as np

from ..errors import DataError, InfotreeError
from .dataset import Dataset
from .encoding import _kept
from .files import _nearby_file
from .codes import _Factorized
from .memory import from_records
from .messages import _check_names

__all__ = ["read_parquet"]


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
    return from_records({name: _cells(table.column(j)) for j, name in enumerate(keep)}, target=target,
                        on_missing=on_missing, source=source, numeric=numeric, categorical=categorical,
                        numeric_target=numeric_target)


def _cells(column):
    """A column's cells as :func:`from_records` reads them, without a Python object a cell
    where Arrow can say the same (10^7 rows of 20 columns as Python objects took 21 GB):
    strings and integers without nulls dictionary-encoded by Arrow (their texts: str() of
    the distinct values, in order of first appearance, as the readers number them); floats
    without nulls as a float64 array; anything else (nulls, bools, decimals, dates) as
    Python values."""
    import pyarrow as pa

    kind = column.type
    if column.null_count == 0 and len(column):
        if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_integer(kind):
            coded = column.combine_chunks().dictionary_encode()
            cells = coded.dictionary.to_pylist()
            return _Factorized([str(v) for v in cells], coded.indices.to_numpy().astype(np.intp), cells)
        if pa.types.is_floating(kind) and not pa.types.is_float16(kind):
            return np.asarray(column.to_numpy(), dtype=np.float64)
    return column.to_pylist()


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
