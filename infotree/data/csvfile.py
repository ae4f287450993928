"""CSV (and TSV) files: a header line, then rows; plain text is split in bulk (bytes and numpy), text
with quotes goes through the csv module."""

from __future__ import annotations

import csv
import io
import os
from itertools import compress, filterfalse
from operator import methodcaller

import numpy as np

from ..errors import DataError, InfotreeError
from .cells import _MISSING_TOKENS
from .codes import _raw_codes
from .dataset import Dataset
from .encoding import _assemble, _check_kind_options
from .files import _lines, _read_text
from .messages import _check_names, _check_on_missing, _clip, _fields

__all__ = ["read_csv"]


def read_csv(path, *, target=None, missing=_MISSING_TOKENS, on_missing="reject", delimiter=",",
             numeric=None, categorical=(), columns=None, drop=(), numeric_target=False) -> Dataset:
    """Read a CSV file with a header line; the target is the last column unless named.

    Fields are parsed as by the csv module (quotes, embedded delimiters and newlines),
    then stripped.  Blank lines are skipped.  ``missing`` lists the tokens that mean missing.
    ``numeric`` (None, ``"auto"`` or names) and ``categorical`` (names) choose the
    numeric columns; by default all columns are nominal (see the module docstring).
    ``columns`` (names) keeps only those columns, ``drop`` (names) leaves some out,
    before any cell is read: a dropped column's values are never checked.
    """
    _check_on_missing(on_missing)
    _check_kind_options(numeric, categorical)
    use = columns  # the option; "columns" below are the file's
    if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\r\n\"":
        raise InfotreeError(f"delimiter must be one character other than a quote or newline, not {delimiter!r}")
    missing = (missing,) if isinstance(missing, str) else tuple(missing)
    source = os.fspath(path)
    text = _read_text(source)
    # The csv module is needed only for quotes; str.split reads plain text several times faster.
    quoted = '"' in text
    header, header_line, body, lines = (_split_quoted if quoted else _plain_rows)(text, delimiter, source)
    if header is None:
        raise DataError(f"{source} is empty; expected a header line naming the columns, then data rows")
    _check_names(header, f"{source} line {header_line}")
    if len(header) < 2:
        hint = next((f" (is it delimited by {d!r}? use delimiter={d!r})" for d in ";\t|"
                     if d != delimiter and d in header[0]), "")
        raise DataError(f"{source} has 1 column {_clip(header[0])!r}; need the target and at least one feature{hint}")
    if not len(lines):
        raise DataError(f"{source} has a header but no data rows")
    width = len(header)
    lines = np.asarray(lines, dtype=np.int64)
    columns = ([_raw_codes(body[j::width]) for j in range(width)] if quoted
               else _plain_codes(body, delimiter, width))
    return _assemble(header, columns, target=target, on_missing=on_missing, use=use, drop=drop,
                     numeric_target=numeric_target,
                     missing={t.strip(): t.strip() for t in missing}, numeric=numeric, categorical=categorical,
                     where=lambda i: f"{source} line {lines[i]}", source=source, lines=lines)


def _split_plain(text, delimiter, source):
    """Header, its line, the data cells row after row, and each row's line, for text without quotes."""
    header, header_line, rows, numbers = _plain_rows(text, delimiter, source)
    cells = delimiter.join(rows).split(delimiter) if rows else []
    return header, header_line, cells, numbers


def _plain_rows(text, delimiter, source):
    """As :func:`_split_plain`, with the data rows as whole lines (each with the header's width)."""
    # map() with C methods and numpy keep this free of Python code per line.
    all_lines = _lines(text)
    n = len(all_lines)
    counts = np.fromiter(map(methodcaller("count", delimiter), all_lines), dtype=np.int64, count=n)
    filled = np.fromiter(map(len, map(str.strip, all_lines)), dtype=np.int64, count=n)
    keep = (counts > 0) | (filled > 0)  # a blank line has no delimiter and only whitespace
    numbers = np.flatnonzero(keep) + 1
    if not numbers.size:
        return None, None, [], []
    header = [name.strip() for name in all_lines[numbers[0] - 1].split(delimiter)]
    ragged = np.flatnonzero(counts[numbers[1:] - 1] != len(header) - 1)
    if ragged.size:
        line = numbers[1 + ragged[0]]
        raise DataError(f"{source} line {line} has {_fields(counts[line - 1] + 1)}, header has {len(header)}")
    rows = list(compress(all_lines, keep))[1:]
    return header, int(numbers[0]), rows, numbers[1:]


def _plain_codes(rows, delimiter, width):
    """Raw ``(labels, codes)`` of each column of ``rows`` (lines of ``width`` fields), as :func:`_raw_codes`.

    Vectorised: the text becomes bytes, each field of up to 8 bytes is read as one
    little-endian uint64 (the bytes after it masked off; no NUL can occur, so this is
    one-to-one), and each column is coded by numpy from its sorted distinct keys: no
    Python object per cell.  Columns with longer fields go to :func:`_split_codes`.
    """
    n = len(rows)
    if not n or len(delimiter.encode()) != 1:
        return _split_codes(rows, delimiter, width, range(width))
    data = "\n".join(rows).encode("utf-8")
    buf = np.frombuffer(data, dtype=np.uint8)
    index_type = np.int32 if len(data) < 2 ** 31 - 1 else np.int64
    starts = np.empty(n * width, dtype=index_type)  # every row has width fields: checked by the caller
    starts[0], filled, step = 0, 1, 1 << 20
    for low in range(0, len(buf), step):  # a slice at a time: no int64 index of every field at once
        part = buf[low:low + step]
        after = np.flatnonzero((part == ord(delimiter)) | (part == 10)) + (low + 1)
        starts[filled:filled + len(after)] = after
        filled += len(after)
    lengths = np.empty_like(starts)
    lengths[:-1] = np.diff(starts) - 1
    lengths[-1] = len(buf) - starts[-1]
    # Column after column below: each column's starts and lengths contiguous.
    starts = np.ascontiguousarray(starts.reshape(n, width).T)
    lengths = np.ascontiguousarray(lengths.reshape(n, width).T)
    widest = lengths.max(axis=1)
    short = np.flatnonzero(widest <= 8).tolist()
    out = {}
    if len(short) < width:
        long = [j for j in range(width) if widest[j] > 8]
        out.update(zip(long, _split_codes(rows, delimiter, width, long)))
    # word[i] is the 8 bytes from byte i on, little-endian: a strided view, no copy per cell
    padded = data + bytes(8)
    words = np.ndarray(shape=(len(data) + 1,), dtype="<u8", buffer=padded, strides=(1,))
    masks = np.array([(1 << 8 * k) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
    byte = np.frombuffer(padded, dtype=np.uint8)
    rowids = np.arange(n)
    for j in short:
        if widest[j] <= 1:
            # Fields of one byte (x, o, b; y, n): the byte is the key, counted, not sorted.
            key = byte[starts[j]]
            if widest[j] == 0 or not lengths[j].all():
                key = np.where(lengths[j] > 0, key, 0).astype(np.uint8)
            distinct = np.flatnonzero(np.bincount(key, minlength=256))
            lut = np.zeros(256, dtype=np.intp)
            lut[distinct] = np.arange(len(distinct))
            index = lut[key]
        else:
            key = words[starts[j]] & masks[lengths[j]]
            ordered = np.sort(key)
            distinct = ordered[np.flatnonzero(np.diff(ordered, prepend=ordered[0] ^ np.uint64(1)))]
            index = np.searchsorted(distinct, key)
        first = np.full(len(distinct), n)
        np.minimum.at(first, index, rowids)
        order = np.argsort(first, kind="stable")  # distinct keys in order of first appearance
        remap = np.empty(len(distinct), dtype=np.int32)
        remap[order] = np.arange(len(distinct), dtype=np.int32)
        labels = [int(v).to_bytes(8, "little").rstrip(b"\0").decode("utf-8") for v in distinct[order].tolist()]
        out[j] = (labels, remap[index])
    return [out[j] for j in range(width)]


def _split_codes(rows, delimiter, width, columns, chunk=2048):
    """Raw ``(labels, codes)`` of the given columns of ``rows``, by str.split a chunk of rows at a time.

    Only a chunk of cells exists as str objects at once; each column's cells are coded by
    C-level dict lookups.
    """
    n = len(rows)
    columns = list(columns)
    codes = np.empty((len(columns), n), dtype=np.int32)  # one contiguous row per column
    maps = [{} for _ in columns]
    for start in range(0, n, chunk):
        cells = delimiter.join(rows[start:start + chunk]).split(delimiter)
        stop = start + len(cells) // width
        for c, (j, code) in enumerate(zip(columns, maps)):
            col = cells[j::width]
            for new in filterfalse(code.__contains__, dict.fromkeys(col)):
                code[new] = len(code)
            codes[c, start:stop] = np.fromiter(map(code.__getitem__, col), dtype=np.int32, count=stop - start)
    return [(list(code), codes[c]) for c, code in enumerate(maps)]


def _split_quoted(text, delimiter, source):
    """As :func:`_split_plain`, for text with quotes, by the csv module."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header, header_line, cells, lines, line = None, None, [], [], 0
    try:
        for row in reader:
            start, line = line + 1, reader.line_num
            if len(row) <= 1 and not "".join(row).strip():
                continue  # a blank line
            if header is None:
                header, header_line = [name.strip() for name in row], start
            elif len(row) != len(header):
                # a quote left open swallows the lines after it into one field
                hint = (f" (a quoted field runs on to line {line}; is a closing quote missing?)"
                        if line > start else "")
                raise DataError(f"{source} line {start} has {_fields(len(row))}, header has {len(header)}{hint}")
            else:
                cells.extend(row)
                lines.append(start)
    except csv.Error as e:
        raise DataError(f"{source} line {reader.line_num}: cannot read CSV ({e})") from None
    return header, header_line, cells, lines
