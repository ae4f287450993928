"""Budgets: the documented limits that keep every answer bounded in time and memory.

A hostile or careless input must get a one-line refusal naming the limit, never a
hang: a file of gigabytes, a number whose exponent expands into a billion digits, a
model nested thousands deep, a number too hard to factor.  Each limit has a default
that every ordinary input fits in, and can be raised: at the command line with the
option named below, in Python with :func:`raised`::

    >>> from infotree import limits
    >>> with limits.raised(input_bytes=2 ** 30):
    ...     limits.current().input_bytes
    1073741824

| limit | default | option | what it bounds |
|---|---|---|---|
| ``input_bytes`` | 256 MiB | ``--max-input-mb`` | size of a data or model file |
| ``value_length`` | 4000 characters | ``--max-value-length`` | one exact number in a model file or an option (its text, and the digits its exponent expands into) |
| ``nesting`` | 1000 | ``--max-nesting`` | depth of a model's tree (and of its JSON) |
| ``factor_digits`` | 12 | ``--max-factor-digits`` | digits of a numerator or denominator that ``entropy`` factors |
| ``table_cells`` | 2^24 | ``--max-table-cells`` | cells of one node's count table (features × values × classes) in the level-wise builder |

Each can be raised up to a ceiling (``_CEILING``): past it the work or the C stack is no
longer bounded.

The options that multiply work have fixed ceilings, checked before any work starts
(:func:`within`): past each, the answer would take hours or the memory would run out.

| ceiling | value | option | what it bounds |
|---|---|---|---|
| ``trees`` | 10,000 | ``--trees``, ``n_trees=`` | trees a forest grows (each keeps its tables) |
| ``forest_rows`` | 2^26 | ``--trees`` × rows, ``--sample``, ``--samples`` | rows the trees of a forest draw in all |
| ``max_subsets`` | 2^20 | ``--max-subsets``, ``max_subsets=`` | subsets one exhaustive CART split compares (about 150 µs each) |
| ``folds`` | 1,000 | ``--folds``, ``folds=`` | cross-validation folds (a tree grown for each) |
| ``lookahead_pairs`` | 2^20 | ``--lookahead 1``, ``lookahead=1`` | features × features a node scores (each candidate splits its children by every feature) |
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys

from .errors import InfotreeError

__all__ = ["CEILINGS", "Limits", "current", "raised", "recursion_room", "within"]


@dataclasses.dataclass(frozen=True)
class Limits:
    input_bytes: int = 256 * 2 ** 20
    # CPython refuses to convert integers of more than 4300 digits to or from text.
    value_length: int = 4000
    nesting: int = 1000
    factor_digits: int = 12
    # 16,777,216 cells: 64 MiB of counts and a few times that in floats at one node.
    table_cells: int = 2 ** 24


_OPTION = {"input_bytes": "--max-input-mb", "value_length": "--max-value-length",
           "nesting": "--max-nesting", "factor_digits": "--max-factor-digits", "table_cells": "--max-table-cells"}
_current = Limits()
# How far each limit may be raised, and why not further.
_CEILING = {"input_bytes": (2 ** 40, "1 TiB"),
            "value_length": (10 ** 6, "a million characters"),
            "nesting": (10_000, "10000 levels: deeper JSON would overflow the C stack"),
            "factor_digits": (60, "60 digits: factoring takes hours beyond"),
            "table_cells": (2 ** 31, "2^31 cells: 8 GiB of counts at one node")}


CEILINGS = {"trees": (10_000, "--trees", "trees"),
            "forest_rows": (1 << 26, "--trees x rows (or the rows --sample/--samples list)", "rows drawn in all"),
            "max_subsets": (1 << 20, "--max-subsets", "subsets"),
            "folds": (1_000, "--folds", "folds"),
            "lookahead_pairs": (1 << 20, "--lookahead 1", "feature pairs (features x features) at a node")}


def within(name: str, value: int, why: str = "") -> None:
    """Refuse ``value`` of a work-multiplying option past its ceiling, before any work starts."""
    top, option, unit = CEILINGS[name]
    if value > top:
        raise InfotreeError(f"{option}: {value}{why} is past the ceiling of {top} {unit}; the work would not "
                            f"finish in reasonable time or memory (see infotree.limits)")


def current() -> Limits:
    return _current


def option(name: str) -> str:
    """How a user raises limit ``name``: the command-line option and the Python call."""
    return f"{_OPTION[name]}, or limits.raised({name}=...) in Python"


@contextlib.contextmanager
def raised(**changes):
    """Run the ``with`` block under other limits (positive integers)."""
    global _current
    for k, v in changes.items():
        if k not in _OPTION:
            raise InfotreeError(f"unknown limit {k!r}; limits are: {', '.join(_OPTION)}")
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InfotreeError(f"limit {k} must be a positive integer, not {v!r}")
        if v > _CEILING[k][0]:
            raise InfotreeError(f"limit {k} ({_OPTION[k]}) can be raised up to {_CEILING[k][1]}, not {v}")
    before, digits = _current, sys.get_int_max_str_digits()
    _current = dataclasses.replace(before, **changes)
    if digits and _current.value_length + 300 > digits:  # CPython's own cap on int <-> text
        sys.set_int_max_str_digits(_current.value_length + 300)
    try:
        yield _current
    finally:
        _current = before
        sys.set_int_max_str_digits(digits)


@contextlib.contextmanager
def recursion_room(frames: int):
    """At least ``frames`` more Python frames, for a tree as deep as the nesting budget allows.

    The JSON reader and writer and the printers recurse once per level of a tree.
    """
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, frames + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
