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
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys

from .errors import InfotreeError

__all__ = ["Limits", "current", "raised", "recursion_room"]


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
