"""The data readers' small checks and the pieces of their one-line messages (names, counts, clipped values)."""

from __future__ import annotations

import difflib

from ..errors import DataError, InfotreeError


_ON_MISSING = ("reject", "keep", "value")


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
