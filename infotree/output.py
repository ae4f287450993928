"""Writing output files without ever destroying an input.

``--output`` writes to a temporary file in the same folder and renames it into
place, so a reader never sees half a file, and refuses a path that is one of
the command's inputs.
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from .errors import InfotreeError

__all__ = ["atomic_writer", "check_not_input", "write_atomic"]


def check_not_input(path, inputs) -> None:
    """Refuse an output path that names one of the input files."""
    out = os.path.realpath(os.fspath(path))
    for p in inputs:
        if p is not None and os.path.exists(p) and os.path.realpath(os.fspath(p)) == out:
            raise InfotreeError(f"--output {os.fspath(path)!r} is an input file; refusing to overwrite it (choose another name)")


@contextlib.contextmanager
def atomic_writer(path):
    """A text file handle on a temporary file that replaces ``path`` on success."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise InfotreeError(f"--output {path!r} is a directory; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".infotree-", dir=folder)
    except OSError as e:
        raise InfotreeError(f"cannot write {path!r}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    with atomic_writer(path) as f:
        f.write(text)
