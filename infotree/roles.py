"""Columns that are not features: a row's sample weight, its exposure (Poisson, exp) and its
cross-validation fold.

``--sample-weight COL`` and ``--folds-from COL`` name a column of the data file; it is
read with the file and taken out of the features here, so no tree ever splits on it.
``--folds-from FILE`` may instead name a file of fold ids, one a line.  Weights are
exact positive rationals (``2``, ``0.5``, ``1/3``); fold ids are any labels, one fold
per distinct label (:func:`infotree.folds.given`).

    data, weights = take_column(data, "w", "sample weight")
"""

from __future__ import annotations

import os
from dataclasses import replace
from fractions import Fraction

import numpy as np

from .errors import DataError, InfotreeError

__all__ = ["exposures_of", "fold_file", "take_column", "weights_of"]


def _where(data, i) -> str:
    if data.lines is not None and data.source:
        return f"{data.source} line {int(data.lines[i])}"
    return f"row {i + 1}"


def take_column(data, name, what) -> tuple:
    """(the Dataset without column ``name``, its cells: exact numbers for a numeric
    column, texts otherwise, None where missing); a one-line error if there is no such
    column or it is the target."""
    if name == data.target:
        raise InfotreeError(f"column {name!r} is the target; the {what} column must be another one")
    if name not in data.features:
        raise InfotreeError(f"the {what} column {name!r} is not a column of {data.source or 'the data'}; "
                            f"columns are: {', '.join(data.features + (data.target,))}")
    j = data.features.index(name)
    codes = np.asarray(data.X)[:, j].tolist()
    kinds = data.kinds or ("nominal",) * len(data.features)
    if kinds[j] == "numeric":
        cells = [None if c < 0 else data.numbers[j][c] for c in codes]
    else:
        cells = [None if c < 0 else data.domains[j][c] for c in codes]
    keep = [k for k in range(len(data.features)) if k != j]
    rest = replace(data, features=tuple(data.features[k] for k in keep), domains=tuple(data.domains[k] for k in keep),
                   X=np.asarray(data.X)[:, keep],
                   kinds=None if data.kinds is None else tuple(data.kinds[k] for k in keep),
                   numbers=None if data.numbers is None else tuple(data.numbers[k] for k in keep))
    return rest, cells


def weights_of(data, cells, name) -> list:
    """Exact positive weights from a column's cells, or a one-line error naming the row."""
    return _positive(data, cells, name, "sample weight", "a weight")


def exposures_of(data, cells, name) -> list:
    """Exact positive exposures (Poisson) or observed times (exp) from a column's cells, or a
    one-line error naming the row (rpart: 'Observation time must be > 0')."""
    return _positive(data, cells, name, "exposure", "an exposure or observation time")


def _positive(data, cells, name, what, a_what) -> list:
    from .data import exact_number

    out = []
    for i, v in enumerate(cells):
        q = v if isinstance(v, Fraction) or v is None else exact_number(v)
        if q is None or q <= 0:
            shown = "missing" if v is None else repr(str(v))
            raise DataError(f"{_where(data, i)}, column {name!r}: {what} {shown} is not a positive number; "
                            f"{a_what} is a number above 0 such as 1, 2.5 or 1/3")
        out.append(q)
    return out


def fold_file(path, n_rows) -> list:
    """The fold ids of a file, one a line (blank lines skipped), as integers where they are."""
    try:
        with open(path, encoding="utf-8") as f:
            ids = [line.strip() for line in f if line.strip()]
    except OSError as e:
        raise DataError(f"cannot read the fold file {os.fspath(path)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise DataError(f"{os.fspath(path)} is not UTF-8 text; a fold file holds one fold id a line") from None
    if len(ids) != n_rows:
        raise DataError(f"{os.fspath(path)} has {len(ids)} fold ids; the data has {n_rows} rows (one id a line)")
    return [int(v) if v.lstrip("-").isdigit() else v for v in ids]
