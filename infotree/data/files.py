"""A data file's text: read within the input limit, decoded as UTF-8; binary, UTF-16 and other encodings
refused naming the line."""

from __future__ import annotations

import difflib
import os

from ..errors import DataError

__all__ = ["decode_text"]


def _read_text(source: str) -> str:
    """The file's text, decoded as UTF-8 (a BOM is accepted); binary or non-UTF-8 files are refused."""
    from .. import limits

    budget = limits.current().input_bytes
    try:
        with open(source, "rb") as f:
            # The first block decides a binary file (/dev/zero) at once; then at most the
            # budget is read, so an endless or huge input is refused, not read for minutes.
            data = f.read(min(budget + 1, 1 << 16))
            if b"\x00" not in data and len(data) <= budget:
                data += f.read(budget + 1 - len(data))
    except FileNotFoundError:
        raise DataError(f"no such file {source!r}{_nearby_file(source)}") from None
    except IsADirectoryError:
        raise DataError(f"{source!r} is a directory; expected a data file (.csv or .arff)") from None
    except OSError as e:
        raise DataError(f"cannot read {source!r}: {e.strerror or e}") from None
    if b"\x00" not in data and len(data) > budget:
        raise DataError(f"{source} is larger than the input limit of {budget} bytes "
                        f"(raise it with {limits.option('input_bytes')})")
    return decode_text(data, source, DataError, expected="text (CSV or ARFF)", save="re-save the file")


def decode_text(data: bytes, source: str, error, *, expected: str, save: str) -> str:
    """``data`` decoded as UTF-8 (a BOM is accepted); UTF-16, binary (a NUL byte) and other
    encodings are refused with ``error``, naming the line: ``expected`` says what the file
    should be, ``save`` how to mend it (``re-save the file``)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(f"{source} is UTF-16 text; {save} as UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise error(f"{source} line {line} contains a NUL byte; the file looks binary, expected {expected}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise error(f"{source} line {line}: byte {data[e.start:e.start + 1]!r} is not UTF-8; "
                    f"{save} as UTF-8") from None


def _nearby_file(source: str) -> str:
    folder, name = os.path.split(source)
    try:
        siblings = sorted(os.listdir(folder or "."))
    except OSError:
        return ""
    close = difflib.get_close_matches(name, siblings, n=1)
    return f" (did you mean {os.path.join(folder, close[0])!r}?)" if close else ""


def _lines(text):
    """Lines split at \\n, \\r\\n or \\r, as the csv module and editors count them."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
