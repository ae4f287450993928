"""The one encoding step every reader ends in: raw columns to a :class:`~.dataset.Dataset`.

The columns kept (``columns=``, ``drop=``), the target, each feature's kind (``numeric=``,
``categorical=``, ARFF's declarations), then each column's codes (:mod:`.codes`); the first
problem in row order is raised, naming its row (or line) and column."""

from __future__ import annotations

import numpy as np

from ..errors import DataError, InfotreeError
from .codes import (_ARFF_NUMERIC, _distinct_codes, _encode_column, _encode_numeric, _finish_factorize, _float_numbers,
                    _numbers_of)
from .dataset import Dataset, _notes
from .messages import _clip, _did_you_mean, _fields, _listing
from .numbers import _NUMBERS_ARE, _RANGE


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
