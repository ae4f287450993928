"""An answers file's text and lines: read within the size limits, decoded as UTF-8, split as editors count
lines, each line without its ``#`` comment."""

from __future__ import annotations

import os
import sys

from ..errors import InfotreeError

__all__ = ["AnswersError", "MAX_FILE_CHARS", "MAX_LINES", "MAX_LINE_LENGTH", "read_answers"]

#: Largest answers file (bytes read from a file; characters of text given directly).
MAX_FILE_CHARS = 1_000_000
#: Most lines in an answers file.
MAX_LINES = 10_000
#: Longest line (characters); a longer line is reported unreadable without parsing.
MAX_LINE_LENGTH = 1_000


class AnswersError(InfotreeError):
    """An answers file that cannot be read at all (missing, too large, binary, not UTF-8)."""


def read_answers(path) -> str:
    """The text of an answers file (``"-"``: standard input), refusing what is not a small text file."""
    source = os.fspath(path)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_FILE_CHARS + 1)
            source = "<stdin>"
        else:
            with open(source, "rb") as f:
                data = f.read(MAX_FILE_CHARS + 1)
    except FileNotFoundError:
        raise AnswersError(f"no such file {source!r}; expected the answers file, one claim per line") from None
    except IsADirectoryError:
        raise AnswersError(f"{source!r} is a directory; expected the answers file, one claim per line") from None
    except OSError as e:
        raise AnswersError(f"cannot read {source!r}: {e.strerror or e}") from None
    return _decode(data, source)


def _decode(data: bytes, source: str) -> str:
    if len(data) > MAX_FILE_CHARS:
        raise AnswersError(f"{source} has more than {MAX_FILE_CHARS:,} bytes; "
                           f"an answers file may have at most {MAX_FILE_CHARS:,}")
    from ..data import decode_text

    return decode_text(data, source, AnswersError, expected="text with one claim per line", save="save the answers")


def _lines_of(text_or_lines) -> list[str]:
    """Lines split at \\n, \\r\\n or \\r (as editors count them), within the size limits."""
    if isinstance(text_or_lines, (bytes, bytearray)):
        text = _decode(bytes(text_or_lines), "answers")
    elif isinstance(text_or_lines, str):
        text = text_or_lines
    else:
        parts, size = [], 0
        for i, line in enumerate(text_or_lines):
            if i >= MAX_LINES:
                raise AnswersError(f"answers have more than {MAX_LINES:,} lines; at most {MAX_LINES:,} are allowed")
            if not isinstance(line, str):
                raise AnswersError(f"answers line {i + 1} is {type(line).__name__}, not text")
            size += len(line) + 1
            if size > MAX_FILE_CHARS + 1:
                raise AnswersError(f"answers have more than {MAX_FILE_CHARS:,} characters; "
                                   f"at most {MAX_FILE_CHARS:,} are allowed")
            parts.append(line.rstrip("\r\n"))
        text = "\n".join(parts)
    if text.startswith("\ufeff"):
        text = text[1:]
    if len(text) > MAX_FILE_CHARS:
        raise AnswersError(f"answers have more than {MAX_FILE_CHARS:,} characters; at most {MAX_FILE_CHARS:,} are allowed")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise AnswersError(f"answers line {line} contains a NUL character; the text looks binary, "
                           f"expected one claim per line")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise AnswersError(f"answers have {len(lines):,} lines; at most {MAX_LINES:,} are allowed")
    return lines


def _strip_comment(line: str) -> str:
    """The line without a ``#`` comment (a ``#`` inside quotes is kept), stripped."""
    if "#" not in line:
        return line.strip()
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#":
            return line[:i].strip()
    return line.strip()
