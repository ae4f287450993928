"""ARFF files (Weka's format): nominal and numeric ``@attribute`` declarations, then ``@data`` rows."""

from __future__ import annotations

import os
import re
from itertools import compress
from operator import methodcaller

import numpy as np

from ..errors import DataError
from .cells import _QUOTED_QMARK
from .codes import _ARFF_NUMERIC, _raw_codes
from .csvfile import _plain_codes
from .dataset import Dataset
from .encoding import _assemble, _check_kind_options
from .files import _lines, _read_text
from .messages import _check_on_missing, _clip, _fields

__all__ = ["arff_numeric_names", "read_arff"]


def read_arff(path, *, target=None, on_missing="reject", numeric=None, categorical=(), columns=None,
              drop=(), numeric_target=False) -> Dataset:
    """Read an ARFF file of nominal and numeric attributes; the target is the last attribute unless named.

    Declared value order is kept, including values that never occur.  Attributes
    declared ``numeric``, ``real`` or ``integer`` are numeric unless ``categorical``
    names them (then their values are categories in order of first appearance);
    ``numeric`` may name more columns (``"auto"`` changes nothing here).  An unquoted
    ``?`` is missing; a quoted ``'?'`` is the value ``?``.  String, date and relational
    attributes and sparse rows are refused.  ``columns`` and ``drop`` as for :func:`read_csv`.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    use = columns  # the option; "columns" below are the file's
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
    body = all_lines[data_at:]
    if any(map("\n".join(body).__contains__, "'\"%{")):
        columns, lines = _arff_rows(body, data_at, width, source)
    else:  # plain rows: split in bulk, as plain CSV
        n = len(body)
        counts = np.fromiter(map(methodcaller("count", ","), body), dtype=np.int64, count=n)
        keep = np.fromiter(map(len, map(str.strip, body)), dtype=np.int64, count=n) > 0
        lines = np.flatnonzero(keep) + data_at + 1
        ragged = np.flatnonzero(counts[lines - data_at - 1] != width - 1)
        if ragged.size:
            line = lines[ragged[0]]
            raise DataError(f"{source} line {line} has {_fields(counts[line - data_at - 1] + 1, 'value')}, "
                            f"{width} attributes are declared")
        columns = _plain_codes(list(compress(body, keep)), ",", width) if lines.size else None
    if not len(lines):
        raise DataError(f"{source} has no data rows after @data (line {data_at})")
    lines = np.asarray(lines, dtype=np.int64)
    return _assemble(names, columns, target=target, on_missing=on_missing, use=use, drop=drop,
                     missing={"?": "?"}, aliases={_QUOTED_QMARK: "?"}, declared=declared,
                     declared_on=[declared_on[name] for name in names], numeric_target=numeric_target,
                     numeric=None if numeric == "auto" else numeric, categorical=categorical,
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def arff_numeric_names(path) -> tuple[str, ...]:
    """The attributes an ARFF file declares numeric, read from its header lines only."""
    source = os.fspath(path)
    out = []
    try:
        with open(source, encoding="utf-8-sig", errors="replace") as f:
            for number, raw in enumerate(f, 1):
                s = raw.strip()
                keyword = re.match(r"@?\w*", s).group().lower()
                if keyword == "@data":
                    break
                if keyword == "@attribute":
                    name, values = _arff_attribute(s[len(keyword):], source, number)
                    if values == _ARFF_NUMERIC:
                        out.append(name)
    except OSError as e:
        raise DataError(f"cannot read {source!r}: {e.strerror or e}") from None
    return tuple(out)


def _arff_rows(body, data_at, width, source):
    """Raw columns and line numbers of ARFF data lines with quotes, comments or braces, line by line."""
    cells, lines = [], []
    for number in range(data_at + 1, data_at + len(body) + 1):
        s = body[number - data_at - 1].strip()
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
    return [_raw_codes(cells[j::width]) for j in range(width)], lines


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
        return name, _attribute_type(source, number, name, kind)
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


def _attribute_type(source, number, name, kind):
    """The one place ARFF attribute types other than a nominal list are read: numeric ones, or a refusal."""
    if not kind or kind.startswith("%"):
        raise DataError(f"{source} line {number}: attribute {name!r} has no type; "
                        f"expected {{v1, v2, ...}} or numeric")
    word = re.match(r"[A-Za-z]*", kind).group()
    after = kind[len(word):].strip()
    word = word.lower()
    if word in ("numeric", "real", "integer") and (not after or after.startswith("%")):
        return _ARFF_NUMERIC
    if word in ("numeric", "real", "integer"):
        raise DataError(f"{source} line {number}: unexpected {_clip(after)!r} after the type of attribute {name!r}")
    if word in ("string", "date", "relational"):
        raise DataError(f"{source} line {number}: attribute {name!r} is {word}; only nominal {{v1, v2, ...}} "
                        f"and numeric attributes are supported (make it nominal or numeric)")
    raise DataError(f"{source} line {number}: attribute {name!r} has unknown type {_clip(kind)!r}; "
                    f"expected a nominal list {{v1, v2, ...}} or numeric, real or integer")


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
