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

The package's modules: the readers by format, :mod:`.csvfile` (CSV and TSV), :mod:`.arff`,
:mod:`.parquet` and :mod:`.memory` (DataFrames, records, arrays), each ending in the one encoding
step, :mod:`.encoding` (columns chosen, kinds decided, the first problem in row order reported),
over :mod:`.codes` (a column's codes, domain and exact numbers); :mod:`.numbers` (exact decimal
numbers and their canonical text), :mod:`.cells` (in-memory cells: None, NaN, ragged tables),
:mod:`.files` (a file's text), :mod:`.dataset` (:class:`Dataset`) and :mod:`.messages`.

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

import os

from .arff import arff_numeric_names, read_arff
from .csvfile import read_csv
from .dataset import Dataset
from .files import _read_text, decode_text  # noqa: F401 (_read_text: the CLI's and exercise's file reading)
from .memory import from_arrays, from_records
from .numbers import exact_number, number_text
from .parquet import read_parquet

__all__ = ["Dataset", "from_arrays", "from_records", "load", "read_arff", "read_csv", "read_parquet"]


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
